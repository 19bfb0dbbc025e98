#include "cli/sweep_launcher.hpp"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace wmnsim::cli {

namespace {

// The one call into Python: the same function the Python module's command line calls.
constexpr const char* kSweepProgram =
    "import sys\n"
    "try:\n"
    "    from wmnsim.sweep import run_spec_command\n"
    "except ImportError as e:\n"
    "    print(f'wmnsim sweep needs the Python module (scripts/build.sh ci or release builds it; "
    "or pip install .) and Dask: {e}', file=sys.stderr)\n"
    "    sys.exit(2)\n"
    "a = sys.argv[1:]\n"
    "sys.exit(run_spec_command(a[0], a[1], a[2] or None, int(a[3]) if a[3] else None))\n";

// `wmnsim reproduce`: the arguments arrive as strings, "" for an option not given.
constexpr const char* kReproduceProgram =
    "import sys\n"
    "try:\n"
    "    from wmnsim.reproduce import run_command\n"
    "except ImportError as e:\n"
    "    print(f'wmnsim reproduce needs the Python module (scripts/build.sh ci or release builds it; "
    "or pip install .) and Dask: {e}', file=sys.stderr)\n"
    "    sys.exit(2)\n"
    "a = sys.argv[1:]\n"
    "sys.exit(run_command(a[0], quick=a[1] == '1', output=a[2] or None, scheduler=a[3] or None,\n"
    "                     workers=int(a[4]) if a[4] else None, report_only=a[5] == '1', check=a[6] == '1',\n"
    "                     store=a[7] == '1', experiments=a[8] or None, no_plot=a[9] == '1'))\n";

std::vector<std::string> environment_with_pythonpath() {
  std::vector<std::string> env;
  std::string pythonpath = WMNSIM_PYTHONPATH;  // the build's bindings/ and python/ folders
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string entry = *e;
    if (entry.rfind("PYTHONPATH=", 0) == 0) {
      const std::string user = entry.substr(11);
      if (!user.empty()) pythonpath += ":" + user;
    } else {
      env.push_back(entry);
    }
  }
  env.push_back("PYTHONPATH=" + pythonpath);
  return env;
}

}  // namespace

namespace {

// Runs `program` (Python source) with `program_args` in the chosen interpreter and
// returns its exit code; `command` names the subcommand in messages.
int launch_python(const char* command, const char* program, const std::vector<std::string>& program_args) {
  const char* chosen = std::getenv("WMNSIM_PYTHON");
  const std::string python = chosen != nullptr && *chosen != '\0' ? chosen : WMNSIM_PYTHON_EXECUTABLE;
  std::vector<std::string> argv_text{python, "-c", program};
  argv_text.insert(argv_text.end(), program_args.begin(), program_args.end());
  const std::vector<std::string> env_text = environment_with_pythonpath();
  std::vector<char*> argv, envp;
  for (const std::string& a : argv_text) argv.push_back(const_cast<char*>(a.c_str()));
  for (const std::string& e : env_text) envp.push_back(const_cast<char*>(e.c_str()));
  argv.push_back(nullptr);
  envp.push_back(nullptr);

  // Ctrl-C reaches the interpreter too (same process group): it stops the sweep
  // and reports; this process only waits for its exit code.
  struct sigaction ignore {}, old_int{}, old_term{}, old_hup{};
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGINT, &ignore, &old_int);
  sigaction(SIGTERM, &ignore, &old_term);
  sigaction(SIGHUP, &ignore, &old_hup);
  pid_t pid = 0;
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  // The child must not inherit the "ignored" set here for the wait, but a signal
  // ignored before (nohup, a background job) stays ignored in it.
  sigset_t defaults;
  sigemptyset(&defaults);
  if (old_int.sa_handler != SIG_IGN) sigaddset(&defaults, SIGINT);
  if (old_term.sa_handler != SIG_IGN) sigaddset(&defaults, SIGTERM);
  if (old_hup.sa_handler != SIG_IGN) sigaddset(&defaults, SIGHUP);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF);
  const int spawned = posix_spawnp(&pid, python.c_str(), nullptr, &attr, argv.data(), envp.data());
  posix_spawnattr_destroy(&attr);
  int status = 0;
  bool waited = spawned == 0;
  int wait_error = 0;
  while (waited && waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {  // ECHILD: SIGCHLD ignored by whoever started us
      wait_error = errno;
      waited = false;
    }
  }
  sigaction(SIGINT, &old_int, nullptr);
  sigaction(SIGTERM, &old_term, nullptr);
  sigaction(SIGHUP, &old_hup, nullptr);
  if (spawned != 0) {
    std::cerr << command << ": cannot start the Python interpreter " << python
              << " (set WMNSIM_PYTHON to one with the wmnsim module and Dask)\n";
    return kExitInvalidInput;
  }
  if (!waited) {
    std::cerr << command << ": lost track of the Python interpreter (waitpid: " << std::strerror(wait_error) << ")\n";
    return kExitInternal;
  }
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return WEXITSTATUS(status);
}

}  // namespace

int launch_python_sweep(const SweepArgs& args) {
  return launch_python("sweep", kSweepProgram,
                       {args.spec, args.output, args.scheduler.value_or(""),
                        args.workers ? std::to_string(*args.workers) : ""});
}

int launch_python_reproduce(const ReproduceArgs& args) {
  auto flag = [](bool b) { return std::string(b ? "1" : "0"); };
  return launch_python("reproduce", kReproduceProgram,
                       {args.study, flag(args.quick), args.output.value_or(""), args.scheduler.value_or(""),
                        args.workers ? std::to_string(*args.workers) : "", flag(args.report_only),
                        flag(args.check), flag(args.store), args.experiments.value_or(""), flag(args.no_plot)});
}

}  // namespace wmnsim::cli
