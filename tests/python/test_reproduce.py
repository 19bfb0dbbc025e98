"""wmnsim reproduce (docs/reproduce.md): a study's experiments run, are stored, and its
doc regenerates from them exactly; quick runs are checked against stored ones; bad
input is refused with its JSON path. On a tiny study in a folder of its own."""
import contextlib
import importlib
import json
import shutil
import subprocess
import sys

import distributed
import pandas as pd
import pytest

import wmnsim
import wmnsim.reproduce as reproduce
import wmnsim.trace
from conftest import FLAGSHIP, ROOT, WMNSIM_BIN

pytestmark = pytest.mark.filterwarnings("ignore:make_current is deprecated:DeprecationWarning")

REPORT = '''
import sys
sys.path.insert(0, %r)
from doc_blocks import Report
report = Report("tiny", __doc__)
runs = report.data("chain")
flows = runs.flows
a = flows[flows["flow_id"] == "A_to_GW"]["goodput_bps"].mean()
b = flows[flows["flow_id"] == "B_to_GW"]["goodput_bps"].mean()
report.block("table", "| flow | goodput |\\n|---|---|\\n" + f"| A | {a:.0f} |\\n| B | {b:.0f} |", runs)
report.value("share", f"{a / (a + b):.1%%}", runs)
sys.exit(report.finish())
''' % str(ROOT / "scripts")

DOC = """# Tiny

<!-- begin:table -->
<!-- end:table -->

A gets <!--v:share-->?<!--/v--> of the goodput.
"""


@pytest.fixture
def repo(tmp_path):
    """A repository with one study: the flagship chain, 2 s, 2 seeds (quick: 1 s)."""
    root = tmp_path / "repo"
    folder = root / "scenarios" / "tiny" / "reproduction"
    folder.mkdir(parents=True)
    (root / "docs" / "reproductions").mkdir(parents=True)
    (root / "scripts").mkdir()
    shutil.copy(FLAGSHIP, root / "scenarios" / "tiny" / "chain.json")
    (folder / "study.json").write_text(json.dumps({
        "study": "tiny", "paper": "000", "doc": "docs/reproductions/tiny.md", "report": "scripts/tiny_report.py"}))
    (folder / "chain.json").write_text(json.dumps({
        "scenario": "../chain.json", "set": {"/simulation/duration_s": 2}, "seeds": 2,
        "quick": {"set": {"/simulation/duration_s": 1}, "seeds": [1]}}))
    (root / "docs" / "reproductions" / "tiny.md").write_text(DOC)
    (root / "scripts" / "tiny_report.py").write_text(REPORT)
    return root


@pytest.fixture(scope="module", autouse=True)
def _shared_cluster(cluster):
    """The module's commands on conftest's shared cluster (SCHEDULER). The embedded one, as
    `wmnsim reproduce` without --scheduler starts it, stays covered: a study's first run
    (test_a_study_runs_stores_and_regenerates_its_doc), and --add-seeds, whose witness
    and new seeds start one after the other in one process, and a fresh full run
    (test_add_seeds_runs_only_the_new_seeds_and_stores_what_a_full_run_would)."""
    global SCHEDULER
    SCHEDULER = cluster.scheduler_address
    yield
    SCHEDULER = None


SCHEDULER = None


def _command(repo, **kw):
    return reproduce.run_command("tiny", root=str(repo), output=str(repo / "work"), scheduler=SCHEDULER,
                                 no_plot=True, **kw)


def test_a_study_runs_stores_and_regenerates_its_doc(repo):
    # On the embedded cluster, as `wmnsim reproduce` without --scheduler runs.
    assert reproduce.run_command("tiny", root=str(repo), output=str(repo / "work"), workers=2, no_plot=True) == 0
    data = reproduce.load_data("tiny", "chain", root=repo)
    assert sorted(data.runs["seed"]) == [1, 2]
    assert set(data.flows["scenario"]) == {"chain"}
    assert "run_key" not in data.runs.columns and "wall_time_s" not in data.runs.columns
    assert data.provenance["runs"] == 2 and wmnsim.commit in data.provenance["commits"]
    # The same numbers as direct runs of the scenario as the experiment sets it.
    direct = [wmnsim.run(FLAGSHIP, seed=s, overrides={"/simulation/duration_s": 2}) for s in (1, 2)]
    expected = sum(r.flows.set_index("id").loc["B_to_GW", "goodput_bps"] for r in direct) / 2
    doc = (repo / "docs" / "reproductions" / "tiny.md").read_text()
    assert f"| B | {expected:.0f} |" in doc
    assert "<!-- generated from scenarios/tiny/reproduction/data/chain (2 runs, wmnsim " in doc
    assert "<!--v:share-->?<!--/v-->" not in doc and "% <!--/v-->" not in doc
    # The doc regenerates exactly; a hand edit is caught.
    assert _command(repo, report_only=True, check=True) == 0
    (repo / "docs" / "reproductions" / "tiny.md").write_text(doc.replace("| B | ", "| B | 1"))
    assert _command(repo, report_only=True, check=True) == 3


def test_stored_runs_are_the_same_files_for_the_same_runs(repo):
    assert _command(repo) == 0
    folder = repo / "scenarios" / "tiny" / "reproduction" / "data" / "chain"
    first = {p.name: p.read_bytes() for p in folder.iterdir()}
    shutil.rmtree(repo / "work")
    assert _command(repo) == 0
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == first


def test_quick_runs_are_checked_against_the_stored_ones(repo, capsys):
    assert _command(repo, quick=True, store=True) == 0
    assert _command(repo, quick=True) == 0
    assert (repo / "work" / "tiny" / "quick" / "tiny.md").is_file()  # the doc rendered on the quick runs
    assert "A gets <!--v:share-->?<!--/v-->" not in (repo / "work" / "tiny" / "quick" / "tiny.md").read_text()
    # A stored quick run that differs (as after a model change) fails its band: exit 3.
    path = repo / "scenarios" / "tiny" / "reproduction" / "data" / "quick" / "chain" / "flows.parquet"
    flows = pd.read_parquet(path)
    flows.loc[flows["flow_id"] == "B_to_GW", "goodput_bps"] *= 2
    flows.to_parquet(path, index=False)
    capsys.readouterr()
    assert _command(repo, quick=True) == 3
    assert "flows/goodput_bps chain/B_to_GW: FAIL" in capsys.readouterr().err


def test_one_cluster_serves_every_study_of_a_command(repo, monkeypatch):
    """`reproduce all` reaches its cluster once, when the first study runs, and not at all for
    the reports alone nor when every run is stored in the work folder already: an embedded
    cluster's start costs seconds of its workers' imports."""
    shutil.copytree(repo / "scenarios" / "tiny", repo / "scenarios" / "tiny2")
    (repo / "scenarios" / "tiny2" / "reproduction" / "study.json").write_text(json.dumps({
        "study": "tiny2", "paper": "000", "doc": "docs/reproductions/tiny2.md", "report": "scripts/tiny2_report.py"}))
    (repo / "docs" / "reproductions" / "tiny2.md").write_text(DOC)
    (repo / "scripts" / "tiny2_report.py").write_text(REPORT.replace('Report("tiny"', 'Report("tiny2"'))
    sweep_module = importlib.import_module("wmnsim.sweep")  # wmnsim.sweep is the function
    real, reached = sweep_module.dask_client, []

    @contextlib.contextmanager
    def counted(scheduler=None, workers=None):
        if not isinstance(scheduler, distributed.Client):  # a client handed on starts nothing
            reached.append(scheduler)
        with real(scheduler, workers) as client:
            yield client

    monkeypatch.setattr(sweep_module, "dask_client", counted)

    def command(**kw):
        return reproduce.run_command("all", root=str(repo), output=str(repo / "work"), scheduler=SCHEDULER,
                                     no_plot=True, **kw)

    assert command() == 0 and reached == [SCHEDULER]
    assert [len(reproduce.load_data(s, "chain", root=repo).runs) for s in ("tiny", "tiny2")] == [2, 2]
    reached.clear()
    assert command() == 0 and reached == []  # the work folder holds every run: nothing to hand out
    assert command(quick=True, store=True) == 0 and reached == [SCHEDULER]
    reached.clear()
    assert command(report_only=True, check=True) == 0 and reached == []


def test_every_sweep_of_a_study_reaches_the_cluster_before_the_first_is_waited_for(repo, monkeypatch):
    """A study's sweeps are mostly a run or two each: handed to the cluster one at a time,
    they would leave the other workers idle."""
    folder = repo / "scenarios" / "tiny"
    shutil.copy(folder / "chain.json", folder / "chain_b.json")
    (folder / "reproduction" / "chain.json").write_text(json.dumps({
        "scenarios": ["../chain.json", "../chain_b.json"], "set": {"/simulation/duration_s": 1}, "seeds": 1}))
    pending = importlib.import_module("wmnsim.sweep")._PendingSweep
    calls = []
    for name in ("submit", "finish"):
        def logged(self, *args, _real=getattr(pending, name), _name=name):
            calls.append((_name, len(self.todo)))
            return _real(self, *args)
        monkeypatch.setattr(pending, name, logged)
    assert _command(repo) == 0
    assert calls == [("submit", 1), ("submit", 1), ("finish", 1), ("finish", 1)]
    calls.clear()
    assert _command(repo) == 0  # stored already: nothing handed out
    assert calls == [("finish", 0), ("finish", 0)]


def test_a_study_stopped_while_waiting_cancels_the_runs_of_every_sweep(repo, monkeypatch, capsys):
    folder = repo / "scenarios" / "tiny"
    shutil.copy(folder / "chain.json", folder / "chain_b.json")
    (folder / "reproduction" / "chain.json").write_text(json.dumps({
        "scenarios": ["../chain.json", "../chain_b.json"], "set": {"/simulation/duration_s": 1}, "seeds": 1}))

    def interrupted(self):
        raise KeyboardInterrupt

    monkeypatch.setattr(importlib.import_module("wmnsim.sweep")._PendingSweep, "finish", interrupted)
    cancelled = []
    real = distributed.Client.cancel
    monkeypatch.setattr(distributed.Client, "cancel",
                        lambda self, futures, *a, **k: (cancelled.append(len(futures)), real(self, futures, *a, **k)))
    assert _command(repo) == 130
    assert cancelled == [2]  # both sweeps' runs, in one call
    assert "interrupted: finished runs are kept" in capsys.readouterr().err


def test_a_study_listing_an_experiment_twice_is_refused(repo):
    study = repo / "scenarios" / "tiny" / "reproduction" / "study.json"
    study.write_text(json.dumps(dict(json.loads(study.read_text()), experiments=["chain", "chain"])))
    with pytest.raises(wmnsim.ScenarioError, match="/experiments/1.*chain is listed twice"):
        reproduce.studies(repo)


def test_the_repository_doc_is_left_alone_by_quick(repo):
    before = (repo / "docs" / "reproductions" / "tiny.md").read_text()
    assert _command(repo, quick=True, store=True) == 0
    assert (repo / "docs" / "reproductions" / "tiny.md").read_text() == before


def test_bad_input_is_refused_with_its_path(repo, capsys):
    assert reproduce.run_command("tinny", root=str(repo)) == 2
    assert 'no study "tinny" (did you mean "tiny"?)' in capsys.readouterr().err
    exp = repo / "scenarios" / "tiny" / "reproduction" / "chain.json"
    exp.write_text(json.dumps({"scenario": "../chain.json", "sedes": 2, "quick": {"seed": 1}}))
    assert _command(repo) == 2
    err = capsys.readouterr().err
    assert "/sedes: unknown key (did you mean \"seeds\"?)" in err
    assert "/quick/seed: unknown key (did you mean \"seeds\"?)" in err
    assert "/seeds: missing" in err
    exp.write_text(json.dumps({"scenarios": ["../chain.json", "../chain.json"], "seeds": 1}))
    assert _command(repo) == 2
    assert '/scenarios/1: a second scenario named "chain"' in capsys.readouterr().err
    exp.write_text(json.dumps({"scenario": "../chain.json", "seeds": 1, "set": {"/mac/cw_min": 3}}))
    assert _command(repo) == 2
    assert "/mac/cw_min" in capsys.readouterr().err
    assert not (repo / "scenarios" / "tiny" / "reproduction" / "data").exists()  # nothing stored


def test_a_work_folder_that_is_a_file_is_refused_before_anything_runs(repo, capsys):
    """-o names a folder (issue 45, 3): a file, or a path under one, is exit 2 naming it."""
    afile = repo / "afile"
    afile.write_text("kept")
    assert reproduce.run_command("tiny", root=str(repo), output=str(afile), no_plot=True) == 2
    assert capsys.readouterr().err == f"wmnsim reproduce: -o: {afile} is a file, not a folder: a reproduction " \
                                      "keeps its runs in a work folder (created when missing); choose another output path\n"
    assert reproduce.run_command("tiny", root=str(repo), output=str(afile / "work"), no_plot=True) == 2
    assert f"cannot make the work folder {afile / 'work'}: {afile} is a file, not a folder" in capsys.readouterr().err
    assert afile.read_text() == "kept"
    assert not (repo / "scenarios" / "tiny" / "reproduction" / "data").exists()


def test_a_study_and_an_experiment_are_called_what_they_are(repo, capsys):
    """A study's files are not scenario files: messages say "experiment file" (and "study file")."""
    folder = repo / "scenarios" / "tiny" / "reproduction"
    (folder / "broken.json").mkdir()  # an experiment file that is a folder
    assert _command(repo) == 2
    err = capsys.readouterr().err
    assert "experiment file" in err and "broken.json" in err and "scenario file" not in err
    with pytest.raises(wmnsim.ScenarioError, match='cannot read experiment file ".*broken.json"'):
        reproduce.load_experiment(folder / "broken.json")


def test_a_doc_and_its_report_must_agree(repo, capfd):
    assert _command(repo) == 0
    doc = repo / "docs" / "reproductions" / "tiny.md"
    doc.write_text(doc.read_text() + "\nAnd <!--v:typo-->3<!--/v--> more.\n")
    assert _command(repo, report_only=True) == 1  # the report refused: exit 2 of the script
    assert "value typo is in the doc but the report does not give it" in capfd.readouterr().err


def test_the_command_line_hands_over_with_its_exit_codes(tmp_path):
    p = subprocess.run([WMNSIM_BIN, "reproduce", "nosuch"], cwd=ROOT, capture_output=True, text=True)
    assert p.returncode == 2 and 'no study "nosuch"' in p.stderr
    p = subprocess.run([WMNSIM_BIN, "reproduce", "starvation", "--check"], cwd=ROOT, capture_output=True, text=True)
    assert p.returncode == 2 and "--report-only" in p.stderr
    p = subprocess.run([WMNSIM_BIN, "reproduce", "starvation", "--report-only", "--check"], cwd=tmp_path,
                       capture_output=True, text=True)
    assert p.returncode == 2 and "not inside a wmnsim repository" in p.stderr
    p = subprocess.run([sys.executable, "-m", "wmnsim", "reproduce", "nosuch"], cwd=ROOT, capture_output=True,
                       text=True)
    assert p.returncode == 2 and 'no study "nosuch"' in p.stderr


def test_every_study_of_the_repository_is_well_formed():
    """The five studies, and every scenario their experiments run (as the experiment
    sets it) validates: the repository's other scenario tests skip reproduction/."""
    found = reproduce.studies(ROOT)
    assert set(found) == {"starvation", "gateway", "edca", "wccp", "mesh-congestion"}
    for study in found.values():
        assert study.doc.startswith(str(ROOT)) and study.report.endswith("_report.py")
        for name in study.experiments:
            for quick in (False, True):
                e = reproduce.load_experiment(study.experiment_path(name), quick)
                assert e.scenarios
                for path in e.scenarios:
                    scenario = wmnsim.Scenario(path)
                    (scenario.with_overrides(e.fixed) if e.fixed else scenario).validate()


def test_a_scenario_may_have_its_own_seeds_and_quick_may_run_other_scenarios(repo):
    folder = repo / "scenarios" / "tiny"
    shutil.copy(folder / "chain.json", folder / "chain_b.json")
    exp = folder / "reproduction" / "chain.json"
    exp.write_text(json.dumps({
        "scenarios": ["../chain.json", {"file": "../chain_b.json", "seeds": [7]}],
        "set": {"/simulation/duration_s": 1}, "seeds": 2,
        "quick": {"scenarios": [{"file": "../chain_b.json", "seeds": [3]}]}}))
    e = reproduce.load_experiment(exp)
    assert [e.label(s) for s in e.scenarios] == ["chain", "chain_b"]
    assert e.seeds_of(e.scenarios[0]) == 2 and e.seeds_of(e.scenarios[1]) == [7]
    q = reproduce.load_experiment(exp, quick=True)
    assert [q.label(s) for s in q.scenarios] == ["chain_b"] and q.seeds_of(q.scenarios[0]) == [3]
    assert _command(repo) == 0
    data = reproduce.load_data("tiny", "chain", root=repo)
    assert sorted(zip(data.runs["scenario"], data.runs["seed"])) == [("chain", 1), ("chain", 2), ("chain_b", 7)]
    exp.write_text(json.dumps({"scenarios": [{"file": "../chain_b.json"}], "seeds": 1}))
    with pytest.raises(wmnsim.ScenarioError, match="/scenarios"):
        reproduce.load_experiment(exp)


def test_an_experiment_may_store_only_some_columns(repo):
    exp = repo / "scenarios" / "tiny" / "reproduction" / "chain.json"
    exp.write_text(json.dumps({"scenario": "../chain.json", "points": [{"/simulation/duration_s": 1}], "seeds": 1,
                               "tables": ["runs", "flows"], "columns": {"flows": ["goodput_bps"]}}))
    assert _command(repo) == 0
    data = reproduce.load_data(reproduce.studies(str(repo))["tiny"], "chain", root=str(repo))
    assert sorted(data.flows.columns) == sorted(["scenario", "/simulation/duration_s", "seed", "topology_seed",
                                                 "flow_id", "goodput_bps"])
    assert "total_goodput_bps" in data.runs.columns  # a table not named keeps every column
    exp.write_text(json.dumps({"scenario": "../chain.json", "seeds": 1, "columns": {"nodes": ["x"]},
                               "tables": ["runs"]}))
    with pytest.raises(wmnsim.ScenarioError, match="/columns"):
        reproduce.load_experiment(exp)


def test_the_values_sources_block_names_the_runs_behind_each_value(repo):
    doc = repo / "docs" / "reproductions" / "tiny.md"
    doc.write_text(DOC + "\n<!-- begin:sources -->\n<!-- end:sources -->\n")
    assert _command(repo) == 0
    text = doc.read_text()
    block = text[text.index("<!-- begin:sources -->"):]
    assert "scenarios/tiny/reproduction/data/chain (2 runs, wmnsim " in block
    assert "| `share` |" in block
    # The stored tables' size, what the storage budget counts (docs/reproduce.md).
    data = repo / "scenarios" / "tiny" / "reproduction" / "data" / "chain"
    kb = f"{sum(p.stat().st_size for p in data.glob('*.parquet')) / 1e3:.0f}"
    assert f") | {kb} | `share` |" in block and f"| all of the above | {kb} | |" in block


def test_every_reproduction_doc_lists_the_sources_of_its_values():
    for study in reproduce.studies(str(ROOT)).values():
        text = (ROOT / study.doc).read_text()
        assert "<!-- begin:sources -->" in text, study.doc


def test_an_experiment_may_store_only_some_tables(repo):
    exp = repo / "scenarios" / "tiny" / "reproduction" / "chain.json"
    exp.write_text(json.dumps({"scenario": "../chain.json", "set": {"/simulation/duration_s": 1}, "seeds": 1,
                               "tables": ["runs", "flows"]}))
    assert _command(repo) == 0
    folder = repo / "scenarios" / "tiny" / "reproduction" / "data" / "chain"
    assert sorted(p.name for p in folder.glob("*.parquet")) == ["flows.parquet", "runs.parquet"]
    exp.write_text(json.dumps({"scenario": "../chain.json", "seeds": 1, "tables": ["runs", "node"]}))
    with pytest.raises(wmnsim.ScenarioError, match="/tables"):
        reproduce.load_experiment(exp)


def _tables(folder, runs, flows):
    folder.mkdir(parents=True, exist_ok=True)
    pd.DataFrame(runs).to_parquet(folder / "runs.parquet", index=False)
    pd.DataFrame(flows).to_parquet(folder / "flows.parquet", index=False)
    (folder / "provenance.json").write_text("{}")


def test_the_quick_check_on_hand_made_tables(repo):
    """Without runs: a stated check on a metric the tables lack fails (it could never fail
    otherwise); a group undefined (NaN) in both passes, in one only fails; a topology seed
    is a group of its own, and so is each value of a parameter, null included."""
    exp = repo / "scenarios" / "tiny" / "reproduction" / "chain.json"
    exp.write_text(json.dumps({"scenario": "../chain.json", "seeds": 2, "quick": {"seeds": [1, 2], "checks": [
        {"table": "flows", "metric": "goodput_bps", "tolerance": {"relative": 0.05}},
        {"table": "flows", "metric": "delay_mean_s", "tolerance": {"relative": 0.05}},
        {"table": "runs", "metric": "no_such_metric", "tolerance": {"relative": 0.05}}]}}))
    study = reproduce.studies(repo)["tiny"]
    runs = {"scenario": ["chain"] * 4, "seed": [1, 2, 1, 2], "topology_seed": [1, 1, 2, 2],
            "total_goodput_bps": [1.0, 1.0, 1.0, 1.0]}
    stored = {"scenario": ["chain"] * 4, "seed": [1, 2, 1, 2], "topology_seed": [1, 1, 2, 2],
              "flow_id": ["f"] * 4, "goodput_bps": [100.0, 100.0, 300.0, 300.0],
              "delay_mean_s": [float("nan")] * 2 + [0.1, 0.1]}
    _tables(repo / "scenarios" / "tiny" / "reproduction" / "data" / "quick" / "chain", runs, stored)
    # The topologies swapped: the pooled mean (200) is the same, each topology's is not.
    fresh = dict(stored, goodput_bps=[300.0, 300.0, 100.0, 100.0], delay_mean_s=[0.1, 0.1, float("nan"), float("nan")])
    _tables(repo / "fresh" / "chain", runs, fresh)
    rows = {(r["metric"], r["group"]): r for r in reproduce.check_quick(study, str(repo / "fresh"))}
    assert rows[("runs/no_such_metric", "-")]["status"] == "missing"
    assert rows[("flows/goodput_bps", "chain/1/f")]["status"] == "fail"
    assert rows[("flows/goodput_bps", "chain/2/f")]["status"] == "fail"
    assert rows[("flows/delay_mean_s", "chain/1/f")]["status"] == "fail"  # NaN stored, a value fresh
    assert rows[("flows/delay_mean_s", "chain/2/f")]["status"] == "fail"  # a value stored, NaN fresh
    _tables(repo / "fresh" / "chain", runs, stored)
    rows = {(r["metric"], r["group"]): r for r in reproduce.check_quick(study, str(repo / "fresh"))}
    assert rows[("flows/delay_mean_s", "chain/1/f")]["status"] == "pass"  # NaN in both
    assert all(r["status"] == "pass" for k, r in rows.items() if k[0] != "runs/no_such_metric")
    # A parameter a point leaves unset (null) groups with the fresh rows null there, a value with
    # the same value; a group key the fresh tables lack matches no fresh row.
    quick_dir = repo / "scenarios" / "tiny" / "reproduction" / "data" / "quick" / "chain"
    with_parameter = dict(stored, **{"/mac/cw_min": [None, None, 15, 15]})
    _tables(quick_dir, runs, with_parameter)
    _tables(repo / "fresh" / "chain", runs, dict(with_parameter, goodput_bps=[100.0, 100.0, 900.0, 900.0]))
    rows = {(r["metric"], r["group"]): r for r in reproduce.check_quick(study, str(repo / "fresh"))}
    assert rows[("flows/goodput_bps", "chain/nan/1/f")]["status"] == "pass"
    assert rows[("flows/goodput_bps", "chain/15.0/2/f")]["status"] == "fail"
    _tables(repo / "fresh" / "chain", runs, stored)
    rows = {(r["metric"], r["group"]): r for r in reproduce.check_quick(study, str(repo / "fresh"))}
    assert rows[("flows/goodput_bps", "chain/nan/1/f")]["reason"] == "no fresh run of this group"
    _tables(quick_dir, runs, stored)
    # --experiments: only those run are compared (another experiment has no fresh runs).
    (exp.parent / "other.json").write_text(json.dumps({"scenario": "../chain.json", "seeds": 1}))
    study = reproduce.studies(repo)["tiny"]
    assert study.experiments == ("chain", "other")
    assert {r["experiment"] for r in reproduce.check_quick(study, str(repo / "fresh"), ["chain"])} == {"chain"}


def test_a_claim_the_runs_no_longer_support_fails_the_report(repo, capsys):
    sys.path.insert(0, str(ROOT / "scripts"))
    from doc_blocks import Report

    doc = repo / "docs" / "reproductions" / "tiny.md"
    doc.write_text("# Tiny\n\nA starves.\n")
    for holds, code in ((True, 0), (False, 2)):
        report = Report("tiny", argv=["--root", str(repo), "--doc", str(doc), "--check"])
        report.claim(holds, "A starves")
        assert report.finish() == code
    assert "a claim the stored runs no longer support: A starves" in capsys.readouterr().err


def test_stored_runs_of_other_scenarios_fail_the_check(repo, capfd):
    assert _command(repo) == 0
    study = reproduce.studies(repo)["tiny"]
    assert reproduce.stale_runs(study) == []
    assert _command(repo, report_only=True, check=True) == 0
    scenario = repo / "scenarios" / "tiny" / "chain.json"
    doc = json.loads(scenario.read_text())
    doc["description"] = "another text"  # not a change of the runs
    scenario.write_text(json.dumps(doc))
    assert reproduce.stale_runs(study) == []
    doc["mac"]["cw_min"] = 64  # a change of the runs: the stored ones are stale
    scenario.write_text(json.dumps(doc))
    assert [n for n, _ in reproduce.stale_runs(study)] == ["chain"]
    capfd.readouterr()
    assert _command(repo, report_only=True, check=True) == 3
    assert "tiny/chain: the stored runs were made from other scenarios" in capfd.readouterr().err
    assert _command(repo) == 0  # run again: the new runs are stored and the check passes
    assert _command(repo, report_only=True, check=True) == 0


def test_a_table_the_experiment_does_not_declare_is_an_error_not_an_empty_frame(repo):
    exp = repo / "scenarios" / "tiny" / "reproduction" / "chain.json"
    exp.write_text(json.dumps({"scenario": "../chain.json", "set": {"/simulation/duration_s": 1}, "seeds": 1,
                               "tables": ["runs", "flows"], "keep": ["controllers"]}))
    assert _command(repo) == 0
    data = reproduce.ExperimentData(str(repo / "scenarios" / "tiny" / "reproduction" / "data" / "chain"), str(repo))
    assert len(data.flows) == 2
    # declared, but no run had a controller: an empty table, as the run gave
    assert data.controllers.empty
    with pytest.raises(KeyError, match="'nodes'.*declares controllers, flows, runs"):
        data.nodes
    with pytest.raises(KeyError, match="'flow'"):
        data.table("flow")
    # report code shared by experiments that keep different tables asks for it explicitly
    assert data.optional("nodes").empty and len(data.optional("flows")) == 2


def test_an_experiment_may_keep_the_routing_protocols_totals(repo):
    # The flagship chain under AODV (docs/aodv.md): its RREQs, RREPs and RERRs are frames
    # on the air, and "keep": ["routing"] stores the results' routing totals, a row a run.
    exp = repo / "scenarios" / "tiny" / "reproduction" / "chain.json"
    exp.write_text(json.dumps({"scenario": "../chain.json", "seeds": 2, "keep": ["routing"],
                               "set": {"/simulation/duration_s": 2, "/routing": {"type": "aodv"}}}))
    assert _command(repo) == 0
    data = reproduce.load_data("tiny", "chain", root=repo)
    routing = data.routing
    assert sorted(routing["seed"]) == [1, 2] and set(routing["routing_type"]) == {"aodv"}
    direct = wmnsim.run(FLAGSHIP, seed=2, overrides={"/simulation/duration_s": 2, "/routing": {"type": "aodv"}})
    total = direct.routing.attrs["total"]
    row = routing[routing["seed"] == 2].iloc[0]
    assert total["discoveries"] > 0 and total["control_frames_sent"] > 0
    for key in ("control_frames_sent", "control_bytes_sent", "rreq_frames", "rrep_frames", "discoveries",
                "discoveries_found", "route_breaks"):
        assert row[key] == total[key], key
    assert row["data_drops.buffer_full"] == total["data_drops"]["buffer_full"]
    # Under static routing there are no routing figures: the declared table is empty.
    exp.write_text(json.dumps({"scenario": "../chain.json", "seeds": 1, "keep": ["routing"],
                               "set": {"/simulation/duration_s": 1}}))
    assert _command(repo) == 0
    assert reproduce.load_data("tiny", "chain", root=repo).routing.empty


def test_an_experiment_may_keep_the_per_hop_tables(repo):
    # "keep": ["hops"] stores each run's per-hop rows (outputs.hops), the run's seed in
    # front, exactly as the run gives them.
    exp = repo / "scenarios" / "tiny" / "reproduction" / "chain.json"
    exp.write_text(json.dumps({"scenario": "../chain.json", "seeds": 2, "keep": ["hops"],
                               "set": {"/simulation/duration_s": 2, "/outputs/hops": True}}))
    assert _command(repo) == 0
    hops = reproduce.load_data("tiny", "chain", root=repo).hops
    assert sorted(set(hops["seed"])) == [1, 2]
    direct = wmnsim.run(FLAGSHIP, seed=2, overrides={"/simulation/duration_s": 2, "/outputs/hops": True}).hops
    stored = hops[hops["seed"] == 2].reset_index(drop=True)
    for column in ("flow", "direction", "node", "originated", "forwarded", "delivered", "drops"):
        assert stored[column].tolist() == direct[column].tolist(), column


def test_keep_names_only_the_tables_there_are(repo, capsys):
    exp = repo / "scenarios" / "tiny" / "reproduction" / "chain.json"
    exp.write_text(json.dumps({"scenario": "../chain.json", "seeds": 1, "keep": ["routes"]}))
    assert _command(repo) == 2
    assert ('"controllers", "routing", "hops", "attempts", "losses", "overlaps", "gaps" and "timeseries:<kind>"'
            in capsys.readouterr().err)


def test_an_experiment_may_keep_the_attempts_by_backoff_stage(repo, capsys, tmp_path):
    # "keep": ["attempts"] stores each run's attempts and failures per contention window, from the
    # event trace the sweep writes into the run's folder: what attempts_by_window gives for the same
    # run made directly. Without an event trace it is exit 2 naming /keep.
    exp = repo / "scenarios" / "tiny" / "reproduction" / "chain.json"
    trace = {"path": "events.bin", "kinds": ["tx_start", "backoff", "retry", "drop", "rx_ok", "rx_fail", "rx_missed",
                                             "nav"]}
    exp.write_text(json.dumps({"scenario": "../chain.json", "seeds": 2,
                               "keep": ["attempts", "losses", "overlaps", "gaps"],
                               "set": {"/simulation/duration_s": 2, "/outputs/event_trace": trace}}))
    assert _command(repo) == 0
    stored = reproduce.load_data("tiny", "chain", root=repo).attempts
    assert sorted(set(stored["seed"])) == [1, 2]
    path = tmp_path / "direct.bin"
    wmnsim.run(FLAGSHIP, seed=2, overrides={"/simulation/duration_s": 2,
                                            "/outputs/event_trace": {**trace, "path": str(path)}})
    want = wmnsim.trace.attempts_by_window(wmnsim.trace.load(path))
    got = stored[stored["seed"] == 2][list(want.columns)].reset_index(drop=True)
    assert not want.empty
    pd.testing.assert_frame_equal(got, want, check_dtype=False)
    # "losses": the frames lost at their receivers by interferer, from the same trace.
    losses = reproduce.load_data("tiny", "chain", root=repo).losses
    want = wmnsim.trace.losses_by_interferer(wmnsim.trace.load(path))
    got = losses[losses["seed"] == 2][list(want.columns)].reset_index(drop=True)
    assert not want.empty
    pd.testing.assert_frame_equal(got, want, check_dtype=False)
    # "overlaps" and "gaps": the attempts by what their frame met, each node's gaps between its frames.
    for table, summary in (("overlaps", wmnsim.trace.attempt_overlaps), ("gaps", wmnsim.trace.tx_gaps)):
        stored = getattr(reproduce.load_data("tiny", "chain", root=repo), table)
        want = summary(wmnsim.trace.load(path))
        got = stored[stored["seed"] == 2][list(want.columns)].reset_index(drop=True)
        assert not want.empty, table
        pd.testing.assert_frame_equal(got, want, check_dtype=False)
    exp.write_text(json.dumps({"scenario": "../chain.json", "seeds": 1, "keep": ["attempts"],
                               "set": {"/simulation/duration_s": 1}}))
    assert _command(repo) == 2
    assert "/keep" in capsys.readouterr().err


@pytest.mark.parametrize("keep, kinds, lacking", [
    ("attempts", None, "no event trace"),
    ("attempts", ["tx_start", "backoff", "retry"], "no drop records"),
    ("losses", ["rx_fail"], "no rx_missed records"),
    ("losses", ["tx_start"], "no rx_fail, rx_missed records"),
    ("overlaps", ["tx_start", "backoff", "retry", "drop", "rx_fail", "rx_missed"], "no rx_ok, nav records"),
    ("gaps", ["backoff"], "no tx_start records")])
def test_keeping_a_trace_summary_without_its_trace_kinds_is_refused_at_load(repo, keep, kinds, lacking):
    # Refused before any run (not stored as an empty table), naming /keep and the kinds to add; the
    # quick variant's set is checked too.
    exp = repo / "scenarios" / "tiny" / "reproduction" / "chain.json"
    trace = {"path": "events.bin", **({"kinds": kinds} if kinds else {})}
    fixed = {"/outputs/event_trace": trace} if kinds else {}
    exp.write_text(json.dumps({"scenario": "../chain.json", "seeds": 1, "keep": [keep], "set": fixed}))
    with pytest.raises(wmnsim.ScenarioError) as e:
        reproduce.load_experiment(exp)
    assert e.value.errors[0].path == "/keep" and lacking in e.value.errors[0].message
    assert ", ".join(reproduce.TRACE_KINDS[keep]) + " kinds" in e.value.errors[0].message
    assert list((repo / "scenarios" / "tiny" / "reproduction").glob("data/*")) == []
    # Every kind (no "kinds" key) is enough; a quick variant that narrows them is refused under /quick/set.
    exp.write_text(json.dumps({"scenario": "../chain.json", "seeds": 1, "keep": [keep],
                               "set": {"/outputs/event_trace": {"path": "events.bin"}},
                               "quick": {"set": {"/outputs/event_trace/kinds": ["nav"]}}}))
    with pytest.raises(wmnsim.ScenarioError) as e:
        reproduce.load_experiment(exp)
    assert "with /quick/set" in e.value.errors[0].message
    exp.write_text(json.dumps({"scenario": "../chain.json", "seeds": 1, "keep": [keep],
                               "set": {"/outputs": {"event_trace": {"path": "events.bin"}}}}))
    assert reproduce.load_experiment(exp).keep == (keep,)


def test_columns_may_restrict_a_kept_table(repo):
    # "columns" names a table of /keep as well as one of /tables: only those columns (and the run keys)
    # are stored; a table neither keeps is refused naming /columns.
    exp = repo / "scenarios" / "tiny" / "reproduction" / "chain.json"
    exp.write_text(json.dumps({"scenario": "../chain.json", "seeds": 1, "keep": ["hops"],
                               "columns": {"hops": ["node", "hop", "drops_retry_limit"]},
                               "set": {"/simulation/duration_s": 1, "/outputs/hops": True}}))
    assert _command(repo) == 0
    hops = reproduce.load_data("tiny", "chain", root=repo).hops
    assert list(hops.columns) == ["scenario", "seed", "topology_seed", "node", "hop", "drops_retry_limit"]
    assert not hops.empty
    exp.write_text(json.dumps({"scenario": "../chain.json", "seeds": 1, "tables": ["runs"],
                               "columns": {"hops": ["node"]}}))
    with pytest.raises(wmnsim.ScenarioError) as e:
        reproduce.load_experiment(exp)
    assert e.value.errors[0].path == "/columns"


def test_sample_history_gives_the_value_at_each_multiple_of_the_interval():
    # A step function: 0.1 from 0 s, 0.12 from 1.3 s, 0.144 from 1.8 s, back to 0.12 at 2.0 s
    # (so at 2 s the change at that very instant counts), 0.2 from 2.4 s and 0.1 from 2.6 s.
    series = [[0.0, 0.1], [1.3, 0.12], [1.8, 0.144], [2.0, 0.12], [2.4, 0.2], [2.6, 0.1], [4.2, 0.3]]
    # At 1 s: 0.1 at 0 and 1 s; 0.12 at 2 s (the change at that very instant counts, and 1.8 s's 0.144,
    # undone by then, does not show); 0.1 at 3 and 4 s (2.4 s's 0.2 lasts less than an interval);
    # 0.3 at 5 s, the first multiple at or after the last change, where it ends.
    assert reproduce.sample_history(series, 1.0) == [[0.0, 0.1], [2.0, 0.12], [3.0, 0.1], [5.0, 0.3]]
    # A history that starts later holds its first value before it (as the report's step functions read it).
    assert reproduce.sample_history([[0.5, 0.2], [0.7, 0.4]], 0.25) == [[0.0, 0.2], [0.75, 0.4]]
    assert reproduce.sample_history([[0.0, 0.1]], 1.0) == [[0.0, 0.1]]
    assert reproduce.sample_history([], 1.0) == []
    # An interval binary floating point does not hold exactly: a change at 0.9 is at
    # the instant 0.9 (3 x 0.3), not at the next one.
    assert reproduce.sample_history([[0.0, 1.0], [0.9, 2.0]], 0.3) == [[0.0, 1.0], [0.9, 2.0]]
    # Sampling a sampled history again at the same interval changes nothing.
    once = reproduce.sample_history(series, 0.5)
    assert once == [[0.0, 0.1], [1.5, 0.12], [2.5, 0.2], [3.0, 0.1], [4.5, 0.3]]
    assert reproduce.sample_history(once, 0.5) == once


def test_an_experiment_may_store_its_controllers_histories_sampled(repo):
    # 004's Fig. 2 under LSCC: B and C raise D at each renewal, at instants that are no
    # multiples of a second. With "history_interval_s": 1 the stored D history is the
    # run's sampled at every second, and provenance.json records the interval.
    shutil.copy(ROOT / "scenarios" / "fu2009" / "congestion_control_collision.json",
                repo / "scenarios" / "tiny" / "fig2.json")
    exp = repo / "scenarios" / "tiny" / "reproduction" / "chain.json"
    overrides = {"/simulation/duration_s": 6, "/controllers": [{"type": "lscc"}]}
    exp.write_text(json.dumps({"scenario": "../fig2.json", "seeds": 1, "set": overrides, "tables": ["runs", "flows"],
                               "keep": ["controllers"], "history_interval_s": 1}))
    assert _command(repo) == 0
    data = reproduce.load_data("tiny", "chain", root=repo)
    assert data.provenance["history_interval_s"] == 1
    stored = {x["node"]: x["duration_over_time"] for x in json.loads(data.controllers["radios"].iloc[0])}
    direct = wmnsim.run(repo / "scenarios" / "tiny" / "fig2.json", seed=1, overrides=overrides)
    ran = {x["node"]: x["duration_over_time"] for x in direct.controllers[0]["statistics"]["radios"]}
    assert set(stored) == set(ran)
    changed = [n for n in ran if len(ran[n]) > 1]
    assert changed, "the run should raise D somewhere"
    for node, series in ran.items():
        assert stored[node] == reproduce.sample_history(series, 1.0), node
        assert all(float(t).is_integer() for t, _ in stored[node])
    # The run's own instants are no multiples of a second: what is stored is not the history as run.
    assert any(stored[n] != ran[n] for n in changed)


def test_history_interval_s_needs_a_positive_interval_and_kept_controllers(repo):
    exp = repo / "scenarios" / "tiny" / "reproduction" / "chain.json"
    for bad, why in ((0, "must be a number of seconds > 0"), ("1", "must be a number of seconds > 0"),
                     (True, "must be a number of seconds > 0")):
        exp.write_text(json.dumps({"scenario": "../chain.json", "seeds": 1, "keep": ["controllers"],
                                   "history_interval_s": bad}))
        with pytest.raises(wmnsim.ScenarioError, match="/history_interval_s.*" + why):
            reproduce.load_experiment(exp)
    exp.write_text(json.dumps({"scenario": "../chain.json", "seeds": 1, "history_interval_s": 1}))
    with pytest.raises(wmnsim.ScenarioError, match='/history_interval_s.*add "controllers" to /keep'):
        reproduce.load_experiment(exp)


def _set_seeds(repo, seeds, **extra):
    path = repo / "scenarios" / "tiny" / "reproduction" / "chain.json"
    doc = json.loads(path.read_text())
    doc["seeds"] = seeds
    doc.update(extra)
    path.write_text(json.dumps(doc))


def _stored(repo, table):
    df = pd.read_parquet(repo / "scenarios" / "tiny" / "reproduction" / "data" / "chain" / f"{table}.parquet")
    return df.sort_values([c for c in ("seed", "flow_id", "node_id", "radio_id") if c in df.columns]).reset_index(drop=True)


def test_add_seeds_runs_only_the_new_seeds_and_stores_what_a_full_run_would(repo, capsys, tmp_path):
    assert _command(repo) == 0  # seeds 1, 2
    before = _stored(repo, "flows")
    _set_seeds(repo, [1, 2, 3])
    assert _command(repo, report_only=True, check=True) == 3  # stale, and says how to add only the seed
    assert "--experiments chain --add-seeds`, the file only adds seeds" in capsys.readouterr().err
    assert reproduce.run_command("tiny", root=str(repo), output=str(repo / "work"), workers=2, no_plot=True,
                                 add_seeds=True) == 0  # embedded clusters
    assert "seeds added" in capsys.readouterr().err
    data = reproduce.load_data("tiny", "chain", root=repo)
    assert sorted(data.runs["seed"]) == [1, 2, 3] and data.provenance["runs"] == 3
    assert reproduce.stale_runs(reproduce.studies(repo)["tiny"]) == []
    # Seeds 1 and 2 are the stored rows; only seed 3 ran (the work folder holds the
    # witness run apart from the runs).
    pd.testing.assert_frame_equal(_stored(repo, "flows").query("seed < 3").reset_index(drop=True), before)
    runs = repo / "work" / "tiny" / "full" / "chain" / "chain" / "runs"
    assert len(list(runs.iterdir())) == 3  # seeds 1 and 2 from the first command, 3 from this one
    # Everything a full run of the three seeds stores, row for row.
    added = {t: _stored(repo, t) for t in ("runs", "flows", "nodes", "radios")}
    shutil.rmtree(repo / "scenarios" / "tiny" / "reproduction" / "data")
    assert reproduce.run_command("tiny", root=str(repo), output=str(tmp_path / "fresh"), workers=2, no_plot=True) == 0
    for t, df in added.items():
        pd.testing.assert_frame_equal(df, _stored(repo, t), check_dtype=False)
    # Nothing to add: nothing runs, nothing changes.
    folder = repo / "scenarios" / "tiny" / "reproduction" / "data" / "chain"
    stored = {p.name: p.read_bytes() for p in folder.iterdir()}
    assert _command(repo, add_seeds=True) == 0
    assert "every seed of the file is stored already" in capsys.readouterr().err
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == stored


def test_add_seeds_refuses_runs_of_another_experiment_or_another_build(repo, capsys):
    assert _command(repo) == 0
    _set_seeds(repo, [1, 2, 3], set={"/simulation/duration_s": 3})  # other runs, not only more seeds
    assert _command(repo, add_seeds=True) == 2
    assert "other scenarios or points" in capsys.readouterr().err
    _set_seeds(repo, [1], set={"/simulation/duration_s": 2})
    assert _command(repo, add_seeds=True) == 2
    assert "no longer lists" in capsys.readouterr().err
    # A stored run this build does not reproduce (as after a model change): exit 3.
    _set_seeds(repo, [1, 2, 3])
    path = repo / "scenarios" / "tiny" / "reproduction" / "data" / "chain" / "runs.parquet"
    runs = pd.read_parquet(path)
    column = "total_goodput_bps"
    runs.loc[runs["seed"] == 1, column] += 1.0
    runs.to_parquet(path, index=False)
    assert _command(repo, add_seeds=True) == 3
    err = capsys.readouterr().err
    assert "does not reproduce the stored runs" in err and column in err
    assert sorted(pd.read_parquet(path)["seed"]) == [1, 2]  # nothing stored


def test_add_seeds_twice_over_a_column_the_older_runs_lack(repo, capsys):
    # The stored runs as an older build stored them, without one column.
    assert _command(repo) == 0
    path = repo / "scenarios" / "tiny" / "reproduction" / "data" / "chain" / "runs.parquet"
    pd.read_parquet(path).drop(columns=["jain_fairness_index"]).to_parquet(path, index=False)
    _set_seeds(repo, [1, 2, 3])
    assert _command(repo, add_seeds=True) == 0
    runs = _stored(repo, "runs")
    assert runs["jain_fairness_index"].isna().tolist() == [True, True, False]  # null where it was not stored
    # Again: the witness (seed 1) leaves aside what its stored row does not hold.
    _set_seeds(repo, [1, 2, 3, 4])
    assert _command(repo, add_seeds=True) == 0
    assert sorted(_stored(repo, "runs")["seed"]) == [1, 2, 3, 4]
    assert "seeds added: {'chain.json': [4]}" in capsys.readouterr().err


def test_add_seeds_witnesses_every_point_whatever_keys_they_set(repo, capsys):
    _set_seeds(repo, 1, points=[{"/simulation/duration_s": 1}, {"/mac/cw_min": 64}])
    assert _command(repo) == 0
    _set_seeds(repo, 2, points=[{"/simulation/duration_s": 1}, {"/mac/cw_min": 64}])
    assert _command(repo, add_seeds=True) == 0
    runs = _stored(repo, "runs")
    assert sorted(runs["seed"]) == [1, 1, 2, 2]
    # The witness ran both points again (its own folder, emptied before each use).
    witness = repo / "work" / "tiny" / "witness" / "chain" / "runs" / "chain" / "runs"
    assert len(list(witness.iterdir())) == 2
    # A changed point is another experiment.
    _set_seeds(repo, 3, points=[{"/simulation/duration_s": 1}, {"/mac/cw_min": 128}])
    assert _command(repo, add_seeds=True) == 2
    assert "other scenarios or points" in capsys.readouterr().err


def test_add_seeds_is_for_full_runs_only(repo, capsys):
    assert _command(repo, add_seeds=True, quick=True) == 2
    assert _command(repo, add_seeds=True, report_only=True) == 2
    assert "not with --quick or --report-only" in capsys.readouterr().err
    assert _command(repo, add_seeds=True) == 2  # nothing stored yet
    assert "no stored runs to add seeds to" in capsys.readouterr().err


def test_add_seeds_stores_integers_the_older_runs_lack_as_nullable_integers(repo):
    # An integer column an older build did not store: the added runs' integers stay
    # integers in the file (null in the older rows), not doubles.
    assert _command(repo) == 0
    path = repo / "scenarios" / "tiny" / "reproduction" / "data" / "chain" / "runs.parquet"
    runs = pd.read_parquet(path)
    column = next(c for c, t in runs.dtypes.items() if t.kind == "i" and c not in reproduce.KEY_COLUMNS)
    runs.drop(columns=[column]).to_parquet(path, index=False)
    _set_seeds(repo, [1, 2, 3])
    assert _command(repo, add_seeds=True) == 0
    import pyarrow.parquet as pq
    assert str(pq.read_schema(path).field(column).type) == "int64"
    assert _stored(repo, "runs")[column].isna().tolist() == [True, True, False]


def test_add_seeds_refuses_a_file_whose_tables_or_columns_changed(repo, capsys):
    exp = repo / "scenarios" / "tiny" / "reproduction" / "chain.json"
    _set_seeds(repo, [1, 2], tables=["runs", "flows"], columns={"flows": ["goodput_bps"]})
    assert _command(repo) == 0
    # A column the stored rows were cut without: the older runs never held it.
    _set_seeds(repo, [1, 2, 3], columns={"flows": ["goodput_bps", "delivered_packets"]})
    assert _command(repo, add_seeds=True) == 2
    err = capsys.readouterr().err
    assert "/columns/flows names delivered_packets" in err and "does not hold" in err
    # A table the stored runs do not have at all.
    _set_seeds(repo, [1, 2, 3], tables=["runs", "flows", "nodes"], columns={"flows": ["goodput_bps"]})
    assert _command(repo, add_seeds=True) == 3
    assert "store a nodes.parquet table that the stored runs lack" in capsys.readouterr().err
    assert sorted(_stored(repo, "runs")["seed"]) == [1, 2]  # nothing added
    assert exp.exists()
