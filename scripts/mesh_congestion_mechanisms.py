#!/usr/bin/python3
"""The mechanism table of docs/reproductions/mesh-congestion.md: 004's Figs. 1-4 on small scenarios.

Runs each of scenarios/fu2009/{waste_of_bandwidth, congestion_control_collision,
buffer_blocking, look_ahead_solvable, look_ahead_unsolvable}.json under the
configurations that show its mechanism (no congestion control, TCC, LSCC, and LSCC
with one of 004's remedies turned off), for --seeds runs each, and rewrites the block
between <!-- begin:mechanisms --> and <!-- end:mechanisms --> (scripts/doc_blocks.py)
with the means. tests/control/test_mesh_congestion_control.cpp checks the same
outcomes. A run takes a fraction of a second.

Usage: /usr/bin/python3 scripts/mesh_congestion_mechanisms.py [--wmnsim build/release/cli/wmnsim]
          [--seeds 1,2,3] [--no-doc]
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Dict, List, Optional, Sequence

sys.path.insert(0, str(Path(__file__).resolve().parent))
from doc_blocks import replace_block  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "reproductions" / "mesh-congestion.md"
FOLDER = ROOT / "scenarios" / "fu2009"

# (figure, scenario, the nodes whose blocked time is shown, [(label, /controllers or None)])
CASES = [
    ("Fig. 1: waste of bandwidth", "waste_of_bandwidth", ["S1", "G"],
     [("none", None), ("TCC", {"type": "tcc"}), ("LSCC", {"type": "lscc"})]),
    ("Fig. 2: congestion-control collision", "congestion_control_collision", ["B", "C"],
     [("none", None), ("TCC", {"type": "tcc"}), ("LSCC", {"type": "lscc"}),
      ("LSCC, exclude_blocked_packets (ours)", {"type": "lscc", "exclude_blocked_packets": True})]),
    ("Fig. 3: buffer blocking, forwarding part", "look_ahead_solvable", ["A", "E"],
     [("LSCC without look-ahead", {"type": "lscc", "look_ahead_threshold": 1}),
      ("LSCC (004)", {"type": "lscc"})]),
    ("Fig. 3: buffer blocking, local part", "buffer_blocking", ["A", "E", "B"],
     [("LSCC without the limit on blocked local packets", {"type": "lscc", "blocked_local_limit": 1}),
      ("LSCC (004: 50 % of the local part)", {"type": "lscc"})]),
    ("Fig. 4(a): solvable", "look_ahead_solvable", ["A", "E"],
     [("none", None), ("TCC", {"type": "tcc"}), ("LSCC (as Fig. 3's with look-ahead)", {"type": "lscc"})]),
    ("Fig. 4(b): unsolvable", "look_ahead_unsolvable", ["A", "E"],
     [("none", None), ("LSCC", {"type": "lscc"})]),
]


_RUNS: Dict[str, dict] = {}


def run(wmnsim: str, scenario: str, controller: Optional[dict], seed: int, out: Path) -> dict:
    """One run's results; the same scenario, controller and seed are run once."""
    key = json.dumps([scenario, controller, seed], sort_keys=True)
    if key not in _RUNS:
        raw = out / f"run{len(_RUNS)}.json"
        cmd = [wmnsim, "run", str(FOLDER / f"{scenario}.json"), "--seed", str(seed), "-o", str(raw)]
        if controller is not None:
            cmd += ["--set", "/controllers=" + json.dumps([controller])]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        _RUNS[key] = json.loads(raw.read_text())
    return _RUNS[key]


def mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs) if xs else float("nan")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--wmnsim", default=os.environ.get("WMNSIM_BIN", str(ROOT / "build" / "release" / "cli" / "wmnsim")))
    ap.add_argument("--seeds", default="1,2,3")
    ap.add_argument("--no-doc", action="store_true", help="print the table instead of writing the document")
    args = ap.parse_args()
    seeds = [int(s) for s in args.seeds.split(",")]
    lines = ["| 004 | scenario | configuration | goodput per flow (Mbit/s) | forwarded packets lost in buffers | "
             "blocked (s) | look-ahead notifications | congestion detections |",
             "|---|---|---|---|---:|---|---:|---:|"]
    with tempfile.TemporaryDirectory(prefix="mesh_mechanisms_") as tmp:
        for figure, scenario, shown, configs in CASES:
            for label, controller in configs:
                rs = [run(args.wmnsim, scenario, controller, s, Path(tmp)) for s in seeds]
                flows = sorted(f["id"] for f in rs[0]["flows"])
                goodput = ", ".join(
                    f"{fid} {mean([next(f['goodput_bps'] for f in r['flows'] if f['id'] == fid) for r in rs]) / 1e6:.2f}"
                    for fid in flows)
                lost = mean([r["summary"]["drops_intra_mesh_by_cause"]["queue_overflow"] for r in rs])
                blocked, look, detect = "", "", ""
                if controller is not None:
                    rows: List[Dict[str, dict]] = [
                        {x["node"]: x for x in r["controllers"][0]["statistics"]["radios"]} for r in rs]
                    blocked = ", ".join(f"{n} {mean([row[n]['blocked_s'] for row in rows]):.1f}" for n in shown)
                    look = f"{mean([sum(x['notifications_sent_look_ahead'] for x in row.values()) for row in rows]):.0f}"
                    detect = f"{mean([sum(x['congestion_detections'] for x in row.values()) for row in rows]):.0f}"
                duration = rs[0]["scenario"]["simulation"]["duration_s"]
                lines.append(f"| {figure} | {scenario}.json ({duration:g} s) | {label} | {goodput} | {lost:.0f} | "
                             f"{blocked} | {look} | {detect} |")
    lines.append("")
    lines.append(f"Means of run seeds {', '.join(map(str, seeds))}. Blocked: the time the named stations spent under "
                 "a notification. Look-ahead notifications and congestion detections: all stations together.")
    text = "\n".join(lines)
    if args.no_doc:
        print(text)
    else:
        DOC.write_text(replace_block(DOC.read_text(), "mechanisms", text, DOC))
        print(f"wrote {DOC.relative_to(ROOT)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
