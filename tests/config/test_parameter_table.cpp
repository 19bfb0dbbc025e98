// One declaration of a parameter drives the parser's check, the JSON Schema and the
// docs (config/parameter_table.hpp), and every registered entry declares its
// parameters fully.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "config/parameter_table.hpp"
#include "scenario/registries.hpp"
#include "scenario/scenario_fragments.hpp"
#include "tests/scenario/test_scenario_util.hpp"

namespace wmnsim {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

using ojson = nlohmann::ordered_json;

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

const IntegerParameter& buffer_key() {
  static const IntegerParameter key({.key = "buffer_packets",
                                     .unit = "packets",
                                     .min = 1,
                                     .max = 100,
                                     .fallback = 25,
                                     .description = "the shared buffer",
                                     .source = "tests only"});
  return key;
}

TEST(ConfigParameterTable, ReadingTheDefaultOfAParameterWithoutOneIsAPluginsMistake) {
  // A present key is read as always; an absent one needs the declared default, and a
  // declaration without one says so by name rather than failing on a JSON null.
  const IntegerParameter no_default({.key = "window", .unit = "packets", .min = 1, .max = 10, .fallback = std::nullopt,
                                     .description = "w", .source = "tests only"});
  const nlohmann::json doc = R"({})"_json;
  IssueSink issues;
  JsonReader r(doc, "/x", issues);
  EXPECT_THROW(
      {
        try {
          no_default.read_or(r);
        } catch (const std::logic_error& e) {
          EXPECT_NE(std::string(e.what()).find("'window' has no declared default"), std::string::npos);
          throw;
        }
      },
      std::logic_error);
  EXPECT_EQ(no_default.read_or(r, 4), 4);
  EXPECT_EQ(buffer_key().read_or(r), 25);
}

TEST(ConfigParameterTable, OneDeclarationDrivesTheCheckTheSchemaAndTheDocs) {
  // The parser: the declared range, at the key's JSON path, in JsonReader's words.
  const nlohmann::json doc = R"({"buffer_packets": 101})"_json;
  IssueSink issues;
  JsonReader r(doc, "/queue", issues);
  EXPECT_EQ(buffer_key().read_or(r), 25);  // out of range: reported, the default used
  r.finish();
  ASSERT_EQ(issues.issues().size(), 1U);
  EXPECT_EQ(issues.issues()[0].path, "/queue/buffer_packets");
  EXPECT_EQ(issues.issues()[0].message, "expected an integer 1..100, got 101");
  // The schema: the same range and default.
  const ojson schema = buffer_key().schema();
  EXPECT_EQ(schema["type"], "integer");
  EXPECT_EQ(schema["minimum"], 1);
  EXPECT_EQ(schema["maximum"], 100);
  EXPECT_EQ(schema["default"], 25);
  EXPECT_EQ(schema["description"], "the shared buffer (packets); tests only");
  // The docs: the same again.
  const ParameterTable table{buffer_key()};
  EXPECT_EQ(table.doc_rows(), "| `buffer_packets` | integer 1..100 (packets) | 25 | the shared buffer | tests only |\n");
}

TEST(ConfigParameterTable, EachKindReadsAsJsonReaderDoes) {
  const NumberParameter share({.key = "share",
                               .range = NumberRange::open(0, 1),
                               .fallback = 0.5,
                               .description = "a share",
                               .source = "tests only"});
  const TimeParameter lead({.key = "lead_s",
                            .range = NumberRange::closed(0, 2),
                            .fallback = Time::ms(10),
                            .description = "a lead",
                            .source = "tests only"});
  const NumberParameter rate({.key = "rate_bps",
                              .unit = "bit/s",
                              .range = NumberRange::at_least(1),
                              .description = "a rate",
                              .source = "tests only",
                              .required = true,
                              .example = "125000"});
  const nlohmann::json doc = R"({"share": 1, "lead_s": 0.5})"_json;
  IssueSink issues;
  JsonReader r(doc, "/c", issues);
  EXPECT_EQ(share.read_or(r), 0.5);
  EXPECT_EQ(lead.read_or(r), Time::ms(500));
  EXPECT_EQ(rate.read_or(r, 7.0, /*inherited=*/false), 7.0);
  r.finish();
  ASSERT_EQ(issues.issues().size(), 2U) << test::render(issues.issues());
  EXPECT_TRUE(test::has_issue(issues.issues(), "/c/share", "expected a number > 0 and < 1, got 1"));
  EXPECT_TRUE(test::has_issue(issues.issues(), "/c/rate_bps",
                              "missing required key \"rate_bps\" (e.g. \"rate_bps\": 125000)"));
  EXPECT_EQ(lead.schema()["default"], 0.01);
  EXPECT_EQ(lead.value_text(), "number 0..2 (s)");
  EXPECT_EQ(rate.default_text(), "required");
  EXPECT_EQ(share.schema()["exclusiveMaximum"], 1);
}

// The real case of issue 46: the gateway's buffer_packets was capped by the parser
// and unbounded in the schema.
TEST(ConfigParameterTable, GatewayBufferLimitIsTheSameInParserSchemaAndDocs) {
  nlohmann::json doc = test::minimal_scenario();
  doc["controllers"] = R"([{"type": "gateway_rate_control", "buffer_packets": 1000001}])"_json;
  EXPECT_TRUE(test::has_issue(test::issues_of(doc), "/controllers/0/buffer_packets",
                              "expected an integer 1..1000000, got 1000001"));
  const std::filesystem::path root(WMNSIM_SOURCE_DIR);
  const Registries registries;
  const ojson schema = compose_schema(ojson::parse(read_text(root / "scenarios/schema/scenario.schema.json")),
                                      registries);
  bool found = false;
  for (const ojson& item : schema["properties"]["controllers"]["items"]["oneOf"]) {
    if (item["properties"]["type"]["const"] != "gateway_rate_control") continue;
    found = true;
    EXPECT_EQ(item["properties"]["buffer_packets"]["maximum"], 1000000);
    EXPECT_EQ(item["properties"]["buffer_packets"]["default"], 25);
    // The FRED object's members are the fred discipline's declarations, described.
    ojson gateway_max_p = item["properties"]["fred"]["properties"]["max_p"];
    ojson queue_max_p = schema["$defs"]["queue"]["properties"]["max_p"];
    EXPECT_NE(gateway_max_p["description"].get<std::string>().find("Lin and Morris 1997"), std::string::npos);
    gateway_max_p.erase("description");
    queue_max_p.erase("description");
    EXPECT_EQ(gateway_max_p, queue_max_p);
  }
  EXPECT_TRUE(found);
  const std::string md = compose_doc(read_text(root / "docs/scenario.md"), registries);
  EXPECT_NE(md.find("| `buffer_packets` | integer 1..1000000 (packets) | 25 |"), std::string::npos);
}

// The prose of the other docs quotes defaults through markers: each is rewritten from
// the declaration it names, object members included; a name nothing declares, or a
// parameter without a default, is refused.
TEST(ConfigParameterTable, ProseDefaultsComeFromTheDeclarations) {
  const Registries registries;
  EXPECT_EQ(compose_defaults("window <!--default:transport.tcp.tcp.window_packets-->7<!--/default--> segments, "
                             "share <!--default:controller.tcc.forward_share--><!--/default-->, depth "
                             "<!--default:queue.token_bucket.burst_bytes-->1<!--/default-->",
                             registries),
            "window <!--default:transport.tcp.tcp.window_packets-->64<!--/default--> segments, "
            "share <!--default:controller.tcc.forward_share-->0.8<!--/default-->, depth "
            "<!--default:queue.token_bucket.burst_bytes-->1500<!--/default-->");
  EXPECT_THROW(compose_defaults("<!--default:queue.fq.no_such_key-->5<!--/default-->", registries),
               std::invalid_argument);
  EXPECT_THROW(compose_defaults("<!--default:queue.token_bucket.rate_bps-->1<!--/default-->", registries),
               std::invalid_argument);  // required: no default
  EXPECT_THROW(compose_defaults("<!--default:queue.fq.quantum_bytes-->1500", registries), std::invalid_argument);
}

// The queue's keys are one schema object for every discipline, so a discipline's
// required key is said in its description; a transport's required keys are required.
TEST(ConfigParameterTable, RequiredQueueKeysAreDescribedAsRequired) {
  const std::filesystem::path root(WMNSIM_SOURCE_DIR);
  const ojson schema = compose_schema(ojson::parse(read_text(root / "scenarios/schema/scenario.schema.json")),
                                      Registries());
  const std::string rate = schema["$defs"]["queue"]["properties"]["rate_bps"]["description"].get<std::string>();
  EXPECT_NE(rate.find("required"), std::string::npos) << rate;
  const std::string burst = schema["$defs"]["queue"]["properties"]["burst_bytes"]["description"].get<std::string>();
  EXPECT_EQ(burst.find("required"), std::string::npos) << burst;
}

// The docs' status column comes from whether the entry can build its controller, so
// the docs cannot call a controller refused when it runs.
TEST(ConfigParameterTable, StatusFollowsTheBuildFunction) {
  const std::filesystem::path root(WMNSIM_SOURCE_DIR);
  const std::string markdown = read_text(root / "docs/scenario.md");
  Registries registries;
  EXPECT_NE(compose_doc(markdown, registries).find("| `tcc` | 004 Sec. 3 | simulated |"), std::string::npos);
  control::ControllerEntry tcc = *registries.controllers.find("tcc");
  tcc.build = nullptr;
  registries.controllers.add(tcc);
  EXPECT_NE(compose_doc(markdown, registries).find("| `tcc` | 004 Sec. 3 | validated; `run` refuses it (not simulated yet) |"),
            std::string::npos);
}

void expect_described(const ParameterSpec& spec, const std::string& owner) {
  EXPECT_FALSE(spec.description.empty()) << owner << ": \"" << spec.key << "\" has no description";
  EXPECT_FALSE(spec.source.empty() && spec.kind != ParameterKind::object)
      << owner << ": \"" << spec.key << "\" names no paper, clause or \"ours\"";
  if (spec.kind == ParameterKind::choice) {
    EXPECT_FALSE(spec.choices.empty()) << owner << ": " << spec.key;
  }
  for (const ParameterSpec& m : spec.members) expect_described(m, owner + " " + spec.key);
}

TEST(ConfigParameterTable, EveryRegisteredParameterIsDescribed) {
  const Registries registries;
  for (const auto& e : registries.controllers.entries()) {
    EXPECT_FALSE(e.summary.empty()) << "controller " << e.name;
    EXPECT_FALSE(e.source.empty()) << "controller " << e.name;
    for (const ParameterSpec& s : e.parameters.specs()) expect_described(s, "controller " + e.name);
  }
  for (const auto& e : registries.transports.entries()) {
    EXPECT_FALSE(e.summary.empty()) << "transport " << e.name;
    for (const ParameterSpec& s : e.parameters.specs()) expect_described(s, "transport " + e.name);
  }
  for (const auto& e : registries.queue_disciplines.entries()) {
    EXPECT_FALSE(e.summary.empty()) << "queue discipline " << e.name;
    for (const ParameterSpec& s : e.parameters.specs()) expect_described(s, "queue discipline " + e.name);
  }
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim
