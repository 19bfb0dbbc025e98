#!/usr/bin/env python3
"""Which distances give which rate, per PHY standard, under wmnsim's defaults
(docs/phy.md "Distance guide"): log-distance path loss with exponent 3 and free
space at 1 m, 20 dBm, noise -93.5 dBm, SINR reception, auto rate at 1 % FER for
1500-byte frames. For every rate, the farthest distance (to the metre) at which
"auto" still picks it or a faster one; then how far a frame is locked onto (the
sensitivity, at the noise by default), how far the energy alone makes the medium
busy (-62 dBm) and how far a signal is delivered at all (the floor, noise - 10 dB).
Distances come from the build's own PHY (Scenario.radio_links), not from formulas
copied here.

    PYTHONPATH=bindings:build/ci/python python3 scripts/distance_guide.py            # print
    PYTHONPATH=bindings:build/ci/python python3 scripts/distance_guide.py --write    # into docs/phy.md
"""
import argparse
import math
import pathlib
import sys

import wmnsim

DOC = pathlib.Path(__file__).resolve().parents[1] / "docs" / "phy.md"
BEGIN, END = "<!-- distance-guide begin -->", "<!-- distance-guide end -->"
STANDARDS = ("802.11b", "802.11a", "802.11g")
CCA_DBM = -62.0  # sinr's default energy-detection threshold (802.11-2012 18.3.10.6)


def link(standard: str, d: float):
    """The link from A to B, d metres apart, as the PHY builds it (None: below the floor)."""
    doc = {"name": "distance_guide", "simulation": {"duration_s": 1},
           "phy": {"standard": standard, "data_rate_bps": "auto"},
           "nodes": [{"id": "A", "position_m": [0, 0]}, {"id": "B", "position_m": [d, 0]}],
           "flows": [{"id": "f", "transport": "udp", "src": "A", "dst": "B"}]}
    links = wmnsim.Scenario(doc).radio_links()
    row = links[(links.src == "A") & (links.dst == "B")]
    return None if row.empty else row.iloc[0]


def farthest(holds, lo: float = 1.0, hi: float = 5000.0) -> int:
    """The largest whole distance in [lo, hi] at which holds(d) is true (holds is true at lo
    and monotone: true up to a distance, false beyond)."""
    lo_i, hi_i = int(lo), int(hi)
    if holds(hi_i):
        return hi_i
    while hi_i - lo_i > 1:
        mid = (lo_i + hi_i) // 2
        if holds(mid):
            lo_i = mid
        else:
            hi_i = mid
    return lo_i


def rate_at(standard: str, d: float) -> float:
    """The rate "auto" picks at d metres; NaN where none meets the FER target."""
    l = link(standard, d)
    return math.nan if l is None else l.rate_bps


def guide(standard: str) -> tuple:
    """[(rate, farthest distance it is picked at)], fastest first; how far a frame is locked
    onto; how far the energy alone makes the medium busy."""
    rows = []
    d = 1
    # Walk outwards from the fastest rate, each boundary found by bisection.
    while not math.isnan(rate := rate_at(standard, d)):
        edge = farthest(lambda x: rate_at(standard, x) >= rate, d)  # NaN compares false
        rows.append((rate, edge))
        d = edge + 1
    lock = farthest(lambda x: (l := link(standard, x)) is not None and bool(l.decodable))
    busy = farthest(lambda x: (l := link(standard, x)) is not None and l.rx_power_dbm >= CCA_DBM)
    return rows, lock, busy


def table() -> str:
    out = ["| standard | rate (Mbit/s) picked by `\"auto\"` up to | locked onto (sensitivity) up to | "
           "medium busy by energy (-62 dBm) up to |", "|---|---|---:|---:|"]
    for standard in STANDARDS:
        rows, lock, busy = guide(standard)
        rates = ", ".join(f"{r / 1e6:g} to {d} m" for r, d in rows)
        out.append(f"| {standard} | {rates} | {lock} m | {busy} m |")
    return "\n".join(out) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--write", action="store_true", help=f"replace the table in {DOC.name}")
    args = ap.parse_args()
    t = table()
    if not args.write:
        sys.stdout.write(t)
        return 0
    text = DOC.read_text()
    head, _, rest = text.partition(BEGIN)
    _, _, tail = rest.partition(END)
    DOC.write_text(head + BEGIN + "\n" + t + END + tail)
    return 0


if __name__ == "__main__":
    sys.exit(main())
