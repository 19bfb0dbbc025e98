#!/usr/bin/python3
"""003 Table I (Zhai, Chen, Fang, Sec. II-B): the knee of the 9-node chain under
each reception model.

Bidirectional CBR/UDP on scenarios/zhai_wccp/chain9.json's chain (200 m spacing,
2 Mbit/s, RTS/CTS, ns-2 MAC defaults): 1000-byte packets 1 -> 9 and 40-byte packets
9 -> 1 at the same packet rate. The paper raises the rate until the DATA packets
dropped due to collision exceed 0.1 packet/s and finds the knee near 24.3 packet/s,
198 kbit/s. This script runs the same sweep under each reception model and prints
a Markdown table, for exploring other rates or durations; the tables of the docs
(docs/reproductions/wccp.md, which docs/phy.md points to) come from the wccp study's
stored runs of the scenarios --write-scenarios writes. Collision drops are the forward flow's
`drops_retry_limit` (the MAC gave up at its retry limit) per second.

The runs go through the sweep runner (wmnsim.sweep, docs/sweeps.md): one sweep
per model over the rates and seeds, on one embedded Dask cluster of --jobs worker
processes; --out DIR keeps the Parquet datasets (DIR/<model>) and resumes them.

Usage: scripts/sweep_003_table1.py [--wmnsim build/ci/cli/wmnsim] [--duration 100]
       [--rates 16,20,...] [--models ns2,threshold,range,sinr] [--seeds 1]
       [--jobs 2] [--out DIR]
       scripts/sweep_003_table1.py --write-scenarios scenarios/zhai_wccp/reproduction/generated

--write-scenarios DIR writes the chain under each model, 300 s, as DIR/table1_<model>.json
and runs nothing: the scenarios of the wccp study's Table I experiments
(scenarios/zhai_wccp/reproduction/table1_*.json, `wmnsim reproduce wccp`, whose
report makes the tables of docs/reproductions/wccp.md that docs/phy.md points to).
That command regenerates the committed files byte for byte.
"""

import argparse
import copy
import json
import os
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


def scenario(model, duration_s):
    """The chain under one reception model; the rate is a sweep point (rate_point)."""
    with open(os.path.join(ROOT, "scenarios", "zhai_wccp", "chain9.json")) as f:
        s = json.load(f)
    s.pop("$schema", None)
    s["name"] = f"zhai_table1_{model}"
    s["description"] = "003 Table I sweep (scripts/sweep_003_table1.py)"
    s["simulation"] = {"duration_s": duration_s, "seed": 1, "measurement_interval_s": duration_s}
    m = MODELS[model]
    s["propagation"] = copy.deepcopy(m["propagation"])
    s["phy"]["reception"] = copy.deepcopy(m["reception"])
    if s["propagation"]["model"] == "range":
        s["phy"].pop("tx_power_dbm", None)
    s["flows"] = [
        {"id": "data", "transport": "udp", "src": "1", "dst": "9", "payload_bytes": 1000,
         "traffic": {"type": "cbr", "interval_s": 1.0}},
        {"id": "back", "transport": "udp", "src": "9", "dst": "1", "payload_bytes": 40,
         "traffic": {"type": "cbr", "interval_s": 1.0}},
    ]
    s["controllers"] = []
    s["outputs"] = {"timeseries": []}
    return s


def rate_point(rate_pps, back_offset=0.0):
    """Both flows at rate_pps packet/s."""
    interval = 1.0 / rate_pps
    point = {"/flows/0/traffic/interval_s": interval, "/flows/1/traffic/interval_s": interval}
    if back_offset > 0:
        # Both CBR sources start at 0 by default (strictly periodic, as ns-2's CBR),
        # so their packets meet at the same place of the chain every period.
        point["/flows/1/start_s"] = back_offset * interval
    return point


def import_wmnsim(wmnsim_bin):
    """The wmnsim module of the build that made --wmnsim (BUILD/python), else the installed one."""
    build_python = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(wmnsim_bin))), "python")
    if os.path.isdir(os.path.join(build_python, "wmnsim")):
        paths = [os.path.join(ROOT, "bindings"), build_python]
        sys.path[:0] = paths
        os.environ["PYTHONPATH"] = os.pathsep.join(paths + [p for p in [os.environ.get("PYTHONPATH")] if p])
    import wmnsim
    return wmnsim


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--wmnsim", default=os.path.join(ROOT, "build", "ci", "cli", "wmnsim"),
                    help="the build whose Python module runs the sweep (BUILD/cli/wmnsim -> BUILD/python)")
    ap.add_argument("--duration", type=float, default=100.0)
    ap.add_argument("--rates", default="16,18,20,22,24,26,28,30,34,40")
    ap.add_argument("--models", default="ns2,threshold,range,sinr")
    ap.add_argument("--seeds", default="1")
    ap.add_argument("--back-offset", type=float, default=0.0,
                    help="start the 9 -> 1 flow this fraction of a period after the 1 -> 9 flow")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes of the embedded Dask cluster")
    ap.add_argument("--out", help="keep the sweeps' datasets in OUT/<model> (and resume them)")
    ap.add_argument("--write-scenarios", metavar="DIR",
                    help="write DIR/table1_<model>.json (300 s) for every model and exit (no runs)")
    args = ap.parse_args()
    if args.write_scenarios:
        os.makedirs(args.write_scenarios, exist_ok=True)
        for model in MODELS:
            path = os.path.join(args.write_scenarios, f"table1_{model}.json")
            with open(path, "w") as f:
                json.dump(scenario(model, 300.0), f, indent=1)
                f.write("\n")
            print(f"wrote {path}")
        return 0
    wmnsim = import_wmnsim(args.wmnsim)
    rates = [float(r) for r in args.rates.split(",")]
    seeds = [int(x) for x in args.seeds.split(",")]
    print(f"duration {args.duration:g} s per point, seeds {args.seeds}, back flow offset {args.back_offset:g} "
          "period; collision drops = forward flow's drops_retry_limit per second (mean over seeds)\n")
    print("| model | rate (packet/s) | goodput fwd + back (kbit/s) | collision drops/s (fwd) | "
          "all drops/s (fwd) | collision drops/s (both flows) | mean delay fwd (s) |")
    print("|---|---|---|---|---|---|---|")
    knees, exceeded = {}, set()
    with tempfile.TemporaryDirectory(prefix="wmnsim-003-") as tmp, \
            wmnsim.sweep.dask_client(workers=args.jobs) as client:
        for model in args.models.split(","):
            out = os.path.join(args.out or tmp, model)
            data = wmnsim.sweep(scenario(model, args.duration), points=[rate_point(r, args.back_offset) for r in rates],
                                seeds=seeds, out_dir=out, scheduler=client)
            flows = data.flows.set_index(["run_key", "flow_id"])
            for rate in rates:
                runs = data.runs[data.runs["/flows/0/traffic/interval_s"] == 1.0 / rate]["run_key"]
                fwd = flows.loc[[(k, "data") for k in runs]]
                back = flows.loc[[(k, "back") for k in runs]]
                g = fwd["goodput_bps"].mean() / 1e3
                gb = back["goodput_bps"].mean() / 1e3
                c = fwd["drops_retry_limit"].mean() / args.duration
                a = fwd["dropped_packets"].mean() / args.duration
                both = (fwd["drops_retry_limit"].to_numpy()
                        + back["drops_retry_limit"].to_numpy()).mean() / args.duration
                dl = fwd["delay_mean_s"].fillna(0.0).mean()
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
