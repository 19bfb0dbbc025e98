#pragma once
// `wmnsim sweep` and `wmnsim reproduce` from the program: sweeps run on Dask, which is Python, so the
// program starts a Python interpreter on wmnsim.sweep (bindings/wmnsim/sweep.py)
// with the parsed arguments and returns its exit code. The interpreter and the
// module's folders are the ones this build found (CMake), unless WMNSIM_PYTHON
// names another interpreter; PYTHONPATH is kept, after the build's folders.

#include "cli/command_line.hpp"

namespace wmnsim::cli {

int launch_python_sweep(const SweepArgs& args);
int launch_python_reproduce(const ReproduceArgs& args);

}  // namespace wmnsim::cli
