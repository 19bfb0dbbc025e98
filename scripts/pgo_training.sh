#!/usr/bin/env bash
# The training run of scripts/build.sh release-pgo: a short, mixed set of shipped
# scenarios through WMNSIM (the instrumented program), so that the profile covers
# the reception models (SINR with faint signals, ns-2, threshold), 802.11a/b/g,
# TCP and UDP, RTS/CTS, TXOP, routing, the results and their JSON, not only
# 004's mesh. About 10 s with the instrumented build.
set -euo pipefail
cd "$(dirname "$0")/.."
wmnsim=${1:?usage: pgo_training.sh PATH/TO/INSTRUMENTED/wmnsim}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
run() {  # scenario, simulated seconds
  "$wmnsim" run "$1" --set "/simulation/duration_s=$2" -o "$out/results.json" >/dev/null
}
run scenarios/two_hop_chain_tcp.json 120                  # 000's flagship: chain, TCP
run scenarios/fu2009/mesh40_4gw.json 10                   # 004's mesh: SINR, auto rate, UDP
run scenarios/fu2009/mesh40_4gw_tcp.json 5                # the same with TCP
run scenarios/bench/cell50_saturated.json 3               # 802.11b cell, SINR, CCK
run scenarios/jamshaid/random20_fig6.json 30              # ns-2 reception, random topology (warm-up 20 s)
run scenarios/badarla/parking_lot_txop.json 30            # TXOP, parking lot (warm-up 20 s)
run scenarios/starvation/chain2_tcp_rts_on_cw16_policy.json 30  # a controller
run scenarios/zhai_wccp/chain9_3flows_wccp.json 20        # WCCP
