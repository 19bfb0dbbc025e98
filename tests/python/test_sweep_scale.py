"""Sweeps of many runs (issue 42, docs/sweeps.md): wmnsim.sweep.compact keeps one file per
table per sweep directory, and load() gives exactly the tables it gave before; resumes
still skip compacted runs and add new ones; a run is never read twice, whatever point
a compaction stopped at. The progress bar (tqdm) and the summary table (tabulate)."""
import json
import os
import shutil

import pandas as pd
import pytest

import wmnsim
from conftest import FLAGSHIP

pytestmark = pytest.mark.filterwarnings("ignore:make_current is deprecated:DeprecationWarning")

# Time series and per-hop tables too: every kind of table a run can store.
GRID = {"/mac/cw_min": [16, 64], "/simulation/duration_s": [2], "/outputs/hops": [True]}
TABLES = ("runs", "flows", "nodes", "radios", "timeseries", "hops")


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    """2 points x 2 seeds of the flagship, 2 s, uncompacted."""
    out = tmp_path_factory.mktemp("compact") / "sweep"
    wmnsim.sweep(FLAGSHIP, GRID, seeds=[1, 2], out_dir=out, workers=2, progress=False)
    return out


@pytest.fixture(scope="module", autouse=True)
def _shared_cluster(cluster):
    """The module's runs on conftest's shared cluster (SCHEDULER); `stored` runs on the embedded one."""
    global SCHEDULER
    SCHEDULER = cluster.scheduler_address
    yield
    SCHEDULER = None


SCHEDULER = None


def tables(directory):
    data = wmnsim.sweep.load(directory)
    return {name: getattr(data, name) for name in TABLES}


# The wall clock: the only columns two runs of the same scenario and seed differ in.
WALL_CLOCK = ["wall_time_s", "events_per_s"]


def assert_same_tables(a, b, but_the_wall_clock=False):
    for name in TABLES:
        x, y = a[name], b[name]
        if but_the_wall_clock:
            x, y = (t.drop(columns=[c for c in WALL_CLOCK if c in t.columns]) for t in (x, y))
        pd.testing.assert_frame_equal(x, y, obj=name)


def copy_of(stored, tmp_path, name="copy"):
    copy = tmp_path / name
    shutil.copytree(stored, copy, symlinks=True)
    return copy


def test_compaction_keeps_every_table_and_leaves_one_file_per_table(stored, tmp_path):
    before = tables(stored)
    assert all(not before[name].empty for name in TABLES)
    copy = copy_of(stored, tmp_path)
    assert wmnsim.sweep.compact(copy) == 4
    assert_same_tables(tables(copy), before)
    current = copy / "compacted" / "current"
    assert sorted(os.listdir(current)) == sorted(f"{n}.parquet" for n in
                                                 ("run", "flows", "nodes", "radios", "timeseries", "hops"))
    for key in os.listdir(copy / "runs"):  # each run's tables went; its directory stays, marked
        assert os.listdir(copy / "runs" / key) == ["compacted"]
    assert wmnsim.sweep.compact(copy) == 0  # nothing new
    assert_same_tables(tables(copy), before)
    assert wmnsim.sweep.load(copy, keys=before["runs"]["run_key"][:1]).flows.equals(
        wmnsim.sweep.load(stored, keys=before["runs"]["run_key"][:1]).flows)


def test_runs_with_other_columns_or_without_radios_compact_to_the_same_tables(stored, tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    copy = copy_of(stored, tmp_path, "mixed")
    keys = sorted(os.listdir(copy / "runs"))
    os.remove(copy / "runs" / keys[0] / "radios.parquet")  # as an older wmnsim stored it
    path = copy / "runs" / keys[1] / "flows.parquet"
    table = pq.read_table(path)
    pq.write_table(table.append_column("extra_bps", pa.array([1.5] * table.num_rows)), path)
    before = tables(copy)
    assert wmnsim.sweep.compact(copy) == 4
    assert_same_tables(tables(copy), before)


def test_compaction_streams_in_row_groups_and_writes_what_load_reads(stored, tmp_path, monkeypatch):
    # A row group per few rows (as 65,536 rows are for a large sweep): the compacted
    # files are written a group at a time, and still hold what load read.
    import importlib

    import pyarrow.parquet as pq

    sweep_module = importlib.import_module("wmnsim.sweep")  # the module; wmnsim.sweep is its function
    copy = copy_of(stored, tmp_path, "groups")
    before = tables(copy)
    writer = sweep_module._write_compacted_table
    monkeypatch.setattr(sweep_module, "_write_compacted_table",
                        lambda *a, **kw: writer(*a, **{**kw, "rows_per_group": 3}))
    assert wmnsim.sweep.compact(copy) == 4
    flows = pq.ParquetFile(copy / "compacted" / "current" / "flows.parquet")
    assert flows.metadata.num_rows == len(before["flows"]) and flows.metadata.num_row_groups > 1
    assert_same_tables(tables(copy), before)


def test_a_resumed_sweep_skips_compacted_runs_and_its_new_runs_are_found(stored, tmp_path):
    plain, compacted = copy_of(stored, tmp_path, "plain"), copy_of(stored, tmp_path, "compacted")
    wmnsim.sweep.compact(compacted)
    again = wmnsim.sweep(FLAGSHIP, GRID, seeds=[1, 2], out_dir=compacted, scheduler=SCHEDULER, progress=False)
    assert (again.ran, again.skipped) == (0, 4)
    more = {d: wmnsim.sweep(FLAGSHIP, GRID, seeds=3, out_dir=d, scheduler=SCHEDULER, progress=False)
            for d in (plain, compacted)}
    assert [(m.ran, m.skipped) for m in more.values()] == [(2, 4), (2, 4)]
    expected = tables(plain)
    assert len(expected["runs"]) == 6 and expected["runs"]["run_key"].is_unique
    # 4 compacted runs, 2 in their own files (run in each directory: their own wall clocks)
    assert_same_tables(tables(compacted), expected, but_the_wall_clock=True)
    new = tables(compacted)
    assert wmnsim.sweep.compact(compacted) == 2
    assert_same_tables(tables(compacted), new)
    assert all(os.listdir(compacted / "runs" / k) == ["compacted"] for k in os.listdir(compacted / "runs"))


def test_a_compaction_stopped_at_any_point_reads_each_run_once(stored, tmp_path):
    expected = tables(stored)
    keys = sorted(os.listdir(stored / "runs"))
    # Stopped after writing the markers, before switching to its files: the current
    # compacted files do not hold the marked runs, which are read from their own files.
    copy = copy_of(stored, tmp_path, "markers_only")
    for k in keys[2:]:
        shutil.rmtree(copy / "runs" / k)
    wmnsim.sweep.compact(copy)  # the first two runs
    for k in keys[2:]:
        shutil.copytree(stored / "runs" / k, copy / "runs" / k)
        (copy / "runs" / k / "compacted").write_text("")
    assert_same_tables(tables(copy), expected)
    assert wmnsim.sweep.compact(copy) == 2
    assert_same_tables(tables(copy), expected)
    # Stopped after the switch, before writing the markers: the compacted files hold
    # the runs, which are still read from their own files, once; the next compaction
    # takes them again.
    copy = copy_of(stored, tmp_path, "no_markers")
    wmnsim.sweep.compact(copy)
    for k in keys:
        (copy / "runs" / k / "compacted").unlink()
        for f in os.listdir(stored / "runs" / k):
            shutil.copy(stored / "runs" / k / f, copy / "runs" / k / f)
    assert_same_tables(tables(copy), expected)
    assert wmnsim.sweep.compact(copy) == len(keys)
    assert_same_tables(tables(copy), expected)
    # Stopped after the markers, before removing the runs' own files: they are not read.
    copy = copy_of(stored, tmp_path, "files_left")
    wmnsim.sweep.compact(copy)
    for k in keys:
        for f in os.listdir(stored / "runs" / k):
            shutil.copy(stored / "runs" / k / f, copy / "runs" / k / f)
    assert_same_tables(tables(copy), expected)
    assert wmnsim.sweep.compact(copy) == 0


def test_a_compacted_run_removed_and_run_again_is_read_from_its_new_files(stored, tmp_path):
    copy = copy_of(stored, tmp_path, "rerun")
    wmnsim.sweep.compact(copy)
    key = sorted(os.listdir(copy / "runs"))[0]
    shutil.rmtree(copy / "runs" / key)
    again = wmnsim.sweep(FLAGSHIP, GRID, seeds=[1, 2], out_dir=copy, scheduler=SCHEDULER, progress=False)
    assert (again.ran, again.skipped) == (1, 3)
    # The rerun's own row, told apart from its old compacted one by a value no
    # simulation gives (a deterministic rerun repeats every other column).
    own = copy / "runs" / key / "run.parquet"
    row = pd.read_parquet(own)
    row["wall_time_s"] = -1.0
    row.to_parquet(own)
    rerun = tables(copy)
    assert_same_tables(rerun, tables(stored), but_the_wall_clock=True)
    assert rerun["runs"].set_index("run_key").loc[key, "wall_time_s"] == -1.0  # its old compacted row is not read
    # A compaction that fails at its switch (killed, a full disk): the rerun is still
    # read from its own files, not from the old compacted set that holds its old row.
    def fail(*args):
        raise OSError("stopped at the switch")

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(os, "replace", fail)
        with pytest.raises(OSError, match="stopped at the switch"):
            wmnsim.sweep.compact(copy)
    assert tables(copy)["runs"].set_index("run_key").loc[key, "wall_time_s"] == -1.0
    # Compacted again: the rerun's new row replaces its old one in the compacted files.
    assert wmnsim.sweep.compact(copy) == 1
    assert_same_tables(tables(copy), rerun)
    assert tables(copy)["runs"].set_index("run_key").loc[key, "wall_time_s"] == -1.0


def test_the_sweep_command_compacts_and_resumes(tmp_path, capsys):
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps({"scenario": os.path.relpath(FLAGSHIP, tmp_path), "grid": GRID, "seeds": 1}))
    out = tmp_path / "out"
    assert wmnsim.sweep.run_spec_command(spec, out, scheduler=SCHEDULER) == 0
    assert "2 run now, 0 skipped" in capsys.readouterr().out
    assert (out / "compacted" / "current" / "flows.parquet").is_file()
    assert all(os.listdir(out / "runs" / k) == ["compacted"] for k in os.listdir(out / "runs"))
    spec.write_text(json.dumps({"scenario": os.path.relpath(FLAGSHIP, tmp_path), "grid": GRID, "seeds": 2}))
    assert wmnsim.sweep.run_spec_command(spec, out, scheduler=SCHEDULER) == 0
    assert "2 run now, 2 skipped" in capsys.readouterr().out
    data = wmnsim.sweep.load(out)
    assert len(data.runs) == 4 and data.runs["run_key"].is_unique and len(data.flows) == 8


def test_a_sweep_whose_compaction_fails_keeps_its_runs_and_warns(tmp_path, capsys, monkeypatch):
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps({"scenario": os.path.relpath(FLAGSHIP, tmp_path), "grid": GRID, "seeds": 1}))
    out = tmp_path / "out"

    def no_links(*args, **kwargs):
        raise OSError("symbolic links not supported")

    monkeypatch.setattr(os, "symlink", no_links)
    assert wmnsim.sweep.run_spec_command(spec, out, scheduler=SCHEDULER) == 0
    captured = capsys.readouterr()
    assert "stored but not compacted" in captured.err and "2 run now" in captured.out
    monkeypatch.undo()
    assert len(wmnsim.sweep.load(out).runs) == 2
    assert wmnsim.sweep.compact(out) == 2


def test_compact_refuses_a_folder_that_is_not_a_sweep(tmp_path):
    with pytest.raises(FileNotFoundError, match="not a sweep directory"):
        wmnsim.sweep.compact(tmp_path)


def test_the_progress_bar_counts_skipped_runs_apart(stored, tmp_path, capsys):
    copy = copy_of(stored, tmp_path, "progress")
    wmnsim.sweep(FLAGSHIP, GRID, seeds=3, out_dir=copy, scheduler=SCHEDULER, progress=True)
    err = capsys.readouterr().err
    assert "[sweep]" in err and "4/6" in err and "6/6" in err and "4 skipped" in err
    wmnsim.sweep(FLAGSHIP, GRID, seeds=3, out_dir=copy, scheduler=SCHEDULER, progress=True)  # nothing to run: one bar
    err = capsys.readouterr().err
    assert "6/6" in err and "6 skipped" in err and "4/6" not in err
    wmnsim.sweep(FLAGSHIP, GRID, seeds=3, out_dir=copy, scheduler=SCHEDULER, progress=False)
    assert capsys.readouterr().err == ""


def test_the_summary_table_has_a_row_per_point_in_aligned_columns(stored):
    data = wmnsim.sweep.load(stored)
    lines = data.summary_table().splitlines()
    header = ["/mac/cw_min", "/simulation/duration_s", "/outputs/hops", "runs", "goodput Mbit/s (± 95 % CI)",
              "Jain's index"]
    starts = [lines[0].index(h) for h in header]
    assert starts == sorted(starts) and starts[0] == 0
    assert len(lines) == 4 and set(lines[1].replace(" ", "")) == {"-"}
    agg = data.aggregate(metrics=["total_goodput_bps", "jain_fairness_index"]).set_index(["/mac/cw_min", "metric"])
    for line, cw in zip(lines[2:], (16, 64)):
        cells = [line[a:b].strip() for a, b in zip(starts, starts[1:] + [None])]
        g, j = agg.loc[(cw, "total_goodput_bps")], agg.loc[(cw, "jain_fairness_index")]
        assert cells == [str(cw), "2", "True", "2", f"{g['mean'] / 1e6:.3f} ± {g['ci_half_width'] / 1e6:.3f}",
                         f"{j['mean']:.3f}"]
