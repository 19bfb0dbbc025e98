#!/usr/bin/python3
"""Random connected topologies with random flows, written as wmnsim scenarios.

One snapshot per seed: N nodes placed uniformly at random in a W x H field (corner
at the origin), the whole placement redrawn until the graph of node pairs at most
--range metres apart is connected; then F flows between random node pairs. The
scenario is a copy of a template scenario with its `nodes`, `node_groups`, `flows`,
`name` and `description` replaced: explicit nodes ids "1".."N" with their positions
(`position_m`, rounded to 1 cm; connectivity is checked on the rounded positions),
and the flows. Everything else (PHY, propagation, MAC, routing, simulation,
controllers, outputs) is the template's, so the template decides the radio model,
the duration and the routing (003 uses pre-computed shortest paths: `"routing":
{"type": "auto", "metric": "hop_count"}`).

Flows. Each flow's (src, dst) is an ordered pair of distinct nodes drawn uniformly
among all N (N - 1) ordered pairs, redrawn if the pair was already drawn (the same
ordered pair never carries two flows; a pair's reverse may) or if its shortest path
under --range has fewer than --min-hops hops (default 1: any pair, since the graph
is connected every pair is reachable). Flow ids are "f1".."fF". Every flow takes the
transport --transport and the template's first flow's other keys (payload_bytes,
traffic, start/stop, and the transport's own object, e.g. `tcp`, when the template
flow uses the same transport).

Reproducibility. All draws come from random.Random(seed).random() only (no
randrange, sample or shuffle, whose algorithms have changed between Python
versions): x = W * u, y = H * u', and an index in 0..n-1 is int(n * u). The same
seed, options and template give the same file on any Python 3.

The connectivity is geometric: a pair is a link when its distance is at most
--range (250 m: ns-2's and wmnsim's ns2-preset decoding range). A simulator whose
radio decides otherwise at the margin (the ns2 preset decodes to 249.93 m because
its RXThresh is written -64.37 dBm) would see a pair at 249.93..250 m as no link:
`wmnsim validate` on the output reports any flow left unreachable. The default
--margin of 0.5 m (links at most range - margin) keeps clear of that.

Usage:
  scripts/random_topology.py --template scenarios/zhai_wccp/chain9_tcp.json \\
      --nodes 50 --area 1500 300 --range 250 --flows 10 --seed 1 --transport tcp \\
      --out snapshot.json [--name NAME] [--description TEXT] [--timeseries a,b,c]

scenarios/zhai_wccp/random50/README.md has the command that regenerates 003's
random snapshots.
"""
from __future__ import annotations

import argparse
import copy
import json
import math
import os
import random
import sys
from collections import deque
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

MAX_PLACEMENT_TRIES = 100000


def draw_index(rng: random.Random, n: int) -> int:
    """An index in 0..n-1 from one random() draw (stable across Python versions)."""
    return min(int(n * rng.random()), n - 1)


def neighbours(positions: Sequence[Tuple[float, float]], link_m: float) -> List[List[int]]:
    n = len(positions)
    adj: List[List[int]] = [[] for _ in range(n)]
    for i in range(n):
        xi, yi = positions[i]
        for j in range(i + 1, n):
            xj, yj = positions[j]
            if math.hypot(xi - xj, yi - yj) <= link_m:
                adj[i].append(j)
                adj[j].append(i)
    return adj


def hops_from(adj: List[List[int]], src: int) -> List[int]:
    """Breadth-first hop counts from src (-1 where unreachable)."""
    dist = [-1] * len(adj)
    dist[src] = 0
    todo = deque([src])
    while todo:
        u = todo.popleft()
        for v in adj[u]:
            if dist[v] < 0:
                dist[v] = dist[u] + 1
                todo.append(v)
    return dist


def place(rng: random.Random, n: int, width_m: float, height_m: float, link_m: float
          ) -> Tuple[List[Tuple[float, float]], List[List[int]], int]:
    """Uniform positions, redrawn until connected; returns positions, adjacency and the tries it took."""
    for attempt in range(1, MAX_PLACEMENT_TRIES + 1):
        positions = [(round(width_m * rng.random(), 2), round(height_m * rng.random(), 2)) for _ in range(n)]
        if len(set(positions)) != n:
            continue  # two nodes on one spot: wmnsim refuses it
        adj = neighbours(positions, link_m)
        if min(hops_from(adj, 0)) >= 0:
            return positions, adj, attempt
    raise SystemExit(f"no connected placement of {n} nodes in {width_m} x {height_m} m with links up to "
                     f"{link_m} m after {MAX_PLACEMENT_TRIES} tries; use more nodes, a smaller area or a longer range")


def draw_flows(rng: random.Random, adj: List[List[int]], count: int, min_hops: int) -> List[Tuple[int, int, int]]:
    """(src, dst, hops) for `count` distinct ordered pairs (see the module docstring)."""
    n = len(adj)
    hops = [hops_from(adj, i) for i in range(n)]
    eligible = sum(1 for i in range(n) for j in range(n) if i != j and hops[i][j] >= min_hops)
    if count > eligible:
        raise SystemExit(f"{count} flows asked for, but only {eligible} ordered pairs are at least {min_hops} hops apart")
    chosen: List[Tuple[int, int, int]] = []
    seen = set()
    while len(chosen) < count:
        src = draw_index(rng, n)
        dst = draw_index(rng, n - 1)
        if dst >= src:
            dst += 1
        if (src, dst) in seen or hops[src][dst] < min_hops:
            continue
        seen.add((src, dst))
        chosen.append((src, dst, hops[src][dst]))
    return chosen


def build(template: dict, *, nodes: int, width_m: float, height_m: float, range_m: float, margin_m: float,
          flows: int, seed: int, transport: str, min_hops: int = 1, name: Optional[str] = None,
          description: Optional[str] = None, timeseries: Optional[List[str]] = None,
          schema: Optional[str] = None) -> Tuple[dict, dict]:
    """The scenario and a summary (positions' tries, flows' hops)."""
    if nodes < 2:
        raise SystemExit("--nodes must be at least 2")
    if flows < 1:
        raise SystemExit("--flows must be at least 1")
    link_m = range_m - margin_m
    rng = random.Random(seed)
    positions, adj, tries = place(rng, nodes, width_m, height_m, link_m)
    pairs = draw_flows(rng, adj, flows, min_hops)

    scen: Dict = {}
    for key, value in template.items():
        if key in ("nodes", "node_groups", "flows", "name", "description"):
            continue
        scen[key] = copy.deepcopy(value)
    scen.pop("$schema", None)
    base_flow = copy.deepcopy(template["flows"][0]) if template.get("flows") else {}
    for key in ("id", "src", "dst", "transport", "fair_share_bps"):
        base_flow.pop(key, None)
    template_transport = template["flows"][0].get("transport") if template.get("flows") else None
    for key in ("tcp", "wccp", "udp"):
        if key != transport or template_transport != transport:
            base_flow.pop(key, None)

    ids = [str(i + 1) for i in range(nodes)]
    scen_nodes = [{"id": ids[i], "position_m": [positions[i][0], positions[i][1]]} for i in range(nodes)]
    scen_flows = []
    for k, (s, d, _) in enumerate(pairs):
        flow = {"id": f"f{k + 1}", "transport": transport, "src": ids[s], "dst": ids[d]}
        flow.update(copy.deepcopy(base_flow))
        scen_flows.append(flow)

    if timeseries is not None:
        scen.setdefault("outputs", {})["timeseries"] = list(timeseries)
    elif transport != "wccp" and "timeseries" in scen.get("outputs", {}):
        scen["outputs"]["timeseries"] = [k for k in scen["outputs"]["timeseries"] if k != "wccp_rate"]

    hop_list = [h for (_, _, h) in pairs]
    auto_description = (
        f"Random topology generated by scripts/random_topology.py (seed {seed}): {nodes} nodes placed uniformly in "
        f"{width_m:g} m x {height_m:g} m, redrawn until connected with links up to {link_m:g} m "
        f"({range_m:g} m range - {margin_m:g} m margin; {tries} placement(s) drawn); {flows} {transport} flows between "
        f"distinct ordered node pairs drawn uniformly (at least {min_hops} hop(s), shortest paths of "
        f"{min(hop_list)}..{max(hop_list)} hops, mean {sum(hop_list) / len(hop_list):.1f}). "
        f"Everything else copied from the template {template.get('name', '(unnamed)')}.")
    out: Dict = {}
    if schema:
        out["$schema"] = schema
    out["name"] = name or f"random_{nodes}n_{flows}f_seed{seed}_{transport}"
    out["description"] = (description + " " if description else "") + auto_description
    out.update(scen)
    out["nodes"] = scen_nodes
    out["flows"] = scen_flows
    # Keep the usual key order: nodes and routing before flows.
    order = ["$schema", "name", "description", "simulation", "phy", "propagation", "mac", "nodes", "links", "routing",
             "flows", "controllers", "outputs"]
    ordered = {k: out[k] for k in order if k in out}
    ordered.update({k: v for k, v in out.items() if k not in ordered})
    summary = {"tries": tries, "hops": hop_list, "pairs": [(ids[s], ids[d]) for (s, d, _) in pairs]}
    return ordered, summary


def dumps(scen: dict) -> str:
    """One line per node and per flow, the rest as the repository's scenarios are written."""
    lines = ["{"]
    items = list(scen.items())
    for i, (key, value) in enumerate(items):
        comma = "," if i + 1 < len(items) else ""
        if key in ("nodes", "flows", "controllers") and isinstance(value, list) and value:
            lines.append(f"  {json.dumps(key)}: [")
            for j, elem in enumerate(value):
                lines.append("    " + json.dumps(elem) + ("," if j + 1 < len(value) else ""))
            lines.append("  ]" + comma)
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--template", required=True, help="scenario whose sections (all but nodes and flows) are copied")
    ap.add_argument("--nodes", type=int, default=50)
    ap.add_argument("--area", type=float, nargs=2, metavar=("W", "H"), default=[1500.0, 300.0],
                    help="field width and height in metres")
    ap.add_argument("--range", type=float, default=250.0, help="link range in metres")
    ap.add_argument("--margin", type=float, default=0.5, help="links are pairs at most range - margin apart")
    ap.add_argument("--flows", type=int, default=10)
    ap.add_argument("--min-hops", type=int, default=1)
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--transport", default="tcp")
    ap.add_argument("--name")
    ap.add_argument("--description", help="text put before the generated description")
    ap.add_argument("--timeseries", help="comma-separated time-series kinds (default: the template's)")
    ap.add_argument("--routing", help="the routing section as JSON, in place of the template's (e.g. AODV: "
                    "'{\"type\": \"aodv\"}'); nodes and flows do not depend on it")
    ap.add_argument("--out", required=True)
    args = ap.parse_args(argv)
    template = json.loads(Path(args.template).read_text())
    if args.routing:
        template["routing"] = json.loads(args.routing)
    schema = None
    if "$schema" in template and "://" not in template["$schema"]:
        # The template's schema, seen from where the output goes.
        target = (Path(args.template).resolve().parent / template["$schema"]).resolve()
        schema = os.path.relpath(target, Path(args.out).resolve().parent)
    scen, summary = build(template, nodes=args.nodes, width_m=args.area[0], height_m=args.area[1],
                          range_m=args.range, margin_m=args.margin, flows=args.flows, seed=args.seed,
                          transport=args.transport, min_hops=args.min_hops, name=args.name,
                          description=args.description,
                          timeseries=args.timeseries.split(",") if args.timeseries else None, schema=schema)
    Path(args.out).write_text(dumps(scen))
    print(f"{args.out}: {args.nodes} nodes ({summary['tries']} placement(s)), flows "
          + ", ".join(f"{s}->{d} ({h} hops)" for (s, d), h in zip(summary["pairs"], summary["hops"])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
