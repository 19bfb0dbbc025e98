#include "scenario/scenario_fragments.hpp"

#include <algorithm>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "scenario/compat_preset.hpp"
#include "scenario/scenario.hpp"

namespace wmnsim {

namespace {

using ojson = nlohmann::ordered_json;

constexpr int kLoaderMaxMsduBytes = 2304;  // as the loader's bound on payload_bytes

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

// The keys every controller has, read by scenario/scenario_controllers.cpp, then its own.
ojson controller_item(const control::ControllerEntry& e) {
  ojson props = ojson::object();
  props["type"] = {{"const", e.name}, {"description", e.source + ": " + e.summary}};
  props["id"] = {{"$ref", "#/$defs/id"}, {"description", "unique name for results; default <type>#<index>"}};
  props["start_s"] = {
      {"type", "number"}, {"description", "when it starts acting (seconds)"}, {"minimum", 0}, {"default", 0}};
  props["stop_s"] = {
      {"type", "number"}, {"description", "when it stops; default: never (seconds)"}, {"exclusiveMinimum", 0}};
  if (e.acts_on_nodes) {
    props["nodes"] = {{"$ref", "#/$defs/node_list"}, {"description", "nodes it acts on; default: every wireless node"}};
  }
  const ojson own = e.parameters.schema_properties();
  for (const auto& [key, value] : own.items()) props[key] = value;
  ojson required = {"type"};
  for (const auto& key : e.parameters.required_keys()) required.push_back(key);
  ojson item = {{"type", "object"}, {"properties", props}, {"required", required}, {"additionalProperties", false}};
  if (e.schema_rules.is_object()) {
    for (const auto& [key, value] : e.schema_rules.items()) item[key] = value;
  }
  return item;
}

bool is_transport_clause(const ojson& item) {
  return item.contains("if") && item["if"].contains("properties") && item["if"]["properties"].contains("transport");
}

void compose_transports(ojson& schema, const transport::TransportRegistry& registry) {
  ojson& flow = at(schema, {"properties", "flows", "items"});
  ojson names = ojson::array();
  int smallest_header = kLoaderMaxMsduBytes;
  for (const auto& e : registry.entries()) {
    names.push_back(e.name);
    smallest_header = std::min(smallest_header, e.header_bytes);
  }
  at(flow, {"properties", "transport"})["enum"] = names;
  at(flow, {"properties", "payload_bytes"})["maximum"] = kLoaderMaxMsduBytes - smallest_header;
  const ojson ack = at(flow, {"properties", "access_category"});  // same values, its own description
  ojson clauses = ojson::array();
  for (const auto& e : registry.entries()) {
    ojson then = ojson::object();
    then["properties"] = e.parameters.schema_properties();
    if (e.sends_acks) {
      then["properties"]["ack_access_category"] = {
          {"enum", ack.at("enum")},
          {"description", "EDCA access category of the ACKs (mac type edca only); default: access_category"}};
    }
    if (e.header_bytes != smallest_header) {
      then["properties"]["payload_bytes"] = {{"maximum", kLoaderMaxMsduBytes - e.header_bytes}};
    }
    const ojson required = e.parameters.required_keys();
    if (!required.empty()) then["required"] = required;
    if (then["properties"].empty()) continue;
    clauses.push_back({{"if", {{"properties", {{"transport", {{"const", e.name}}}}}}}, {"then", then}});
  }
  ojson& all_of = at(flow, {"allOf"});
  for (const ojson& item : all_of) {
    if (!is_transport_clause(item)) clauses.push_back(item);
  }
  all_of = clauses;
}

void compose_queue(ojson& schema, const link::QueueDisciplineRegistry& registry) {
  ojson& queue = at(schema, {"$defs", "queue"});
  ojson& props = at(queue, {"properties"});
  ojson names = ojson::array();
  for (const auto& e : registry.entries()) names.push_back(e.name);
  props["discipline"] = {{"enum", names},
                         {"description", "queue discipline (docs/scenario.md, Queue disciplines)"},
                         {"default", "drop_tail"}};
  // The keys of the disciplines composed last time go first: a discipline removed or
  // renamed since leaves nothing behind.
  if (queue.contains("dependentRequired")) {
    for (const auto& [key, value] : queue["dependentRequired"].items()) props.erase(key);
  }
  // A key several disciplines take is one property: it must be declared alike by each
  // (the same spec, shared), and its description names them.
  ojson requires_discipline = ojson::object();
  std::vector<std::pair<std::string, std::vector<std::string>>> takers;  // key -> disciplines, first-seen order
  std::set<std::string> required_keys;
  for (const auto& e : registry.entries()) {
    for (const ParameterSpec& spec : e.parameters.specs()) {
      const ojson declared = spec.schema();
      if (requires_discipline.contains(spec.key)) {
        auto it = std::find_if(takers.begin(), takers.end(), [&](const auto& t) { return t.first == spec.key; });
        ojson seen = props[spec.key];
        seen["description"] = declared["description"];
        if (seen != declared || spec.required != required_keys.contains(spec.key)) {
          throw std::invalid_argument("queue discipline \"" + e.name + "\" declares \"" + spec.key +
                                      "\" unlike " + it->second.front() + " does; share one declaration");
        }
        it->second.push_back(e.name);
        continue;
      }
      props[spec.key] = declared;
      if (spec.required) required_keys.insert(spec.key);
      requires_discipline[spec.key] = {"discipline"};
      takers.push_back({spec.key, {e.name}});
    }
  }
  // A key required by a discipline cannot be in `required` (the queue is one object
  // for every discipline, and a node's override inherits its base's values): its
  // description says it.
  for (const auto& [key, disciplines] : takers) {
    std::string who;
    for (const std::string& n : disciplines) who += (who.empty() ? "" : ", ") + n;
    std::string text = who + ": " + props[key]["description"].get<std::string>();
    if (required_keys.contains(key)) text += "; required, unless an override inherits it from the same discipline";
    props[key]["description"] = text;
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
  // compat: the presets scenario/compat_preset.hpp knows.
  at(schema, {"properties", "compat"})["enum"] = compat_preset_names();
  // outputs.timeseries: the built-in kinds, then what registered transports offer.
  at(schema, {"properties", "outputs", "properties", "timeseries", "items"})["enum"] = timeseries_kinds(registries);
  // outputs.event_trace.kinds: the trace's kinds (core/event_kind.hpp).
  at(schema, {"properties", "outputs", "properties", "event_trace", "properties", "kinds", "items"})["enum"] =
      enum_names(names(kEventKinds));
  // A node group's count: up to the node cap the loader applies (kMaxNodes), in
  // every placement's clause that takes a count.
  for (ojson& clause : at(schema, {"properties", "node_groups", "items", "allOf"})) {
    if (clause.contains("then") && clause["then"].contains("properties") &&
        clause["then"]["properties"].contains("count")) {
      clause["then"]["properties"]["count"]["maximum"] = kMaxNodes;
    }
  }
  return schema;
}

namespace {

std::string parameters_doc(const ParameterTable& table) {
  return ParameterTable::doc_header() + table.doc_rows();
}

std::string status(bool simulated) {
  return simulated ? "simulated" : "validated; `run` refuses it (not simulated yet)";
}

}  // namespace

std::string compose_doc(const std::string& markdown, const Registries& registries) {
  // Controllers: one row each, then each one's own keys.
  std::string controllers = "| `type` | paper | status | what it does |\n|---|---|---|---|\n";
  for (const auto& e : registries.controllers.entries()) {
    controllers += "| `" + e.name + "` | " + e.source + " | " + status(static_cast<bool>(e.build)) + " | " +
                   e.summary + " |\n";
  }
  controllers += "\nThe keys of each type, besides `type`, `id`, `start_s`, `stop_s` and (where it acts on "
                 "nodes) `nodes`:\n";
  for (const auto& e : registries.controllers.entries()) {
    controllers += "\n**`" + e.name + "`**";
    if (!e.acts_on_nodes) controllers += " (no `nodes`: it names its own places)";
    controllers += "\n\n" + (e.parameters.empty() ? std::string("No keys of its own.\n") : parameters_doc(e.parameters));
  }
  // Transports: a paragraph each, with its keys.
  std::string transports;
  for (const auto& e : registries.transports.entries()) {
    transports += "`" + e.name + "` (" + (e.source.empty() ? "" : e.source + "; ") + status(static_cast<bool>(e.build)) +
                  "): " + e.summary + "\n\n";
    if (!e.parameters.empty()) transports += parameters_doc(e.parameters) + "\n";
  }
  // Queue disciplines: one row each, then each one's keys.
  std::string queues = "| `discipline` | from | keys | what it does |\n|---|---|---|---|\n";
  for (const auto& e : registries.queue_disciplines.entries()) {
    std::string keys;
    for (const std::string& k : e.parameters.keys()) keys += (keys.empty() ? "`" : ", `") + k + "`";
    queues += "| `" + e.name + "` | " + e.source + " | " + keys + " | " + e.summary + " |\n";
  }
  for (const auto& e : registries.queue_disciplines.entries()) {
    if (e.parameters.empty()) continue;
    queues += "\n**`" + e.name + "`**\n\n" + parameters_doc(e.parameters);
  }
  std::string out = replace_region(markdown, "controllers", controllers);
  out = replace_region(out, "transports", transports);
  out = replace_region(out, "queue_disciplines", queues);
  // Not a registry, but owned by code all the same: the ns3 preset's rows.
  out = replace_region(out, "compat_ns3", ns3_compat_table());
  return compose_defaults(out, registries);
}

namespace {

std::vector<std::string> split_dots(std::string_view text) {
  std::vector<std::string> parts;
  std::size_t from = 0;
  for (std::size_t dot; (dot = text.find('.', from)) != std::string_view::npos; from = dot + 1) {
    parts.emplace_back(text.substr(from, dot - from));
  }
  parts.emplace_back(text.substr(from));
  return parts;
}

// The declaration `path` names: KIND.NAME.KEY[.MEMBER...].
const ParameterSpec& declared_parameter(const std::string& path, const Registries& registries) {
  const std::vector<std::string> parts = split_dots(path);
  const auto unknown = [&] { return std::invalid_argument("<!--default:" + path + "-->: no such parameter"); };
  if (parts.size() < 3) throw unknown();
  const ParameterTable* table = nullptr;
  if (parts[0] == "controller") {
    if (const auto* e = registries.controllers.find(parts[1])) table = &e->parameters;
  } else if (parts[0] == "transport") {
    if (const auto* e = registries.transports.find(parts[1])) table = &e->parameters;
  } else if (parts[0] == "queue") {
    if (const auto* e = registries.queue_disciplines.find(parts[1])) table = &e->parameters;
  }
  if (table == nullptr) throw unknown();
  const ParameterSpec* spec = table->find(parts[2]);
  for (std::size_t i = 3; spec != nullptr && i < parts.size(); ++i) {
    const auto& m = spec->members;
    const auto it = std::find_if(m.begin(), m.end(), [&](const ParameterSpec& s) { return s.key == parts[i]; });
    spec = it == m.end() ? nullptr : &*it;
  }
  if (spec == nullptr) throw unknown();
  return *spec;
}

}  // namespace

// A loader's cap the docs quote: limit.NAME.
std::optional<std::string> limit_text(const std::string& path) {
  if (path == "limit.max_nodes") return std::to_string(kMaxNodes);
  return std::nullopt;
}

std::string compose_defaults(const std::string& markdown, const Registries& registries) {
  static constexpr std::string_view kOpen = "<!--default:";
  static constexpr std::string_view kOpenEnd = "-->";
  static constexpr std::string_view kClose = "<!--/default-->";
  // Only lower-case names are markers: the docs can show the form (KIND.NAME.KEY).
  const auto is_name = [](const std::string& path) {
    return !path.empty() && std::all_of(path.begin(), path.end(), [](char c) {
      return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
    });
  };
  std::string out;
  std::size_t from = 0;
  for (std::size_t open; (open = markdown.find(kOpen, from)) != std::string::npos;) {
    const std::size_t name_at = open + kOpen.size();
    const std::size_t name_end = markdown.find(kOpenEnd, name_at);
    const std::string path = markdown.substr(name_at, name_end == std::string::npos ? 0 : name_end - name_at);
    if (!is_name(path)) {
      out.append(markdown, from, name_at - from);
      from = name_at;
      continue;
    }
    const std::size_t close = markdown.find(kClose, name_end);
    if (close == std::string::npos) {
      throw std::invalid_argument("<!--default:" + path + "--> without its <!--/default-->");
    }
    const std::optional<std::string> limit = limit_text(path);
    const std::string text = limit ? *limit : declared_parameter(path, registries).default_text();
    if (text.empty() || text == "required") {
      throw std::invalid_argument("<!--default:" + path + "-->: the parameter has no default");
    }
    out.append(markdown, from, name_end + kOpenEnd.size() - from);
    out += text;
    out += kClose;
    from = close + kClose.size();
  }
  out.append(markdown, from);
  return out;
}

}  // namespace wmnsim
