#!/usr/bin/python3
"""The inputs of 004's experiments that are derived, not typed (docs/reproductions/mesh-congestion.md).
Writes, for `wmnsim reproduce mesh-congestion`:

- more_seeds.json's topology_seeds: the snapshots whose LSCC change udp's stored runs
  (seeds 1-3) leave undetermined by the 95 % Welch interval (the report's classify),
  the ones experiment more_seeds runs with seeds 4 and 5;
- tcp_bursty_more_seeds.json's topology_seeds: likewise for TCP's throughput under LSCC in
  tcp_bursty's stored runs (seeds 1-3), run again with seeds 4 and 5;
- generated/mesh40_4gw_mix_*.json (issue 40 section 3, other traffic mixes): the mesh of
  mesh40_4gw.json with 004's 16 Mbit/s offered otherwise split: `reverse`, 100 kbit/s
  down and 300 kbit/s up per station (upload-dominated, the reverse of 004's 300/100);
  `up`, 400 kbit/s up only; `down`, 400 kbit/s down only (004 Sec. 4.3's "downlink
  dominating" case, taken to its end);
- generated/mesh40_4gw_tcp_bursty_long.json (section 3, a second burst model for Sec.
  4.4): mesh40_4gw_tcp_bursty.json with on/off periods of 5 s mean instead of 1 s (the
  same mean rate, bursts five times as long).

Usage: /usr/bin/python3 scripts/mesh_congestion_inputs.py [--check]
  --check: write nothing; exit 1 naming each file that differs from what the stored runs
  and base scenarios give (stale), 0 when all are current.
"""
from __future__ import annotations

import argparse
import copy
import json
import sys
from pathlib import Path
from typing import Dict, List

sys.path.insert(0, str(Path(__file__).resolve().parent))
import mesh_congestion_report as report  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "scenarios" / "fu2009"
REPRO = FOLDER / "reproduction"
GENERATED = REPRO / "generated"
MIXES = {  # name -> (kbit/s down, kbit/s up) per station; 0 leaves that direction out
    "reverse": (100, 300),
    "up": (0, 400),
    "down": (400, 0),
}
LONG_BURST_S = 5.0


def undetermined_snapshots() -> List[int]:
    """The snapshots whose LSCC change udp's runs leave undetermined (report.classify over their seeds)."""
    import pandas as pd

    runs = pd.read_parquet(REPRO / "data" / "udp" / "runs.parquet")
    runs["scheme"] = runs["/controllers"].map(report.scheme_of)
    band = report.BAND * report.OFFERED_UDP
    by = {sc: {int(k): g.tolist() for k, g in runs[runs["scheme"] == sc].groupby("topology_seed")["total_goodput_bps"]}
          for sc in ("none", "lscc")}
    return sorted(k for k in by["lscc"] if report.classify(by["lscc"][k], by["none"][k], band)[0] == "undetermined")


def tcp_bursty_undetermined() -> List[int]:
    """The snapshots whose LSCC change of TCP's throughput tcp_bursty's runs (seeds 1-3) leave undetermined
    (report.classify over the seeds, TCP's throughput the sum of each run's `_tcp_` flows, as the report reads it)."""
    import pandas as pd

    flows = pd.read_parquet(REPRO / "data" / "tcp_bursty" / "flows.parquet")
    flows = flows[flows["flow_id"].str.contains("_tcp_")].copy()
    flows["scheme"] = flows["/controllers"].map(report.scheme_of)
    tcp = flows.groupby(["scheme", "topology_seed", "seed"])["goodput_bps"].sum()
    band = report.BAND * report.OFFERED_UDP / 2
    by = {sc: {int(k): g.tolist() for k, g in tcp[sc].groupby(level="topology_seed")} for sc in ("none", "lscc")}
    return sorted(k for k in by["lscc"] if report.classify(by["lscc"][k], by["none"][k], band)[0] == "undetermined")


def mix(base: dict, name: str, down: int, up: int) -> dict:
    doc = copy.deepcopy(base)
    doc["name"] = f"fu2009_mesh40_4gw_mix_{name}"
    doc["description"] = (
        f"Issue 40 section 3, written by scripts/mesh_congestion_inputs.py from mesh40_4gw.json: the same mesh and "
        f"models with 004's 16 Mbit/s of UDP CBR split {down} kbit/s down and {up} kbit/s up per station "
        "(004: 300 down, 100 up).")
    flows = []
    for f in doc["flows"]:
        rate = down if f["id"].endswith("_down") else up
        if rate == 0:
            continue
        f["traffic"]["rate_bps"] = rate * 1000
        flows.append(f)
    doc["flows"] = flows
    return doc


def long_bursts(base: dict) -> dict:
    doc = copy.deepcopy(base)
    doc["name"] = "fu2009_mesh40_4gw_tcp_bursty_long"
    doc["description"] = (
        "Issue 40 section 3, written by scripts/mesh_congestion_inputs.py from mesh40_4gw_tcp_bursty.json: the same "
        f"TCP and bursty UDP halves, the UDP halves' on and off periods of {LONG_BURST_S:g} s mean (exponential) "
        "instead of 1 s: the same mean rate in bursts five times as long.")
    for f in doc["flows"]:
        if f["traffic"].get("type") == "on_off":
            f["traffic"]["on_s"] = LONG_BURST_S
            f["traffic"]["off_s"] = LONG_BURST_S
    return doc


def text(doc) -> str:
    return json.dumps(doc, indent=1) + "\n"


def wanted() -> Dict[Path, str]:
    out: Dict[Path, str] = {}
    base = json.loads((FOLDER / "mesh40_4gw.json").read_text())
    for name, (down, up) in MIXES.items():
        doc = mix(base, name, down, up)
        doc["$schema"] = "../../../schema/scenario.schema.json"
        out[GENERATED / f"mesh40_4gw_mix_{name}.json"] = text(doc)
    bursty = json.loads((FOLDER / "mesh40_4gw_tcp_bursty.json").read_text())
    doc = long_bursts(bursty)
    doc["$schema"] = "../../../schema/scenario.schema.json"
    out[GENERATED / "mesh40_4gw_tcp_bursty_long.json"] = text(doc)
    more = json.loads((REPRO / "more_seeds.json").read_text())
    more["topology_seeds"] = undetermined_snapshots()
    out[REPRO / "more_seeds.json"] = text(more)
    more_tb = json.loads((REPRO / "tcp_bursty_more_seeds.json").read_text())
    more_tb["topology_seeds"] = tcp_bursty_undetermined()
    out[REPRO / "tcp_bursty_more_seeds.json"] = text(more_tb)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a file is stale")
    args = parser.parse_args()
    stale = []
    for path, content in wanted().items():
        current = path.read_text() if path.is_file() else None
        if current == content:
            continue
        stale.append(path)
        if not args.check:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(content)
            print(f"wrote {path.relative_to(ROOT)}")
    if args.check and stale:
        for path in stale:
            print(f"stale: {path.relative_to(ROOT)} (run scripts/mesh_congestion_inputs.py)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
