#!/usr/bin/env python3
"""Stores an experiment's kept controller histories sampled, from its stored table (no run).

An experiment that keeps "controllers" stores each `*_over_time` history as run, unless its
file sets `history_interval_s` (docs/reproduce.md). After adding that key to an experiment
whose runs are stored, this script rewrites the stored controllers table as a run with the
key would have stored it (wmnsim.reproduce.sample_history on every history, the same JSON
text) and records the interval and the new sizes in provenance.json; the runs stay as they
are. Sampling a table already sampled at the same interval leaves it byte for byte as it is.

Usage: scripts/resample_histories.py scenarios/<folder>/reproduction/<experiment>.json [--quick]
(with the wmnsim module importable; --quick: the stored quick runs, data/quick/<experiment>/)
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys

import pyarrow.parquet as pq

from wmnsim.reproduce import _sampled_histories, _write_table, sample_history

HISTORY_SUFFIX = "_over_time"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("experiment", help="the experiment's file (its history_interval_s is used)")
    parser.add_argument("--quick", action="store_true", help="the stored quick runs instead of the full ones")
    args = parser.parse_args()
    spec_path = args.experiment
    spec = json.load(open(spec_path, encoding="utf-8"))
    interval = spec.get("history_interval_s")
    if not isinstance(interval, (int, float)) or isinstance(interval, bool) or interval <= 0:
        print(f"{spec_path}: /history_interval_s: set it (a number of seconds > 0) first", file=sys.stderr)
        return 2
    name = os.path.splitext(os.path.basename(spec_path))[0]
    data = os.path.join(os.path.dirname(spec_path), "data", *(["quick"] if args.quick else []), name)
    table = os.path.join(data, "controllers.parquet")
    if not os.path.isfile(table):
        print(f"{table}: no stored controllers table", file=sys.stderr)
        return 2
    df = pq.read_table(table).to_pandas()

    def sampled(text):
        """A flattened statistic stored as JSON text (a list of radios, or one history), sampled."""
        if not isinstance(text, str):
            return text
        return json.dumps(_sampled_histories(json.loads(text), float(interval)), sort_keys=True, separators=(",", ":"))

    for col in df.columns:
        if df[col].dtype == object:
            if col.endswith(HISTORY_SUFFIX):
                df[col] = df[col].map(lambda t: json.dumps(sample_history(json.loads(t), float(interval)), sort_keys=True,
                                                           separators=(",", ":")) if isinstance(t, str) else t)
            elif df[col].map(lambda t: isinstance(t, str) and t.startswith("[{")).any():
                df[col] = df[col].map(sampled)  # per-radio statistics (LSCC's `radios`)
    _write_table(df, table)
    provenance_path = os.path.join(data, "provenance.json")
    provenance = json.load(open(provenance_path, encoding="utf-8"))
    provenance["history_interval_s"] = float(interval)
    provenance["spec_sha256"] = hashlib.sha256(open(spec_path, "rb").read()).hexdigest()[:16]
    provenance["tables"]["controllers"] = os.path.getsize(table)
    with open(provenance_path, "w", encoding="utf-8") as f:
        json.dump(provenance, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"{table}: histories sampled at {interval:g} s, {os.path.getsize(table):,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
