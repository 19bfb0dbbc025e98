#pragma once
// Internals of the scenario loader, shared by its section parsers
// (scenario_radio.cpp, scenario_nodes.cpp, scenario_traffic.cpp,
// scenario_controllers.cpp). Not part of the public API.

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config/json_reader.hpp"
#include "scenario/registries.hpp"
#include "scenario/scenario.hpp"

namespace wmnsim {
// A user's string quoted for a message: "text", cut to 60 bytes with "..." (an id
// or a key may be a megabyte long; the sentence around it must survive).
// Defined in json_reader.cpp.
std::string quote_short(std::string_view s);
}  // namespace wmnsim

namespace wmnsim::scenario_detail {

// ---- ids and references ----------------------------------------------------------

// Ids of nodes and flows: letters, digits, '_', '-', '.'. Keeping '@' and '*' out
// leaves them free for "@gateway" and the default route "*".
bool valid_id(std::string_view id);

// The ids of one kind ("node", "flow") in definition order, for lookups and for
// "not defined (known: ...)" messages.
class IdIndex {
 public:
  explicit IdIndex(std::string kind) : kind_(std::move(kind)) {}

  // Records `id` as defined by the entry at `entry_path` with `index`. A duplicate
  // records an issue at `id_path` naming the first definition and returns false.
  bool define(const std::string& id, std::size_t index, const std::string& entry_path,
              const std::string& id_path, IssueSink& issues);
  std::optional<std::size_t> find(std::string_view id) const;
  // A JSON value that must name a defined id.
  std::optional<std::size_t> resolve(const nlohmann::json& v, const std::string& path,
                                     IssueSink& issues) const;
  // The same for an id already read as a string.
  std::optional<std::size_t> resolve_id(const std::string& id, const std::string& path,
                                        IssueSink& issues) const;
  bool empty() const { return ordered_.empty(); }

 private:
  struct Entry {
    std::size_t index;
    std::string path;
  };
  std::string kind_;
  std::map<std::string, Entry, std::less<>> by_id_;
  std::vector<std::string> ordered_;
};

// Reads an "id" key (required) and checks its spelling.
std::optional<std::string> read_id(JsonReader& r, std::string_view kind);

// ---- shared context --------------------------------------------------------------

struct ParseContext {
  Scenario& scenario;
  IssueSink& issues;
  const Registries& registries;
  IdIndex nodes{"node"};
  IdIndex flows{"flow"};
  IdIndex controllers{"controller"};
  // For the shadowing seed (ShadowingSection::seed), resolved after the nodes.
  bool shadowing_seed_given = false;
  std::vector<std::uint64_t> placement_seeds{};  // of the random node groups, in order
  double grid_points = 0.0;  // enumerated by random_grid groups so far (at most 10^6)
  // /mac's params, shared by every radio without a MAC override (RadioConfig::mac);
  // made once /mac is read, before the nodes.
  std::shared_ptr<const MacParams> scenario_mac{};
};

// ---- section parsers: each reads one top-level key -------------------------------

// A contention window: a size in slots, a power of two 1..32768.
std::optional<int> check_window(const nlohmann::json& v, const std::string& path,
                                IssueSink& issues);
// A radio channel that must exist in the standard's band.
std::optional<int> check_channel(const nlohmann::json& v, const std::string& path,
                                 IssueSink& issues, PhyStandard standard);
void parse_phy(JsonReader r, ParseContext& ctx);
void parse_propagation(JsonReader r, ParseContext& ctx);
// Cross-section rules between phy and propagation (after both are read).
void check_phy_against_propagation(const nlohmann::json& doc, ParseContext& ctx);
void parse_mac(JsonReader r, ParseContext& ctx);
// A MAC override object: every key optional, `base` supplies the rest. Used for
// /mac itself (base = standard defaults) and for per-node and per-radio overrides.
MacParams parse_mac_params(JsonReader& r, const MacParams& base, const ParseContext& ctx);
// A `queue` object: the capacity (`base` supplies it when absent) and the discipline
// (`discipline` holds the inherited choice and receives the result).
link::QueueLimit parse_queue(JsonReader r, const link::QueueLimit& base, link::QueueDisciplineChoice& discipline,
                       const ParseContext& ctx);

// The default discipline (drop_tail) and `queue.discipline` with the chosen entry's keys.
link::QueueDisciplineChoice default_queue_discipline(const ParseContext& ctx);
void parse_queue_discipline(JsonReader& r, link::QueueDisciplineChoice& choice, const ParseContext& ctx);

void parse_nodes(const nlohmann::json* nodes, const nlohmann::json* groups, ParseContext& ctx);
void parse_links(const nlohmann::json* links, ParseContext& ctx);
void parse_routing(JsonReader r, ParseContext& ctx);
// The `routing` section's AODV keys (RFC 3561 Sec. 10; scenario/scenario_aodv.cpp).
void parse_aodv(JsonReader& r, AodvParams& out, IssueSink& issues);
void parse_flows(const nlohmann::json* flows, ParseContext& ctx);
void parse_controllers(const nlohmann::json* controllers, ParseContext& ctx);

}  // namespace wmnsim::scenario_detail
