#!/usr/bin/env bash
# Configures and builds one flavour into build/<flavour>:
#   release  optimised with link-time optimisation, for runs, sweeps and benchmarks (with
#            the Python module)
#   ci       optimised (-O2) with line tables (-g1: symbolised backtraces and callgrind's
#            per-line counts; full -g made the compile 45 % longer, measured on
#            tests/runner/test_network.cpp 14.6 s -> 10.0 s), warnings as errors, with tests
#            and the Python module; the test files' own code at -O1
#            (WMNSIM_TEST_CODE_FLAGS: the libraries under test stay -O2; docs/testing.md
#            "CI's time"), compiled eight test files at a time (WMNSIM_UNITY_TESTS, a
#            unity build: each batch parses the common headers once)
#   asan     AddressSanitizer + UndefinedBehaviorSanitizer, warnings as errors, at -O1
#            with line tables only (-g1: enough for symbolised reports); the
#            sanitizers' own advice, and half the compile time of -O2 -g
#            (measured: tests/runner/test_network.cpp 35 s -> 17 s); the test files'
#            own code at -O0 (tests/scenario/test_scenario.cpp 63.2 s -> 28.9 s); the test
#            files and, here only, the libraries compiled eight files at a time (CMake's
#            unity build, docs/testing.md "CI's time"; scripts/check_unity.py keeps them
#            batchable)
#   release-pgo  opt-in: release, then rebuilt with the branch and call profile of a short
#            training run of shipped scenarios (scripts/pgo_training.sh); two builds and the
#            training, in build/release-pgo (docs/performance.md "Issue 43 §4")
set -euo pipefail
cd "$(dirname "$0")/.."
# ccache, where installed (scripts/setup.sh installs it): a rebuild of unchanged files,
# and scripts/wheel.sh --ci after this script's ci build, take their objects from the
# cache. base_dir = the repository, so that command lines name files relative to the
# build folder, and no hashing of the build folder (it names itself in -g1's line
# tables only), so that two build folders of equal depth share objects. Not the unity
# builds' batches (the test files; in asan, the libraries): CMake's generated batch files
# include the sources by absolute path, so their objects are shared within one checkout only (CMake 4's
# UNITY_BUILD_RELOCATABLE would fix it; Debian 12 has 3.25).
launcher=""
if command -v ccache >/dev/null; then
  launcher="env;CCACHE_BASEDIR=$PWD;CCACHE_NOHASHDIR=1;ccache"
fi
if [ "${1:-}" = --print-launcher ]; then echo "$launcher"; exit 0; fi
flavour=${1:-release}
# release and release-pgo: link-time optimisation (CMake's -flto=auto), so that GCC
# may inline across the layers' files (5 % fewer instructions and 3 % less CPU time
# on 004's mesh, docs/performance.md "Issue 43 §4"; the same results and traces).
release_args=(-DCMAKE_BUILD_TYPE=Release -DWMNSIM_BUILD_TESTS=OFF -DWMNSIM_BUILD_PYTHON=ON
              -DCMAKE_INTERPROCEDURAL_OPTIMIZATION=ON)
case "$flavour" in
  release) args=("${release_args[@]}") ;;
  release-pgo) args=("${release_args[@]}") ;;
  ci)      args=(-DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG"
                 -DWMNSIM_WERROR=ON -DWMNSIM_BUILD_PYTHON=ON -DWMNSIM_TEST_CODE_FLAGS=-O1 -DWMNSIM_UNITY_TESTS=ON) ;;
  asan)    args=(-DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG"
                 -DWMNSIM_WERROR=ON -DWMNSIM_SANITIZE=ON -DWMNSIM_BUILD_BENCH=OFF -DWMNSIM_TEST_CODE_FLAGS=-O0
                 -DWMNSIM_UNITY_TESTS=ON -DCMAKE_UNITY_BUILD=ON) ;;
  *) echo "usage: $0 [release|ci|asan|release-pgo]" >&2; exit 2 ;;
esac
if [ "$flavour" = release-pgo ]; then
  # Profile-guided optimisation (GCC): an instrumented build writes its counts
  # (.gcda, next to each object) while it runs the training; the second build reads
  # them. -fprofile-partial-training: code the training never ran (other models,
  # error paths) is optimised as in the release build rather than for size.
  dir=build/release-pgo
  cmake -S . -B "$dir" -G Ninja "${args[@]}" "-DCMAKE_CXX_COMPILER_LAUNCHER=$launcher" \
        "-DCMAKE_CXX_FLAGS=-fprofile-generate -fprofile-update=single" >/dev/null
  cmake --build "$dir" --target wmnsim
  find "$dir" -name '*.gcda' -delete
  bash scripts/pgo_training.sh "$dir/cli/wmnsim"
  cmake -S . -B "$dir" -G Ninja "${args[@]}" "-DCMAKE_CXX_COMPILER_LAUNCHER=$launcher" \
        "-DCMAKE_CXX_FLAGS=-fprofile-use -fprofile-partial-training -Wno-missing-profile" >/dev/null
  cmake --build "$dir"
  exit 0
fi
cmake -S . -B "build/$flavour" -G Ninja "${args[@]}" "-DCMAKE_CXX_COMPILER_LAUNCHER=$launcher" >/dev/null
# The sanitizer flavour is for the unit tests (scripts/test.sh): the command line and
# its Python-driven tests run in the ci flavour, so only the test executable is built.
if [ "$flavour" = asan ]; then
  cmake --build "build/$flavour" --target wmnsim_tests
else
  cmake --build "build/$flavour"
fi
