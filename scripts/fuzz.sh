#!/usr/bin/env bash
# Builds the libFuzzer target of the scenario loader with clang (Debian's clang and
# libclang-rt-14-dev; installed here if missing) into build/fuzz and runs it.
#   scripts/fuzz.sh [RUNS] [MAX_LEN]   RUNS executions (default 1000000) of inputs of at
#                                      most MAX_LEN bytes (default 4096: every shipped
#                                      scenario but the largest fits; longer seeds are cut)
# Seeds: every scenario in scenarios/ and the bad-input corpus; new inputs that find
# new code go to build/fuzz/corpus, findings to build/fuzz/findings/ (crash-*, timeout-*).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-1000000}
max_len=${2:-4096}

if ! command -v clang++ >/dev/null || ! ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1; then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends clang libclang-rt-14-dev >/dev/null
fi

flags="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
CXX=clang++ cmake -S . -B build/fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWMNSIM_FUZZ=ON \
  -DWMNSIM_BUILD_TESTS=OFF -DWMNSIM_BUILD_BENCH=OFF "-DCMAKE_CXX_FLAGS=$flags" \
  "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=address,undefined" >/dev/null
cmake --build build/fuzz --target scenario_loader_fuzzer

# Seeds: the shipped scenarios and the bad inputs of tests/scenarios/bad_inputs.json.
seeds=build/fuzz/seeds
rm -rf "$seeds" && mkdir -p "$seeds" build/fuzz/corpus build/fuzz/findings
find scenarios -name '*.json' ! -path '*/schema/*' ! -path '*/reproduction/*' ! -name '*.reference.json' -exec cp {} "$seeds"/ \;
/usr/bin/python3 tests/scenarios/bad_inputs.py write-seeds "$seeds"

# The stack is limited as in a default thread (8 MiB): a recursion the depth limit
# misses shows as a stack overflow. 10 s per input is a hang.
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  build/fuzz/fuzz/scenario_loader_fuzzer -runs="$runs" -timeout=10 \
  -rss_limit_mb=2048 -max_len="$max_len" -print_final_stats=1 -artifact_prefix=build/fuzz/findings/ \
  build/fuzz/corpus "$seeds"
