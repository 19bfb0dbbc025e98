#!/usr/bin/python3
"""001's topologies for Tables 1 and 2: a chain, a grid or a random mesh behind one
gateway, every mesh node a subscriber with one TCP flow to or from a host on the
wired network, started in a random order. Written as wmnsim scenarios.

001 Sec. 5.3: "a number of chains, grids, and random multihop network topologies,
including both upstream and downstream flows, with up to a maximum of 35
simultaneously active nodes transmitting via a single gateway. Experiments for a
given topology are repeated 25 times with different random seeds and random flow
activation sequences". 001 gives neither the sizes nor the activation rule; this
script's choices (stated in each file's description):

- chain: --nodes mesh nodes on a line --spacing apart (default 200 m: ns-2's
  radio reaches 250 m, senses 550 m), the gateway at one end;
- grid: a --cols x --rows grid --spacing apart, the gateway at a corner;
- random: --nodes mesh nodes uniform in --area, redrawn until connected with links
  up to --range - --margin (scripts/random_topology.py's rule), the gateway the node
  nearest the area's centre;
- every mesh node (at most 35) has one flow, or --sources random ones have
  --flows-per-source MIN MAX flows each (001 Fig. 6: 10 of 20 nodes, 1 to 3 upload
  flows); --direction up: from it to the wired host, down: from the host to it;
- activation: the flows start in a random order (the seed's, or --order-seed's to
  keep the topology and vary the order, as 001 does), one every --stagger seconds
  from 0, and run to the end.

The radio, MAC, TCP and gateway settings are the template's (default
scenarios/jamshaid/chain_1mbps.json: ns-2's defaults, 1 Mbit/s, NewReno, 1000-byte
segments); the template's controller is kept with its scheme (override it with
`wmnsim run --set /controllers/0/scheme=...`). Fair shares come from the
controller's capacity model unless the template gives fair_rate_bps.

Reproducibility: every draw is random.Random(seed).random() (see
scripts/random_topology.py), or random.Random("order-<order seed>").random(), whose
string seeding is fixed since Python 3.2: the same arguments give the same file on
any Python 3.

The files of docs/reproductions/gateway.md (Tables 1 and 2): the 7 topologies of
REPRODUCTION below, each with 25 activation orders (--order-seed 1..25), down and up,
measured from 20 s after the last flow starts, are written to
scenarios/jamshaid/reproduction/generated/t12/ together with the experiments
table1.json and table2.json that run them (each order with the seed of its order) by

  /usr/bin/python3 scripts/gateway_topology.py --reproduction

Usage:
  scripts/gateway_topology.py --kind random --nodes 25 --area 1000 1000 --seed 3 \\
      --direction down --out random25_s3_down.json
  scripts/gateway_topology.py --kind grid --cols 5 --rows 5 --seed 1 --direction up --out g.json
  scripts/gateway_topology.py --kind chain --nodes 6 --seed 1 --direction down --out c.json
"""
from __future__ import annotations

import argparse
import copy
import json
import math
import os
import random
import sys
from pathlib import Path
from typing import List, Optional, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
import random_topology as rt  # noqa: E402

MAX_ACTIVE = 35  # 001 Sec. 5.3
HOST = "internet"


def layout(args: argparse.Namespace, rng: random.Random) -> Tuple[List[Tuple[float, float]], int, str]:
    """Positions of every wireless node, the gateway's index, and a description."""
    if args.kind == "chain":
        pos = [(i * args.spacing, 0.0) for i in range(args.nodes + 1)]
        return pos, 0, f"a chain of {args.nodes} mesh nodes {args.spacing:g} m apart, the gateway at one end"
    if args.kind == "grid":
        pos = [(c * args.spacing, r * args.spacing) for r in range(args.rows) for c in range(args.cols)]
        return pos, 0, f"a {args.cols} x {args.rows} grid {args.spacing:g} m apart, the gateway at a corner"
    width, height = args.area
    pos, _, tries = rt.place(rng, args.nodes + 1, width, height, args.range - args.margin)
    centre = (width / 2, height / 2)
    gw = min(range(len(pos)), key=lambda i: (math.hypot(pos[i][0] - centre[0], pos[i][1] - centre[1]), i))
    return pos, gw, (f"{args.nodes + 1} nodes uniform in {width:g} x {height:g} m (connected with links up to "
                     f"{args.range - args.margin:g} m; placement draw {tries}), the gateway the node nearest the centre")


def build(template: dict, args: argparse.Namespace) -> dict:
    rng = random.Random(args.seed)
    pos, gw, where = layout(args, rng)
    mesh = [i for i in range(len(pos)) if i != gw]
    if len(mesh) > MAX_ACTIVE:
        raise SystemExit(f"{len(mesh)} mesh nodes: 001 has at most {MAX_ACTIVE} active; use fewer")
    # A random activation order: repeatedly draw one of the nodes not yet drawn
    # (from --order-seed's own stream when given: one topology, many sequences).
    if args.order_seed is not None:
        rng = random.Random(f"order-{args.order_seed}")
    order: List[int] = []
    left = list(mesh)
    while left:
        order.append(left.pop(rt.draw_index(rng, len(left))))
    # --sources: the first of that order are the subscribers with flows (001 Fig. 6:
    # "we randomly select 10 of these nodes as traffic sources").
    sources = order[:args.sources] if args.sources else order
    lo, hi = args.flows_per_source
    per_source = [lo + rt.draw_index(rng, hi - lo + 1) for _ in sources]
    scen = copy.deepcopy(template)
    ids = {i: ("gw" if i == gw else f"n{i}") for i in range(len(pos))}
    scen["nodes"] = [{"id": ids[i], "position_m": [round(x, 2), round(y, 2)], **({"role": "gateway"} if i == gw else {})}
                     for i, (x, y) in enumerate(pos)] + [{"id": HOST, "role": "host"}]
    scen.pop("node_groups", None)
    link = copy.deepcopy(template.get("links", [{"rate_bps": 100000000, "delay_s": 0.002}])[0])
    link["nodes"] = [ids[gw], HOST]
    scen["links"] = [link]
    base_flow = {k: v for k, v in template["flows"][0].items() if k not in ("id", "src", "dst", "start_s", "stop_s")}
    flows = []
    for k, (n, count) in enumerate(zip(sources, per_source)):
        src, dst = (ids[n], HOST) if args.direction == "up" else (HOST, ids[n])
        for j in range(count):
            suffix = f"_{j + 1}" if hi > 1 else ""
            flows.append({"id": f"{ids[n]}_{args.direction}{suffix}", "src": src, "dst": dst, **base_flow,
                          "start_s": round(k * args.stagger, 6)})
    scen["flows"] = flows
    for c in scen.get("controllers", []):
        if c.get("type") == "gateway_rate_control":
            c["gateway"] = ids[gw]
    name = args.name or f"jamshaid_{args.kind}_s{args.seed}_{args.direction}"
    scen["name"] = name
    scen["description"] = (
        f"Paper 001 Sec. 5.3.1-5.3.2 (Tables 1 and 2, Fig. 6), generated by scripts/gateway_topology.py "
        f"{' '.join(args.argv)}: {where}; "
        f"{'every mesh node' if not args.sources else f'{len(sources)} random mesh nodes'} with "
        f"{'one TCP flow' if hi == 1 else f'{lo} to {hi} TCP flows (drawn per node)'} "
        f"{'to' if args.direction == 'up' else 'from'} a wired host behind the gateway, the nodes started in a random "
        f"order one every {args.stagger:g} s. Radio, MAC, TCP and gateway control as in the template "
        f"({args.template}).")
    # The keys in the repository's usual order.
    first = ["$schema", "name", "description"]
    ordered = {k: scen[k] for k in first if k in scen}
    ordered.update({k: v for k, v in scen.items() if k not in first})
    return ordered


# Tables 1 and 2 of docs/reproductions/gateway.md: (name, generator arguments). 001 gives
# no sizes; these span 4 to 35 mesh nodes (001's maximum of simultaneously active nodes).
REPRODUCTION = (("chain4", ["--kind", "chain", "--nodes", "4"]),
                ("chain7", ["--kind", "chain", "--nodes", "7"]),
                ("grid3x3", ["--kind", "grid", "--cols", "3", "--rows", "3"]),
                ("grid4x4", ["--kind", "grid", "--cols", "4", "--rows", "4"]),
                ("random15", ["--kind", "random", "--nodes", "15", "--area", "800", "800", "--seed", "11"]),
                ("random20", ["--kind", "random", "--nodes", "20", "--area", "1000", "1000", "--seed", "3"]),
                ("grid6x6", ["--kind", "grid", "--cols", "6", "--rows", "6"]))
ORDERS = 25  # 001: "repeated 25 times with different random seeds and random flow activation sequences"
SCHEMES = {"down": ["fifo", "fq", "aggregate_rate_limit", "aggregate_rate_limit_fq", "per_flow_rate_limit"],
           "up": ["fifo", "fq", "aggregate_rate_limit", "aggregate_rate_limit_fq", "per_flow_rate_limit",
                  "source_rate_limit"]}
QUICK = {"down": ["chain4_down_o01", "grid3x3_down_o01"], "up": ["chain4_up_o01", "grid3x3_up_o01"]}


def write_reproduction(root: Path) -> None:
    """The scenarios and experiments of gateway.md's Tables 1 and 2 (see the docstring)."""
    folder = root / "scenarios" / "jamshaid" / "reproduction"
    out = folder / "generated" / "t12"
    out.mkdir(parents=True, exist_ok=True)
    template = root / "scenarios" / "jamshaid" / "chain_1mbps.json"
    lists = {"down": [], "up": []}
    for name, gen in REPRODUCTION:
        for direction in ("down", "up"):
            for order in range(1, ORDERS + 1):
                stem = f"{name}_{direction}_o{order:02d}"
                extra = [] if "--seed" in gen else ["--seed", "1"]
                argv = [*gen, *extra, "--order-seed", str(order), "--direction", direction,
                        "--template", os.path.relpath(template, root), "--name", f"jamshaid_t12_{stem}",
                        "--out", "-"]
                args = parser().parse_args(argv)
                args.argv = [a for a in argv if a not in ("--out", "-")]
                scen = build(json.loads(template.read_text()), args)
                scen["$schema"] = "../../../../schema/scenario.schema.json"
                # Measured from 20 s after the last flow starts (flows start 1 s apart);
                # no time series (the tables use the per-flow summaries).
                last = max(f.get("start_s", 0) for f in scen["flows"])
                scen["simulation"] = {**scen["simulation"], "duration_s": 300, "warmup_s": last + 20}
                scen.pop("outputs", None)
                (out / f"{stem}.json").write_text(rt.dumps(scen))
                lists[direction].append({"file": f"generated/t12/{stem}.json", "seeds": [order]})
    for table, direction in (("table1", "down"), ("table2", "up")):
        spec = {
            "description": (f"001 Table {table[-1]} ({direction}stream TCP): 7 generated topologies x 25 activation "
                            "orders (scripts/gateway_topology.py --reproduction), every gateway scheme, each order "
                            "with the seed of its order; 300 s, measured from 20 s after the last flow starts"),
            "scenarios": lists[direction],
            "grid": {"/controllers/0/scheme": SCHEMES[direction]},
            "seeds": 1,
            "tables": ["runs", "flows"],
            "quick": {"scenarios": [{"file": f"generated/t12/{s}.json", "seeds": [1]} for s in QUICK[direction]],
                      "set": {"/simulation/duration_s": 40},
                      "checks": [{"table": "runs", "metric": "jain_fairness_index", "tolerance": {"absolute": 0.05}},
                                 {"table": "runs", "metric": "total_goodput_bps", "tolerance": {"relative": 0.1}}]},
        }
        (folder / f"{table}.json").write_text(json.dumps(spec, indent=1) + "\n")


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--kind", choices=["chain", "grid", "random"], required=True)
    p.add_argument("--nodes", type=int, default=8, help="mesh nodes (chain, random)")
    p.add_argument("--cols", type=int, default=4)
    p.add_argument("--rows", type=int, default=4)
    p.add_argument("--spacing", type=float, default=200.0)
    p.add_argument("--area", type=float, nargs=2, default=[1000.0, 1000.0])
    p.add_argument("--range", type=float, default=250.0)
    p.add_argument("--margin", type=float, default=0.5)
    p.add_argument("--direction", choices=["up", "down"], required=True)
    p.add_argument("--stagger", type=float, default=1.0, help="seconds between flow starts")
    p.add_argument("--sources", type=int, default=0, help="random mesh nodes with flows (default: all)")
    p.add_argument("--flows-per-source", type=int, nargs=2, default=[1, 1], metavar=("MIN", "MAX"))
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--order-seed", type=int, help="seed of the activation order and sources alone (default: --seed's stream)")
    p.add_argument("--template", default="scenarios/jamshaid/chain_1mbps.json")
    p.add_argument("--name")
    p.add_argument("--out", required=True)
    return p


def main(argv: Optional[List[str]] = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv == ["--reproduction"]:
        write_reproduction(Path(__file__).resolve().parent.parent)
        return 0
    p = parser()
    args = p.parse_args(argv)
    args.argv = argv
    if args.nodes < 1 or args.cols < 1 or args.rows < 1 or args.cols * args.rows < 2:
        p.error("need at least one mesh node")
    template = json.loads(Path(args.template).read_text())
    scen = build(template, args)
    text = rt.dumps(scen)
    if args.out == "-":
        sys.stdout.write(text)
    else:
        Path(args.out).write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
