#include "link/queue_discipline_entry.hpp"

#include "link/drop_tail_queue.hpp"
#include "link/fair_queue.hpp"
#include "link/shaping_queue.hpp"
#include "link/fred_queue.hpp"

namespace wmnsim::link {

QueueDisciplineRegistry builtin_queue_disciplines() {
  QueueDisciplineRegistry r;
  r.add(drop_tail_entry());
  r.add(fair_queue_entry());
  r.add(token_bucket_entry());
  r.add(per_class_token_bucket_entry());
  r.add(fred_entry());
  return r;
}

}  // namespace wmnsim::link
