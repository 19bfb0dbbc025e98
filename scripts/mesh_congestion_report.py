#!/usr/bin/env python3
"""The tables, inline values and figures of docs/reproductions/mesh-congestion.md (paper 004), from stored runs.

Reads the study's stored runs (scenarios/fu2009/reproduction/data/, written by
`wmnsim reproduce mesh-congestion`; nothing is run here; the experiments are the JSON
files beside study.json) and rewrites the generated blocks and inline values of the
doc (scripts/doc_blocks.py):

  - mechanisms (experiment mechanisms): 004's Figs. 1-4 on the small scenarios;
  - fig6, fig7_summary, fig7, loss (udp): per snapshot, throughput and intra-mesh
    loss without control, and under TCC and LSCC; loss by cause; mutual blocks;
  - fig8 (fig8): snapshot 1's flows, three runs pooled;
  - snapshot22 (snapshot22): the snapshot where LSCC loses most, under the renewal
    levels, without look-ahead and with exclude_blocked_packets;
  - options (udp, group, exclude): group-addressed notifications and
    exclude_blocked_packets over the 50 snapshots, throughput and loss side by side;
  - tcponly_* (tcp): Sec. 4.4's TCP alone, when that experiment is in study.json;
  - spread (udp): the throughput's spread over the run seeds per snapshot and scheme, and a
    raised / lowered / unchanged / undetermined classification by the 95 % Welch interval;
  - renewal, renewal_d, renewal_snapshots (renewal, udp): LSCC under the six readings of the
    renewal rule (renewal_check_at x renewal_checks, issue 40), throughput, intra-mesh loss,
    mutual blocks and D side by side;
  - mixes (mixes, udp) and bursty (bursty): other traffic mixes and two burst models of Sec.
    4.4's UDP halves, a few snapshots with one run each (issue 40 section 3);
  - tcp_bursty, tcp_bursty_snapshots (tcp_bursty, bursty): Sec. 4.4's TCP with bursty UDP
    (Figs. 9-10) with three runs per snapshot, TCP's throughput classified by the 95 % Welch
    interval, with the bursty UDP carried and the intra-mesh loss beside it.

Figures: docs/reproductions/mesh-congestion.png (Figs. 6-8),
mesh-congestion-snapshot22.png (D and queue lengths over time),
mesh-congestion-topology.png (Fig. 5: snapshot 1 and its routing trees, from the
scenario alone: wmnsim's describe(), no run). An experiment listed in study.json counts
once its runs are stored.

Usage: wmnsim reproduce mesh-congestion [--report-only]   (or: this script [--data DIR]
[--doc PATH] [--figures DIR] [--check] [--no-plot], with the wmnsim module importable)
"""
from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
from doc_blocks import Report  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "scenarios" / "fu2009"
NAMES = {"none": "no congestion control", "tcc": "TCC", "lscc": "LSCC"}
STARVING = 0.1  # a flow under this share of its rate starves
OFFERED_UDP = 16e6  # 40 x (300 + 100) kbit/s
BAND = 0.01  # a change within 1 % of the offered load counts as none

# /controllers options -> the suffix of a scheme's key
OPTION_KEYS = {("notification_delivery", "group"): "group", ("exclude_blocked_packets", True): "exclude",
               ("look_ahead_threshold", 1): "nolookahead", ("blocked_local_limit", 1): "nolimit",
               ("too_short_threshold", 0.5): "renew50", ("too_short_threshold", 0.6): "renew60",
               ("renewal_check_at", "before_expiry"): "before", ("renewal_check_at", "at_expiry"): "at",
               ("renewal_check_at", "after_expiry"): "after", ("renewal_checks", "per_neighbour"): "perneighbour",
               ("renewal_checks", "last_used"): "lastused"}

# The readings of 004's renewal rule (issue 40): when the check runs, and which notifications it checks. The
# first is wmnsim's default (the udp experiment's LSCC); the others are the renewal experiment's points.
READINGS = [("before_expiry", "per_neighbour"), ("before_expiry", "last_used"), ("at_expiry", "per_neighbour"),
            ("at_expiry", "last_used"), ("after_expiry", "per_neighbour"), ("after_expiry", "last_used")]
READING_TEXT = {"before_expiry": "10 ms before expiry (Sec. 3.1)", "at_expiry": "at expiry",
                "after_expiry": "10 ms after expiry (Sec. 4.1)", "per_neighbour": "one per notified neighbour",
                "last_used": "one per period, the last used notification (Sec. 3.1)"}
D_CAP = 6.5535  # the notification's duration field's largest value (s)
CLASSES = ("raised", "lowered", "unchanged", "undetermined")  # classify's outcomes
CLASS_MARK = {"raised": "r", "lowered": "l", "unchanged": "u", "undetermined": "?"}


# Whether the report reads the study's full stored runs (set in main). Claims about averages and counts over
# the 50 snapshots are checked there; the quick runs (few snapshots, short runs) are too small a sample for
# them, so on those only claims a quick run can test are checked (as in gateway_report).
FULL = True


def full_claim(report: Report, holds, text: str) -> None:
    """A claim about the full sweep: checked on the study's stored full runs, not on the quick ones."""
    if FULL:
        report.claim(holds, text)


def scheme_of(text: str) -> str:
    """The scheme key of a /controllers value: none, tcc, lscc, or with a suffix per
    option (lscc_exclude, tcc_group, lscc_renew50, ...)."""
    cs = json.loads(text) if isinstance(text, str) else text
    if not cs:
        return "none"
    c = dict(cs[0])
    kind = c.pop("type")
    return "_".join([kind] + [OPTION_KEYS[(k, v)] for k, v in sorted(c.items())])


def mean(xs: Sequence[float]) -> float:
    xs = list(xs)
    return sum(xs) / len(xs) if xs else float("nan")


def mbps(x: float) -> str:
    return f"{x / 1e6:.2f}"


def kbps(x: float) -> str:
    return f"{x / 1e3:.0f}"


def count(x: float) -> str:
    return f"{x:,.0f}"


def pct(x: float) -> str:
    return f"{x:.0%}".replace("%", " %")


# ---- per-run rows ------------------------------------------------------------------------------


def radios_of(row) -> List[dict]:
    return json.loads(row["radios"]) if isinstance(row.get("radios"), str) else []


def mutual_pairs(radios: List[dict], half: float) -> List[Tuple[str, str, float, float]]:
    """Pairs of stations each blocked by the other for more than `half` seconds (004
    Fig. 2's congestion-control collision, persisting): (a, b, a blocked by b, b by a)."""
    by = {r["radio"]: r for r in radios}
    out = []
    for a in sorted(by):
        for b in sorted(by):
            if a < b:
                ab = by[a]["blocked_by_radio_s"].get(str(b), 0.0)
                ba = by[b]["blocked_by_radio_s"].get(str(a), 0.0)
                if ab > half and ba > half:
                    out.append((by[a]["node"], by[b]["node"], ab, ba))
    return out


def norm(df):
    """The table with topology_seed as an integer (0: none) so that tables join."""
    df = df.copy()
    if "topology_seed" in df.columns:
        df["topology_seed"] = df["topology_seed"].fillna(0).astype(int)
    return df


class Runs:
    """One experiment's runs, one row each with the scheme and what the tables need."""

    def __init__(self, data):
        import pandas as pd

        self.data = data
        r = norm(data.runs)
        r["scheme"] = r["/controllers"].map(scheme_of)
        r["snapshot"] = r["topology_seed"]
        keys = ["scenario", "/controllers", "seed", "topology_seed"]
        if not data.optional("nodes").empty:
            mg = norm(data.optional("nodes")).groupby(keys, dropna=False)["mgmt_sent"].sum().rename("mgmt_sent").reset_index()
            r = r.merge(mg, on=keys, how="left")
        else:  # an experiment that stores no node rows (fig8)
            r["mgmt_sent"] = float("nan")
        c = data.optional("controllers")
        if not c.empty:
            c = norm(c)
            c["scheme"] = c["/controllers"].map(scheme_of)
            c = c.merge(r[keys + ["simulated_time_s"]], on=keys, how="left")
            c["pairs"] = [mutual_pairs(radios_of(row), row["simulated_time_s"] / 2) for _, row in c.iterrows()]
            c["n_pairs"] = c["pairs"].map(len)
            c["detections"] = [sum(x["congestion_detections"] for x in radios_of(row)) for _, row in c.iterrows()]
            r = r.merge(c[keys + ["notifications_sent", "notifications_sent_look_ahead", "n_pairs", "detections"]],
                        on=keys, how="left")
            self.controllers = c
        else:
            for col in ("notifications_sent", "notifications_sent_look_ahead", "n_pairs", "detections"):
                r[col] = 0
            self.controllers = pd.DataFrame()
        for col in ("notifications_sent", "notifications_sent_look_ahead", "n_pairs", "detections"):
            r[col] = r[col].fillna(0)
        r["thr"] = r["total_goodput_bps"]
        r["wloss"] = r["weighted_intra_mesh_loss_bps"]
        r["buf"] = r["drops_intra_mesh_by_cause.queue_overflow"]
        r["retry"] = r["drops_intra_mesh_by_cause.retry_limit"]
        r["local"] = r["drops_local"]
        self.runs = r
        if data.optional("flows").empty:  # an experiment that stores no flow rows (exclude, group, tcp)
            self.flows = pd.DataFrame(columns=["scheme", "flow_id", "seed", "topology_seed", "goodput_bps", "route"])
        else:
            f = norm(data.flows)
            f["scheme"] = f["/controllers"].map(scheme_of)
            self.flows = f

    def schemes(self) -> List[str]:
        return list(dict.fromkeys(self.runs["scheme"]))

    def has(self, scheme: str) -> bool:
        return bool((self.runs["scheme"] == scheme).any())

    def sel(self, scheme: str, scenario: Optional[str] = None, seeds: Optional[Sequence[int]] = None):
        r = self.runs[self.runs["scheme"] == scheme]
        if scenario is not None:
            r = r[r["scenario"] == scenario]
        if seeds is not None:
            r = r[r["seed"].isin(list(seeds))]
        return r

    def per_snapshot(self, scheme: str, col: str, seeds: Optional[Sequence[int]] = None) -> Dict[int, float]:
        """snapshot -> the mean of `col` over its runs."""
        r = self.sel(scheme, seeds=seeds)
        return {int(k): float(v) for k, v in r.groupby("snapshot")[col].mean().items()}

    def seeds(self) -> List[int]:
        return sorted(int(s) for s in self.runs["seed"].unique())

    def snapshots(self) -> List[int]:
        return sorted(int(s) for s in self.runs["snapshot"].dropna().unique())

    def controller_radios(self, scheme: str, snapshot: Optional[int], seed: int) -> Dict[str, dict]:
        c = self.controllers
        c = c[(c["scheme"] == scheme) & (c["seed"] == seed)] if "scheme" in c else c.iloc[0:0]
        if snapshot is not None:
            c = c[c["topology_seed"] == snapshot]
        if c.empty:
            return {}
        return {x["node"]: x for x in radios_of(c.iloc[0])}


def changes(thr: Dict[str, Dict[int, float]], scheme: str, offered: float, base: str = "none") -> Dict[str, Any]:
    ks = sorted(set(thr[scheme]) & set(thr[base]))
    d = {k: thr[scheme][k] - thr[base][k] for k in ks}
    up = [k for k in ks if d[k] > BAND * offered]
    down = [k for k in ks if d[k] < -BAND * offered]
    return {"d": d, "up": up, "down": down, "within": len(ks) - len(up) - len(down), "n": len(ks),
            "mean": mean(d.values()), "max": max(d.values()) if d else float("nan"),
            "min": min(d.values()) if d else float("nan")}


def change_table(thr: Dict[str, Dict[int, float]], offered: float, what: str) -> List[str]:
    """The Fig. 7 summary rows: per scheme its mean, and how TCC and LSCC change each snapshot."""
    band = mbps(BAND * offered)
    ch = {sc: changes(thr, sc, offered) for sc in ("tcc", "lscc")}
    lines = [f"| scheme | mean {what} (Mbit/s) | mean change | largest gain | largest loss | "
             f"snapshots raised by > {band} Mbit/s | lowered | within |",
             "|---|---:|---:|---:|---:|---:|---:|---:|",
             f"| {NAMES['none']} | {mbps(mean(thr['none'].values()))} | | | | | | |"]
    for sc in ("tcc", "lscc"):
        c = ch[sc]
        lines.append(f"| {NAMES[sc]} | {mbps(mean(thr[sc].values()))} | {c['mean'] / 1e6:+.2f} | {c['max'] / 1e6:+.2f} | "
                     f"{c['min'] / 1e6:+.2f} | {len(c['up'])} | {len(c['down'])} | {c['within']} |")
    return lines


def quartiles(xs: Sequence[float]) -> Dict[str, float]:
    s = sorted(xs)
    q1, med, q3 = statistics.quantiles(s, n=4, method="inclusive")
    iqr = q3 - q1
    lo = min(x for x in s if x >= q1 - 1.5 * iqr)
    hi = max(x for x in s if x <= q3 + 1.5 * iqr)
    return {"q1": q1, "median": med, "q3": q3, "low": lo, "high": hi,
            "outliers": sum(1 for x in s if x < lo or x > hi)}


def rates_of(scenario_file: str) -> Dict[str, float]:
    d = json.loads((FOLDER / scenario_file).read_text())
    return {f["id"]: float(f["traffic"]["rate_bps"]) for f in d["flows"]}


# ---- Figs. 1-4 ---------------------------------------------------------------------------------

# (figure, scenario, the nodes whose blocked time is shown, [(label, scheme)])
CASES = [
    ("Fig. 1: waste of bandwidth", "waste_of_bandwidth", ["S1", "G"],
     [("none", "none"), ("TCC", "tcc"), ("LSCC", "lscc")]),
    ("Fig. 2: congestion-control collision", "congestion_control_collision", ["B", "C"],
     [("none", "none"), ("TCC", "tcc"), ("LSCC", "lscc"),
      ("LSCC, exclude_blocked_packets (ours)", "lscc_exclude")]),
    ("Fig. 3: buffer blocking, forwarding part", "look_ahead_solvable", ["A", "E"],
     [("LSCC without look-ahead", "lscc_nolookahead"), ("LSCC (004)", "lscc")]),
    ("Fig. 3: buffer blocking, local part", "buffer_blocking", ["A", "E", "B"],
     [("LSCC without the limit on blocked local packets", "lscc_nolimit"),
      ("LSCC (004: 50 % of the local part)", "lscc")]),
    ("Fig. 4(a): solvable", "look_ahead_solvable", ["A", "E"],
     [("none", "none"), ("TCC", "tcc"), ("LSCC (as Fig. 3's with look-ahead)", "lscc")]),
    ("Fig. 4(b): unsolvable", "look_ahead_unsolvable", ["A", "E"],
     [("none", "none"), ("LSCC", "lscc")]),
]


def flow_goodput(m: Runs, scenario: str, scheme: str) -> Dict[str, Dict[int, float]]:
    """flow id -> seed -> goodput."""
    f = m.flows[(m.flows["scenario"] == scenario) & (m.flows["scheme"] == scheme)]
    out: Dict[str, Dict[int, float]] = {}
    for _, row in f.iterrows():
        out.setdefault(row["flow_id"], {})[int(row["seed"])] = float(row["goodput_bps"])
    return out


def blocked(m: Runs, scenario: str, scheme: str, node: str) -> Dict[int, float]:
    c = m.controllers
    c = c[(c["scenario"] == scenario) & (c["scheme"] == scheme)]
    return {int(row["seed"]): next(x["blocked_s"] for x in radios_of(row) if x["node"] == node)
            for _, row in c.iterrows()}


def mechanisms(report: Report, data) -> None:
    m = Runs(data)
    seeds = m.seeds()
    lines = ["| 004 | scenario | configuration | goodput per flow (Mbit/s) | forwarded packets lost in buffers | "
             "blocked (s) | look-ahead notifications | congestion detections |",
             "|---|---|---|---|---:|---|---:|---:|"]
    for figure, scenario, shown, configs in CASES:
        for label, scheme in configs:
            r = m.sel(scheme, scenario)
            fg = flow_goodput(m, scenario, scheme)
            goodput = ", ".join(f"{fid} {mean(fg[fid].values()) / 1e6:.2f}" for fid in sorted(fg))
            bl, look, detect = "", "", ""
            if scheme != "none":
                bl = ", ".join(f"{n} {mean(blocked(m, scenario, scheme, n).values()):.1f}" for n in shown)
                look = f"{r['notifications_sent_look_ahead'].mean():.0f}"
                detect = f"{r['detections'].mean():.0f}"
            duration = r["simulated_time_s"].iloc[0]
            lines.append(f"| {figure} | {scenario}.json ({duration:g} s) | {label} | {goodput} | {r['buf'].mean():.0f} | "
                         f"{bl} | {look} | {detect} |")
    lines.append("")
    lines.append(f"Means of run seeds {', '.join(map(str, seeds))}. Blocked: the time the named stations spent under "
                 "a notification. Look-ahead notifications and congestion detections: all stations together.")
    report.block("mechanisms", "\n".join(lines), data)

    def v(name: str, text: str) -> None:
        report.value(name, text, data)

    def ratio(scenario: str, flow: str, a: str, b: str) -> Dict[int, float]:
        """per seed: flow's goodput under scheme a over its goodput under b."""
        ga, gb = flow_goodput(m, scenario, a)[flow], flow_goodput(m, scenario, b)[flow]
        return {s: ga[s] / gb[s] for s in ga if s in gb and gb[s] > 0}

    # Fig. 1: flow x under TCC and LSCC against no control.
    x_tcc = ratio("waste_of_bandwidth", "x", "tcc", "none")
    x_lscc = ratio("waste_of_bandwidth", "x", "lscc", "none")
    v("fig1_x_tcc_loss", pct(1 - mean(x_tcc.values())))
    v("fig1_x_lscc", pct(mean(x_lscc.values())))
    # Fig. 3, forwarding part: flow 1 without look-ahead against LSCC with it.
    f1 = ratio("look_ahead_solvable", "f1", "lscc_nolookahead", "lscc")
    v("fig3_f1_loss_mean", pct(1 - mean(f1.values())))
    v("fig3_f1_loss_range", f"{pct(1 - max(f1.values()))} to {pct(1 - min(f1.values()))}")
    eb = blocked(m, "look_ahead_solvable", "lscc_nolookahead", "E")
    ab = blocked(m, "look_ahead_solvable", "lscc_nolookahead", "A")
    v("fig3_e_over_a", pct(mean(eb.values()) / mean(ab.values())))
    # Fig. 3, local part: b2 without the limit against with it.
    b2 = ratio("buffer_blocking", "b2", "lscc_nolimit", "lscc")
    b1 = ratio("buffer_blocking", "b1", "lscc_nolimit", "lscc")
    v("fig3_b2_share", pct(mean(b2.values())))
    v("fig3_b1_share", pct(mean(b1.values())))
    # Fig. 4(a): E's blocked time against A's; flow 1's share of its rate.
    e = blocked(m, "look_ahead_solvable", "lscc", "E")
    a = blocked(m, "look_ahead_solvable", "lscc", "A")
    per_seed = [e[s] / a[s] for s in e if a.get(s)]
    v("fig4a_e_over_a", pct(mean(e.values()) / mean(a.values())))
    v("fig4a_e_over_a_range", f"{pct(min(per_seed))} to {pct(max(per_seed))}")
    rate = rates_of("look_ahead_solvable.json")["f1"]
    f1a = flow_goodput(m, "look_ahead_solvable", "lscc")["f1"]
    v("fig4a_f1_share", f"{pct(min(f1a.values()) / rate)} to {pct(max(f1a.values()) / rate)}")
    f2a = ratio("look_ahead_solvable", "f2", "lscc", "none")
    v("fig4a_f2_gain", pct(mean(f2a.values()) - 1))
    f1a_loss = ratio("look_ahead_solvable", "f1", "lscc", "none")
    v("fig4a_f1_loss", pct(1 - mean(f1a_loss.values())))
    # Fig. 4(b): flow 1 from A.
    f1b = ratio("look_ahead_unsolvable", "f1", "lscc", "none")
    v("fig4b_f1_loss", pct(1 - mean(f1b.values())))
    v("fig4b_f1_loss_range", f"{pct(1 - max(f1b.values()))} to {pct(1 - min(f1b.values()))}")
    v("mech_seeds", f"{len(seeds)}")
    # Fig. 2 under LSCC: the share of the run B and C spend blocked.
    dur = float(m.sel("lscc", "congestion_control_collision")["simulated_time_s"].iloc[0])
    bb = mean(blocked(m, "congestion_control_collision", "lscc", "B").values())
    v("fig2_lscc_blocked", pct(bb / dur))
    g = {s: mean(m.sel(s, "congestion_control_collision")["thr"]) for s in ("none", "lscc", "lscc_exclude")}
    v("fig2_lscc_share", pct(g["lscc"] / g["none"]))
    v("fig2_exclude_share", pct(g["lscc_exclude"] / g["none"]))
    # the outcomes the prose states in words (the C++ tests check them on seeds 1 and 2)
    bufm = {(sn, sc): float(m.sel(sc, sn)["buf"].mean())
            for sn, sc in (("waste_of_bandwidth", "none"), ("waste_of_bandwidth", "tcc"), ("waste_of_bandwidth", "lscc"),
                           ("congestion_control_collision", "lscc_exclude"), ("look_ahead_solvable", "lscc"))}
    full_claim(report, bufm[("waste_of_bandwidth", "none")] > 0 and bufm[("waste_of_bandwidth", "tcc")] == 0
               and bufm[("waste_of_bandwidth", "lscc")] == 0, "Fig. 1: both schemes end R's buffer drops")
    g_tcc = mean(m.sel("tcc", "congestion_control_collision")["thr"])
    full_claim(report, g_tcc < 0.5 * g["none"] and g["lscc"] < 0.5 * g["none"],
               "Fig. 2: TCC collapses, and LSCC too (under half the goodput without control)")
    full_claim(report, g["lscc_exclude"] > 0.9 * g["none"] and bufm[("congestion_control_collision", "lscc_exclude")] > 0,
               "Fig. 2 with exclude_blocked_packets: the flows recover, and some forwarded packets are lost in buffers again")
    full_claim(report, bufm[("look_ahead_solvable", "lscc")] == 0,
               "Fig. 4(a): under LSCC no forwarded packet is lost in a buffer")
    fg_none, fg_tcc = (flow_goodput(m, "look_ahead_solvable", sc) for sc in ("none", "tcc"))
    full_claim(report, all(mean(fg_tcc[f].values()) < 0.2 * mean(fg_none[f].values()) for f in fg_none),
               "Fig. 4(a): under TCC every flow collapses")


# ---- the mesh with UDP -----------------------------------------------------------------------


def udp_blocks(report: Report, data) -> Tuple[Runs, Dict[str, Dict[int, float]]]:
    m = Runs(data)
    seeds, snapshots = m.seeds(), m.snapshots()
    schemes = ("none", "tcc", "lscc")
    thr = {sc: m.per_snapshot(sc, "thr") for sc in schemes}
    wloss = {sc: m.per_snapshot(sc, "wloss") for sc in schemes}
    buf = {sc: m.per_snapshot(sc, "buf") for sc in schemes}
    retry = {sc: m.per_snapshot(sc, "retry") for sc in schemes}
    local = {sc: m.per_snapshot(sc, "local") for sc in schemes}
    sent = {sc: m.per_snapshot(sc, "notifications_sent") for sc in schemes}
    pairs = {sc: m.per_snapshot(sc, "n_pairs") for sc in schemes}
    runs_text = f"{len(snapshots)} snapshots x {len(seeds)} run{'s' if len(seeds) > 1 else ''}"
    dur = float(m.runs["simulated_time_s"].iloc[0])

    def v(name: str, text: str) -> None:
        report.value(name, text, data)

    # Fig. 6
    order6 = sorted(snapshots, key=lambda k: (wloss["none"][k], k))
    lines = ["| rank | snapshot | throughput (Mbit/s) | weighted intra-mesh loss (Mbit/s) | forwarded packets lost in buffers | "
             "retry-limit drops after forwarding | local drops |",
             "|---:|---:|---:|---:|---:|---:|---:|"]
    for i, k in enumerate(order6, 1):
        lines.append(f"| {i} | {k} | {mbps(thr['none'][k])} | {mbps(wloss['none'][k])} | {buf['none'][k]:.0f} | "
                     f"{retry['none'][k]:.0f} | {local['none'][k]:.0f} |")
    t, w = [thr["none"][k] for k in snapshots], [wloss["none"][k] for k in snapshots]
    lines.append("")
    lines.append(f"{runs_text} of {dur:g} s (run seed{'s' if len(seeds) > 1 else ''} {', '.join(map(str, seeds))}), "
                 f"no congestion control; throughput {mbps(min(t))} to {mbps(max(t))} Mbit/s of the 16 offered "
                 f"(004: 6.4 to 15.6), weighted intra-mesh loss {mbps(min(w))} to {mbps(max(w))} Mbit/s (004: 0 to 8.5).")
    report.block("fig6", "\n".join(lines), data)
    v("fig6_thr_range", f"{min(t) / 1e6:.1f} to {max(t) / 1e6:.1f}")
    v("fig6_loss_range", f"{min(w) / 1e6:.1f} to {max(w) / 1e6:.1f}")
    least = order6[0]
    v("fig6_least_lossy", str(least))
    v("fig6_least_lossy_buf", f"{buf['none'][least]:.0f}")
    v("fig6_least_lossy_retry", f"{retry['none'][least]:.0f}")
    full_claim(report, min(t) < 8.5e6 and max(t) > 14e6 and min(w) < 1e6 and max(w) > 6e6,
               "Fig. 6 reproduced: throughput and weighted intra-mesh loss span ranges like 004's (6.4-15.6, 0-8.5 Mbit/s)")
    no_buf = [k for k in snapshots if buf["none"][k] == 0]

    # Fig. 7
    ch = {sc: changes(thr, sc, OFFERED_UDP) for sc in ("tcc", "lscc")}
    band = mbps(BAND * OFFERED_UDP)
    report.block("fig7_summary", "\n".join(change_table(thr, OFFERED_UDP, "throughput")), data)
    order7 = sorted(snapshots, key=lambda k: (thr["none"][k], k))
    lines = ["| rank | snapshot | throughput, none (Mbit/s) | TCC | LSCC | TCC - none | LSCC - none | "
             "weighted intra-mesh loss, none | TCC | LSCC |",
             "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for i, k in enumerate(order7, 1):
        n, tc, ls = thr["none"][k], thr["tcc"][k], thr["lscc"][k]
        lines.append(f"| {i} | {k} | {mbps(n)} | {mbps(tc)} | {mbps(ls)} | {(tc - n) / 1e6:+.2f} | {(ls - n) / 1e6:+.2f} | "
                     f"{mbps(wloss['none'][k])} | {mbps(wloss['tcc'][k])} | {mbps(wloss['lscc'][k])} |")
    report.block("fig7", "\n".join(lines), data)
    for sc in ("tcc", "lscc"):
        c = ch[sc]
        v(f"{sc}_up", str(len(c["up"])))
        v(f"{sc}_down", str(len(c["down"])))
        v(f"{sc}_within", str(c["within"]))
        v(f"{sc}_mean_change", f"{c['mean'] / 1e6:+.2f}")
    v("band", band)
    v("n_snapshots", str(len(snapshots)))
    v("udp_runs", f"{len(seeds)} run{'s' if len(seeds) > 1 else ''} (seed{'s' if len(seeds) > 1 else ''} "
                  f"{', '.join(map(str, seeds))})")
    v("udp_runs_short", f"{len(seeds)} (seed{'s' if len(seeds) > 1 else ''} {', '.join(map(str, seeds))})")
    v("udp_topology", f"{snapshots[0]} to {snapshots[-1]}" if snapshots == list(range(snapshots[0], snapshots[-1] + 1))
      else ", ".join(map(str, snapshots)))
    d = ch["lscc"]["d"]
    gains = sorted(d, key=lambda k: -d[k])
    losses = sorted(d, key=lambda k: d[k])
    v("lscc_top_gains", ", ".join(str(k) for k in gains[:5] if d[k] > 0))
    v("lscc_max_gain", f"{max(d.values()) / 1e6:+.1f}")
    v("lscc_top_losses", " and ".join(f"{k} ({d[k] / 1e6:+.2f} Mbit/s)" for k in losses[:2] if d[k] < 0) or "none")
    better = sum(1 for k in d if thr["lscc"][k] > thr["tcc"][k] + 0.01e6)
    v("lscc_beats_tcc", str(better))
    lost = [d[k] for k in ch["lscc"]["down"]]
    v("lscc_loss_range", f"{-max(lost) / 1e6:.1f} to {-min(lost) / 1e6:.1f}" if lost else "n/a")

    # verdicts on 004's claims: TCC lowers more snapshots than it raises; LSCC "nearly always" raises
    # (taken as: lowers at most a tenth of the snapshots)
    tc, lc = ch["tcc"], ch["lscc"]
    v("tcc_verdict", "reproduced" if len(tc["down"]) > len(tc["up"]) else "not reproduced")
    v("lscc_verdict", "reproduced" if len(lc["down"]) <= 0.1 * lc["n"] else "not reproduced")
    v("tcc_more_often", "more often than it helps" if len(tc["down"]) > len(tc["up"]) else "no more often than it helps")

    # loss by cause
    lines = ["| scheme | throughput (Mbit/s), mean | weighted intra-mesh loss (Mbit/s), mean | snapshots with forwarded packets "
             "lost in buffers | such packets per run, mean (max) | retry-limit drops after forwarding per run, mean | "
             "local drops per run, mean | notifications sent per run, mean | snapshots with a mutual block |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for sc in schemes:
        b = [buf[sc][k] for k in snapshots]
        lines.append(f"| {NAMES[sc]} | {mbps(mean(thr[sc].values()))} | {mbps(mean(wloss[sc].values()))} | "
                     f"{sum(1 for x in b if x > 0)} | {mean(b):.0f} ({max(b):.0f}) | {mean(retry[sc].values()):.0f} | "
                     f"{mean(local[sc].values()):.0f} | {mean(sent[sc].values()):.0f} | "
                     f"{'' if sc == 'none' else sum(1 for k in snapshots if pairs[sc][k] > 0)} |")
    report.block("loss", "\n".join(lines), data)
    mb = {sc: mean(buf[sc].values()) for sc in schemes}
    v("buf_cut_tcc", pct(1 - mb["tcc"] / mb["none"]))
    v("buf_cut_lscc", pct(1 - mb["lscc"] / mb["none"]))
    v("buf_none", count(mb["none"]))
    v("buf_tcc", count(mb["tcc"]))
    v("buf_lscc", count(mb["lscc"]))
    for sc in schemes:
        v(f"wloss_{sc}", mbps(mean(wloss[sc].values())))
        v(f"retry_{sc}", count(mean(retry[sc].values())))
        v(f"local_{sc}", count(mean(local[sc].values())))
    cut = min(1 - mb["tcc"] / mb["none"], 1 - mb["lscc"] / mb["none"])
    ml = {sc: mean(local[sc].values()) for sc in schemes}
    mr = {sc: mean(retry[sc].values()) for sc in schemes}
    full_claim(report, ml["tcc"] > ml["none"] and ml["lscc"] > ml["none"],
               "the price of both schemes is local loss: local drops rise under TCC and LSCC")
    full_claim(report, mr["tcc"] < mr["none"] and mr["lscc"] < mr["none"],
               "retry-limit drops after forwarding fall under both schemes")
    v("buf_cut_min", f"{int(cut * 100 // 10 * 10)} %")
    full_claim(report, cut >= 0.9 and mb["tcc"] > 0 and mb["lscc"] > 0,
               "both schemes avoid intra-mesh loss 'mostly': buffer drops of forwarded packets cut by 90 % or more, not to 0")

    # mutual blocks and LSCC's losses
    has_pair = [k for k in snapshots if pairs["lscc"][k] > 0]
    v("lscc_pair_snapshots", str(len(has_pair)))
    v("tcc_pair_snapshots", str(sum(1 for k in snapshots if pairs["tcc"][k] > 0)))
    lowered = ch["lscc"]["down"]
    v("lscc_lowered_with_pair", f"{sum(1 for k in lowered if k in has_pair)} of {len(lowered)}")
    raised = ch["lscc"]["up"]
    v("lscc_raised_with_pair", f"{sum(1 for k in raised if k in has_pair)} of {len(raised)}")
    free = [k for k in snapshots if k not in has_pair]
    v("lscc_no_pair_n", str(len(free)))
    v("lscc_no_pair_mean", f"{mean([d[k] for k in free]) / 1e6:+.2f}" if free else "n/a")
    v("lscc_pair_mean", f"{mean([d[k] for k in has_pair]) / 1e6:+.2f}" if has_pair else "n/a")
    full_claim(report, lowered and raised and
               sum(1 for k in lowered if k in has_pair) / len(lowered) > sum(1 for k in raised if k in has_pair) / len(raised)
               and any(k in has_pair for k in raised),
               "a mutual block goes with LSCC's losses (more often among the snapshots it lowers than among those it "
               "raises) but does not decide the sign (some raised snapshots have one)")

    # Where the remaining buffer drops are (run seed 1): snapshot 1's frozen pair, snapshot 14's top dropper.
    nodes = norm(data.nodes)
    nodes["scheme"] = nodes["/controllers"].map(scheme_of)
    seed = seeds[0]

    def node_drops(sc: str, k: int) -> Dict[str, float]:
        x = nodes[(nodes["scheme"] == sc) & (nodes["topology_seed"] == k) & (nodes["seed"] == seed)]
        return {row["node_id"]: float(row["drops_intra_mesh_queue_overflow"]) for _, row in x.iterrows()}

    def node_col(sc: str, k: int, node: str, col: str) -> float:
        x = nodes[(nodes["scheme"] == sc) & (nodes["topology_seed"] == k) & (nodes["seed"] == seed) & (nodes["node_id"] == node)]
        return float(x[col].iloc[0]) if not x.empty else float("nan")

    k1 = snapshots[0]
    v("trace1_snapshot", str(k1))
    rad = m.controller_radios("lscc", k1, seed)
    half = float(m.sel("lscc", seeds=[seed])["simulated_time_s"].iloc[0]) / 2
    pr = mutual_pairs(list(rad.values()), half)
    dl, dt = node_drops("lscc", k1), node_drops("tcc", k1)
    if pr:
        a, b, ab, ba = max(pr, key=lambda p: dl.get(p[0], 0) + dl.get(p[1], 0))
        v("trace1_pair", f"{a} and {b}")
        v("trace1_pair_blocked", f"{min(ab, ba):.0f}-{max(ab, ba):.0f}")
        v("trace1_pair_lscc", f"{dl.get(a, 0):,.0f} and {dl.get(b, 0):,.0f} of the run's {sum(dl.values()):,.0f}")
        v("trace1_pair_tcc", f"{dt.get(a, 0):,.0f} and {dt.get(b, 0):,.0f} of {sum(dt.values()):,.0f}")
        top = a if dl.get(a, 0) >= dl.get(b, 0) else b
        v("trace1_top", top)
        v("trace1_top_lost", f"{node_col('lscc', k1, top, 'mgmt_drops_retry_limit'):.0f}")
        v("trace1_top_sent", f"{rad[top]['notifications_sent']:.0f}" if top in rad else "n/a")
        v("trace1_top_dmax", f"{max(d for _, d in rad[top]['duration_over_time']):.2f}" if top in rad else "n/a")
    else:
        for name in ("trace1_pair", "trace1_pair_blocked", "trace1_pair_lscc", "trace1_pair_tcc", "trace1_top",
                     "trace1_top_lost", "trace1_top_sent", "trace1_top_dmax"):
            v(name, "n/a")
    k14 = 14 if 14 in snapshots else snapshots[-1]
    v("trace14_snapshot", str(k14))
    d14 = node_drops("lscc", k14)
    top14 = max(d14, key=lambda n: d14[n])
    r14 = m.controller_radios("lscc", k14, seed)
    v("trace14_top", top14)
    v("trace14_top_drops", f"{d14[top14]:,.0f} of the run's {sum(d14.values()):,.0f}")
    v("trace14_top_blocked", f"{r14[top14]['blocked_s']:.1f}" if top14 in r14 else "n/a")

    # Sec. 4.3: snapshots with no forwarded packet lost in buffers; the highest throughput
    moved = [max(abs(thr["tcc"][k] - thr["none"][k]), abs(thr["lscc"][k] - thr["none"][k])) for k in no_buf]
    v("sec43_no_buf", ", ".join(map(str, no_buf)) if no_buf else "none")
    v("sec43_moved", f"{max(moved) / 1e6:.2f}" if moved else "n/a")
    top = order7[-1]
    v("sec43_top", str(top))
    among = top in no_buf
    v("sec43_verdict", "reproduced" if among else "the reason reproduces, the position does not")
    v("sec43_position", "; the snapshot with the highest throughput is among them" if among else
      ", but they are not those with the highest throughput")
    v("sec43_top_tcc", f"{(thr['tcc'][top] - thr['none'][top]) / 1e6:+.2f}")
    v("sec43_top_lscc", f"{(thr['lscc'][top] - thr['none'][top]) / 1e6:+.2f}")
    v("sec43_top_buf", f"{buf['none'][top]:.0f}")
    return m, thr


def fig8_block(report: Report, data, udp: Runs) -> Dict[Tuple[str, str], List[float]]:
    """Snapshot 1's flows: udp's runs of it (seed 1) pooled with fig8's (seeds 2, 3)."""
    import pandas as pd

    m = Runs(data)
    ex = m.snapshots()[0]
    uf = udp.flows[(udp.flows["topology_seed"] == ex) & ~udp.flows["seed"].isin(m.seeds())]
    flows = pd.concat([uf, m.flows], ignore_index=True)
    seeds = sorted(int(s) for s in flows["seed"].unique())
    rates = rates_of("mesh40_4gw.json")
    lines = ["| direction | scheme | median (kbit/s) | quartiles | whiskers | outliers | starving (< 10 % of the rate) |",
             "|---|---|---:|---|---|---:|---:|"]
    box: Dict[Tuple[str, str], List[float]] = {}
    starving: Dict[Tuple[str, str], float] = {}
    for direction, suffix in (("uplink", "_up"), ("downlink", "_down")):
        for sc in ("none", "tcc", "lscc"):
            f = flows[(flows["scheme"] == sc) & flows["flow_id"].str.endswith(suffix)]
            vals = [float(x) for x in f["goodput_bps"]]
            st = sum(1 for _, row in f.iterrows() if row["goodput_bps"] < STARVING * rates[row["flow_id"]]) / len(seeds)
            q = quartiles(vals)
            box[(direction, sc)] = vals
            starving[(direction, sc)] = st
            lines.append(f"| {direction} | {NAMES[sc]} | {kbps(q['median'])} | {kbps(q['q1'])}-{kbps(q['q3'])} | "
                         f"{kbps(q['low'])}-{kbps(q['high'])} | {q['outliers']} | {st:.1f} |")
            report.value(f"fig8_{direction}_{sc}_median", kbps(q["median"]), data, udp.data)
            report.value(f"fig8_{direction}_{sc}_starving", f"{st:.1f}".removesuffix(".0"), data, udp.data)
    lines.append("")
    lines.append(f"Snapshot {ex}: the 40 uplink (100 kbit/s) and 40 downlink (300 kbit/s) flows of each of "
                 f"{len(seeds)} run{'s' if len(seeds) > 1 else ''} (seed{'s' if len(seeds) > 1 else ''} "
                 f"{', '.join(map(str, seeds))}) pooled; starving flows per run.")
    report.block("fig8", "\n".join(lines), data, udp.data)
    med = {k: quartiles(x)["median"] for k, x in box.items()}
    full_claim(report, starving[("uplink", "tcc")] > starving[("uplink", "none")] and starving[("uplink", "lscc")] > 0
               and starving[("downlink", "lscc")] > starving[("downlink", "none")]
               and starving[("downlink", "tcc")] > starving[("downlink", "none")],
               "Fig. 8: TCC starves uplink flows, LSCC starves flows too, and both starve more downlink flows than no control")
    full_claim(report, med[("downlink", "tcc")] > med[("downlink", "none")],
               "Fig. 8: TCC raises the downlink median (004 has it lowering it)")
    return box


# ---- snapshot 22 -------------------------------------------------------------------------------

S22_ROWS = [("none", "no congestion control"), ("lscc", "LSCC (004's parameters)"),
            ("lscc_renew50", "LSCC, renewal level 50 % (004: 20 %)"),
            ("lscc_renew60", "LSCC, renewal level 60 %"),
            ("lscc_nolookahead", "LSCC without look-ahead"),
            ("lscc_exclude", "LSCC with exclude_blocked_packets (ours, outside 004)")]


def snapshot22(report: Report, data) -> Runs:
    m = Runs(data)
    seeds = m.seeds()
    lines = ["| configuration | throughput (Mbit/s) | weighted intra-mesh loss (Mbit/s) | forwarded packets lost in buffers | "
             "retry-limit drops after forwarding | local drops | runs with a mutual block |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for sc, label in S22_ROWS:
        r = m.sel(sc)
        if r.empty:
            continue
        lines.append(f"| {label} | {mbps(r['thr'].mean())} | {mbps(r['wloss'].mean())} | {r['buf'].mean():.0f} | "
                     f"{r['retry'].mean():.0f} | {r['local'].mean():.0f} | "
                     f"{'' if sc == 'none' else f'{int((r.n_pairs > 0).sum())} of {len(r)}'} |")
    lines.append("")
    dur = float(m.runs["simulated_time_s"].iloc[0])
    lines.append(f"Snapshot 22, means of run seed{'s' if len(seeds) > 1 else ''} {', '.join(map(str, seeds))} "
                 f"({dur:g} s each). A mutual block: two "
                 "stations each blocked by the other for more than half the run.")
    report.block("snapshot22", "\n".join(lines), data)

    def v(name: str, text: str) -> None:
        report.value(name, text, data)

    def mean_of(sc: str, col: str, seed: Optional[int] = None) -> float:
        r = m.sel(sc, seeds=[seed] if seed is not None else None)
        return float(r[col].mean()) if not r.empty else float("nan")

    s1 = seeds[0]
    v("s22_none_seed1", mbps(mean_of("none", "thr", s1)))
    v("s22_lscc_seed1", mbps(mean_of("lscc", "thr", s1)))
    v("s22_none", mbps(mean_of("none", "thr")))
    v("s22_lscc", mbps(mean_of("lscc", "thr")))
    v("s22_exclude", mbps(mean_of("lscc_exclude", "thr")))
    v("s22_seeds", str(len(seeds)))
    for sc in ("none", "lscc", "lscc_exclude"):
        v(f"s22_buf_{sc}", count(mean_of(sc, "buf")))
        v(f"s22_wloss_{sc}", mbps(mean_of(sc, "wloss")))
    v("s22_intra_none", count(mean_of("none", "drops_intra_mesh")))
    v("s22_intra_lscc", count(mean_of("lscc", "drops_intra_mesh")))
    back = (mean_of("lscc_exclude", "buf") - mean_of("lscc", "buf")) / (mean_of("none", "buf") - mean_of("lscc", "buf"))
    v("s22_return", pct(back))
    v("s22_thr_cut", mbps(mean_of("none", "thr") - mean_of("lscc", "thr")))
    for sc in ("lscc_renew50", "lscc_renew60", "lscc_nolookahead"):
        r = m.sel(sc)
        v(f"s22_{sc}_cut", mbps(mean_of("none", "thr") - mean_of(sc, "thr")) if not r.empty else "n/a")
        v(f"s22_{sc}_pairs", f"{int((r.n_pairs > 0).sum())} of {len(r)}" if not r.empty else "n/a")
        v(f"s22_{sc}_wloss", mbps(mean_of(sc, "wloss")) if not r.empty else "n/a")
        if not r.empty:
            full_claim(report, (r.n_pairs > 0).all() and mean_of("lscc", "thr") < mean_of(sc, "thr") < mean_of("none", "thr")
                       and mean_of("lscc", "wloss") < mean_of(sc, "wloss") < mean_of("none", "wloss"),
                       f"snapshot 22, {sc}: the thresholds change the price, not the collision (a mutual block in every "
                       "run; throughput and intra-mesh loss both between LSCC's and no control's)")
    full_claim(report, mean_of("lscc_exclude", "thr") > mean_of("lscc", "thr")
               and mean_of("lscc_exclude", "buf") > 0.9 * mean_of("none", "buf")
               and mean_of("lscc_exclude", "wloss") > 0.8 * mean_of("none", "wloss"),
               "snapshot 22: exclude_blocked_packets restores throughput only by letting the forwarded packets lost in "
               "buffers rise back to the uncontrolled level (the collision's cost moves back to intra-mesh loss)")

    # The collision traced in seed 1: s1 (GW_SW's relay) and s2.
    rad = m.controller_radios("lscc", None, s1)
    half = float(m.sel("lscc", seeds=[s1])["simulated_time_s"].iloc[0]) / 2 if rad else 90.0
    idx = {x["node"]: x["radio"] for x in rad.values()}

    def blocked_by(a: str, b: str) -> float:
        return rad[a]["blocked_by_radio_s"].get(str(idx[b]), 0.0) if a in rad and b in idx else 0.0

    v("s22_s1_by_s2", f"{blocked_by('s1', 's2'):.0f}")
    v("s22_s2_by_s1", f"{blocked_by('s2', 's1'):.0f}")
    v("s22_gw_by_s1", f"{blocked_by('GW_SW', 's1'):.0f}")
    v("s22_s2_look", str(rad["s2"]["notifications_sent_look_ahead"]) if "s2" in rad else "n/a")
    v("s22_s2_detect", str(rad["s2"]["congestion_detections"]) if "s2" in rad else "n/a")
    v("s22_s1_detect", str(rad["s1"]["congestion_detections"]) if "s1" in rad else "n/a")
    dmax = max((d for x in ("s1", "s2") if x in rad for _, d in rad[x]["duration_over_time"]), default=float("nan"))
    v("s22_dmax", f"{dmax:.4f}")
    cap_t = [t for x in ("s1", "s2") if x in rad for t, d in rad[x]["duration_over_time"] if d >= 6.5]
    v("s22_cap_time", f"{min(cap_t):.0f}" if cap_t else "never")
    dot = rad["s1"]["duration_over_time"] if "s1" in rad else []
    dec_early = sum(1 for (t0, d0), (t1, d1) in zip(dot, dot[1:]) if d1 < d0 and t1 < 50)
    v("s22_s1_decreases_50", str(dec_early))
    pairs = mutual_pairs(list(rad.values()), half)
    others = [p for p in pairs if {p[0], p[1]} != {"s1", "s2"}]
    v("s22_other_pairs", "; ".join(f"{a} and {b} ({ab:.0f} and {ba:.0f} s)" for a, b, ab, ba in others) or "none")
    # The subtree under s1: downlink flows from GW_SW routed through s1.
    f = m.flows
    sub = f[(f["scheme"] == "none") & (f["seed"] == s1) & f["flow_id"].str.endswith("_down")]
    sub_ids = sorted({row["flow_id"] for _, row in sub.iterrows()
                      if len(row["route"]) > 1 and row["route"][0] == "GW_SW" and row["route"][1] == "s1"})
    v("s22_subtree", str(len(sub_ids)))

    def subtree_goodput(sc: str) -> float:
        x = f[(f["scheme"] == sc) & f["flow_id"].isin(sub_ids)]
        return x.groupby("seed")["goodput_bps"].sum().mean() if not x.empty else float("nan")
    v("s22_subtree_none", mbps(subtree_goodput("none")))
    v("s22_subtree_lscc", mbps(subtree_goodput("lscc")))
    v("s22_subtree_exclude", mbps(subtree_goodput("lscc_exclude")))
    n = data.nodes
    n = n.assign(scheme=n["/controllers"].map(scheme_of))
    gw = n[n["node_id"] == "GW_SW"].groupby("scheme")["drops_local"].mean()
    v("s22_gw_local_none", count(gw.get("none", float("nan"))))
    v("s22_gw_local_lscc", count(gw.get("lscc", float("nan"))))
    # The frozen buffers: s1's and s2's queue over the last part of the run (seed 1).
    ts = data.table("timeseries_queue_length")
    frozen = "n/a"
    if not ts.empty:
        ts = ts.assign(scheme=ts["/controllers"].map(scheme_of))
        cols = [c for c in ts.columns if c not in ("scenario", "/controllers", "seed", "topology_seed", "scheme")]
        node_col = next((c for c in ("node", "node_id", "entity", "id") if c in cols), None)
        val_col = next((c for c in ("packets", "value", "queue_packets", "length") if c in cols), None)
        t_col = next((c for c in ("time_s", "t", "time") if c in cols), None)
        if node_col and val_col and t_col:
            x = ts[(ts["scheme"] == "lscc") & (ts["seed"] == s1) & (ts[t_col] >= 60)]
            q = {nd: x[x[node_col] == nd][val_col] for nd in ("s1", "s2")}
            if all(len(s) for s in q.values()):
                frozen = " and ".join(f"{s.min():.0f}" if s.min() == s.max() else f"{s.min():.0f}-{s.max():.0f}"
                                      for s in q.values())
    v("s22_frozen", frozen)
    return m


# ---- options over the 50 snapshots -------------------------------------------------------------


def options(report: Report, udp: Runs, group, exclude) -> None:
    """The options table over the snapshots: block "options" (none, TCC, LSCC, LSCC with
    exclude_blocked_packets), and with `group` block "group" (unicast against
    group-addressed notifications, over the snapshots the group experiment covers)."""
    seed = min(udp.seeds())
    if group is not None:
        rows = [("none", "", udp), ("tcc", "unicast notifications (004's rules)", udp),
                ("tcc_group", "group-addressed notifications", group),
                ("lscc", "unicast notifications (004's rules)", udp),
                ("lscc_group", "group-addressed notifications", group)]
        option_table(report, "group", rows, seed, set(group.snapshots()), [udp.data, group.data])
    rows = [("none", "", udp), ("tcc", "unicast notifications (004's rules)", udp),
            ("lscc", "unicast notifications (004's rules)", udp)]
    if exclude is not None:
        rows.append(("lscc_exclude", "exclude_blocked_packets (ours, outside 004)", exclude))
    option_table(report, "options", rows, seed, set(udp.snapshots()),
                 [udp.data] + ([exclude.data] if exclude is not None else []), udp=udp, exclude=exclude)


def option_table(report: Report, block: str, rows, seed: int, snaps: set, sources, udp=None, exclude=None) -> None:
    def per(src: Runs, sc: str, col: str) -> Dict[int, float]:
        return {k: x for k, x in src.per_snapshot(sc, col, [seed]).items() if k in snaps}
    thr = {sc: per(src, sc, "thr") for sc, _, src in rows}
    lines = [f"| scheme | variant | mean throughput (Mbit/s) | snapshots raised by > {mbps(BAND * OFFERED_UDP)} Mbit/s | "
             "lowered | within | weighted intra-mesh loss (Mbit/s), mean | forwarded packets lost in buffers per run, mean | "
             "retry-limit drops after forwarding per run, mean | local drops per run, mean | snapshots with a mutual block | "
             "notification frames per run, mean |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    stats: Dict[str, Dict[str, float]] = {}
    for sc, variant, src in rows:
        kind = sc.split("_")[0]
        st = {col: mean(per(src, sc, col).values()) for col in ("wloss", "buf", "retry", "local", "mgmt_sent")}
        st["pairs"] = sum(1 for x in per(src, sc, "n_pairs").values() if x > 0)
        st["thr"] = mean(thr[sc].values())
        stats[sc] = st
        if sc == "none":
            lines.append(f"| {NAMES[kind]} | | {mbps(st['thr'])} | | | | {mbps(st['wloss'])} | {st['buf']:.0f} | "
                         f"{st['retry']:.0f} | {st['local']:.0f} | | |")
            continue
        c = changes(thr, sc, OFFERED_UDP)
        stats[sc].update(up=len(c["up"]), down=len(c["down"]), within=c["within"])
        lines.append(f"| {NAMES[kind]} | {variant} | {mbps(st['thr'])} | {len(c['up'])} | {len(c['down'])} | {c['within']} | "
                     f"{mbps(st['wloss'])} | {st['buf']:.0f} | {st['retry']:.0f} | {st['local']:.0f} | {st['pairs']} | "
                     f"{st['mgmt_sent']:.0f} |")
    n = len(thr["none"])
    lines.append("")
    dur = float(rows[0][2].runs["simulated_time_s"].iloc[0])
    lines.append(f"{n} snapshots, run seed {seed}, {dur:g} s. A mutual block: two stations each blocked by the other for "
                 "more than half the run. Notification frames: management frames put on the air, retries included.")
    report.block(block, "\n".join(lines), *sources)

    def v(name: str, text: str) -> None:
        report.value(name, text, *sources)
    if block == "group":
        v("gr_n", str(n))
    if "lscc_exclude" in stats:
        ex, ls, no = stats["lscc_exclude"], stats["lscc"], stats["none"]
        v("ex_up", str(ex["up"]))
        v("ex_down", str(ex["down"]))
        v("ex_thr", mbps(ex["thr"]))
        v("ex_lift", "lifts" if ex["thr"] > no["thr"] + BAND * OFFERED_UDP else
          ("lowers" if ex["thr"] < no["thr"] - BAND * OFFERED_UDP else "leaves"))
        v("ex_none_thr", mbps(no["thr"]))
        v("ex_lscc_thr", mbps(ls["thr"]))
        v("ex_pairs", str(ex["pairs"]))
        v("ex_buf", count(ex["buf"]))
        v("ex_buf_lscc", count(ls["buf"]))
        v("ex_buf_none", count(no["buf"]))
        v("ex_buf_share", pct(ex["buf"] / no["buf"]))
        v("ls_buf_share", pct(ls["buf"] / no["buf"]))
        # the share of the buffer drops LSCC avoided that come back with the option
        v("ex_return", pct((ex["buf"] - ls["buf"]) / (no["buf"] - ls["buf"])))
        v("ex_wloss", mbps(ex["wloss"]))
        v("ex_wloss_lscc", mbps(ls["wloss"]))
        v("ex_wloss_none", mbps(no["wloss"]))
        # where exclude's gain is largest: how much of the loss comes back there
        d_ex = {k: thr["lscc_exclude"][k] - thr["lscc"][k] for k in thr["lscc"]}
        best = sorted(d_ex, key=lambda k: -d_ex[k])[:3]
        v("ex_best", ", ".join(str(k) for k in best))
        bx = per(exclude, "lscc_exclude", "buf")
        bn = per(udp, "none", "buf")
        bl = per(udp, "lscc", "buf")
        v("ex_best_buf", "; ".join(f"{k}: {bn[k]:,.0f}, {bl[k]:,.0f}, {bx[k]:,.0f}" for k in best))
        back = sum(bx[k] - bl[k] for k in best) / max(sum(bn[k] - bl[k] for k in best), 1)
        v("ex_best_return", pct(back))
        v("ex_best_gain", ", ".join(f"{d_ex[k] / 1e6:+.2f}" for k in best))
        g = per(udp, "lscc", "thr")
        top = sorted(g, key=lambda k: -(g[k] - thr["none"][k]))[:2]
        full_claim(report, ex["thr"] > ls["thr"] and ex["buf"] > ls["buf"] and ex["wloss"] > ls["wloss"],
                   "exclude_blocked_packets: more throughput than LSCC at the price of more intra-mesh loss")
        full_claim(report, 0.1 < (ex["buf"] - ls["buf"]) / (no["buf"] - ls["buf"]) < 0.5,
                   "exclude_blocked_packets gives back part (not most, not none) of the buffer drops LSCC avoided")
        # 004's two results in full: throughput raised "nearly always" (lowered in at most a tenth of the snapshots,
        # as lscc_verdict reads it) and the forwarded packets lost in buffers cut by 90 % or more
        both = [sc for sc in stats if sc != "none" and stats[sc]["down"] <= 0.1 * n and stats[sc]["buf"] <= 0.1 * no["buf"]]
        full_claim(report, not both, "no variant gets both of 004's results in full (found: " + ", ".join(both) + ")")
        v("ex_top_gains", "; ".join(f"{k}: {(g[k] - thr['none'][k]) / 1e6:+.2f} to "
                                    f"{(thr['lscc_exclude'][k] - thr['none'][k]) / 1e6:+.2f}" for k in top))
    if "lscc_group" in stats:
        lg, tg, ls, tc = stats["lscc_group"], stats["tcc_group"], stats["lscc"], stats["tcc"]
        v("gr_lscc_pairs", str(lg["pairs"]))
        v("gr_lscc_pairs_unicast", str(ls["pairs"]))
        v("gr_lscc_thr", mbps(lg["thr"]))
        v("gr_lscc_thr_unicast", mbps(ls["thr"]))
        v("gr_lscc_updown", f"{lg['up']} snapshots raised and {lg['down']} lowered against {ls['up']} and {ls['down']}")
        v("gr_lscc_buf", f"{ls['buf']:,.0f} to {lg['buf']:,.0f}")
        v("gr_tcc_buf", f"{tc['buf']:,.0f} to {tg['buf']:,.0f}")
        v("gr_frames", pct(mean([lg["mgmt_sent"] / ls["mgmt_sent"], tg["mgmt_sent"] / tc["mgmt_sent"]])))
        v("gr_lscc_wloss", f"{mbps(ls['wloss'])} to {mbps(lg['wloss'])}")
        v("gr_verdict", "does not explain" if lg["down"] > 0.1 * n else "may explain")
        full_claim(report, lg["buf"] > ls["buf"] and tg["buf"] > tc["buf"] and lg["wloss"] > ls["wloss"],
                   "group-addressed notifications weaken the protection (more forwarded packets lost in buffers under "
                   "both schemes, more weighted intra-mesh loss under LSCC)")


# ---- the renewal rule's readings (issue 40) -----------------------------------------------------


def reading_scheme(at: str, checks: str) -> str:
    if (at, checks) == READINGS[0]:
        return "lscc"
    return "_".join(["lscc", OPTION_KEYS[("renewal_check_at", at)], OPTION_KEYS[("renewal_checks", checks)]])


def runs_word(n: int) -> str:
    """A count of runs in words, as the prose reads it ("three runs")."""
    word = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}.get(n, str(n))
    return f"{word} run{'s' if n != 1 else ''}"


def d_at(series: List[List[float]], t: float) -> float:
    """D at time t from a (time, D) history (a step function)."""
    d = series[0][1] if series else float("nan")
    for when, x in series:
        if when > t:
            break
        d = x
    return d


def history_interval(data) -> Optional[float]:
    """The interval at which an experiment stored its controllers' D histories (its `history_interval_s`), or None
    when it stored them as run."""
    return data.provenance.get("history_interval_s")


def d_history(radio: dict, interval: Optional[float]) -> List[List[float]]:
    """A station's D history, sampled at the multiples of `interval` (as an experiment with history_interval_s
    stores it), so that runs stored as run and runs stored sampled are read alike; as stored when None."""
    from wmnsim.reproduce import sample_history

    series = radio["duration_over_time"]
    return sample_history(series, interval) if interval else series


def d_summary(src: Runs, scheme: str, snaps: set, seeds: Sequence[int], times: Sequence[float],
              interval: Optional[float] = None) -> Dict[str, float]:
    """D over the runs of `scheme`: increases per run, stations at the cap per run, the first time one reaches it
    (median over the runs where one does; to `interval`, the first multiple at the cap), and the mean D at `times`
    over the stations that notified. The histories are read sampled at `interval` (d_history)."""
    c = src.controllers
    c = c[(c["scheme"] == scheme) & c["seed"].isin(list(seeds)) & c["topology_seed"].isin(list(snaps))]
    inc, capped, first, at = [], [], [], {t: [] for t in times}
    for _, row in c.iterrows():
        radios = [x for x in radios_of(row) if x["notifications_sent"] > 0]
        histories = [d_history(x, interval) for x in radios]
        inc.append(sum(x["duration_increases"] for x in radios))
        capped.append(sum(1 for h in histories if any(d >= D_CAP - 1e-9 for _, d in h)))
        hits = [next(w for w, d in h if d >= D_CAP - 1e-9) for h in histories if any(d >= D_CAP - 1e-9 for _, d in h)]
        if hits:
            first.append(min(hits))
        for t in times:
            ds = [d_at(h, t) for h in histories]
            if ds:
                at[t].append(mean(ds))
    return {"runs": len(c), "increases": mean(inc), "capped": mean(capped),
            "first_cap": statistics.median(first) if first else float("nan"), "first_cap_runs": len(first),
            **{f"d{t:g}": mean(at[t]) for t in times}}


def pair_blocked(src: Runs, scheme: str, snaps: set, seeds: Sequence[int]) -> float:
    """The mean time (s) a member of a mutually blocked pair is blocked by the other, over the pairs of the runs of
    `scheme` (NaN without pairs): how much of the run the collisions hold, which a lag before each renewal shortens."""
    c = src.controllers
    c = c[(c["scheme"] == scheme) & c["seed"].isin(list(seeds)) & c["topology_seed"].isin(list(snaps))]
    held = [(ab + ba) / 2 for pairs in c["pairs"] for _, _, ab, ba in pairs]
    return mean(held) if held else float("nan")


def paired_interval(a: Dict[int, float], b: Dict[int, float]) -> Tuple[float, float]:
    """The 95 % t interval of the mean of a[k] - b[k] over the snapshots both have."""
    from scipy import stats as sst

    d = [a[k] - b[k] for k in sorted(set(a) & set(b))]
    m = mean(d)
    if len(d) < 2:
        return m, m
    h = float(sst.t.ppf(0.975, len(d) - 1)) * statistics.stdev(d) / len(d) ** 0.5
    return m - h, m + h


RT_VALUES = ("rt_tcc_thr", "rt_tcc_classes", "rt_tcc_pairs", "rt_tcc_verdict")


def renewal_tcc(report: Report, udp: Runs, rt: Runs) -> None:
    """Block renewal_tcc and its values: TCC with the renewal check before (wmnsim's default, udp's TCC runs), at and
    10 ms after the notification's expiry (experiment renewal_tcc), each snapshot classified against no control as
    in "How many runs"."""
    seeds, snaps = rt.seeds(), set(rt.snapshots())
    rows = [("before_expiry", "tcc"), ("at_expiry", "tcc_at"), ("after_expiry", "tcc_after")]
    rows = [(at, sc) for at, sc in rows if (udp if sc == "tcc" else rt).has(sc)]

    def v(name: str, text: str) -> None:
        report.value(name, text, udp.data, rt.data)
    if len(rows) < 3 or not udp.has("none"):  # (the quick run: one reading, one snapshot)
        report.block("renewal_tcc", "Not run in full: the quick variant has one reading.", udp.data, rt.data)
        for name in RT_VALUES:
            v(name, "n/a")
        return
    band_bps = BAND * OFFERED_UDP

    def src(sc: str) -> Runs:
        return udp if sc in ("none", "tcc") else rt

    def runs_of(sc: str) -> Dict[int, List[float]]:
        r = src(sc).sel(sc, seeds=seeds)
        return {int(k): g.tolist() for k, g in r.groupby("snapshot")["thr"] if int(k) in snaps}

    def per(sc: str, col: str) -> Dict[int, float]:
        return {k: x for k, x in src(sc).per_snapshot(sc, col, seeds).items() if k in snaps}
    base = runs_of("none")
    stats: Dict[str, Dict[str, Any]] = {}
    for at, sc in rows:
        x = runs_of(sc)
        st: Dict[str, Any] = {col: mean(per(sc, col).values()) for col in ("thr", "wloss", "buf", "notifications_sent")}
        st["pairs"] = sum(1 for p in per(sc, "n_pairs").values() if p > 0)
        cls = [classify(x[k], base[k], band_bps)[0] for k in sorted(x) if k in base]
        st.update({c: cls.count(c) for c in CLASSES})
        stats[at] = st
    none = {col: mean(per("none", col).values()) for col in ("thr", "wloss", "buf")}
    lines = ["| TCC, check runs | mean throughput (Mbit/s) | snapshots by the 95 % Welch interval: raised | lowered | "
             "unchanged | undetermined | weighted intra-mesh loss (Mbit/s), mean | forwarded packets lost in buffers per "
             "run, mean | snapshots with a mutual block | notifications sent per run, mean |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
             f"| no congestion control | {mbps(none['thr'])} | | | | | {mbps(none['wloss'])} | {none['buf']:.0f} | | |"]
    for at, _ in rows:
        st = stats[at]
        tag = " (wmnsim's default)" if at == "before_expiry" else ""
        lines.append(f"| {READING_TEXT[at]}{tag} | {mbps(st['thr'])} | {st['raised']} | {st['lowered']} | "
                     f"{st['unchanged']} | {st['undetermined']} | {mbps(st['wloss'])} | {st['buf']:.0f} | {st['pairs']} | "
                     f"{st['notifications_sent']:.0f} |")
    dur = float(rt.runs["simulated_time_s"].iloc[0])
    lines += ["", f"TCC with UDP, {len(snaps)} snapshots, run seeds {', '.join(map(str, seeds))}, {dur:g} s, one check per "
              "notified neighbour; the default's runs are udp's TCC runs of the same snapshots and seeds. Classes as in "
              "the table above."]
    report.block("renewal_tcc", "\n".join(lines), udp.data, rt.data)
    b, a, f_ = stats["before_expiry"], stats["at_expiry"], stats["after_expiry"]
    v("rt_tcc_thr", f"{mbps(b['thr'])} Mbit/s with the check before expiry, {mbps(a['thr'])} at it and "
                    f"{mbps(f_['thr'])} after it")
    v("rt_tcc_classes", f"raised {b['raised']}, {a['raised']} and {f_['raised']} of {len(snaps)} snapshots and lowered "
                        f"{b['lowered']}, {a['lowered']} and {f_['lowered']}")
    v("rt_tcc_pairs", f"{b['pairs']}, {a['pairs']} and {f_['pairs']}")
    worse = [at for at in ("before_expiry", "at_expiry", "after_expiry") if stats[at]["lowered"] > stats[at]["raised"]]
    v("rt_tcc_verdict", "holds under all three" if len(worse) == 3 else
      ("holds under none" if not worse else "holds only " + " and ".join(READING_TEXT[w] for w in worse)))


def renewal(report: Report, udp: Runs, ren: Runs) -> None:
    """Blocks renewal, renewal_d, renewal_snapshots: LSCC under the six readings of the renewal rule, on the
    snapshots and run seeds the renewal experiment covers (the default reading from udp's runs of the same)."""
    import pandas as pd

    seeds, snaps = ren.seeds(), set(ren.snapshots())
    present = [r for r in READINGS if r == READINGS[0] or ren.has(reading_scheme(*r))]

    def per(scheme: str, col: str) -> Dict[int, float]:
        src = udp if scheme in ("none", "lscc") else ren
        return {k: x for k, x in src.per_snapshot(scheme, col, seeds).items() if k in snaps}
    def runs_of(scheme: str) -> Dict[int, List[float]]:
        """snapshot -> the throughput of each of its runs (the renewal experiment's seeds)."""
        src = udp if scheme in ("none", "lscc") else ren
        r = src.sel(scheme, seeds=seeds)
        return {int(k): g.tolist() for k, g in r.groupby("snapshot")["thr"] if int(k) in snaps}
    thr = {"none": per("none", "thr")}
    base = runs_of("none")
    # renewal stores D sampled (its history_interval_s); udp's rows of the default reading are read alike.
    interval = history_interval(ren.data)
    band_bps = BAND * OFFERED_UDP
    stats: Dict[Tuple[str, str], Dict[str, Any]] = {}
    for r in present:
        sc = reading_scheme(*r)
        thr[sc] = per(sc, "thr")
        st: Dict[str, Any] = {col: mean(per(sc, col).values()) for col in ("thr", "wloss", "buf", "retry", "local", "mgmt_sent")}
        st["pairs"] = sum(1 for x in per(sc, "n_pairs").values() if x > 0)
        c = changes(thr, sc, OFFERED_UDP)
        st.update(n=c["n"], d=c["d"])
        x = runs_of(sc)
        st["cls"] = {k: classify(x[k], base[k], band_bps)[0] for k in sorted(x) if k in base}
        st.update({c_: sum(1 for v in st["cls"].values() if v == c_) for c_ in CLASSES})
        st["dd"] = d_summary(udp if sc == "lscc" else ren, sc, snaps, seeds, (30.0, 90.0, 180.0), interval)
        st["pair_blocked"] = pair_blocked(udp if sc == "lscc" else ren, sc, snaps, seeds)
        stats[r] = st
    none = {col: mean(per("none", col).values()) for col in ("thr", "wloss", "buf", "retry", "local")}
    n = len(thr["none"])
    band = mbps(BAND * OFFERED_UDP)
    lines = ["| check runs | checks | mean throughput (Mbit/s) | snapshots by the 95 % Welch interval: raised | lowered | "
             "unchanged | undetermined | "
             "weighted intra-mesh loss (Mbit/s), mean | forwarded packets lost in buffers per run, mean | "
             "retry-limit drops after forwarding per run, mean | local drops per run, mean | snapshots with a mutual block | "
             "notification frames per run, mean |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
             f"| no congestion control | | {mbps(none['thr'])} | | | | | {mbps(none['wloss'])} | {none['buf']:.0f} | "
             f"{none['retry']:.0f} | {none['local']:.0f} | | |"]
    for r in present:
        st = stats[r]
        tag = " (wmnsim's default)" if r == READINGS[0] else ""
        lines.append(f"| {READING_TEXT[r[0]]}{tag} | {READING_TEXT[r[1]]} | {mbps(st['thr'])} | {st['raised']} | "
                     f"{st['lowered']} | {st['unchanged']} | {st['undetermined']} | {mbps(st['wloss'])} | {st['buf']:.0f} | "
                     f"{st['retry']:.0f} | {st['local']:.0f} | {st['pairs']} | {st['mgmt_sent']:.0f} |")
    dur = float(ren.runs["simulated_time_s"].iloc[0])
    seeds_text = f"run seed{'s' if len(seeds) > 1 else ''} {', '.join(map(str, seeds))}"
    lines += ["", f"LSCC, {n} snapshots ({', '.join(map(str, sorted(snaps))) if n < 50 else '1 to 50'}), {seeds_text}, "
              f"{dur:g} s; a snapshot's number is the mean of its runs. Each snapshot is classified as in \"How many "
              f"runs\" below: by the 95 % Welch interval of its change against no control (the same seeds), raised or "
              f"lowered when the interval excludes 0 and the change exceeds {band} Mbit/s, unchanged when the interval "
              f"lies within +-{band} Mbit/s, undetermined otherwise (with {runs_word(len(seeds))} a side the interval "
              "is wide). A mutual "
              "block: two stations each blocked by the other for more than half the run. Notification frames: management "
              "frames put on the air, retries included. The default reading's runs are udp's LSCC runs of the same "
              "snapshots and seeds."]
    sources = [udp.data, ren.data]
    report.block("renewal", "\n".join(lines), *sources)

    lines = ["| check runs | checks | D increases per run (all stations) | stations reaching the 6.55-s cap per run | "
             "first station at the cap (s, median) | mean D of the notifying stations at 30 s (s) | at 90 s | at 180 s |",
             "|---|---|---:|---:|---:|---:|---:|---:|"]
    for r in present:
        dd = stats[r]["dd"]
        first = f"{dd['first_cap']:.1f} ({dd['first_cap_runs']} of {dd['runs']} runs)" if dd["first_cap_runs"] else "never"
        lines.append(f"| {READING_TEXT[r[0]]} | {READING_TEXT[r[1]]} | {dd['increases']:.0f} | {dd['capped']:.1f} | "
                     f"{first} | {dd['d30']:.2f} | {dd['d90']:.2f} | {dd['d180']:.2f} |")
    sampled = (f" The stored D histories are D at every {interval:g} s (the experiment's `history_interval_s`; udp's "
               f"are read the same way): D at 30, 90 and 180 s is exact, and a station's time at the cap is the first "
               f"multiple of {interval:g} s at which it is there.") if interval else ""
    lines += ["", "From the controllers' statistics (`duration_increases`, `duration_over_time`) of the same runs; a "
              "notifying station is one that sent at least one notification." + sampled]
    report.block("renewal_d", "\n".join(lines), *sources)

    lines = ["| snapshot | throughput, none (Mbit/s) | " + " | ".join(
        f"{OPTION_KEYS[('renewal_check_at', a)]}, {'last used' if c == 'last_used' else 'per neighbour'}"
        for a, c in present) + " |", "|---:|---:|" + "---:|" * len(present)]
    for k in sorted(snaps, key=lambda k: (thr["none"][k], k)):
        lines.append(f"| {k} | {mbps(thr['none'][k])} | " + " | ".join(
            f"{stats[r]['d'][k] / 1e6:+.2f} {CLASS_MARK[stats[r]['cls'][k]]}" for r in present) + " |")
    lines += ["", "LSCC's change of throughput against no control (Mbit/s) per snapshot and reading, sorted by the "
              "throughput without control (as Fig. 7), with its class by the 95 % Welch interval: r raised, l lowered, "
              "u unchanged, ? undetermined."]
    report.block("renewal_snapshots", "\n".join(lines), *sources)

    def v(name: str, text: str) -> None:
        report.value(name, text, *sources)
    v("rn_runs", f"{n} snapshots x {len(seeds)} run{'s' if len(seeds) > 1 else ''} ({seeds_text})")
    v("rn_per_snapshot", f"{runs_word(len(seeds))} per snapshot")
    v("rn_missing", ", ".join(f"{READING_TEXT[a]} with {READING_TEXT[c]}" for a, c in READINGS if (a, c) not in present)
      or "none")
    # False MAC duplicates (docs/mac.md): recorded since the build that added seed 3; the older runs' column is null
    # (a run with one stopped on the conservation check then, so none of them had one).
    fd = ren.runs["drops.false_duplicate"] if "drops.false_duplicate" in ren.runs.columns else pd.Series(dtype=float)
    recorded = fd.dropna()
    v("rn_false_dup", f"{int((recorded > 0).sum())} of the {len(recorded)} runs that record it "
      f"({int(recorded.sum())} packet{'s' if int(recorded.sum()) != 1 else ''})")
    # 004's LSCC claim, read as for udp: lowered in at most a tenth of the snapshots (by the Welch interval: lowered
    # beyond the seeds' spread)
    good = [r for r in present if stats[r]["lowered"] <= 0.1 * stats[r]["n"]]
    v("rn_verdict", "none of them" if not good else
      ", ".join(f"{READING_TEXT[a]} with {READING_TEXT[c]}" for a, c in good))

    def updown(st: Dict[str, Any]) -> str:
        return f"{st['raised']} raised, {st['lowered']} lowered, {st['undetermined']} undetermined"
    # The highest mean, named only where it stands out of the uncertainty: the 95 % t interval of the mean paired
    # difference over the snapshots (each snapshot's mean over its runs) against every other reading excludes 0.
    best = max(present, key=lambda r: stats[r]["thr"])
    ties = [r for r in present if r != best and paired_interval(stats[best]["d"], stats[r]["d"])[0] <= 0]
    if ties:
        v("rn_best", "no reading stands out: the highest mean, "
          f"{READING_TEXT[best[0]]} with {READING_TEXT[best[1]]} ({mbps(stats[best]['thr'])} Mbit/s), ties within the "
          "uncertainty with " + ("every other reading" if len(ties) == len(present) - 1 else
                                  f"{len(ties)} of the other {len(present) - 1}") + " (the 95 % interval of the mean paired "
          "difference over the snapshots includes 0)")
    else:
        v("rn_best", f"the highest mean throughput, beyond the uncertainty, comes with {READING_TEXT[best[0]]} with "
          f"{READING_TEXT[best[1]]} ({mbps(stats[best]['thr'])} Mbit/s; {updown(stats[best])})")
    v("rn_range_thr", f"{min(stats[r]['thr'] for r in present) / 1e6:.2f} to {max(stats[r]['thr'] for r in present) / 1e6:.2f}")
    v("rn_default_thr", mbps(stats[READINGS[0]]["thr"]))
    v("rn_default_updown", updown(stats[READINGS[0]]))
    v("rn_lowered", ", ".join(str(stats[r]["lowered"]) for r in present))
    v("rn_none_thr", mbps(none["thr"]))
    lu = [r for r in present if r[1] == "last_used"]
    pn = [r for r in present if r[1] == "per_neighbour"]
    v("rn_inc_pn", f"{mean([stats[r]['dd']['increases'] for r in pn]):.0f}")
    v("rn_inc_lu", f"{mean([stats[r]['dd']['increases'] for r in lu]):.0f}" if lu else "n/a")
    v("rn_pairs", ", ".join(f"{stats[r]['pairs']}" for r in present))
    v("rn_buf_range", f"{min(stats[r]['buf'] for r in present):,.0f} to {max(stats[r]['buf'] for r in present):,.0f}")
    v("rn_buf_none", count(none["buf"]))
    v("rn_wloss_range", f"{min(stats[r]['wloss'] for r in present) / 1e6:.2f} to "
                        f"{max(stats[r]['wloss'] for r in present) / 1e6:.2f}")
    v("rn_wloss_none", mbps(none["wloss"]))
    dflt = stats[READINGS[0]]
    v("rn_default_pairs", str(dflt["pairs"]))
    v("rn_default_buf", count(dflt["buf"]))
    after = [r for r in present if r[0] == "after_expiry"]
    v("rn_default_pair_blocked", f"{dflt['pair_blocked']:.0f}")
    if after:
        v("rn_after_pairs", " and ".join(str(stats[r]["pairs"]) for r in after))
        v("rn_after_thr", " and ".join(mbps(stats[r]["thr"]) for r in after))
        v("rn_after_updown", " and ".join(updown(stats[r]) for r in after))
        v("rn_after_buf", " and ".join(count(stats[r]["buf"]) for r in after))
        v("rn_after_wloss", " and ".join(mbps(stats[r]["wloss"]) for r in after))
        v("rn_after_pair_blocked", " and ".join(f"{stats[r]['pair_blocked']:.0f}" for r in after))
        mp = mean([stats[r]["pairs"] for r in after])
        v("rn_after_word", "fewer" if mp < dflt["pairs"] - 2 else ("more" if mp > dflt["pairs"] + 2 else "about as many"))
    else:
        for name in ("rn_after_pairs", "rn_after_thr", "rn_after_updown", "rn_after_buf", "rn_after_wloss", "rn_after_word",
                     "rn_after_pair_blocked"):
            v(name, "n/a")
    better = ("before_expiry", "last_used")
    if better in stats:
        b = stats[better]
        v("rn_better_thr", mbps(b["thr"]))
        v("rn_better_updown", updown(b))
        v("rn_better_pairs", str(b["pairs"]))
        v("rn_better_inc", f"{b['dd']['increases']:.0f}")
    else:  # (the quick runs leave it out)
        for name in ("rn_better_thr", "rn_better_updown", "rn_better_pairs", "rn_better_inc"):
            v(name, "n/a")
    v("rn_default_inc", f"{dflt['dd']['increases']:.0f}")
    if lu:
        full_claim(report, all(stats[r]["dd"]["increases"] < mean([stats[q]["dd"]["increases"] for q in pn]) for r in lu),
                   "one check per period (last used) multiplies D less often than one per notified neighbour")
    full_claim(report, len(good) in (0, len(present)),
               "the verdict on LSCC's 'nearly always' does not turn on the reading of the renewal rule")
    full_claim(report, all(stats[r]["buf"] < 0.25 * none["buf"] for r in present),
               "every reading keeps most of the protection: forwarded packets lost in buffers under a quarter of the "
               "uncontrolled level")


def classify(x: Sequence[float], base: Sequence[float], band: float) -> Tuple[str, float, float]:
    """raised / lowered / unchanged / undetermined for a snapshot's runs `x` under a scheme against its runs `base`
    without control, by the 95 % Welch interval (lo, hi) of the difference of the means: raised when the interval
    lies above 0 and the difference exceeds the band, lowered likewise below, unchanged when the interval lies
    within the band, undetermined otherwise (the seeds' spread does not tell; also with a single run a side, where
    there is no spread to measure)."""
    from scipy import stats as sst

    d = mean(x) - mean(base)
    if len(x) < 2 or len(base) < 2:
        return "undetermined", float("nan"), float("nan")
    va, vb = statistics.variance(x) / len(x), statistics.variance(base) / len(base)
    se = (va + vb) ** 0.5
    if se == 0:
        lo = hi = d
    else:
        df = (va + vb) ** 2 / (va ** 2 / (len(x) - 1) + vb ** 2 / (len(base) - 1))
        h = float(sst.t.ppf(0.975, df)) * se
        lo, hi = d - h, d + h
    if lo > 0 and d > band:
        return "raised", lo, hi
    if hi < 0 and d < -band:
        return "lowered", lo, hi
    if -band <= lo and hi <= band:
        return "unchanged", lo, hi
    return "undetermined", lo, hi


def spread(report: Report, udp: Runs, more: Optional[Runs] = None) -> None:
    """Block spread: per scheme the spread of the throughput over udp's run seeds per snapshot, and the
    classification of each snapshot by the band alone and by the 95 % Welch interval (classify)."""
    seeds = udp.seeds()
    snaps = udp.snapshots()
    band = BAND * OFFERED_UDP
    if len(seeds) < 2:  # (the quick runs: one seed, no spread to measure)
        report.block("spread", f"One run per snapshot ({len(snaps)} snapshots): no spread to measure.", udp.data)
        for name in ("sp_runs", "sp_lscc_sd", "sp_lscc_sd_max", "sp_lscc_range_max", "sp_tcc_range_max", "sp_wide",
                     "sp_pairs_differ",
                     "sp_lscc_t", "sp_tcc_t", "sp_lscc_band", "sp_lscc_disagree", "sp_lscc_verdict", "sp_verdict"):
            report.value(name, str(len(seeds)) if name == "sp_runs" else "n/a", udp.data)
        for name in ("sp_more_seeds", "sp_more_n", "sp_more_result", "sp_lscc_t5"):
            report.value(name, "n/a", *([udp.data] + ([more.data] if more is not None else [])))
        return
    lines = ["| scheme | runs per snapshot | throughput's standard deviation over the seeds (Mbit/s): median | max (snapshot) | "
             f"snapshots whose seeds span more than {mbps(2 * band)} Mbit/s | "
             f"by the band of {mbps(band)} Mbit/s: raised | lowered | within | "
             "by the 95 % Welch interval: raised | lowered | unchanged | undetermined |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    out: Dict[str, Dict[str, Any]] = {}

    def by_snapshot(sc: str) -> Dict[int, List[float]]:
        return {int(k): g.tolist() for k, g in udp.sel(sc).groupby("snapshot")["thr"]}
    base = by_snapshot("none")
    for sc in ("none", "tcc", "lscc"):
        x = by_snapshot(sc)
        sd = {k: statistics.stdev(v) for k, v in x.items()}
        row: Dict[str, Any] = {"sd_med": statistics.median(sd.values()), "sd_max": max(sd.values()),
                               "sd_max_at": max(sd, key=lambda k: sd[k]),
                               "wide": sum(1 for v in x.values() if max(v) - min(v) > 2 * band),
                               "range_max_at": max(x, key=lambda k: max(x[k]) - min(x[k]))}
        pairs = {int(k): g.tolist() for k, g in udp.sel(sc).groupby("snapshot")["n_pairs"]}
        row["wide_pairs_differ"] = sum(1 for k, v in x.items() if max(v) - min(v) > 2 * band
                                       and len(set(pairs.get(k, [0]))) > 1)
        k = row["range_max_at"]
        row["range_max"] = f"{min(x[k]) / 1e6:.2f} to {max(x[k]) / 1e6:.2f} Mbit/s in snapshot {k}"
        if sc == "none":
            lines.append(f"| {NAMES[sc]} | {len(seeds)} | {row['sd_med'] / 1e6:.2f} | {row['sd_max'] / 1e6:.2f} "
                         f"({row['sd_max_at']}) | {row['wide']} | | | | | | | |")
            out[sc] = row
            continue
        by_band = changes({sc: {k: mean(v) for k, v in x.items()}, "none": {k: mean(v) for k, v in base.items()}},
                          sc, OFFERED_UDP)
        cls = {k: classify(x[k], base[k], band)[0] for k in snaps}
        count_of = {c: sum(1 for k in snaps if cls[k] == c) for c in ("raised", "lowered", "unchanged", "undetermined")}
        moved = set(by_band["up"]) | set(by_band["down"])
        row.update(b_up=len(by_band["up"]), b_down=len(by_band["down"]), b_within=by_band["within"], **count_of,
                   band_undetermined=sum(1 for k in moved if cls[k] == "undetermined"), n_moved=len(moved))
        lines.append(f"| {NAMES[sc]} | {len(seeds)} | {row['sd_med'] / 1e6:.2f} | {row['sd_max'] / 1e6:.2f} "
                     f"({row['sd_max_at']}) | {row['wide']} | {row['b_up']} | {row['b_down']} | {row['b_within']} | "
                     f"{row['raised']} | {row['lowered']} | {row['unchanged']} | {row['undetermined']} |")
        out[sc] = row
    lines += ["", f"{len(snaps)} snapshots of experiment udp, run seeds {', '.join(map(str, seeds))}, 180 s. The 95 % "
              "Welch interval is that of the difference between a snapshot's mean throughput under the scheme and "
              "without control (unequal variances, Welch-Satterthwaite degrees of freedom): raised when it lies above 0 "
              f"and the difference exceeds {mbps(band)} Mbit/s, lowered likewise below, unchanged when it lies within "
              f"+-{mbps(band)} Mbit/s, undetermined otherwise."]
    report.block("spread", "\n".join(lines), udp.data)

    def v(name: str, text: str) -> None:
        report.value(name, text, udp.data)
    ls, tc = out["lscc"], out["tcc"]
    v("sp_runs", str(len(seeds)))
    v("sp_lscc_sd", f"{ls['sd_med'] / 1e6:.2f}")
    v("sp_lscc_sd_max", f"{ls['sd_max'] / 1e6:.2f} Mbit/s (snapshot {ls['sd_max_at']})")
    v("sp_lscc_range_max", ls["range_max"])
    v("sp_tcc_range_max", tc["range_max"])
    v("sp_wide", f"{ls['wide']} snapshots under LSCC and {tc['wide']} under TCC (without control: {out['none']['wide']})")
    v("sp_lscc_t", f"{ls['raised']} raised, {ls['lowered']} lowered, {ls['unchanged']} unchanged and "
                   f"{ls['undetermined']} undetermined")
    v("sp_tcc_t", f"{tc['raised']} raised, {tc['lowered']} lowered, {tc['unchanged']} unchanged and "
                  f"{tc['undetermined']} undetermined")
    v("sp_lscc_band", f"{ls['b_up']} raised, {ls['b_down']} lowered, {ls['b_within']} within")
    v("sp_lscc_disagree", f"{ls['band_undetermined']} of the {ls['n_moved']}")
    v("sp_pairs_differ", f"{ls['wide_pairs_differ']} of LSCC's {ls['wide']} and {tc['wide_pairs_differ']} of TCC's "
                         f"{tc['wide']}")
    v("sp_lscc_verdict", "not reproduced" if ls["lowered"] > 0.1 * len(snaps) else "reproduced")
    v("sp_verdict", "does not hold" if ls["wide"] + tc["wide"] > 0 else "holds")
    if more is not None:
        # More seeds where udp's leave LSCC undetermined (experiment more_seeds): pooled with udp's.
        def pooled(sc: str, k: int) -> List[float]:
            return (udp.sel(sc)[udp.sel(sc)["snapshot"] == k]["thr"].tolist()
                    + more.sel(sc)[more.sel(sc)["snapshot"] == k]["thr"].tolist())
        ks = more.snapshots()
        first = {k: classify(pooled("lscc", k)[:len(seeds)], pooled("none", k)[:len(seeds)], band)[0] for k in ks}
        again = {k: classify(pooled("lscc", k), pooled("none", k), band)[0] for k in ks}
        totals = {c: sum(1 for k in snaps if (again[k] if k in again else
                                              classify(udp.sel("lscc")[udp.sel("lscc")["snapshot"] == k]["thr"].tolist(),
                                                       base[k], band)[0]) == c)
                  for c in ("raised", "lowered", "unchanged", "undetermined")}
        srcs = [udp.data, more.data]
        report.value("sp_more_seeds", " and ".join(map(str, more.seeds())), *srcs)
        report.value("sp_more_n", str(len(ks)), *srcs)
        report.value("sp_more_result", ", ".join(f"{sum(1 for k in ks if again[k] == c)} {c}" for c in
                                                 ("raised", "lowered", "unchanged", "undetermined")), *srcs)
        report.value("sp_lscc_t5", f"{totals['raised']} raised, {totals['lowered']} lowered, {totals['unchanged']} "
                                   f"unchanged and {totals['undetermined']} undetermined", *srcs)
        full_claim(report, sum(1 for k in ks if again[k] == "undetermined") > len(ks) / 2,
                   "two more seeds leave most of these snapshots undetermined")
        full_claim(report, all(first[k] == "undetermined" for k in ks),
                   "more_seeds covers the snapshots udp's seeds leave undetermined for LSCC")
    full_claim(report, out["none"]["sd_med"] < ls["sd_max"] / 10 and ls["wide"] > 0 and tc["wide"] > 0,
               "without control the seeds barely differ; under the congestion controls some snapshots' seeds span "
               "more than twice the band")


# ---- TCP ---------------------------------------------------------------------------------------


def tcp_blocks(report: Report, data, tag: str, counted: str, offered: float) -> Tuple[Runs, dict, dict]:
    m = Runs(data)
    snapshots = m.snapshots()
    schemes = ("none", "tcc", "lscc")
    if counted:
        f = m.flows[m.flows["flow_id"].str.contains(counted)]
        tcp = f.groupby(["scheme", "seed", "topology_seed"])["goodput_bps"].sum().groupby(["scheme", "topology_seed"]).mean()
        thr = {sc: {int(k): float(v) for k, v in tcp[sc].items()} for sc in schemes}
    else:
        thr = {sc: m.per_snapshot(sc, "thr") for sc in schemes}
    total = {sc: m.per_snapshot(sc, "thr") for sc in schemes}
    band = mbps(BAND * offered)
    ch = {sc: changes(thr, sc, offered) for sc in ("tcc", "lscc")}
    lines = change_table(thr, offered, "TCP throughput")
    if counted:
        udp = {sc: mean([total[sc][k] - thr[sc][k] for k in snapshots]) for sc in schemes}
        lines.append("")
        lines.append("Bursty UDP throughput, mean over the snapshots: " +
                     ", ".join(f"{NAMES[sc]} {mbps(udp[sc])} Mbit/s" for sc in schemes) + " (004: roughly 8).")
    report.block(tag + "fig7_summary", "\n".join(lines), data)
    lines = ["| scheme | weighted intra-mesh loss (Mbit/s), mean | snapshots with forwarded packets lost in buffers | "
             "such packets per run, mean (max) | retry-limit drops after forwarding per run, mean | local drops per run, mean | "
             "notifications sent per run, mean |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    stats = {}
    for sc in schemes:
        b = list(m.per_snapshot(sc, "buf").values())
        stats[sc] = {"buf": mean(b), "buf_n": sum(1 for x in b if x > 0), "sent": mean(m.per_snapshot(sc, "notifications_sent").values()),
                     "wloss": mean(m.per_snapshot(sc, "wloss").values()), "retry": mean(m.per_snapshot(sc, "retry").values())}
        lines.append(f"| {NAMES[sc]} | {mbps(stats[sc]['wloss'])} | {stats[sc]['buf_n']} | {mean(b):.0f} ({max(b):.0f}) | "
                     f"{stats[sc]['retry']:.0f} | {mean(m.per_snapshot(sc, 'local').values()):.0f} | {stats[sc]['sent']:.0f} |")
    report.block(tag + "loss", "\n".join(lines), data)
    return m, ch, stats


def tcp_alone(report: Report, data) -> None:
    m, ch, stats = tcp_blocks(report, data, "tcponly_", "", OFFERED_UDP)

    def v(name: str, text: str) -> None:
        report.value(name, text, data)
    v("tcponly_buf", f"{stats['none']['buf']:.0f}")
    v("tcponly_buf_n", str(stats["none"]["buf_n"]))
    v("tcponly_sent_tcc", f"{stats['tcc']['sent']:.0f}")
    v("tcponly_sent_lscc", f"{stats['lscc']['sent']:.0f}")
    v("tcponly_within_tcc", str(ch["tcc"]["within"]))
    v("tcponly_within_lscc", str(ch["lscc"]["within"]))
    v("tcponly_wloss", mbps(stats["none"]["wloss"]))
    full_claim(report, stats["none"]["retry"] > 10 * stats["none"]["buf"],
               "TCP alone: the remaining intra-mesh loss is mostly retry-limit drops after forwarding")
    v("tcponly_n", str(len(m.snapshots())))
    sent = m.per_snapshot("lscc", "notifications_sent")
    # Issue 22: the runs (and the quick runs, of snapshot 35) exercise the controllers.
    report.claim(sum(sent.values()) > 0, "TCP alone: LSCC sends notifications in the runs (they exercise the controller)")
    full_claim(report, sent.get(1) == 0 and max(sent, key=sent.get) == 35,
               "TCP alone: LSCC sends no notification in snapshot 1 and the most in snapshot 35 (the references' choice)")
    n = len(m.snapshots())
    verdict = "reproduced" if min(ch["tcc"]["within"], ch["lscc"]["within"]) >= 0.9 * n else "not reproduced"
    v("tcponly_verdict", verdict.capitalize())
    v("tcponly_verdict_lc", verdict)


# ---- assumptions made visible (issue 40 section 3) ---------------------------------------------------------------

MIX_TEXT = {"mesh40_4gw_mix_reverse": "100 down, 300 up (the reverse)", "mesh40_4gw_mix_up": "400 up only",
            "mesh40_4gw_mix_down": "400 down only"}
BURST_TEXT = {"mesh40_4gw_tcp_bursty": "on/off, 1 s means (wmnsim's model)",
              "mesh40_4gw_tcp_bursty_long": "on/off, 5 s means"}


def scheme_rows(m: Runs, scenario: str, thr: Dict[str, Dict[int, float]], offered: float,
                seeds: Optional[Sequence[int]] = None, snaps: Optional[set] = None) -> Dict[str, Dict[str, Any]]:
    """Per scheme of one scenario (its runs of `seeds` and `snaps`, default all): the mean of thr and the losses over
    the snapshots, and the changes (band)."""
    out: Dict[str, Dict[str, Any]] = {}
    for sc in [x for x in ("none", "tcc", "lscc") if thr.get(x)]:  # (a quick run may leave schemes out)
        r = m.sel(sc, scenario, seeds)
        if snaps is not None:
            r = r[r["snapshot"].isin(list(snaps))]
        per = {col: {int(k): float(v) for k, v in r.groupby("snapshot")[col].mean().items()}
               for col in ("wloss", "buf", "retry", "local")}
        row: Dict[str, Any] = {"thr": mean(thr[sc].values()), **{c: mean(v.values()) for c, v in per.items()}}
        if sc != "none" and thr.get("none"):
            c = changes(thr, sc, offered)
            row.update(up=len(c["up"]), down=len(c["down"]), within=c["within"], n=c["n"])
        out[sc] = row
    return out


def counts_cells(row: Dict[str, Any]) -> str:
    return f"{row['up']} | {row['down']} | {row['within']}" if "up" in row else " | | "


def loss_cells(row: Dict[str, Any]) -> str:
    return f"{mbps(row['wloss'])} | {row['buf']:.0f} | {row['retry']:.0f} | {row['local']:.0f}"


def mixes(report: Report, data, udp: Runs) -> None:
    """Block mixes and its values: TCC and LSCC under other splits of the offered 16 Mbit/s (UDP CBR), beside 004's
    300 down / 100 up (udp's runs of the same snapshots and seed)."""
    m = Runs(data)
    snaps, seeds = set(m.snapshots()), m.seeds()
    band = mbps(BAND * OFFERED_UDP)
    lines = [f"| offered per station (kbit/s) | scheme | mean throughput (Mbit/s) | snapshots raised by > {band} Mbit/s | "
             "lowered | within | weighted intra-mesh loss (Mbit/s), mean | forwarded packets lost in buffers per run, mean | "
             "retry-limit drops after forwarding per run, mean | local drops per run, mean |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    rows: Dict[str, Dict[str, Dict[str, Any]]] = {}
    sources = [m.data, udp.data]
    cases = [("004", udp, "mesh40_4gw", "300 down, 100 up (004's)")] + \
        [(sc, m, sc, MIX_TEXT.get(sc, sc)) for sc in MIX_TEXT if (m.runs["scenario"] == sc).any()]
    for key, src, scenario, text in cases:
        thr = {sc: {int(k): float(v) for k, v in src.sel(sc, scenario, seeds).groupby("snapshot")["thr"].mean().items()
                    if int(k) in snaps}
               for sc in ("none", "tcc", "lscc")}
        rows[key] = scheme_rows(src, scenario, thr, OFFERED_UDP, seeds, snaps)
        for i, (sc, row) in enumerate(rows[key].items()):
            lines.append(f"| {text if i == 0 else ''} | {NAMES[sc]} | {mbps(row['thr'])} | {counts_cells(row)} | "
                         f"{loss_cells(row)} |")
    lines += ["", f"Snapshots {', '.join(map(str, sorted(snaps)))}, run seed{'s' if len(seeds) > 1 else ''} "
              f"{', '.join(map(str, seeds))}, {float(m.runs['simulated_time_s'].iloc[0]):g} s, UDP CBR, 16 Mbit/s offered in each mix. 004's mix is udp's runs of "
              "the same snapshots and seed. One run per snapshot: a change is counted against the band alone (the seeds' "
              "spread is not measured here)."]
    report.block("mixes", "\n".join(lines), *sources)

    def v(name: str, text: str) -> None:
        report.value(name, text, *sources)
    v("mx_runs", f"{len(snaps)} snapshots ({min(snaps)} to {max(snaps)}) x {len(seeds)} run (seed {seeds[0]})")

    def complete(key: str) -> bool:
        return key in rows and all("up" in rows[key].get(sc, {}) for sc in ("tcc", "lscc"))

    def verdict(key: str) -> str:
        if not complete(key):
            return "n/a"
        t, l_ = rows[key]["tcc"], rows[key]["lscc"]
        return (f"TCC raises {t['up']} and lowers {t['down']}, LSCC raises {l_['up']} and lowers {l_['down']} "
                f"(weighted intra-mesh loss {mbps(rows[key]['none']['wloss'])} Mbit/s without control, "
                f"{mbps(t['wloss'])} and {mbps(l_['wloss'])} with)")
    for key, name in (("004", "mx_004"), ("mesh40_4gw_mix_reverse", "mx_reverse"), ("mesh40_4gw_mix_up", "mx_up"),
                      ("mesh40_4gw_mix_down", "mx_down")):
        v(name, verdict(key) if key in rows else "not run")
    # TCC's verdict under bidirectional traffic (it lowers more snapshots than it raises) and LSCC's (it lowers
    # more than a tenth): do they hold under each mix?
    keys = [k for k in rows if k != "004" and complete(k)]
    tcc_holds = [k for k in keys if rows[k]["tcc"]["down"] > rows[k]["tcc"]["up"]]
    lscc_fails = [k for k in keys if rows[k]["lscc"]["down"] > 0.1 * rows[k]["lscc"]["n"]]
    v("mx_tcc_word", "n/a" if not keys else "in every mix" if len(tcc_holds) == len(keys) else
      ("in none of them" if not tcc_holds else "only with " + ", ".join(MIX_TEXT[k] for k in tcc_holds)))
    v("mx_lscc_word", "n/a" if not keys else "in every mix" if len(lscc_fails) == len(keys) else
      ("in none of them" if not lscc_fails else "only with " + ", ".join(MIX_TEXT[k] for k in lscc_fails)))
    down = rows.get("mesh40_4gw_mix_down")
    if complete("mesh40_4gw_mix_down"):
        d = down["tcc"]
        v("mx_down_tcc", f"raises {d['up']} of {d['n']} snapshots and lowers {d['down']}")
        v("mx_down_verdict", "holds" if d["down"] == 0 and d["up"] >= 0.9 * d["n"] else "does not hold")
    else:
        v("mx_down_tcc", "n/a")
        v("mx_down_verdict", "n/a")


def bursty(report: Report, data) -> None:
    """Block bursty and its values: 004 Sec. 4.4 (Figs. 9-10), TCP's throughput with bursty UDP beside it, under two
    burst models of the UDP halves."""
    m = Runs(data)
    snaps, seeds = set(m.snapshots()), m.seeds()
    offered = OFFERED_UDP / 2
    band = mbps(BAND * offered)
    f = m.flows[m.flows["flow_id"].str.contains("_tcp_")]
    lines = [f"| UDP half's burst model | scheme | mean TCP throughput (Mbit/s) | snapshots raised by > {band} Mbit/s | "
             "lowered | within | bursty UDP throughput (Mbit/s), mean | weighted intra-mesh loss (Mbit/s), mean | "
             "forwarded packets lost in buffers per run, mean | retry-limit drops after forwarding per run, mean | "
             "local drops per run, mean |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    rows: Dict[str, Dict[str, Dict[str, Any]]] = {}
    for scenario, text in BURST_TEXT.items():
        if not (m.runs["scenario"] == scenario).any():
            continue
        fs = f[f["scenario"] == scenario]
        tcp = fs.groupby(["scheme", "seed", "topology_seed"])["goodput_bps"].sum().groupby(["scheme", "topology_seed"]).mean()
        thr = {sc: {int(k): float(v) for k, v in tcp[sc].items()} for sc in ("none", "tcc", "lscc")
               if sc in tcp.index.get_level_values(0)}
        rows[scenario] = scheme_rows(m, scenario, thr, offered)
        for i, (sc, row) in enumerate(rows[scenario].items()):
            total = {int(k): float(v) for k, v in m.sel(sc, scenario).groupby("snapshot")["thr"].mean().items()}
            row["udp"] = mean([total[k] - thr[sc][k] for k in thr[sc]])
            lines.append(f"| {text if i == 0 else ''} | {NAMES[sc]} | {mbps(row['thr'])} | {counts_cells(row)} | "
                         f"{mbps(row['udp'])} | {loss_cells(row)} |")
    lines += ["", f"Snapshots {', '.join(map(str, sorted(snaps)))}, run seed{'s' if len(seeds) > 1 else ''} "
              f"{', '.join(map(str, seeds))}, {float(m.runs['simulated_time_s'].iloc[0]):g} s; per station a TCP NewReno and a bursty UDP flow each way (150 and 50 "
              f"kbit/s of TCP, 300 and 100 kbit/s of UDP while on, half the time), {mbps(offered)} Mbit/s of each offered. "
              f"The band is 1 % of TCP's offered load. One run per snapshot: a change is counted against the band alone."]
    report.block("bursty", "\n".join(lines), m.data)

    def v(name: str, text: str) -> None:
        report.value(name, text, m.data)
    v("bu_runs", f"{len(snaps)} snapshots ({min(snaps)} to {max(snaps)}) x {len(seeds)} run (seed {seeds[0]})")
    for scenario, name in (("mesh40_4gw_tcp_bursty", "bu_short"), ("mesh40_4gw_tcp_bursty_long", "bu_long")):
        if scenario not in rows or not all("up" in rows[scenario].get(sc, {}) for sc in ("tcc", "lscc")):
            for suffix in ("_tcc", "_lscc", "_udp"):
                v(name + suffix, "n/a")
            continue
        t, l_, n0 = rows[scenario]["tcc"], rows[scenario]["lscc"], rows[scenario]["none"]
        # Fig. 9: TCC raises TCP's throughput "only in one of the considered scenarios", LSCC "always".
        v(name + "_tcc", f"raises {t['up']} of {t['n']} and lowers {t['down']} "
                         f"(004: one of 50; {t['n']} single runs cannot confirm or refute that rate)")
        v(name + "_lscc", f"raises {l_['up']} of {l_['n']} and lowers {l_['down']} "
                          f"({'as 004 has it' if l_['up'] == l_['n'] else 'not always, as 004 has it'})")
        v(name + "_udp", f"{mbps(n0['udp'])} Mbit/s (intra-mesh loss {mbps(n0['wloss'])} Mbit/s weighted, "
                         f"{mbps(t['wloss'])} and {mbps(l_['wloss'])} under TCC and LSCC)")
    both = [rows[s_] for s_ in rows if all("up" in rows[s_].get(sc, {}) for sc in ("tcc", "lscc"))]
    same = len(both) == 2 and all((both[0][sc]["up"] > both[0][sc]["down"]) == (both[1][sc]["up"] > both[1][sc]["down"])
                                  for sc in ("tcc", "lscc"))
    v("bu_verdict", "n/a" if len(both) < 2 else "do not turn on" if same else "turn on")


# tcp_bursty's values that need TCC, LSCC and no control on its snapshots
TB_VALUES = ("tb_tcc", "tb_lscc", "tb_tcc_verdict", "tb_lscc_verdict", "tb_tcp", "tb_udp", "tb_wloss", "tb_buf",
             "tb_local", "tb_sd", "tb_wide", "tb_lscc_pairs")
# ... and those that need tcp_bursty_more_seeds too (seeds 4-5 where seeds 1-3 leave LSCC undetermined)
TB_MORE_VALUES = ("tb_more_seeds", "tb_more_n", "tb_more_result", "tb_lscc5", "tb_lscc5_verdict")


def tcp_split(runs, flows):
    """The runs with each one's TCP throughput (`tcp`: its flows named `_tcp_` summed) and the rest (`udp`: the
    bursty UDP halves)."""
    f = flows[flows["flow_id"].str.contains("_tcp_")]
    tcp_of_run = f.groupby(["scheme", "seed", "topology_seed"])["goodput_bps"].sum()
    r = runs.copy()
    r["tcp"] = [float(tcp_of_run.get((sc, int(s), int(k)), float("nan")))
                for sc, s, k in zip(r["scheme"], r["seed"], r["topology_seed"])]
    r["udp"] = r["thr"] - r["tcp"]
    return r


def fig9_verdict(scheme: str, classes: Dict[str, int]) -> str:
    """004 Fig. 9's claim on a scheme against the snapshots' classes (classify) of TCP's throughput. TCC raises it
    "only in one of the considered scenarios": not reproduced when it raises more than a tenth of the snapshots. LSCC
    "leads always to an increased throughput": not reproduced when it lowers more than a tenth (as its "nearly always"
    with UDP, "How many runs"), reproduced when it raises nine tenths or more, else not confirmed (too many snapshots
    unchanged or left undetermined by the seeds' spread)."""
    n = sum(classes[c] for c in CLASSES)
    if scheme == "tcc":
        return "not reproduced" if classes["raised"] > 0.1 * n else "reproduced"
    if classes["lowered"] > 0.1 * n:
        return "not reproduced"
    return "reproduced" if classes["raised"] >= 0.9 * n else "not confirmed"


def tb_more_seeds(report: Report, m: Runs, r, lscc: Dict[str, Any], more: Runs, band_bps: float) -> None:
    """tcp_bursty's LSCC classes again where its seeds left them undetermined, with the seeds of experiment
    tcp_bursty_more_seeds pooled in (both schemes' runs of a snapshot), and 004's "always" judged on them."""
    def v(name: str, text: str) -> None:
        report.value(name, text, m.data, more.data)
    if not (more.has("none") and more.has("lscc")):  # (the quick run: LSCC alone)
        for name in TB_MORE_VALUES:
            v(name, "n/a")
        return
    rm = tcp_split(more.runs, more.flows)

    def pooled(sc: str, k: int) -> List[float]:
        def of(x) -> List[float]:
            return x[(x["scheme"] == sc) & (x["snapshot"] == k)].sort_values("seed")["tcp"].tolist()
        return of(r) + of(rm)
    ks = more.snapshots()
    again = {k: classify(pooled("lscc", k), pooled("none", k), band_bps)[0] for k in ks}
    classes = dict(lscc["cls"])
    classes.update(again)
    totals = {c: sum(1 for x in classes.values() if x == c) for c in CLASSES}
    n = len(classes)
    v("tb_more_seeds", " and ".join(map(str, more.seeds())))
    v("tb_more_n", str(len(ks)))
    v("tb_more_result", ", ".join(f"{sum(1 for k in ks if again[k] == c)} {c}" for c in CLASSES))
    # fig9_verdict's limit: "not reproduced" when LSCC lowers more than a tenth.
    edge = "; exactly the tenth the verdict allows, so one more lowered snapshot would make it not reproduced" \
        if totals["lowered"] == int(0.1 * n) else ""
    v("tb_lscc5", f"raises {totals['raised']} of {n} snapshots and lowers {totals['lowered']} ({totals['unchanged']} "
                  f"unchanged, {totals['undetermined']} undetermined{edge})")
    v("tb_lscc5_verdict", fig9_verdict("lscc", totals))
    undetermined = {k for k, c in lscc["cls"].items() if c == "undetermined"}
    full_claim(report, set(ks) == undetermined,
               "tcp_bursty_more_seeds runs exactly the snapshots tcp_bursty's seeds leave undetermined for LSCC")


def tcp_bursty(report: Report, data, short: Optional[Runs] = None, more: Optional[Runs] = None) -> None:
    """Blocks tcp_bursty and tcp_bursty_snapshots and their values: Figs. 9-10 with three runs per snapshot as 004 (the
    1-s burst model), TCP's throughput per snapshot classified against no control by the 95 % Welch interval
    (classify), beside the bursty UDP carried and the intra-mesh loss. `short`: experiment bursty, whose 5 single
    runs per scheme of the same model gave the first indication; its runs are this experiment's seed-1 runs.
    `more`: experiment tcp_bursty_more_seeds, more seeds of the snapshots whose LSCC change these runs leave
    undetermined, pooled with them (issue 40 section 2)."""
    m = Runs(data)
    snaps, seeds = m.snapshots(), m.seeds()
    offered = OFFERED_UDP / 2
    band_bps = BAND * offered
    band = mbps(band_bps)
    schemes = [sc for sc in ("none", "tcc", "lscc") if m.has(sc)]
    r = tcp_split(m.runs, m.flows)

    def runs_of(sc: str, col: str) -> Dict[int, List[float]]:
        """snapshot -> `col` of each of its runs (in seed order)."""
        x = r[r["scheme"] == sc].sort_values("seed")
        return {int(k): g.tolist() for k, g in x.groupby("snapshot")[col]}

    def mean_of(sc: str, col: str) -> float:
        """The mean over the snapshots of each snapshot's mean over its runs."""
        return mean([mean(v) for v in runs_of(sc, col).values()])
    tcp = {sc: runs_of(sc, "tcp") for sc in schemes}
    stats: Dict[str, Dict[str, Any]] = {}
    for sc in schemes:
        x = tcp[sc]
        st: Dict[str, Any] = {col: mean_of(sc, col) for col in ("tcp", "udp", "wloss", "buf", "retry", "local",
                                                                "notifications_sent")}
        st["sd_med"] = statistics.median(statistics.stdev(v) for v in x.values()) if len(seeds) > 1 else float("nan")
        st["wide"] = sum(1 for v in x.values() if max(v) - min(v) > 2 * band_bps)
        st["pairs"] = {k for k, v in runs_of(sc, "n_pairs").items() if max(v) > 0}
        if sc != "none" and "none" in tcp:
            ks = [k for k in snaps if k in x and k in tcp["none"]]
            c = changes({sc: {k: mean(x[k]) for k in ks}, "none": {k: mean(tcp["none"][k]) for k in ks}}, sc, offered)
            st.update(b_up=len(c["up"]), b_down=len(c["down"]), b_within=c["within"], n=c["n"], d=c["d"])
            st["cls"] = {k: classify(x[k], tcp["none"][k], band_bps)[0] for k in ks}
            st.update({c_: sum(1 for v in st["cls"].values() if v == c_) for c_ in CLASSES})
        stats[sc] = st
    lines = [f"| scheme | mean TCP throughput (Mbit/s) | its standard deviation over the seeds (Mbit/s), median | "
             f"snapshots whose seeds span more than {mbps(2 * band_bps)} Mbit/s | by the band of {band} Mbit/s: raised | "
             "lowered | within | by the 95 % Welch interval: raised | lowered | unchanged | undetermined | "
             "bursty UDP throughput (Mbit/s), mean | weighted intra-mesh loss (Mbit/s), mean | "
             "forwarded packets lost in buffers per run, mean | retry-limit drops after forwarding per run, mean | "
             "local drops per run, mean | notifications sent per run, mean | snapshots with a mutual block |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for sc in schemes:
        st = stats[sc]
        sd = f"{st['sd_med'] / 1e6:.2f}" if len(seeds) > 1 else ""
        cells = (f"{st['b_up']} | {st['b_down']} | {st['b_within']} | {st['raised']} | {st['lowered']} | "
                 f"{st['unchanged']} | {st['undetermined']}") if "cls" in st else " | | | | | | "
        notes = f"{st['notifications_sent']:.0f} | {len(st['pairs'])}" if sc != "none" else " | "
        lines.append(f"| {NAMES[sc]} | {mbps(st['tcp'])} | {sd} | {st['wide']} | {cells} | {mbps(st['udp'])} | "
                     f"{mbps(st['wloss'])} | {st['buf']:.0f} | {st['retry']:.0f} | {st['local']:.0f} | {notes} |")
    dur = float(m.runs["simulated_time_s"].iloc[0])
    seeds_text = f"run seed{'s' if len(seeds) > 1 else ''} {', '.join(map(str, seeds))}"
    snaps_text = f"{len(snaps)} snapshots ({min(snaps)} to {max(snaps)})" if len(snaps) > 1 else f"snapshot {snaps[0]}"
    lines += ["", f"{snaps_text.capitalize()}, {seeds_text}, {dur:g} s, the 1-s burst model "
              f"(as the first rows of the table above); {mbps(offered)} Mbit/s of TCP and of bursty UDP offered. A "
              "snapshot's number is the mean of its runs; its TCP throughput under TCC or LSCC is classified against no "
              "control as in \"How many runs\": raised or lowered when the 95 % Welch interval of the change excludes 0 "
              f"and the change exceeds {band} Mbit/s (1 % of TCP's offered load), unchanged when the interval lies "
              f"within +-{band} Mbit/s, undetermined otherwise. A mutual block: two stations each blocked by the other "
              "for more than half the run, in at least one of the snapshot's runs."]
    report.block("tcp_bursty", "\n".join(lines), m.data)
    compared = [sc for sc in ("tcc", "lscc") if "cls" in stats.get(sc, {})]
    lines = ["| snapshot | TCP throughput, none (Mbit/s) | " + " | ".join(f"{NAMES[sc]}: change" for sc in compared) + " |",
             "|---:|---:|" + "---:|" * len(compared)]
    if "none" in tcp:
        for k in sorted(tcp["none"], key=lambda k: (mean(tcp["none"][k]), k)):
            lines.append(f"| {k} | {mbps(mean(tcp['none'][k]))} | " + " | ".join(
                f"{stats[sc]['d'][k] / 1e6:+.2f} {CLASS_MARK[stats[sc]['cls'][k]]}" if k in stats[sc]["d"] else ""
                for sc in compared) + " |")
    lines += ["", "TCP's throughput per snapshot without control, sorted (as Fig. 9), and its change under TCC and LSCC "
              "with its class by the 95 % Welch interval: r raised, l lowered, u unchanged, ? undetermined."]
    report.block("tcp_bursty_snapshots", "\n".join(lines), m.data)

    sources = [m.data] + ([short.data] if short is not None else [])

    def v(name: str, text: str, *extra: Any) -> None:
        report.value(name, text, m.data, *extra)
    v("tb_runs", f"{snaps_text} x {runs_word(len(seeds))} ({seeds_text})")
    complete = all(sc in stats and "cls" in stats[sc] for sc in ("tcc", "lscc"))
    if not complete:  # (the quick run: one scheme, one snapshot)
        for name in TB_VALUES + (TB_MORE_VALUES if more is not None else ()):
            v(name, "n/a")
        v("tb_indication", "n/a", *sources[1:])
        return
    t, l_, n0 = stats["tcc"], stats["lscc"], stats["none"]

    def updown(st: Dict[str, Any]) -> str:
        return (f"raises {st['raised']} of {st['n']} snapshots and lowers {st['lowered']} by the 95 % Welch interval "
                f"({st['unchanged']} unchanged, {st['undetermined']} undetermined; by the band alone {st['b_up']} raised "
                f"and {st['b_down']} lowered)")
    v("tb_tcc", updown(t))
    v("tb_lscc", updown(l_))
    v("tb_tcc_verdict", fig9_verdict("tcc", t))
    v("tb_lscc_verdict", fig9_verdict("lscc", l_))
    v("tb_tcp", f"{mbps(n0['tcp'])} Mbit/s without control, {mbps(t['tcp'])} under TCC and {mbps(l_['tcp'])} under LSCC")
    v("tb_udp", f"{mbps(n0['udp'])} Mbit/s without control, {mbps(t['udp'])} under TCC and {mbps(l_['udp'])} under LSCC")
    v("tb_wloss", f"{mbps(n0['wloss'])} Mbit/s without control, {mbps(t['wloss'])} under TCC and {mbps(l_['wloss'])} "
                  "under LSCC")
    v("tb_buf", f"{count(n0['buf'])} per run without control, {count(t['buf'])} under TCC and {count(l_['buf'])} under "
                "LSCC")
    v("tb_local", f"{count(n0['local'])} per run without control, {count(t['local'])} under TCC and {count(l_['local'])} "
                  "under LSCC")
    v("tb_sd", f"{n0['sd_med'] / 1e6:.3f} Mbit/s without control, {t['sd_med'] / 1e6:.3f} under TCC and "
               f"{l_['sd_med'] / 1e6:.3f} under LSCC")
    v("tb_wide", f"{n0['wide']} of {len(snaps)} without control, {t['wide']} under TCC and {l_['wide']} under LSCC")
    if more is not None:
        tb_more_seeds(report, m, r, l_, more, band_bps)
    lowered = [k for k, c_ in l_["cls"].items() if c_ == "lowered"]
    v("tb_lscc_pairs", f"{sum(1 for k in lowered if k in l_['pairs'])} of {len(lowered)} (of all its snapshots, "
                       f"{len(l_['pairs'])} of {len(snaps)})")
    # bursty's indication (5 single runs, the band alone): does each scheme raise more snapshots than it lowers? Held
    # against the same question at full size (the Welch interval).
    if short is not None and short.has("tcc") and short.has("lscc"):
        s = short.flows[(short.flows["scenario"] == "mesh40_4gw_tcp_bursty") & short.flows["flow_id"].str.contains("_tcp_")]
        st_ = s.groupby(["scheme", "topology_seed"])["goodput_bps"].sum()
        thr5 = {sc: {int(k): float(x) for k, x in st_[sc].items()} for sc in ("none", "tcc", "lscc")}
        c5 = {sc: changes(thr5, sc, offered) for sc in ("tcc", "lscc")}
        same = all((len(c5[sc]["up"]) > len(c5[sc]["down"])) == (stats[sc]["raised"] > stats[sc]["lowered"])
                   for sc in ("tcc", "lscc"))
        v("tb_indication", "holds" if same else "does not hold", *sources[1:])
        # The same runs: bursty's 1-s model is this experiment's scenario, set and points, run seed 1.
        mine = r[r["seed"] == 1].set_index(["scheme", "snapshot"])["thr"]
        shared = [(sc, int(k), float(x)) for sc in ("none", "tcc", "lscc")
                  for k, x in short.sel(sc, "mesh40_4gw_tcp_bursty").set_index("snapshot")["thr"].items()
                  if (sc, int(k)) in mine.index]
        if shared:
            report.claim(all(float(mine[(sc, k)]) == x for sc, k, x in shared),
                         "tcp_bursty's seed-1 runs of bursty's snapshots are bursty's runs of the 1-s model, with the "
                         "same results")
    else:
        v("tb_indication", "n/a")
    full_claim(report, t["wloss"] < n0["wloss"] and l_["wloss"] < n0["wloss"],
               "with TCP and bursty UDP both controls cut the weighted intra-mesh loss")
    full_claim(report, min(t["sd_med"], l_["sd_med"]) > n0["sd_med"] and min(t["wide"], l_["wide"]) > n0["wide"],
               "with TCP and bursty UDP the seeds spread wider under both controls than without")


def statuses(report: Report, listed: Sequence[str], udp: Runs) -> None:
    """What the doc says was run and what was not, from study.json's list."""
    src = udp.data
    missing = [what for name, what in (("group", "the group-addressed notifications over the snapshots"),
                                       ("tcp", "TCP alone (Sec. 4.4's first claim)"),
                                       ("bursty", "TCP with bursty UDP under two burst models"),
                                       ("tcp_bursty", "TCP with bursty UDP at 004's size (Figs. 9 and 10, 50 x 3)"))
               if name not in listed]
    if not missing:
        text = "every experiment of study.json is run"
    else:
        text = (", ".join(missing[:-1]) + " and " + missing[-1] if len(missing) > 1 else missing[0]) + \
            (" are" if len(missing) > 1 else " is") + " not run"
    report.value("not_run", text, src)
    if "tcp" not in listed:  # else the doc has a section of its own for TCP alone
        report.value("tcp_status", "neither is in study.json's list yet, so no result of them is stated here", src)
    report.value("group_status", "its experiment over the snapshots (`group`) is not run here, so what it "
                 "changes is not stated" if "group" not in listed else
                 '"Group-addressed notifications" above measures what it changes', src)
    report.value("options_intro", f"The same {len(udp.snapshots())} snapshots as Fig. 7, run seed {udp.seeds()[0]}: "
                 "LSCC with 004's rules and with `exclude_blocked_packets`"
                 + (", and both schemes with group-addressed notifications" if "group" in listed else "")
                 + ", throughput and loss side by side.", src)


# ---- figures -----------------------------------------------------------------------------------


def plot(udp: Runs, thr, box, figure: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    wloss = udp.per_snapshot("none", "wloss")
    snaps = sorted(thr["none"])
    order6 = sorted(snaps, key=lambda k: (wloss[k], k))
    order7 = sorted(snaps, key=lambda k: (thr["none"][k], k))
    fig, axes = plt.subplots(2, 2, figsize=(12, 8))
    a = axes[0][0]
    x = range(1, len(order6) + 1)
    a.plot(x, [thr["none"][k] / 1e6 for k in order6], "o-", label="throughput")
    a.plot(x, [wloss[k] / 1e6 for k in order6], "s-", label="weighted intra-mesh loss")
    a.set_xlabel("snapshot (sorted by loss)")
    a.set_ylabel("Mbit/s")
    a.set_title("Fig. 6: no congestion control")
    a.legend()
    a = axes[0][1]
    x = range(1, len(order7) + 1)
    for sc, mk in (("none", "o-"), ("tcc", "^-"), ("lscc", "s-")):
        a.plot(x, [thr[sc][k] / 1e6 for k in order7], mk, label=NAMES[sc])
    a.set_xlabel("snapshot (sorted by throughput without congestion control)")
    a.set_ylabel("throughput (Mbit/s)")
    a.set_title("Fig. 7: UDP")
    a.legend()
    for col, direction in enumerate(("uplink", "downlink")):
        a = axes[1][col]
        a.boxplot([[v / 1e3 for v in box[(direction, sc)]] for sc in ("none", "tcc", "lscc")],
                  labels=[NAMES[sc] for sc in ("none", "tcc", "lscc")], whis=1.5, sym="x")
        a.set_ylabel("flow throughput (kbit/s)")
        a.set_title(f"Fig. 8: {direction} flows, snapshot 1")
    fig.tight_layout()
    fig.savefig(figure, dpi=90)
    plt.close(fig)
    print(f"wrote {figure}")


def plot_snapshot22(s22: Runs, figure: Path) -> None:
    """D of s1 and s2 over time, and their queues, under LSCC and with exclude_blocked_packets (seed 1)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    seed = s22.seeds()[0]
    ts = s22.data.table("timeseries_queue_length")
    fig, axes = plt.subplots(1, 2, figsize=(12, 4))
    for sc, style in (("lscc", "-"), ("lscc_exclude", ":")):
        rad = s22.controller_radios(sc, None, seed)
        for node in ("s1", "s2"):
            if node in rad:
                end = float(s22.sel(sc, seeds=[seed])["simulated_time_s"].iloc[0])
                pts = rad[node]["duration_over_time"] + [[end, rad[node]["duration_s"]]]
                axes[0].step([p[0] for p in pts], [p[1] for p in pts], style, where="post",
                             label=f"{node}, {'LSCC' if sc == 'lscc' else 'exclude_blocked_packets'}")
    axes[0].set_xlabel("time (s)")
    axes[0].set_ylabel("congestion duration D (s)")
    axes[0].set_title("Snapshot 22, seed 1: D of s1 and s2")
    axes[0].legend(fontsize=8)
    if not ts.empty:
        ts = ts.assign(scheme=ts["/controllers"].map(scheme_of))
        cols = list(ts.columns)
        node_col = next((c for c in ("node", "node_id", "entity", "id") if c in cols), None)
        val_col = next((c for c in ("packets", "value", "queue_packets", "length") if c in cols), None)
        t_col = next((c for c in ("time_s", "t", "time") if c in cols), None)
        if node_col and val_col and t_col:
            for sc, style in (("none", "--"), ("lscc", "-"), ("lscc_exclude", ":")):
                for node in ("s1", "s2"):
                    x = ts[(ts["scheme"] == sc) & (ts["seed"] == seed) & (ts[node_col] == node)]
                    axes[1].plot(x[t_col], x[val_col], style, label=f"{node}, {sc}")
            axes[1].set_ylabel("queue length (packets)")
    axes[1].set_xlabel("time (s)")
    axes[1].set_title("Queue of s1 and s2")
    axes[1].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(figure, dpi=90)
    plt.close(fig)
    print(f"wrote {figure}")


def plot_renewal(udp: Runs, ren: Runs, figure: Path) -> None:
    """The renewal rule's readings side by side: the mean D of the notifying stations over time, and LSCC's change of
    throughput per snapshot (sorted), over the renewal experiment's snapshots and seeds."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    seeds, snaps = ren.seeds(), set(ren.snapshots())
    present = [r for r in READINGS if r == READINGS[0] or ren.has(reading_scheme(*r))]
    times = [5.0 * i for i in range(37)]
    interval = history_interval(ren.data)  # as in the renewal_d table: udp's histories read as renewal stores its own
    fig, axes = plt.subplots(1, 2, figsize=(12, 4))
    none = {k: x for k, x in udp.per_snapshot("none", "thr", seeds).items() if k in snaps}
    for at, checks in present:
        sc = reading_scheme(at, checks)
        src = udp if sc == "lscc" else ren
        c = src.controllers
        c = c[(c["scheme"] == sc) & c["seed"].isin(seeds) & c["topology_seed"].isin(list(snaps))]
        per_run = []
        for _, row in c.iterrows():
            radios = [x for x in radios_of(row) if x["notifications_sent"] > 0]
            if radios:
                per_run.append([mean([d_at(d_history(x, interval), t) for x in radios]) for t in times])
        label = f"{OPTION_KEYS[('renewal_check_at', at)]} expiry, {checks.replace('_', ' ')}"
        style = "-" if checks == "per_neighbour" else "--"
        if per_run:
            axes[0].plot(times, [mean(col) for col in zip(*per_run)], style, label=label)
        thr = {k: x for k, x in src.per_snapshot(sc, "thr", seeds).items() if k in snaps}
        d = sorted((thr[k] - none[k]) / 1e6 for k in thr if k in none)
        axes[1].plot(range(1, len(d) + 1), d, style, label=label)
    axes[0].set_xlabel("time (s)")
    axes[0].set_ylabel("mean D of the notifying stations (s)")
    axes[0].set_title("D over time (LSCC, UDP)")
    axes[0].legend(fontsize=7)
    axes[1].axhline(0, color="grey", lw=0.5)
    axes[1].set_xlabel("snapshots, sorted by the change")
    axes[1].set_ylabel("LSCC - no control (Mbit/s)")
    axes[1].set_title("Throughput change per snapshot")
    fig.tight_layout()
    fig.savefig(figure, dpi=90)
    plt.close(fig)
    print(f"wrote {figure}")


def plot_topology(figure: Path) -> None:
    """004 Fig. 5: snapshot 1 with its routing trees, from the scenario alone
    (wmnsim.plot.topology of a Scenario: positions, links, routes by describe(); no run):
    links coloured by the number of flows routed over them."""
    import matplotlib
    matplotlib.use("Agg")
    import wmnsim as wm
    import wmnsim.plot  # noqa: F401
    scenario = wm.Scenario.from_file(FOLDER / "mesh40_4gw.json").with_overrides({"/node_groups/0/seed": 1})
    wm.plot.topology(scenario, path=figure, routes=False, labels=False,
                     title="Fig. 5: snapshot 1 and its routing trees")
    print(f"wrote {figure}")


def main() -> int:
    global FULL
    report = Report("mesh-congestion", __doc__)
    FULL = Path(report.args.data).resolve() == Path(report.study.data_dir()).resolve()
    # An experiment counts once it is listed in study.json and its runs are stored.
    listed = [n for n in report.study.experiments if (Path(report.args.data) / n / "provenance.json").is_file()]
    mechanisms(report, report.data("mechanisms"))
    udp, thr = udp_blocks(report, report.data("udp"))
    box = fig8_block(report, report.data("fig8"), udp)
    s22 = snapshot22(report, report.data("snapshot22"))
    group = Runs(report.data("group")) if "group" in listed else None
    exclude = Runs(report.data("exclude")) if "exclude" in listed else None
    options(report, udp, group, exclude)
    spread(report, udp, Runs(report.data("more_seeds")) if "more_seeds" in listed else None)
    ren = Runs(report.data("renewal")) if "renewal" in listed else None
    if ren is not None:
        renewal(report, udp, ren)
    if "renewal_tcc" in listed:
        renewal_tcc(report, udp, Runs(report.data("renewal_tcc")))
    if "tcp" in listed:
        tcp_alone(report, report.data("tcp"))
    if "mixes" in listed:
        mixes(report, report.data("mixes"), udp)
    if "bursty" in listed:
        bursty(report, report.data("bursty"))
    if "tcp_bursty" in listed:
        tcp_bursty(report, report.data("tcp_bursty"), Runs(report.data("bursty")) if "bursty" in listed else None,
                   Runs(report.data("tcp_bursty_more_seeds")) if "tcp_bursty_more_seeds" in listed else None)
    else:  # its runs not stored yet: the doc says so wherever it gives them
        for name in ("tcp_bursty", "tcp_bursty_snapshots"):
            report.block(name, "Not run: experiment tcp_bursty has no stored runs.")
        for name in TB_VALUES + TB_MORE_VALUES + ("tb_runs", "tb_indication"):
            report.value(name, "not run")
    statuses(report, listed, udp)
    if report.plot:
        plot(udp, thr, box, report.figure("mesh-congestion.png"))
        plot_snapshot22(s22, report.figure("mesh-congestion-snapshot22.png"))
        plot_topology(report.figure("mesh-congestion-topology.png"))
        if ren is not None:
            plot_renewal(udp, ren, report.figure("mesh-congestion-renewal.png"))
    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
