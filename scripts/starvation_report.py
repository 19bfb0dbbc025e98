#!/usr/bin/env python3
"""The tables and the figure of docs/reproductions/starvation.md (paper 000), from stored runs.

Reads the study's stored runs (scenarios/starvation/reproduction/data/: experiments
pairs, udp and fixed_window, written by `wmnsim reproduce starvation`; nothing is run
here) and the Markov model of 000 Sec. 5 (wmnsim.model, analytic), then rewrites the
generated blocks and values of the doc (scripts/doc_blocks.py) and draws
docs/reproductions/starvation.png (needs matplotlib).

Usage: wmnsim reproduce starvation [--report-only]   (or: this script [--data DIR]
[--doc PATH] [--figures DIR] [--check] [--no-plot], with the wmnsim module importable)
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from doc_blocks import Report  # noqa: E402

SWEEP = [16, 32, 64, 128, 256, 512]
CW_B = "/nodes/1/mac/cw_min"

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


class Stats(dict):
    """metric -> {"mean", "std"} of one scenario (or sweep point) over its seeds, named as
    the references named them: flows/<id>/goodput_bps, summary/<metric>."""


def stats_of(runs, flows) -> Stats:
    out = Stats()
    for fid, part in flows.groupby("flow_id", sort=False):
        x = part["goodput_bps"].astype(float)
        out[f"flows/{fid}/goodput_bps"] = {"mean": x.mean(), "std": x.std(ddof=1)}
    for m in ("jain_fairness_index", "effective_utilization_bps"):
        x = runs[m].astype(float)
        out[f"summary/{m}"] = {"mean": x.mean(), "std": x.std(ddof=1)}
    return out


def by_scenario(data) -> dict:
    """scenario name -> Stats."""
    return {name: stats_of(data.runs[data.runs["scenario"] == name], data.flows[data.flows["scenario"] == name])
            for name in data.runs["scenario"].unique()}


def by_cw(data) -> dict:
    """B's CWmin -> Stats, the fixed-window sweep."""
    return {int(cw): stats_of(data.runs[data.runs[CW_B] == cw], data.flows[data.flows[CW_B] == cw])
            for cw in data.runs[CW_B].unique()}


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


def pairs_table(load) -> str:
    rows = ["| scenario | 000 Fig. | paper | wmnsim, default: goodput Mbit/s (mean ± std, 5 seeds) | JFI | U Mbit/s "
            "| wmnsim, policy: goodput Mbit/s | JFI | U Mbit/s |",
            "|---|---|---|---|---|---|---|---|---|"]
    for name, figs, paper in PAIRS:
        d, p = load(name), load(name + "_policy")
        rows.append(f"| `{name}` | {figs} | {paper} | {describe(d)} | {summary(d)} | {describe(p)} | {summary(p)} |")
    return "\n".join(rows)


def udp_table(load) -> str:
    rows = ["| scenario | 000 Fig. | paper | wmnsim: goodput Mbit/s (mean ± std, 5 seeds) | JFI | U Mbit/s |",
            "|---|---|---|---|---|---|"]
    for name, figs, paper in UDP:
        d = load(name)
        rows.append(f"| `{name}` | {figs} | {paper} | {describe(d)} | {summary(d)} |")
    return "\n".join(rows)


def model_sweep() -> list:
    """000 Sec. 5's Markov model (analytic, no simulation) at each CWmin of B, window 3."""
    from wmnsim import model

    return [dict(vars(model.starvation(window=3, cw_min_b=cw))) for cw in SWEEP]


def sweep_table(model: list, sweep: dict) -> str:
    rows = ["| CWmin_B | model: A, B Mbit/s | model: A's share | model: JFI | model: P(Q1=Qg=0) "
            "| wmnsim: A, B Mbit/s (5 seeds) | wmnsim: A's share | wmnsim: JFI |",
            "|---|---|---|---|---|---|---|---|"]
    for cw, m in zip(SWEEP, model):
        s = sweep[cw]
        a, b = s["flows/A_to_GW/goodput_bps"]["mean"], s["flows/B_to_GW/goodput_bps"]["mean"]
        rows.append(f"| {cw} | {m['lambda_a_bps'] / 1e6:.3f}, {m['lambda_b_bps'] / 1e6:.3f} | {m['share_a']:.3f} "
                    f"| {m['jain_index']:.3f} | {m['p_q1_and_qg_empty']:.3f} | {a / 1e6:.3f}, {b / 1e6:.3f} "
                    f"| {a / (a + b):.3f} | {s['summary/jain_fairness_index']['mean']:.3f} |")
    return "\n".join(rows)



def plot(model: list, load, sweep: dict, path) -> None:
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
        s = sweep[cw]
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
    fig.savefig(path, dpi=110)
    print(f"wrote {path}")


def main() -> int:
    report = Report("starvation", __doc__)
    pairs, udp, fixed = report.data("pairs"), report.data("udp"), report.data("fixed_window")
    scenarios = {**by_scenario(pairs), **by_scenario(udp)}
    load = scenarios.__getitem__
    sweep = by_cw(fixed)
    model = model_sweep()
    report.block("pairs", pairs_table(load), pairs)
    report.block("udp", udp_table(load), udp)
    report.block("sweep", sweep_table(model, sweep), fixed)
    if report.plot:
        plot(model, load, sweep, report.figure("starvation.png"))
    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
