"""The non-trivial computations of scripts/mesh_congestion_report.py (docs/reproductions/mesh-congestion.md):
which stations block each other (004 Fig. 2's collision, persisting), how a /controllers value is named, and
how snapshots are counted as raised, lowered or unchanged."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import mesh_congestion_report as report  # noqa: E402


def radio(index, node, blocked_by):
    return {"radio": index, "node": node, "blocked_by_radio_s": {str(k): v for k, v in blocked_by.items()}}


def test_mutual_pairs_need_both_directions_over_half_the_run():
    radios = [radio(0, "a", {1: 120.0}), radio(1, "b", {0: 95.0, 2: 170.0}), radio(2, "c", {1: 80.0}),
              radio(3, "d", {})]
    # a and b block each other for more than 90 s each; b is blocked by c for long, but c by b only 80 s.
    assert report.mutual_pairs(radios, 90.0) == [("a", "b", 120.0, 95.0)]
    assert report.mutual_pairs(radios, 100.0) == []
    assert report.mutual_pairs(radios, 70.0) == [("a", "b", 120.0, 95.0), ("b", "c", 170.0, 80.0)]


def test_scheme_names():
    assert report.scheme_of("[]") == "none"
    assert report.scheme_of('[{"type":"tcc"}]') == "tcc"
    assert report.scheme_of('[{"exclude_blocked_packets":true,"type":"lscc"}]') == "lscc_exclude"
    assert report.scheme_of('[{"notification_delivery":"group","type":"tcc"}]') == "tcc_group"
    assert report.scheme_of('[{"too_short_threshold":0.5,"type":"lscc"}]') == "lscc_renew50"


def test_changes_count_only_beyond_one_percent_of_the_offered_load():
    thr = {"none": {1: 10e6, 2: 10e6, 3: 10e6, 4: 10e6}, "lscc": {1: 10.2e6, 2: 9.9e6, 3: 9.7e6, 4: 10.15e6}}
    c = report.changes(thr, "lscc", 16e6)  # band 0.16 Mbit/s
    assert c["up"] == [1] and c["down"] == [3] and c["within"] == 2
    assert abs(c["mean"] - (-0.0125e6)) < 1e-3


def test_renewal_readings_are_named_apart_and_the_default_is_plain_lscc():
    assert report.scheme_of('[{"renewal_check_at":"after_expiry","renewal_checks":"last_used","type":"lscc"}]') \
        == "lscc_after_lastused"
    assert report.reading_scheme("before_expiry", "per_neighbour") == "lscc"
    assert report.reading_scheme("at_expiry", "per_neighbour") == "lscc_at_perneighbour"
    names = [report.reading_scheme(*r) for r in report.READINGS]
    assert len(set(names)) == 6


def test_d_at_reads_the_history_as_a_step_function():
    series = [[0.0, 0.1], [2.0, 0.12], [5.0, 0.144]]
    assert report.d_at(series, 1.0) == 0.1
    assert report.d_at(series, 2.0) == 0.12
    assert report.d_at(series, 180.0) == 0.144


def test_classify_accounts_for_the_spread_of_the_seeds():
    band = 0.16e6
    # tight seeds, a clear gain beyond the band: raised; the same mean gain with wide seeds: undetermined
    assert report.classify([10.5e6, 10.52e6, 10.48e6], [10.0e6, 10.01e6, 9.99e6], band)[0] == "raised"
    assert report.classify([8.5e6, 10.5e6, 12.5e6], [10.0e6, 10.01e6, 9.99e6], band)[0] == "undetermined"
    # a clear loss: lowered; a difference whose interval lies inside the band: unchanged
    assert report.classify([9.0e6, 9.02e6, 8.98e6], [10.0e6, 10.01e6, 9.99e6], band)[0] == "lowered"
    assert report.classify([10.02e6, 10.03e6, 10.01e6], [10.0e6, 10.01e6, 9.99e6], band)[0] == "unchanged"
    # identical seeds: no spread, the band alone decides
    assert report.classify([10.3e6] * 3, [10.0e6] * 3, band)[0] == "raised"
    assert report.classify([10.1e6] * 3, [10.0e6] * 3, band)[0] == "unchanged"
    # one run a side: no spread to measure, nothing determined
    assert report.classify([12.0e6], [10.0e6, 10.01e6], band)[0] == "undetermined"


def test_paired_interval_is_the_t_interval_of_the_mean_difference():
    a = {1: 10.0, 2: 12.0, 3: 11.0, 4: 13.0}
    b = {1: 9.0, 2: 11.5, 3: 10.0, 4: 12.5, 5: 99.0}  # snapshot 5 only in b: left out
    lo, hi = report.paired_interval(a, b)
    # differences 1, 0.5, 1, 0.5: mean 0.75, sd 0.2887, t(0.975, 3) = 3.182
    assert abs((lo + hi) / 2 - 0.75) < 1e-12
    assert abs((hi - lo) / 2 - 3.182446 * 0.288675 / 2) < 1e-4
    assert lo > 0


def test_derived_inputs_are_current():
    """more_seeds.json's snapshots and the generated scenarios are what scripts/mesh_congestion_inputs.py derives
    from the stored runs and base scenarios (it fails, naming them, when they are stale)."""
    import subprocess

    script = Path(__file__).resolve().parents[2] / "scripts" / "mesh_congestion_inputs.py"
    done = subprocess.run([sys.executable, str(script), "--check"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_tcp_split_sums_each_runs_tcp_flows_and_leaves_the_rest_to_udp():
    import pandas as pd

    runs = pd.DataFrame({"scheme": ["none", "lscc"], "seed": [1, 1], "topology_seed": [3, 3], "thr": [10e6, 9e6]})
    flows = pd.DataFrame({"scheme": ["none"] * 3 + ["lscc"] * 3, "seed": [1] * 6, "topology_seed": [3] * 6,
                          "flow_id": ["s1_tcp_down", "s1_tcp_up", "s1_udp_down"] * 2,
                          "goodput_bps": [2e6, 1e6, 7e6, 3e6, 0.5e6, 5.5e6]})
    r = report.tcp_split(runs, flows)
    assert r["tcp"].tolist() == [3e6, 3.5e6]
    assert r["udp"].tolist() == [7e6, 5.5e6]


def test_fig9_verdicts_read_004s_words_against_the_classes():
    def classes(raised, lowered, unchanged=0, undetermined=0):
        return {"raised": raised, "lowered": lowered, "unchanged": unchanged, "undetermined": undetermined}
    # TCC raises "only in one of the considered scenarios": up to a tenth of the snapshots raised
    assert report.fig9_verdict("tcc", classes(5, 30, 15)) == "reproduced"
    assert report.fig9_verdict("tcc", classes(6, 30, 14)) == "not reproduced"
    # LSCC "always" raises: not when more than a tenth are lowered; confirmed only with nine tenths raised
    assert report.fig9_verdict("lscc", classes(45, 0, 5)) == "reproduced"
    assert report.fig9_verdict("lscc", classes(30, 6, 14)) == "not reproduced"
    assert report.fig9_verdict("lscc", classes(40, 5, 0, 5)) == "not confirmed"
