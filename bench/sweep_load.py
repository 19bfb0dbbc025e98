#!/usr/bin/python3
"""Benchmark: load and aggregate a sweep dataset of thousands of stored runs (issue 42).

Joins the given sweep directories into one (a temporary directory whose runs/ entries
are symlinks to theirs and whose sweep.json lists all their sweeps), then times, each
`--repeat` times (the median is printed):
  - load: wmnsim.sweep.load(DIR) and reading its four tables (runs, flows, nodes, radios);
  - aggregate: wmnsim.sweep.aggregate of the flows' goodput per parameter point and flow;
  - with --baseline, the same four tables read file by file into pandas (the way
    wmnsim.sweep.load read them before issue 42), for the ratio.

Usage (001 Table 5's 10,500 stored runs, once `wmnsim reproduce gateway` has made them):
  PYTHONPATH=bindings:build/release/python /usr/bin/python3 bench/sweep_load.py \
      build/reproduce/gateway/full/a4_random/* --baseline
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import wmnsim.sweep

TABLES = ("run", "flows", "nodes", "radios")


def join(dirs, into: Path) -> int:
    """`into` becomes one sweep directory holding the runs of every directory in `dirs`."""
    (into / "runs").mkdir()
    sweeps = []
    for d in dirs:
        d = Path(d).resolve()
        meta = d / "sweep.json"
        if meta.is_file():
            sweeps += json.loads(meta.read_text()).get("sweeps", [])
        for run in os.scandir(d / "runs"):
            target = into / "runs" / run.name
            if not target.exists():
                target.symlink_to(run.path)
    (into / "sweep.json").write_text(json.dumps({"format": "wmnsim-sweep", "sweeps": sweeps}))
    return len(os.listdir(into / "runs"))


def file_by_file(directory: Path):
    """The four tables read one file at a time (the baseline)."""
    import pandas as pd
    import pyarrow.parquet as pq

    runs = sorted(os.listdir(directory / "runs"))
    out = []
    for name in TABLES:
        paths = [directory / "runs" / r / f"{name}.parquet" for r in runs]
        out.append(pd.concat([pq.read_table(p).to_pandas() for p in paths if p.exists()], ignore_index=True))
    return out


def timed(f, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("dirs", nargs="+", help="sweep directories (DIR/runs/...)")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--baseline", action="store_true", help="also read the tables file by file")
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        n = join(args.dirs, directory)
        holder = {}

        def load():
            data = wmnsim.sweep.load(directory)
            holder["tables"] = [data.runs, data.flows, data.nodes, data.radios]
            holder["data"] = data

        t_load = timed(load, args.repeat)
        runs, flows, nodes, radios = holder["tables"]
        by = holder["data"].parameters + ["flow_id"]
        t_agg = timed(lambda: wmnsim.sweep.aggregate(flows, by=by, metrics=["goodput_bps"]), args.repeat)
        groups = len(wmnsim.sweep.aggregate(flows, by=by, metrics=["goodput_bps"]))
        print(f"{n} runs ({len(flows)} flow, {len(nodes)} node, {len(radios)} radio rows): "
              f"load {t_load:.2f} s, aggregate of goodput per point and flow ({groups} groups) {t_agg:.2f} s "
              f"(median of {args.repeat})")
        if args.baseline:
            t_base = timed(lambda: file_by_file(directory), args.repeat)
            print(f"baseline, the four tables read file by file: {t_base:.2f} s ({t_base / t_load:.1f}x the load)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
