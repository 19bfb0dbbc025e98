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
    "                     store=a[7] == '1', experiments=a[8] or None, no_plot=a[9] == '1',\n"
    "                     add_seeds=a[10] == '1'))\n";

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

// The interpreter: WMNSIM_PYTHON if set; else the active virtual environment's
// (VIRTUAL_ENV, as `activate` sets it); else the one this build's module was made for.
std::string chosen_python() {
  if (const char* chosen = std::getenv("WMNSIM_PYTHON"); chosen != nullptr && *chosen != '\0') return chosen;
  if (const char* venv = std::getenv("VIRTUAL_ENV"); venv != nullptr && *venv != '\0') {
    const std::string python = std::string(venv) + "/bin/python";
    if (access(python.c_str(), X_OK) == 0) return python;
  }
  return WMNSIM_PYTHON_EXECUTABLE;
}

// The interpreter's process id while it runs, for the forwarding handler.
volatile sig_atomic_t g_child = 0;

// SIGINT, SIGTERM and SIGHUP sent to this process (`kill PID`) stop the interpreter
// as Ctrl-C does: they are passed on. One the terminal generated (Ctrl-C, a hang-up:
// si_code SI_KERNEL) went to the whole foreground process group, the interpreter
// included, and is not passed on a second time.
void forward_signal(int signal_number, siginfo_t* info, void* /*context*/) {
  if (info != nullptr && info->si_code == SI_KERNEL) return;
  const pid_t child = g_child;
  if (child > 0) kill(child, signal_number);
}

// Runs `program` (Python source) with `program_args` in the chosen interpreter and
// returns its exit code; `command` names the subcommand in messages.
int launch_python(const char* command, const char* program, const std::vector<std::string>& program_args) {
  const std::string python = chosen_python();
  std::vector<std::string> argv_text{python, "-c", program};
  argv_text.insert(argv_text.end(), program_args.begin(), program_args.end());
  const std::vector<std::string> env_text = environment_with_pythonpath();
  std::vector<char*> argv, envp;
  for (const std::string& a : argv_text) argv.push_back(const_cast<char*>(a.c_str()));
  for (const std::string& e : env_text) envp.push_back(const_cast<char*>(e.c_str()));
  argv.push_back(nullptr);
  envp.push_back(nullptr);

  // The stop signals are blocked from before the spawn until the child's id is known,
  // so that none arriving in between is lost; the child starts with the old mask.
  constexpr int kStopSignals[] = {SIGINT, SIGTERM, SIGHUP};
  sigset_t stop_set, old_mask;
  sigemptyset(&stop_set);
  for (int s : kStopSignals) sigaddset(&stop_set, s);
  sigprocmask(SIG_BLOCK, &stop_set, &old_mask);
  struct sigaction forward {};
  forward.sa_sigaction = forward_signal;
  forward.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&forward.sa_mask);
  struct sigaction old_actions[3]{};
  sigset_t defaults;
  sigemptyset(&defaults);
  for (int i = 0; i < 3; ++i) {
    sigaction(kStopSignals[i], nullptr, &old_actions[i]);
    // A signal ignored before (nohup, a background job) stays ignored, here and in the child.
    if (old_actions[i].sa_handler == SIG_IGN) continue;
    sigaction(kStopSignals[i], &forward, nullptr);
    sigaddset(&defaults, kStopSignals[i]);
  }
  pid_t pid = 0;
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setsigmask(&attr, &old_mask);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  const int spawned = posix_spawnp(&pid, python.c_str(), nullptr, &attr, argv.data(), envp.data());
  posix_spawnattr_destroy(&attr);
  if (spawned == 0) g_child = pid;
  sigprocmask(SIG_SETMASK, &old_mask, nullptr);
  int status = 0;
  bool waited = spawned == 0;
  int wait_error = 0;
  while (waited && waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {  // ECHILD: SIGCHLD ignored by whoever started us
      wait_error = errno;
      waited = false;
    }
  }
  g_child = 0;
  for (int i = 0; i < 3; ++i) sigaction(kStopSignals[i], &old_actions[i], nullptr);
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
                        flag(args.check), flag(args.store), args.experiments.value_or(""), flag(args.no_plot),
                        flag(args.add_seeds)});
}

}  // namespace wmnsim::cli
