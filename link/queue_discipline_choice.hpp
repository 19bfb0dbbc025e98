#pragma once
// The queue discipline a scenario chose for an interface queue (docs/scenario.md,
// `queue.discipline`): the entry's name, the parameters its parse produced, and its
// build function (link/queue_discipline_entry.hpp). Carrying the build function lets
// the builders make the queue without a registry at hand.

#include <any>
#include <functional>
#include <memory>
#include <string>

#include "core/packet_sink.hpp"
#include "link/packet_classifier.hpp"
#include "link/queue_limit.hpp"

namespace wmnsim::link {

class QueueDiscipline;

struct QueueDisciplineChoice {
  using Build =
      std::function<std::unique_ptr<QueueDiscipline>(const QueueLimit& limit, const std::any& params, DropSink& drops,
                                                     const QueueContext& context)>;

  std::string name = "drop_tail";
  std::any params;  // what the entry's parse produced; empty: no `queue` object was read, use defaults
  Build build;      // empty only before parsing: the owner's own drop-tail queue applies
};

}  // namespace wmnsim::link
