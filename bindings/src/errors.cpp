// C++ exceptions -> the package's Python exceptions (wmnsim/_errors.py):
//   wmnsim::ScenarioError      -> wmnsim.ScenarioError(message, [(path, message), ...])
//   wmnsim::NotSupportedError  -> wmnsim.NotSupportedError(message, [(path, message)]),
//                                 a ScenarioError and a NotImplementedError
//   wmnsim::EventFlood         -> wmnsim.ScenarioError (the run stalled at one instant)
//   nlohmann::json::exception  -> wmnsim.ScenarioError (e.g. a number too large for a double)
// Anything else keeps pybind11's default mapping (std::exception -> RuntimeError),
// so no input ends the interpreter.

#include <pybind11/stl.h>

#include <utility>
#include <vector>

#include "bindings.hpp"
#include "core/not_supported.hpp"
#include "scenario/scenario.hpp"
#include "core/scheduler.hpp"

namespace wmnsim::py {

namespace {

// The classes live in pure Python (they carry `.errors` and docstrings); looked up
// once the first error is translated, with the GIL held, and kept for the
// process's lifetime (never released: translators may run during shutdown).
PyObject* error_class(const char* name) {
  return pyb::object(pyb::module_::import("wmnsim._errors").attr(name)).release().ptr();
}

void raise_scenario_error(const std::string& message, const std::vector<ValidationIssue>& issues) {
  static PyObject* cls = error_class("ScenarioError");
  pyb::list errors;
  for (const auto& issue : issues) errors.append(pyb::make_tuple(issue.path, issue.message));
  pyb::object exc = pyb::reinterpret_borrow<pyb::object>(cls)(message, errors);
  PyErr_SetObject(cls, exc.ptr());
}

}  // namespace

nlohmann::json parse_document(const std::string& text) { return parse_json_text(text, "<string>"); }

void register_errors(pyb::module_& /*m*/) {
  pyb::register_exception_translator([](std::exception_ptr p) {
    if (!p) return;
    try {
      std::rethrow_exception(p);
    } catch (const ScenarioError& e) {
      raise_scenario_error(e.what(), e.issues());
    } catch (const NotSupportedError& e) {
      // "/path: message" -> one issue at that path, so that .errors works as for
      // ScenarioError (NotSupportedError is one).
      static PyObject* cls = error_class("NotSupportedError");
      const std::string what = e.what();
      const auto colon = what.find(": ");
      std::vector<ValidationIssue> issues{{"", what}};
      if (!what.empty() && what[0] == '/' && colon != std::string::npos)
        issues = {{what.substr(0, colon), what.substr(colon + 2)}};
      pyb::list errors;
      for (const auto& issue : issues) errors.append(pyb::make_tuple(issue.path, issue.message));
      pyb::object exc = pyb::reinterpret_borrow<pyb::object>(cls)(what, errors);
      PyErr_SetObject(cls, exc.ptr());
    } catch (const EventFlood& e) {
      raise_scenario_error(e.what(), {{"", e.what()}});
    } catch (const nlohmann::json::exception& e) {
      raise_scenario_error(e.what(), {{"", e.what()}});
    }
  });
}

}  // namespace wmnsim::py
