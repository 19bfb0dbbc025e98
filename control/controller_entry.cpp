#include "control/controller_entry.hpp"

#include <algorithm>

namespace wmnsim::control {

std::vector<std::size_t> gateways(const ControllerParseContext& ctx) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < ctx.node_count(); ++i) {
    if (ctx.node_role(i) == NodeRole::gateway) out.push_back(i);
  }
  return out;
}

std::vector<std::size_t> wireless_nodes(const ControllerParseContext& ctx) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < ctx.node_count(); ++i) {
    if (ctx.node_role(i) != NodeRole::host) out.push_back(i);
  }
  return out;
}

std::optional<std::size_t> resolve_gateway(const nlohmann::json& v, const std::string& path,
                                           ControllerParseContext& ctx) {
  const auto n = ctx.resolve_node(v, path);
  if (n && ctx.node_role(*n) != NodeRole::gateway) {
    ctx.issues().add(path, "node \"" + ctx.node_id(*n) + "\" is a " + std::string(to_string(ctx.node_role(*n))) +
                               ", not a gateway; give it \"role\": \"gateway\" or name a gateway");
    return std::nullopt;
  }
  return n;
}

std::optional<std::vector<std::size_t>> node_list(JsonReader& r, std::string_view key, bool gateways_only,
                                                  ControllerParseContext& ctx) {
  const nlohmann::json* list = r.array(key);
  if (list == nullptr) return std::nullopt;
  if (list->empty()) {
    ctx.issues().add(r.path_of(key), "the list is empty; omit \"" + std::string(key) + "\" to use the default");
    return std::nullopt;
  }
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < list->size(); ++i) {
    const std::string path = pointer_join(r.path_of(key), i);
    const auto n = gateways_only ? resolve_gateway((*list)[i], path, ctx) : ctx.resolve_node((*list)[i], path);
    if (!n) continue;
    if (std::find(out.begin(), out.end(), *n) != out.end()) {
      ctx.issues().add(path, "\"" + ctx.node_id(*n) + "\" is listed twice");
      continue;
    }
    if (!gateways_only && ctx.node_role(*n) == NodeRole::host) {
      ctx.issues().add(path, "\"" + ctx.node_id(*n) + "\" is a wired host; controllers act on wireless nodes");
      continue;
    }
    out.push_back(*n);
  }
  return out;
}

void require_edca(std::string_view type, JsonReader& r, ControllerParseContext& ctx) {
  if (ctx.mac().type != MacType::edca) {
    ctx.issues().add(r.path_of("type"),
                     "\"" + std::string(type) + "\" tunes EDCA parameters; set \"type\": \"edca\" in /mac");
  }
}

}  // namespace wmnsim::control
