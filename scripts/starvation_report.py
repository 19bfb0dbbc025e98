#!/usr/bin/env python3
"""The tables and the figure of docs/reproductions/starvation.md, from the results.

Reads the reference files of paper 000's scenarios (scenarios/starvation/references/
*.reference.json: the per-seed values of real runs, written by scripts/references.py
generate) and the Markov model (`wmnsim model starvation --json`), then

  - rewrites the tables between the <!-- begin:NAME --> / <!-- end:NAME --> markers
    of docs/reproductions/starvation.md, and
  - draws docs/reproductions/starvation.png (needs matplotlib).

Usage: /usr/bin/python3 scripts/starvation_report.py [--wmnsim PATH] [--no-plot]
After a deliberate model change: scripts/references.py generate
scenarios/starvation/references, then this script.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

from doc_blocks import replace_block

ROOT = Path(__file__).resolve().parent.parent
REFS = ROOT / "scenarios" / "starvation" / "references"
DOC = ROOT / "docs" / "reproductions" / "starvation.md"
FIGURE = DOC.with_suffix(".png")
SWEEP = [16, 32, 64, 128, 256, 512]

# (reference name without policy suffix, paper figures, what the paper reports)
PAIRS = [
    ("chain2_tcp_rts_off_cw32", "14-15, 31", "A starves (near zero) with CWmin 32; with B at 128 A and B share almost equally, utilization slightly lower"),
    ("chain2_tcp_rts_on_cw32", "16", "RTS/CTS on: A still starves, slightly improved"),
    ("chain2_tcp_rts_off_cw16", "30", "MirrorMesh, CWmin 16, RTS off: A starves; B at 128 gives equal throughput"),
    ("chain2_tcp_rts_on_cw16", "29", "MirrorMesh, CWmin 16, RTS on: severe imbalance; B at 128: almost equal shares, slightly lower utilization"),
    ("chain2_tcp_500b_cw16", "32", "500-byte packets: starvation as with 1500; the policy is equally effective"),
    ("chain2_tcp_downstream_cw16", "34", "downloads: the two-hop flow starves; B at 32 gives it significantly more"),
    ("two_branch_tcp", "24, 33", "A starves, B and C split the bandwidth; raising B and C: A improves dramatically"),
    ("chain4_tcp", "36", "n1 gets an order of magnitude more than all others together; n1 at 128: all four equal"),
    ("tree3_tcp", "38", "the three one-hop nodes take most; one-hop nodes at 128: all nine share equally, lower utilization"),
]
# Flows of two or more hops in the scenarios above (the rest are one-hop).
MULTI_HOP = {"A_to_GW", "GW_to_A", "n2_up", "n3_up", "n4_up", "b1a_up", "b1b_up", "b2a_up", "b2b_up", "b3a_up", "b3b_up"}
UDP = [
    ("chain2_udp_rts_off", "18 left", "hidden terminals starve A's upload"),
    ("chain2_udp_rts_on", "18 right", "a fair distribution: A's upload uses B twice"),
]


def load(name: str) -> dict:
    ref = json.loads((REFS / f"{name}.reference.json").read_text())
    return {m["metric"]: m for m in ref["metrics"]}


def flows(metrics: dict) -> list:
    return [(k.split("/")[1], m) for k, m in metrics.items() if k.startswith("flows/") and k.endswith("/goodput_bps")]


def mbps(m: dict) -> str:
    return f"{m['mean'] / 1e6:.3f} ± {m['std'] / 1e6:.3f}"


def describe(metrics: dict) -> str:
    return "<br>".join(f"{fid} {mbps(m)}" for fid, m in flows(metrics))


def summary(metrics: dict) -> str:
    j = metrics["summary/jain_fairness_index"]
    u = metrics["summary/effective_utilization_bps"]
    return f"{j['mean']:.3f} ± {j['std']:.3f} | {u['mean'] / 1e6:.2f}"


def pairs_table() -> str:
    rows = ["| scenario | 000 Fig. | paper | wmnsim, default: goodput Mbit/s (mean ± std, 5 seeds) | JFI | U Mbit/s "
            "| wmnsim, policy: goodput Mbit/s | JFI | U Mbit/s |",
            "|---|---|---|---|---|---|---|---|---|"]
    for name, figs, paper in PAIRS:
        d, p = load(name), load(name + "_policy")
        rows.append(f"| `{name}` | {figs} | {paper} | {describe(d)} | {summary(d)} | {describe(p)} | {summary(p)} |")
    return "\n".join(rows)


def udp_table() -> str:
    rows = ["| scenario | 000 Fig. | paper | wmnsim: goodput Mbit/s (mean ± std, 5 seeds) | JFI | U Mbit/s |",
            "|---|---|---|---|---|---|"]
    for name, figs, paper in UDP:
        d = load(name)
        rows.append(f"| `{name}` | {figs} | {paper} | {describe(d)} | {summary(d)} |")
    return "\n".join(rows)


def model_sweep(wmnsim: str) -> list:
    out = subprocess.run([wmnsim, "model", "starvation", "--window", "3", "--cwmin-b", ",".join(map(str, SWEEP)),
                          "--json"], check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def sweep_table(model: list) -> str:
    rows = ["| CWmin_B | model: A, B Mbit/s | model: A's share | model: JFI | model: P(Q1=Qg=0) "
            "| wmnsim: A, B Mbit/s (5 seeds) | wmnsim: A's share | wmnsim: JFI |",
            "|---|---|---|---|---|---|---|---|"]
    for cw, m in zip(SWEEP, model):
        s = load(f"chain2_fixed_window3.cwb{cw}")
        a, b = s["flows/A_to_GW/goodput_bps"]["mean"], s["flows/B_to_GW/goodput_bps"]["mean"]
        rows.append(f"| {cw} | {m['lambda_a_bps'] / 1e6:.3f}, {m['lambda_b_bps'] / 1e6:.3f} | {m['share_a']:.3f} "
                    f"| {m['jain_index']:.3f} | {m['p_q1_and_qg_empty']:.3f} | {a / 1e6:.3f}, {b / 1e6:.3f} "
                    f"| {a / (a + b):.3f} | {s['summary/jain_fairness_index']['mean']:.3f} |")
    return "\n".join(rows)



def plot(model: list) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(13, 4.8), gridspec_kw={"width_ratios": [2.2, 1]})
    ax = axes[0]
    labels, x = [], 0.0
    for name, _, _ in PAIRS:
        for variant, hatch in (("", ""), ("_policy", "//")):
            fl = flows(load(name + variant))
            two_hop = [m["mean"] / 1e6 for fid, m in fl if fid in MULTI_HOP]
            one_hop = [m["mean"] / 1e6 for fid, m in fl if fid not in MULTI_HOP]
            ax.bar(x, sum(one_hop) / max(len(one_hop), 1), 0.4, color="tab:blue", hatch=hatch,
                   label="one-hop flows (mean)" if x == 0 else None)
            ax.bar(x + 0.4, sum(two_hop) / max(len(two_hop), 1), 0.4, color="tab:red", hatch=hatch,
                   label="two or more hops (mean)" if x == 0 else None)
            labels.append((x + 0.2, name.replace("chain2_tcp_", "").replace("_tcp", "") + ("\n+policy" if variant else "")))
            x += 1.0
        x += 0.4
    ax.set_xticks([p for p, _ in labels], [t for _, t in labels], rotation=70, fontsize=7)
    ax.set_ylabel("goodput per flow, Mbit/s")
    ax.set_title("000 experiments: default CWmin vs counter-starvation policy (hatched)")
    ax.legend(fontsize=8)

    ax = axes[1]
    sim = []
    for cw in SWEEP:
        s = load(f"chain2_fixed_window3.cwb{cw}")
        a, b = s["flows/A_to_GW/goodput_bps"]["mean"], s["flows/B_to_GW/goodput_bps"]["mean"]
        sim.append((a / 1e6, b / 1e6))
    ax.plot(SWEEP, [m["lambda_a_bps"] / 1e6 for m in model], "o--", color="tab:red", label="A->GW, model")
    ax.plot(SWEEP, [m["lambda_b_bps"] / 1e6 for m in model], "o--", color="tab:blue", label="B->GW, model")
    ax.plot(SWEEP, [a for a, _ in sim], "s-", color="tab:red", label="A->GW, wmnsim")
    ax.plot(SWEEP, [b for _, b in sim], "s-", color="tab:blue", label="B->GW, wmnsim")
    ax.set_xscale("log", base=2)
    ax.set_xticks(SWEEP, [str(c) for c in SWEEP])
    ax.set_xlabel("CWmin of B")
    ax.set_ylabel("goodput, Mbit/s")
    ax.set_title("Fig. 27: fixed window 3")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(FIGURE, dpi=110)
    print(f"wrote {FIGURE.relative_to(ROOT)}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--wmnsim", default=os.environ.get("WMNSIM_BIN", str(ROOT / "build/release/cli/wmnsim")))
    ap.add_argument("--no-plot", action="store_true", help="only rewrite the tables")
    args = ap.parse_args()
    model = model_sweep(args.wmnsim)
    text = DOC.read_text()
    text = replace_block(text, "pairs", pairs_table(), DOC)
    text = replace_block(text, "udp", udp_table(), DOC)
    text = replace_block(text, "sweep", sweep_table(model), DOC)
    DOC.write_text(text)
    print(f"wrote the tables of {DOC.relative_to(ROOT)}")
    if not args.no_plot:
        plot(model)
    return 0


if __name__ == "__main__":
    sys.exit(main())
