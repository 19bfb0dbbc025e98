#pragma once
// What a run was made from, as results files and reference files record it
// (docs/results.md "scenario_hash", docs/references.md "What a reference was made
// from"): the scenario as run, hashed, so that `wmnsim compare` can tell results of
// another scenario, duration or CWmin from results of the reference's.

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace wmnsim {

// The parts of a scenario document (after its --set overrides) that the hash
// covers: all of it but /simulation/seed (results and references record the seed
// apart: runs of one scenario over several seeds share one hash), /outputs (what
// gets written, not what is simulated), /description and /$schema (comments).
nlohmann::json hashed_part_of_scenario(const nlohmann::json& scenario);

// Canonical JSON text: object keys sorted (by bytes), no whitespace, numbers as
// nlohmann writes them except that a floating-point number with an integral
// value of at most 2^53 in magnitude is written as that integer (so 60 and 60.0,
// which an override and a file may spell differently, are one value).
std::string canonical_json(const nlohmann::json& value);

// FNV-1a (64 bits) of canonical_json(hashed_part_of_scenario(scenario)), as 16
// lower-case hex digits: results' "scenario_hash", references' "scenario_hash".
std::string scenario_hash(const nlohmann::json& scenario);
std::string scenario_hash(const nlohmann::ordered_json& scenario);

// Where two documents differ, as "JSON pointer: <a> ... <b>" items (values as
// compact JSON, long ones shortened), depth first in key order; numbers compare as
// canonical_json does (60 == 60.0). At most `limit` items, then "... and N more".
// `a_name` and `b_name` say whose each value is ("in the results").
std::vector<std::string> json_differences(const nlohmann::json& a, const nlohmann::json& b, const std::string& a_name,
                                          const std::string& b_name, std::size_t limit = 5);

}  // namespace wmnsim
