"""bench/massif_breakdown.py: issue 43 §3's memory per node from a massif file.

A small massif file in the format valgrind writes (a `detailed_snapshot` monitor
command's file holds one detailed snapshot, as bench_network's
WMNSIM_MASSIF_AT_END writes it), with sites of the per-link, routing and per-node
groups, so the figure the docs quote (bytes per node beyond links and routing) is
computed, not typed.
"""

import importlib.util
import re

from conftest import ROOT

SNAPSHOT = """desc: --threshold=0.1
cmd: bench_network --scale 10
time_unit: i
#-----------
snapshot=0
#-----------
time=123
mem_heap_B=10000
mem_heap_extra_B=0
mem_stacks_B=0
heap_tree=detailed
n5: 10000 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.
 n1: 5000 0x1: wmnsim::phy::Medium::fill_links(int) (medium.cpp:10)
  n0: 5000 0x2: main (main.cpp:1)
 n1: 1500 0x3: wmnsim::routing_detail::shortest_path_tables(int) (routing_graph.cpp:235)
  n0: 1500 0x4: main (main.cpp:1)
 n1: 2000 0x5: wmnsim::mac::build_macs(int) (mac_builder.cpp:87)
  n0: 2000 0x6: main (main.cpp:1)
 n1: 1000 0x7: wmnsim::phy::Medium::sort_deliveries(int) (medium.cpp:319)
  n0: 1000 0x8: main (main.cpp:1)
 n0: 500 in 7 places, all below massif's threshold (0.10%)
"""


def load():
    spec = importlib.util.spec_from_file_location("massif_breakdown", ROOT / "bench" / "massif_breakdown.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_single_snapshot_file_gives_the_bytes_per_node_beyond_links_and_routing(tmp_path, capsys):
    path = tmp_path / "end.massif"
    path.write_text(SNAPSHOT)
    assert load().main([str(path), "--nodes", "10", "--groups"]) == 0
    out = capsys.readouterr().out
    rows = [re.match(r"\s*(\S+)\s+(\S+)  (.*)", line) for line in out.splitlines()[1:]]
    lines = {row.group(3): row.group(1) for row in rows}
    assert out.splitlines()[0] == "snapshot 0: heap 10,000 B, 1,000 B per node (10 nodes)"
    assert lines["mac::Mac"] == "200.0"
    assert lines["PHY links (per neighbour)"] == "500.0"
    assert lines["routing graph and tables"] == "150.0"
    assert lines["the rest"] == "50.0"
    # 10,000 - 5,000 (links) - 1,000 (delivery order) - 1,500 (routing) = 2,500 B: 250 per node.
    beyond = [line for line in out.splitlines() if "beyond links and routing" in line]
    assert len(beyond) == 1 and beyond[0].split()[:2] == ["250.0", "2,500"]


def test_a_single_snapshot_is_read_even_when_the_results_are_being_written(tmp_path, capsys):
    # In a file of massif's own snapshots the end of the run is the last snapshot
    # before one with an allocation under a function taking wmnsim::Results&; a
    # file of one snapshot has no earlier one to fall back to, and is read as is.
    path = tmp_path / "end.massif"
    path.write_text(SNAPSHOT.replace("  n0: 2000 0x6: main (main.cpp:1)",
                                     "  n0: 2000 0x6: wmnsim::store(wmnsim::Results&) (run_scenario.cpp:1)"))
    assert load().main([str(path), "--nodes", "10", "--groups"]) == 0
    assert "250.0" in capsys.readouterr().out
