#!/usr/bin/python3
"""Paper 001 App. A.4 (Table 5, Fig. 10): how well the capacity models predict the
first max-min fair-share point a simulated mesh shows.

The experiment, as 001 App. A.4 describes it:
  - a topology and a set of streams, each between a mesh node and its gateway (001
    App. A: "a stream is defined by an exchange of data packets between a mesh node
    and its corresponding gateway");
  - every stream is source-rate limited UDP with 1500-byte packets (here: CBR of
    1500-byte payloads, ns-2's CBR packetSize_), at input rates from 50 % to 150 % of
    the computed fair share, 5 seeds per rate, the 5 throughputs averaged;
  - a stream's point of loss: the first of four successive input rates at which its
    throughput is below the input rate by more than 5 %;
  - the fair-share point fp of bottleneck 1: the lowest input rate at which more
    than one third of the streams that bottleneck constrains have reached their
    point of loss;
  - the error of each model: (model's share - fp) / fp, mean and standard deviation
    over 50 random topologies in 1000 x 1000 m with 25 to 40 streams each, without
    and with RTS/CTS (Table 5); and one 6 x 6 grid with 15 streams plotted as input
    rate against throughput (Fig. 10).

001 leaves open, and this script chooses (stated in the document it writes):
  - 40 mesh nodes and one gateway, uniform in the area, redrawn until connected with
    links up to 249.5 m (scripts/random_topology.py's rule), the gateway the node
    nearest the centre; 25 to 40 streams from as many distinct mesh nodes, each up
    (to the gateway) or down (from it) with probability 1/2;
  - Fig. 10's grid: 200 m spacing (as scripts/gateway_topology.py), the gateway at a
    corner, 15 streams;
  - the input rates: 21 points, 50 % to 150 % of the clique model's bottleneck-1
    share in steps of 5 %; "the streams bottleneck 1 constrains" are the streams with
    the clique model's lowest share (the omniscient model's view);
  - a run lasts long enough for 300 packets per stream at the clique share (at least
    100 s), after a 20 s warm-up; radio, MAC and queues are scenarios/jamshaid/
    chain_1mbps.json's (ns-2's defaults, 1 Mbit/s, 50-packet drop-tail queues, the
    next packet taken after each exchange as ns-2's MAC does);
  - B is Bianchi's one-station saturation throughput for the scenario's access mode
    (with RTS/CTS, the RTS/CTS exchange is in B); the table also gives the error of
    the models when B ignores RTS/CTS, as a B measured without it would.
  - When fp lies at the sweep's edge (loss already at 50 %, or none by 150 %), the
    sweep is widened in the same steps down to 10 % or up to 200 % (runs below 50 %
    lengthened to keep 150 packets per stream); a topology without an fp
    even then is counted and left out of the means.

Usage: /usr/bin/python3 scripts/capacity_accuracy.py [--wmnsim build/release/cli/wmnsim]
          [--topologies 50] [--seeds 5] [--jobs 2] [--out DIR] [--no-doc]
Runs are kept in --out (default /tmp/capacity-accuracy) and reused while the
scenario file and the wmnsim binary (its hash) are the same.
Writes the blocks table5 and fig10 of docs/reproductions/gateway.md and draws
docs/reproductions/gateway_fig10.png (needs matplotlib).
"""
from __future__ import annotations

import argparse
import hashlib
import concurrent.futures
import copy
import json
import math
import random
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
import random_topology as rt  # noqa: E402
from doc_blocks import replace_block  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = ROOT / "scenarios" / "jamshaid" / "chain_1mbps.json"
DOC = ROOT / "docs" / "reproductions" / "gateway.md"
FIGURE = DOC.with_name("gateway_fig10.png")

MESH_NODES = 40
AREA_M = 1000.0
LINK_M = 249.5
STREAMS = (25, 40)
PAYLOAD_BYTES = 1500
STEPS = [round(0.5 + 0.05 * k, 2) for k in range(21)]
# When fp falls at the sweep's first point (loss already at 50 %) or beyond its last
# (none by 150 %), the sweep goes on in the same steps down to 10 % or up to 200 %
# (not in 001, whose range would leave such a topology without an fp).
STEPS_BELOW = [round(0.1 + 0.05 * k, 2) for k in range(8)]
STEPS_ABOVE = [round(1.55 + 0.05 * k, 2) for k in range(10)]
LOSS = 0.05           # 001: "less than the input source rate by more than 5%"
SUCCESSIVE = 4        # 001: "true for four successive data points"
PACKETS_PER_STREAM = 300
WARMUP_S = 20.0
# 001 Table 5 (the means and standard deviations of (model - fp) / fp).
PAPER_T5 = {("clique", False): ("0.000077", "0.11"), ("collision_domain", False): ("0.027", "0.12"),
            ("clique", True): ("0.183", "0.357"), ("collision_domain", True): ("0.212", "0.361")}
MODELS = ("clique", "collision_domain")
MODEL_NAMES = {"clique": "clique (Ocl)", "collision_domain": "collision domain (Rcd)"}


def random_layout(seed: int) -> Tuple[List[Tuple[float, float]], int, List[Tuple[int, str]]]:
    """Positions, the gateway's index and the streams (mesh node, up|down) of random topology `seed`."""
    rng = random.Random(f"a4-random-{seed}")
    pos, _, _ = rt.place(rng, MESH_NODES + 1, AREA_M, AREA_M, LINK_M)
    gw = min(range(len(pos)), key=lambda i: (math.hypot(pos[i][0] - AREA_M / 2, pos[i][1] - AREA_M / 2), i))
    count = STREAMS[0] + rt.draw_index(rng, STREAMS[1] - STREAMS[0] + 1)
    return pos, gw, draw_streams(rng, [i for i in range(len(pos)) if i != gw], count)


def grid_layout() -> Tuple[List[Tuple[float, float]], int, List[Tuple[int, str]]]:
    """Fig. 10: a 6 x 6 grid 200 m apart, the gateway at a corner, 15 streams."""
    pos = [(c * 200.0, r * 200.0) for r in range(6) for c in range(6)]
    rng = random.Random("a4-grid6x6")
    return pos, 0, draw_streams(rng, list(range(1, 36)), 15)


def draw_streams(rng: random.Random, mesh: List[int], count: int) -> List[Tuple[int, str]]:
    left = list(mesh)
    out = []
    for _ in range(count):
        node = left.pop(rt.draw_index(rng, len(left)))
        out.append((node, "up" if rng.random() < 0.5 else "down"))
    return out


def scenario(name: str, layout: Tuple[List[Tuple[float, float]], int, List[Tuple[int, str]]], rts: bool,
             rates: Optional[Dict[str, float]] = None, duration_s: float = 100.0,
             phases: Optional[Dict[str, float]] = None) -> dict:
    pos, gw, streams = layout
    scen = json.loads(TEMPLATE.read_text())
    for key in ("links", "controllers", "outputs"):
        scen.pop(key, None)
    scen["name"] = name
    scen["description"] = (
        "Paper 001 App. A.4 (Table 5, Fig. 10), written by scripts/capacity_accuracy.py: streams between mesh nodes "
        f"and the gateway, UDP CBR of {PAYLOAD_BYTES}-byte payloads at the input rate under test; radio and MAC as "
        f"chain_1mbps.json, RTS/CTS {'on' if rts else 'off'}.")
    scen["simulation"] = {"duration_s": round(duration_s, 3), "warmup_s": WARMUP_S, "seed": 1,
                          "measurement_interval_s": round(duration_s, 3)}
    scen["mac"] = copy.deepcopy(scen["mac"])
    scen["mac"]["rts_threshold_bytes"] = 0 if rts else "off"
    ids = {i: ("gw" if i == gw else f"n{i}") for i in range(len(pos))}
    scen["nodes"] = [{"id": ids[i], "position_m": [round(x, 2), round(y, 2)], **({"role": "gateway"} if i == gw else {})}
                     for i, (x, y) in enumerate(pos)]
    flows = []
    for node, direction in streams:
        fid = f"{ids[node]}_{direction}"
        src, dst = (ids[node], ids[gw]) if direction == "up" else (ids[gw], ids[node])
        rate = (rates or {}).get(fid, 1000.0)
        # Each stream starts at its own phase of the CBR period: streams started together
        # would send in lock-step, every period a burst of as many packets as streams.
        start = (phases or {}).get(fid, 0.0) * PAYLOAD_BYTES * 8 / rate
        flows.append({"id": fid, "transport": "udp", "src": src, "dst": dst, "payload_bytes": PAYLOAD_BYTES,
                      "traffic": {"type": "cbr", "rate_bps": round(rate, 3)}, "start_s": round(start, 6)})
    scen["flows"] = flows
    return scen


def capacity(wmnsim: str, path: Path, mac_capacity_bps: Optional[float] = None) -> dict:
    cmd = [wmnsim, "model", "capacity", str(path), "--json"]
    if mac_capacity_bps is not None:
        cmd += ["--mac-capacity-bps", repr(mac_capacity_bps)]
    return json.loads(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout)


def run_one(wmnsim: str, path: Path, seed: int, out: Path) -> Dict[str, float]:
    """Each stream's goodput (bit/s) over the measurement window; cached in `out`."""
    if not out.exists():
        full = out.with_suffix(".full.json")
        p = subprocess.run([wmnsim, "run", str(path), "--seed", str(seed), "-o", str(full)],
                           capture_output=True, text=True)
        if p.returncode != 0:
            raise RuntimeError(f"{path} seed {seed}: {p.stderr[:500]}")
        doc = json.loads(full.read_text())
        out.write_text(json.dumps({f["id"]: f["goodput_bps"] for f in doc["flows"]}))
        full.unlink()
    return json.loads(out.read_text())


def loss_point(rates: Sequence[float], throughput: Sequence[float]) -> Optional[int]:
    """001: the first of four successive points whose throughput is more than 5 % below the input rate."""
    lossy = [t < (1 - LOSS) * r for r, t in zip(rates, throughput)]
    for k in range(len(lossy) - SUCCESSIVE + 1):
        if all(lossy[k:k + SUCCESSIVE]):
            return k
    return None


def fair_share_point(rates: Sequence[float], per_stream: Dict[str, List[float]], bottleneck: Sequence[str]
                     ) -> Optional[float]:
    """001: the input rate at which more than one third of bottleneck 1's streams have passed their loss point."""
    points = sorted(p for p in (loss_point(rates, per_stream[s]) for s in bottleneck) if p is not None)
    need = len(bottleneck) // 3 + 1  # "more than one-third"
    return rates[points[need - 1]] if len(points) >= need else None


class Experiment:
    """One topology with RTS/CTS off or on: the models' shares, the sweep, fp."""

    def __init__(self, name: str, layout, rts: bool, args: argparse.Namespace):
        self.name, self.layout, self.rts, self.args = name, layout, rts, args
        self.folder = Path(args.out) / f"{name}_{'rts' if rts else 'basic'}"
        self.folder.mkdir(parents=True, exist_ok=True)
        base = self.folder / "model.json"
        base.write_text(json.dumps(scenario(name, layout, rts)))
        cap = capacity(args.wmnsim, base)
        self.b_bps = cap["b"]["mac_capacity_bps"]
        self.shares = {m: {f["id"]: f[f"{m}_bps"] for f in cap["flows"]} for m in MODELS}
        if rts:  # the models with a B that leaves RTS/CTS out (one-station throughput in basic access)
            basic = self.folder / "model_basic.json"
            basic.write_text(json.dumps(scenario(name, layout, False)))
            b_basic = capacity(args.wmnsim, basic)["b"]["mac_capacity_bps"]
            cap2 = capacity(args.wmnsim, base, b_basic)
            self.shares_basic_b = {m: {f["id"]: f[f"{m}_bps"] for f in cap2["flows"]} for m in MODELS}
        self.first = {m: min(self.shares[m].values()) for m in MODELS}
        self.ref = self.first["clique"]
        self.bottleneck = sorted(f for f, r in self.shares["clique"].items() if r <= self.ref * (1 + 1e-9))
        self.steps = list(STEPS)
        self.duration_s = max(100.0, PACKETS_PER_STREAM * PAYLOAD_BYTES * 8 / self.ref) + WARMUP_S
        self.streams = list(self.shares["clique"])

    @property
    def rates(self) -> List[float]:
        return [self.ref * s for s in self.steps]

    def result(self, step: float, seed: int) -> Path:
        return self.folder / f"rate{round(step * 100):03d}_seed{seed}.goodput.json"

    def jobs(self) -> List[Tuple[Path, int, Path]]:
        out = []
        for step in self.steps:
            for seed in range(1, self.args.seeds + 1):
                path = self.folder / f"rate{round(step * 100):03d}_seed{seed}.json"
                # The streams' phases, drawn per seed (the same at every rate).
                rng = random.Random(f"a4-phases-{self.name}-{seed}")
                phases = {s: rng.random() for s in self.streams}
                rate = self.ref * step
                # Below 50 %, longer runs keep 150 packets per stream at least.
                duration = self.duration_s if step >= 0.5 else (self.duration_s - WARMUP_S) * 0.5 / step + WARMUP_S
                text = json.dumps(scenario(self.name, self.layout, self.rts, {s: rate for s in self.streams},
                                           duration, phases))
                # A cached result counts only for the very scenario it came from.
                if not path.exists() or path.read_text() != text:
                    path.write_text(text)
                    self.result(step, seed).unlink(missing_ok=True)
                out.append((path, seed, self.result(step, seed)))
        return out

    def collect(self) -> None:
        self.mean_throughput: Dict[str, List[float]] = {s: [] for s in self.streams}
        for step in self.steps:
            runs = [json.loads(self.result(step, seed).read_text()) for seed in range(1, self.args.seeds + 1)]
            for s in self.streams:
                self.mean_throughput[s].append(statistics.mean(r[s] for r in runs))
        self.fp = fair_share_point(self.rates, self.mean_throughput, self.bottleneck)

    def extend(self) -> bool:
        """Widen the sweep when fp is at or beyond its edge (see STEPS_BELOW); True if it did."""
        if self.fp is not None and self.fp <= self.rates[0] * (1 + 1e-12) and self.steps[0] > STEPS_BELOW[0]:
            self.steps = STEPS_BELOW + self.steps
            return True
        if self.fp is None and self.steps[-1] < STEPS_ABOVE[-1]:
            self.steps = self.steps + STEPS_ABOVE
            return True
        return False

    @property
    def fp_in_001_range(self) -> bool:
        return self.fp is not None and self.ref * STEPS[0] * (1 + 1e-12) < self.fp <= self.ref * STEPS[-1] * (1 + 1e-12)

    def errors(self, basic_b: bool = False) -> Dict[str, float]:
        shares = self.shares_basic_b if basic_b else self.shares
        return {m: (min(shares[m].values()) - self.fp) / self.fp for m in MODELS} if self.fp else {}


def check_binary(args: argparse.Namespace) -> None:
    """Cached runs count only for the wmnsim binary that made them: --out remembers its hash."""
    digest = hashlib.sha256(Path(args.wmnsim).read_bytes()).hexdigest()[:16]
    version = subprocess.run([args.wmnsim, "--version"], capture_output=True, text=True, check=True).stdout.strip()
    version = f"{version}, binary sha256 {digest}"
    stamp = Path(args.out) / "wmnsim-version.txt"
    stamp.parent.mkdir(parents=True, exist_ok=True)
    if stamp.exists() and stamp.read_text() != version:
        raise SystemExit(f"{args.out} holds runs of {stamp.read_text()!r}, not {version!r}: delete it or give another --out")
    stamp.write_text(version)


def execute(experiments: Sequence[Experiment], args: argparse.Namespace) -> None:
    pending = list(experiments)
    while pending:
        jobs = [j for e in pending for j in e.jobs()]
        todo = [j for j in jobs if not j[2].exists()]
        print(f"{len(jobs)} runs, {len(todo)} to do", file=sys.stderr)
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            for done, _ in enumerate(pool.map(lambda j: run_one(args.wmnsim, *j), todo), 1):
                if done % 500 == 0:
                    print(f"  {done}/{len(todo)}", file=sys.stderr)
        for e in pending:
            e.collect()
        pending = [e for e in pending if e.extend()]


def mean_sd(xs: Sequence[float]) -> Tuple[float, float]:
    return statistics.mean(xs), (statistics.stdev(xs) if len(xs) > 1 else 0.0)


def located(e: Experiment) -> bool:
    """fp found inside the (widened) sweep, not at its lowest point."""
    return e.fp is not None and e.fp > e.rates[0] * (1 + 1e-12)


def table5(randoms: Dict[bool, List[Experiment]]) -> str:
    lines = ["| measured entity | no RTS/CTS | with RTS/CTS | with RTS/CTS, B without it | 001: no RTS/CTS, with |",
             "|---|---:|---:|---:|---|"]
    for m in MODELS:
        for what, idx in (("mean", 0), ("std. dev.", 1)):
            cells = []
            for rts, basic_b in ((False, False), (True, False), (True, True)):
                errs = [e.errors(basic_b)[m] for e in randoms[rts] if located(e)]
                cells.append((f"{mean_sd(errs)[0]:+.3f}" if idx == 0 else f"{mean_sd(errs)[1]:.3f}") if errs else "none")
            paper = f"{PAPER_T5[(m, False)][idx]}, {PAPER_T5[(m, True)][idx]}"
            lines.append(f"| {what} of ({'Ocl' if m == 'clique' else 'Rcd'} - fp) / fp | {' | '.join(cells)} | "
                         f"{paper} |")
    lines += ["", "| | no RTS/CTS | with RTS/CTS |", "|---|---:|---:|"]

    def row(label: str, cell) -> None:
        lines.append(f"| {label} | {cell(randoms[False])} | {cell(randoms[True])} |")

    row("topologies", lambda es: str(len(es)))
    row("fp within 001's 50-150 % of the clique share", lambda es: str(sum(e.fp_in_001_range for e in es)))
    row("fp at or below 50 % (sweep widened down to 10 %)",
        lambda es: str(sum(1 for e in es if e.fp is not None and e.fp <= e.ref * STEPS[0] * (1 + 1e-12))))
    row("fp above 150 % (sweep widened up to 200 %)", lambda es: str(sum(1 for e in es if e.fp and e.fp > e.ref * 1.5001)))
    row("not located: none, or at the widened sweep's lowest point (left out)",
        lambda es: str(sum(1 for e in es if not located(e))))
    row("median fp / clique share", lambda es: f"{statistics.median(e.fp / e.ref for e in es if located(e)):.2f}"
        if any(located(e) for e in es) else "none")
    row("streams per topology", lambda es: f"{min(len(e.streams) for e in es)}-{max(len(e.streams) for e in es)}")
    row("streams in bottleneck 1 (clique), mean", lambda es: f"{statistics.mean(len(e.bottleneck) for e in es):.1f}")
    row("B (Bianchi, kbit/s)", lambda es: f"{es[0].b_bps / 1e3:.0f}")
    return ("\n".join(lines) + "\n\nErrors of the bottleneck-1 share each model computes, against the fair-share "
            "point fp found in the runs (mean and standard deviation over the topologies with an fp). The second "
            "table says where the fps fell.")


def fig10(grid: Experiment) -> str:
    lines = ["| input rate (kbit/s) | % of clique share | streams of bottleneck 1 losing > 5 % | mean throughput / "
             "input, bottleneck 1 | mean throughput / input, the others |", "|---:|---:|---:|---:|---:|"]
    others = [s for s in grid.streams if s not in grid.bottleneck]
    for k, rate in enumerate(grid.rates):
        losing = sum(1 for s in grid.bottleneck if grid.mean_throughput[s][k] < (1 - LOSS) * rate)
        b = statistics.mean(grid.mean_throughput[s][k] / rate for s in grid.bottleneck)
        o = statistics.mean(grid.mean_throughput[s][k] / rate for s in others) if others else float("nan")
        lines.append(f"| {rate / 1e3:.2f} | {grid.steps[k] * 100:.0f} | {losing} of {len(grid.bottleneck)} | {b:.3f} | "
                     f"{o:.3f} |")
    fp = f"{grid.fp / 1e3:.2f} kbit/s" if located(grid) else "not found"
    return ("\n".join(lines) + f"\n\n6 x 6 grid, 15 streams, no RTS/CTS, mean of {grid.args.seeds} seeds per rate. "
            f"Models: clique (o+cl) {grid.first['clique'] / 1e3:.2f} kbit/s, collision domain (r+cd) "
            f"{grid.first['collision_domain'] / 1e3:.2f} kbit/s; fair-share point found: {fp}. "
            f"Bottleneck 1 (clique): {', '.join(grid.bottleneck)}.")


def draw(grid: Experiment) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7, 4.5))
    x = [r / 1e3 for r in grid.rates]
    for s in grid.streams:
        style = "-" if s in grid.bottleneck else ":"
        ax.plot(x, [t / 1e3 for t in grid.mean_throughput[s]], style, linewidth=1)
    ax.plot(x, x, "k:", linewidth=0.8, label="throughput = input")
    for m, label, colour in (("clique", "o+cl", "tab:red"), ("collision_domain", "r+cd", "tab:blue")):
        ax.axvline(grid.first[m] / 1e3, color=colour, linewidth=1, label=label)
    if located(grid):
        ax.axvline(grid.fp / 1e3, color="k", linestyle="--", linewidth=1.2, label="fair-share point found")
    ax.set_xlabel("input rate per stream (kbit/s)")
    ax.set_ylabel("throughput per stream (kbit/s)")
    ax.set_title("001 Fig. 10 in wmnsim: 6x6 grid, 15 streams, no RTS/CTS")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(FIGURE, dpi=100)


def main(argv: Optional[List[str]] = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--wmnsim", default=str(ROOT / "build" / "release" / "cli" / "wmnsim"))
    p.add_argument("--topologies", type=int, default=50)
    p.add_argument("--seeds", type=int, default=5)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--out", default="/tmp/capacity-accuracy")
    p.add_argument("--no-doc", action="store_true")
    args = p.parse_args(argv)
    check_binary(args)
    grid = Experiment("grid6x6", grid_layout(), False, args)
    randoms = {rts: [Experiment(f"random{t:02d}", random_layout(t), rts, args) for t in range(1, args.topologies + 1)]
               for rts in (False, True)}
    execute([grid] + randoms[False] + randoms[True], args)
    t5, f10 = table5(randoms), fig10(grid)
    if args.no_doc:
        print(t5 + "\n\n" + f10)
        return 0
    text = DOC.read_text()
    text = replace_block(text, "table5", t5, DOC)
    text = replace_block(text, "fig10", f10, DOC)
    DOC.write_text(text)
    try:
        draw(grid)
    except ImportError:
        print("matplotlib missing: no figure", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
