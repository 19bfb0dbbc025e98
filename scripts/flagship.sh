#!/usr/bin/env bash
# Set-up, build and the flagship run: the README's run command.
# Until the radio stack exists there is no scenario to simulate, so this checks
# every scenario and runs the engine benchmark. It becomes the two-hop-chain run
# (scenarios/two_hop_chain_tcp.json) when the transport layer lands.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh release
find scenarios -name '*.json' -not -path '*/schema/*' -print0 | sort -z | xargs -0 build/release/cli/wmnsim validate
build/release/bench/bench_scheduler
