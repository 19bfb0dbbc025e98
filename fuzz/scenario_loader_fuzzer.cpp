// libFuzzer target for the scenario loader (docs/scenario.md, "Limits"): any bytes
// as a scenario file, optionally followed by a line "--set" and one override per
// line, through the JSON reader, the overrides and the loader (core/ only: the
// network a scenario builds is fuzzed by fuzz/mutate_scenarios.py through the
// program). The loader may only accept the input or refuse it with ScenarioError;
// any other exception, a crash, a sanitizer report, a stack overflow or a hang is a
// finding.
//
// Built by scripts/fuzz.sh with clang (-fsanitize=fuzzer,address,undefined); not
// part of the default build.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "scenario/scenario.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  constexpr std::string_view kSeparator = "\n--set\n";
  const std::size_t cut = input.find(kSeparator);
  const std::string text(input.substr(0, cut));
  std::vector<std::string> sets;
  if (cut != std::string_view::npos) {
    std::string_view rest = input.substr(cut + kSeparator.size());
    while (!rest.empty()) {
      const std::size_t nl = rest.find('\n');
      sets.emplace_back(rest.substr(0, nl));
      rest = nl == std::string_view::npos ? std::string_view{} : rest.substr(nl + 1);
    }
  }
  try {
    (void)wmnsim::parse_scenario(wmnsim::apply_overrides(wmnsim::parse_json_text(text, "<fuzz>"), sets));
  } catch (const wmnsim::ScenarioError&) {
  }
  return 0;
}
