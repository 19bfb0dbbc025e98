"""wmnsim.sweep: sweeps on Dask store exactly what direct runs give, resume, survive a
killed worker, aggregate like a hand computation, and refuse bad specs up front."""
import json
import math
import os
import pathlib
import shutil
import signal
import subprocess
import threading
import time

import distributed
import numpy as np
import pandas as pd
import pytest
from scipy import stats

import wmnsim
import wmnsim.plot
import wmnsim.trace
from conftest import FLAGSHIP, ROOT, WMNSIM_BIN

# Debian's tornado 6.2 under distributed 2022.12: a deprecation notice, nothing wrong.
pytestmark = pytest.mark.filterwarnings("ignore:make_current is deprecated:DeprecationWarning")

MESH = ROOT / "scenarios" / "fu2009" / "mesh40_4gw.json"


def _same(a, b):
    """Equal lists, a missing value (NaN: a delay percentile of a flow that delivered
    nothing) equal to a missing value."""
    def missing(x):
        return x is None or (isinstance(x, float) and math.isnan(x))
    return len(a) == len(b) and all(x == y or (missing(x) and missing(y)) for x, y in zip(a, b))
SMALL_GRID = {"/mac/cw_min": [16, 64], "/simulation/duration_s": [3]}


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    """2 values x 2 seeds of the flagship, 3 s, on the embedded cluster (2 workers)."""
    out = tmp_path_factory.mktemp("sweep") / "small"
    data = wmnsim.sweep(FLAGSHIP, SMALL_GRID, seeds=[1, 2], out_dir=out, workers=2, progress=False)
    return out, data


def direct(scenario, overrides, seed):
    return wmnsim.run(scenario, seed=seed, overrides=overrides)


def check_equal_to_direct(data, scenario, extra_overrides=None):
    """Every stored run equals wmnsim.run with the same overrides and seed."""
    assert data.runs["run_key"].is_unique
    for _, row in data.runs.iterrows():
        overrides = {p: row[p] for p in data.parameters}
        if extra_overrides:
            overrides.update(extra_overrides(row))
        r = direct(scenario, overrides, int(row["seed"]))
        for key, value in r.summary.items():
            if isinstance(value, dict):
                for k, v in value.items():
                    assert row[f"{key}.{k}"] == v, (key, k)
            else:
                assert row[key] == value, key
        assert row["simulated_time_s"] == r.simulated_time_s
        assert row["events_executed"] == r.run_info["events_executed"]
        flows = data.flows[data.flows["run_key"] == row["run_key"]].reset_index(drop=True)
        expected = r.flows
        assert list(flows["flow_id"]) == list(expected["id"])
        for column in expected.columns.drop(["id", "route"]):
            assert _same(flows[column].tolist(), expected[column].tolist()), column
        assert [list(x) for x in flows["route"]] == expected["route"].tolist()
        nodes = data.nodes[data.nodes["run_key"] == row["run_key"]].reset_index(drop=True)
        assert list(nodes["node_id"]) == list(r.nodes["id"])
        for column in r.nodes.columns.drop("id"):
            assert nodes[column].tolist() == r.nodes[column].tolist(), column
        radios = data.radios[data.radios["run_key"] == row["run_key"]].reset_index(drop=True)
        assert list(radios["radio_id"]) == list(r.radios["id"])
        for column in r.radios.columns.drop("id"):
            assert _same(radios[column].tolist(), r.radios[column].tolist()), column


def test_small_sweep_matches_direct_runs(small):
    out, data = small
    assert (data.ran, data.skipped, data.duplicates) == (4, 0, 0)
    assert data.parameters == ["/mac/cw_min", "/simulation/duration_s"]
    assert sorted(os.listdir(out / "runs")) == sorted(data.runs["run_key"])
    assert os.listdir(out / ".tmp") == []  # nothing left half-written
    # The flagship records time series (outputs.timeseries): stored beside the tables.
    assert set(os.listdir(out / "runs" / data.runs["run_key"][0])) == {"run.parquet", "flows.parquet", "nodes.parquet",
                                                                      "radios.parquet", "timeseries.parquet"}
    # Rows in sweep order: points (the grid's product), then seeds.
    assert data.runs[["/mac/cw_min", "seed"]].values.tolist() == [[16, 1], [16, 2], [64, 1], [64, 2]]
    assert data.runs["topology_seed"].isna().all()
    assert data.runs.groupby("/mac/cw_min")["point_key"].nunique().tolist() == [1, 1]
    check_equal_to_direct(data, FLAGSHIP)
    # flows and nodes carry the run's parameters and seeds.
    assert data.flows[["/mac/cw_min", "seed"]].values.tolist()[:2] == [[16, 1], [16, 1]]
    meta = json.loads((out / "sweep.json").read_text())
    assert meta["format"] == "wmnsim-sweep" and len(meta["sweeps"]) == 1
    entry = meta["sweeps"][0]
    assert entry["wmnsim_version"] == wmnsim.__version__
    assert entry["spec"]["grid"] == SMALL_GRID and entry["spec"]["seeds"] == [1, 2]
    assert entry["scenario"] == wmnsim.Scenario(FLAGSHIP).to_dict()
    assert [r["key"] for r in entry["runs"]] == list(data.runs["run_key"])
    # load() reads back the same tables.
    again = wmnsim.sweep.load(out)
    pd.testing.assert_frame_equal(again.runs, data.runs)
    pd.testing.assert_frame_equal(again.flows, data.flows)


def test_resume_skips_finished_runs_and_adds_only_new_ones(small, cluster, tmp_path):
    out, data = small
    copy = tmp_path / "copy"
    shutil.copytree(out, copy)
    before = {k: os.stat(copy / "runs" / k).st_mtime_ns for k in os.listdir(copy / "runs")}
    again = wmnsim.sweep(FLAGSHIP, SMALL_GRID, seeds=[1, 2], out_dir=copy, scheduler=cluster.scheduler_address)
    assert (again.ran, again.skipped, again.duplicates) == (0, 4, 0)
    assert {k: os.stat(copy / "runs" / k).st_mtime_ns for k in os.listdir(copy / "runs")} == before
    pd.testing.assert_frame_equal(again.runs, data.runs)
    assert len(json.loads((copy / "sweep.json").read_text())["sweeps"]) == 1  # same sweep: same entry
    # A third seed runs only the two new runs.
    more = wmnsim.sweep(FLAGSHIP, SMALL_GRID, seeds=3, out_dir=copy, scheduler=cluster.scheduler_address)
    assert (more.ran, more.skipped) == (2, 4)
    assert len(os.listdir(copy / "runs")) == 6
    assert more.runs[["/mac/cw_min", "seed"]].values.tolist() == [[16, 1], [16, 2], [16, 3], [64, 1], [64, 2], [64, 3]]
    assert len(json.loads((copy / "sweep.json").read_text())["sweeps"]) == 2


def test_a_run_reached_by_other_parameters_has_each_sweeps_own_values(small, cluster, tmp_path):
    """A second sweep reaching stored scenarios by other parameters (a default set
    explicitly) skips them and shows its own parameters, not the first sweep's."""
    out, data = small
    copy = tmp_path / "copy"
    shutil.copytree(out, copy)
    other = wmnsim.sweep(FLAGSHIP, points=[{"/mac/cw_min": 64, "/mac/cw_max": 1024, "/simulation/duration_s": 3}],
                         seeds=[1, 2], out_dir=copy, scheduler=cluster.scheduler_address)
    assert (other.ran, other.skipped) == (0, 2)
    first = data.runs[data.runs["/mac/cw_min"] == 64]
    assert other.runs["run_key"].tolist() == first["run_key"].tolist()  # the same runs
    assert other.parameters == ["/mac/cw_min", "/mac/cw_max", "/simulation/duration_s"]
    assert other.runs["/mac/cw_max"].tolist() == [1024, 1024]
    assert other.runs["point_key"].nunique() == 1 and other.runs["point_key"].iloc[0] != first["point_key"].iloc[0]
    assert other.flows["/mac/cw_max"].eq(1024).all()
    assert other.runs["total_goodput_bps"].tolist() == first["total_goodput_bps"].tolist()
    # load(): one row per (sweep's point, run), each with its sweep's values.
    both = wmnsim.sweep.load(copy)
    assert len(both.runs) == 6 and both.runs["run_key"].nunique() == 4
    assert both.parameters == ["/mac/cw_min", "/simulation/duration_s", "/mac/cw_max"]
    assert both.runs["/mac/cw_max"].isna().tolist() == [True] * 4 + [False] * 2
    # The first sweep, run again, still reads its own values.
    again = wmnsim.sweep(FLAGSHIP, SMALL_GRID, seeds=[1, 2], out_dir=copy, scheduler=cluster.scheduler_address)
    pd.testing.assert_frame_equal(again.runs, data.runs)


def test_stale_tmp_entries_are_removed_fresh_ones_kept(tmp_path):
    from wmnsim.sweep import STALE_TMP_S, _remove_stale_tmp

    tmp = tmp_path / ".tmp"
    (tmp / "old.1").mkdir(parents=True)
    (tmp / "old.1" / "run.parquet").write_bytes(b"x")
    (tmp / "live.2").mkdir()
    (tmp / "live.2" / "run.parquet").write_bytes(b"x")
    (tmp / "touched.3").mkdir()
    (tmp / "touched.3" / "run.parquet").write_bytes(b"x")
    long_ago = time.time() - STALE_TMP_S - 60
    for path in (tmp / "old.1" / "run.parquet", tmp / "old.1", tmp / "touched.3"):
        os.utime(path, (long_ago, long_ago))
    _remove_stale_tmp(str(tmp_path))
    assert sorted(os.listdir(tmp)) == ["live.2", "touched.3"]  # touched.3: a file in it is recent


def test_killed_worker_loses_and_duplicates_nothing(cluster, tmp_path):
    out = tmp_path / "killed"
    grid = {"/mac/cw_min": [16, 32, 64], "/simulation/duration_s": [200]}  # about a second of wall time each
    killed = {}

    def executing(dask_worker):
        return [str(ts.key) for ts in dask_worker.state.executing]

    def killer():
        """Once a run is stored, SIGKILL a worker while it executes a run."""
        with distributed.Client(cluster) as client:
            pids = client.run(os.getpid)
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                if (out / "runs").is_dir() and os.listdir(out / "runs"):
                    busy = {w: keys for w, keys in client.run(executing).items() if keys}
                    if busy:
                        worker, keys = next(iter(busy.items()))
                        os.kill(pids[worker], signal.SIGKILL)
                        killed["tasks"] = keys
                        return
                time.sleep(0.02)

    thread = threading.Thread(target=killer)
    thread.start()
    data = wmnsim.sweep(FLAGSHIP, grid, seeds=[1, 2], out_dir=out, scheduler=cluster.scheduler_address)
    thread.join()
    assert killed.get("tasks"), "no worker was killed while it executed a run"
    assert all(k.startswith("wmnsim-run-") for k in killed["tasks"])
    assert len(data.runs) == 6 and data.ran + data.duplicates == 6
    assert sorted(os.listdir(out / "runs")) == sorted(data.runs["run_key"])
    check_equal_to_direct(data, FLAGSHIP)


def test_spec_command_with_topology_seeds(cluster, tmp_path, capsys):
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps({
        "scenario": os.path.relpath(MESH, tmp_path),
        "points": [{"/simulation/duration_s": 0.3, "/simulation/warmup_s": 0}],
        "seeds": [5], "topology_seeds": [2, 3]}))
    out = tmp_path / "topo"
    code = wmnsim.sweep.run_spec_command(spec, out, scheduler=cluster.scheduler_address)
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert "goodput Mbit/s" in captured.out and "2 run now, 0 skipped" in captured.out
    data = wmnsim.sweep.load(out)
    assert data.runs["topology_seed"].tolist() == [2, 3] and data.runs["seed"].tolist() == [5, 5]
    assert data.runs["point_key"].nunique() == 1
    check_equal_to_direct(data, MESH, lambda row: {"/node_groups/0/seed": int(row["topology_seed"])})
    # The snapshots differ: another placement, other radio links.
    assert data.runs["events_executed"].nunique() == 2
    assert wmnsim.sweep.run_spec_command(spec, out) == 0  # resumed: no cluster needed
    assert "0 run now, 2 skipped" in capsys.readouterr().out


def spec_errors(tmp_path, capsys, spec, scenario=FLAGSHIP):
    """The command's exit code and stderr for a bad spec; sweep() raises the same text."""
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(dict({"scenario": os.path.relpath(scenario, tmp_path)}, **spec)))
    out = tmp_path / "out"
    assert wmnsim.sweep.run_spec_command(path, out) == 2
    assert not out.exists()  # bad input runs nothing, writes nothing
    err = capsys.readouterr().err.strip()
    with pytest.raises(wmnsim.ScenarioError) as e:
        wmnsim.sweep(**wmnsim.sweep.load_spec(path), out_dir=out, _spec_source=str(path))
    assert str(e.value) == err
    return err.splitlines()


def test_spec_validation_errors_name_their_json_path(tmp_path, capsys):
    s = str(tmp_path / "spec.json")
    assert spec_errors(tmp_path, capsys, {"grid": {"/mac/cw_min": 32}, "seeds": 2}) == [
        f"{s}: /grid/~1mac~1cw_min: must be a non-empty list"]
    lines = spec_errors(tmp_path, capsys, {"grid": {"/mac/cw_min": [16, 3, 16]}, "seeds": [1, -4], "grdi": 1})
    assert lines == [f'{s}: /grdi: unknown key (did you mean "grid"?); a spec has scenario, grid, points, seeds, '
                     "topology_seeds, max_runs, timeseries"]
    lines = spec_errors(tmp_path, capsys, {"grid": {"/mac/cw_min": [16, 3, 16]}, "seeds": [1, -4]})
    assert lines == [f"{s}: /grid/~1mac~1cw_min/2: 16 is listed twice (also at /grid/~1mac~1cw_min/0)",
                     f"{s}: /seeds/1: must be an integer 0..18446744073709551615, got -4"]
    lines = spec_errors(tmp_path, capsys, {"grid": {"/mac/cw_min": [16, 3], "/simulation/duration_s": [1, -1]},
                                           "seeds": 1})
    assert lines == [  # each problem once, at the value that causes it, in the grid's order
        f"{s}: /grid/~1simulation~1duration_s/1: gives an invalid scenario: /simulation/duration_s: expected a "
        "number of seconds > 0, got -1",
        f"{s}: /grid/~1mac~1cw_min/1: gives an invalid scenario: /mac/cw_min: expected a window size in slots, "
        "a power of two 1..32768 (e.g. 32), got 3; 3 looks like the standard's CW value, write the window size 4"]
    lines = spec_errors(tmp_path, capsys, {"points": [{"/simulation/seed": 3}, {"mac": 1}], "seeds": 0})
    assert lines == [f'{s}: /points/0/~1simulation~1seed: the simulation seed is swept by "seeds", not by an override',
                     f'{s}: /points/1/mac: a key must be a JSON pointer starting with "/", got \'mac\'',
                     f"{s}: /seeds: a seed count must be at least 1, got 0"]
    lines = spec_errors(tmp_path, capsys, {"points": [{"/mac/cw_min": 16}, {"/mac/cw_min": 16}], "seeds": 1})
    assert lines == [f"{s}: /points/1: gives the same scenario as /points/0"]
    lines = spec_errors(tmp_path, capsys, {"seeds": [1], "topology_seeds": [1, 2]})
    assert lines == [f"{s}: /topology_seeds: the scenario has no node group with a random placement "
                     "(random_uniform, random_grid): nothing to seed"]
    lines = spec_errors(tmp_path, capsys, {"grid": {}})
    assert lines == [f"{s}: /seeds: missing: a list of seeds, or a count N (seeds 1..N)"]
    lines = spec_errors(tmp_path, capsys, {"grid": {}, "seeds": [2], "topology_seeds": [-1]})
    assert lines == [f"{s}: /grid: must be a non-empty object of JSON pointers to lists of values, "
                     'e.g. {"/mac/cw_min": [16, 32, 64]}',
                     f"{s}: /topology_seeds/0: must be an integer 0..9223372036854775807, got -1"]
    # workers= sizes the embedded cluster only: refused before anything is written.
    (tmp_path / "spec.json").write_text(json.dumps({"scenario": os.path.relpath(FLAGSHIP, tmp_path), "seeds": 1}))
    assert wmnsim.sweep.run_spec_command(tmp_path / "spec.json", tmp_path / "out", "tcp://127.0.0.1:1", 2) == 2
    assert "workers= sizes the embedded cluster" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_an_output_that_is_a_file_is_refused_before_anything_runs(tmp_path, capsys):
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps({"scenario": os.path.relpath(FLAGSHIP, tmp_path), "seeds": 1}))
    afile = tmp_path / "afile"
    afile.write_text("kept")
    assert wmnsim.sweep.run_spec_command(spec, afile) == 2
    assert capsys.readouterr().err == f"wmnsim sweep: -o: {afile} is a file, not a folder: a sweep stores its " \
                                      "runs in a folder (created when missing); choose another output path\n"
    assert wmnsim.sweep.run_spec_command(spec, afile / "out") == 2
    assert f"cannot make the sweep folder {afile / 'out'}: {afile} is a file, not a folder" in capsys.readouterr().err
    with pytest.raises(NotADirectoryError, match="is a file, not a folder"):
        wmnsim.sweep(FLAGSHIP, seeds=1, out_dir=afile)
    # The program answers the same (it runs this module).
    r = subprocess.run([WMNSIM_BIN, "sweep", str(spec), "-o", str(afile)], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 2 and f"{afile} is a file, not a folder" in r.stderr and "internal error" not in r.stderr
    assert afile.read_text() == "kept" and sorted(p.name for p in tmp_path.iterdir()) == ["afile", "spec.json"]


def test_a_spec_expanding_past_max_runs_is_refused_before_its_grid_is_built(tmp_path, capsys):
    s = str(tmp_path / "spec.json")
    # 10^8 points and 10^9 seeds in a few hundred bytes: refused at once, by count.
    huge = {"grid": {f"/description/k{i}": list(range(10)) for i in range(8)}, "seeds": 10**9}
    start = time.monotonic()
    lines = spec_errors(tmp_path, capsys, huge)
    assert time.monotonic() - start < 10
    assert lines == [f"{s}: the sweep expands to 1e+17 runs (10 x 10 x 10 x 10 x 10 x 10 x 10 x 10 grid points x "
                     f'1000000000 seeds); at most 100000 (max_runs): set "max_runs" in the spec, or '
                     "sweep(max_runs=...) in Python, to run more, or sweep fewer values"]
    # The cap is the spec's to raise or lower.
    lines = spec_errors(tmp_path, capsys, {"grid": {"/mac/cw_min": [16, 32, 64]}, "seeds": 2, "max_runs": 5})
    assert lines == [f"{s}: the sweep expands to 6 runs (3 points x 2 seeds); at most 5 (max_runs): set "
                     '"max_runs" in the spec, or sweep(max_runs=...) in Python, to run more, or sweep fewer values']
    assert spec_errors(tmp_path, capsys, {"seeds": 2, "max_runs": 0}) == [
        f"{s}: /max_runs: must be a positive integer, got 0"]
    from wmnsim.sweep import _plan  # the module (wmnsim.sweep, the attribute, is its function)

    plan = _plan(FLAGSHIP, {"/mac/cw_min": [16, 32, 64]}, None, 2, None, max_runs=6)
    assert len(plan.runs) == 6


def test_a_spec_that_is_a_folder_is_called_a_sweep_spec(tmp_path, capsys):
    assert wmnsim.sweep.run_spec_command(tmp_path, tmp_path / "out") == 2
    err = capsys.readouterr().err
    assert f'cannot read sweep spec "{tmp_path}": it is a folder' in err and "scenario file" not in err
    assert not (tmp_path / "out").exists()


def test_time_series_are_stored_when_asked_and_load_as_one_long_table(cluster, tmp_path, small):
    out = tmp_path / "series"
    grid = {"/mac/cw_min": [16, 64], "/simulation/duration_s": [3]}
    data = wmnsim.sweep(FLAGSHIP, grid, seeds=[1], out_dir=out, scheduler=cluster.scheduler_address,
                        timeseries=["flow_goodput", "queue_length"])
    series = data.timeseries
    assert list(series.columns) == ["run_key", "/mac/cw_min", "/simulation/duration_s", "seed", "topology_seed",
                                    "kind", "unit", "time_s", "id", "value"]
    assert set(series["kind"]) == {"flow_goodput", "queue_length"}
    assert set(series.loc[series["kind"] == "flow_goodput", "unit"]) == {"bit/s"}
    # Each run's rows are exactly what the same run gives directly.
    for cw in (16, 64):
        direct_run = direct(FLAGSHIP, {"/mac/cw_min": cw, "/simulation/duration_s": 3,
                                       "/outputs/timeseries": ["flow_goodput", "queue_length"]}, 1)
        for kind in ("flow_goodput", "queue_length"):
            want = direct_run.timeseries(kind)
            got = series[(series["/mac/cw_min"] == cw) & (series["kind"] == kind)]
            assert got["time_s"].tolist() == want["time_s"].tolist()
            assert got["id"].tolist() == want["id"].tolist() and got["value"].tolist() == want["value"].tolist()
    # Aggregated per time and id like any table.
    agg = wmnsim.sweep.aggregate(series[series["kind"] == "flow_goodput"], by=["/mac/cw_min", "id", "time_s"],
                                 metrics=["value"])
    assert len(agg) == len(series[series["kind"] == "flow_goodput"])
    # A scenario that records series itself has them stored too (the flagship records
    # its own kinds); a bad kind is refused before anything runs.
    own = json.loads(FLAGSHIP.read_text())["outputs"]["timeseries"]
    assert sorted(set(small[1].timeseries["kind"])) == sorted(own)
    with pytest.raises(wmnsim.ScenarioError, match="/timeseries"):
        wmnsim.sweep(FLAGSHIP, grid, seeds=[1], out_dir=tmp_path / "bad", scheduler=cluster.scheduler_address,
                     timeseries=["flow_goodputt"])
    assert not (tmp_path / "bad").exists()


def test_per_hop_tables_are_stored_when_the_scenario_asks(cluster, tmp_path, small):
    """outputs.hops in a sweep: each run's per-hop rows stored and loaded with the
    run's parameters in front, exactly the rows the same run gives directly; runs
    that did not ask have none (the small sweep)."""
    grid = {"/mac/cw_min": [16, 64], "/simulation/duration_s": [3], "/outputs/hops": [True]}
    data = wmnsim.sweep(FLAGSHIP, grid, seeds=[1], out_dir=tmp_path / "hops", scheduler=cluster.scheduler_address)
    hops = data.hops
    assert list(hops.columns[:8]) == ["run_key", "/mac/cw_min", "/simulation/duration_s", "/outputs/hops", "seed",
                                      "topology_seed", "flow", "direction"]
    for cw in (16, 64):
        want = direct(FLAGSHIP, {"/mac/cw_min": cw, "/simulation/duration_s": 3, "/outputs/hops": True}, 1).hops
        got = hops[hops["/mac/cw_min"] == cw].reset_index(drop=True)
        for column in want.columns:
            assert _same(got[column].tolist(), want[column].tolist()), column
    assert small[1].hops.empty


def test_aggregate_matches_a_hand_computation():
    values = {16: [4.0, 6.0, 11.0, 7.0], 32: [2.5, 3.5], 64: [9.0]}
    df = pd.DataFrame([{"/mac/cw_min": k, "seed": i + 1, "goodput_bps": v, "other": 2 * v}
                       for k, vs in values.items() for i, v in enumerate(vs)])
    for confidence in (0.95, 0.9):
        agg = wmnsim.sweep.aggregate(df, metrics=["goodput_bps"], confidence=confidence)
        assert agg["/mac/cw_min"].tolist() == [16, 32, 64] and set(agg["metric"]) == {"goodput_bps"}
        for _, row in agg.iterrows():
            x = values[row["/mac/cw_min"]]
            n = len(x)
            mean = sum(x) / n
            assert row["count"] == n and row["mean"] == pytest.approx(mean)
            assert (row["min"], row["max"]) == (min(x), max(x))
            assert [row["q25"], row["median"], row["q75"]] == pytest.approx(list(np.percentile(x, [25, 50, 75])))
            if n == 1:
                assert math.isnan(row["std"]) and math.isnan(row["ci_half_width"])
                continue
            std = math.sqrt(sum((v - mean) ** 2 for v in x) / (n - 1))
            half = stats.t.ppf(1 - (1 - confidence) / 2, n - 1) * std / math.sqrt(n)
            assert row["std"] == pytest.approx(std)
            assert row["ci_half_width"] == pytest.approx(half)
            assert (row["ci_low"], row["ci_high"]) == pytest.approx((mean - half, mean + half))
    # The 16 point by hand: mean 7, std sqrt(26/3), t(0.975, 3) = 3.182446...
    row = wmnsim.sweep.aggregate(df, metrics=["goodput_bps"]).iloc[0]
    assert row["ci_half_width"] == pytest.approx(3.182446305 * math.sqrt(26 / 3) / 2)
    # Default metrics: numeric columns but the parameters and seeds.
    assert set(wmnsim.sweep.aggregate(df)["metric"]) == {"goodput_bps", "other"}
    with pytest.raises(KeyError, match='did you mean "goodput_bps"'):
        wmnsim.sweep.aggregate(df, metrics=["goodput"])


def test_aggregate_of_a_sweep_and_its_plot(small, tmp_path):
    out, data = small
    agg = data.aggregate(metrics=["total_goodput_bps", "jain_fairness_index"])
    g = agg[(agg["metric"] == "total_goodput_bps") & (agg["/mac/cw_min"] == 64)].iloc[0]
    x = data.runs.loc[data.runs["/mac/cw_min"] == 64, "total_goodput_bps"]
    assert g["count"] == 2 and g["mean"] == pytest.approx(x.mean()) and g["std"] == pytest.approx(x.std())
    per_flow = data.aggregate(metrics=["goodput_bps"], table="flows")
    assert per_flow[["/mac/cw_min", "flow_id"]].values.tolist() == [
        [16, "A_to_GW"], [16, "B_to_GW"], [64, "A_to_GW"], [64, "B_to_GW"]]
    per_radio = data.aggregate(metrics=["mac_service_delay_mean_s"], table="radios")
    assert per_radio[["/mac/cw_min", "radio_id"]].values.tolist() == [
        [16, "A:0"], [16, "B:0"], [16, "GW:0"], [64, "A:0"], [64, "B:0"], [64, "GW:0"]]
    png = tmp_path / "sweep.png"
    fig = wmnsim.plot.sweep(out, x="/mac/cw_min", y="total_goodput_bps", path=png)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 2000
    line = fig.axes[0].lines[0]
    assert list(line.get_xdata()) == [16, 64]
    assert list(line.get_ydata()) == pytest.approx(list(agg[agg["metric"] == "total_goodput_bps"]["mean"] / 1e6))
    # Per flow: one line per flow.
    fig = wmnsim.plot.sweep(per_flow, x="/mac/cw_min", y="goodput_bps")
    assert [t.get_text() for t in fig.axes[0].get_legend().get_texts()] == ["flow_id=A_to_GW", "flow_id=B_to_GW"]
    with pytest.raises(KeyError, match="no parameter"):
        wmnsim.plot.sweep(agg, x="/mac/cw_max", y="total_goodput_bps")


def test_runs_stored_before_the_radios_table_load_without_radios(small, tmp_path):
    out, data = small
    copy = tmp_path / "old"
    shutil.copytree(out, copy)
    first = data.runs["run_key"][0]
    os.remove(copy / "runs" / first / "radios.parquet")  # as a sweep of an older wmnsim stored it
    old = wmnsim.sweep.load(copy)
    assert len(old.runs) == len(data.runs)
    assert first not in set(old.radios["run_key"]) and len(old.radios) == len(data.radios) - 3
    assert old.nodes["run_key"].tolist() == data.nodes["run_key"].tolist()


def test_runs_stored_with_other_columns_load_under_the_union_of_their_columns(small, tmp_path):
    """load() reads every run of a table as one dataset: a run stored with a column the
    others lack (another wmnsim, another controller) keeps it, the others read it as
    missing, and rows keep the sweep's order (each run's rows in their stored order)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    out, data = small
    copy = tmp_path / "mixed"
    shutil.copytree(out, copy)
    last = data.runs["run_key"].iloc[-1]
    path = copy / "runs" / last / "flows.parquet"
    table = pq.read_table(path)
    pq.write_table(table.append_column("extra_bps", pa.array([1.5 * i for i in range(table.num_rows)])), path)
    mixed = wmnsim.sweep.load(copy)
    flows = mixed.flows
    assert flows.drop(columns="extra_bps").equals(data.flows)
    mine = flows["run_key"] == last
    assert flows.loc[mine, "extra_bps"].tolist() == [1.5 * i for i in range(int(mine.sum()))]
    assert flows.loc[~mine, "extra_bps"].isna().all()
    pd.testing.assert_frame_equal(mixed.runs, data.runs)


def test_aggregate_groups_with_missing_keys_and_values_like_pandas_per_group():
    """The vectorised aggregate against the per-group computation it replaced: a missing
    key is a group of its own, missing values are left out, groups in order of first
    appearance; a constant metric has a standard deviation of exactly 0."""
    df = pd.DataFrame({"/a": [1.0, 1.0, 2.0, np.nan, np.nan, 2.0, 3.0, 1.0],
                       "b": ["x", "y", "x", "x", None, "x", "z", "x"],
                       "m": [1.0, 2.0, 3.0, 4.0, np.nan, 6.0, np.nan, 0.1],
                       "c": [0.1] * 8})
    agg = wmnsim.sweep.aggregate(df, by=["/a", "b"], metrics=["m", "c"])
    keys = [(1.0, "x"), (1.0, "y"), (2.0, "x"), (None, "x"), (None, None), (3.0, "z")]
    got = [tuple(None if pd.isna(v) else v for v in k) for k in agg[["/a", "b"]].drop_duplicates().values.tolist()]
    assert got == keys
    assert agg["metric"].tolist() == ["m", "c"] * len(keys)
    for (a, b), (_, row) in zip([k for k in keys for _ in (0, 1)], agg.iterrows()):
        part = df[(df["/a"].isna() if a is None else df["/a"] == a) & (df["b"].isna() if b is None else df["b"] == b)]
        x = part[row["metric"]].dropna()
        assert row["count"] == len(x)
        if len(x) == 0:
            assert math.isnan(row["mean"]) and math.isnan(row["min"]) and math.isnan(row["median"])
            continue
        assert row["mean"] == pytest.approx(x.mean()) and (row["min"], row["max"]) == (x.min(), x.max())
        assert [row["q25"], row["median"], row["q75"]] == pytest.approx(list(np.percentile(x, [25, 50, 75])))
        if len(x) > 1:
            assert row["std"] == pytest.approx(x.std(ddof=1))
        else:
            assert math.isnan(row["std"]) and math.isnan(row["ci_half_width"])
    assert (agg.loc[(agg["metric"] == "c") & (agg["count"] > 1), "std"] == 0.0).all()
    # No grouping: the whole table is one group, also when it is empty.
    whole = wmnsim.sweep.aggregate(df, by=[], metrics=["m"]).iloc[0]
    assert whole["count"] == 6 and whole["mean"] == pytest.approx(df["m"].mean())
    empty = wmnsim.sweep.aggregate(df.iloc[:0], by=[], metrics=["m"])
    assert empty["count"].tolist() == [0] and math.isnan(empty["mean"].iloc[0])
    assert len(wmnsim.sweep.aggregate(df.iloc[:0], by=["/a"], metrics=["m"])) == 0


def test_a_run_stored_twice_is_discarded(tmp_path, monkeypatch):
    """_execute (a worker's task) in this process: the second attempt of a stored run
    does not run, and a copy finished after another attempt stored it is dropped."""
    from wmnsim.sweep import _execute, _plan

    plan = _plan(FLAGSHIP, {"/simulation/duration_s": [1]}, None, [4], None)
    (r,) = plan.runs
    os.makedirs(tmp_path / "runs")
    os.makedirs(tmp_path / ".tmp")
    task = {"key": r.key, "point_key": r.point_key, "overrides": r.overrides, "seed": r.seed, "topology_seed": None,
            "random_groups": [], "scenario": plan.scenario._text(), "out_dir": str(tmp_path),
            "version": wmnsim.__version__, "keep_results": True}
    real_run = wmnsim._run.run
    calls = []

    def run_while_another_attempt_finishes(*args, **kwargs):
        calls.append(kwargs["seed"])
        result = real_run(*args, **kwargs)
        os.makedirs(tmp_path / "runs" / r.key / "from_the_other_attempt")
        return result

    monkeypatch.setattr(wmnsim._run, "run", run_while_another_attempt_finishes)
    assert _execute(task)["status"] == "duplicate"
    assert calls == [4]
    assert os.listdir(tmp_path / "runs" / r.key) == ["from_the_other_attempt"]  # the first copy stays
    assert os.listdir(tmp_path / ".tmp") == []  # the discarded copy is gone
    monkeypatch.setattr(wmnsim._run, "run", real_run)
    shutil.rmtree(tmp_path / "runs" / r.key)
    assert _execute(task)["status"] == "done"
    assert sorted(os.listdir(tmp_path / "runs" / r.key)) == ["flows.parquet", "nodes.parquet", "radios.parquet",
                                                             "results.json", "run.parquet", "timeseries.parquet"]
    # A retried task finds its run stored and does not run it again.
    monkeypatch.setattr(wmnsim._run, "run", lambda *a, **k: pytest.fail("a stored run ran again"))
    assert _execute(task)["status"] == "duplicate"
    stored = wmnsim.Result.from_json(tmp_path / "runs" / r.key / "results.json")
    assert stored.seed == 4
    assert stored.summary == wmnsim.run(FLAGSHIP, seed=4, overrides={"/simulation/duration_s": 1}).summary


def test_a_partial_result_is_never_stored(tmp_path, monkeypatch):
    """A run stopped early (a signal in the worker) raises: stored, every resume would skip it."""
    from wmnsim.sweep import _execute, _plan

    plan = _plan(FLAGSHIP, {"/simulation/duration_s": [1]}, None, [4], None)
    (r,) = plan.runs
    os.makedirs(tmp_path / "runs")
    os.makedirs(tmp_path / ".tmp")
    task = {"key": r.key, "point_key": r.point_key, "overrides": r.overrides, "seed": r.seed, "topology_seed": None,
            "random_groups": [], "scenario": plan.scenario._text(), "out_dir": str(tmp_path),
            "version": wmnsim.__version__, "keep_results": False}
    real_run = wmnsim._run.run

    class Partial:
        def __init__(self, result):
            self._result = result

        def __getattr__(self, name):
            return getattr(self._result, name)

        partial = True

    monkeypatch.setattr(wmnsim._run, "run", lambda *a, **k: Partial(real_run(*a, **k)))
    with pytest.raises(RuntimeError, match="partial"):
        _execute(task)
    assert os.listdir(tmp_path / "runs") == [] and os.listdir(tmp_path / ".tmp") == []


def test_every_shipped_sweep_spec_is_valid():
    """Specs kept in the repository (scenarios/**/*.sweep.json, the README's worked
    example among them) load and plan: every point's scenario validates."""
    from wmnsim.sweep import _plan, load_spec

    specs = sorted(ROOT.joinpath("scenarios").rglob("*.sweep.json"))
    assert specs, "the README's example spec is missing"
    for spec in specs:
        args = load_spec(spec)
        plan = _plan(args["scenario"], args.get("grid"), args.get("points"), args["seeds"],
                     args.get("topology_seeds"), spec_source=str(spec))
        assert plan.runs, spec


def test_each_run_writes_its_event_trace_into_its_own_folder(cluster, tmp_path):
    """A scenario with outputs.event_trace in a sweep: every run writes its own trace into its run folder
    (not the one path the scenario names, where the runs would overwrite each other), the trace the same
    run writes directly."""
    trace = {"path": "events.bin", "kinds": ["tx_start", "backoff"]}
    grid = {"/mac/cw_min": [16, 64], "/simulation/duration_s": [1], "/outputs/event_trace": [trace]}
    out = tmp_path / "traced"
    data = wmnsim.sweep(FLAGSHIP, grid, seeds=[1], out_dir=out, scheduler=cluster.scheduler_address,
                        keep_results=True)
    assert not (tmp_path / "events.bin").exists() and not pathlib.Path("events.bin").exists()
    for _, row in data.runs.iterrows():
        folder = out / "runs" / row["run_key"]
        stored = wmnsim.trace.load(folder / "events.bin")
        # results.json names the trace in the run's folder, not the temporary one the run wrote it in.
        kept = wmnsim.Result.from_json(folder / "results.json")
        assert kept.to_dict()["scenario"]["outputs"]["event_trace"]["path"] == str(folder / "events.bin")
        assert ".tmp" not in (folder / "results.json").read_text()
        pd.testing.assert_frame_equal(kept.event_trace(), stored, check_like=True)
        want_path = tmp_path / f"direct_{row['/mac/cw_min']}.bin"
        direct(FLAGSHIP, {"/mac/cw_min": int(row["/mac/cw_min"]), "/simulation/duration_s": 1,
                          "/outputs/event_trace": {**trace, "path": str(want_path)}}, 1)
        pd.testing.assert_frame_equal(stored, wmnsim.trace.load(want_path))
        # Each run its own: the smallest window its backoffs were drawn in is the run's CWmin.
        assert stored[stored["kind"] == "backoff"]["cw"].min() == int(row["/mac/cw_min"])
