#!/usr/bin/python3
"""003 Fig. 3 (Zhai, Chen, Fang, Sec. III-A): the one-hop WLAN behind th_b = 0.92.

n stations send UDP to one receiver, every station in decoding range of every other
(no hidden terminal), under the 003 scenarios' radio and MAC (scenarios/zhai_wccp/
chain9.json: 2 Mbit/s data, 1 Mbit/s basic rate, RTS/CTS before every DATA, ns-2's
MAC defaults, the ns-2 reception preset). Each station's traffic is Poisson, so the
offered load is swept from light to past saturation with
`simulation.offered_load_scale`; at 1.0 the stations together offer what the channel
would carry if every exchange followed the last without a backoff or a collision
(`capacity_bps` below). 003 plots the channel utilisation, the normalised throughput
and the collision probability against the busyness ratio, (a) for several n with
1000-byte payloads and (b) for several payload sizes with n = 10; 003 gives neither
the n nor the payload sizes it used (our choice: n = 5, 10, 20, 50; 200, 500, 1000,
1500 bytes).

The stations sit on a circle of RADIUS_M around the receiver: equal distances, so no
frame captures another at the receiver under any reception model (the analysis 003
takes Fig. 3 from, its reference [23], assumes none), and every pair of stations is
well within decoding range.

Usage: scripts/wlan_003_fig3.py --write-scenarios scenarios/zhai_wccp/reproduction/generated

writes DIR/fig3_n<N>_p<payload>.json (the scenarios of the wccp study's `fig3`
experiment, scenarios/zhai_wccp/reproduction/fig3.json, whose report makes the Fig. 3
part of docs/reproductions/wccp.md) and runs nothing; the same command regenerates
the committed files byte for byte. --print-points prints the experiment's points.
"""

import argparse
import copy
import json
import math
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RADIUS_M = 20.0
DURATION_S = 100.0
# Panel (a): n stations, 1000-byte payloads; panel (b): n = 10, these payloads.
PANEL_A_N = (5, 10, 20, 50)
PANEL_B_PAYLOADS = (200, 500, 1000, 1500)
PANEL_B_N = 10
# Offered load relative to capacity_bps: light load to well past saturation.
LOADS = (0.2, 0.4, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 1.0, 1.05, 1.1, 1.2, 1.4, 1.6)

# 802.11b DSSS at 2 Mbit/s data, 1 Mbit/s basic rate, long PLCP preamble and header
# (IEEE 802.11-2012 16.2.2: 144 + 48 bits at 1 Mbit/s = 192 us); SIFS 10 us, DIFS 50 us
# (16.4.4). Frame sizes as wmnsim builds them (mac/frame.hpp): RTS 20, CTS and ACK 14
# octets; DATA 24 header + 8 LLC/SNAP + 4 FCS + 28 of UDP/IP + the payload.
PLCP_US, SIFS_US, DIFS_US = 192.0, 10.0, 50.0
DATA_RATE_BPS, BASIC_RATE_BPS = 2e6, 1e6


def frame_us(octets, rate_bps):
    return PLCP_US + octets * 8 / rate_bps * 1e6


def exchange_us(payload_bytes):
    """One successful RTS/CTS/DATA/ACK exchange on the air, SIFS between them: the
    channel occupancy of a successful transmission (003's c_u counts it)."""
    return (frame_us(20, BASIC_RATE_BPS) + frame_us(14, BASIC_RATE_BPS) + frame_us(payload_bytes + 64, DATA_RATE_BPS)
            + frame_us(14, BASIC_RATE_BPS) + 3 * SIFS_US)


def capacity_bps(payload_bytes):
    """Payload bits per second if exchanges followed each other with only DIFS between."""
    return payload_bytes * 8 / ((exchange_us(payload_bytes) + DIFS_US) * 1e-6)


def scenario(n, payload_bytes):
    with open(os.path.join(ROOT, "scenarios", "zhai_wccp", "chain9.json")) as f:
        chain = json.load(f)
    s = {"name": f"zhai_fig3_n{n}_p{payload_bytes}",
         "description": f"Paper 003 (Zhai, Chen, Fang: WCCP), Sec. III-A, Fig. 3: a one-hop WLAN of {n} stations "
                        f"on a circle of {RADIUS_M:g} m around receiver AP, each sending Poisson UDP traffic of "
                        f"{payload_bytes}-byte payloads to AP, together {capacity_bps(payload_bytes) / 1e3:.1f} kbit/s "
                        "at offered_load_scale 1 (the channel's capacity without backoff or collisions; the "
                        "fig3 experiment sweeps the scale); chain9.json's radio and MAC (ns-2 preset, RTS/CTS). "
                        "Written by scripts/wlan_003_fig3.py.",
         "simulation": {"duration_s": DURATION_S, "seed": 1, "measurement_interval_s": DURATION_S},
         "phy": copy.deepcopy(chain["phy"]), "propagation": copy.deepcopy(chain["propagation"]),
         "mac": copy.deepcopy(chain["mac"])}
    nodes = [{"id": "AP", "position_m": [0.0, 0.0]}]
    for i in range(n):
        a = 2 * math.pi * i / n
        nodes.append({"id": f"s{i + 1}", "position_m": [round(RADIUS_M * math.cos(a), 6),
                                                        round(RADIUS_M * math.sin(a), 6)]})
    s["nodes"] = nodes
    s["routing"] = {"type": "auto", "metric": "hop_count"}
    per_station = capacity_bps(payload_bytes) / n
    s["flows"] = [{"id": f"f{i + 1}", "transport": "udp", "src": f"s{i + 1}", "dst": "AP",
                   "payload_bytes": payload_bytes, "traffic": {"type": "poisson", "rate_bps": round(per_station, 3)}}
                  for i in range(n)]
    s["outputs"] = {"timeseries": []}
    return s


def files():
    """(n, payload) of every scenario: panel (a)'s and panel (b)'s, once each."""
    out = [(n, 1000) for n in PANEL_A_N]
    out += [(PANEL_B_N, p) for p in PANEL_B_PAYLOADS if (PANEL_B_N, p) not in out]
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--write-scenarios", metavar="DIR", help="write DIR/fig3_n<N>_p<payload>.json and exit")
    args = ap.parse_args()
    if not args.write_scenarios:
        ap.error("--write-scenarios DIR is required")
    os.makedirs(args.write_scenarios, exist_ok=True)
    for n, p in files():
        path = os.path.join(args.write_scenarios, f"fig3_n{n}_p{p}.json")
        with open(path, "w") as f:
            json.dump(scenario(n, p), f, indent=1)
            f.write("\n")
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
