// wmnsim._core: the private extension under the `wmnsim` package. Only stitches
// the parts together; each concept registers itself (register_*.cpp).

#include "bindings.hpp"
#include "results/results.hpp"

PYBIND11_MODULE(_core, m) {
  m.doc() = "Private extension of the wmnsim package; use `import wmnsim` instead.";
  m.attr("__version__") = std::string(wmnsim::wmnsim_version());
  m.attr("build_type") = std::string(wmnsim::wmnsim_build_type());
  m.attr("commit") = std::string(wmnsim::wmnsim_commit());
  wmnsim::py::register_errors(m);
  wmnsim::py::register_scenario(m);
  wmnsim::py::register_results(m);
  wmnsim::py::register_run(m);
  wmnsim::py::register_compare(m);
  wmnsim::py::register_model(m);
  wmnsim::py::register_cli(m);
}
