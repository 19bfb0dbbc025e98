#!/usr/bin/env python3
"""The tables and the figure of docs/reproductions/edca.md (paper 002), from the results.

Reads the reference files of paper 002's scenarios (scenarios/badarla/references/
*.reference.json, not the quick ones: the per-seed values of real runs written by
scripts/references.py generate) for every number in the tables. Goodput over time
is not in a reference, so the script runs the parking lot's DCF, ACK-priority and
TXOP scenarios for seed 1 and the dynamic scenario (Fig. 4) for the reference's
seeds with `wmnsim run` (a few seconds in all). Then it

  - rewrites the tables between the <!-- begin:NAME --> / <!-- end:NAME --> markers
    of docs/reproductions/edca.md, and
  - draws docs/reproductions/edca.png (needs matplotlib).

Usage: /usr/bin/python3 scripts/edca_report.py [--wmnsim PATH] [--no-plot]
After a deliberate model change: scripts/references.py generate
scenarios/badarla/references, then this script.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

from scipy import stats as scipy_stats

from doc_blocks import replace_block

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "scenarios" / "badarla"
REFS = SCENARIOS / "references"
DOC = ROOT / "docs" / "reproductions" / "edca.md"
FIGURE = DOC.with_suffix(".png")

# Parking lot flows by hops to S (scenarios/badarla/parking_lot_dcf.json).
HOP_GROUPS = [("1 hop (flows 0-2)", [0, 1, 2]), ("2 hops (3-5)", [3, 4, 5]), ("3 hops (6-8)", [6, 7, 8]),
              ("4 hops (9-11)", [9, 10, 11])]
PARKING = [
    ("parking_lot_dcf", "DCF (Fig. 2)", "erratic; fewer hops starve more hops"),
    ("parking_lot_ack_priority", "ACK priority (Fig. 3a)", "predictable, none starved, flows 0-2 well above the rest"),
    ("parking_lot_txop", "ACK priority + TXOP = flows (Fig. 3b)", "per-flow throughputs close to equal"),
    ("parking_lot_half", "ACK priority + TXOP/2, CWmin/2 (Sec. IV-A)", "(delays only)"),
    ("parking_lot_dynamic", "Fig. 4 from 240 s (dynamic TXOP since 200 s)", "in line with the static TXOP from 220-240 s on"),
]
# 002 Sec. IV-A: mean MAC delay at R9, R6, R3 (ms).
PAPER_DELAY_MS = {
    "parking_lot_dcf": (6.4, 2.5, 2.3),
    "parking_lot_txop": (3.3, 2.6, 2.8),
    "parking_lot_half": (3.3, 2.5, 2.8),
}
RELAYS = [("R9", "R9:1"), ("R6", "R6:1"), ("R3", "R3:1")]
HIERARCHICAL = [
    ("hierarchical_dcf", "DCF"),
    ("hierarchical_ack_priority", "ACK priority"),
    ("hierarchical_txop", "ACK priority + TXOP"),
]
HIER_FLOWS = [("flow0", "l0 (left)"), ("flow1", "l1 (left)"), ("flow2", "r0 (right)"), ("flow3", "r1 (right)"),
              ("flow4", "r2 (right)"), ("flow5", "r3 (right)")]


# ---- references ------------------------------------------------------------------

def load(name: str) -> dict:
    return json.loads((REFS / f"{name}.reference.json").read_text())


def samples(ref: dict, metric: str) -> List[float]:
    for m in ref["metrics"]:
        if m["metric"] == metric:
            return [float(x) for x in m.get("samples", [m["mean"]])]
    raise KeyError(f"{metric} is not in the reference of {ref['scenario']}")


def mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs)


def ci95(xs: Sequence[float]) -> float:
    """Half-width of the 95 % confidence interval of the mean (Student's t), as 002 Fig. 6."""
    n = len(xs)
    if n < 2:
        return float("nan")
    m = mean(xs)
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    return float(scipy_stats.t.ppf(0.975, n - 1)) * sd / math.sqrt(n)


def kbps(x: float) -> str:
    return f"{x / 1e3:.0f}"


def per_seed_total(ref: dict, flows: Sequence[int]) -> List[float]:
    columns = [samples(ref, f"flows/flow{i}/goodput_bps") for i in flows]
    return [sum(c[s] for c in columns) for s in range(len(columns[0]))]


# ---- tables ----------------------------------------------------------------------

def parking_table() -> str:
    head = "| scheme | " + " | ".join(g for g, _ in HOP_GROUPS) + " | weakest flow | JFI | total (Mbit/s) | 002 says |"
    lines = [head, "|" + "---|" * (len(HOP_GROUPS) + 5)]
    for name, label, paper in PARKING:
        ref = load(name)
        groups = []
        for _, flows in HOP_GROUPS:
            groups.append(kbps(mean(per_seed_total(ref, flows)) / len(flows)))
        per_flow = [mean(samples(ref, f"flows/flow{i}/goodput_bps")) for i in range(12)]
        jfi = samples(ref, "summary/jain_fairness_index")
        total = samples(ref, "summary/total_goodput_bps")
        lines.append(f"| {label} | " + " | ".join(groups) + f" | {kbps(min(per_flow))} | {mean(jfi):.3f} ± {ci95(jfi):.3f} | "
                     f"{mean(total) / 1e6:.2f} ± {ci95(total) / 1e6:.2f} | {paper} |")
    n = len(load(PARKING[0][0])["seeds"])
    lines.append("")
    lines.append(f"Mean goodput per flow in kbit/s, by hops to S; each row the mean of {n} runs of 300 s "
                 "(measured after 20 s of warm-up), ± the 95 % confidence interval of the mean.")
    return "\n".join(lines)


def delay_table() -> str:
    lines = ["| relay | scheme | 002: MAC delay (ms) | wmnsim: MAC service delay (ms) | wmnsim: queueing delay (ms) |",
             "|---|---|---|---|---|"]
    for r, (relay, radio) in enumerate(RELAYS):
        for name, label, _ in PARKING[:4]:
            ref = load(name)
            paper = PAPER_DELAY_MS.get(name)
            service = samples(ref, f"radios/{radio}/mac_service_delay_mean_s")
            queueing = samples(ref, f"radios/{radio}/mac_queueing_delay_mean_s")
            lines.append(f"| {relay} | {label} | {paper[r] if paper else '-'} | {mean(service) * 1e3:.2f} ± {ci95(service) * 1e3:.2f} | "
                         f"{mean(queueing) * 1e3:.1f} ± {ci95(queueing) * 1e3:.1f} |")
    lines.append("")
    lines.append("Each relay's upstream radio (towards S), mean over the runs ± 95 % CI. Service delay: from the head of "
                 "the queue to the ACK (or the drop); queueing delay: from arrival in the MAC queue to the head.")
    return "\n".join(lines)


def steadiness_table(pl: Dict[str, Dict[str, List[Tuple[float, float]]]]) -> str:
    """How erratic each flow's goodput is over time (Fig. 2 against Fig. 3), seed 1."""
    lines = ["| scheme | flow-intervals under 40 kbit/s | weakest 5-s interval of any flow (kbit/s) | "
             "mean coefficient of variation over time |", "|---|---|---|---|"]
    for name, label, _ in PARKING[:3]:
        series = {f: [v for (t, v) in pts if t > 20] for f, pts in pl[name].items()}
        cells = [v for vs in series.values() for v in vs]
        low = sum(1 for v in cells if v < 40e3)
        cv = mean([math.sqrt(mean([(v - mean(vs)) ** 2 for v in vs])) / mean(vs) for vs in series.values()])
        lines.append(f"| {label} | {low} of {len(cells)} | {kbps(min(cells))} | {cv:.2f} |")
    lines.append("")
    lines.append("Seed 1, the 12 flows' goodput in 5-s intervals after the 20-s warm-up (the figure's top row); "
                 "40 kbit/s is a tenth of the fair share.")
    return "\n".join(lines)


def sack_table() -> str:
    """NewReno against SACK-enabled NewReno (the testbed's TCP) in the parking lot."""
    lines = ["| scheme | TCP | 1-hop flows (kbit/s) | 4-hop flows (kbit/s) | JFI | total (Mbit/s) |", "|---|---|---|---|---|---|"]
    for name, label, _ in PARKING[:3]:
        for tcp, ref in (("NewReno", load(name)), ("NewReno + SACK", load(f"{name}.sack"))):
            one = mean(per_seed_total(ref, [0, 1, 2])) / 3
            four = mean(per_seed_total(ref, [9, 10, 11])) / 3
            jfi = samples(ref, "summary/jain_fairness_index")
            total = samples(ref, "summary/total_goodput_bps")
            lines.append(f"| {label} | {tcp} | {kbps(one)} | {kbps(four)} | {mean(jfi):.3f} ± {ci95(jfi):.3f} | "
                         f"{mean(total) / 1e6:.2f} ± {ci95(total) / 1e6:.2f} |")
    lines.append("")
    lines.append("5 runs of 300 s each; SACK on every flow (`tcp.sack`, docs/transport.md).")
    return "\n".join(lines)


def hierarchical_table() -> str:
    lines = ["| scheme | " + " | ".join(label for _, label in HIER_FLOWS) + " | JFI | network (Mbit/s) | vs DCF |",
             "|" + "---|" * (len(HIER_FLOWS) + 4)]
    dcf_total = None
    for name, label in HIERARCHICAL:
        ref = load(name)
        cells = []
        for flow, _ in HIER_FLOWS:
            xs = samples(ref, f"flows/{flow}/goodput_bps")
            cells.append(f"{kbps(mean(xs))} ± {kbps(ci95(xs))}")
        total = samples(ref, "summary/total_goodput_bps")
        jfi = samples(ref, "summary/jain_fairness_index")
        if dcf_total is None:
            dcf_total = mean(total)
        gain = (mean(total) / dcf_total - 1) * 100
        lines.append(f"| {label} | " + " | ".join(cells) + f" | {mean(jfi):.3f} | {mean(total) / 1e6:.2f} ± "
                     f"{ci95(total) / 1e6:.2f} | {gain:+.1f} % |")
    n = len(load(HIERARCHICAL[0][0])["seeds"])
    lines.append("")
    lines.append(f"Goodput per flow in kbit/s, mean of {n} runs ± 95 % confidence interval (as 002 Fig. 6). "
                 "002: ACK priority reduces the variability substantially; with TXOP almost exact fairness and about "
                 "15 % more network throughput than DCF.")
    return "\n".join(lines)


# ---- runs for the time series ------------------------------------------------------

def run_series(wmnsim: str, name: str, seed: int, tmp: Path) -> Dict[str, List[Tuple[float, float]]]:
    out = tmp / f"{name}.{seed}.json"
    subprocess.run([wmnsim, "run", str(SCENARIOS / f"{name}.json"), "--seed", str(seed), "-o", str(out)],
                   check=True, stdout=subprocess.DEVNULL)
    doc = json.loads(out.read_text())
    series: Dict[str, List[Tuple[float, float]]] = {}
    for t, flow, v in doc["timeseries"]["flow_goodput"]["rows"]:
        series.setdefault(flow, []).append((float(t), float(v)))
    return series


def interval_jfi(series: Dict[str, List[Tuple[float, float]]]) -> List[Tuple[float, float]]:
    flows = sorted(series)
    out = []
    for k in range(len(series[flows[0]])):
        xs = [series[f][k][1] for f in flows]
        s, s2 = sum(xs), sum(x * x for x in xs)
        out.append((series[flows[0]][k][0], s * s / (len(xs) * s2) if s2 > 0 else float("nan")))
    return out


def transient_table(dynamic: List[Dict[str, List[Tuple[float, float]]]]) -> str:
    """Per-interval Jain index of the 12 flows, by phase, over the dynamic runs (Fig. 4)."""
    phases = [("0-200 s (ACK priority, TXOP 1)", 20, 200), ("200-220 s", 200, 220), ("220-240 s", 220, 240),
              ("240-500 s", 240, 500)]
    jfis = [interval_jfi(s) for s in dynamic]
    lines = ["| phase | Jain index of the interval | weakest flow of the interval (kbit/s) | strongest (kbit/s) |",
             "|---|---|---|---|"]
    for label, lo, hi in phases:
        vals = [j for run in jfis for (t, j) in run if lo < t <= hi]
        # The same 5-s measure in every phase: per interval, the weakest and strongest flow.
        weakest, strongest = [], []
        for s in dynamic:
            times = [t for (t, _) in next(iter(s.values())) if lo < t <= hi]
            for k, t in enumerate(times):
                at = [dict(pts)[t] for pts in s.values()]
                weakest.append(min(at))
                strongest.append(max(at))
        lines.append(f"| {label} | {mean(vals):.3f} | {kbps(mean(weakest))} | {kbps(mean(strongest))} |")
    # When is the interval JFI first within 0.02 of its settled (240-500 s) mean?
    settled_at = []
    for run in jfis:
        settled = mean([j for (t, j) in run if t > 240])
        hit = next((t for (t, j) in run if t > 200 and j >= settled - 0.02), None)
        settled_at.append(hit)
    lines.append("")
    lines.append(f"{len(dynamic)} runs (the reference's seeds), goodput in 5 s intervals; each column the mean over the "
                 "runs and the phase's intervals. The interval Jain index first "
                 "comes within 0.02 of its 240-500 s mean at " +
                 ", ".join("never" if t is None else f"{t:.0f} s" for t in settled_at) + " (one value per run).")
    return "\n".join(lines)


# ---- the document and the figure -------------------------------------------------------


def plot(pl: Dict[str, Dict[str, List[Tuple[float, float]]]], dynamic: Dict[str, List[Tuple[float, float]]]) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(2, 3, figsize=(15, 8.5))
    colours = ["tab:blue", "tab:orange", "tab:green", "tab:red"]
    hops_of = {f"flow{i}": h for h, (_, flows) in enumerate(HOP_GROUPS) for i in flows}

    def goodput(ax, series, title):
        for flow in sorted(series, key=lambda f: int(f[4:])):
            t, v = zip(*series[flow])
            ax.plot(t, [x / 1e3 for x in v], color=colours[hops_of[flow]], lw=0.8)
        ax.set_title(title, fontsize=10)
        ax.set_xlabel("time (s)")
        ax.set_ylabel("goodput (kbit/s)")
        ax.set_ylim(0, 2000)

    goodput(axes[0][0], pl["parking_lot_dcf"], "Parking lot, DCF (002 Fig. 2), seed 1")
    goodput(axes[0][1], pl["parking_lot_ack_priority"], "ACK priority (Fig. 3a)")
    goodput(axes[0][2], pl["parking_lot_txop"], "ACK priority + TXOP = flows (Fig. 3b)")
    goodput(axes[1][0], dynamic, "Fig. 4: TXOP adaptation from 200 s")
    axes[1][0].axvline(200, color="grey", ls="--", lw=0.8)
    for h, (label, _) in enumerate(HOP_GROUPS):
        axes[0][0].plot([], [], color=colours[h], label=label)
    axes[0][0].legend(fontsize=8, loc="upper right")

    # Per-flow means with 95 % CIs in the parking lot.
    ax = axes[1][1]
    width = 0.27
    for k, (name, label, _) in enumerate(PARKING[:3]):
        ref = load(name)
        xs = [samples(ref, f"flows/flow{i}/goodput_bps") for i in range(12)]
        ax.bar([i + (k - 1) * width for i in range(12)], [mean(x) / 1e3 for x in xs], width,
               yerr=[ci95(x) / 1e3 for x in xs], label=label.split(" (")[0], capsize=2)
    ax.set_xticks(range(12))
    ax.set_xlabel("flow")
    ax.set_ylabel("mean goodput (kbit/s)")
    ax.set_title("Parking lot, per flow (95 % CI)", fontsize=10)
    ax.legend(fontsize=8)

    # 002 Fig. 6: the hierarchical topology.
    ax = axes[1][2]
    for k, (name, label) in enumerate(HIERARCHICAL):
        ref = load(name)
        xs = [samples(ref, f"flows/{f}/goodput_bps") for f, _ in HIER_FLOWS]
        ax.bar([i + (k - 1) * width for i in range(len(HIER_FLOWS))], [mean(x) / 1e3 for x in xs], width,
               yerr=[ci95(x) / 1e3 for x in xs], label=label, capsize=2)
    ax.set_xticks(range(len(HIER_FLOWS)))
    ax.set_xticklabels([label.split(" ")[0] for _, label in HIER_FLOWS])
    ax.set_ylabel("mean goodput (kbit/s)")
    ax.set_title("Hierarchical topology (Fig. 6), 10 runs, 95 % CI", fontsize=10)
    ax.legend(fontsize=8)

    fig.tight_layout()
    fig.savefig(FIGURE, dpi=90)
    print(f"wrote {FIGURE.relative_to(ROOT)}")


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--wmnsim", default=os.environ.get("WMNSIM_BIN", str(ROOT / "build" / "release" / "cli" / "wmnsim")))
    ap.add_argument("--no-plot", action="store_true")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        pl = {name: run_series(args.wmnsim, name, 1, tmp) for name, _, _ in PARKING[:3]}
        dynamic = [run_series(args.wmnsim, "parking_lot_dynamic", s, tmp) for s in load("parking_lot_dynamic")["seeds"]]
    text = DOC.read_text()
    text = replace_block(text, "parking_lot", parking_table(), DOC)
    text = replace_block(text, "steadiness", steadiness_table(pl), DOC)
    text = replace_block(text, "mac_delay", delay_table(), DOC)
    text = replace_block(text, "transient", transient_table(dynamic), DOC)
    text = replace_block(text, "hierarchical", hierarchical_table(), DOC)
    text = replace_block(text, "sack", sack_table(), DOC)
    DOC.write_text(text)
    print(f"wrote {DOC.relative_to(ROOT)}")
    if not args.no_plot:
        plot(pl, dynamic[0])
    return 0


if __name__ == "__main__":
    sys.exit(main())
