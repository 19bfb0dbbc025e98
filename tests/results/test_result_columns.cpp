#include "results/result_columns.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

namespace wmnsim {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)

// A column reads back what it wrote, typed; an absent or null cell is named.
TEST(ResultColumns, ReadBackTypedAndNameTheMissingColumn) {
  nlohmann::ordered_json row;
  radio_column::channel.set(row, std::int64_t{36});
  kMacServiceDelay.mean_s.set(row, std::optional<double>());
  EXPECT_EQ(radio_column::channel.of(row), 36);
  EXPECT_FALSE(kMacServiceDelay.mean_s.value_in(row).has_value());
  try {
    (void)kMacServiceDelay.mean_s.of(row);
    FAIL() << "a null cell read as a value";
  } catch (const std::out_of_range& e) {
    EXPECT_NE(std::string(e.what()).find("mac_service_delay_mean_s"), std::string::npos);
  }
  EXPECT_THROW((void)mac_column::tx_success.cell(row), std::out_of_range);
}

// drops_<cause> names each cause as the summary's drops do.
TEST(ResultColumns, NodeDropsAreNamedAfterTheirCause) {
  EXPECT_EQ(node_drops(DropCause::queue_overflow).key(), "drops_queue_overflow");
  EXPECT_EQ(node_drops(DropCause::lifetime_expired).key(), "drops_lifetime_expired");
  std::set<std::string_view> keys;
  for (std::size_t c = 0; c < kDropCauseCount; ++c) keys.insert(node_drops(static_cast<DropCause>(c)).key());
  EXPECT_EQ(keys.size(), kDropCauseCount);
}

// Each table lists a key once, and docs/results.md's tables are the generated ones.
TEST(ResultColumns, DocsTablesAreGeneratedFromTheColumns) {
  for (const auto& table : {flow_column_docs(), summary_column_docs(), node_column_docs(), radio_column_docs(),
                            controller_column_docs()}) {
    std::set<std::string_view> keys;
    for (const ColumnDoc& c : table) {
      EXPECT_TRUE(keys.insert(c.key).second) << c.key;
      EXPECT_FALSE(c.meaning.empty()) << c.key;
    }
  }
  const std::string table = column_table({radio_column::cw_min.doc()});
  EXPECT_NE(table.find("| `cw_min` | slots | AC_BE's CWmin"), std::string::npos);
  EXPECT_THROW(compose_result_tables("no regions"), std::invalid_argument);
  std::ifstream in(std::filesystem::path(WMNSIM_SOURCE_DIR) / "docs/results.md");
  std::ostringstream doc;
  doc << in.rdbuf();
  EXPECT_EQ(compose_result_tables(doc.str()), doc.str()) << "run wmnsim fragments --write (tests/CMakeLists.txt)";
}

}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim
