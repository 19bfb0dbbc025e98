#!/usr/bin/env bash
# Configures and builds one flavour into build/<flavour>:
#   release  optimised, for runs, sweeps and benchmarks (with the Python module)
#   ci       optimised (-O2) with line tables (-g1: symbolised backtraces and callgrind's
#            per-line counts; full -g made the compile 45 % longer, measured on
#            tests/runner/test_network.cpp 14.6 s -> 10.0 s), warnings as errors, with tests
#            and the Python module
#   asan     AddressSanitizer + UndefinedBehaviorSanitizer, warnings as errors, at -O1
#            with line tables only (-g1: enough for symbolised reports); the
#            sanitizers' own advice, and half the compile time of -O2 -g
#            (measured: tests/runner/test_network.cpp 35 s -> 17 s)
set -euo pipefail
cd "$(dirname "$0")/.."
# ccache, where installed (scripts/setup.sh installs it): a rebuild of unchanged files,
# and scripts/wheel.sh --ci after this script's ci build, take their objects from the
# cache. base_dir = the repository, so that command lines name files relative to the
# build folder, and no hashing of the build folder (it names itself in -g1's line
# tables only), so that two build folders of equal depth share objects.
launcher=""
if command -v ccache >/dev/null; then
  launcher="env;CCACHE_BASEDIR=$PWD;CCACHE_NOHASHDIR=1;ccache"
fi
if [ "${1:-}" = --print-launcher ]; then echo "$launcher"; exit 0; fi
flavour=${1:-release}
case "$flavour" in
  release) args=(-DCMAKE_BUILD_TYPE=Release -DWMNSIM_BUILD_TESTS=OFF -DWMNSIM_BUILD_PYTHON=ON) ;;
  ci)      args=(-DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG"
                 -DWMNSIM_WERROR=ON -DWMNSIM_BUILD_PYTHON=ON) ;;
  asan)    args=(-DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG"
                 -DWMNSIM_WERROR=ON -DWMNSIM_SANITIZE=ON -DWMNSIM_BUILD_BENCH=OFF) ;;
  *) echo "usage: $0 [release|ci|asan]" >&2; exit 2 ;;
esac
cmake -S . -B "build/$flavour" -G Ninja "${args[@]}" "-DCMAKE_CXX_COMPILER_LAUNCHER=$launcher" >/dev/null
# The sanitizer flavour is for the unit tests (scripts/test.sh): the command line and
# its Python-driven tests run in the ci flavour, so only the test executable is built.
if [ "$flavour" = asan ]; then
  cmake --build "build/$flavour" --target wmnsim_tests
else
  cmake --build "build/$flavour"
fi
