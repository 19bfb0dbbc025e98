#!/usr/bin/env python3
"""Where and why flow 1's frames fail in 003's Fig. 7 (docs/reproductions/wccp.md,
"Flow 1 in Fig. 7"), from event traces.

Runs scenarios/zhai_wccp/chain9_6flows_wccp.json as shipped (300 s) for each seed with
an event trace (docs/traces.md "Event trace") and attributes every failed attempt of a
flow-1 frame, and every flow-1 frame given up at the retry limit, to:

  link       the transmitter and its next hop ("4->3")
  direction  data (towards node 9) or ack (towards node 1): flow 1 runs 1 -> 9
  outcome    at_receiver: the next hop did not decode the RTS or DATA (its record
             names the cause: missed, because it was receiving another frame, or lost);
             response_lost: the next hop decoded it, but its CTS or ACK failed at the
             transmitter; no_response: neither (the next hop did not answer)
  cause      the failed reception's cause (collision, own transmission, ...)
  interferer the node whose frame the receiver was receiving or that collided

and writes scenarios/zhai_wccp/reproduction/data/fig7_trace/attempts.parquet (one row
per seed and class, with counts) and provenance.json (the commit of the simulator, the
seeds, the command). scripts/wccp_report.py renders it. Each run takes about a second
and its trace about 100 MB in a temporary folder.

    python3 scripts/wccp_fig7_trace.py [--wmnsim build/ci/cli/wmnsim] [--seeds 1,2,3,4,5]
"""
import argparse
import json
import pathlib
import subprocess
import sys
import tempfile

import pandas as pd

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bindings"))
from wmnsim import trace  # noqa: E402  (reads the trace file: numpy and pandas only)

SCENARIO = ROOT / "scenarios" / "zhai_wccp" / "chain9_6flows_wccp.json"
OUT = ROOT / "scenarios" / "zhai_wccp" / "reproduction" / "data" / "fig7_trace"
FLOW = 0  # flow1, the 8-hop flow
KINDS = ["drop", "retry", "rx_fail", "rx_missed", "tx_start"]
PS = 1_000_000  # picoseconds per microsecond
RECEIVE_WINDOW_PS = 3 * PS   # an attempt's first bit reaches a neighbour 200-600 m away within 2 us
RESPONSE_WINDOW_PS = 20_000 * PS  # a CTS or ACK starts within a SIFS and a frame of the attempt


def attribute(events: pd.DataFrame) -> pd.DataFrame:
    """One row per flow-1 retry or drop: link, direction, outcome, cause, interferer."""
    ev = events.copy()
    for c in ("node", "peer", "interferer", "cause", "kind", "frame"):
        ev[c] = ev[c].astype(object).where(ev[c].notna(), None)
    tx = ev[(ev.kind == "tx_start") & ev.frame.isin(["rts", "data"])][["time_ps", "node", "peer"]]
    rx = ev[ev.kind.isin(["rx_fail", "rx_missed"])][["start_ps", "node", "peer", "cause", "interferer", "kind"]]
    rx = rx.astype({"start_ps": "int64"})
    # Retries, and frames given up at the retry limit (a stale copy of a frame already
    # delivered included: the results' ledger counts those apart).
    given_up = (ev.kind == "drop") & (ev.cause == "retry_limit")
    what = ev[(ev.flow == FLOW) & ((ev.kind == "retry") | given_up)][["time_ps", "node", "kind"]]
    what = what.rename(columns={"kind": "event"}).sort_values("time_ps")
    # The attempt that failed: the transmitter's last RTS or DATA before the retry/drop.
    attempts = pd.merge_asof(what, tx.sort_values("time_ps").rename(columns={"time_ps": "attempt_ps"}),
                             left_on="time_ps", right_on="attempt_ps", by="node", direction="backward")
    attempts = attempts.dropna(subset=["peer"]).astype({"attempt_ps": "int64"}).sort_values("attempt_ps")
    # Its reception at the next hop: a failed or missed record there from this transmitter.
    at_rx = rx.rename(columns={"node": "peer", "peer": "node"}).sort_values("start_ps")
    a = pd.merge_asof(attempts, at_rx, left_on="attempt_ps", right_on="start_ps", by=["node", "peer"],
                      direction="forward", tolerance=RECEIVE_WINDOW_PS)
    # Else its response at the transmitter: a failed or missed record there from the next hop.
    back = rx.drop(columns="kind").rename(columns={"cause": "cause_back", "interferer": "interferer_back",
                                                   "start_ps": "back_ps"}).sort_values("back_ps")
    a = pd.merge_asof(a.sort_values("attempt_ps"), back, left_on="attempt_ps", right_on="back_ps",
                      by=["node", "peer"], direction="forward", tolerance=RESPONSE_WINDOW_PS)
    received = a.start_ps.notna()
    a["outcome"] = "no_response"
    a.loc[a.back_ps.notna(), "outcome"] = "response_lost"
    a.loc[received, "outcome"] = "at_receiver"
    a["cause"] = a.cause.where(received, a.cause_back.where(a.back_ps.notna()))
    a["interferer"] = a.interferer.where(received, a.interferer_back.where(a.back_ps.notna()))
    a["link"] = a.node.astype(str) + "->" + a.peer.astype(str)
    a["direction"] = ["data" if int(p) > int(n) else "ack" for n, p in zip(a.node, a.peer)]
    return a[["event", "link", "direction", "outcome", "cause", "interferer"]].fillna("")


def run_seed(wmnsim: str, seed: int, folder: pathlib.Path) -> pd.DataFrame:
    path = folder / f"events_{seed}.bin"
    spec = json.dumps({"path": str(path), "kinds": KINDS, "max_records": 50_000_000})
    subprocess.run([wmnsim, "run", str(SCENARIO), "--set", f"/simulation/seed={seed}",
                    "--set", f"/outputs/event_trace={spec}", "-o", str(folder / f"results_{seed}.json")],
                   check=True, capture_output=True, text=True)
    rows = attribute(trace.load(path))
    path.unlink()
    counts = rows.value_counts().rename("count").reset_index()
    counts.insert(0, "seed", seed)
    return counts


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--wmnsim", default=str(ROOT / "build" / "ci" / "cli" / "wmnsim"))
    ap.add_argument("--seeds", default="1,2,3,4,5")
    ap.add_argument("--out", default=str(OUT))
    args = ap.parse_args()
    seeds = [int(s) for s in args.seeds.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        table = pd.concat([run_seed(args.wmnsim, s, pathlib.Path(tmp)) for s in seeds], ignore_index=True)
    version = subprocess.run([args.wmnsim, "--version"], capture_output=True, text=True).stdout.strip()
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    table.sort_values(["seed", "event", "count"], ascending=[True, True, False]).to_parquet(
        out / "attempts.parquet", index=False)
    # As wmnsim.reproduce.ExperimentData reads it (the report stamps its block with it).
    commit = version.split("commit ", 1)[1].split(",")[0] if "commit " in version else "unknown"
    (out / "provenance.json").write_text(json.dumps({
        "commits": {commit: len(seeds)}, "experiment": "fig7_trace", "runs": len(seeds),
        "command": "python3 scripts/wccp_fig7_trace.py --seeds " + ",".join(map(str, seeds)),
        "scenario": str(SCENARIO.relative_to(ROOT)), "seeds": seeds, "study": "wccp",
        "tables": {"attempts": len(table)}}, indent=1) + "\n")
    print(f"wrote {out / 'attempts.parquet'} ({len(table)} rows, seeds {seeds})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
