#!/usr/bin/env python3
"""Instructions and cache misses per event, by part of the simulator (issue 43 §2,
docs/performance.md "City scale"): reads a callgrind output file written with
--cache-sim=yes and splits its self costs by the source file each instruction comes
from (inlined code counts where it is written: the event set's inline scheduling
code inside a MAC handler is the event set's), then by the file of the function it
runs in (C++ library code counts for the wmnsim function that inlined it), then by
the library (malloc and free, libm, memcpy). Only the event loop counted; valgrind
simulates two cache levels, so each run is made once per last level of interest
(here this machine's 1 MB second and 32 MB third level; its first-level data cache
is 48 KB, 12-way):

    valgrind --tool=callgrind --cache-sim=yes --D1=49152,12,64 --LL=1048576,16,64 \\
        --toggle-collect='wmnsim::Scheduler::run_until*' --callgrind-out-file=cg.l2.10000 \\
        build/ci/bench/bench_network --scale 10000 --seconds=2 --gateway_trees --flows=50 --down
    # again with --LL=33554432,16,64 into cg.l3.10000, and for other node counts
    python3 bench/callgrind_parts.py 10000:2777459:cg.l2.10000:cg.l3.10000 [more runs] \\
        [--growth] [--parts] [--functions 20]

A run is NODES:EVENTS:FILE[:FILE...], EVENTS the count bench_network prints (its
"events" column), one file per simulated last level (instructions and D1 misses are
read from the first). Prints the totals per event of each run; --growth, one table
of the parts across the runs (with the first file's last-level misses); --parts, a
table per run; --functions N, the N functions with the most last-level misses in the
last run's last file.
"""
import argparse
import re
import sys
from collections import defaultdict

# Parts, by the path of a wmnsim source file (relative to the repository). First match wins.
PARTS = [
    ("event set (core/scheduler, radix queue)",
     re.compile(r"core/(scheduler|radix_queue|inline_function|cache_line_allocator)\b")),
    ("PHY: medium (signal delivery)", re.compile(r"phy/medium\b")),
    ("PHY: reception decision (SINR, error model)",
     re.compile(r"phy/(reception|frame_success|error_model|mcs|rate_selection|units)\b")),
    ("PHY: radio (state, carrier sense)", re.compile(r"phy/")),
    ("MAC", re.compile(r"mac/")),
    ("results records (ledger, delays, samplers, stats)",
     re.compile(r"core/(packet_ledger|delay_distribution|delay_variation|sample_budget|fairness)\b|"
                r"runner/(flow_sampler|mac_sampler|hop_statistics|flow_table|result_rows)\b|results/|trace/")),
    ("routing, forwarding, transport, traffic",
     re.compile(r"core/(node|routing|aodv|packet|node_signals|route_agent|subscriber_list)|"
                r"link/|transport/|control/|runner/")),
    ("other wmnsim code", re.compile(r".")),
]
# Helpers every part uses (times, random draws, the payload pool): counted for the
# function they run in.
NEUTRAL = re.compile(r"core/(time|random|block_pool)\b")
LIBRARIES = [
    ("malloc, free, memcpy (libc)", re.compile(r"libc[.-]|ld-linux|vgpreload")),
    ("libm (exp, log)", re.compile(r"libm[.-]")),
    ("C++ runtime (libstdc++)", re.compile(r"libstdc\+\+")),
]


# Code in no wmnsim source file (a std::vector member instantiated out of line, a
# helper in a file every part includes): by the function's name.
FUNCTION_PARTS = [
    (re.compile(r"RadixQueue|wmnsim::Scheduler"), PARTS[0][0]),
    (re.compile(r"^wmnsim::phy::Medium"), PARTS[1][0]),
    (re.compile(r"^wmnsim::phy::(FrameSuccess|ChunkErrorCache|Mcs)"), PARTS[2][0]),
    (re.compile(r"^wmnsim::phy::"), PARTS[3][0]),
    (re.compile(r"^wmnsim::mac::"), PARTS[4][0]),
    (re.compile(r"PacketLedger|DelayDistribution|TimeSeries|Sampler|Stats"), PARTS[5][0]),
    (re.compile(r"^wmnsim::(Node|Packet|Routing|link::|transport::|control::)"), PARTS[6][0]),
]


def source_path(path: str) -> str | None:
    """The repository-relative path of a wmnsim source file, or None for any other file."""
    m = re.search(r"(?:^|/)((?:core|phy|mac|link|transport|control|runner|results|trace|routing|scenario|"
                  r"analysis|cli|bench)/[^/]+)$", path)
    if m is None or path.startswith("/usr/"):
        return None
    return m.group(1)


def part_of(path: str) -> str:
    for name, pattern in PARTS:
        if pattern.search(path):
            return name
    return "other wmnsim code"


class Reader:
    """Self costs of a callgrind file per (part, function)."""

    def __init__(self) -> None:
        self.events: list[str] = []
        self.names: dict[str, dict[str, str]] = {"file": {}, "fn": {}, "ob": {}}
        self.costs: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0] * len(self.events))

    def name(self, table: str, text: str) -> str:
        m = re.match(r"\((\d+)\)(?: (.*))?$", text)
        if m is None:
            return text
        if m.group(2) is not None:
            self.names[table][m.group(1)] = m.group(2)
        return self.names[table][m.group(1)]

    def read(self, path: str) -> None:
        fl = fi = fn = ob = ""
        skip_next_cost = False
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                line = line.rstrip("\n")
                if not line or line.startswith("#"):
                    continue
                c = line[0]
                if c.isdigit() or c in "+-*":
                    if skip_next_cost:  # the inclusive cost of a call: not this function's own
                        skip_next_cost = False
                        continue
                    values = line.split()[1:]  # the first field is the line number
                    if not values:
                        continue
                    key = (self.classify(fi, fl, fn, ob), fn)
                    acc = self.costs[key]
                    for i, v in enumerate(values):
                        acc[i] += int(v)
                    continue
                key_, _, rest = line.partition("=")
                if line.startswith("events:"):
                    self.events = line.split(":", 1)[1].split()
                elif key_ == "ob":
                    ob = self.name("ob", rest)
                elif key_ == "fl":
                    fl = fi = self.name("file", rest)
                elif key_ in ("fi", "fe"):
                    fi = self.name("file", rest)
                elif key_ == "fn":
                    fn = self.name("fn", rest)
                    fi = fl
                elif key_ in ("cfi", "cfl"):
                    self.name("file", rest)
                elif key_ == "cfn":
                    self.name("fn", rest)
                elif key_ == "cob":
                    self.name("ob", rest)
                elif key_ == "calls":
                    skip_next_cost = True

    @staticmethod
    def classify(fi: str, fl: str, fn: str, ob: str) -> str:
        for path in (fi, fl):
            src = source_path(path)
            if src is not None and not NEUTRAL.search(src):
                return part_of(src)
        for name, pattern in LIBRARIES:
            if pattern.search(ob):
                return name
        # C++ library code outside any wmnsim function's file: by the function's namespace.
        for pattern, part in FUNCTION_PARTS:
            if pattern.search(fn):
                return part
        return "other wmnsim code"


def cache_label(path: str) -> str:
    """The simulated last-level cache of a callgrind file, e.g. "LL 32 MB"."""
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = re.match(r"desc: LL cache: (\d+) B", line)
            if m:
                size = int(m.group(1))
                return f"LL {size >> 20} MB" if size >= 1 << 20 else f"LL {size >> 10} KB"
            if line.strip() and not line.startswith(("#", "desc", "version", "creator", "pid", "cmd", "part", "positions")):
                break
    return "LL"


class Run:
    """One run (node count), read from one callgrind file per simulated last-level cache."""

    def __init__(self, spec: str) -> None:
        fields = spec.split(":")
        if len(fields) < 3:
            sys.exit(f"{spec}: expected NODES:EVENTS:FILE[:FILE...]")
        self.nodes, self.events = int(fields[0]), int(fields[1])
        self.files = fields[2:]
        self.labels = [cache_label(f) for f in self.files]
        self.readers = []
        for f in self.files:
            r = Reader()
            r.read(f)
            if any(n not in r.events for n in ("Ir", "D1mr", "D1mw", "DLmr", "DLmw")):
                sys.exit(f"{f}: no cache simulation in it (run callgrind with --cache-sim=yes)")
            self.readers.append(r)

    @staticmethod
    def get(r: Reader, v: list[int], name: str) -> int:
        i = r.events.index(name)
        return v[i] if i < len(v) else 0

    def per_part(self) -> dict[str, list[float]]:
        """Per part: instructions, D1 misses, then each file's LL misses, per event."""
        out: dict[str, list[float]] = defaultdict(lambda: [0.0] * (2 + len(self.readers)))
        for k, r in enumerate(self.readers):
            for (part, _), v in r.costs.items():
                row = out[part]
                if k == 0:
                    row[0] += self.get(r, v, "Ir") / self.events
                    row[1] += (self.get(r, v, "D1mr") + self.get(r, v, "D1mw")) / self.events
                row[2 + k] += (self.get(r, v, "DLmr") + self.get(r, v, "DLmw")) / self.events
        return out

    def functions(self, count: int) -> list[tuple[str, str, list[float]]]:
        r = self.readers[-1]
        key = lambda k: -(self.get(r, r.costs[k], "DLmr") + self.get(r, r.costs[k], "DLmw"))
        rows = []
        for part, fn in sorted(r.costs, key=key)[:count]:
            v = r.costs[(part, fn)]
            rows.append((fn, part, [self.get(r, v, "Ir") / self.events,
                                    (self.get(r, v, "D1mr") + self.get(r, v, "D1mw")) / self.events,
                                    (self.get(r, v, "DLmr") + self.get(r, v, "DLmw")) / self.events]))
        return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("runs", nargs="+", metavar="NODES:EVENTS:FILE[:FILE...]",
                    help="a run: its node count, the events it executed (bench_network's 'events') and its "
                         "callgrind files, one per simulated last-level cache")
    ap.add_argument("--parts", action="store_true", help="a table per run, split by part")
    ap.add_argument("--growth", action="store_true",
                    help="one table of the parts across the runs: instructions, D1 misses and the first "
                         "file's LL misses per event at each node count")
    ap.add_argument("--functions", type=int, default=0,
                    help="also the N functions with the most misses in the last run's last file")
    a = ap.parse_args()
    runs = [Run(spec) for spec in a.runs]
    labels = runs[0].labels
    print("| nodes | events | instructions per event | D1 misses per event | "
          + " | ".join(f"{lab} misses per event" for lab in labels) + " |")
    print("|---:|---:|---:|---:|" + "---:|" * len(labels))
    for run in runs:
        total = [sum(col) for col in zip(*run.per_part().values())]
        print(f"| {run.nodes:,} | {run.events:,} | {total[0]:.0f} | {total[1]:.1f} | "
              + " | ".join(f"{x:.2f}" for x in total[2:]) + " |")
    if a.growth:
        tables = [run.per_part() for run in runs]
        sizes = [f"{run.nodes:,}" for run in runs]
        print("\n| part | " + " | ".join(f"instructions, {n}" for n in sizes) + " | "
              + " | ".join(f"D1 misses, {n}" for n in sizes) + " | "
              + " | ".join(f"{runs[0].labels[0]} misses, {n}" for n in sizes) + " |")
        print("|---|" + "---:|" * (3 * len(runs)))
        names = sorted({p for t in tables for p in t}, key=lambda p: -tables[-1].get(p, [0, 0, 0])[2])
        rows = [(p, [t.get(p, [0.0] * 3) for t in tables]) for p in names]
        rows.append(("**total**", [[sum(col) for col in zip(*t.values())] for t in tables]))
        for p, vs in rows:
            print(f"| {p} | " + " | ".join(f"{v[0]:.0f}" for v in vs) + " | " + " | ".join(f"{v[1]:.2f}" for v in vs)
                  + " | " + " | ".join(f"{v[2]:.2f}" for v in vs) + " |")
    if a.parts:
        for run in runs:
            parts = run.per_part()
            print(f"\n{run.nodes:,} nodes, per event:\n")
            print("| part | instructions | D1 misses | " + " | ".join(f"{lab} misses" for lab in run.labels) + " |")
            print("|---|---:|---:|" + "---:|" * len(run.labels))
            for p in sorted(parts, key=lambda p: -parts[p][-1] - 1e-3 * parts[p][1]):
                v = parts[p]
                print(f"| {p} | {v[0]:.0f} | {v[1]:.2f} | " + " | ".join(f"{x:.3f}" for x in v[2:]) + " |")
            total = [sum(col) for col in zip(*parts.values())]
            print(f"| **total** | {total[0]:.0f} | {total[1]:.2f} | " + " | ".join(f"{x:.3f}" for x in total[2:]) + " |")
    if a.functions:
        run = runs[-1]
        print(f"\n{run.nodes:,} nodes, the {a.functions} functions with the most {run.labels[-1]} misses, per event:\n")
        print(f"| function | part | instructions | D1 misses | {run.labels[-1]} misses |")
        print("|---|---|---:|---:|---:|")
        for fn, part, v in run.functions(a.functions):
            print(f"| `{fn[:80]}` | {part} | {v[0]:.1f} | {v[1]:.3f} | {v[2]:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
