#include "link/queue_discipline_entry.hpp"

#include "link/drop_tail_queue.hpp"
#include "link/fred_queue.hpp"

namespace wmnsim::mac {

QueueDisciplineRegistry builtin_queue_disciplines() {
  QueueDisciplineRegistry r;
  r.add(drop_tail_entry());
  r.add(fred_entry());
  return r;
}

}  // namespace wmnsim::mac
