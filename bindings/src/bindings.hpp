#pragma once
// Shared declarations of the _core extension: one register_<concept>() per
// source file, stitched together by module.cpp.
//
// Documents cross the boundary as JSON text: Python keeps scenarios as plain dicts
// (json.loads/dumps), C++ parses them with nlohmann exactly as the command line
// does, so both see the same numbers and the same validation messages.

#include <pybind11/pybind11.h>

#include <nlohmann/json.hpp>

#include <string>

namespace wmnsim::py {

namespace pyb = pybind11;

void register_errors(pyb::module_& m);
void register_scenario(pyb::module_& m);
void register_results(pyb::module_& m);
void register_run(pyb::module_& m);
void register_compare(pyb::module_& m);
void register_model(pyb::module_& m);
void register_cli(pyb::module_& m);

// Parses JSON text from the Python side with the command line's reader
// (parse_json_text: syntax, nesting depth, numbers beyond a double, duplicate keys):
// every problem is a ScenarioError, never a crash.
nlohmann::json parse_document(const std::string& text);

}  // namespace wmnsim::py
