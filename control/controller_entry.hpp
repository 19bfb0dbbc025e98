#pragma once
// One kind of controller as the scenario format knows it: its name, its own keys of a
// `controllers` entry, each declared once (config/parameter_table.hpp: the schema
// and docs/scenario.md are generated from them), how it reads them, and how it
// builds its controller. The scenario layer reads the
// keys every controller has (type, id, start_s, stop_s and, when the entry acts on
// nodes, nodes) and hands the rest to the entry; the entry reports problems to the
// same IssueSink at their JSON paths and carries on, so one pass finds them all.

#include <nlohmann/json.hpp>

#include <any>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config/json_reader.hpp"
#include "config/parameter_table.hpp"
#include "control/controller_config.hpp"
#include "core/topology.hpp"
#include "mac/mac_params.hpp"

namespace wmnsim::control {

class Controller;
struct ControlContext;

// What an entry may ask of the scenario while it reads its keys; the scenario layer
// implements it over the nodes and the /mac section it has read so far.
class ControllerParseContext {
 public:
  virtual ~ControllerParseContext() = default;
  virtual IssueSink& issues() = 0;
  virtual const MacSection& mac() const = 0;  // the scenario-wide /mac
  virtual std::size_t node_count() const = 0;
  virtual const std::string& node_id(std::size_t node) const = 0;
  virtual NodeRole node_role(std::size_t node) const = 0;
  // A node reference (an id) at `path`: its index, or an issue naming the known ids.
  virtual std::optional<std::size_t> resolve_node(const nlohmann::json& v, const std::string& path) = 0;
  // A flow reference (an id) at `path`: its index, or an issue naming the known ids.
  virtual std::optional<std::size_t> resolve_flow(const nlohmann::json& v, const std::string& path) = 0;
  virtual std::size_t flow_count() const = 0;
  // A contention window at `path`: a size in slots, a power of two 1..32768.
  virtual std::optional<int> check_window(const nlohmann::json& v, const std::string& path) = 0;
};

struct ControllerEntry {
  // Reads the entry's own keys from `r` (the whole controller object; the common keys
  // are already read) and returns its parameters. Unknown keys are reported after it.
  using Parse = std::function<std::any(JsonReader& r, ControllerParseContext& ctx)>;
  using Factory = std::function<std::unique_ptr<Controller>(const ControllerConfig&, ControlContext&)>;

  std::string name;
  // True: takes "nodes", the node ids it acts on (default: every wireless node).
  // False: the entry names its own places (gateways) and forbids "nodes" itself.
  bool acts_on_nodes = true;
  // True: the controller tunes EDCA parameters. On a scenario written for DCF the
  // loader then builds EDCA MACs whose four categories all carry DCF's parameters
  // (AIFSN 2, the scenario's windows, one frame per access), with all traffic in
  // AC_BE, so that the DCF baseline and the tuned run are one --set apart
  // (docs/controllers.md, "EDCA from a DCF scenario").
  bool needs_edca = false;
  // True: the controller installs its own queue discipline on the MACs it acts on
  // (Mac::set_queue), which counts no place held by a frame in service: the loader
  // refuses it with mac.dequeue "ns3" (mac/mac_params.hpp Dequeue::ns3), and the ns3
  // preset leaves mac.dequeue alone beside it (scenario/compat_preset.cpp).
  bool replaces_queues = false;
  Parse parse;
  // Empty: parsed and validated, and a run refuses it (not simulated yet).
  Factory build;
  // What it does, in a sentence or two: the docs' controllers table and the schema's
  // description of the type. Its keys are described by `parameters`, not here.
  std::string summary;
  // The paper and section it implements ("001 Sec. 4").
  std::string source;
  // Its own keys (config/parameter_table.hpp): the parse reads them through these
  // declarations, and the schema and docs/scenario.md are generated from them. The
  // common keys (type, id, start_s, stop_s, nodes) are added around them.
  ParameterTable parameters;
  // Relations between its keys for the JSON Schema ("not", "if"/"then"), the same
  // rules its parse checks; null: none.
  nlohmann::ordered_json schema_rules;
};

// ---- helpers for entries ------------------------------------------------------------

// Indices of the gateways, and of every node with a radio (mesh and gateway).
std::vector<std::size_t> gateways(const ControllerParseContext& ctx);
std::vector<std::size_t> wireless_nodes(const ControllerParseContext& ctx);
// A node reference that must name a gateway.
std::optional<std::size_t> resolve_gateway(const nlohmann::json& v, const std::string& path,
                                           ControllerParseContext& ctx);
// "key": [ids...] of distinct wireless nodes (or gateways); absent -> nullopt (the
// caller's default applies).
std::optional<std::vector<std::size_t>> node_list(JsonReader& r, std::string_view key, bool gateways_only,
                                                  ControllerParseContext& ctx);
// An issue at /controllers/<i>/type unless /mac is EDCA.
void require_edca(std::string_view type, JsonReader& r, ControllerParseContext& ctx);

}  // namespace wmnsim::control
