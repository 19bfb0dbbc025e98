#!/usr/bin/env bash
# Set-up, build and every test: the README's test command, and what CI runs.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh ci
ctest --test-dir build/ci --output-on-failure -j2
# The unit tests once more under AddressSanitizer and UndefinedBehaviorSanitizer: the
# test program whole, in two shards side by side (a sanitized process takes at least
# 0.12 s to start and run one test: one per test, as ctest runs them, spent most of
# this stage starting processes; docs/testing.md "CI's time").
bash scripts/build.sh asan
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  bash scripts/run_shards.sh build/asan/tests/wmnsim_tests 2
