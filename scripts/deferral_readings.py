#!/usr/bin/env python3
"""Where a NAV leaves the EIFS: the two readings of 802.11-2012 side by side.

`mac.deferral: "standard"` (the default) begins an errored frame's EIFS when the medium,
the NAV included, is next idle (9.3.4.3); `"phy_idle"` begins it when the PHY is next
idle, "without regard to the virtual CS mechanism" (9.3.2.3.7), with the NAV followed
by DIFS (docs/mac.md, "Two readings of where a NAV leaves the EIFS"). They differ only
when a NAV outlasts the PHY after an errored frame, which basic access all but never
gives (a DATA frame's NAV ends no later than its ACK where both are heard), so a
selection of the RTS/CTS scenarios is run. Prints, per flow, the mean goodput over the seeds under each reading, the
difference and its standard error (of the per-seed paired differences), as the
Markdown table of docs/validation.md.

    PYTHONPATH=bindings:build/ci/python /usr/bin/python3 scripts/deferral_readings.py [--seeds N]
"""

from __future__ import annotations

import argparse
import math
import statistics
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import wmnsim

ROOT = Path(__file__).resolve().parent.parent
READINGS = ("standard", "phy_idle")
MAX_FLOW_ROWS = 8
# A selection of the shipped scenarios whose stations use RTS/CTS (rts_threshold_bytes 0) under the
# standard's deferral (the 003 scenarios, also RTS/CTS, run ns-2's deferral instead).
SCENARIOS = (
    "scenarios/starvation/chain2_tcp_rts_on_cw32.json",
    "scenarios/starvation/chain2_tcp_rts_on_cw16.json",
    "scenarios/starvation/chain2_udp_rts_on.json",
    "scenarios/fu2009/buffer_blocking.json",
    "scenarios/fu2009/congestion_control_collision.json",
    "scenarios/fu2009/look_ahead_unsolvable.json",
    "scenarios/fu2009/mesh40_4gw.json",
)


def goodputs(task: tuple[str, str, int]) -> tuple[str, str, int, dict[str, float]]:
    scenario, reading, seed = task
    result = wmnsim.run(str(ROOT / scenario), seed=seed, overrides={"/mac/deferral": reading})
    return scenario, reading, seed, {f["id"]: f["goodput_bps"] for f in result.to_dict()["flows"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=12, help="seeds 1..N (default 12)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("scenarios", nargs="*", default=list(SCENARIOS))
    args = parser.parse_args()
    tasks = [(s, r, seed) for s in args.scenarios for r in READINGS for seed in range(1, args.seeds + 1)]
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        runs = {(s, r, seed): g for s, r, seed, g in pool.map(goodputs, tasks)}
    print(f"Goodput in kbit/s, the mean over seeds 1-{args.seeds}; the difference is phy_idle - standard,")
    print("with the standard error of the per-seed paired differences.\n")
    print("| scenario | flow | standard | phy_idle | difference |")
    print("|---|---|---|---|---|")
    seeds = range(1, args.seeds + 1)
    for scenario in args.scenarios:
        name = Path(scenario).relative_to("scenarios").with_suffix("")
        flows = list(runs[(scenario, READINGS[0], 1)])
        # Every flow of a small scenario; the total and Jain's index of every one.
        metrics = {flow: (lambda g, flow=flow: g[flow] / 1e3) for flow in flows} if len(flows) <= MAX_FLOW_ROWS else {}
        metrics["total"] = lambda g: sum(g.values()) / 1e3
        metrics["Jain's index"] = jain
        for label, metric in metrics.items():
            std = [metric(runs[(scenario, "standard", k)]) for k in seeds]
            phy = [metric(runs[(scenario, "phy_idle", k)]) for k in seeds]
            diff = [p - s for p, s in zip(phy, std)]
            mean_std, mean_phy = statistics.fmean(std), statistics.fmean(phy)
            se = statistics.stdev(diff) / math.sqrt(len(diff)) if len(diff) > 1 else float("nan")
            digits = 3 if label == "Jain's index" else 1
            rel = f" ({100 * (mean_phy - mean_std) / mean_std:+.1f} %)" if mean_std > 0 else ""
            print(f"| {name} | {label} | {mean_std:.{digits}f} | {mean_phy:.{digits}f} | "
                  f"{mean_phy - mean_std:+.{digits}f} ± {se:.{digits}f}{rel} |")


def jain(goodput: dict[str, float]) -> float:
    values = list(goodput.values())
    squares = sum(v * v for v in values)
    return sum(values) ** 2 / (len(values) * squares) if squares > 0 else float("nan")


if __name__ == "__main__":
    main()
