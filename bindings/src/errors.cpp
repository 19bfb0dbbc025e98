// C++ exceptions -> the package's Python exceptions (wmnsim/_errors.py):
//   wmnsim::ScenarioError      -> wmnsim.ScenarioError(message, [(path, message), ...])
//   wmnsim::NotSupportedError  -> wmnsim.NotSupportedError(message)
//   nlohmann::json::exception  -> wmnsim.ScenarioError (e.g. a number too large for a double)
// Anything else keeps pybind11's default mapping (std::exception -> RuntimeError),
// so no input ends the interpreter.

#include <pybind11/stl.h>

#include <utility>
#include <vector>

#include "bindings.hpp"
#include "core/not_supported.hpp"
#include "core/scenario.hpp"

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

nlohmann::json parse_document(const std::string& text) {
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw ScenarioError({{"", std::string("invalid JSON: ") + e.what()}});
  }
}

void register_errors(pyb::module_& /*m*/) {
  pyb::register_exception_translator([](std::exception_ptr p) {
    if (!p) return;
    try {
      std::rethrow_exception(p);
    } catch (const ScenarioError& e) {
      raise_scenario_error(e.what(), e.issues());
    } catch (const NotSupportedError& e) {
      static PyObject* cls = error_class("NotSupportedError");
      PyErr_SetString(cls, e.what());
    } catch (const nlohmann::json::exception& e) {
      raise_scenario_error(e.what(), {{"", e.what()}});
    }
  });
}

}  // namespace wmnsim::py
