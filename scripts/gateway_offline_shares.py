#!/usr/bin/python3
"""Issue 38: 001's experiments again with the shares as 001 computed them, and with a
measured MAC capacity B. Writes, for `wmnsim reproduce gateway`:

- generated/b/*.json: each network's one-hop scenario (`wmnsim model capacity
  --one-hop-scenario`, runner/one_hop_capacity.hpp: an access point and one station
  on the network's PHY and MAC, one saturated flow of its transport), and the
  experiment b_measured.json that runs them: each run's goodput is the network's
  measured B, the figure the controller's `mac_capacity: "measured"` measures for
  itself (the same run: seed 1, whatever the network's seed);
- table1_offline.json and table2_offline.json: the shaping schemes of Tables 1 and 2
  (the work-conserving FIFO and FQ have no shares to change) with `share_mode:
  "offline"` (001 App. A: the shares computed off-line for the flows the scenario
  declares active), once with Bianchi's B and once with the measured one, on the
  first ORDERS activation orders of each topology (the stored activity-driven runs
  of table1/table2 have the same scenarios and seeds, so each difference is paired);
- fig6_offline.json, table4_offline.json, fig7_offline.json: Figs. 6 and 7 and Table 4 the
  same way (Fig. 7: its convergence after each change with the share's timing and size
  changed);
- t12_b_acks.json, table4_b_acks.json: the per-flow runs of table1/2_offline and
  table4_offline with the other reading of the measured B (the TCP ACKs' bytes counted);
- table1_buf50.json, table2_buf50.json: Tables 1 and 2's runs again with ns-2's 50-packet
  gateway buffer (Queue set limit_ 50) instead of the scenarios' 25, for the schemes that
  have a shared buffer (FIFO, the aggregate limit over a FIFO, and source limiting's
  untouched gateway queue); t12_buf50_per_class.json: the schemes with only per-class
  buffers (FQ, aggregate + FQ, per-flow), which never read the shared buffer's size, on
  the first activation order of each topology (the report checks that they are
  unchanged run for run);
- table1_fq_buf25.json: Table 1's FQ runs with 25-packet per-flow buffers instead of 001's 5.

Usage: WMNSIM_BIN=build/ci/cli/wmnsim /usr/bin/python3 scripts/gateway_offline_shares.py
(deterministic: the same files from the same wmnsim)
"""
from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import List, Sequence

ROOT = Path(__file__).resolve().parent.parent
REPRO = ROOT / "scenarios" / "jamshaid" / "reproduction"
B_DIR = REPRO / "generated" / "b"
ORDERS = 25  # activation orders per topology: all of table1/table2's
SHAPING = {"table1": ["aggregate_rate_limit", "aggregate_rate_limit_fq", "per_flow_rate_limit"],
           "table2": ["aggregate_rate_limit", "aggregate_rate_limit_fq", "per_flow_rate_limit", "source_rate_limit"]}
B_SOURCES = ["bianchi", "measured"]
# The one-hop runs of the quick variant: those the other experiments' quick variants need.
QUICK_B = ("t12_chain4", "parking_lot2", "fig6_random20", "table4_multi_radio", "a4_grid6x6_basic", "a4_random01_basic",
           "a4_random01_rts")

BUFFER_SCHEMES = {"table1": ["fifo", "aggregate_rate_limit"],
                  "table2": ["fifo", "aggregate_rate_limit", "source_rate_limit"]}
PER_CLASS_SCHEMES = ["fq", "aggregate_rate_limit_fq", "per_flow_rate_limit"]
NS2_BUFFER_PACKETS = 50  # ns-2's default interface queue, Queue set limit_ 50 (001 Sec. 5.2: "the default values in ns-2")
T12_COLUMNS = {"runs": ["jain_fairness_index", "total_goodput_bps"], "flows": ["goodput_bps"]}
T12_QUICK_CHECKS = [{"table": "runs", "metric": "jain_fairness_index", "tolerance": {"absolute": 0.05}},
                    {"table": "runs", "metric": "total_goodput_bps", "tolerance": {"relative": 0.1}}]


def wmnsim_bin() -> str:
    return os.environ.get("WMNSIM_BIN") or str(ROOT / "build" / "release" / "cli" / "wmnsim")


def one_hop(scenario: Path, name: str) -> str:
    """Writes generated/b/<name>.json, the one-hop run of `scenario`; returns its path from REPRO."""
    out = subprocess.run([wmnsim_bin(), "model", "capacity", str(scenario), "--one-hop-scenario"],
                         capture_output=True, text=True, check=True).stdout
    doc = json.loads(out)
    doc = {"$schema": "../../../../schema/scenario.schema.json", **doc}
    B_DIR.mkdir(parents=True, exist_ok=True)
    path = B_DIR / f"{name}.json"
    path.write_text(json.dumps(doc, indent=1) + "\n")
    return os.path.relpath(path, REPRO)


def topologies(table: dict) -> List[str]:
    """The topology kinds of a t12 experiment, in order (chain4_down_o01 -> chain4)."""
    kinds: List[str] = []
    for entry in table["scenarios"]:
        kind = Path(entry["file"]).stem.rsplit("_", 2)[0]
        if kind not in kinds:
            kinds.append(kind)
    return kinds


def write_b(t1: dict) -> None:
    files = []
    for kind in topologies(t1):
        files.append(one_hop(REPRO / "generated" / "t12" / f"{kind}_down_o01.json", f"t12_{kind}"))
    for name, scen in (("fig3_parking_lot", "chain_1mbps"), ("fig6_random20", "random20_fig6"),
                       ("fig7_chain7", "chain7_short_lived"), ("table4_multi_radio", "multi_radio")):
        files.append(one_hop(REPRO.parent / f"{scen}.json", name))
    files.append(one_hop(REPRO / "parking_lot2" / "parking_lot2_udp_up.json", "parking_lot2"))
    files.append(one_hop(REPRO / "generated" / "a4" / "grid6x6_basic.json", "a4_grid6x6_basic"))
    for seed in range(1, 51):
        for mode in ("basic", "rts"):
            files.append(one_hop(REPRO / "generated" / "a4" / f"random{seed:02d}_{mode}.json",
                                 f"a4_random{seed:02d}_{mode}"))
    spec = {
        "description": ("Issue 38: B measured as 001 App. A.2 describes it, one run per network: an access point "
                        "and one station on the network's PHY and MAC, one saturated flow of its transport, 100 s "
                        "after 10 s (runner/one_hop_capacity.hpp; written by scripts/gateway_offline_shares.py)"),
        "scenarios": files,
        "seeds": 1,
        "tables": ["runs", "flows"],
        "columns": {"runs": ["total_goodput_bps"], "flows": ["goodput_bps"]},
        "quick": {"scenarios": [f for f in files if Path(f).stem in QUICK_B],
                  "checks": [{"table": "flows", "metric": "goodput_bps", "tolerance": {"relative": 0.001}}]},
    }
    (REPRO / "b_measured.json").write_text(json.dumps(spec, indent=1) + "\n")


def write_table(name: str) -> None:
    src = json.loads((REPRO / f"{name}.json").read_text())
    keep = [e for e in src["scenarios"] if int(Path(e["file"]).stem.rsplit("_o", 1)[1]) <= ORDERS]
    direction = "downstream" if name == "table1" else "upstream"
    spec = {
        "description": (f"Issue 38, 001 {name.replace('table', 'Table ')} ({direction} TCP) with the shares as 001 "
                        f"computed them (share_mode offline: the flows the scenario declares active), B Bianchi's or "
                        f"measured in a one-hop run; the shaping schemes, the first {ORDERS} activation orders of "
                        f"each topology of {name}.json, each with the seed of its order; written by "
                        f"scripts/gateway_offline_shares.py"),
        "scenarios": keep,
        "grid": {"/controllers/0/scheme": SHAPING[name], "/controllers/0/mac_capacity": B_SOURCES},
        "set": {"/controllers/0/share_mode": "offline"},
        "seeds": 1,
        "tables": ["runs", "flows"],
        # What the report and the quick checks read (the storage budget, docs/reproduce.md).
        "columns": T12_COLUMNS,
        "quick": {"scenarios": [keep[0]],
                  "grid": {"/controllers/0/scheme": ["per_flow_rate_limit"], "/controllers/0/mac_capacity": B_SOURCES},
                  "set": {"/simulation/duration_s": 40},
                  "checks": T12_QUICK_CHECKS},
    }
    (REPRO / f"{name}_offline.json").write_text(json.dumps(spec, indent=1) + "\n")


def write_small(name: str, quick_b: Sequence[str] = ("measured",)) -> None:
    """An experiment of one scenario with the controller offline (its idle timeout,
    which applies only to activity-driven shares, left out); its quick variant with the
    B sources `quick_b` (both where the report reads both)."""
    src = json.loads((REPRO / f"{name}.json").read_text())
    scenario = json.loads((REPRO / src["scenario"]).read_text())
    controller = {k: v for k, v in scenario["controllers"][0].items() if k != "flow_idle_timeout_s"}
    controller["share_mode"] = "offline"
    spec = {k: v for k, v in src.items() if k not in ("description", "quick")}
    spec["description"] = (f"Issue 38: {name}.json with share_mode offline (001 App. A), B Bianchi's or measured; "
                           f"written by scripts/gateway_offline_shares.py")
    spec["grid"] = {"/controllers/0/mac_capacity": B_SOURCES}
    spec["set"] = {**src.get("set", {}), "/controllers/0": controller}
    spec["quick"] = {**src["quick"], "grid": {"/controllers/0/mac_capacity": list(quick_b)}}
    (REPRO / f"{name}_offline.json").write_text(json.dumps(spec, indent=1) + "\n")


def write_b_acks() -> None:
    """The other reading of a measured B (`measured_b_counts: "data_and_tcp_acks"`: the TCP ACKs'
    bytes counted as MAC-layer throughput) beside the first, off-line, with per-flow limiting:
    t12_b_acks on table1_offline's and table2_offline's scenarios, table4_b_acks on table4_offline's.
    The controllers' statistics give the B each run measured."""
    reading = {"/controllers/0/mac_capacity": "measured", "/controllers/0/measured_b_counts": "data_and_tcp_acks"}
    scenarios = []
    for name in ("table1", "table2"):
        scenarios += json.loads((REPRO / f"{name}_offline.json").read_text())["scenarios"]
    spec = {
        "description": ("Issue 38: Tables 1 and 2's off-line per-flow runs (table1_offline, table2_offline) with the "
                        "other reading of the measured B, the TCP ACKs' bytes counted as MAC-layer throughput "
                        "(measured_b_counts data_and_tcp_acks); written by scripts/gateway_offline_shares.py"),
        "scenarios": scenarios,
        # The controllers' statistics give each run's B; one report interval per run keeps them small.
        "set": {"/controllers/0/scheme": "per_flow_rate_limit", "/controllers/0/share_mode": "offline", **reading,
                "/controllers/0/report_interval_s": 1000},
        "seeds": 1,
        "tables": ["runs", "flows"],
        "keep": ["controllers"],
        "columns": T12_COLUMNS,
        "quick": {"scenarios": [scenarios[0]],
                  "set": {"/simulation/duration_s": 40},
                  "checks": T12_QUICK_CHECKS},
    }
    (REPRO / "t12_b_acks.json").write_text(json.dumps(spec, indent=1) + "\n")
    t4 = json.loads((REPRO / "table4_offline.json").read_text())
    spec = {k: v for k, v in t4.items() if k not in ("description", "grid", "quick")}
    spec["description"] = ("Issue 38: table4_offline.json with the other reading of the measured B, the TCP ACKs' "
                           "bytes counted (measured_b_counts data_and_tcp_acks); written by "
                           "scripts/gateway_offline_shares.py")
    spec["set"] = {**t4["set"], "/controllers/0": {**t4["set"]["/controllers/0"], "mac_capacity": "measured",
                                                   "measured_b_counts": "data_and_tcp_acks"}}
    spec["quick"] = {k: v for k, v in t4["quick"].items() if k != "grid"}
    (REPRO / "table4_b_acks.json").write_text(json.dumps(spec, indent=1) + "\n")


def write_buffers() -> None:
    """Tables 1 and 2 with ns-2's 50-packet gateway buffer beside the stored 25-packet runs: the same
    scenarios, seeds and share mode (activity-driven, Bianchi's B), only `buffer_packets` changed."""
    buffer = {"/controllers/0/buffer_packets": NS2_BUFFER_PACKETS}
    for name in ("table1", "table2"):
        src = json.loads((REPRO / f"{name}.json").read_text())
        spec = {
            "description": (f"Issue 38: {name}.json (every activation order, the stored activity-driven runs' "
                            f"scenarios and seeds) with ns-2's {NS2_BUFFER_PACKETS}-packet gateway buffer instead "
                            f"of the scenarios' 25, for the schemes with a shared buffer; written by "
                            f"scripts/gateway_offline_shares.py"),
            "scenarios": src["scenarios"],
            "grid": {"/controllers/0/scheme": BUFFER_SCHEMES[name]},
            "set": buffer,
            "seeds": 1,
            "tables": ["runs", "flows"],
            "columns": T12_COLUMNS,
            "quick": {"scenarios": [src["scenarios"][0]], "grid": {"/controllers/0/scheme": ["fifo"]},
                      "set": {"/simulation/duration_s": 40}, "checks": T12_QUICK_CHECKS},
        }
        (REPRO / f"{name}_buf50.json").write_text(json.dumps(spec, indent=1) + "\n")
    firsts = []
    for name in ("table1", "table2"):
        src = json.loads((REPRO / f"{name}.json").read_text())
        firsts += [e for e in src["scenarios"] if Path(e["file"]).stem.endswith("_o01")]
    spec = {
        "description": (f"Issue 38: the schemes with only per-class gateway buffers (FQ, aggregate + FQ, per-flow) "
                        f"with a {NS2_BUFFER_PACKETS}-packet shared buffer set, on the first activation order of each "
                        f"topology of table1.json and table2.json: the shared buffer's size is not theirs, so the "
                        f"runs should equal the stored 25-packet ones; written by scripts/gateway_offline_shares.py"),
        "scenarios": firsts,
        "grid": {"/controllers/0/scheme": PER_CLASS_SCHEMES},
        "set": buffer,
        "seeds": 1,
        "tables": ["runs", "flows"],
        "columns": T12_COLUMNS,
        "quick": {"scenarios": [firsts[0]], "grid": {"/controllers/0/scheme": ["per_flow_rate_limit"]},
                  "set": {"/simulation/duration_s": 40}, "checks": T12_QUICK_CHECKS},
    }
    (REPRO / "t12_buf50_per_class.json").write_text(json.dumps(spec, indent=1) + "\n")


FQ_TEST_BUFFER_PACKETS = 25  # the scenarios' shared gateway buffer: FQ's per-flow bound made as large as FIFO's


def write_fq_buffer() -> None:
    """Table 1's FQ runs with 25-packet per-flow buffers instead of 001's 5 (Sec. 5.3), the same scenarios
    and seeds: whether the per-flow bound is what makes wmnsim's downstream FQ fairer than 001's."""
    src = json.loads((REPRO / "table1.json").read_text())
    spec = {
        "description": (f"Issue 38: table1.json's FQ runs (every activation order, the stored runs' scenarios and "
                        f"seeds) with {FQ_TEST_BUFFER_PACKETS}-packet per-flow buffers instead of 001's 5: isolates "
                        f"the per-flow bound in FQ's downstream fairness; written by "
                        f"scripts/gateway_offline_shares.py"),
        "scenarios": src["scenarios"],
        "grid": {"/controllers/0/scheme": ["fq"]},
        "set": {"/controllers/0/per_flow_buffer_packets": FQ_TEST_BUFFER_PACKETS},
        "seeds": 1,
        # The report reads each run's Jain index only (docs/reproduce.md's storage budget).
        "tables": ["runs"],
        "columns": {"runs": T12_COLUMNS["runs"]},
        "quick": {"scenarios": [src["scenarios"][0]], "set": {"/simulation/duration_s": 40},
                  "checks": T12_QUICK_CHECKS},
    }
    (REPRO / "table1_fq_buf25.json").write_text(json.dumps(spec, indent=1) + "\n")


def main() -> None:
    t1 = json.loads((REPRO / "table1.json").read_text())
    write_b(t1)
    write_table("table1")
    write_table("table2")
    write_small("fig6", B_SOURCES)  # Fig. 6's table divides by the off-line share with Bianchi's B
    write_small("table4")
    write_b_acks()
    write_small("fig7", B_SOURCES)  # Fig. 7's convergence with both Bs
    write_buffers()
    write_fq_buffer()


if __name__ == "__main__":
    main()
