#!/usr/bin/env python3
"""What a run holds per node, by allocation site, from a valgrind massif profile.

Issue 43 §3 (docs/performance.md, "Memory per node"). Profile a single node count
of bench_network (it runs in the process) with every snapshot detailed:

    valgrind --tool=massif --threshold=0.1 --detailed-freq=1 --max-snapshots=400 \\
        --massif-out-file=massif.out build/ci/bench/bench_network --scale 2000 --seconds=2
    python3 bench/massif_breakdown.py massif.out --nodes 2000

The snapshot read is the end of the run: the last one before the results are
written (the first snapshot with an allocation under a function taking
`wmnsim::Results&`), unless --snapshot names one. A file holding one detailed
snapshot is read as it is: bench_network writes one at the end of the run with
WMNSIM_MASSIF_AT_END=FILE (valgrind's `detailed_snapshot` monitor command), which
is how 100,000 nodes are profiled (massif's own snapshots, taken at its pace and
culled, kept none after set-up in a 41-minute run):

    WMNSIM_MASSIF_AT_END=end.massif valgrind --tool=massif --threshold=0.1 \\
        --massif-out-file=massif.out build/ci/bench/bench_network --scale 100000 --seconds=2
    python3 bench/massif_breakdown.py end.massif --nodes 100000 --groups

Each allocation site of the
heap tree's first level is named by its first frames in wmnsim's code (standard
library and allocator frames skipped) and divided by the node count. Sites under
--min-bytes per node are summed in one line. With --groups the sites are summed
into the groups of docs/performance.md's table instead (GROUPS below: the first
pattern that a site's frames match), and the bytes per node beyond the per-link and
routing groups (PER_LINK_AND_ROUTING: issue 43 §3's measure) are printed last.
"""

import argparse
import re
import sys

STD_FRAME = re.compile(
    r"\((new_allocator|allocator|alloc_traits|stl_\w+|vector\.tcc|unique_ptr|shared_ptr\w*|hashtable\w*|"
    r"std_function|basic_string\w*|list\.tcc|deque\.tcc|invoke|stl_construct|stl_uninitialized|"
    r"ptr_traits|functional|new_op\w*)\.h\w*:\d+\)")
NODE = re.compile(r"(\s*)n(\d+): (\d+) (.*)")

# (group, pattern over a site's frames), first match wins: the Node first (its
# make_unique names the routing tables and the ledger among its template arguments).
GROUPS = [
    ("Node", r"make_unique<wmnsim::Node\b|network\.cpp:93\)"),
    ("PHY links (per neighbour)", r"fill_links|neighbour_lists|std::vector<wmnsim::phy::Link"),
    ("the medium's delivery order (per neighbour)", r"sort_deliveries"),
    ("routing graph and tables", r"routing_detail|RoutingTables|NextHop|adjacency_list"),
    ("mac::AccessFunction", r"AccessFunction"),
    ("the MACs' traffic records", r"TrafficRecords"),
    ("the MAC's drop-tail queue", r"drop_tail"),
    ("mac::Mac", r"make_unique<wmnsim::mac::Mac\b|mac_builder\.cpp:87\)"),
    ("the medium's radio records", r"<wmnsim::phy::(RadioSpec|Medium::Placement)\b"),
    ("phy::Radio", r"make_unique<wmnsim::phy::Radio\b|medium\.cpp:49\)"),
    ("the radios' exact error caches", r"ChunkErrorCache|go_exact"),
    ("the radios' locked receptions", r"ReceptionRecords|LockedReception"),
    ("packet ledger", r"PacketLedger"),
    ("scenario records", r"parse_scenario|NodeConfig|RadioSpec|parse_node"),
]

# The groups that grow with the links or the routes rather than the nodes: issue
# 43 §3's target is the memory per node beyond them.
PER_LINK_AND_ROUTING = ("PHY links (per neighbour)", "the medium's delivery order (per neighbour)",
                        "routing graph and tables")


def read_snapshots(path):
    """[(id, heap_bytes, root)] where a tree node is [bytes, name, children]."""
    snapshots = []
    current = None
    stack = []
    with open(path) as f:
        for line in f:
            if line.startswith("snapshot="):
                current = {"id": int(line.split("=")[1]), "heap": 0, "root": None}
                snapshots.append(current)
                stack = []
            elif line.startswith("mem_heap_B="):
                current["heap"] = int(line.split("=")[1])
            else:
                m = NODE.match(line)
                if m and current is not None:
                    depth = len(m.group(1))
                    node = [int(m.group(3)), m.group(4), []]
                    while stack and stack[-1][0] >= depth:
                        stack.pop()
                    if stack:
                        stack[-1][1][2].append(node)
                    else:
                        current["root"] = node
                    stack.append((depth, node))
    return snapshots


def mentions(node, needle):
    return needle in node[1] or any(mentions(c, needle) for c in node[2])


def site_name(node, frames):
    """The first `frames` frames of wmnsim's code down a site's single-child chain."""
    names = []
    while True:
        name = re.sub(r"^0x[0-9A-F]+: ", "", re.sub(r" \(in /[^)]*\)", "", node[1]))
        if ("wmnsim" in name or re.search(r"\(\w+\.(cpp|hpp):\d+\)", name)) and not STD_FRAME.search(name):
            names.append(re.sub(r"\(([^()]*)\)", "(…)", name.split(" (")[0]) + " (" + name.rsplit("(", 1)[-1])
        if len(names) >= frames or len(node[2]) != 1:
            break
        node = node[2][0]
    return " <- ".join(names) if names else name[:120]


def site_frames(node):
    """Every frame down a site's chain (the largest branch where it splits)."""
    names = []
    while True:
        # The function's name and its file:line, not its parameter types (a Node's
        # constructor takes a PacketLedger&, which is not the ledger's allocation).
        name = re.sub(r" \(in /[^)]*\)", "", node[1])
        names.append(re.sub(r"\((?![\w.]+\.\w+:\d+\))[^()]*(\([^()]*\)[^()]*)*\)", "()", name))
        if not node[2]:
            return " ".join(names)
        node = max(node[2], key=lambda c: c[0])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("massif_out")
    ap.add_argument("--nodes", type=int, required=True, help="the node count profiled")
    ap.add_argument("--snapshot", type=int, help="read this snapshot instead of the end of the run")
    ap.add_argument("--frames", type=int, default=2, help="wmnsim frames naming a site (2)")
    ap.add_argument("--groups", action="store_true", help="sum the sites into GROUPS")
    ap.add_argument("--min-bytes", type=float, default=8.0, help="smallest site shown, bytes per node (8)")
    args = ap.parse_args(argv)
    detailed = [s for s in read_snapshots(args.massif_out) if s["root"] is not None]
    if args.snapshot is not None:
        chosen = next((s for s in detailed if s["id"] == args.snapshot), None)
        if chosen is None:
            sys.exit(f"massif_breakdown: snapshot {args.snapshot} is not a detailed one")
    elif len(detailed) == 1:
        chosen = detailed[0]  # a detailed_snapshot monitor command's file
    else:
        chosen = None
        for s in detailed:
            if mentions(s["root"], "wmnsim::Results&"):
                break
            chosen = s
        if chosen is None:
            sys.exit("massif_breakdown: no detailed snapshot before the results (use --detailed-freq=1)")
    n = args.nodes
    print(f"snapshot {chosen['id']}: heap {chosen['heap']:,} B, {chosen['heap'] / n:,.0f} B per node ({n:,} nodes)")
    if args.groups:
        sums = {name: 0 for name, _ in GROUPS}
        rest = 0
        for site in chosen["root"][2]:
            frames = site_frames(site)
            group = next((name for name, pattern in GROUPS if re.search(pattern, frames)), None)
            if group is None:
                rest += site[0]
            else:
                sums[group] += site[0]
        for name, total in sums.items():
            print(f"{total / n:9.1f} {total:12,}  {name}")
        print(f"{rest / n:9.1f} {rest:12,}  the rest")
        beyond = chosen["heap"] - sum(sums[name] for name in PER_LINK_AND_ROUTING)
        print(f"{beyond / n:9.1f} {beyond:12,}  per node beyond links and routing (the heap less "
              + ", ".join(PER_LINK_AND_ROUTING) + ")")
        return 0
    print(f"{'B/node':>9} {'bytes':>12}  site")
    small = 0
    for site in sorted(chosen["root"][2], key=lambda c: -c[0]):
        if site[0] / n < args.min_bytes:
            small += site[0]
            continue
        print(f"{site[0] / n:9.1f} {site[0]:12,}  {site_name(site, args.frames)}")
    print(f"{small / n:9.1f} {small:12,}  (sites under {args.min_bytes:g} B per node)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
