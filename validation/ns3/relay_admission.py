#!/usr/bin/env python3
"""How ns-3's relay B admits the gateway's packets for A into its full MAC queue, in the
UDP chain (scenarios/starvation/chain2_udp_rts_off.json, the ns-3 program's own sources:
A's and B's saturated flows are on-off sources at twice the data rate, 22 Mbit/s).

    /usr/bin/python3 validation/ns3/relay_admission.py [--seeds 1 2 3] [--duration 120]

For each seed it runs the ns-3 program (built by build_ns3.sh, as run_ns3.py does) with
`--trace --queue-trace` and reads B's lines: the packets IP hands down (`ip_tx`), the
WifiMacQueue's enqueues and removals (`q_enqueue`, `q_dequeue`, `q_drop_after_dequeue`,
`q_expired`, each with the queue's length, in-flight MPDUs included) and the MAC's drops.
It prints per seed:
  - the gateway's packets for A that its IP sent and that reached B's IP;
  - those B admitted into its full queue (each takes a place freed when the queue went from
    full to one less) and, in brackets, those admitted before the queue first filled;
    their share of the packets that reached B and of those sent;
  - the uniform-phase prediction: B's own source sends every T (1472 bytes at 22 Mbit/s,
    535.27 us) on a grid whose phase against the instant a place frees is taken as uniform,
    so a packet for A reaching B g after the place freed finds it still free with probability
    1 - g/T; the prediction is the sum over the packets with g < T (a packet admitted closes
    the place);
  - the packets for A delivered (the ns-3 sink's bytes over the payload);
then per seed the cause of every place freed at B's full queue (B's ACK for its own frame,
a retry-limit drop, a removal followed by DropAfterDequeue: an expiry), who took it, B's
expiries and drops, and the delay from the freeing to the admission.

ns-3 keeps an MPDU queued, counted against the queue's 50 packets, until it is acknowledged
or dropped (FrameExchangeManager::ReceivedNormalAck -> DequeueMpdu); each removal wakes the
device queue (NetDeviceQueue::PacketDequeued), which stopped when the queue filled, and with
no queue disc TrafficControlLayer::Send drops whatever IP hands down while it is stopped. So
a place frees at B's ACK and stays free until B's own source sends again: a packet for A
that lands first takes it. (wmnsim's side: `wmnsim run` with `--set /compat=ns3`, A's and
B's flows as CBR at 22 Mbit/s, and the reading of `mac.dequeue` under test.)

Needs a ci build (build/ci, for the spec: run_ns3.spec_for) and the ns-3 venv, as run_ns3.py.
A 120 s run traces about 2.5 million lines (250 MB, in a temporary directory).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import run_ns3  # noqa: E402

SCENARIO = run_ns3.REPO / "scenarios" / "starvation" / "chain2_udp_rts_off.json"
RELAY, GATEWAY, DESTINATION = "B", "GW", "A"
NS3_QUEUE_PACKETS = 500  # WifiMacQueue's MaxSize default, should the spec set none

ACK, RETRY_LIMIT, EXPIRY, OTHER = "ACK", "retry-limit drop", "expiry (DropAfterDequeue)", "other"


def fields(words: list) -> dict:
    return dict(w.split("=", 1) for w in words if "=" in w)


def spec_numbers(spec: str, relay: str) -> tuple:
    """The queue's capacity (packets) and the period T (s) of the relay's own UDP source, as
    the ns-3 program runs it (wmnsim_ns3.cc: OnOffApplication, `saturated` at twice the data
    rate), from the spec."""
    capacity, data_rate, period = NS3_QUEUE_PACKETS, None, None
    flows = []
    for line in spec.splitlines():
        w = line.split("#")[0].split()
        if not w:
            continue
        if w[0] == "queue_packets":
            capacity = int(w[1])
        elif w[0] == "data_rate":
            data_rate = float(w[1])
        elif w[0] == "flow" and w[2] == "udp" and w[3] == relay:
            flows.append(w)
    if len(flows) != 1:
        raise SystemExit(f"the relay {relay} needs exactly one UDP source of its own, has {len(flows)}")
    w = flows[0]
    rate = float(w[7]) if w[6] == "cbr" else 2.0 * data_rate
    period = int(w[5]) * 8 / rate
    return capacity, period


def analyse(lines, relay: str, relayed_flow: str, capacity: int, period: float) -> dict:
    """B's admissions in a --queue-trace trace (an iterable of its lines): see the docstring.
    `relayed_flow` is "GW>A" (the trace's flow=SRC>DST)."""
    gateway = relayed_flow.split(">")[0]
    relay_mac = None
    sent = reaching = 0
    expired = dropped_after_dequeue = retry_limit_drops = 0
    instant, at_instant = None, []  # the relay's earlier lines at the current instant
    previous = None                 # the relay's previous line (event, fields)
    frees = []                      # places freed at a full queue: {"t", "cause", "taker", "gap"}
    open_place = None               # the last of them, while nobody took it
    freed_by_previous = None        # the place the relay's previous line (a q_dequeue) freed
    first_full = False
    before_first_full: dict = {}    # admissions (q_enqueue) per flow before the queue first filled
    elsewhere: dict = {}            # admissions after it, not into a freed place at a full queue
    # The prediction (B's source phase uniform against the freeing).
    last_free, predicted, within_period = None, 0.0, 0
    for line in lines:
        w = line.split()
        if len(w) < 3:
            continue
        who, event = w[1], w[2]
        if who == gateway and event == "ip_tx" and f"flow={relayed_flow}" in w:
            sent += 1
            continue
        if who != relay:
            continue
        t = float(w[0])
        if t != instant:
            instant, at_instant = t, []
        f = fields(w[3:])
        if event == "tx" and relay_mac is None and w[3] in ("DATA", "RTS"):
            relay_mac = f["from"]  # (an ACK's or CTS's from= is empty: 00:00:00:00:00:00)
        elif event == "ip_tx" and f["flow"] == relayed_flow:
            reaching += 1
            if last_free is not None and t - last_free < period:
                within_period += 1
                predicted += 1 - (t - last_free) / period
            if f["stopped"] == "0":
                last_free = None  # admitted: the place it takes is no longer free
        elif event == "q_dequeue" and int(f["queued"]) == capacity - 1:
            # What made the room, from the relay's lines at this instant: its own ACK
            # (ReceivedNormalAck -> DequeueMpdu, after the PHY's RxOk) or a retry-limit drop
            # (NormalAckTimeout: DroppedMpdu, then DequeueMpdu); an expiry is known by the
            # DropAfterDequeue that follows (below).
            if any(e == "mac_drop" and g.get("reason") == "2" for e, _, g in at_instant):
                cause = RETRY_LIMIT
            elif any(e == "rx_ok" and kind == "ACK" and g.get("to") == relay_mac for e, kind, g in at_instant):
                cause = ACK
            else:
                cause = OTHER
            open_place = {"t": t, "cause": cause, "taker": None, "gap": None}
            frees.append(open_place)
            last_free = t
        elif event == "q_dequeue":
            open_place = None  # a second removal: no longer one place in a full queue
        elif event == "q_drop_after_dequeue":
            dropped_after_dequeue += 1
            # Queue::DoRemove (an expiry): Dequeue, then DropAfterDequeue of the same MPDU.
            if freed_by_previous is not None and previous[1].get("ipid") == f.get("ipid"):
                freed_by_previous["cause"] = EXPIRY
        elif event == "q_expired":
            expired += 1
        elif event == "mac_drop" and f.get("reason") == "2":
            retry_limit_drops += 1
        elif event == "q_enqueue":
            flow, queued = f.get("flow", "?"), int(f["queued"])
            if open_place is not None and queued == capacity:
                open_place["taker"], open_place["gap"] = flow, t - open_place["t"]
                open_place = None
            elif not first_full:
                before_first_full[flow] = before_first_full.get(flow, 0) + 1
            else:
                elsewhere[flow] = elsewhere.get(flow, 0) + 1
            first_full = first_full or queued == capacity
        at_instant.append((event, w[3] if len(w) > 3 else "", f))
        freed_by_previous = frees[-1] if event == "q_dequeue" and frees and frees[-1]["t"] == t and \
            int(f["queued"]) == capacity - 1 else None
        previous = (event, f)
    return {"sent": sent, "reaching": reaching, "frees": frees, "before_first_full": before_first_full,
            "elsewhere": elsewhere, "expired": expired, "dropped_after_dequeue": dropped_after_dequeue,
            "retry_limit_drops": retry_limit_drops, "predicted": predicted, "within_period": within_period}


def gaps_us(frees: list, taker: str) -> str:
    g = sorted(f["gap"] * 1e6 for f in frees if f["taker"] == taker)
    if not g:
        return "-"
    return f"{g[0]:.0f}-{g[-1]:.0f} (median {statistics.median(g):.0f})"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    ap.add_argument("--duration", type=float, default=120.0, help="simulated seconds (the scenario's: 120)")
    ap.add_argument("--build", type=Path, default=run_ns3.REPO / "build" / "ci", help="wmnsim build (python/)")
    ap.add_argument("--ns3-binary", type=Path, default=run_ns3.REPO / "build" / "ns3" / "wmnsim_ns3",
                    help="where build_ns3.sh writes the ns-3 program")
    args = ap.parse_args()
    wmnsim = run_ns3.wmnsim_module(args.build)
    binary = run_ns3.build_ns3(args.ns3_binary)
    relayed = f"{GATEWAY}>{DESTINATION}"
    relayed_id = f"{GATEWAY}_to_{DESTINATION}"
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for seed in args.seeds:
            spec = run_ns3.spec_for(SCENARIO, seed, wmnsim, [f"/simulation/duration_s={args.duration:g}"])
            capacity, period = spec_numbers(spec, RELAY)
            payload = next(int(l.split()[5]) for l in spec.splitlines() if l.startswith(f"flow {relayed_id} "))
            trace = Path(tmp) / f"s{seed}.trace"
            run = run_ns3.run_ns3(binary, spec, trace, ("--queue-trace",))
            with trace.open() as lines:
                r = analyse(lines, RELAY, relayed, capacity, period)
            trace.unlink()
            r["delivered"] = next(f["bytes"] for f in run["flows"] if f["id"] == relayed_id) // payload
            rows.append((seed, r))

    print(f"ns-3 3.44, {SCENARIO.relative_to(run_ns3.REPO)} (the ns-3 program's sources), {args.duration:g} s: "
          f"relay {RELAY}, a queue of {capacity} packets, {RELAY}'s own source every T = {period * 1e6:.2f} us; "
          f"{relayed} = the gateway's packets for {DESTINATION}")
    print()
    print(f"| seed | {relayed} sent | reaching {RELAY} | admitted at a full queue (+ before it first filled) "
          f"| % of those reaching {RELAY} | % of those sent | predicted Σ(1 − g/T) | delivered to {DESTINATION} |")
    print("|---|---|---|---|---|---|---|---|")
    for seed, r in rows:
        full = sum(1 for f in r["frees"] if f["taker"] == relayed)
        print(f"| {seed} | {r['sent']} | {r['reaching']} | {full} (+{r['before_first_full'].get(relayed, 0)}) "
              f"| {100 * full / r['reaching']:.1f} | {100 * full / r['sent']:.2f} "
              f"| {r['predicted']:.0f} ({100 * r['predicted'] / r['reaching']:.1f} %) | {r['delivered']} |")
    print()
    print(f"Places freed at {RELAY}'s full queue: their cause, who took them, and the delay from the freeing "
          "to the admission (us: min-max, median)")
    print()
    print(f"| seed | freed | after {RELAY}'s ACK | retry-limit drop | expiry | other | taken by {relayed} "
          f"| by {RELAY}'s own source | not taken | {relayed} delay | {RELAY}'s own delay "
          f"| {RELAY}'s expiries, DropAfterDequeue, retry-limit drops |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    own = f"{RELAY}>{GATEWAY}"
    for seed, r in rows:
        frees = r["frees"]
        by = lambda c: sum(1 for f in frees if f["cause"] == c)  # noqa: E731
        takers = lambda who: sum(1 for f in frees if f["taker"] == who)  # noqa: E731
        print(f"| {seed} | {len(frees)} | {by(ACK)} | {by(RETRY_LIMIT)} | {by(EXPIRY)} | {by(OTHER)} "
              f"| {takers(relayed)} | {takers(own)} | {takers(None)} | {gaps_us(frees, relayed)} "
              f"| {gaps_us(frees, own)} | {r['expired']}, {r['dropped_after_dequeue']}, {r['retry_limit_drops']} |")
    for seed, r in rows:
        others = {k: v for k, v in r["elsewhere"].items() if v}
        other_takers = {f["taker"] for f in r["frees"]} - {relayed, own, None}
        if others or other_takers:
            print(f"seed {seed}: also admitted after the first fill, not into a freed place: {others}; "
                  f"other takers: {sorted(other_takers)}")
        print(f"seed {seed}: {r['within_period']} of the {r['reaching']} {relayed} packets reaching {RELAY} came "
              f"less than T after a place freed; admitted before the queue first filled: {r['before_first_full']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
