#pragma once
// Queue disciplines by name, for the scenario's `queue.discipline` (docs/scenario.md,
// `mac` and `links`). An entry reads its own keys of a `queue` object (the capacity
// keys are common and read by the scenario layer), declared once
// (config/parameter_table.hpp: the schema and docs/scenario.md are generated from
// them), and builds the discipline for one MAC queue
// (one per access category under EDCA) or one wired-link direction.

#include <any>
#include <functional>
#include <memory>
#include <string>

#include "config/json_reader.hpp"
#include "config/parameter_table.hpp"
#include "config/registry.hpp"
#include "link/queue_discipline.hpp"
#include "link/queue_discipline_choice.hpp"
#include "link/queue_limit.hpp"

namespace wmnsim::link {

struct QueueDisciplineEntry {
  // Reads the entry's keys from the `queue` object. `base` is the inherited choice's
  // parameters when it is this same discipline (a per-node override of /mac's queue),
  // else nullptr: absent keys then take the discipline's defaults.
  using Parse = std::function<std::any(JsonReader& queue, const std::any* base)>;
  using Build = QueueDisciplineChoice::Build;

  std::string name;
  Parse parse;  // may be empty: no keys beyond the capacity
  Build build;
  // What it does (its row of the disciplines table in docs/scenario.md).
  std::string summary;
  // The paper (or standard) it follows, and where its defaults come from.
  std::string source;
  // Its keys of the `queue` object (config/parameter_table.hpp): its parse reads them
  // through these declarations; the schema of `queue` (where each requires
  // "discipline") and its docs table are generated from them. Disciplines may share a
  // key only with one declaration.
  ParameterTable parameters;
};

using QueueDisciplineRegistry = Registry<QueueDisciplineEntry>;

// drop_tail (the default), fq, token_bucket, per_class_token_bucket and fred.
QueueDisciplineRegistry builtin_queue_disciplines();

}  // namespace wmnsim::link
