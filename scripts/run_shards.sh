#!/usr/bin/env bash
# Runs a GoogleTest program whole in N shards side by side (GoogleTest's
# GTEST_TOTAL_SHARDS / GTEST_SHARD_INDEX: every test in exactly one shard), one
# process per shard, and fails when a shard fails (a failed assertion, an abort, a
# sanitizer's report, a signal, or no end within the time limit) or when the shards
# together ran fewer tests than the program lists. A failed shard's whole output is
# printed (its last "[ RUN      ]" line names the test that crashed or hung); a
# passed shard's summary only.
#   bash scripts/run_shards.sh PROGRAM [N [SECONDS]]   (N = 2, the machine's cores;
#                                                        SECONDS = 1800 per shard)
# scripts/test.sh runs the sanitized unit tests this way: a process built with
# AddressSanitizer takes at least 0.12 s to start and run one test, and ctest's
# process per test spent most of that stage starting processes (docs/testing.md,
# "CI's time"). Every test runs: GTEST_* settings of the caller's environment (a
# filter, a repeat count, colour, an output file both shards would write) are cleared.
set -euo pipefail
usage="usage: bash scripts/run_shards.sh PROGRAM [SHARDS [SECONDS_PER_SHARD]]"
if [ $# -lt 1 ] || [ $# -gt 3 ]; then echo "$usage" >&2; exit 2; fi
prog=$1
shards=${2:-2}
limit=${3:-1800}
case "$prog" in */*) ;; *) prog=./$prog ;; esac
if [ ! -f "$prog" ] || [ ! -x "$prog" ]; then
  echo "run_shards.sh: $prog is not an executable test program; build it first (scripts/build.sh)" >&2
  exit 2
fi
for n in "$shards" "$limit"; do
  if ! [[ "$n" =~ ^[1-9][0-9]*$ ]]; then
    echo "run_shards.sh: shards and seconds must be positive integers, not '$n'; $usage" >&2
    exit 2
  fi
done
while read -r name; do unset "$name"; done < <(compgen -e | grep '^GTEST_' || true)
if ! listing=$("$prog" --gtest_list_tests --gtest_color=no); then
  echo "run_shards.sh: $prog could not list its tests" >&2
  exit 1
fi
# Tests, not suites (indented), and not the disabled ones, which run in no shard.
listed=$(awk '/^[^ ]/ { suite = $1 } /^  / { if (suite !~ /(^|\/)DISABLED_/ && $1 !~ /^DISABLED_/) n++ }
              END { print n + 0 }' <<<"$listing")
if [ "$listed" -eq 0 ]; then
  echo "run_shards.sh: $prog lists no tests" >&2
  exit 1
fi
logs=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; rm -rf "$logs"' EXIT
trap 'exit 130' INT TERM
for ((i = 0; i < shards; i++)); do
  GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$i \
    timeout --kill-after=30 "$limit" "$prog" --gtest_color=no >"$logs/$i.log" 2>&1 &
  pids+=("$!")
done
failed=0
ran=0
for ((i = 0; i < shards; i++)); do
  status=0
  wait "${pids[$i]}" || status=$?
  echo "== shard $((i + 1)) of $shards"
  if [ "$status" -ne 0 ]; then
    failed=1
    cat "$logs/$i.log"
    if [ "$status" -eq 124 ]; then
      echo "run_shards.sh: shard $((i + 1)) did not end within $limit s (its last test is named above)" >&2
    else
      echo "run_shards.sh: shard $((i + 1)) failed, exit status $status (its output is above)" >&2
    fi
  else
    grep -E '^\[(==========|  PASSED  |  SKIPPED |  FAILED  )\]' "$logs/$i.log" | tail -n 4 || true
  fi
  n=$(sed -n 's/^\[==========\] \([0-9]*\) tests\{0,1\} from .* ran\..*/\1/p' "$logs/$i.log" | tail -n 1)
  ran=$((ran + ${n:-0}))
done
if [ "$failed" -ne 0 ]; then
  echo "run_shards.sh: $prog failed" >&2
  exit 1
fi
if [ "$ran" -ne "$listed" ]; then
  echo "run_shards.sh: the shards ran $ran tests, $prog lists $listed" >&2
  exit 1
fi
echo "run_shards.sh: $ran tests passed in $shards shards"
