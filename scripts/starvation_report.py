#!/usr/bin/env python3
"""The tables and the figure of docs/reproductions/starvation.md (paper 000), from stored runs.

Reads the study's stored runs (scenarios/starvation/reproduction/data/: experiments
pairs, udp, fixed_window, sensing550, c_beside_gateway and timestamps, written by
`wmnsim reproduce starvation`; nothing is run here) and the Markov model of 000 Sec. 5
(wmnsim.model, analytic), then rewrites the generated blocks and the inline values of
the doc (scripts/doc_blocks.py) and draws docs/reproductions/starvation.png (needs
matplotlib).

Node-level numbers in the prose (failed attempts, retry-limit and queue drops, MAC
queueing delay) come from the stored nodes table; per-run counts are means over the
seeds of a scenario, ratios pool the seeds (sum over sum).

Usage: wmnsim reproduce starvation [--report-only]   (or: this script [--data DIR]
[--doc PATH] [--figures DIR] [--check] [--no-plot], with the wmnsim module importable)
"""
from __future__ import annotations

import math
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


# ---- inline values of the prose -------------------------------------------------------------------

UPLOAD_CHAINS = ["chain2_tcp_rts_off_cw32", "chain2_tcp_rts_on_cw32", "chain2_tcp_rts_off_cw16",
                 "chain2_tcp_rts_on_cw16", "chain2_tcp_500b_cw16"]  # the two-hop chains with uploads A, B
RTS_OFF = ["chain2_tcp_rts_off_cw32", "chain2_tcp_rts_off_cw16"]  # 1500-byte packets
RTS_ON = ["chain2_tcp_rts_on_cw32", "chain2_tcp_rts_on_cw16"]
FLAGSHIP = "chain2_tcp_rts_off_cw32"
DOWN = "chain2_tcp_downstream_cw16"
SLOT_S = 20e-6  # 000 Table 3 (every scenario of the study)


def goodput(data, scenario: str, flow: str) -> float:
    """Mean goodput (bit/s) of one flow over the seeds."""
    f = data.flows
    x = f.loc[(f["scenario"] == scenario) & (f["flow_id"] == flow), "goodput_bps"].astype(float)
    assert len(x), (scenario, flow)
    return float(x.mean())


def flow_col(data, scenario: str, flow: str, col: str):
    f = data.flows
    return f.loc[(f["scenario"] == scenario) & (f["flow_id"] == flow), col].astype(float)


def node_col(data, scenario: str, node: str, col: str):
    n = data.nodes
    x = n.loc[(n["scenario"] == scenario) & (n["node_id"] == node), col].astype(float)
    assert len(x), (scenario, node, col)
    return x


def failed_fraction(data, scenario: str, node: str) -> float:
    """Failed MAC attempts over data attempts, pooled over the seeds."""
    return node_col(data, scenario, node, "failed_attempts").sum() / node_col(data, scenario, node, "data_attempts").sum()


def run_mean(data, scenario: str, col: str) -> float:
    r = data.runs
    return float(r.loc[r["scenario"] == scenario, col].astype(float).mean())


def share(data, scenario: str, flow: str, flows: list) -> float:
    """A flow's share of the mean goodputs of `flows`."""
    return goodput(data, scenario, flow) / sum(goodput(data, scenario, g) for g in flows)


def hop_means(data, scenario: str) -> tuple:
    """(mean goodput of the one-hop flows, of the others), bit/s: flows' means over seeds, averaged."""
    f = data.flows[data.flows["scenario"] == scenario]
    per_flow = f.groupby(["flow_id", "hops"])["goodput_bps"].mean().reset_index()
    one = per_flow.loc[per_flow["hops"] == 1, "goodput_bps"].mean()
    more = per_flow.loc[per_flow["hops"] > 1, "goodput_bps"].mean()
    return float(one), float(more)


def mb(x: float, digits: int = 2) -> str:
    return f"{x / 1e6:.{digits}f}"


def pct(x: float, digits: int = 0) -> str:
    return f"{100 * x:.{digits}f} %"


def span(values, fmt) -> str:
    """'lo-hi' as formatted (one value when both format alike)."""
    lo, hi = fmt(min(values)), fmt(max(values))
    return lo if lo == hi else f"{lo}-{hi}"


def pct_span(values, digits: int = 0) -> str:
    return span(values, lambda v: f"{100 * v:.{digits}f}").strip() + " %"


def per_seed(data, scenario: str, flows_: list) -> str:
    """'seed 1: 4.28 / 0.04, seed 2: ...' (Mbit/s of the flows, in order)."""
    f = data.flows[data.flows["scenario"] == scenario]
    out = []
    for seed, part in f.groupby("seed"):
        g = part.set_index("flow_id")["goodput_bps"].astype(float)
        out.append(f"seed {int(seed)}: " + " / ".join(mb(g[fl]) for fl in flows_))
    return "; ".join(out)


def larger_share(data, scenario: str) -> list:
    """Per seed, the larger of B's and C's goodput over their sum."""
    f = data.flows[data.flows["scenario"] == scenario]
    g = f.pivot_table(index="seed", columns="flow_id", values="goodput_bps").astype(float)
    return list(g[["B_to_GW", "C_to_GW"]].max(axis=1) / (g["B_to_GW"] + g["C_to_GW"]))


def prose_values(report, pairs, udp, fixed, sens, beside, stamps, model: list, sweep: dict) -> None:
    v = report.value
    ab = ["A_to_GW", "B_to_GW"]

    # Starvation with the default CWmin, and what the policy changes in the two-hop upload chains.
    sh_def = [share(pairs, s, "A_to_GW", ab) for s in UPLOAD_CHAINS]
    sh_pol = [share(pairs, s + "_policy", "A_to_GW", ab) for s in UPLOAD_CHAINS]
    j_def = [run_mean(pairs, s, "jain_fairness_index") for s in UPLOAD_CHAINS]
    j_pol = [run_mean(pairs, s + "_policy", "jain_fairness_index") for s in UPLOAD_CHAINS]
    v("chain_share_default", pct_span(sh_def, 1), pairs)
    v("chain_share_policy", pct_span(sh_pol), pairs)
    v("chain_jfi_default", span(j_def, lambda x: f"{x:.2f}"), pairs)
    v("chain_jfi_policy", span(j_pol, lambda x: f"{x:.2f}"), pairs)
    v("rts_a_on32", mb(goodput(pairs, "chain2_tcp_rts_on_cw32", "A_to_GW"), 3), pairs)
    v("rts_a_off32", mb(goodput(pairs, FLAGSHIP, "A_to_GW"), 3), pairs)
    rts_share = share(pairs, "chain2_tcp_rts_on_cw32", "A_to_GW", ab)
    v("rts_a_share_on32", pct(rts_share, 1), pairs)
    report.claim(rts_share < 0.05, "RTS/CTS leaves A starving at CWmin 32 (below 5 % of the chain's goodput)")

    # The flagship's mechanism, with and without the policy (nodes and flows tables).
    pol = FLAGSHIP + "_policy"
    v("flag_a_fail", pct(failed_fraction(pairs, FLAGSHIP, "A")), pairs)
    v("flag_a_fail_policy", pct(failed_fraction(pairs, pol, "A")), pairs)
    v("flag_a_retry", f"{node_col(pairs, FLAGSHIP, 'A', 'drops_retry_limit').mean():.0f}", pairs)
    v("flag_a_retry_policy", f"{node_col(pairs, pol, 'A', 'drops_retry_limit').mean():.1f}", pairs)
    v("flag_a_timeouts", f"{flow_col(pairs, FLAGSHIP, 'A_to_GW', 'timeouts').mean():.0f}", pairs)
    v("flag_a_timeouts_policy", f"{flow_col(pairs, pol, 'A_to_GW', 'timeouts').mean():.1f}", pairs)
    v("flag_a_attempts", f"{node_col(pairs, FLAGSHIP, 'A', 'data_attempts').mean():.0f}", pairs)
    v("flag_gw_qdrops", f"{node_col(pairs, FLAGSHIP, 'GW', 'drops_queue').mean():.0f}", pairs)
    v("flag_gw_qdrops_policy", f"{node_col(pairs, pol, 'GW', 'drops_queue').mean():.0f}", pairs)
    for node in ("GW", "B"):
        for scen, suffix in ((FLAGSHIP, ""), (pol, "_policy")):
            d = node_col(pairs, scen, node, "mac_queueing_delay_mean_s").mean()
            v(f"flag_{node.lower()}_qdelay{suffix}", f"{1e3 * d:.1f}" if d < 0.01 else f"{1e3 * d:.0f}", pairs)

    # The policy's bottleneck: B's FIFO overflows; whose packets it drops. With the policy
    # only B drops at a queue, so a flow's queue drops (its drops less the retry-limit ones)
    # are all at B.
    for node in ("A", "GW"):
        assert node_col(pairs, pol, node, "drops_queue").sum() == 0, node
    b_q = node_col(pairs, pol, "B", "drops_queue").mean()
    qa = (flow_col(pairs, pol, "A_to_GW", "dropped_packets") - flow_col(pairs, pol, "A_to_GW", "drops_retry_limit")).mean()
    qb = (flow_col(pairs, pol, "B_to_GW", "dropped_packets") - flow_col(pairs, pol, "B_to_GW", "drops_retry_limit")).mean()
    assert abs(qa + qb - b_q) < 1e-6 * max(b_q, 1), (qa, qb, b_q)
    v("policy_b_qdrops", f"{b_q:.0f}", pairs)
    v("policy_b_qdrops_a", f"{qa:.0f}", pairs)
    v("policy_b_qdrops_b", f"{qb:.0f}", pairs)
    fwd = node_col(pairs, pol, "B", "forwarded").sum()
    own = node_col(pairs, pol, "B", "originated").sum()
    v("policy_b_forwarded", pct(fwd / (fwd + own)), pairs)

    # Utilization cost of the policy (effective utilization, means over seeds).
    def cost(s):
        return 1 - run_mean(pairs, s + "_policy", "effective_utilization_bps") / run_mean(pairs, s, "effective_utilization_bps")

    v("ucost_rts_off", pct_span([cost(s) for s in RTS_OFF]), pairs)
    v("ucost_rts_on", pct_span([cost(s) for s in RTS_ON]), pairs)
    v("ucost_500b", pct(cost("chain2_tcp_500b_cw16")), pairs)
    r = pairs.radios
    cw = {s: int(r.loc[(r["scenario"] == s) & (r["node"] == "B"), "cw_min"].iloc[0]) for s in (FLAGSHIP, pol)}
    slots = {s: (c - 1) / 2 for s, c in cw.items()}  # the mean of a backoff drawn uniformly from 0..CWmin-1
    v("b_cw_default", str(cw[FLAGSHIP]), pairs)
    v("b_cw_policy", str(cw[pol]), pairs)
    v("b_backoff_default", f"{slots[FLAGSHIP]:.1f} slots ({1e3 * slots[FLAGSHIP] * SLOT_S:.2f} ms)", pairs)
    v("b_backoff_policy", f"{slots[pol]:.1f} slots ({1e3 * slots[pol] * SLOT_S:.2f} ms)", pairs)
    v("exchange_ms", f"{model[SWEEP.index(32)]['duration_us']['1'] / 1e3:.1f}")
    tot = {cw_: m["lambda_a_bps"] + m["lambda_b_bps"] for cw_, m in zip(SWEEP, model)}
    v("model_total_32", mb(tot[32], 1))
    v("model_total_128", mb(tot[128], 1))

    # Downstream (Fig. 34).
    dpol = DOWN + "_policy"
    v("down_jfi", f"{run_mean(pairs, DOWN, 'jain_fairness_index'):.2f}", pairs)
    v("down_a_fail", pct(failed_fraction(pairs, DOWN, "A")), pairs)
    v("down_a_retry", f"{node_col(pairs, DOWN, 'A', 'drops_retry_limit').mean():.0f}", pairs)
    v("down_policy_b_qdrops", f"{node_col(pairs, dpol, 'B', 'drops_queue').mean():.0f}", pairs)
    # GW->B's queue drops (its drops less the retry-limit ones) not at the gateway are at B,
    # where B only sends that flow's ACKs: a lower bound on B's ACKs among B's queue drops.
    gb_q = (flow_col(pairs, dpol, "GW_to_B", "dropped_packets") - flow_col(pairs, dpol, "GW_to_B", "drops_retry_limit")).sum()
    gw_q = node_col(pairs, dpol, "GW", "drops_queue").sum()
    low = (gb_q - gw_q) / node_col(pairs, dpol, "B", "drops_queue").sum()  # a lower bound: rounded down
    v("down_policy_b_ackshare", f"{math.floor(1000 * low + 1e-9) / 10:.1f} %", pairs)
    v("down_policy_ga", mb(goodput(pairs, dpol, "GW_to_A"), 2), pairs)
    v("down_policy_gb", mb(goodput(pairs, dpol, "GW_to_B"), 2), pairs)

    # Longer chains, the tree and the two branches.
    ch4 = ["n1_up", "n2_up", "n3_up", "n4_up"]
    v("chain4_n1", mb(goodput(pairs, "chain4_tcp", "n1_up"), 1), pairs)
    v("chain4_rest", mb(sum(goodput(pairs, "chain4_tcp", f) for f in ch4[1:]), 3), pairs)
    v("chain4_policy_n2", mb(goodput(pairs, "chain4_tcp_policy", "n2_up")), pairs)
    v("chain4_policy_n3", mb(goodput(pairs, "chain4_tcp_policy", "n3_up"), 3), pairs)
    v("chain4_policy_n4", mb(goodput(pairs, "chain4_tcp_policy", "n4_up"), 3), pairs)
    v("s550_chain4", ", ".join(f"{f[:2]} {mb(goodput(sens, 'chain4_tcp', f))}" for f in ch4), sens)
    v("s550_chain4_policy", ", ".join(f"{f[:2]} {mb(goodput(sens, 'chain4_tcp_policy', f))}" for f in ch4), sens)
    def tree_values(prefix: str, data) -> None:
        """The tree's one- and two-hop means and JFI, without and with the policy."""
        for variant, scenario in (("", "tree3_tcp"), ("_policy", "tree3_tcp_policy")):
            one, two = hop_means(data, scenario)
            v(f"{prefix}{variant}_one", mb(one), data)
            v(f"{prefix}{variant}_two", mb(two), data)
            v(f"{prefix}{variant}_jfi", f"{run_mean(data, scenario, 'jain_fairness_index'):.2f}", data)

    tree_values("tree", pairs)
    v("tree_ucost", pct(cost("tree3_tcp")), pairs)
    tree = pairs.flows[(pairs.flows["scenario"] == "tree3_tcp") & (pairs.flows["hops"] == 1)]
    v("tree_one_range", span(tree["goodput_bps"].astype(float), lambda x: mb(x)), pairs)
    tree_values("s550_tree", sens)
    abc = ["A_to_GW", "B_to_GW", "C_to_GW"]
    v("branch_a", mb(goodput(pairs, "two_branch_tcp", "A_to_GW"), 3), pairs)
    v("branch_a_policy", mb(goodput(pairs, "two_branch_tcp_policy", "A_to_GW"), 2), pairs)
    v("branch_jfi", f"{run_mean(pairs, 'two_branch_tcp', 'jain_fairness_index'):.2f}", pairs)
    v("branch_jfi_policy", f"{run_mean(pairs, 'two_branch_tcp_policy', 'jain_fairness_index'):.2f}", pairs)
    v("branch_bc_seeds", per_seed(pairs, "two_branch_tcp", abc[1:]), pairs)
    v("branch_bc_seeds_policy", per_seed(pairs, "two_branch_tcp_policy", abc[1:]), pairs)
    v("stamps_bc_seeds", per_seed(stamps, "two_branch_tcp", abc[1:]), stamps)
    v("branch_major", pct_span(larger_share(pairs, "two_branch_tcp")), pairs)
    v("stamps_major", pct_span(larger_share(stamps, "two_branch_tcp")), stamps)
    v("stamps_a", span(flow_col(stamps, "two_branch_tcp", "A_to_GW", "goodput_bps"), lambda x: mb(x)), stamps)
    v("beside_a", mb(goodput(beside, "two_branch_tcp", "A_to_GW"), 3), beside)
    v("beside_a_policy", mb(goodput(beside, "two_branch_tcp_policy", "A_to_GW"), 3), beside)
    v("beside_bc", f"{mb(goodput(beside, 'two_branch_tcp', 'B_to_GW'), 1)} and "
                   f"{mb(goodput(beside, 'two_branch_tcp', 'C_to_GW'), 1)}", beside)
    v("beside_bc_policy", f"{mb(goodput(beside, 'two_branch_tcp_policy', 'B_to_GW'), 1)} and "
                          f"{mb(goodput(beside, 'two_branch_tcp_policy', 'C_to_GW'), 1)}", beside)
    v("beside_a_fail", pct(failed_fraction(beside, "two_branch_tcp_policy", "A")), beside)

    # UDP (Fig. 18).
    v("udp_on_a", mb(goodput(udp, "chain2_udp_rts_on", "A_to_GW")), udp)
    v("udp_on_b", mb(goodput(udp, "chain2_udp_rts_on", "B_to_GW")), udp)
    v("udp_off_a", mb(goodput(udp, "chain2_udp_rts_off", "A_to_GW")), udp)
    v("udp_off_b", mb(goodput(udp, "chain2_udp_rts_off", "B_to_GW")), udp)
    v("udp_off_share", pct(share(udp, "chain2_udp_rts_off", "A_to_GW", ab)), udp)
    v("udp_gw_qdrops", span([node_col(udp, s, "GW", "drops_queue").mean() for s in ("chain2_udp_rts_off", "chain2_udp_rts_on")],
                            lambda x: f"{x:,.0f}"), udp)

    # The fixed-window sweep against the model (Fig. 27).
    sim_share = {c: s["flows/A_to_GW/goodput_bps"]["mean"] / (s["flows/A_to_GW/goodput_bps"]["mean"]
                                                             + s["flows/B_to_GW/goodput_bps"]["mean"]) for c, s in sweep.items()}
    sim_a = {c: s["flows/A_to_GW/goodput_bps"]["mean"] for c, s in sweep.items()}
    mod = dict(zip(SWEEP, model))
    v("fw_model_share_low", pct_span([mod[c]["share_a"] for c in (16, 32)]))
    v("fw_sim_share_low", pct_span([sim_share[c] for c in (16, 32)], 1), fixed)
    v("fw_model_share_64", f"{mod[64]['share_a']:.2f}")
    v("fw_sim_share_64", f"{sim_share[64]:.2f}", fixed)
    peak_m = max(SWEEP, key=lambda c: mod[c]["lambda_a_bps"])
    peak_s = max(SWEEP, key=lambda c: sim_a[c])
    v("fw_peak_model", f"{peak_m} ({mb(mod[peak_m]['lambda_a_bps'])} Mbit/s)")
    v("fw_peak_sim", f"{peak_s} ({mb(sim_a[peak_s])} Mbit/s)", fixed)
    v("fw_p_empty_32", f"{mod[32]['p_q1_and_qg_empty']:.2f}")
    v("fw_p_empty_128", f"{mod[128]['p_q1_and_qg_empty']:.2f}")
    v("fw_model_share_high", span([mod[c]["share_a"] for c in (256, 512)], lambda x: f"{x:.2f}"))
    v("fw_sim_share_high", span([sim_share[c] for c in (256, 512)], lambda x: f"{x:.3f}"), fixed)
    v("fw_sim_share_128", f"{sim_share[128]:.3f}", fixed)
    qd = fixed.nodes["drops_queue"].astype(float).sum()
    v("fw_queue_drops", f"{qd:.0f}", fixed)
    v("fw_runs", str(len(fixed.runs)), fixed)
    ff = fixed.flows[fixed.flows["flow_id"] == "A_to_GW"]
    at32 = ff[ff[CW_B] == 32]
    v("fw_a_timeouts_32", f"{at32['timeouts'].astype(float).mean():.0f}", fixed)
    v("fw_a_retry_32", f"{at32['drops_retry_limit'].astype(float).mean():.0f}", fixed)
    v("fw_model_jfi_64", f"{mod[64]['jain_index']:.2f}")
    v("fw_model_jfi_128", f"{mod[128]['jain_index']:.2f}")
    from wmnsim import model as wm

    rts = {c: wm.starvation(window=3, cw_min_b=c, rts_cts=True).jain_index for c in (64, 128)}
    v("fw_model_jfi_64_rts", f"{rts[64]:.2f}")
    v("fw_model_jfi_128_rts", f"{rts[128]:.2f}")
    v("fw_sim_jfi_64", f"{sweep[64]['summary/jain_fairness_index']['mean']:.2f}", fixed)
    v("fw_sim_jfi_128", f"{sweep[128]['summary/jain_fairness_index']['mean']:.2f}", fixed)

    # What the prose says in words, held to the runs (doc_blocks.Report.claim).
    C = report.claim
    C(max(sh_def) < 0.05 and min(sh_pol) > 0.15 and max(sh_pol) < 0.45,
      "two-hop upload chains: A starves by default (under 5 %) and gets a fair but not an equal share with the "
      "policy (15-45 %)")
    C(failed_fraction(pairs, pol, "A") < failed_fraction(pairs, FLAGSHIP, "A")
      and node_col(pairs, pol, "B", "mac_queueing_delay_mean_s").mean()
      > node_col(pairs, FLAGSHIP, "B", "mac_queueing_delay_mean_s").mean(),
      "the policy works by the paper's mechanism: A fails less, packets queue at B")
    C(run_mean(pairs, DOWN, "jain_fairness_index") > 0.9 and goodput(pairs, dpol, "GW_to_A")
      < 0.05 * goodput(pairs, dpol, "GW_to_B"), "downstream: no starvation by default, the policy creates it")
    C(max(goodput(pairs, "chain4_tcp_policy", f) for f in ch4[2:]) < 0.1e6,
      "four-hop chain with the policy: n3 and n4 still starve")
    C(goodput(sens, "chain4_tcp_policy", "n3_up") > 0.2e6 and goodput(sens, "chain4_tcp_policy", "n4_up") < 0.1e6,
      "550-m sensing with the policy: n3 gets a share, n4 does not")
    C(hop_means(pairs, "tree3_tcp_policy")[0] < hop_means(pairs, "tree3_tcp")[0]
      and hop_means(pairs, "tree3_tcp_policy")[1] < 1.2 * hop_means(pairs, "tree3_tcp")[1],
      "the tree with the policy: the one-hop flows fall, the two-hop flows' mean does not rise much")
    C(max(larger_share(pairs, "two_branch_tcp")) > 0.9 and max(larger_share(pairs, "two_branch_tcp_policy")) < 0.6,
      "two branches: B and C capture each other in some seed by default, not with the policy")
    C(0.6 < max(larger_share(stamps, "two_branch_tcp")) < max(larger_share(pairs, "two_branch_tcp")),
      "with TCP timestamps the capture is milder, not gone")
    C(max(goodput(beside, s, "A_to_GW") for s in ("two_branch_tcp", "two_branch_tcp_policy")) < 0.05e6,
      "C beside the gateway: A starves with or without the policy")
    C(qd == 0, "fixed windows of 3: nothing overflows")
    C(all(abs(sim_share[c] - 1 / 3) < 0.03 for c in (256, 512)), "wmnsim's share levels off near 1/3")
    C(min(mod[64]["share_a"] / mod[32]["share_a"], sim_share[64] / sim_share[32]) > 2,
      "A's share jumps at CWmin_B 64 in the model and in wmnsim")
    C(all(mod[a][k] > mod[b][k] for a, b in ((128, 256), (256, 512)) for k in ("lambda_a_bps", "lambda_b_bps"))
      and all(sweep[a][f"flows/{k}/goodput_bps"]["mean"] > sweep[b][f"flows/{k}/goodput_bps"]["mean"]
              for a, b in ((128, 256), (256, 512)) for k in ab), "above 128 both flows' goodput falls in both")
    C(sim_share[32] < mod[32]["share_a"], "at CWmin_B 32 the simulator starves A more than the model")


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
    sens, beside, stamps = report.data("sensing550"), report.data("c_beside_gateway"), report.data("timestamps")
    scenarios = {**by_scenario(pairs), **by_scenario(udp)}
    load = scenarios.__getitem__
    sweep = by_cw(fixed)
    model = model_sweep()
    report.block("pairs", pairs_table(load), pairs)
    report.block("udp", udp_table(load), udp)
    report.block("sweep", sweep_table(model, sweep), fixed)
    prose_values(report, pairs, udp, fixed, sens, beside, stamps, model, sweep)
    if report.plot:
        plot(model, load, sweep, report.figure("starvation.png"))
    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
