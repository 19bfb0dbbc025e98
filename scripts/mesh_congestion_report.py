#!/usr/bin/python3
"""The tables and figure of docs/reproductions/mesh-congestion.md (paper 004), from runs.

Runs 004's mesh (scenarios/fu2009/mesh40_4gw.json: 40 stations on a 20 m grid in
500 m x 500 m, four corner gateways, 300 kbit/s down and 100 kbit/s up of UDP CBR
per station, 180 s) for --snapshots snapshots (the placement and shadowing seed,
/node_groups/0/seed = 1..N; 004: 50) and --seeds runs each (004: 3), with no
congestion control, TCC and LSCC (004 Sec. 4.1's parameters, the controllers'
defaults), then rewrites the blocks between <!-- begin:NAME --> and
<!-- end:NAME --> of the document (scripts/doc_blocks.py) and draws
docs/reproductions/mesh-congestion.png. Nothing is typed in.

  - fig6: per snapshot, no congestion control: throughput and weighted intra-mesh
    loss, sorted by the loss (004 Fig. 6);
  - fig7: per snapshot, throughput with none, TCC and LSCC, sorted by none (Fig. 7),
    and how often each scheme raises or lowers it;
  - loss: intra-mesh loss by cause under each scheme (buffer drops of forwarded
    packets, 004's intra-mesh loss; retry-limit drops after forwarding);
  - fig8: snapshot --example's 40 uplink and 40 downlink flows under each scheme:
    quartiles, whiskers and starving flows (under 10 % of the flow's rate) (Fig. 8);
  - docs/reproductions/mesh-congestion-topology.png: snapshot --example with its
    routes (Fig. 5; alone with --topology-only; needs the Python module).

Usage: /usr/bin/python3 scripts/mesh_congestion_report.py [--wmnsim build/release/cli/wmnsim]
          [--snapshots 50] [--seeds 1,2,3] [--duration 180] [--jobs 2] [--out DIR]
          [--example 1] [--no-doc] [--no-plot] [--variant udp|tcp_bursty|tcp] [--topology-only]
Results are kept in --out (default: a temporary folder) and reused when present
(delete the folder after a model change).
"""
from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Dict, List, Optional, Sequence

sys.path.insert(0, str(Path(__file__).resolve().parent))
from doc_blocks import replace_block  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "reproductions" / "mesh-congestion.md"
# The traffic mixes: 004 Sec. 4.2-4.3 (UDP CBR), Sec. 4.4 (each flow split into a
# TCP half and a bursty UDP half; the throughput counted is TCP's) and Sec. 4.4's
# first paragraph (one TCP flow each way per station; only the summary and the loss
# table, for its claim that congestion control changes nothing there).
VARIANTS = {
    "udp": {"scenario": ROOT / "scenarios" / "fu2009" / "mesh40_4gw.json", "figure": "mesh-congestion.png",
            "tag": "", "counted": "", "offered": 16e6},
    "tcp_bursty": {"scenario": ROOT / "scenarios" / "fu2009" / "mesh40_4gw_tcp_bursty.json",
                   "figure": "mesh-congestion-tcp.png", "tag": "tcp_", "counted": "_tcp_", "offered": 8e6},
    "tcp": {"scenario": ROOT / "scenarios" / "fu2009" / "mesh40_4gw_tcp.json", "figure": None,
            "tag": "tcponly_", "counted": "", "offered": 16e6, "blocks": ("fig7_summary", "loss")},
}
SCHEMES = ("none", "tcc", "lscc")
NAMES = {"none": "no congestion control", "tcc": "TCC", "lscc": "LSCC"}
STARVING = 0.1  # a flow under this share of its rate starves


VARIANT_KEYS = {"": "", "group": ', "notification_delivery": "group"',
                "exclude": ', "exclude_blocked_packets": true'}
VARIANT_NAMES = {"": "unicast notifications (004's rules)", "group": "group-addressed notifications",
                 "exclude": "exclude_blocked_packets (ours, outside 004)"}


def controllers_of(scheme: str) -> str:
    """The /controllers value of a scheme: "tcc", "lscc", or either with "_group"
    (notification_delivery "group": one unacknowledged group frame per notification),
    or "lscc_exclude" (exclude_blocked_packets)."""
    kind, _, variant = scheme.partition("_")
    return f'[{{"type": "{kind}"{VARIANT_KEYS[variant]}}}]'



def mutual_blocks(full: dict) -> int:
    """Pairs of radios that each blocked the other for more than half the run (004
    Fig. 2's congestion-control collision, persisting)."""
    if not full.get("controllers"):
        return 0
    half = full["scenario"]["simulation"]["duration_s"] / 2
    by = {r["radio"]: r["blocked_by_radio_s"] for r in full["controllers"][0]["statistics"]["radios"]}
    return sum(1 for a in by for b in by
               if a < b and by[a].get(str(b), 0) > half and by[b].get(str(a), 0) > half)


def condense(full: dict, scheme: str, snapshot: int, seed: int) -> dict:
    """What the tables need of one run's results."""
    return {
        "scheme": scheme, "snapshot": snapshot, "seed": seed,
        "summary": full["summary"],
        "flows": [{k: f[k] for k in ("id", "src", "dst", "hops", "goodput_bps")} for f in full["flows"]],
        "rates": {f["id"]: f["traffic"]["rate_bps"] for f in full["scenario"]["flows"]},
        "controller": {k: v for k, v in full["controllers"][0]["statistics"].items() if k != "radios"}
        if full.get("controllers") else None,
        "mgmt_sent": sum((n.get("mgmt_sent") or 0) for n in full["nodes"]),
        "mutual_blocks": mutual_blocks(full),
    }


def run_one(wmnsim: str, scenario: Path, out_dir: Path, scheme: str, snapshot: int, seed: int, duration: float,
            need_blocks: bool = False) -> dict:
    """One run, cached as a compact JSON file (summary, flows, controller totals).
    need_blocks: a cached run from before mutual_blocks was kept is run again."""
    # Per scenario (the variants share flow ids); a run of another duration is redone.
    path = out_dir / scenario.stem / scheme / f"s{snapshot:02d}_r{seed}.json"
    if path.exists():
        kept = json.loads(path.read_text())
        if (not need_blocks or "mutual_blocks" in kept) and kept.get("duration", duration) == duration:
            return kept
    path.parent.mkdir(parents=True, exist_ok=True)
    raw = path.with_suffix(".raw.json")
    cmd = [wmnsim, "run", str(scenario), "--seed", str(seed), "--set", f"/node_groups/0/seed={snapshot}",
           "--set", f"/simulation/duration_s={duration}", "--set", "/outputs/timeseries=[]", "-o", str(raw)]
    if scheme != "none":
        cmd += ["--set", f"/controllers={controllers_of(scheme)}"]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    keep = condense(json.loads(raw.read_text()), scheme, snapshot, seed)
    keep["duration"] = duration
    path.write_text(json.dumps(keep))
    raw.unlink()
    return keep


def mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs) if xs else float("nan")


def quartiles(xs: Sequence[float]) -> Dict[str, float]:
    s = sorted(xs)
    q1, med, q3 = statistics.quantiles(s, n=4, method="inclusive")
    iqr = q3 - q1
    lo = min(x for x in s if x >= q1 - 1.5 * iqr)
    hi = max(x for x in s if x <= q3 + 1.5 * iqr)
    return {"q1": q1, "median": med, "q3": q3, "low": lo, "high": hi,
            "outliers": sum(1 for x in s if x < lo or x > hi)}


def mbps(x: float) -> str:
    return f"{x / 1e6:.2f}"


def kbps(x: float) -> str:
    return f"{x / 1e3:.0f}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--wmnsim", default=os.environ.get("WMNSIM_BIN", str(ROOT / "build" / "release" / "cli" / "wmnsim")))
    ap.add_argument("--snapshots", type=int, default=50)
    ap.add_argument("--seeds", default="1,2,3")
    ap.add_argument("--duration", type=float, default=180.0)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", help="keep the runs' results here (and reuse them)")
    ap.add_argument("--example", type=int, default=1, help="the snapshot of Fig. 8")
    ap.add_argument("--no-doc", action="store_true", help="print the tables instead of writing the document")
    ap.add_argument("--no-plot", action="store_true")
    ap.add_argument("--group-seeds", default="",
                    help="also run TCC and LSCC with group-addressed notifications, and LSCC with "
                         "exclude_blocked_packets, for these seeds (e.g. 1) and write the 'group' block (udp only)")
    ap.add_argument("--variant", choices=sorted(VARIANTS), default="udp",
                    help="udp: Fig. 6-8 (UDP CBR); tcp_bursty: Fig. 9-10 (TCP + bursty UDP, TCP's throughput); "
                         "tcp: one TCP flow each way per station (Sec. 4.4's first claim)")
    ap.add_argument("--topology-only", action="store_true",
                    help="only draw Fig. 5 (snapshot --example and its routing trees)")
    args = ap.parse_args()
    v = VARIANTS[args.variant]
    topology = ROOT / "docs" / "reproductions" / "mesh-congestion-topology.png"
    if args.topology_only:
        plot_topology(args.wmnsim, v["scenario"], args.example, topology)
        return 0
    tag, counted = v["tag"], v["counted"]

    def counted_goodput(r: dict) -> float:
        if not counted:
            return r["summary"]["total_goodput_bps"]
        return sum(f["goodput_bps"] for f in r["flows"] if counted in f["id"])
    seeds = [int(s) for s in args.seeds.split(",")]
    out_dir = Path(args.out) if args.out else Path(tempfile.mkdtemp(prefix="mesh_congestion_"))
    snapshots = list(range(1, args.snapshots + 1))
    jobs = [(scheme, k, s) for k in snapshots for s in seeds for scheme in SCHEMES]
    runs: Dict[tuple, dict] = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = {pool.submit(run_one, args.wmnsim, v["scenario"], out_dir, sc, k, s, args.duration): (sc, k, s)
                   for sc, k, s in jobs}
        for done, fut in enumerate(concurrent.futures.as_completed(futures), 1):
            runs[futures[fut]] = fut.result()
            if done % 50 == 0:
                print(f"{done}/{len(jobs)} runs", file=sys.stderr)
    print(f"{len(jobs)} runs of {args.duration:g} s on {args.jobs} workers, results in {out_dir}", file=sys.stderr)

    def per_snapshot(scheme: str, key) -> Dict[int, float]:
        return {k: mean([key(runs[(scheme, k, s)]) for s in seeds]) for k in snapshots}

    thr = {sc: per_snapshot(sc, counted_goodput) for sc in SCHEMES}
    total = {sc: per_snapshot(sc, lambda r: r["summary"]["total_goodput_bps"]) for sc in SCHEMES}
    wloss = {sc: per_snapshot(sc, lambda r: r["summary"]["weighted_intra_mesh_loss_bps"]) for sc in SCHEMES}
    buf = {sc: per_snapshot(sc, lambda r: r["summary"]["drops_intra_mesh_by_cause"]["queue_overflow"]) for sc in SCHEMES}
    retry = {sc: per_snapshot(sc, lambda r: r["summary"]["drops_intra_mesh_by_cause"]["retry_limit"]) for sc in SCHEMES}
    local = {sc: per_snapshot(sc, lambda r: r["summary"]["drops_local"]) for sc in SCHEMES}
    sent = {sc: per_snapshot(sc, lambda r: (r["controller"] or {}).get("notifications_sent", 0)) for sc in SCHEMES}

    blocks: Dict[str, str] = {}
    # ---- Fig. 6 ----
    order6 = sorted(snapshots, key=lambda k: (wloss["none"][k], k))
    lines = ["| rank | snapshot | throughput (Mbit/s) | weighted intra-mesh loss (Mbit/s) | forwarded packets lost in buffers | local drops |",
             "|---:|---:|---:|---:|---:|---:|"]
    for i, k in enumerate(order6, 1):
        lines.append(f"| {i} | {k} | {mbps(thr['none'][k])} | {mbps(wloss['none'][k])} | {buf['none'][k]:.0f} | {local['none'][k]:.0f} |")
    t = [thr["none"][k] for k in snapshots]
    w = [wloss["none"][k] for k in snapshots]
    lines.append("")
    lines.append(f"{len(snapshots)} snapshots x {len(seeds)} runs of {args.duration:g} s, no congestion control; "
                 f"throughput {mbps(min(t))} to {mbps(max(t))} Mbit/s of the 16 offered (004: 6.4 to 15.6), "
                 f"weighted intra-mesh loss {mbps(min(w))} to {mbps(max(w))} Mbit/s (004: 0 to 8.5).")
    if not tag:
        blocks["fig6"] = "\n".join(lines)

    # ---- Fig. 7 ----
    order7 = sorted(snapshots, key=lambda k: (thr["none"][k], k))
    what = "TCP throughput" if tag else "throughput"
    lines = [f"| rank | snapshot | {what}, none (Mbit/s) | TCC | LSCC | TCC - none | LSCC - none |",
             "|---:|---:|---:|---:|---:|---:|---:|"]
    for i, k in enumerate(order7, 1):
        n, tc, ls = thr["none"][k], thr["tcc"][k], thr["lscc"][k]
        lines.append(f"| {i} | {k} | {mbps(n)} | {mbps(tc)} | {mbps(ls)} | {(tc - n) / 1e6:+.2f} | {(ls - n) / 1e6:+.2f} |")
    blocks[tag + "fig7"] = "\n".join(lines)

    def change_row(sc: str) -> str:
        d = [thr[sc][k] - thr["none"][k] for k in snapshots]
        up = sum(1 for x in d if x > 0.01 * v["offered"])
        down = sum(1 for x in d if x < -0.01 * v["offered"])
        return (f"| {NAMES[sc]} | {mbps(mean([thr[sc][k] for k in snapshots]))} | {mean(d) / 1e6:+.2f} | "
                f"{max(d) / 1e6:+.2f} | {min(d) / 1e6:+.2f} | {up} | {down} | {len(snapshots) - up - down} |")
    band = mbps(0.01 * v["offered"])
    lines = [f"| scheme | mean {what} (Mbit/s) | mean change | largest gain | largest loss | snapshots raised by > {band} Mbit/s | lowered | within |",
             "|---|---:|---:|---:|---:|---:|---:|---:|",
             f"| {NAMES['none']} | {mbps(mean([thr['none'][k] for k in snapshots]))} | | | | | | |",
             change_row("tcc"), change_row("lscc")]
    if counted:
        udp = {sc: mean([total[sc][k] - thr[sc][k] for k in snapshots]) for sc in SCHEMES}
        lines.append("")
        lines.append("Bursty UDP throughput, mean over the snapshots: " +
                     ", ".join(f"{NAMES[sc]} {mbps(udp[sc])} Mbit/s" for sc in SCHEMES) + " (004: roughly 8).")
    blocks[tag + "fig7_summary"] = "\n".join(lines)

    # ---- loss by cause ----
    lines = ["| scheme | weighted intra-mesh loss (Mbit/s), mean | snapshots with forwarded packets lost in buffers | such packets per run, mean (max) | retry-limit drops after forwarding per run, mean | local drops per run, mean | notifications sent per run, mean |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for sc in SCHEMES:
        b = [buf[sc][k] for k in snapshots]
        lines.append(f"| {NAMES[sc]} | {mbps(mean([wloss[sc][k] for k in snapshots]))} | {sum(1 for x in b if x > 0)} | "
                     f"{mean(b):.0f} ({max(b):.0f}) | {mean([retry[sc][k] for k in snapshots]):.0f} | "
                     f"{mean([local[sc][k] for k in snapshots]):.0f} | {mean([sent[sc][k] for k in snapshots]):.0f} |")
    blocks[tag + "loss"] = "\n".join(lines)

    # ---- Fig. 8 ----
    ex = args.example
    lines = ["| direction | scheme | median (kbit/s) | quartiles | whiskers | outliers | starving (< 10 % of the rate) |",
             "|---|---|---:|---|---|---:|---:|"]
    box = {}
    for direction, suffix in (("uplink", counted + "up" if counted else "_up"),
                              ("downlink", counted + "down" if counted else "_down")):
        for sc in SCHEMES:
            vals, starving = [], 0
            for s in seeds:
                r = runs[(sc, ex, s)]
                for f in r["flows"]:
                    if f["id"].endswith(suffix):
                        vals.append(f["goodput_bps"])
                        starving += f["goodput_bps"] < STARVING * r["rates"][f["id"]]
            q = quartiles(vals)
            box[(direction, sc)] = vals
            lines.append(f"| {direction} | {NAMES[sc]} | {kbps(q['median'])} | {kbps(q['q1'])}-{kbps(q['q3'])} | "
                         f"{kbps(q['low'])}-{kbps(q['high'])} | {q['outliers']} | {starving / len(seeds):.1f} |")
    lines.append("")
    if counted:
        lines.append(f"Snapshot {ex}: the 40 uplink (fed at 50 kbit/s) and 40 downlink (150 kbit/s) TCP flows of each of "
                     f"{len(seeds)} runs pooled; starving flows per run.")
    else:
        lines.append(f"Snapshot {ex}: the 40 uplink (100 kbit/s) and 40 downlink (300 kbit/s) flows of each of "
                     f"{len(seeds)} runs pooled; starving flows per run.")
    blocks[tag + "fig8"] = "\n".join(lines)

    # ---- unicast against group-addressed notifications ----
    if args.group_seeds and not tag:
        gseeds = [int(x) for x in args.group_seeds.split(",")]
        gschemes = ("none", "tcc", "tcc_group", "lscc", "lscc_group", "lscc_exclude")
        gruns: Dict[tuple, dict] = {}
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            futures = {pool.submit(run_one, args.wmnsim, v["scenario"], out_dir, sc, k, s, args.duration, sc != "none"):
                       (sc, k, s) for k in snapshots for s in gseeds for sc in gschemes}
            for fut in concurrent.futures.as_completed(futures):
                gruns[futures[fut]] = fut.result()

        def gmean(sc: str, key) -> Dict[int, float]:
            return {k: mean([key(gruns[(sc, k, s)]) for s in gseeds]) for k in snapshots}
        gthr = {sc: gmean(sc, lambda r: r["summary"]["total_goodput_bps"]) for sc in gschemes}
        lines = ["| scheme | variant | mean throughput (Mbit/s) | snapshots raised by > 0.16 Mbit/s | lowered | within | "
                 "weighted intra-mesh loss (Mbit/s), mean | forwarded packets lost in buffers per run, mean | "
                 "snapshots with a mutual block | notification frames per run, mean |",
                 "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
                 f"| {NAMES['none']} | | {mbps(mean(list(gthr['none'].values())))} | | | | "
                 f"{mbps(mean(list(gmean('none', lambda r: r['summary']['weighted_intra_mesh_loss_bps']).values())))} | "
                 f"{mean(list(gmean('none', lambda r: r['summary']['drops_intra_mesh_by_cause']['queue_overflow']).values())):.0f} | | |"]
        for sc in gschemes[1:]:
            d = [gthr[sc][k] - gthr["none"][k] for k in snapshots]
            up = sum(1 for x in d if x > 0.01 * v["offered"])
            down = sum(1 for x in d if x < -0.01 * v["offered"])
            pairs = sum(1 for k in snapshots if any(gruns[(sc, k, s)]["mutual_blocks"] for s in gseeds))
            kind, _, variant = sc.partition("_")
            lines.append(
                f"| {NAMES[kind]} | {VARIANT_NAMES[variant]} | "
                f"{mbps(mean(list(gthr[sc].values())))} | {up} | {down} | {len(snapshots) - up - down} | "
                f"{mbps(mean(list(gmean(sc, lambda r: r['summary']['weighted_intra_mesh_loss_bps']).values())))} | "
                f"{mean(list(gmean(sc, lambda r: r['summary']['drops_intra_mesh_by_cause']['queue_overflow']).values())):.0f} | "
                f"{pairs} | {mean(list(gmean(sc, lambda r: r['mgmt_sent']).values())):.0f} |")
        lines.append("")
        lines.append(f"{len(snapshots)} snapshots, run seed{'s' if len(gseeds) > 1 else ''} "
                     f"{', '.join(map(str, gseeds))}. A mutual block: two stations each blocked by the other for more "
                     "than half the run. Notification frames: management frames put on the air, retries included.")
        blocks["group"] = "\n".join(lines)

    if "blocks" in v:
        blocks = {tag + b: blocks[tag + b] for b in v["blocks"]}
    if args.no_doc:
        for name, text in blocks.items():
            print(f"## {name}\n{text}\n")
    else:
        doc = DOC.read_text()
        for name, text in blocks.items():
            doc = replace_block(doc, name, text, DOC)
        DOC.write_text(doc)
        print(f"wrote {DOC.relative_to(ROOT)}", file=sys.stderr)
    if not args.no_plot and v["figure"]:
        plot(order6, order7, thr, wloss, box, ex, ROOT / "docs" / "reproductions" / v["figure"], bool(tag))
        if not tag:
            plot_topology(args.wmnsim, v["scenario"], ex, topology)
    return 0


def plot_topology(wmnsim: str, scenario: Path, snapshot: int, figure: Path) -> None:
    """004 Fig. 5: the example snapshot with its routing trees, drawn by the Python
    module's wmnsim.plot.topology from a run without congestion control (run seed 1,
    180 s): gateways as squares, the links that can carry data in grey, those the
    flows' recorded routes use shaded by the goodput routed over them. The module of
    the build that made --wmnsim is used (BUILD/python), else an installed one."""
    import matplotlib
    matplotlib.use("Agg")
    build_python = Path(wmnsim).resolve().parents[1] / "python"
    if (build_python / "wmnsim").is_dir():
        sys.path[:0] = [str(ROOT / "bindings"), str(build_python)]
    import wmnsim as wm
    import wmnsim.plot  # noqa: F401
    result = wm.run(scenario, seed=1, overrides={"/node_groups/0/seed": snapshot, "/outputs/timeseries": []})
    wm.plot.topology(result, path=figure, routes=False, labels=False,
                     title=f"Fig. 5: snapshot {snapshot}, no congestion control")
    print(f"wrote {figure.relative_to(ROOT)}", file=sys.stderr)


def plot(order6, order7, thr, wloss, box, ex, figure: Path, tcp: bool) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(2, 2, figsize=(12, 8))
    a = axes[0][0]
    x = range(1, len(order6) + 1)
    a.plot(x, [thr["none"][k] / 1e6 for k in order6], "o-", label="throughput")
    a.plot(x, [wloss["none"][k] / 1e6 for k in order6], "s-", label="weighted intra-mesh loss")
    a.set_xlabel("snapshot (sorted by loss)")
    a.set_ylabel("Mbit/s")
    a.set_title("Fig. 6: no congestion control" + (" (TCP + bursty UDP)" if tcp else ""))
    a.legend()
    a = axes[0][1]
    x = range(1, len(order7) + 1)
    for sc, m in (("none", "o-"), ("tcc", "^-"), ("lscc", "s-")):
        a.plot(x, [thr[sc][k] / 1e6 for k in order7], m, label=NAMES[sc])
    a.set_xlabel("snapshot (sorted by throughput without congestion control)")
    a.set_ylabel("TCP throughput (Mbit/s)" if tcp else "throughput (Mbit/s)")
    a.set_title("Fig. 9: TCP" if tcp else "Fig. 7: UDP")
    a.legend()
    for col, direction in enumerate(("uplink", "downlink")):
        a = axes[1][col]
        a.boxplot([[v / 1e3 for v in box[(direction, sc)]] for sc in SCHEMES], labels=[NAMES[sc] for sc in SCHEMES],
                  whis=1.5, sym="x")
        a.set_ylabel("flow throughput (kbit/s)")
        a.set_title(f"Fig. {10 if tcp else 8}: {direction} {'TCP ' if tcp else ''}flows, snapshot {ex}")
    fig.tight_layout()
    fig.savefig(figure, dpi=90)
    print(f"wrote {figure.relative_to(ROOT)}", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
