#include "link/queue_discipline_entry.hpp"

#include "link/drop_tail_queue.hpp"

namespace wmnsim::mac {

QueueDisciplineRegistry builtin_queue_disciplines() {
  QueueDisciplineRegistry r;
  r.add(drop_tail_entry());
  return r;
}

}  // namespace wmnsim::mac
