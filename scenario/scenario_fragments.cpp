#include "scenario/scenario_fragments.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "scenario/scenario.hpp"

namespace wmnsim {

namespace {

using ojson = nlohmann::ordered_json;

constexpr int kMaxMsduBytes = 2304;  // as the loader's bound on payload_bytes

ojson parse_fragment(const std::string& text, const std::string& what) {
  if (text.empty()) return ojson::object();
  try {
    return ojson::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw std::invalid_argument("the schema fragment of " + what + " is not valid JSON: " + e.what());
  }
}

ojson& at(ojson& j, std::initializer_list<const char*> keys) {
  ojson* v = &j;
  std::string path;
  for (const char* key : keys) {
    path += "/" + std::string(key);
    if (!v->is_object() || !v->contains(key)) throw std::invalid_argument("the schema has no " + path);
    v = &(*v)[key];
  }
  return *v;
}

// The keys every controller has, read by scenario/scenario_controllers.cpp.
ojson controller_item(const control::ControllerEntry& e) {
  ojson frag = parse_fragment(e.schema, "controller \"" + e.name + "\"");
  ojson props = ojson::object();
  props["type"] = {{"const", e.name}, {"description", frag.value("description", "")}};
  props["id"] = {{"$ref", "#/$defs/id"}, {"description", "unique name for results; default <type>#<index>"}};
  props["start_s"] = {
      {"type", "number"}, {"description", "when it starts acting (seconds)"}, {"minimum", 0}, {"default", 0}};
  props["stop_s"] = {
      {"type", "number"}, {"description", "when it stops; default: never (seconds)"}, {"exclusiveMinimum", 0}};
  if (e.acts_on_nodes) {
    props["nodes"] = {{"$ref", "#/$defs/node_list"}, {"description", "nodes it acts on; default: every wireless node"}};
  }
  if (frag.contains("properties")) {
    for (auto& [key, value] : frag["properties"].items()) props[key] = value;
  }
  ojson item = {{"type", "object"}, {"properties", props}, {"required", {"type"}}, {"additionalProperties", false}};
  for (auto& [key, value] : frag.items()) {
    if (key != "description" && key != "properties") item[key] = value;
  }
  return item;
}

bool is_transport_clause(const ojson& item) {
  return item.contains("if") && item["if"].contains("properties") && item["if"]["properties"].contains("transport");
}

void compose_transports(ojson& schema, const transport::TransportRegistry& registry) {
  ojson& flow = at(schema, {"properties", "flows", "items"});
  ojson names = ojson::array();
  int smallest_header = kMaxMsduBytes;
  for (const auto& e : registry.entries()) {
    names.push_back(e.name);
    smallest_header = std::min(smallest_header, e.header_bytes);
  }
  at(flow, {"properties", "transport"})["enum"] = names;
  at(flow, {"properties", "payload_bytes"})["maximum"] = kMaxMsduBytes - smallest_header;
  const ojson ack = at(flow, {"properties", "access_category"});  // same values, its own description
  ojson clauses = ojson::array();
  for (const auto& e : registry.entries()) {
    ojson then = parse_fragment(e.schema, "transport \"" + e.name + "\"");
    if (!then.contains("properties")) then["properties"] = ojson::object();
    if (e.sends_acks) {
      then["properties"]["ack_access_category"] = {
          {"enum", ack.at("enum")},
          {"description", "EDCA access category of the ACKs (mac type edca only); default: access_category"}};
    }
    if (e.header_bytes != smallest_header) {
      then["properties"]["payload_bytes"] = {{"maximum", kMaxMsduBytes - e.header_bytes}};
    }
    if (then["properties"].empty()) continue;
    clauses.push_back({{"if", {{"properties", {{"transport", {{"const", e.name}}}}}}}, {"then", then}});
  }
  ojson& all_of = at(flow, {"allOf"});
  for (const ojson& item : all_of) {
    if (!is_transport_clause(item)) clauses.push_back(item);
  }
  all_of = clauses;
}

void compose_queue(ojson& schema, const mac::QueueDisciplineRegistry& registry) {
  ojson& queue = at(schema, {"$defs", "queue"});
  ojson& props = at(queue, {"properties"});
  ojson names = ojson::array();
  for (const auto& e : registry.entries()) names.push_back(e.name);
  props["discipline"] = {{"enum", names},
                         {"description", "queue discipline (docs/scenario.md, Queue disciplines)"},
                         {"default", "drop_tail"}};
  ojson requires_discipline = ojson::object();
  for (const auto& e : registry.entries()) {
    ojson frag = parse_fragment(e.schema, "queue discipline \"" + e.name + "\"");
    if (!frag.contains("properties")) continue;
    for (auto& [key, value] : frag["properties"].items()) {
      props[key] = value;
      requires_discipline[key] = {"discipline"};
    }
  }
  if (requires_discipline.empty()) {
    queue.erase("dependentRequired");
  } else {
    queue["dependentRequired"] = requires_discipline;
  }
}

std::string replace_region(const std::string& text, std::string_view name, const std::string& body) {
  const std::string begin = "<!-- registry:" + std::string(name) + " begin -->\n";
  const std::string end = "<!-- registry:" + std::string(name) + " end -->";
  const std::size_t b = text.find(begin);
  const std::size_t e = b == std::string::npos ? b : text.find(end, b);
  if (b == std::string::npos || e == std::string::npos) {
    throw std::invalid_argument("docs/scenario.md has no region \"" + begin.substr(0, begin.size() - 1) + "\" ... \"" +
                                end + "\"");
  }
  return text.substr(0, b + begin.size()) + body + text.substr(e);
}

}  // namespace

nlohmann::ordered_json compose_schema(nlohmann::ordered_json schema, const Registries& registries) {
  ojson items = ojson::array();
  for (const auto& e : registries.controllers.entries()) items.push_back(controller_item(e));
  at(schema, {"properties", "controllers", "items"})["oneOf"] = items;
  compose_transports(schema, registries.transports);
  compose_queue(schema, registries.queue_disciplines);
  // outputs.timeseries: the built-in kinds, then what registered transports offer.
  at(schema, {"properties", "outputs", "properties", "timeseries", "items"})["enum"] = timeseries_kinds(registries);
  return schema;
}

std::string compose_doc(const std::string& markdown, const Registries& registries) {
  std::string controllers = "| `type` | paper | parameters (default) |\n|---|---|---|\n";
  for (const auto& e : registries.controllers.entries()) controllers += e.doc + "\n";
  std::string transports;
  for (const auto& e : registries.transports.entries()) transports += e.doc + "\n\n";
  std::string queues = "| `discipline` | keys (default) | what it does |\n|---|---|---|\n";
  for (const auto& e : registries.queue_disciplines.entries()) queues += e.doc + "\n";
  std::string out = replace_region(markdown, "controllers", controllers);
  out = replace_region(out, "transports", transports);
  return replace_region(out, "queue_disciplines", queues);
}

}  // namespace wmnsim
