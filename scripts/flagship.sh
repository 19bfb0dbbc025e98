#!/usr/bin/env bash
# Set-up, build and the flagship run: the README's run command. Runs 000's
# two-hop chain with two TCP uploads (scenarios/two_hop_chain_tcp.json, 120 s) and
# prints the per-flow table and Jain's fairness index. Extra arguments go to
# `wmnsim run` (e.g. --seed 2, -o results.json).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh release
build/release/cli/wmnsim run scenarios/two_hop_chain_tcp.json "$@"
