#!/usr/bin/env python3
"""003 Table I (Zhai, Chen, Fang, Sec. II-B): the knee of the 9-node chain under
each reception model.

Bidirectional CBR/UDP on scenarios/zhai_wccp/chain9.json's chain (200 m spacing,
2 Mbit/s, RTS/CTS, ns-2 MAC defaults): 1000-byte packets 1 -> 9 and 40-byte packets
9 -> 1 at the same packet rate. The paper raises the rate until the DATA packets
dropped due to collision exceed 0.1 packet/s and finds the knee near 24.3 packet/s,
198 kbit/s. This script runs the same sweep under each reception model and prints
a Markdown table (docs/phy.md). Collision drops are the forward flow's
`drops_retry_limit` (the MAC gave up at its retry limit) per second.

Usage: scripts/sweep_003_table1.py [--wmnsim build/ci/cli/wmnsim] [--duration 100]
       [--rates 16,20,...] [--models ns2,threshold,range,sinr] [--seeds 1]
"""

import argparse
import copy
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The ns-2 preset (docs/phy.md): what every power-based model below shares, so the
# models differ only in how they decide reception and carrier sense.
NS2_PROPAGATION = {"model": "two_ray", "antenna_height_m": 1.5, "frequency_hz": 914e6, "system_loss_db": 0}

MODELS = {
    # ns-2's WirelessPhy + Mac802_11 semantics.
    "ns2": {"propagation": NS2_PROPAGATION, "reception": {"model": "ns2"}},
    # Symmetric capture, only frames above RXThresh are locked onto.
    "threshold": {"propagation": NS2_PROPAGATION, "reception": {"model": "threshold"}},
    # Geometry: 250 m decoding, 550 m sensing and interference.
    "range": {"propagation": {"model": "range", "rx_range_m": 250, "cs_range_m": 550}, "reception": {"model": "threshold"}},
    # SINR with the error model; preamble detection and carrier sense at ns-2's
    # RXThresh and CSThresh so that links and sensing match the others; noise at
    # wmnsim's default -93.5 dBm.
    "sinr": {"propagation": NS2_PROPAGATION,
             "reception": {"model": "sinr", "rx_sensitivity_dbm": -64.37, "cs_threshold_dbm": -78.07}},
}


def scenario(model, rate_pps, duration_s, seed, back_offset=0.0):
    with open(os.path.join(ROOT, "scenarios", "zhai_wccp", "chain9.json")) as f:
        s = json.load(f)
    s.pop("$schema", None)
    s["name"] = f"zhai_table1_{model}_{rate_pps}"
    s["description"] = "003 Table I sweep point (scripts/sweep_003_table1.py)"
    s["simulation"] = {"duration_s": duration_s, "seed": seed, "measurement_interval_s": duration_s}
    m = MODELS[model]
    s["propagation"] = copy.deepcopy(m["propagation"])
    s["phy"]["reception"] = copy.deepcopy(m["reception"])
    if s["propagation"]["model"] == "range":
        s["phy"].pop("tx_power_dbm", None)
    interval = 1.0 / rate_pps
    s["flows"] = [
        {"id": "data", "transport": "udp", "src": "1", "dst": "9", "payload_bytes": 1000,
         "traffic": {"type": "cbr", "interval_s": interval}},
        {"id": "back", "transport": "udp", "src": "9", "dst": "1", "payload_bytes": 40,
         "traffic": {"type": "cbr", "interval_s": interval}},
    ]
    if back_offset > 0:
        # Both CBR sources start at 0 by default (strictly periodic, as ns-2's CBR),
        # so their packets meet at the same place of the chain every period.
        s["flows"][1]["start_s"] = back_offset * interval
    s["controllers"] = []
    s["outputs"] = {"timeseries": []}
    return s


def run(wmnsim, doc):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "s.json")
        out = os.path.join(d, "r.json")
        with open(path, "w") as f:
            json.dump(doc, f)
        subprocess.run([wmnsim, "run", path, "-o", out], check=True, stdout=subprocess.DEVNULL)
        with open(out) as f:
            return json.load(f)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--wmnsim", default=os.path.join(ROOT, "build", "ci", "cli", "wmnsim"))
    ap.add_argument("--duration", type=float, default=100.0)
    ap.add_argument("--rates", default="16,18,20,22,24,26,28,30,34,40")
    ap.add_argument("--models", default="ns2,threshold,range,sinr")
    ap.add_argument("--seeds", default="1")
    ap.add_argument("--back-offset", type=float, default=0.0,
                    help="start the 9 -> 1 flow this fraction of a period after the 1 -> 9 flow")
    args = ap.parse_args()
    rates = [float(r) for r in args.rates.split(",")]
    seeds = [int(x) for x in args.seeds.split(",")]
    print(f"duration {args.duration:g} s per point, seeds {args.seeds}, back flow offset {args.back_offset:g} "
          "period; collision drops = forward flow's drops_retry_limit per second (mean over seeds)\n")
    print("| model | rate (packet/s) | goodput fwd + back (kbit/s) | collision drops/s (fwd) | "
          "all drops/s (fwd) | collision drops/s (both flows) | mean delay fwd (s) |")
    print("|---|---|---|---|---|---|---|")
    knees, exceeded = {}, set()
    for model in args.models.split(","):
        for rate in rates:
            g = gb = c = a = both = dl = 0.0
            for seed in seeds:
                res = run(args.wmnsim, scenario(model, rate, args.duration, seed, args.back_offset))
                fwd = next(f for f in res["flows"] if f["id"] == "data")
                back = next(f for f in res["flows"] if f["id"] == "back")
                g += fwd["goodput_bps"] / 1e3
                gb += back["goodput_bps"] / 1e3
                c += fwd["drops_retry_limit"] / args.duration
                a += fwd["dropped_packets"] / args.duration
                both += (fwd["drops_retry_limit"] + back["drops_retry_limit"]) / args.duration
                dl += fwd["delay_mean_s"] or 0.0
            n = len(seeds)
            g, gb, c, a, both, dl = g / n, gb / n, c / n, a / n, both / n, dl / n
            print(f"| {model} | {rate:g} | {g:.1f} + {gb:.1f} | {c:.3f} | {a:.3f} | {both:.3f} | {dl:.4f} |",
                  flush=True)
            # The knee: the last rate before the first one above 0.1 collision drops/s.
            if c > 0.1:
                exceeded.add(model)
            elif model not in exceeded:
                knees[model] = (rate, g + gb)
    print()
    for model, (rate, g) in knees.items():
        print(f"knee ({model}): last swept rate before collision drops exceed 0.1/s: {rate:g} packet/s, "
              f"aggregate goodput {g:.1f} kbit/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
