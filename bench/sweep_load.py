#!/usr/bin/python3
"""Benchmark: load and aggregate a sweep dataset of thousands of stored runs (issue 42).

The dataset is either
  - the given sweep directories joined into one (a temporary directory whose runs/
    entries are copies of theirs and whose sweep.json lists all their sweeps), or
  - with --synthesize N, N runs made from a small real sweep (--from DIR, or one this
    script runs: SOURCE_SPEC below): run i is a copy of real run i mod R under a key
    of its own (the run_key column rewritten in each of its tables), listed in
    sweep.json as point i // SEEDS, seed i mod SEEDS + 1 of one parameter
    (/mac/cw_min), so that aggregate has N / SEEDS points to group.
Then it times, each `--repeat` times (the median is printed):
  - load: wmnsim.sweep.load(DIR) and reading its four tables (runs, flows, nodes, radios),
    as the runs are stored (four or more files per run);
  - compact: wmnsim.sweep.compact(DIR), once;
  - load again, compacted (one file per table);
  - aggregate: wmnsim.sweep.aggregate of the flows' goodput per parameter point and flow;
  - with --baseline, the same four tables read file by file into pandas (the way
    wmnsim.sweep.load read them before issue 42), for the ratio.
It checks that both loads give the same four tables.

Usage (the figure in docs/sweeps.md):
  PYTHONPATH=bindings:build/release/python nice -n 19 /usr/bin/python3 bench/sweep_load.py --synthesize 10000
Or on stored sweeps, e.g. 001 Table 5's 10,500 runs once `wmnsim reproduce gateway` made them:
  PYTHONPATH=bindings:build/release/python /usr/bin/python3 bench/sweep_load.py \\
      build/reproduce/gateway/full/a4_random/*
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import wmnsim.sweep

TABLES = ("run", "flows", "nodes", "radios")
ROOT = Path(__file__).resolve().parents[1]
# The small real sweep runs are copied from: a 40-node mesh with 4 gateways (many flow,
# node and radio rows per run, as in a study), two placements x two seeds, 1 s each.
SOURCE_SPEC = {"scenario": str(ROOT / "scenarios" / "fu2009" / "mesh40_4gw.json"),
               "points": [{"/simulation/duration_s": 1, "/simulation/warmup_s": 0}],
               "seeds": [1, 2], "topology_seeds": [1, 2]}
SEEDS = 10  # synthetic runs per point


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
                shutil.copytree(run.path, target)  # copies: compaction rewrites the directory
    (into / "sweep.json").write_text(json.dumps({"format": "wmnsim-sweep", "sweeps": sweeps}))
    return len(os.listdir(into / "runs"))


def synthesize(source: Path, n: int, into: Path) -> int:
    """`into` becomes a sweep directory of `n` runs copied from the runs of `source`."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    real = sorted(os.listdir(source / "runs"))
    tables = {k: {f[:-len(".parquet")]: pq.read_table(source / "runs" / k / f)
                  for f in os.listdir(source / "runs" / k) if f.endswith(".parquet")} for k in real}
    (into / "runs").mkdir()
    runs = []
    for i in range(n):
        src = real[i % len(real)]
        key = hashlib.sha256(f"{src}/{i}".encode()).hexdigest()[:20]
        folder = into / "runs" / key
        folder.mkdir()
        for name, table in tables[src].items():
            column = table.schema.get_field_index("run_key")
            table = table.set_column(column, "run_key", pa.array([key] * table.num_rows, pa.string()))
            pq.write_table(table, folder / f"{name}.parquet")
        point = i // SEEDS
        runs.append({"key": key, "point_key": f"p{point}", "overrides": {"/mac/cw_min": 16 + point},
                     "seed": i % SEEDS + 1, "topology_seed": None})
    (into / "sweep.json").write_text(json.dumps({"format": "wmnsim-sweep", "format_version": 1, "sweeps": [
        {"parameters": ["/mac/cw_min"], "runs": runs}]}))
    return n


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
    p.add_argument("dirs", nargs="*", help="sweep directories (DIR/runs/...)")
    p.add_argument("--synthesize", type=int, metavar="N", help="N runs copied from a small real sweep")
    p.add_argument("--from", dest="source", help="the real sweep to copy from (default: run SOURCE_SPEC)")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--baseline", action="store_true", help="also read the tables file by file")
    args = p.parse_args()
    if bool(args.dirs) == bool(args.synthesize):
        p.error("give sweep directories or --synthesize N")
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp) / "dataset"
        directory.mkdir()
        if args.synthesize:
            source = Path(args.source) if args.source else Path(tmp) / "source"
            if not args.source:
                spec = Path(tmp) / "source.sweep.json"
                spec.write_text(json.dumps(SOURCE_SPEC))
                wmnsim.sweep(**wmnsim.sweep.load_spec(spec), out_dir=source, workers=1, progress=False)
            start = time.perf_counter()
            n = synthesize(source, args.synthesize, directory)
            print(f"synthesized {n} runs from {len(os.listdir(source / 'runs'))} real ones in "
                  f"{time.perf_counter() - start:.0f} s")
        else:
            n = join(args.dirs, directory)
        files = sum(len(f) for _, _, f in os.walk(directory / "runs"))
        holder = {}

        def load():
            data = wmnsim.sweep.load(directory)
            holder["tables"] = [data.runs, data.flows, data.nodes, data.radios]
            holder["data"] = data

        t_loose = timed(load, args.repeat)
        loose = holder["tables"]
        if args.baseline:
            t_base = timed(lambda: file_by_file(directory), args.repeat)
        start = time.perf_counter()
        wmnsim.sweep.compact(directory)
        t_compact = time.perf_counter() - start
        t_load = timed(load, args.repeat)
        runs, flows, nodes, radios = holder["tables"]
        for a, b in zip(loose, holder["tables"]):
            assert a.equals(b), "the compacted dataset loads other tables"
        by = holder["data"].parameters + ["flow_id"]
        t_agg = timed(lambda: wmnsim.sweep.aggregate(flows, by=by, metrics=["goodput_bps"]), args.repeat)
        groups = len(wmnsim.sweep.aggregate(flows, by=by, metrics=["goodput_bps"]))
        print(f"{n} runs ({len(flows)} flow, {len(nodes)} node, {len(radios)} radio rows; {files} files): "
              f"load {t_loose:.2f} s; compact {t_compact:.2f} s; load compacted {t_load:.2f} s "
              f"({t_loose / t_load:.1f}x faster); aggregate of goodput per point and flow ({groups} groups) "
              f"{t_agg:.2f} s (median of {args.repeat})")
        if args.baseline:
            print(f"baseline, the four tables read file by file: {t_base:.2f} s ({t_base / t_load:.1f}x the "
                  "compacted load)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
