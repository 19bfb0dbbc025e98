#pragma once
// The parts of the JSON Schema (scenarios/schema/scenario.schema.json) and of
// docs/scenario.md that the registries own, generated from their entries: each
// entry's summary and source, and its keys' declarations (config/parameter_table.hpp),
// so the schema and the docs say what the parser checks. The rest of both files is
// written by hand; these functions replace only the registry-owned parts:
//  - schema: the `controllers` items (one per controller entry, with the common keys
//    around the entry's own), the flow's `transport` names and per-transport clauses,
//    and `queue.discipline` with the disciplines' keys;
//  - docs: the regions between `<!-- registry:NAME begin -->` and
//    `<!-- registry:NAME end -->` for controllers, transports and queue_disciplines;
//  - any doc's prose: the default between `<!--default:KIND.NAME.KEY-->` and
//    `<!--/default-->` (KIND controller, transport or queue; KEY dotted into an
//    object's members, `tcp.window_packets`; lower-case names only), so no default
//    is typed by hand; `<!--default:limit.max_nodes-->` likewise quotes the node cap
//    (kMaxNodes), which also bounds a node group's `count` in the schema.
// `wmnsim fragments` checks or rewrites the files; ctest `fragments` fails when they
// differ from what the registries produce.

#include <nlohmann/json.hpp>

#include <string>

#include "scenario/registries.hpp"

namespace wmnsim {

// `schema` with its registry-owned parts replaced. Throws std::invalid_argument when
// the schema lacks a section, or two queue disciplines declare one key differently
// (`queue` has one property per key).
nlohmann::ordered_json compose_schema(nlohmann::ordered_json schema, const Registries& registries);

// `markdown` with its registry regions regenerated. Throws std::invalid_argument when
// a region's markers are missing.
std::string compose_doc(const std::string& markdown, const Registries& registries);

// `markdown` with every `<!--default:...-->` value rewritten from the declaration it
// names, as the tables show it (ParameterSpec::default_text). Throws
// std::invalid_argument for a marker without its end, a name no registry declares or
// a parameter without a default.
std::string compose_defaults(const std::string& markdown, const Registries& registries);

}  // namespace wmnsim
