"""Contention rounds of a one-hop cell in ns-3 and in wmnsim (docs/validation.md, "What
still differs", the cell): the figures that traced the cell's gap to ns-3's queue lifetime.

    /usr/bin/python3 validation/ns3/rounds.py [--seeds 1 2 3 4] [--ns3-sources] [SCENARIO]

For each seed it runs the ns-3 program with its trace and wmnsim under the ns3 preset with
its event trace (the default scenario: scenarios/bench/cell50_saturated.json), keeps what
happens after the warm-up, and prints per simulator:
  - DATA attempts, rounds (attempts grouped by the instant they start: frames of one round
    start within 5 us, in the same slot) and the share of rounds with two or more senders;
  - successes (a DATA frame of the round decoded at its receiver, the access point);
  - backoffs drawn less DATA attempts (accesses lost to expiries draw without sending) and
    the contention window at each draw;
then, over all seeds, how often the stronger of two frames that collide is decoded, by
their power difference at the receiver (powers from wmnsim's receptions; the same
positions and propagation in both). --ns3-sources runs wmnsim with the ns-3 program's
sources (run_ns3.ns3_sources). Needs a ci build (build/ci) and the ns-3 program
(build_ns3.sh), as run_ns3.py.
"""
from __future__ import annotations

import argparse
import bisect
import collections
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import run_ns3  # noqa: E402

SAME_ROUND_S = 5e-6
DECODE_WITHIN_S = 2e-3  # a DATA frame of the round decoded before the next round can begin
POWER_BINS_DB = (0, 1, 2, 3, 4, 5, 6, 8, 10, 15)


def rounds_of(attempts: list) -> list:
    """[(start_s, node)] sorted -> [[(start_s, node), ...], ...], one list per round."""
    rounds: list = []
    for t, node in attempts:
        if rounds and t - rounds[-1][0][0] <= SAME_ROUND_S:
            rounds[-1].append((t, node))
        else:
            rounds.append([(t, node)])
    return rounds


def decoded_in(rnd: list, decoded: list, times: list) -> set:
    """The senders of `rnd` whose DATA frame the receiver decoded."""
    senders = {n for _, n in rnd}
    i = bisect.bisect_left(times, rnd[0][0])
    out = set()
    while i < len(decoded) and decoded[i][0] < rnd[0][0] + DECODE_WITHIN_S:
        if decoded[i][1] in senders:
            out.add(decoded[i][1])
        i += 1
    return out


def summary(attempts: list, decoded: list, draws: list, power: dict, capture: dict) -> dict:
    attempts.sort()
    decoded.sort()
    times = [t for t, _ in decoded]
    rounds = rounds_of(attempts)
    successes = 0
    for rnd in rounds:
        won = decoded_in(rnd, decoded, times)
        successes += bool(won)
        if len(rnd) == 2:
            strong, weak = sorted((n for _, n in rnd), key=lambda n: -power.get(n, -1e9))
            d = power.get(strong, 0.0) - power.get(weak, 0.0)
            c = capture[max(b for b in POWER_BINS_DB if b <= d)]
            c[0] += 1
            c[1] += strong in won
    return {"attempts": len(attempts), "rounds": len(rounds), "multi": sum(len(r) > 1 for r in rounds) / len(rounds),
            "successes": successes, "extra_draws": len(draws) - len(attempts),
            "cw": dict(sorted(collections.Counter(draws).items()))}


def ns3_side(trace: Path, spec: str, since_s: float, power: dict, capture: dict) -> dict:
    # ns-3 numbers the devices' MAC addresses from 00:00:00:00:00:01 in the order the
    # spec lists the nodes (as the program installs them).
    nodes = [line.split()[1] for line in spec.splitlines() if line.startswith("node ")]
    mac_of_node = {n: f"00:00:00:00:00:{i + 1:02x}" for i, n in enumerate(nodes)}
    attempts, decoded, draws, node_of_mac, cw = [], [], [], {}, {}
    with open(trace) as f:
        for line in f:
            p = line.split()
            t, who, what = float(p[0]), p[1], p[2]
            if what == "cw":  # ns-3's CW is the largest slot count, wmnsim's the window size
                cw[who] = int(p[3]) + 1
            if t < since_s:
                continue
            if what == "tx" and p[3] == "DATA":
                attempts.append((t, who))
                node_of_mac[p[5][len("from="):]] = who
            elif what == "rx_ok" and p[3] == "DATA":
                decoded.append((t, who, p[4][len("to="):], p[5][len("from="):]))
            elif what == "backoff":
                draws.append(cw.get(who))
    # Decoded by its addressee only, not overheard.
    decoded = [(t, node_of_mac.get(src, src)) for t, who, to, src in decoded if to == mac_of_node.get(who)]
    return summary(attempts, decoded, [c for c in draws if c is not None], power, capture)


def wmnsim_side(events, since_s: float, capture: dict) -> tuple:
    e = events[events.time_s >= since_s]
    tx = e[(e.kind == "tx_start") & (e.frame == "data")]
    ok = e[(e.kind == "rx_ok") & (e.frame == "data")]
    receivers = set(tx.peer.astype(str))  # decoded by an addressee (not overheard)
    ok = ok[ok.node.astype(str).isin(receivers)]
    power = ok.groupby(ok.peer.astype(str)).power_dbm.mean().to_dict()
    draws = [int(c) for c in e[e.kind == "backoff"].cw]
    return summary(list(zip(tx.time_s, tx.node.astype(str))), list(zip(ok.time_s, ok.peer.astype(str))), draws,
                   power, capture), power


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("scenario", nargs="?", default="scenarios/bench/cell50_saturated.json")
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3, 4])
    ap.add_argument("--ns3-sources", action="store_true", help="wmnsim with the ns-3 program's sources")
    ap.add_argument("--build", type=Path, default=run_ns3.REPO / "build" / "ci")
    ap.add_argument("--ns3-binary", type=Path, default=run_ns3.REPO / "build" / "ns3" / "wmnsim_ns3")
    args = ap.parse_args()
    wmnsim = run_ns3.wmnsim_module(args.build)
    from wmnsim import trace  # noqa: E402 (the module's path comes from the build)
    case = run_ns3.Case(args.scenario)
    if args.ns3_sources:
        case.overrides += run_ns3.ns3_sources(case)
    binary = run_ns3.build_ns3(args.ns3_binary)
    since = float(wmnsim.Scenario.from_file(str(case.path)).to_dict()["simulation"].get("warmup_s", 0))
    capture = {"ns-3": collections.defaultdict(lambda: [0, 0]), "wmnsim": collections.defaultdict(lambda: [0, 0])}
    rows = {"ns-3": [], "wmnsim": []}
    with tempfile.TemporaryDirectory() as tmp:
        for seed in args.seeds:
            events_file, ns3_trace = Path(tmp) / "w.bin", Path(tmp) / "ns3.trace"
            cmd = [str(args.build / "cli" / "wmnsim"), "run", str(case.path), "--seed", str(seed), "--set", "/compat=ns3",
                   "-o", str(Path(tmp) / "w.json"), "--event-trace", str(events_file)]
            for o in case.overrides:
                cmd += ["--set", o]
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            ours, power = wmnsim_side(trace.load(events_file), since, capture["wmnsim"])
            spec = run_ns3.spec_for(case.path, seed, wmnsim, case.overrides)
            run_ns3.run_ns3(binary, spec, ns3_trace)
            theirs = ns3_side(ns3_trace, spec, since, power, capture["ns-3"])
            for name, r in (("ns-3", theirs), ("wmnsim", ours)):
                rows[name].append(r)
                print(f"seed {seed} {name:<7} DATA attempts {r['attempts']}, rounds {r['rounds']}, "
                      f"2+ senders {r['multi']:.1%}, successes {r['successes']}, "
                      f"backoffs less attempts {r['extra_draws']}, CW at the draws {r['cw']}")
    print(f"\n{case} (seeds {args.seeds}), means")
    for name, rs in rows.items():
        print(f"{name:<7} rounds {statistics.fmean(r['rounds'] for r in rs):.0f}, "
              f"2+ senders {statistics.fmean(r['multi'] for r in rs):.1%}, "
              f"attempts {statistics.fmean(r['attempts'] for r in rs):.0f}, "
              f"successes {statistics.fmean(r['successes'] for r in rs):.0f}, "
              f"backoffs less attempts {statistics.fmean(r['extra_draws'] for r in rs):.0f}")
    print("two-frame collisions: the stronger frame decoded, by power difference at the receiver (dB)")
    for b in POWER_BINS_DB:
        n, w = capture["ns-3"][b], capture["wmnsim"][b]
        if n[0] or w[0]:
            print(f">= {b:2} dB   ns-3 {n[1]}/{n[0]} ({n[1] / max(n[0], 1):.3f})   "
                  f"wmnsim {w[1]}/{w[0]} ({w[1] / max(w[0], 1):.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
