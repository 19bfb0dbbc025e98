#!/usr/bin/env python3
"""Where the work per delivered packet of the scale series goes (docs/performance.md,
"City scale"): reads the results files `bench_network --scale` writes with
WMNSIM_BENCH_RESULTS=DIR and prints, per node count, the hops and MAC attempts per
delivered packet, the radios that receive each attempt (the links above the
sensitivity of the transmitting radios, weighted by their attempts) and the events
per attempt and per attempt and receiver.

    WMNSIM_BENCH_RESULTS=/tmp/scale build/ci/bench/bench_network --scale 40 --seconds=10 \\
        --gateway_trees --flows=1 --down          # and 1000 --flows=5, 10000 --flows=50, ...
    PYTHONPATH=bindings:build/ci/python python3 bench/scale_breakdown.py /tmp/scale
"""
import json
import sys
from pathlib import Path

import wmnsim


def breakdown(path: Path) -> dict:
    r = json.loads(path.read_text())
    flows, radios = r["flows"], r["radios"]
    delivered = sum(f["delivered_packets"] for f in flows)
    hops = sum(f["delivered_packets"] * (f["hops"] or 0) for f in flows) / delivered
    attempts = {x["node"]: x["data_attempts"] + x["rts_attempts"] for x in radios}
    total = sum(attempts.values())
    links = wmnsim.Scenario(r["scenario"]).radio_links()  # the links a frame is delivered on as an event
    receivers = links.groupby("src").size()
    per_tx = sum(n * receivers.get(node, 0) for node, n in attempts.items()) / total
    events = r["bench"]["events_executed"]
    return {"nodes": len(radios), "delivered": delivered, "hops": hops, "attempts": total / delivered,
            "receivers": per_tx, "events_per_packet": events / delivered, "events_per_attempt": events / total,
            "per_attempt_and_receiver": events / total / per_tx,
            "wall_per_event_ns": r["bench"]["wall_time_s"] / events * 1e9}


def main() -> int:
    rows = sorted((breakdown(p) for p in Path(sys.argv[1]).glob("scale_*.json")), key=lambda x: x["nodes"])
    print("| nodes | delivered | hops per packet | MAC attempts (DATA + RTS) per packet | receivers per attempt "
          "| events per packet | events per attempt | events per attempt and receiver | wall per event |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for x in rows:
        print(f"| {x['nodes']:,} | {x['delivered']:,} | {x['hops']:.2f} | {x['attempts']:.2f} | {x['receivers']:.1f} "
              f"| {x['events_per_packet']:.0f} | {x['events_per_attempt']:.1f} | {x['per_attempt_and_receiver']:.2f} "
              f"| {x['wall_per_event_ns']:.0f} ns |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
