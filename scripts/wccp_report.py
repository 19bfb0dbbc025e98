#!/usr/bin/python3
"""The tables and the figure of docs/reproductions/wccp.md (paper 003, WCCP), from runs.

Runs paper 003's scenarios (scenarios/zhai_wccp/) with `wmnsim run`, TCP and WCCP
side by side, then

  - rewrites the tables between the <!-- begin:NAME --> / <!-- end:NAME --> markers
    of docs/reproductions/wccp.md (scripts/doc_blocks.py), and
  - draws docs/reproductions/wccp.png (needs matplotlib).

What runs (every run 300 s unless --duration):
  - Fig. 1(a)/Fig. 5: chain9_tcp.json and chain9.json (WCCP), --seeds each;
  - Fig. 2 and Table I: chain9_tcp.json and chain9_tcp_{2..5}flows.json, --seeds each;
    Table I's UDP column: scripts/sweep_003_table1.py's bidirectional CBR scenario
    (ns2 reception) at 003's rate of 24.3 packet/s, --seeds each (one rate, not the
    sweep: run that script for the knee);
  - Fig. 1(b)/Fig. 6 and Fig. 1(c)/Fig. 7: chain9_{3,6}flows_{tcp,wccp}.json, --seeds each;
  - Sec. IV-B/Fig. 8-9(a): random50/snapshot_NN_{tcp,wccp}.json, seed 1 each;
  - the threshold sweep of "Differences": chain9.json under both busy-time measures
    and, with ns-2's busy time, also under ns-2's deferral (mac.deferral "ns2"), at
    th_b 0.80 to 0.95, the first 3 seeds each;
  - the deferral comparison: chain9_tcp.json and chain9.json under ns-2's deferral,
    --seeds each.

A WCCP scenario the build refuses (exit code 2: WCCP not simulated yet) is reported
once on stderr and its cells read "not run"; no number is ever made up. The runs'
results are kept in --out (default: a temporary folder) and reused when the
results file is already there (delete the folder after a model change).

Usage: /usr/bin/python3 scripts/wccp_report.py [--wmnsim build/ci/cli/wmnsim]
          [--seeds 1,2,3,4,5] [--duration 300] [--snapshots 20] [--jobs 2]
          [--out DIR] [--no-plot] [--no-doc]
--no-doc prints the tables instead of writing the document.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import json
import math
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
from doc_blocks import replace_block  # noqa: E402
import sweep_003_table1  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SCEN = ROOT / "scenarios" / "zhai_wccp"
DOC = ROOT / "docs" / "reproductions" / "wccp.md"
FIGURE = DOC.with_suffix(".png")
NOT_RUN = "not run"
TIMESERIES_TCP = ["flow_goodput", "flow_rtt", "channel_busyness", "channel_busyness_ns2", "queue_length", "drops"]

# 003's numbers (text of Sec. II and IV).
PAPER_FIG1A = {"tcp": {"drops": 0.834, "delay": 0.1844, "goodput": 194.6, "rtt": 0.2646},
               "wccp": {"drops": 0.120, "delay": 0.0757, "goodput": 209.9, "rtt": 0.1228}}
PAPER_TABLE1 = {"udp": {"goodput": 198, "delay": 0.0695, "rtt": 0.139, "drops": 0.0931},
                "tcp5": {"goodput": 196, "delay": 0.431, "rtt": 0.738, "drops": 2.90}}
UDP_RATE_PPS = 24.3
# Sec. II-C's model (any four consecutive links of the chain conflict, perfect scheduling).
MAXMIN_3 = [1 / 8, 1 / 8, 1 / 8]  # our derivation for Fig. 1(b): 8 transmissions of x in links 1-2..4-5
MAXMIN_6 = [1 / 12] * 5 + [1 / 3]  # 003 Sec. II-C for Fig. 1(c)
MAXAGG_6 = [0.0] + [1 / 8] * 4 + [1 / 2]  # 003 Sec. II-C
# The threshold sweep of "Differences": one WCCP flow on the chain, each busy-time
# measure at each th_b, over the first SWEEP_SEEDS seeds.
# (busy_time, mac.deferral): the busy measure WCCP reads and how the MAC defers.
SWEEP_CONFIGS = (("standard", "standard"), ("ns2", "standard"), ("ns2", "ns2"))
SWEEP_THRESHOLDS = (0.80, 0.85, 0.88, 0.90, 0.92, 0.95)
SWEEP_SEEDS = 3


class Refused(Exception):
    pass


# ---- running -------------------------------------------------------------------------

class Runner:
    def __init__(self, wmnsim: str, out: Path, duration: float, jobs: int):
        self.wmnsim, self.out, self.duration, self.jobs = wmnsim, out, duration, jobs
        self.refusals: Dict[str, str] = {}

    def path(self, scen: Path, seed: int, tag: str = "") -> Path:
        rel = scen.relative_to(ROOT).with_suffix("") if scen.is_relative_to(ROOT) else Path(scen.stem)
        return self.out / f"{str(rel).replace('/', '__')}{tag}.d{self.duration:g}.s{seed}.json"

    def run_one(self, scen: Path, seed: int, extra: Sequence[str] = (), tag: str = "") -> Optional[dict]:
        out = self.path(scen, seed, tag)
        if not out.exists():
            cmd = [self.wmnsim, "run", str(scen), "--seed", str(seed), "-o", str(out),
                   "--set", f"/simulation/duration_s={self.duration:g}", *extra]
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode == 2:
                msg = r.stderr.strip().splitlines()[-1] if r.stderr.strip() else "exit code 2"
                msg = msg.removeprefix(f"{scen}: ")
                self.refusals[scen.name if not scen.is_relative_to(ROOT) else str(scen.relative_to(ROOT))] = msg
                return None
            if r.returncode != 0:
                raise SystemExit(f"{' '.join(cmd)} failed ({r.returncode}):\n{r.stderr}")
        return json.loads(out.read_text())

    def run_many(self, jobs: List[Tuple[Path, int, Tuple[str, ...]]], tags: Optional[List[str]] = None
                 ) -> Dict[Tuple[str, int], Optional[dict]]:
        """Runs `jobs`; results keyed by (scenario name + tag, seed)."""
        results: Dict[Tuple[str, int], Optional[dict]] = {}
        tags = tags or [""] * len(jobs)
        with concurrent.futures.ThreadPoolExecutor(max_workers=self.jobs) as ex:
            futs = {ex.submit(self.run_one, s, seed, extra, tag): ((s.name if s.parent == SCEN else
                                                                    str(s.relative_to(SCEN))) + tag, seed)
                    for (s, seed, extra), tag in zip(jobs, tags)}
            for f in concurrent.futures.as_completed(futs):
                results[futs[f]] = f.result()
        return results


# ---- metrics of one run ------------------------------------------------------------------

def mean(xs: Sequence[float]) -> float:
    xs = [x for x in xs if x is not None and not math.isnan(x)]
    return sum(xs) / len(xs) if xs else float("nan")


def ci95(xs: Sequence[float]) -> float:
    xs = [x for x in xs if x is not None and not math.isnan(x)]
    n = len(xs)
    if n < 2:
        return float("nan")
    from scipy import stats as scipy_stats
    m = sum(xs) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    return float(scipy_stats.t.ppf(0.975, n - 1)) * sd / math.sqrt(n)


def series(doc: dict, kind: str) -> Dict[str, List[Tuple[float, float]]]:
    out: Dict[str, List[Tuple[float, float]]] = {}
    ts = doc.get("timeseries", {}).get(kind)
    if not ts:
        return out
    for t, ident, v in ts["rows"]:
        if v is not None:
            out.setdefault(ident, []).append((float(t), float(v)))
    return out


def duration(doc: dict) -> float:
    return float(doc["scenario"]["simulation"]["duration_s"])


def run_metrics(doc: dict) -> dict:
    """Aggregates of one run: goodput (kbit/s), drops/s, delay, RTT, ..."""
    flows = doc["flows"]
    dur = duration(doc)
    delivered = sum(f["delivered_packets"] for f in flows)
    delay = (sum((f["delay_mean_s"] or 0.0) * f["delivered_packets"] for f in flows) / delivered
             if delivered else float("nan"))
    rtt = series(doc, "flow_rtt")
    drops = doc["summary"]["drops"]
    return {
        "goodput": doc["summary"]["total_goodput_bps"] / 1e3,
        "per_flow": {f["id"]: f["goodput_bps"] / 1e3 for f in flows},
        "hops": {f["id"]: f["hops"] for f in flows},
        "jfi": doc["summary"]["jain_fairness_index"],
        "drops": sum(drops.values()) / dur,
        "drops_collision": drops["retry_limit"] / dur,
        "drops_overflow": drops["queue_overflow"] / dur,
        "delay": delay,
        # The mean over the flows of each flow's smoothed RTT sampled every interval.
        "rtt": mean([mean([v for _, v in pts]) for pts in rtt.values()]) if rtt else float("nan"),
        "busyness": {n["id"]: n["channel_busyness"] for n in doc["nodes"]},
        "busyness_ns2": {n["id"]: n["channel_busyness_ns2"] for n in doc["nodes"]},
        "timeouts": sum(f.get("timeouts") or 0 for f in flows),
        "rb": max(n["channel_busyness_ns2"] for n in doc["nodes"]),
        "queue": {k: mean([v for _, v in pts]) for k, pts in series(doc, "queue_length").items()},
    }


# ---- formatting -------------------------------------------------------------------------

def fmt(xs: Sequence[Optional[float]], digits: int) -> str:
    if not xs or any(x is None for x in xs):
        return NOT_RUN
    m = mean(xs)
    if len(xs) == 1:
        return f"{m:.{digits}f}"
    return f"{m:.{digits}f} ± {ci95(xs):.{digits}f}"


def metric_over(runs: List[Optional[dict]], key: str) -> List[Optional[float]]:
    return [None if r is None else r[key] for r in runs]


# ---- tables -----------------------------------------------------------------------------

def fig1a_table(res, seeds) -> str:
    rows = [("goodput (kbit/s)", "goodput", 1), ("dropped packets/s", "drops", 3),
            ("of which at the retry limit (collisions)", "drops_collision", 3),
            ("end-to-end delay (s)", "delay", 4), ("RTT (s)", "rtt", 4)]
    tcp = [res[("chain9_tcp.json", s)] for s in seeds]
    wccp = [res[("chain9.json", s)] for s in seeds]
    lines = ["| metric | 003 TCP | wmnsim TCP | 003 WCCP | wmnsim WCCP |", "|---|---|---|---|---|"]
    for label, key, d in rows:
        p_t = PAPER_FIG1A["tcp"].get(key, "-")
        p_w = PAPER_FIG1A["wccp"].get(key, "-")
        lines.append(f"| {label} | {p_t} | {fmt(metric_over(tcp, key), d)} | {p_w} | {fmt(metric_over(wccp, key), d)} |")
    lines.append("")
    lines.append(f"One flow 1 -> 9; mean of {len(seeds)} runs of {duration_of(tcp)} ± the 95 % confidence interval of "
                 "the mean. Drops: every packet of the run dropped (data and ACKs, all causes) per second. Delay: mean "
                 "end-to-end delay of the delivered data packets. RTT: the flow's smoothed RTT sampled every second, "
                 "averaged over the run.")
    lines.append("")
    lines.append("| node | busyness TCP | busyness WCCP | ns-2 busyness TCP | ns-2 busyness WCCP | "
                 "mean queue TCP (packets) | mean queue WCCP (packets) |")
    lines.append("|---|---|---|---|---|---|---|")
    for node in [str(i) for i in range(1, 10)]:
        def per_node(runs, what):
            return [None if r is None else r[what].get(node, float("nan")) for r in runs]
        lines.append(f"| {node} | {fmt(per_node(tcp, 'busyness'), 3)} | {fmt(per_node(wccp, 'busyness'), 3)} | "
                     f"{fmt(per_node(tcp, 'busyness_ns2'), 3)} | {fmt(per_node(wccp, 'busyness_ns2'), 3)} | "
                     f"{fmt(per_node(tcp, 'queue'), 2)} | {fmt(per_node(wccp, 'queue'), 2)} |")
    lines.append("")
    lines.append("Channel busyness: each node's busy fraction over the run (transmitting, receiving, carrier sensed or "
                 "NAV; docs/mac.md); ns-2 busyness: the same as ns-2's MAC counts it, the measure the 003 scenarios' "
                 "controller reads (`busy_time: \"ns2\"`); queue: the interface queue length sampled every second, averaged over the run "
                 "(Fig. 5(a) and (c)).")
    return "\n".join(lines)


def duration_of(runs: List[Optional[dict]]) -> str:
    for r in runs:
        if r is not None:
            return f"{r['duration']:g} s"
    return "(none ran)"


def fig2_table(res, seeds) -> str:
    lines = ["| TCP flows 1 -> 9 | aggregate goodput (kbit/s) | dropped packets/s | of which collisions/s | "
             "queue overflows/s | delay (s) | RTT (s) | JFI |", "|---|---|---|---|---|---|---|---|"]
    for n in range(1, 6):
        name = "chain9_tcp.json" if n == 1 else f"chain9_tcp_{n}flows.json"
        runs = [res[(name, s)] for s in seeds]
        lines.append(f"| {n} | {fmt(metric_over(runs, 'goodput'), 1)} | {fmt(metric_over(runs, 'drops'), 3)} | "
                     f"{fmt(metric_over(runs, 'drops_collision'), 3)} | {fmt(metric_over(runs, 'drops_overflow'), 3)} | "
                     f"{fmt(metric_over(runs, 'delay'), 3)} | {fmt(metric_over(runs, 'rtt'), 3)} | "
                     f"{fmt(metric_over(runs, 'jfi'), 3)} |")
    lines.append("")
    lines.append("003 Fig. 2(a): 0.83 to 3.63 dropped packets/s for 1 to 5 flows, none from queue overflow. "
                 f"Mean of {len(seeds)} runs ± 95 % CI.")
    return "\n".join(lines)


def table1(res, seeds, udp) -> str:
    tcp5 = [res[("chain9_tcp_5flows.json", s)] for s in seeds]
    lines = ["| | 003 UDP (1 -> 9 and back) | wmnsim UDP | 003 5 TCP flows | wmnsim 5 TCP flows |",
             "|---|---|---|---|---|"]
    rows = [("aggregate throughput (kbit/s)", "goodput", 1), ("average end-to-end delay (s)", "delay", 4),
            ("RTT (s)", "rtt", 3), ("dropped packets/s due to collision", "drops", 3)]
    for label, key, d in rows:
        u = [x[key] for x in udp]
        t_key = {"drops": "drops_collision"}.get(key, key)
        lines.append(f"| {label} | {PAPER_TABLE1['udp'][key]} | {fmt(u, d)} | {PAPER_TABLE1['tcp5'][key]} | "
                     f"{fmt(metric_over(tcp5, t_key), d)} |")
    lines.append("")
    lines.append(f"UDP: 1000-byte CBR packets 1 -> 9 and 40-byte packets 9 -> 1, both at {UDP_RATE_PPS} packet/s (003's "
                 "knee), scripts/sweep_003_table1.py's scenario under the ns2 reception model; throughput: both "
                 "directions; delay: the forward flow's; RTT as 003's footnote: the sum of the two flows' mean delays; "
                 "collision drops: packets dropped at the retry limit, both flows. 5 TCP: collision drops are "
                 f"retry-limit drops of data and ACKs. Mean of {len(seeds)} runs ± 95 % CI. The knee itself: "
                 "scripts/sweep_003_table1.py (docs/phy.md).")
    return "\n".join(lines)


def fairness_table(res, seeds, names: Tuple[str, str], shares: List[Tuple[str, List[float]]]) -> str:
    tcp = [res[(names[0], s)] for s in seeds]
    wccp = [res[(names[1], s)] for s in seeds]
    ids = None
    for r in tcp + wccp:
        if r is not None:
            ids = list(r["per_flow"])
            break
    head = "| flow | hops | " + " | ".join(f"{label} (share of 2 Mbit/s)" for label, _ in shares) + \
           " | TCP (kbit/s) | WCCP (kbit/s) |"
    lines = [head, "|" + "---|" * (4 + len(shares))]
    for k, fid in enumerate(ids or []):
        hops = next(r["hops"][fid] for r in tcp + wccp if r is not None)
        cells = [f"{v[k]:.3f}" for _, v in shares]
        t = [None if r is None else r["per_flow"][fid] for r in tcp]
        w = [None if r is None else r["per_flow"][fid] for r in wccp]
        lines.append(f"| {fid} | {hops} | " + " | ".join(cells) + f" | {fmt(t, 1)} | {fmt(w, 1)} |")
    agg_cells = [f"{sum(v):.3f}" for _, v in shares]
    lines.append("| aggregate | | " + " | ".join(agg_cells) + f" | {fmt(metric_over(tcp, 'goodput'), 1)} | "
                 f"{fmt(metric_over(wccp, 'goodput'), 1)} |")
    lines.append("| JFI | | " + " | ".join("" for _ in shares) + f" | {fmt(metric_over(tcp, 'jfi'), 3)} | "
                 f"{fmt(metric_over(wccp, 'jfi'), 3)} |")
    lines.append("| delay (s) | | " + " | ".join("" for _ in shares) + f" | {fmt(metric_over(tcp, 'delay'), 3)} | "
                 f"{fmt(metric_over(wccp, 'delay'), 3)} |")
    lines.append("| dropped packets/s | | " + " | ".join("" for _ in shares) + f" | {fmt(metric_over(tcp, 'drops'), 2)} | "
                 f"{fmt(metric_over(wccp, 'drops'), 2)} |")
    lines.append("")
    lines.append(f"Goodput per flow, mean of {len(seeds)} runs ± 95 % CI. The shares are fractions of the 2 Mbit/s "
                 "channel under perfect scheduling (Sec. II-C's model), an upper bound no 802.11 run reaches: compare "
                 "the ratios between flows, not the values.")
    return "\n".join(lines)


def random_metrics(runs: List[Optional[dict]]) -> Optional[dict]:
    if not runs or any(r is None for r in runs):
        return None
    mins = [min(r["per_flow"].values()) for r in runs]
    maxs = [max(r["per_flow"].values()) for r in runs]
    return {
        "min_of_runs": min(mins),
        "avg_min": mean(mins),
        "avg_max": mean(maxs),
        "ratio": mean(maxs) / mean(mins) if mean(mins) > 0 else float("inf"),
        "jfi": mean([r["jfi"] for r in runs]),
        "aggregate": mean([r["goodput"] for r in runs]),
        "delay": mean([r["delay"] for r in runs]),
        "starved": sum(1 for r in runs for v in r["per_flow"].values() if v < 1.0),
        "mins": mins,
    }


def random_table(res, snapshots) -> str:
    tcp = random_metrics([res[(f"random50/snapshot_{k:02d}_tcp.json", 1)] for k in snapshots])
    wccp = random_metrics([res[(f"random50/snapshot_{k:02d}_wccp.json", 1)] for k in snapshots])
    rows = [("minimum flow throughput over the runs (kbit/s), Fig. 8(a)", "min_of_runs", 2),
            ("minimum flow throughput, averaged (kbit/s), Fig. 8(b)", "avg_min", 2),
            ("maximum flow throughput, averaged (kbit/s), Fig. 8(c)", "avg_max", 1),
            ("averaged max / averaged min, Fig. 8(d)", "ratio", 1),
            ("Jain's fairness index, Fig. 9(a)", "jfi", 3),
            ("aggregate throughput (kbit/s), Fig. 9(a)", "aggregate", 1),
            ("end-to-end delay (s), Fig. 9(a)", "delay", 3),
            ("flows under 1 kbit/s (of 10 per run)", "starved", 0)]
    lines = ["| metric | TCP | WCCP | WCCP vs TCP | 003 (WCCP vs TCP) |", "|---|---|---|---|---|"]
    paper = {"ratio": "decreased by up to 1000 times", "jfi": "about +0.1", "aggregate": "-20 % to -45 %",
             "delay": "8 to 10 times lower", "min_of_runs": "TCP: always some starved flows; WCCP: none"}
    for label, key, d in rows:
        t = f"{tcp[key]:.{d}f}" if tcp else NOT_RUN
        w = f"{wccp[key]:.{d}f}" if wccp else NOT_RUN
        if tcp and wccp:
            if key == "jfi":
                vs = f"{wccp[key] - tcp[key]:+.3f}"
            elif key in ("aggregate",):
                vs = f"{(wccp[key] / tcp[key] - 1) * 100:+.0f} %"
            elif key in ("delay", "ratio") and wccp[key] > 0:
                vs = f"{tcp[key] / wccp[key]:.1f} times lower"
            else:
                vs = "-"
        else:
            vs = NOT_RUN
        lines.append(f"| {label} | {t} | {w} | {vs} | {paper.get(key, '-')} |")
    lines.append("")
    lines.append(f"{len(snapshots)} random snapshots (scenarios/zhai_wccp/random50/), one run of each with seed 1; "
                 "10 flows per snapshot. Delay: packet-weighted mean over the flows of a run, averaged over the runs. "
                 "003 Fig. 9(b) (AODV routing) is not reproduced: wmnsim has no on-demand routing protocol.")
    return "\n".join(lines)


def sweep_tag(busy: str, deferral: str, th: float) -> str:
    # The first two configurations keep their tags of before mac.deferral existed.
    return f"@{busy}@{th:g}" if deferral == "standard" else f"@{busy}@{deferral}@{th:g}"


DEFERRAL_NS2 = ("--set", '/mac/deferral="ns2"')


def sweep_jobs(seeds: Sequence[int]) -> Tuple[List[Tuple[Path, int, Tuple[str, ...]]], List[str]]:
    jobs, tags = [], []
    for busy, deferral in SWEEP_CONFIGS:
        for th in SWEEP_THRESHOLDS:
            extra = ("--set", f"/controllers/0/busy_time={json.dumps(busy)}",
                     "--set", f"/controllers/0/busyness_threshold={th:g}")
            if deferral == "ns2":
                extra += DEFERRAL_NS2
            for s in seeds:
                jobs.append((SCEN / "chain9.json", s, extra))
                tags.append(sweep_tag(busy, deferral, th))
    return jobs, tags


def deferral_jobs(seeds: Sequence[int]) -> Tuple[List[Tuple[Path, int, Tuple[str, ...]]], List[str]]:
    jobs, tags = [], []
    for name in ("chain9_tcp.json", "chain9.json"):
        for s in seeds:
            jobs.append((SCEN / name, s, DEFERRAL_NS2))
            tags.append("@deferral_ns2")
    return jobs, tags


def deferral_table(res, docs, seeds) -> str:
    """Fig. 1(a) under both deferral rules, beside 003."""
    def runs(name: str, ns2: bool):
        if ns2:
            return [None if d is None else run_metrics(d) for d in (docs[(name + "@deferral_ns2", s)] for s in seeds)]
        return [res[(name, s)] for s in seeds]
    cols = [("003 TCP", None), ("TCP, standard", runs("chain9_tcp.json", False)),
            ("TCP, ns2 deferral", runs("chain9_tcp.json", True)), ("003 WCCP", None),
            ("WCCP, standard", runs("chain9.json", False)), ("WCCP, ns2 deferral", runs("chain9.json", True))]
    paper = {"003 TCP": PAPER_FIG1A["tcp"], "003 WCCP": PAPER_FIG1A["wccp"]}
    rows = [("goodput (kbit/s)", "goodput", 1), ("dropped packets/s", "drops", 3), ("end-to-end delay (s)", "delay", 4),
            ("RTT (s)", "rtt", 4), ("timeouts per run", "timeouts", 1), ("busiest node's ns-2 busyness", "rb", 3)]
    lines = ["| metric | " + " | ".join(c for c, _ in cols) + " |", "|---|" + "---|" * len(cols)]
    for label, key, d in rows:
        cells = []
        for c, rs in cols:
            if rs is None:
                cells.append(str(paper[c].get(key, "-")))
            else:
                cells.append(fmt([None if r is None else r.get(key, float("nan")) for r in rs], d))
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    lines.append("")
    lines.append(f"chain9_tcp.json and chain9.json (th_b 0.92, busy_time ns2) as shipped (\"standard\": 802.11's EIFS) "
                 f"and with `--set '/mac/deferral=\"ns2\"'` (ns-2's EIFS NAV, then DIFS; docs/mac.md); mean of "
                 f"{len(seeds)} runs ± 95 % CI. Timeouts: the flow's retransmission timeouts; busyness: the largest "
                 "node's busy fraction over the run as ns-2 counts it.")
    return "\n".join(lines)


def sweep_table(docs, seeds) -> str:
    lines = ["| busy time | deferral | th_b | goodput (kbit/s) | delay (s) | drops/s | timeouts per run | "
             "busiest node's r_b |", "|---|---|---|---|---|---|---|---|"]
    for busy, deferral in SWEEP_CONFIGS:
        for th in SWEEP_THRESHOLDS:
            runs = [docs[("chain9.json" + sweep_tag(busy, deferral, th), s)] for s in seeds]
            if any(r is None for r in runs):
                lines.append(f"| {busy} | {deferral} | {th:.2f} | {NOT_RUN} | | | | |")
                continue
            m = [run_metrics(r) for r in runs]
            timeouts = ", ".join(str(sum(f["timeouts"] or 0 for f in r["flows"])) for r in runs)
            column = "channel_busyness_ns2" if busy == "ns2" else "channel_busyness"
            rb = [max(n[column] for n in r["nodes"]) for r in runs]
            lines.append(f"| {busy} | {deferral} | {th:.2f} | {fmt([x['goodput'] for x in m], 1)} | {fmt([x['delay'] for x in m], 3)} | "
                         f"{fmt([x['drops'] for x in m], 3)} | {timeouts} | {fmt(rb, 3)} |")
    lines.append("")
    length = duration_of([{"duration": duration(d)} for d in docs.values() if d])
    lines.append(f"chain9.json (one WCCP flow) with `--set /controllers/0/busy_time=B --set "
                 f"/controllers/0/busyness_threshold=T` (and `--set '/mac/deferral=\"ns2\"'` in the last rows); mean of {len(seeds)} runs of {length} "
                 "± 95 % CI. Timeouts: WCCP retransmission timeouts in each run. r_b: the busiest node's busy fraction "
                 "over the whole run, in the measure its controller used.")
    return "\n".join(lines)


# ---- figure -----------------------------------------------------------------------------

def plot(res, seeds, snapshots, docs: Dict[str, Optional[dict]]) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(3, 4, figsize=(20, 13))

    def note_not_run(ax, what):
        ax.text(0.5, 0.5, f"{what}: not run", transform=ax.transAxes, ha="center", va="center", color="grey")

    # Row 1: Fig. 2, 1..5 TCP flows.
    names = ["chain9_tcp.json"] + [f"chain9_tcp_{n}flows.json" for n in range(2, 6)]
    ax = axes[0][0]
    d = [[res[(nm, s)]["drops"] for s in seeds] for nm in names]
    ax.errorbar(range(1, 6), [mean(x) for x in d], yerr=[ci95(x) for x in d], marker="o", capsize=3, label="wmnsim")
    ax.plot([1, 5], [0.83, 3.63], "x", color="k", ms=9, label="003 Fig. 2(a) range ends")
    ax.set_xlabel("TCP flows 1 -> 9")
    ax.set_ylabel("dropped packets/s")
    ax.set_title("Fig. 2(a): drops, 1..5 TCP flows", fontsize=10)
    ax.legend(fontsize=8)
    for col, (kind, ylabel, scale, title) in enumerate(
            [("flow_rtt", "RTT (s)", 1.0, "Fig. 2(b): RTT, seed 1"),
             ("flow_goodput", "aggregate goodput (kbit/s)", 1e-3, "Fig. 2(b): throughput, seed 1")], start=1):
        ax = axes[0][col]
        for nm, n in ((names[0], 1), (names[4], 5)):
            ss = series(docs[nm], kind)
            if kind == "flow_rtt":
                for k, (fid, pts) in enumerate(sorted(ss.items())):
                    t, v = zip(*pts)
                    ax.plot(t, v, lw=0.6, color="tab:blue" if n == 1 else "tab:red",
                            label=f"{n} flow{'s' if n > 1 else ''}" if k == 0 else None)
            else:
                agg: Dict[float, float] = {}
                for pts in ss.values():
                    for t, v in pts:
                        agg[t] = agg.get(t, 0.0) + v
                ts = sorted(agg)
                ax.plot(ts, [agg[t] * scale for t in ts], lw=0.6, color="tab:blue" if n == 1 else "tab:red",
                        label=f"{n} flow{'s' if n > 1 else ''}")
        ax.set_xlabel("time (s)")
        ax.set_ylabel(ylabel)
        ax.set_title(title, fontsize=10)
        ax.legend(fontsize=8)
    # Row 1, last: Fig. 5(b), RTT TCP vs WCCP.
    ax = axes[0][3]
    for nm, label, colour in (("chain9_tcp.json", "TCP", "tab:red"), ("chain9.json", "WCCP", "tab:green")):
        if docs.get(nm) is None:
            note_not_run(ax, label)
            continue
        for fid, pts in series(docs[nm], "flow_rtt").items():
            t, v = zip(*pts)
            ax.plot(t, v, lw=0.7, color=colour, label=label)
    ax.set_xlabel("time (s)")
    ax.set_ylabel("RTT (s)")
    ax.set_title("Fig. 5(b): RTT, one flow, seed 1", fontsize=10)
    ax.legend(fontsize=8)

    # Row 2: Fig. 5(a) busyness over time, TCP and WCCP; Fig. 5(c) queues.
    for col, (nm, label) in enumerate((("chain9_tcp.json", "TCP"), ("chain9.json", "WCCP"))):
        ax = axes[1][col]
        ax.set_title(f"Fig. 5(a): ns-2 busyness, {label}, seed 1", fontsize=10)
        ax.set_xlabel("time (s)")
        ax.set_ylabel("busyness ratio (1-s means)")
        ax.set_ylim(0, 1)
        if docs.get(nm) is None:
            note_not_run(ax, label)
            continue
        # As ns-2 counted it: what 003's Fig. 5(a) shows and WCCP's controller reads.
        ss = series(docs[nm], "channel_busyness_ns2")
        for node in ("1", "5", "9"):
            if node in ss:
                t, v = zip(*ss[node])
                ax.plot(t, v, lw=0.6, label=f"node {node}")
        ax.axhline(0.92, color="grey", ls="--", lw=0.8)
        ax.legend(fontsize=8)
    ax = axes[1][2]
    width = 0.4
    for k, (nm, label) in enumerate((("chain9_tcp.json", "TCP"), ("chain9.json", "WCCP"))):
        runs = [res[(nm, s)] for s in seeds]
        if any(r is None for r in runs):
            note_not_run(ax, label)
            continue
        ys = [mean([r["queue"].get(str(i), float("nan")) for r in runs]) for i in range(1, 10)]
        ax.bar([i + (k - 0.5) * width for i in range(1, 10)], ys, width, label=label)
    ax.set_xticks(range(1, 10))
    ax.set_xlabel("node")
    ax.set_ylabel("mean queue length (packets)")
    ax.set_title(f"Fig. 5(c): queues, one flow, {len(seeds)} seeds", fontsize=10)
    ax.legend(fontsize=8)
    ax = axes[1][3]
    for k, (nm, label) in enumerate((("chain9_tcp.json", "TCP"), ("chain9.json", "WCCP"))):
        runs = [res[(nm, s)] for s in seeds]
        if any(r is None for r in runs):
            note_not_run(ax, label)
            continue
        ys = [mean([r["busyness_ns2"].get(str(i), float("nan")) for r in runs]) for i in range(1, 10)]
        ax.bar([i + (k - 0.5) * width for i in range(1, 10)], ys, width, label=label)
    ax.axhline(0.92, color="grey", ls="--", lw=0.8)
    ax.set_xticks(range(1, 10))
    ax.set_xlabel("node")
    ax.set_ylabel("ns-2 busyness ratio over the run")
    ax.set_title(f"Fig. 5(a): mean ns-2 busyness per node, {len(seeds)} seeds", fontsize=10)
    ax.legend(fontsize=8)

    # Row 3: Fig. 6, Fig. 7, Fig. 8(a), Fig. 9(a).
    for col, (names2, shares, title) in enumerate((
            (("chain9_3flows_tcp.json", "chain9_3flows_wccp.json"), MAXMIN_3, "Fig. 6: Fig. 1(b), per flow"),
            (("chain9_6flows_tcp.json", "chain9_6flows_wccp.json"), MAXMIN_6, "Fig. 7: Fig. 1(c), per flow"))):
        ax = axes[2][col]
        width = 0.4
        for k, (nm, label) in enumerate(((names2[0], "TCP"), (names2[1], "WCCP"))):
            runs = [res[(nm, s)] for s in seeds]
            if any(r is None for r in runs):
                note_not_run(ax, label)
                continue
            ids = list(runs[0]["per_flow"])
            ys = [[r["per_flow"][f] for r in runs] for f in ids]
            ax.bar([i + (k - 0.5) * width for i in range(len(ids))], [mean(y) for y in ys], width,
                   yerr=[ci95(y) for y in ys], capsize=2, label=label)
        # The shares on their own axis: fractions of 2 Mbit/s under perfect scheduling, to compare as ratios
        # between flows, not as predicted values.
        ax.set_xticks(range(len(shares)))
        ax.set_xticklabels([f"flow{i + 1}" for i in range(len(shares))])
        ax2 = ax.twinx()
        ax2.plot(range(len(shares)), shares, "k_", ms=20, mew=2, label="max-min share (right axis)")
        ax2.set_ylabel("max-min share of the channel")
        ax2.set_ylim(0, max(shares) * 1.6)
        ax.set_ylabel("goodput (kbit/s)")
        ax.set_title(title + f", {len(seeds)} seeds (95 % CI)", fontsize=10)
        ax.legend(fontsize=8, loc="upper left")
        ax2.legend(fontsize=8, loc="upper right")
    ax = axes[2][2]
    for nm, label, m in (("tcp", "TCP", "o"), ("wccp", "WCCP", "s")):
        runs = [res[(f"random50/snapshot_{k:02d}_{nm}.json", 1)] for k in snapshots]
        if any(r is None for r in runs):
            note_not_run(ax, label)
            continue
        ax.plot(snapshots, [min(r["per_flow"].values()) for r in runs], m, label=label)
    ax.set_yscale("symlog", linthresh=1)
    ax.set_xlabel("snapshot")
    ax.set_ylabel("minimum flow goodput (kbit/s)")
    ax.set_title("Fig. 8(a): minimum flow throughput per run", fontsize=10)
    ax.legend(fontsize=8)
    ax = axes[2][3]
    tcp = random_metrics([res[(f"random50/snapshot_{k:02d}_tcp.json", 1)] for k in snapshots])
    wccp = random_metrics([res[(f"random50/snapshot_{k:02d}_wccp.json", 1)] for k in snapshots])
    keys = [("jfi", "JFI"), ("aggregate", "aggregate\n(Mbit/s)"), ("delay", "delay (s)")]
    scale = {"aggregate": 1e-3}
    for k, (m, label) in enumerate(((tcp, "TCP"), (wccp, "WCCP"))):
        if m is None:
            note_not_run(ax, label)
            continue
        ax.bar([i + (k - 0.5) * 0.4 for i in range(len(keys))], [m[key] * scale.get(key, 1) for key, _ in keys], 0.4,
               label=label)
    ax.set_xticks(range(len(keys)))
    ax.set_xticklabels([label for _, label in keys])
    ax.set_title(f"Fig. 9(a): {len(snapshots)} random topologies", fontsize=10)
    ax.legend(fontsize=8)

    fig.tight_layout()
    fig.savefig(FIGURE, dpi=80)
    print(f"wrote {FIGURE.relative_to(ROOT)}")


# ---- main --------------------------------------------------------------------------------

def udp_scenario(tmp: Path, duration: float) -> Path:
    s = sweep_003_table1.scenario("ns2", duration)
    s["outputs"] = {"timeseries": ["flow_goodput"]}
    path = tmp / "table1_udp.json"
    path.write_text(json.dumps(s))
    return path


def udp_metrics(doc: dict) -> dict:
    fl = {f["id"]: f for f in doc["flows"]}
    dur = duration(doc)
    return {
        "goodput": (fl["data"]["goodput_bps"] + fl["back"]["goodput_bps"]) / 1e3,
        "delay": fl["data"]["delay_mean_s"],
        "rtt": fl["data"]["delay_mean_s"] + fl["back"]["delay_mean_s"],
        "drops": (fl["data"]["drops_retry_limit"] + fl["back"]["drops_retry_limit"]) / dur,
    }


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--wmnsim", default=os.environ.get("WMNSIM_BIN", str(ROOT / "build" / "ci" / "cli" / "wmnsim")))
    ap.add_argument("--seeds", default="1,2,3,4,5")
    ap.add_argument("--duration", type=float, default=300.0)
    ap.add_argument("--snapshots", type=int, default=20)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", help="keep the runs' results here (and reuse them)")
    ap.add_argument("--no-plot", action="store_true")
    ap.add_argument("--no-doc", action="store_true", help="print the tables instead of writing the document")
    args = ap.parse_args(argv)
    seeds = [int(s) for s in args.seeds.split(",")]
    snapshots = list(range(1, args.snapshots + 1))

    with tempfile.TemporaryDirectory(prefix="wmnsim-wccp-") as tmp_name:
        out = Path(args.out) if args.out else Path(tmp_name)
        out.mkdir(parents=True, exist_ok=True)
        runner = Runner(args.wmnsim, out, args.duration, args.jobs)
        chain = ["chain9_tcp.json", "chain9.json"] + [f"chain9_tcp_{n}flows.json" for n in range(2, 6)] + \
                [f"chain9_{k}flows_{t}.json" for k in (3, 6) for t in ("tcp", "wccp")]
        # chain9.json records no drops series; every chain run records the same kinds (+ WCCP's rate).
        jobs = []
        for name in chain:
            extra: Tuple[str, ...] = ()
            if name == "chain9.json":
                extra = ("--set", "/outputs/timeseries=" + json.dumps(TIMESERIES_TCP + ["wccp_rate"]))
            jobs += [(SCEN / name, s, extra) for s in seeds]
        jobs += [(SCEN / "random50" / f"snapshot_{k:02d}_{t}.json", 1, ()) for k in snapshots for t in ("tcp", "wccp")]
        udp_path = udp_scenario(Path(tmp_name), args.duration)
        interval = 1.0 / UDP_RATE_PPS
        udp_extra = ("--set", f"/flows/0/traffic/interval_s={interval!r}", "--set", f"/flows/1/traffic/interval_s={interval!r}")
        sweep_seeds = seeds[:SWEEP_SEEDS]
        s_jobs, s_tags = sweep_jobs(sweep_seeds)
        d_jobs, d_tags = deferral_jobs(seeds)
        s_jobs, s_tags = s_jobs + d_jobs, s_tags + d_tags
        print(f"{len(jobs) + len(s_jobs) + len(seeds)} runs of {args.duration:g} s on {args.jobs} workers, "
              f"results in {out}", file=sys.stderr)
        docs = runner.run_many(jobs)
        sweep_docs = runner.run_many(s_jobs, s_tags)
        udp_docs = [runner.run_one(udp_path, s, udp_extra) for s in seeds]
        res = {k: (None if v is None else dict(run_metrics(v), duration=duration(v))) for k, v in docs.items()}
        udp = [udp_metrics(d) for d in udp_docs]
        seed1 = {name: docs[(name, seeds[0])] for name in chain}

        blocks = {
            "fig1a": fig1a_table(res, seeds),
            "fig2": fig2_table(res, seeds),
            "table1": table1(res, seeds, udp),
            "fig6": fairness_table(res, seeds, ("chain9_3flows_tcp.json", "chain9_3flows_wccp.json"),
                                   [("max-min (our derivation)", MAXMIN_3)]),
            "fig7": fairness_table(res, seeds, ("chain9_6flows_tcp.json", "chain9_6flows_wccp.json"),
                                   [("003 max-min", MAXMIN_6), ("003 max aggregate", MAXAGG_6)]),
            "random": random_table(res, snapshots),
            "threshold_sweep": sweep_table(sweep_docs, sweep_seeds),
            "deferral": deferral_table(res, sweep_docs, seeds),
        }
        if runner.refusals:
            print("not run (refused by this build, exit code 2):", file=sys.stderr)
            for scen, msg in sorted(runner.refusals.items()):
                print(f"  {scen}: {msg}", file=sys.stderr)
        if args.no_doc:
            for name, body in blocks.items():
                print(f"## {name}\n\n{body}\n")
        else:
            text = DOC.read_text()
            for name, body in blocks.items():
                text = replace_block(text, name, body, DOC)
            DOC.write_text(text)
            print(f"wrote {DOC.relative_to(ROOT)}")
        if not args.no_plot:
            plot(res, seeds, snapshots, seed1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
