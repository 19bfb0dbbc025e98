#!/usr/bin/python3
"""The tables of docs/reproductions/gateway.md (paper 001, gateway rate control), from runs.

Runs paper 001's scenarios (scenarios/jamshaid/) and generated topologies
(scripts/gateway_topology.py) with `wmnsim run`, then rewrites the tables between
the <!-- begin:NAME --> / <!-- end:NAME --> markers of the document
(scripts/doc_blocks.py). Fair shares are the controller's (its capacity model,
collision domain unless a scenario says otherwise), read from each run's
statistics; nothing is typed in.

What runs (--duration seconds each, default 300; --seeds):
  - Fig. 1: information_asymmetry.json and flow_in_the_middle.json (Sec. 2.2);
  - Fig. 3 / Sec. 5.1-5.2: chain_1mbps.json (3-hop parking lot, downstream TCP)
    under every gateway scheme;
  - Tables 1 and 2: generated chains, grids and random meshes (TOPOLOGIES, up to
    35 active mesh nodes), one TCP flow per mesh node, down and up, every scheme,
    --orders activation orders per topology (default 25, as 001), each run with the
    seed of its order;
  - Table 3: parking_lot3_udp_{up,down}.json;
  - Table 4: multi_radio.json (500 s, its own timeline), per 100-s interval;
  - Fig. 5: chain5_4flows.json (5-hop chain, 4 downstream flows) under FQ, the
    aggregate limit, aggregate + FQ and per-flow limiting;
  - Fig. 6: random20_fig6.json (10 subscribers with 1-3 upload flows each);
  - Fig. 7: chain7_short_lived.json, per 50-s interval.

Usage: /usr/bin/python3 scripts/gateway_report.py [--wmnsim build/release/cli/wmnsim]
          [--seeds 1,2,3] [--orders 25] [--duration 300] [--jobs 2] [--out DIR] [--no-doc]
Results are kept in --out (default: a temporary folder) and reused when present
(delete the folder after a model change). --no-doc prints the tables instead.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import json
import math
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
from doc_blocks import replace_block  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SCEN = ROOT / "scenarios" / "jamshaid"
DOC = ROOT / "docs" / "reproductions" / "gateway.md"
GENERATOR = ROOT / "scripts" / "gateway_topology.py"

SCHEMES = ("fifo", "fq", "fred", "aggregate_rate_limit", "aggregate_rate_limit_fq", "per_flow_rate_limit")
TABLE_SCHEMES = ("fifo", "fq", "aggregate_rate_limit", "aggregate_rate_limit_fq", "per_flow_rate_limit")
NAMES = {"fifo": "Single FIFO queue", "fq": "FQ", "fred": "FRED", "aggregate_rate_limit": "Aggregate rate limit",
         "aggregate_rate_limit_fq": "Aggregate rate limit & FQ", "per_flow_rate_limit": "Per-flow rate limit",
         "source_rate_limit": "Source rate limit"}
# 001's Tables 1 and 2: JFI, min/fair, max/fair, U/U_opt (averages).
PAPER_T1 = {"fifo": (0.41, 0.10, 10.86, 0.95), "fq": (0.55, 0.20, 5.36, 1.00),
            "aggregate_rate_limit": (0.81, 0.43, 2.02, 0.91), "aggregate_rate_limit_fq": (0.98, 0.72, 1.08, 0.98),
            "per_flow_rate_limit": (0.99, 0.75, 1.01, 0.95)}
PAPER_T2 = {"fifo": (0.31, 0.17, 15.2, 0.95), "fq": (0.32, 0.16, 14.04, 1.00),
            "aggregate_rate_limit": (0.79, 0.43, 2.23, 0.99), "aggregate_rate_limit_fq": (0.91, 0.59, 1.38, 1.00),
            "per_flow_rate_limit": (0.99, 0.76, 1.00, 0.90), "source_rate_limit": (0.99, 0.77, 1.00, 0.91)}
# The generated set: (name, generator arguments). 001 gives no sizes; these span
# 4 to 35 mesh nodes (001's maximum of simultaneously active nodes).
TOPOLOGIES = (("chain4", ["--kind", "chain", "--nodes", "4"]),
              ("chain7", ["--kind", "chain", "--nodes", "7"]),
              ("grid3x3", ["--kind", "grid", "--cols", "3", "--rows", "3"]),
              ("grid4x4", ["--kind", "grid", "--cols", "4", "--rows", "4"]),
              ("random15", ["--kind", "random", "--nodes", "15", "--area", "800", "800", "--seed", "11"]),
              ("random20", ["--kind", "random", "--nodes", "20", "--area", "1000", "1000", "--seed", "3"]),
              ("grid6x6", ["--kind", "grid", "--cols", "6", "--rows", "6"]))


def run(wmnsim: str, scenario: Path, out: Path, seed: int, sets: Sequence[str]) -> Optional[dict]:
    if not out.exists():
        cmd = [wmnsim, "run", str(scenario), "--seed", str(seed), "-o", str(out)]
        for s in sets:
            cmd += ["--set", s]
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            print(f"refused or failed: {' '.join(cmd)}\n{p.stderr[:500]}", file=sys.stderr)
            return None
    return json.loads(out.read_text())


MODEL_CACHE: Dict[Tuple[str, str], Dict[str, float]] = {}
HOPS_CACHE: Dict[str, Dict[str, int]] = {}


def model_shares(wmnsim: str, scenario: Path, model: str = "collision_domain") -> Dict[str, float]:
    """Each flow's max-min share with every flow active (`wmnsim model capacity`):
    001's fair rate for backlogged flows (Tables 1-2, Fig. 3)."""
    key = (str(scenario), model)
    if key not in MODEL_CACHE:
        p = subprocess.run([wmnsim, "model", "capacity", str(scenario), "--json"], capture_output=True, text=True,
                           check=True)
        flows = json.loads(p.stdout)["flows"]
        MODEL_CACHE[key] = {f["id"]: f[f"{model}_bps"] for f in flows}
        # Wireless hops only, as the model and 001's U count them (a run's `hops`
        # also counts the wired link to the host).
        HOPS_CACHE[str(scenario)] = {f["id"]: f["hops"] for f in flows}
    return MODEL_CACHE[key]


def shares(doc: dict) -> Dict[str, float]:
    """Each flow's share as the run's controller had it at the end (given shares)."""
    out: Dict[str, float] = {}
    for c in doc["controllers"][0]["statistics"]["classes"]:
        for f in c["flows"]:
            out[f] = c["share_bps"]
    return out


def jain(xs: Sequence[float]) -> float:
    s, q = sum(xs), sum(x * x for x in xs)
    return s * s / (len(xs) * q) if q > 0 else float("nan")


def fairness_metrics(doc: dict, fair: Dict[str, float], hops: Dict[str, int]) -> Tuple[float, float, float, float]:
    """001 Tables 1-2: JFI, min rate / fair, max rate / fair, U / U_opt (wireless hops)."""
    rates = {f["id"]: f["goodput_bps"] for f in doc["flows"]}
    ratios = [rates[f] / fair[f] for f in rates if fair.get(f)]
    u = sum(rates[f] * hops[f] for f in rates)
    u_opt = sum(fair[f] * hops[f] for f in rates if f in fair)
    return jain(list(rates.values())), min(ratios), max(ratios), u / u_opt


def mean_sd(xs: Sequence[float]) -> str:
    xs = [x for x in xs if not math.isnan(x)]
    if not xs:
        return "not run"
    sd = statistics.stdev(xs) if len(xs) > 1 else 0.0
    return f"{statistics.mean(xs):.2f} ± {sd:.2f}"


def fig3_table(docs: Dict[str, List[Optional[dict]]], fair: Dict[str, float]) -> str:
    lines = ["| scheme | f1 (1 hop) | f2 (2 hops) | f3 (3 hops) | JFI |",
             "|---|---:|---:|---:|---:|"]
    for scheme in SCHEMES:
        runs = [d for d in docs[scheme] if d]
        if not runs:
            lines.append(f"| {NAMES[scheme]} | not run | | | |")
            continue
        cells = []
        for i in range(3):
            cells.append(f"{statistics.mean(d['flows'][i]['goodput_bps'] for d in runs) / 1e3:.1f}")
        jfi = statistics.mean(jain([f["goodput_bps"] for f in d["flows"]]) for d in runs)
        lines.append(f"| {NAMES[scheme]} | {' | '.join(cells)} | {jfi:.2f} |")
    share = ", ".join(f"{fair[f] / 1e3:.1f}" for f in sorted(fair))
    first = next((d for d in docs["fifo"] if d), None)
    seconds = f"{first['run']['simulated_time_s']:g}" if first else "?"
    return ("\n".join(lines) + f"\n\nGoodput in kbit/s, mean of {len(docs['fifo'])} seeds of {seconds} s. "
            f"The collision-domain model's max-min share of each flow: {share} kbit/s.")


def tables12(res: Dict[Tuple[str, str, str], List[Tuple[Optional[dict], Dict[str, float]]]], direction: str) -> str:
    paper = PAPER_T1 if direction == "down" else PAPER_T2
    schemes = TABLE_SCHEMES + (("source_rate_limit",) if direction == "up" else ())
    lines = ["| scheme | JFI | min/fair | max/fair | U/U_opt | 001: JFI, min/fair, max/fair, U/U_opt |",
             "|---|---:|---:|---:|---:|---|"]
    for scheme in schemes:
        metrics = [fairness_metrics(d, fair, hops) for (topo, dirn, sch), docs in res.items()
                   if dirn == direction and sch == scheme for d, fair, hops in docs if d]
        cols = [mean_sd([m[i] for m in metrics]) for i in range(4)] if metrics else ["not run"] * 4
        p = paper.get(scheme)
        lines.append(f"| {NAMES[scheme]} | {' | '.join(cols)} | {', '.join(f'{x:g}' for x in p) if p else ''} |")
    n = len({k[0] for k in res})
    runs = len([1 for (t, d, s), docs in res.items() if d == direction and s == schemes[0] for x, *_ in docs if x])
    return "\n".join(lines) + f"\n\nMean ± standard deviation over {runs} runs ({n} topologies x activation orders)."


def table3(docs: Dict[str, List[Optional[dict]]]) -> str:
    lines = ["| traffic | flow | avg rate / fair rate | JFI | 001 |", "|---|---|---:|---:|---|"]
    paper = {"up": ["1.00", "0.31", "0.02", "0.54"], "down": ["1.00", "1.00", "1.01", "1.00"],
             "up_poisson": ["", "", "", ""]}
    label = {"up": "upstream UDP", "down": "downstream UDP", "up_poisson": "upstream UDP, Poisson sources (not in 001)"}
    for direction in ("up", "down", "up_poisson"):
        runs = [d for d in docs[direction] if d]
        if not runs:
            lines.append(f"| {label[direction]} | not run | | | |")
            continue
        ids = [f["id"] for f in runs[0]["flows"]]
        for i, fid in enumerate(ids):
            ratio = statistics.mean(d["flows"][i]["goodput_bps"] / shares(d)[fid] for d in runs)
            jfi = statistics.mean(jain([f["goodput_bps"] for f in d["flows"]]) for d in runs) if i == 0 else None
            p = paper[direction]
            lines.append(f"| {label[direction]} | {fid} | {ratio:.2f} | {'' if jfi is None else f'{jfi:.2f}'} | "
                         f"{p[i]}{' (JFI ' + p[3] + ')' if i == 0 and p[3] else ''} |")
    return "\n".join(lines) + "\n\nThe fair rate is the scenarios' 125 kbit/s, 001's figure."


def interval_means(doc: dict, start: float, end: float) -> Dict[str, float]:
    ts = doc["timeseries"]["flow_goodput"]
    sums: Dict[str, List[float]] = {}
    for t, fid, v in ts["rows"]:
        if start < t <= end:
            sums.setdefault(fid, []).append(v)
    return {k: statistics.mean(v) for k, v in sums.items()}


def share_at(doc: dict, flow: str, t: float) -> Optional[float]:
    st = doc["controllers"][0]["statistics"]
    dt = st["report_interval_s"]
    for c in st["classes"]:
        if flow in c["flows"]:
            i = int(t / dt) - 1
            s = c["share_series_bps"]
            return s[i] if 0 <= i < len(s) else None
    return None


def interval_table(docs: List[Optional[dict]], intervals: Sequence[Tuple[float, float]], paper: Dict[str, List[str]],
                   groups: Dict[str, List[str]]) -> str:
    """Per interval and flow group: goodput / the model's share at the interval's middle."""
    runs = [d for d in docs if d]
    names = list(groups)
    lines = ["| interval (s) | " + " | ".join(names) + " |", "|---|" + "---:|" * len(names)]
    for k, (a, b) in enumerate(intervals):
        cells = []
        for name in names:
            vals = []
            for d in runs:
                means = interval_means(d, a + 20, b)  # the first 20 s of an interval: convergence
                spans = {f["id"]: (f.get("start_s", 0), f.get("stop_s", math.inf)) for f in d["scenario"]["flows"]}
                for fid in groups[name]:
                    share = share_at(d, fid, (a + b) / 2)
                    # A flow sending through the whole interval counts, starved or not.
                    sending = fid in spans and spans[fid][0] <= a and spans[fid][1] >= b
                    if fid in means and share and sending:
                        vals.append(means[fid] / share)
            cells.append(f"{statistics.mean(vals):.2f}" if vals else "")
        p = paper.get(f"{a:g}-{b:g}")
        lines.append(f"| {a:g}-{b:g} | " + " | ".join(
            c + (f" ({p[i]})" if p and p[i] else "") for i, c in enumerate(cells)) + " |")
    return "\n".join(lines)


FIG1 = (("information_asymmetry", "Fig. 1a, information asymmetry", "S1 starves, S2 takes the channel"),
        ("flow_in_the_middle", "Fig. 1b, flow in the middle", "S2 starves, S1 and S3 each get the channel"))


def fig1_table(docs: Dict[str, List[Optional[dict]]]) -> str:
    """001 Fig. 1: each sender's goodput in the two unfairness topologies."""
    lines = ["| topology | flow | goodput (kbit/s) | 001 |", "|---|---|---:|---|"]
    for name, label, claim in FIG1:
        runs = [d for d in docs[name] if d]
        if not runs:
            lines.append(f"| {label} | not run | | |")
            continue
        for i, f in enumerate(runs[0]["flows"]):
            goodput = statistics.mean(d["flows"][i]["goodput_bps"] for d in runs) / 1e3
            lines.append(f"| {label if i == 0 else ''} | {f['id']} | {goodput:.1f} | {claim if i == 0 else ''} |")
    n = len(docs[FIG1[0][0]])
    return "\n".join(lines) + f"\n\nSaturated UDP senders; mean of {n} seeds of each scenario's own duration."


def fig4_table(docs: List[Optional[dict]]) -> str:
    """001 Fig. 4: each flow's new-data arrival rate into the FRED queue, per 50-s window."""
    runs = [d for d in docs if d]
    if not runs:
        return "not run"
    classes = [c["class"] for c in runs[0]["controllers"][0]["statistics"]["classes"]]
    end = int(runs[0]["run"]["simulated_time_s"])
    windows = [(a, min(a + 50, end)) for a in range(0, end, 50)]
    lines = ["| flow (class) | " + " | ".join(f"{a}-{b} s" for a, b in windows) + " | FRED's drops (all seeds) |",
             "|---|" + "---:|" * (len(windows) + 1)]
    for k, cls in enumerate(classes):
        cells = []
        dt = runs[0]["controllers"][0]["statistics"]["report_interval_s"]
        for a, b in windows:
            vals = [statistics.mean(d["controllers"][0]["statistics"]["classes"][k]["data_arrival_rate_bps"]
                                    [int(a / dt):int(b / dt)]) for d in runs]
            cells.append(f"{statistics.mean(vals) / 1e3:.1f}")
        drops: Dict[str, int] = {}
        for d in runs:
            for cause, n in d["controllers"][0]["statistics"]["classes"][k]["drops"].items():
                drops[cause] = drops.get(cause, 0) + n
        flows = ", ".join(runs[0]["controllers"][0]["statistics"]["classes"][k]["flows"])
        lines.append(f"| {flows} ({cls}) | {' | '.join(cells)} | "
                     f"{', '.join(f'{c} {n}' for c, n in sorted(drops.items())) or 'none'} |")
    return ("\n".join(lines) + f"\n\nNew data (not ACKs) entering the gateway's FRED queue, kbit/s, mean of "
            f"{len(runs)} seeds (the fig3 runs' FRED scheme).")


FIG5_SCHEMES = ("fq", "aggregate_rate_limit", "aggregate_rate_limit_fq", "per_flow_rate_limit")


def fig5_table(docs: Dict[str, List[Optional[dict]]]) -> str:
    """001 Fig. 5: per scheme and flow, goodput and the TCP window (mean and spread over time)."""
    lines = ["| scheme | flow | goodput (kbit/s) | cwnd mean (packets) | cwnd std. dev. over time |",
             "|---|---|---:|---:|---:|"]
    share = None
    for scheme in FIG5_SCHEMES:
        runs = [d for d in docs[scheme] if d]
        if not runs:
            lines.append(f"| {NAMES[scheme]} | not run | | | |")
            continue
        warmup = runs[0]["scenario"]["simulation"].get("warmup_s", 0)
        share = share or shares(runs[0])
        for i, fid in enumerate(f["id"] for f in runs[0]["flows"]):
            goodput = statistics.mean(d["flows"][i]["goodput_bps"] for d in runs) / 1e3
            cw_means, cw_sds = [], []
            for d in runs:
                cw = [v for t, f, v in d["timeseries"]["tcp_cwnd"]["rows"] if f == fid and t > warmup]
                cw_means.append(statistics.mean(cw))
                cw_sds.append(statistics.pstdev(cw))
            lines.append(f"| {NAMES[scheme] if i == 0 else ''} | {fid} | {goodput:.1f} | "
                         f"{statistics.mean(cw_means):.1f} | {statistics.mean(cw_sds):.1f} |")
    fair = f"{statistics.mean(share.values()) / 1e3:.1f} kbit/s" if share else "?"
    return ("\n".join(lines) + f"\n\nFlows to n2..n5 behind the gateway n0; mean of {len(docs[FIG5_SCHEMES[0]])} "
            f"seeds. The controller's share per flow (collision-domain model): {fair} (001: about 65). "
            "The window is sampled every measurement interval after the warm-up; its spread over time shows "
            "how much it swings.")


def fig6_table(docs: List[Optional[dict]]) -> str:
    """001 Fig. 6: per subscriber, each flow's goodput and their sum over the subscriber's share."""
    runs = [d for d in docs if d]
    if not runs:
        return "not run"
    rows: Dict[str, Dict[str, List[float]]] = {}
    for d in runs:
        rates = {f["id"]: f["goodput_bps"] for f in d["flows"]}
        st = d["controllers"][0]["statistics"]
        first = int(d["scenario"]["simulation"].get("warmup_s", 0) / st["report_interval_s"])
        for c in st["classes"]:
            # The share over the measurement window (the series has one value per
            # report interval), as the goodput is.
            window = c["share_series_bps"][first:] or [c["share_bps"]]
            share = statistics.mean(window)
            if not share:
                continue
            entry = rows.setdefault(c["class"], {})
            for fid in c["flows"]:
                entry.setdefault(fid, []).append(rates[fid] / share)
            entry.setdefault("sum", []).append(sum(rates[f] for f in c["flows"]) / share)

    def ci(xs: List[float]) -> str:
        # Student's t for n - 1 degrees of freedom (two-sided 95 %).
        t = {2: 12.71, 3: 4.30, 4: 3.18, 5: 2.78, 6: 2.57, 7: 2.45, 8: 2.36, 9: 2.31, 10: 2.26}.get(len(xs), 1.96)
        half = t * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else 0.0
        return f"{statistics.mean(xs):.2f} ± {half:.2f}"

    lines = ["| subscriber | flows | each flow / subscriber's share | sum / share |", "|---|---:|---|---:|"]
    for cls in sorted(rows, key=lambda c: int("".join(ch for ch in c if ch.isdigit()) or 0)):
        flows = [f for f in rows[cls] if f != "sum"]
        lines.append(f"| {cls} | {len(flows)} | {', '.join(ci(rows[cls][f]) for f in sorted(flows))} | "
                     f"{ci(rows[cls]['sum'])} |")
    sums = [statistics.mean(v["sum"]) for v in rows.values()]
    return ("\n".join(lines) + f"\n\nPer-flow rate limiting with one class per subscriber (the mesh node), the "
            f"collision-domain share; mean ± 95 % confidence interval over {len(runs)} seeds of "
            f"{runs[0]['run']['simulated_time_s']:g} s. Subscribers' sums / share: {min(sums):.2f} to "
            f"{max(sums):.2f}, JFI of the sums {jain(sums):.3f}.")


PAPER_T4 = {"100-200": ["0.96", "0.99", "", "", "0.98", "0.95"], "200-300": ["0.98", "1.06", "0.88", "", "0.97", "0.94"],
            "300-400": ["0.95", "0.99", "0.99", "0.99", "0.96", "0.99"], "400-500": ["0.95", "", "0.91", "", "", "0.88"]}


def main(argv: Optional[List[str]] = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--wmnsim", default=str(ROOT / "build" / "release" / "cli" / "wmnsim"))
    p.add_argument("--seeds", default="1,2,3")
    p.add_argument("--orders", type=int, default=25, help="activation orders per topology (Tables 1-2)")
    p.add_argument("--duration", type=float, default=300.0)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--out")
    p.add_argument("--no-doc", action="store_true")
    args = p.parse_args(argv)
    seeds = [int(s) for s in args.seeds.split(",")]
    out = Path(args.out) if args.out else Path(tempfile.mkdtemp(prefix="gateway-report-"))
    out.mkdir(parents=True, exist_ok=True)
    dur = [f"/simulation/duration_s={args.duration:g}"]
    jobs: List[Tuple[str, Path, Path, int, List[str]]] = []
    for scheme in SCHEMES:
        for s in seeds:
            jobs.append((f"fig3/{scheme}", SCEN / "chain_1mbps.json", out / f"fig3_{scheme}_{s}.json", s,
                         dur + [f"/controllers/0/scheme={scheme}"]))
    generated = out / "topologies"
    generated.mkdir(exist_ok=True)
    for name, gen in TOPOLOGIES:
        for direction in ("down", "up"):
            for s in range(1, args.orders + 1):
                scen = generated / f"{name}_{direction}_{s}.json"
                if not scen.exists():
                    extra = [] if "--seed" in gen else ["--seed", "1"]
                    subprocess.run([sys.executable, str(GENERATOR), *gen, *extra, "--order-seed", str(s),
                                    "--direction", direction, "--out", str(scen)], check=True, cwd=ROOT)
                schemes = TABLE_SCHEMES + (("source_rate_limit",) if direction == "up" else ())
                # Measure from 20 s after the last flow started (flows start 1 s apart).
                last_start = max(f.get("start_s", 0) for f in json.loads(scen.read_text())["flows"])
                warm = [f"/simulation/warmup_s={last_start + 20:g}"]
                for scheme in schemes:
                    jobs.append((f"t12/{name}/{direction}/{scheme}", scen, out / f"t12w_{name}_{direction}_{scheme}_{s}.json",
                                 s, dur + warm + [f"/controllers/0/scheme={scheme}"]))
    for direction in ("up", "down"):
        for s in seeds:
            jobs.append((f"t3/{direction}", SCEN / f"parking_lot3_udp_{direction}.json",
                         out / f"t3_{direction}_{s}.json", s, []))
    # Not in 001: the upstream case with Poisson sources of the same mean rate, to
    # show how much of n2's and n3's loss is the CBR's lock-step (gateway.md, Table 3).
    for s in seeds:
        jobs.append(("t3/up_poisson", SCEN / "parking_lot3_udp_up.json", out / f"t3_up_poisson_{s}.json", s,
                     [f'/flows/{i}/traffic/type="poisson"' for i in range(3)]))
    for s in seeds:
        jobs.append(("t4", SCEN / "multi_radio.json", out / f"t4_{s}.json", s, []))
        jobs.append(("fig7", SCEN / "chain7_short_lived.json", out / f"fig7_{s}.json", s, []))
        jobs.append(("fig6", SCEN / "random20_fig6.json", out / f"fig6_{s}.json", s, dur))
        for name, _, _ in FIG1:
            jobs.append((f"fig1/{name}", SCEN / f"{name}.json", out / f"fig1_{name}_{s}.json", s, []))
        for scheme in FIG5_SCHEMES:
            # 001 Fig. 5c-d: the aggregate limit alone over one 25-packet FIFO.
            jobs.append((f"fig5/{scheme}", SCEN / "chain5_4flows.json", out / f"fig5_{scheme}_{s}.json", s,
                         dur + [f"/controllers/0/scheme={scheme}"]))

    results: Dict[str, List[Optional[dict]]] = {}
    scenarios: Dict[str, List[Path]] = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = [(key, scen, pool.submit(run, args.wmnsim, scen, o, s, sets)) for key, scen, o, s, sets in jobs]
        for key, scen, fut in futures:
            results.setdefault(key, []).append(fut.result())
            scenarios.setdefault(key, []).append(scen)

    fig3 = {scheme: results[f"fig3/{scheme}"] for scheme in SCHEMES}
    t12 = {tuple(k.split("/")[1:]): [(d, model_shares(args.wmnsim, scen), HOPS_CACHE[str(scen)])
                                     for d, scen in zip(v, scenarios[k])]
           for k, v in results.items() if k.startswith("t12/")}
    blocks = {
        "fig1": fig1_table({name: results[f"fig1/{name}"] for name, _, _ in FIG1}),
        "fig3": fig3_table(fig3, model_shares(args.wmnsim, SCEN / "chain_1mbps.json")),
        "table1": tables12(t12, "down"),
        "table2": tables12(t12, "up"),
        "table3": table3({d: results[f"t3/{d}"] for d in ("up", "down", "up_poisson")}),
        "table4": interval_table(results["t4"], [(100, 200), (200, 300), (300, 400), (400, 500)], PAPER_T4,
                                 {f"{i}->0": [f"{i}to0"] for i in range(1, 7)}),
        "fig4": fig4_table(fig3["fred"]),
        "fig5": fig5_table({scheme: results[f"fig5/{scheme}"] for scheme in FIG5_SCHEMES}),
        "fig6": fig6_table(results["fig6"]),
        "fig7": interval_table(results["fig7"], [(0, 150), (150, 200), (200, 250), (250, 300)], {},
                               {"1->0": ["1to0", "1to0_again"], "0->5": ["0to5"], "0->7": ["0to7", "0to7_again"],
                                "3->0": ["3to0"], "0->6": ["0to6"]}),
    }
    if args.no_doc:
        for name, body in blocks.items():
            print(f"## {name}\n{body}\n")
        return 0
    text = DOC.read_text()
    for name, body in blocks.items():
        text = replace_block(text, name, body, DOC)
    DOC.write_text(text)
    print(f"wrote {DOC} from {len(jobs)} runs in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
