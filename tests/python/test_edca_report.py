"""scripts/edca_report.py: the statistics it computes from stored tables (paper 002).

The pipeline (stored runs -> doc) is covered by the ctest entries reproduce_docs and
reproduce_quick; these check the report's own arithmetic on small hand-made tables,
where a slip would change a number of the doc without any run changing.
"""
import json
import math
import sys
from pathlib import Path

import pandas as pd
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import edca_report as E  # noqa: E402


class Data:
    """Stands for wmnsim.reproduce.ExperimentData: tables by attribute or table()."""

    def __init__(self, **tables):
        self.tables = tables

    def table(self, name):
        return self.tables.get(name, pd.DataFrame())

    def __getattr__(self, name):
        if name == "tables":
            raise AttributeError(name)
        return self.table(name)


def test_select_matches_a_point_and_requires_absent_parameters_absent():
    q = E.QUEUE
    d = pd.DataFrame({"scenario": ["a", "a", "a", "b"], q: [None, 200.0, None, None],
                      "/flows/0/tcp/delayed_ack": [False, False, None, False], "x": [1, 2, 3, 4]})
    # the point "delayed ACKs off, no queue given" is the first row only
    rows = E.select(d, "a", {"/flows/0/tcp/delayed_ack": False, q: None})
    assert list(rows["x"]) == [1]
    assert list(E.select(d, "a", {q: 200})["x"]) == [2]
    # a parameter the table lacks is not a condition
    assert list(E.select(d, "b", {"/nowhere": 1})["x"]) == [4]


def test_frames_ratio_is_per_seed_then_averaged():
    rows = []
    for seed, r9, ones in ((1, 900, (100, 100, 100)), (2, 300, (100, 200, 300))):
        rows.append({"scenario": "s", "seed": seed, "radio_id": "R9:1", "tx_success": r9})
        for radio, n in zip(E.ONE_HOP_RADIOS, ones):
            rows.append({"scenario": "s", "seed": seed, "radio_id": radio, "tx_success": n})
    data = Data(radios=pd.DataFrame(rows))
    # seed 1: 900 / 100 = 9; seed 2: 300 / 200 = 1.5
    assert E.frames_ratio(data, "s") == pytest.approx((9 + 1.5) / 2)


def test_interval_jain_index_and_steadiness():
    s = {"flow0": [(5.0, 1.0), (10.0, 2.0)], "flow1": [(5.0, 1.0), (10.0, 0.0)]}
    out = E.interval_jfi(s)
    assert out[0] == (5.0, pytest.approx(1.0))
    assert out[1] == (10.0, pytest.approx(0.5))  # one of two flows has everything
    ts = pd.DataFrame([{"scenario": "p", "seed": 1, "time_s": t, "id": f, "value": v}
                       for f, pts in {"flow0": [(20.0, 9e5), (25.0, 100e3), (30.0, 300e3)],
                                      "flow1": [(25.0, 0.0), (30.0, 200e3)]}.items() for t, v in pts])
    data = Data(timeseries_flow_goodput=ts, runs=pd.DataFrame({"scenario": ["p"], "seed": [1]}))
    st = E.steadiness(data, "p")
    # the interval ending at 20 s is warm-up; after it: 100k, 300k, 0, 200k
    assert (st["cells"], st["low"], st["zero"], st["zero_runs"], st["min"]) == (4, 1, 1, 1, 0.0)
    cv0 = math.sqrt(((100e3 - 200e3) ** 2 + (300e3 - 200e3) ** 2) / 2) / 200e3
    cv1 = math.sqrt(((0 - 100e3) ** 2 + (200e3 - 100e3) ** 2) / 2) / 100e3
    assert st["cv"] == pytest.approx((cv0 + cv1) / 2)


def test_txop_table_reads_when_each_relay_reached_its_final_txop():
    changes = {1: [{"t_s": 200.01, "node": "R9", "radio": 1, "flows": 2.0, "txop_limit_frames": 2},
                   {"t_s": 200.30, "node": "R9", "radio": 1, "flows": 9.0, "txop_limit_frames": 9},
                   {"t_s": 250.00, "node": "R9", "radio": 1, "flows": 8.0, "txop_limit_frames": 8},
                   {"t_s": 251.00, "node": "R9", "radio": 1, "flows": 9.0, "txop_limit_frames": 9}],
               2: [{"t_s": 200.10, "node": "R9", "radio": 1, "flows": 9.0, "txop_limit_frames": 9}]}
    controllers = pd.DataFrame([{"scenario": "parking_lot_dynamic", "seed": seed, "controller_type": "edca_txop",
                                 "changes": json.dumps(c)} for seed, c in changes.items()])
    radios = pd.DataFrame([{"scenario": "parking_lot_dynamic", "seed": seed, "radio_id": r, "txop_limit_frames": n}
                           for seed in (1, 2) for r, n in (("R9:1", 9), ("R6:1", 1), ("R3:1", 1))])
    runs = pd.DataFrame({"scenario": ["parking_lot_dynamic"] * 2, "seed": [1, 2]})
    data = Data(controllers=controllers, radios=radios, runs=runs)
    found = E.txop_changes(data)
    assert len(found) == 5 and {c["seed"] for c in found} == {1, 2}
    _, info = E.txop_table(data, found)
    assert info["R9"]["reached"] == pytest.approx([0.30, 0.10])  # the first time at the final TXOP
    assert info["R9"]["late"] == 2 and info["late_runs"] == 1
