#!/usr/bin/env bash
# Runs a GoogleTest program whole in N shards side by side (GoogleTest's
# GTEST_TOTAL_SHARDS / GTEST_SHARD_INDEX: every test in exactly one shard), one
# process per shard, and fails when a shard fails or when the shards together ran
# fewer tests than the program lists. Each shard's output is printed once all ended.
#   bash scripts/run_shards.sh PROGRAM [N]     (N defaults to 2, the machine's cores)
# scripts/test.sh runs the sanitized unit tests this way: a process built with
# AddressSanitizer takes 0.1 to 0.3 s to start, and ctest's process per test spent
# most of the stage starting processes (docs/testing.md, "CI's time").
set -euo pipefail
prog=${1:?usage: run_shards.sh PROGRAM [N]}
shards=${2:-2}
if [ ! -x "$prog" ]; then
  echo "run_shards.sh: $prog is not an executable test program; build it first (scripts/build.sh)" >&2
  exit 2
fi
if ! [[ "$shards" =~ ^[1-9][0-9]*$ ]]; then
  echo "run_shards.sh: the number of shards must be a positive integer, not '$shards'" >&2
  exit 2
fi
listed=$("$prog" --gtest_list_tests | grep -c '^  ')
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
pids=()
for ((i = 0; i < shards; i++)); do
  GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$i "$prog" --gtest_brief=1 >"$logs/$i.log" 2>&1 &
  pids+=("$!")
done
failed=0
for ((i = 0; i < shards; i++)); do
  wait "${pids[$i]}" || failed=1
done
ran=0
for ((i = 0; i < shards; i++)); do
  echo "== shard $((i + 1)) of $shards"
  cat "$logs/$i.log"
  n=$(sed -n 's/^\[==========\] \([0-9]*\) tests\{0,1\} from .* ran\..*/\1/p' "$logs/$i.log" | tail -n 1)
  ran=$((ran + ${n:-0}))
done
if [ "$failed" -ne 0 ]; then
  echo "run_shards.sh: a shard of $prog failed (its output is above)" >&2
  exit 1
fi
if [ "$ran" -ne "$listed" ]; then
  echo "run_shards.sh: the shards ran $ran tests, $prog lists $listed" >&2
  exit 1
fi
echo "run_shards.sh: $ran tests passed in $shards shards"
