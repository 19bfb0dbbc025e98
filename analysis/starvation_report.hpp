#pragma once
// The starvation model (control/starvation_model.hpp) as JSON and as the table that
// `wmnsim model starvation` prints; shared by the command line and the Python module
// so that both print exactly the same thing.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "control/starvation_model.hpp"

namespace wmnsim {

// Parameters from a JSON object whose keys are StarvationModelParams' field names;
// missing keys keep their defaults. Unknown keys and wrong types throw
// std::invalid_argument naming the key.
control::StarvationModelParams starvation_params_from_json(const nlohmann::ordered_json& object);

// {"params": {...}, <every result field>, "p": {"1".."6", "c", "delta"}, ...}.
nlohmann::ordered_json starvation_to_json(const control::StarvationModelParams& params,
                                          const control::StarvationModelResult& result);

// One row per element of `rows` (starvation_to_json documents, e.g. a CWmin_B sweep):
// the throughput table, then the channel-state probabilities. The heading line shows
// the first row's parameters.
std::string format_starvation_table(const std::vector<nlohmann::ordered_json>& rows);

}  // namespace wmnsim
