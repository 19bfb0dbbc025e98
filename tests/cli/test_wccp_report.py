"""scripts/wccp_report.py's own statistics on small hand-made tables (the pipeline itself,
stored runs -> doc, is the ctest reproduce_docs / reproduce_quick): Eq. 13's shuffling band,
the share of intervals in it, WCCP's per-node interval statistics, 003's knee criterion,
and the per-run metrics (drops per second, packet-weighted delay, RTT from the series)."""
import json
import math
import pathlib
import sys

import pandas as pd
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import wccp_report as wr  # noqa: E402


def test_shuffle_band_is_eq13_with_eq5():
    lo, hi = wr.shuffle_band(0.92, 0.1)
    assert lo == pytest.approx(0.828) and hi == pytest.approx(1.012)
    # Eq. 13's two cases (0 < Delta S < alpha (S + Delta S), 0 > Delta S > -alpha (S + Delta S)) with
    # Eq. 5's Delta S decide the same, for every r_b (Delta S = 0 at r_b = th_b: neither case).
    s = 1000.0
    for k in range(1, 1000):
        rb = k / 1000
        ds = (0.92 - rb) / rb * s
        shuffles = 0 < ds < 0.1 * (s + ds) or 0 > ds > -0.1 * (s + ds)
        assert shuffles == (lo < rb < hi and rb != 0.92), rb


def test_share_in_band():
    lo, hi = wr.shuffle_band()
    values = [0.5, 0.80, 0.83, 0.85, 0.92, 0.95, 1.0, float("nan")]
    # 0.83, 0.85, 0.95 and 1.0 are in the band; 0.92 gives Delta S = 0; NaN is no sample.
    assert wr.share_in_band(values, lo, hi) == pytest.approx(4 / 7)
    assert math.isnan(wr.share_in_band([], lo, hi))


def test_controller_statistics_pooled_over_runs():
    nodes1 = [{"node": "4", "intervals": 100, "busy_ratio_mean": 0.8, "intervals_at_threshold": 10},
              {"node": "5", "intervals": 100, "busy_ratio_mean": 0.9, "intervals_at_threshold": 40}]
    nodes2 = [{"node": "4", "intervals": 300, "busy_ratio_mean": 0.9, "intervals_at_threshold": 90},
              {"node": "5", "intervals": 100, "busy_ratio_mean": 0.7, "intervals_at_threshold": 0}]
    controllers = pd.DataFrame([
        {"scenario": "chain9", "seed": 1, "controller_type": "wccp", "nodes": json.dumps(nodes1)},
        {"scenario": "chain9", "seed": 2, "controller_type": "wccp", "nodes": json.dumps(nodes2)},
        {"scenario": "chain9", "seed": 1, "controller_type": "other", "nodes": "[]"},
    ])
    cn = wr.controller_nodes(controllers)
    assert len(cn) == 4 and set(cn["seed"]) == {1, 2}
    share = wr.at_threshold_share(cn)
    assert share["4"] == pytest.approx(100 / 400) and share["5"] == pytest.approx(40 / 200)
    m = wr.interval_mean(cn)
    assert m["4"] == pytest.approx((0.8 * 100 + 0.9 * 300) / 400)
    assert m["5"] == pytest.approx(0.8)


def test_knee_is_the_last_rate_before_drops_exceed_criterion():
    rows = [{"rate": r, "coll": c} for r, c in ((20, 0.0), (24, 0.05), (25, 0.1), (26, 0.31), (27, 0.05))]
    last, past = wr.knee(rows)
    assert last["rate"] == 25 and past["rate"] == 26  # 0.1 itself does not exceed; 27 comes after
    assert wr.knee(rows[:3]) == (rows[2], None)
    assert wr.knee([{"rate": 1, "coll": 0.5}]) == (None, {"rate": 1, "coll": 0.5})


class _Data:
    def __init__(self, runs, flows, nodes, series):
        self.runs, self.flows, self.nodes, self._series = runs, flows, nodes, series

    def table(self, name):
        return self._series[name]


def test_run_metrics():
    runs = pd.DataFrame([
        {"scenario": "s", "seed": 2, "simulated_time_s": 100.0, "total_goodput_bps": 2e5, "jain_fairness_index": 1.0,
         "drops.retry_limit": 30, "drops.queue_overflow": 20},
        {"scenario": "s", "seed": 1, "simulated_time_s": 100.0, "total_goodput_bps": 1e5, "jain_fairness_index": 0.5,
         "drops.retry_limit": 10, "drops.queue_overflow": 0},
        {"scenario": "other", "seed": 1, "simulated_time_s": 100.0, "total_goodput_bps": 9e9,
         "jain_fairness_index": 0.1, "drops.retry_limit": 999, "drops.queue_overflow": 999},
    ])
    flows = pd.DataFrame([
        {"scenario": "s", "seed": 1, "flow_id": "a", "delivered_packets": 100, "delay_mean_s": 0.1, "timeouts": 1,
         "goodput_bps": 6e4, "hops": 2},
        {"scenario": "s", "seed": 1, "flow_id": "b", "delivered_packets": 300, "delay_mean_s": 0.5, "timeouts": None,
         "goodput_bps": 4e4, "hops": 1},
        {"scenario": "s", "seed": 2, "flow_id": "a", "delivered_packets": 0, "delay_mean_s": None, "timeouts": 0,
         "goodput_bps": 0.0, "hops": 2},
        {"scenario": "s", "seed": 2, "flow_id": "b", "delivered_packets": 10, "delay_mean_s": 0.2, "timeouts": 2,
         "goodput_bps": 2e5, "hops": 1},
    ])
    rtt = pd.DataFrame([
        {"scenario": "s", "seed": 1, "time_s": 1.0, "id": "a", "value": 0.2},
        {"scenario": "s", "seed": 1, "time_s": 2.0, "id": "a", "value": 0.4},
        {"scenario": "s", "seed": 1, "time_s": 1.0, "id": "b", "value": 1.0},
        {"scenario": "s", "seed": 2, "time_s": 1.0, "id": "a", "value": float("nan")},
        {"scenario": "s", "seed": 2, "time_s": 2.0, "id": "b", "value": 0.5},
    ])
    r = wr.Runs(_Data(runs, flows, pd.DataFrame({"scenario": [], "seed": []}), {"timeseries_flow_rtt": rtt}), "s")
    assert r.seeds == [1, 2]
    assert r.goodput() == [100.0, 200.0]
    assert r.drops() == [pytest.approx(0.1), pytest.approx(0.5)]
    assert r.drops("queue_overflow") == [0.0, pytest.approx(0.2)]
    assert r.delay() == [pytest.approx((100 * 0.1 + 300 * 0.5) / 400), pytest.approx(0.2)]
    assert r.timeouts() == [1.0, 2.0]
    assert r.per_flow("a") == [60.0, 0.0]
    # The flows' mean RTTs (a: 0.3, b: 1.0), averaged over the flows; a flow without samples does not count.
    assert r.rtt() == [pytest.approx(0.65), pytest.approx(0.5)]


def _runs_and_flows(runs, flows):
    import types
    return types.SimpleNamespace(runs=pd.DataFrame(runs), flows=pd.DataFrame(flows))


def _random_fast_restart_inputs():
    """Topology 02, three flows, seed 1 in `random`, seed 2 in `random_seeds`, both in
    `random_fast_restart`; goodput in bit/s."""
    def flows(scenario, seed, goodput, timeouts):
        return [{"scenario": scenario, "seed": seed, "flow_id": f"f{i + 1}", "goodput_bps": g, "timeouts": t}
                for i, (g, t) in enumerate(zip(goodput, timeouts))]

    def run(scenario, seed, jfi):
        return {"scenario": scenario, "seed": seed, "jain_fairness_index": jfi, "simulated_time_s": 300.0}
    seed1 = _runs_and_flows(
        [run("snapshot_02_tcp", 1, 0.5), run("snapshot_02_wccp", 1, 0.4)],
        flows("snapshot_02_tcp", 1, [100, 700, 200], [0, 0, 0]) +
        flows("snapshot_02_wccp", 1, [600, 200, 200], [1, 10, 0]))
    more = _runs_and_flows(
        [run("snapshot_02_tcp", 2, 0.6), run("snapshot_02_wccp", 2, 0.5)],
        flows("snapshot_02_tcp", 2, [100, 500, 400], [0, 0, 0]) +
        flows("snapshot_02_wccp", 2, [400, 300, 300], [3, 20, 2]))
    fast = _runs_and_flows(
        [run("snapshot_02_wccp", 1, 0.7), run("snapshot_02_wccp", 2, 0.8)],
        flows("snapshot_02_wccp", 1, [300, 300, 400], [0, 0, 0]) +
        flows("snapshot_02_wccp", 2, [300, 350, 350], [0, 0, 0]))
    return seed1, more, fast


def test_top_flows_is_wccps_top_flow_with_the_others_timeouts():
    seed1, more, _ = _random_fast_restart_inputs()
    top = wr.top_flows(seed1, more).loc["02"]
    # WCCP means: f1 500 bit/s (2 timeouts a run), f2 250 (15), f3 250 (1); TCP's top: f2, 600 of 1000.
    assert top["flow"] == "f1"
    assert top["share_wccp"] == pytest.approx(0.5)
    assert top["share_tcp_top"] == pytest.approx(0.6)
    assert top["timeouts_top"] == pytest.approx(2.0)
    assert top["timeouts_others"] == pytest.approx(8.0)
    assert top["timeouts_other_flow_min"] == pytest.approx(1.0)


def test_random_fast_restart_table_and_its_caption_from_the_data():
    seed1, more, fast = _random_fast_restart_inputs()
    text, facts = wr.random_fast_restart_table(seed1, more, fast, wr.top_flows(seed1, more))
    lines = text.splitlines()
    # "srtt"'s runs (0.7, 0.8) all above 003-restart's (0.4, 0.5): a change beyond the seeds' spread (*).
    assert lines[2] == ("| 02 | 0.550 | 0.450 (0.400-0.500) | 0.750 (0.700-0.800) | +0.300 * | f1 | 0.60 | 0.50 | "
                        "0.30 | 2.0 | 8.0 | 1 | 1 |")
    assert "2 runs of each topology per column (seeds 1-2:" in text and "), 300 s;" in text
    (x,) = facts["topologies"]
    assert (x["tcp"], x["wccp"], x["fast"]) == (pytest.approx(0.55), pytest.approx(0.45), pytest.approx(0.75))
    assert x["share_fast"] == pytest.approx(0.3)
    assert x["beyond"]


def test_random_fast_restart_within_the_seeds_spread_is_not_starred():
    seed1, more, fast = _random_fast_restart_inputs()
    # "srtt" runs 0.45 and 0.7 overlap 003-restart's 0.4-0.5: the mean rises, but not beyond the spread.
    fast.runs.loc[fast.runs["seed"] == 1, "jain_fairness_index"] = 0.45
    text, facts = wr.random_fast_restart_table(seed1, more, fast, wr.top_flows(seed1, more))
    assert "| 0.625 (0.450-0.800) | +0.175 | f1 |" in text.splitlines()[2]
    assert not facts["topologies"][0]["beyond"]
