// The wmnsim program: the command line of cli/command_line.hpp, with `wmnsim
// sweep` and `wmnsim reproduce` handed to a Python interpreter (cli/sweep_launcher.hpp).

#include <string>
#include <vector>

#include "cli/command_line.hpp"
#include "cli/sweep_launcher.hpp"

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  wmnsim::cli::CommandLineHooks hooks;
  hooks.sweep = wmnsim::cli::launch_python_sweep;
  hooks.reproduce = wmnsim::cli::launch_python_reproduce;
  return wmnsim::cli::run_command_line(args, hooks);
}
