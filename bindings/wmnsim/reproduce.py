"""Reproductions of the five studies: every experiment is data, every number comes
from stored runs (docs/reproduce.md).

A study lives in ``scenarios/<folder>/reproduction/``:

- ``study.json``: its short name (``starvation``, ``gateway``, ``edca``, ``wccp``,
  ``mesh-congestion``), the paper, the reproduction doc and its report script;
- one *experiment* per other ``*.json`` file: a sweep spec (docs/sweeps.md) that may
  list several scenarios (``"scenarios"``), fix overrides for all its points
  (``"set"``), keep controller statistics, routing figures or time series
  (``"keep"``), and say what
  its short CI variant changes (``"quick"``);
- ``data/<experiment>/`` (and ``data/quick/<experiment>/``): the runs' per-run,
  per-flow, per-node and per-radio rows as Parquet tables, with ``provenance.json``
  (the commits that ran them). These are kept in the repository: the report script
  of a study reads only them, so a doc regenerates without a single run.

``wmnsim reproduce STUDY`` runs every experiment on the sweep engine (resumable:
runs already in the work folder are skipped), stores the tables, and runs the
report script, which rewrites the doc's generated blocks and figures.
``--quick`` runs the short variants into the work folder, checks them against the
stored quick tables with the bands of docs/references.md, and renders a copy of
the doc there (the repository's doc is left alone).
"""
from __future__ import annotations

import contextlib
import dataclasses
import difflib
import hashlib
import itertools
import json
import math
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Mapping
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

from ._errors import ScenarioError, ValidationIssue
from .scenario import Scenario

__all__ = ["runs_digest", "stale_runs", "seeds_to_add", "check_witness", "sample_history", "Study", "Experiment", "ExperimentData", "studies", "find_root", "load_experiment", "load_data",
           "run_study", "collect", "check_quick", "render", "run_command"]

PathLike = Union[str, "os.PathLike[str]"]

STUDY_FILE = "study.json"
FOLDER = "reproduction"  # scenarios/<folder>/reproduction/
DATA = "data"
QUICK = "quick"
PROVENANCE = "provenance.json"
TABLES = ("runs", "flows", "nodes", "radios")
EXPERIMENT_KEYS = ("description", "scenario", "scenarios", "grid", "points", "seeds", "topology_seeds", "set", "keep",
                   "tables", "columns", "history_interval_s", "quick")
# A controller's statistics name a history (a step function, [[time_s, value], ...]) "<what>_over_time".
HISTORY_SUFFIX = "_over_time"
# The columns a stored table always keeps with "columns": what tells its runs apart.
KEY_COLUMNS = ("scenario", "seed", "topology_seed", "flow_id", "node_id", "radio_id")
# The extra tables "keep" names as they are (the time series are "timeseries:<kind>").
KEEP_TABLES = ("controllers", "routing", "hops", "attempts", "losses", "overlaps", "gaps")
QUICK_KEYS = ("scenario", "scenarios", "grid", "points", "seeds", "topology_seeds", "set", "checks")
STUDY_KEYS = ("study", "paper", "title", "doc", "report", "experiments")
# Columns a stored table leaves out: they change from one build or machine to the next
# (the run key hashes the wmnsim version) and say nothing about the network.
VOLATILE = ("run_key", "point_key", "wall_time_s", "events_per_s", "wmnsim_version", "wmnsim_commit")
# The default checks of a quick variant against the stored quick tables (docs/references.md bands).
# No "ci": the fresh quick runs have the stored ones' seeds, so the seeds' spread is not the
# uncertainty of the comparison, and with a few seeds its t-band lets almost anything pass.
DEFAULT_CHECKS = (
    {"table": "runs", "metric": "total_goodput_bps", "tolerance": {"relative": 0.05}},
    {"table": "runs", "metric": "jain_fairness_index", "tolerance": {"absolute": 0.05}},
    {"table": "flows", "metric": "goodput_bps", "tolerance": {"relative": 0.1, "absolute": 2000}},
)
EXIT_OK, EXIT_INTERNAL, EXIT_INVALID, EXIT_OUTSIDE, EXIT_INTERRUPTED = 0, 1, 2, 3, 130


# ---- the repository, its studies and their experiments -------------------------------------


def find_root(start: Optional[PathLike] = None) -> str:
    """The repository root: the first folder from ``start`` (default: the current
    one) upwards that holds ``scenarios/`` and ``docs/reproductions/``."""
    here = os.path.abspath(os.fspath(start) if start is not None else os.getcwd())
    while True:
        if os.path.isdir(os.path.join(here, "scenarios")) and os.path.isdir(os.path.join(here, "docs", "reproductions")):
            return here
        parent = os.path.dirname(here)
        if parent == here:
            raise FileNotFoundError("not inside a wmnsim repository (no scenarios/ and docs/reproductions/ "
                                    "above the current folder): run from the repository, or give --root")
        here = parent


@dataclasses.dataclass(frozen=True)
class Study:
    name: str  # the short name: wmnsim reproduce NAME
    paper: str
    title: str
    folder: str  # scenarios/<folder>/reproduction, absolute
    doc: str  # the reproduction doc, absolute
    report: str  # the report script, absolute
    experiments: Tuple[str, ...]  # experiment names, in the order the study lists them
    root: str

    def experiment_path(self, name: str) -> str:
        return os.path.join(self.folder, f"{name}.json")

    def data_dir(self, quick: bool = False) -> str:
        return os.path.join(self.folder, DATA, QUICK) if quick else os.path.join(self.folder, DATA)

    def relative(self, path: str) -> str:
        return os.path.relpath(path, self.root)


def _read_json(path: str, what: str) -> Any:
    """Reads a study's JSON file as the command line reads a scenario; its messages call
    it what it is (`what`: "study file", "experiment file"), not a scenario file."""
    from . import _core

    try:
        _core.check_json_file(path, what)  # line and column, duplicate keys
    except ScenarioError as e:
        raise e.with_source(path) from None
    with open(path, encoding="utf-8-sig") as f:
        return json.load(f)


def _unknown_keys(doc: Mapping[str, Any], allowed: Sequence[str], where: str) -> List[ValidationIssue]:
    issues = []
    for key in doc:
        if key not in allowed:
            close = difflib.get_close_matches(key, allowed, n=1)
            hint = f' (did you mean "{close[0]}"?)' if close else ""
            issues.append(ValidationIssue(f"{where}/{key}", f"unknown key{hint}; allowed: {', '.join(allowed)}"))
    return issues


def _load_study(root: str, path: str) -> Study:
    doc = _read_json(path, "study file")
    if not isinstance(doc, dict):
        raise ScenarioError(errors=[("", "a study file must be a JSON object")], source=path)
    issues = _unknown_keys(doc, STUDY_KEYS, "")
    for key in ("study", "paper", "doc", "report"):
        if not isinstance(doc.get(key), str) or not doc.get(key):
            issues.append(ValidationIssue(f"/{key}", "missing: a non-empty string"))
    folder = os.path.dirname(os.path.abspath(path))
    listed = doc.get("experiments")
    if listed is None:
        names = sorted(f[:-5] for f in os.listdir(folder) if f.endswith(".json") and f != STUDY_FILE)
    elif isinstance(listed, list) and all(isinstance(x, str) for x in listed):
        names = list(listed)
        for i, name in enumerate(names):
            if not os.path.isfile(os.path.join(folder, f"{name}.json")):
                issues.append(ValidationIssue(f"/experiments/{i}", f"no experiment file {name}.json in {folder}"))
            elif name in names[:i]:  # its runs would go twice to one work folder
                issues.append(ValidationIssue(f"/experiments/{i}", f"{name} is listed twice; remove one"))
    else:
        issues.append(ValidationIssue("/experiments", "must be a list of experiment names (files NAME.json here)"))
        names = []
    if issues:
        raise ScenarioError(errors=issues, source=path)
    return Study(doc["study"], doc["paper"], doc.get("title", ""), folder, os.path.join(root, doc["doc"]),
                 os.path.join(root, doc["report"]), tuple(names), root)


def studies(root: Optional[PathLike] = None) -> Dict[str, Study]:
    """Every study of the repository (``scenarios/*/reproduction/study.json``), by short name."""
    root = find_root(root)
    found: Dict[str, Study] = {}
    scenarios = os.path.join(root, "scenarios")
    for folder in sorted(os.listdir(scenarios)):
        path = os.path.join(scenarios, folder, FOLDER, STUDY_FILE)
        if os.path.isfile(path):
            s = _load_study(root, path)
            if s.name in found:
                raise ScenarioError(errors=[("/study", f'"{s.name}" is also the name of {found[s.name].folder}')],
                                    source=path)
            found[s.name] = s
    return found


@dataclasses.dataclass(frozen=True)
class Experiment:
    """One experiment file, with its quick variant applied when asked."""
    name: str
    path: str
    description: str
    scenarios: Tuple[str, ...]  # absolute paths
    grid: Optional[Dict[str, List[Any]]]
    points: Optional[List[Dict[str, Any]]]
    seeds: Any
    topology_seeds: Any
    fixed: Dict[str, Any]  # "set": overrides of every point
    keep: Tuple[str, ...]  # "controllers", "routing", "hops", "attempts", "losses", "overlaps", "gaps",
    # "timeseries:<kind>"
    checks: Tuple[Dict[str, Any], ...]  # quick only: what the quick check compares
    scenario_seeds: Dict[str, Any] = dataclasses.field(default_factory=dict)  # a scenario's own seeds
    tables: Tuple[str, ...] = TABLES  # which of the standard tables are stored
    checks_given: bool = False  # the quick part states its checks (else the defaults apply)
    columns: Dict[str, Tuple[str, ...]] = dataclasses.field(default_factory=dict)  # per table, the columns stored
    history_interval_s: Optional[float] = None  # the controllers' histories stored at multiples of this (None: as run)

    def seeds_of(self, scenario: str) -> Any:
        """The seeds a scenario runs with: its own (``{"file": ..., "seeds": ...}``) or the experiment's."""
        return self.scenario_seeds.get(scenario, self.seeds)

    def label(self, scenario: str) -> str:
        """A scenario's name in the tables: its file name without .json."""
        return os.path.splitext(os.path.basename(scenario))[0]


# The event-trace kinds each trace summary of "keep" reads (wmnsim.trace.attempts_by_window,
# losses_by_interferer, attempt_overlaps, tx_gaps), and the summary.
TRACE_KINDS = {"attempts": ("tx_start", "backoff", "retry", "drop"), "losses": ("rx_fail", "rx_missed"),
               "overlaps": ("tx_start", "backoff", "retry", "drop", "rx_ok", "rx_fail", "rx_missed", "nav"),
               "gaps": ("tx_start",)}
TRACE_SUMMARIES = {"attempts": "attempts_by_window", "losses": "losses_by_interferer",
                   "overlaps": "attempt_overlaps", "gaps": "tx_gaps"}


def _event_trace_section(scenario_path: str, fixed: Mapping[str, Any]) -> Any:
    """The scenario file's outputs.event_trace with the experiment's ``set`` applied (the keys
    that reach it: /outputs, /outputs/event_trace, /outputs/event_trace/kinds), or None."""
    try:
        with open(scenario_path, encoding="utf-8") as f:
            section = (json.load(f).get("outputs") or {}).get("event_trace")
    except (OSError, ValueError, AttributeError):
        return None  # the sweep reports a broken scenario file
    for key in sorted((k for k in fixed if k == "/outputs" or k.startswith("/outputs/event_trace")), key=len):
        value = fixed[key]
        if key == "/outputs":
            section = value.get("event_trace") if isinstance(value, dict) else None
        elif key == "/outputs/event_trace":
            section = value
        elif key == "/outputs/event_trace/kinds" and isinstance(section, dict):
            section = {**section, "kinds": value}
    return section


def _trace_issues(keep: Sequence[str], scenario_paths: Sequence[str], doc: Mapping[str, Any],
                  quick_doc: Mapping[str, Any]) -> List[ValidationIssue]:
    """A trace summary in ``keep`` needs every run to write an event trace with the kinds it reads:
    checked before any run, not found out by an empty table after them. Experiments whose grid or
    points change /outputs are checked per run instead (by _kept_tables)."""
    issues: List[ValidationIssue] = []
    fixed = doc.get("set", {})
    variants = [("", fixed)]
    if isinstance(quick_doc.get("set"), dict):
        variants.append(("/quick", {**fixed, **quick_doc["set"]}))
    varied = [k for spec in (doc, quick_doc) for part in (spec.get("grid"), *(spec.get("points") or []))
              if isinstance(part, dict) for k in part if str(k).startswith("/outputs")]
    for k in keep:
        if k not in TRACE_KINDS or varied:
            continue
        need = TRACE_KINDS[k]
        for where, values in variants:
            for p in scenario_paths:
                section = _event_trace_section(p, values)
                kinds = section.get("kinds") if isinstance(section, dict) else None
                if not isinstance(section, dict):
                    lacking: Sequence[str] = need
                else:
                    lacking = [x for x in need if isinstance(kinds, list) and x not in kinds]
                if lacking:
                    what = "no event trace" if not isinstance(section, dict) else f"no {', '.join(lacking)} records"
                    issues.append(ValidationIssue("/keep", f'"{k}" reads each run\'s event trace, and '
                                                           f'{os.path.basename(p)} with {where}/set writes '
                                                           f'{what}: set /outputs/event_trace with the '
                                                           f'{", ".join(need)} kinds'))
                    break
    return issues


def load_experiment(path: PathLike, quick: bool = False) -> Experiment:
    """Reads an experiment file; with ``quick``, its ``"quick"`` keys replace the
    spec's (``set`` is merged into the spec's). Raises ScenarioError naming the JSON
    path of each problem; the points themselves are checked by the sweep."""
    path = os.path.abspath(os.fspath(path))
    doc = _read_json(path, "experiment file")
    if not isinstance(doc, dict):
        raise ScenarioError(errors=[("", "an experiment must be a JSON object (a sweep spec, docs/reproduce.md)")],
                            source=path)
    issues = _unknown_keys(doc, EXPERIMENT_KEYS, "")
    if ("scenario" in doc) == ("scenarios" in doc):
        issues.append(ValidationIssue("/scenarios", 'give "scenario" (one file) or "scenarios" (a list of files)'))
    tables = doc.get("tables", list(TABLES))
    if not isinstance(tables, list) or not tables or not all(t in TABLES for t in tables):
        issues.append(ValidationIssue("/tables", f"must be a non-empty list of {', '.join(TABLES)}"))
        tables = list(TABLES)
    keep = doc.get("keep", [])
    if not isinstance(keep, list) or not all(isinstance(k, str) and (k in KEEP_TABLES or k.startswith("timeseries:"))
                                             for k in keep):
        issues.append(ValidationIssue("/keep", 'must be a list of "controllers", "routing", "hops", "attempts", '
                                                '"losses", "overlaps", "gaps" and "timeseries:<kind>"'))
        keep = []
    kept = [kept_table_name(k) for k in keep]
    columns = doc.get("columns", {})
    if not isinstance(columns, dict) or not all(
            (t in tables or t in kept) and isinstance(c, list) and c and all(isinstance(x, str) and x for x in c)
            for t, c in columns.items()):
        issues.append(ValidationIssue("/columns", "must map stored tables (of /tables or /keep) to non-empty lists "
                                                  "of column names: only those, the points' columns and the run keys "
                                                  "are stored"))
        columns = {}
    quick_doc = doc.get("quick", {})
    # A quick variant may run other scenarios (a few of a long list).
    source = quick_doc if quick and isinstance(quick_doc, dict) and ("scenario" in quick_doc
                                                                      or "scenarios" in quick_doc) else doc
    prefix = "/quick" if source is not doc else ""
    files = [source["scenario"]] if "scenario" in source else source.get("scenarios")
    where = prefix + ("/scenario" if "scenario" in source else "/scenarios")
    scenario_paths: List[str] = []
    scenario_seeds: Dict[str, Any] = {}
    # An entry is a file, or {"file": ..., "seeds": ...}: that scenario with its own seeds.
    if not isinstance(files, list) or not files or not all(
            (isinstance(f, str) and f) or (isinstance(f, dict) and isinstance(f.get("file"), str) and f["file"]
                                          and "seeds" in f and set(f) <= {"file", "seeds"}) for f in files):
        issues.append(ValidationIssue(where, "must be scenario file paths, relative to the experiment file, or "
                                             '{"file": PATH, "seeds": SEEDS}'))
    else:
        for i, f in enumerate(files):
            name = f if isinstance(f, str) else f["file"]
            p = os.path.normpath(os.path.join(os.path.dirname(path), name))
            if not os.path.isfile(p):
                issues.append(ValidationIssue(f"{where}/{i}" if "scenarios" in source else where,
                                              f"no such file: {p}"))
            scenario_paths.append(p)
            if isinstance(f, dict):
                scenario_seeds[p] = f["seeds"]
        stems = [os.path.splitext(os.path.basename(p))[0] for p in scenario_paths]
        for i, s in enumerate(stems):
            if stems.index(s) != i:
                issues.append(ValidationIssue(f"{where}/{i}", f'a second scenario named "{s}": names must differ'))
    if "seeds" not in doc:
        issues.append(ValidationIssue("/seeds", "missing: a list of seeds, or a count N (seeds 1..N)"))
    fixed = doc.get("set", {})
    if not isinstance(fixed, dict):
        issues.append(ValidationIssue("/set", "must be an object of JSON pointer -> value"))
        fixed = {}
    history_interval = doc.get("history_interval_s")
    if history_interval is not None:
        if isinstance(history_interval, bool) or not isinstance(history_interval, (int, float)) \
                or not math.isfinite(history_interval) or history_interval <= 0:
            issues.append(ValidationIssue("/history_interval_s", "must be a number of seconds > 0: the controllers' "
                                                                 "histories are stored at its multiples"))
            history_interval = None
        elif "controllers" not in keep:
            issues.append(ValidationIssue("/history_interval_s", 'samples the controllers\' histories: add "controllers" '
                                                                 'to /keep, or remove this key'))
            history_interval = None
    if not isinstance(quick_doc, dict):
        issues.append(ValidationIssue("/quick", "must be an object"))
        quick_doc = {}
    issues += _unknown_keys(quick_doc, QUICK_KEYS, "/quick")
    checks = quick_doc.get("checks", list(DEFAULT_CHECKS))
    if not isinstance(checks, list) or not all(isinstance(c, dict) and isinstance(c.get("metric"), str)
                                               and c.get("table", "runs") in TABLES + ("routing",)
                                               and isinstance(c.get("tolerance"), dict) for c in checks):
        issues.append(ValidationIssue("/quick/checks", 'must be a list of {"table": "runs"|"flows"|"nodes"|"radios"'
                                                       '|"routing", "metric": NAME, "tolerance": {...}}'))
        checks = []
    if not issues:
        issues += _trace_issues(keep, scenario_paths, doc, quick_doc)
    if issues:
        raise ScenarioError(errors=issues, source=path)
    spec = {k: doc.get(k) for k in ("grid", "points", "seeds", "topology_seeds")}
    if quick:
        for k in ("grid", "points", "seeds", "topology_seeds"):
            if k in quick_doc:
                spec[k] = quick_doc[k]
        if "grid" in quick_doc:
            spec["points"] = None
        if "points" in quick_doc:
            spec["grid"] = None
        fixed = {**fixed, **quick_doc.get("set", {})}
    name = os.path.splitext(os.path.basename(path))[0]
    return Experiment(name, path, str(doc.get("description", "")), tuple(scenario_paths), spec["grid"],
                      spec["points"], spec["seeds"], spec["topology_seeds"], dict(fixed), tuple(keep),
                      tuple(checks) if quick else (), scenario_seeds, tuple(tables), "checks" in quick_doc,
                      {t: tuple(c) for t, c in columns.items()},
                      float(history_interval) if history_interval is not None else None)


# ---- running ---------------------------------------------------------------------------------------


def _sweep_dir(work: str, study: Study, experiment: Experiment, scenario: str, quick: bool) -> str:
    return os.path.join(work, study.name, QUICK if quick else "full", experiment.name, experiment.label(scenario))


def run_study(study: Study, work: str, quick: bool = False, scheduler: Any = None, workers: Optional[int] = None,
              progress: Optional[bool] = None, only: Optional[Sequence[str]] = None,
              seeds: Optional[Mapping[str, Mapping[str, Sequence[int]]]] = None,
              _client: Optional[Callable[[], Any]] = None) -> Dict[str, Dict[str, Any]]:
    """Runs every experiment of ``study`` (or those in ``only``) into ``work``
    (resumable) and returns, per experiment, the SweepData of each scenario.
    ``seeds``: per experiment, per scenario path, the seeds to run instead of the
    file's (:func:`seeds_to_add`); a scenario with none is left out. ``_client``
    (the command line's): gives the client to run on, called only when a run is
    not stored, in place of ``scheduler`` and ``workers``."""
    from .sweep import _check_workers, _prepare, dask_client

    import shutil

    _check_workers(scheduler, workers)
    names = [n for n in study.experiments if only is None or n in only]
    experiments = [load_experiment(study.experiment_path(n), quick) for n in names]
    if quick:
        # Quick runs are cheap and start afresh: a run key names the scenario, seed and
        # version, not the commit, so a stored one could predate a model change.
        for e in experiments:
            shutil.rmtree(os.path.join(work, study.name, QUICK, e.name), ignore_errors=True)
    # Every sweep of the study is planned and its runs handed to the cluster before the
    # first is waited for: a study's sweeps are mostly one or two runs each, and one at a
    # time they left the other workers idle.
    pending: List[Tuple[Experiment, str, Any]] = []
    for e in experiments:
        for scenario in e.scenarios:
            chosen = seeds.get(e.name, {}).get(scenario) if seeds is not None else e.seeds_of(scenario)
            if seeds is not None and not chosen:
                continue
            base = Scenario.from_file(scenario)
            if e.fixed:
                base = Scenario.from_dict(base.with_overrides(e.fixed).to_dict())
            pending.append((e, scenario, _prepare(base, e.grid, points=e.points, seeds=chosen,
                                                  topology_seeds=e.topology_seeds,
                                                  out_dir=_sweep_dir(work, study, e, scenario, quick),
                                                  progress=progress, keep_results=bool(e.keep),
                                                  _spec_source=e.path)))
    out: Dict[str, Dict[str, Any]] = {e.name: {} for e in experiments}

    def finish_all() -> None:
        for e, scenario, p in pending:
            if progress is not False:
                print(f"{study.name}/{e.name}/{e.label(scenario)}", file=sys.stderr, flush=True)
            out[e.name][scenario] = p.finish()

    if not any(p.todo for _, _, p in pending):  # every run stored already: no cluster needed
        finish_all()
        return out
    with (contextlib.nullcontext(_client()) if _client is not None else dask_client(scheduler, workers)) as client:
        try:
            for _, _, p in pending:
                p.submit(client)
            finish_all()
        except BaseException:
            # The runs still out, in one call (the finished ones stay stored); a cluster
            # already gone must not hide why the study stopped.
            try:
                client.cancel([f for _, _, p in pending for f in p.futures])
            except Exception:  # noqa: BLE001
                pass
            raise
    return out


# ---- storing -----------------------------------------------------------------------------------------


def _flat(prefix: str, value: Any, out: Dict[str, Any]) -> None:
    if isinstance(value, Mapping):
        for k, v in value.items():
            _flat(f"{prefix}.{k}" if prefix else str(k), v, out)
    elif isinstance(value, (list, tuple)):
        out[prefix] = json.dumps(value, sort_keys=True, separators=(",", ":"))
    else:
        out[prefix] = value


def sample_history(series: Sequence[Sequence[float]], interval_s: float) -> List[List[float]]:
    """A history (a step function: ``[[time_s, value], ...]`` in time order, each value
    holding from its time on) as its values at the instants 0, interval, 2 interval, ...
    up to the first instant at or after its last change, with a point only where the
    value differs from the previous instant's. The value at an instant includes a change
    at that very time. Read as a step function again, it gives the history's exact value
    at every multiple of the interval and, between them, the value at the multiple
    before; a change is seen at the first multiple at or after it, and one undone before
    the next multiple is not seen."""
    out: List[List[float]] = []
    if not series:
        return out
    last = float(series[-1][0])
    i, value, k = 0, series[0][1], 0
    while True:
        # Rounded as the instants are written: 3 x 0.3 is 0.8999999999999999 in
        # binary, and a change stamped 0.9 belongs to the instant 0.9.
        at = round(k * interval_s, 9)
        while i < len(series) and float(series[i][0]) <= at:
            value = series[i][1]
            i += 1
        if not out or out[-1][1] != value:
            out.append([at, value])
        if at >= last:
            return out
        k += 1


def _sampled_histories(value: Any, interval_s: float) -> Any:
    """A controller's statistics with every ``*_over_time`` history sampled (:func:`sample_history`)."""
    if isinstance(value, Mapping):
        return {k: sample_history(v, interval_s) if k.endswith(HISTORY_SUFFIX) and isinstance(v, list)
                else _sampled_histories(v, interval_s) for k, v in value.items()}
    if isinstance(value, list):
        return [_sampled_histories(v, interval_s) for v in value]
    return value


def _kept_tables(data: Any, keep: Sequence[str],
                 history_interval_s: Optional[float] = None) -> Dict[str, "pandas.DataFrame"]:  # noqa: F821
    """The controller statistics, routing totals, per-hop tables and time series of each run (from its
    results.json); with ``history_interval_s``, the controllers' histories sampled at its multiples."""
    import pandas as pd

    from .result import Result

    front = [c for c in data.runs.columns if c == "run_key" or c in data.parameters
             or c in ("seed", "topology_seed")]
    frames: Dict[str, List[Any]] = {}
    for _, row in data.runs[front].iterrows():
        result = Result.from_json(os.path.join(data.directory, "runs", row["run_key"], "results.json"))
        head = {c: row[c] for c in front}
        for k in keep:
            if k == "controllers":
                rows = []
                for index, c in enumerate(result.controllers):
                    r = dict(head, controller_index=index, controller_id=c.get("id"), controller_type=c.get("type"))
                    statistics = c.get("statistics", {})
                    if history_interval_s is not None:
                        statistics = _sampled_histories(statistics, history_interval_s)
                    _flat("", statistics, r)
                    rows.append(r)
                frames.setdefault("controllers", []).append(pd.DataFrame(rows))
            elif k == "routing":
                # The network's totals of the routing protocol that ran (docs/results.md,
                # `routing`): one row per run; none under static routing, which has no such figures.
                routing = result.routing
                if routing is not None:
                    r = dict(head, routing_type=routing.attrs["type"])
                    _flat("", routing.attrs["total"], r)
                    frames.setdefault("routing", []).append(pd.DataFrame([r]))
            elif k in TRACE_KINDS:
                # Summaries of the run's own event trace (the scenario's outputs.event_trace; the
                # sweep writes it into the run's folder): exchange attempts and failures per
                # contention window (wmnsim.trace.attempts_by_window), or the frames lost at their
                # receivers by interferer (losses_by_interferer), the attempts by what their frame met
                # (attempt_overlaps), each node's idle gaps between its frames (tx_gaps). The trace
                # itself is not stored.
                from . import trace
                from .sweep import EVENT_TRACE_FILE

                path = os.path.join(data.directory, "runs", row["run_key"], EVENT_TRACE_FILE)
                if not os.path.isfile(path):
                    kinds = ", ".join(TRACE_KINDS[k])
                    raise ScenarioError(errors=[("/keep", f'"{k}" reads each run\'s event trace, and run '
                                                          f'{row["run_key"]} wrote none: set /outputs/event_trace '
                                                          f'(with the {kinds} kinds)')])
                summary = getattr(trace, TRACE_SUMMARIES[k])(trace.load(path))
                for c in reversed(front):
                    summary.insert(0, c, head[c])
                frames.setdefault(k, []).append(summary)
            elif k == "hops":
                # The per-hop table (docs/results.md, `hops`) of a run whose scenario asks
                # for it (outputs.hops); none otherwise.
                hops = result.hops
                if hops is not None and not hops.empty:
                    for c in reversed(front):
                        hops.insert(0, c, head[c])
                    frames.setdefault("hops", []).append(hops)
            else:
                kind = k.split(":", 1)[1]
                ts = result.timeseries(kind)
                for c in reversed(front):
                    ts.insert(0, c, head[c])
                frames.setdefault(f"timeseries_{kind}", []).append(ts)
    return {name: pd.concat(parts, ignore_index=True) for name, parts in frames.items()}


def _integers_kept(df: "pandas.DataFrame", parts: Sequence["pandas.DataFrame"]) -> "pandas.DataFrame":  # noqa: F821
    """An integer column that the older runs lack (or that came back from parquet as
    floats, its nulls being NaN) is concatenated as floats: stored as nullable integers
    instead, so the file holds the integers the runs gave (with nulls where not
    recorded), not doubles. Readers without pandas metadata see floats either way.
    (Integers beyond 2^53 would already have been rounded by the floats: no stored
    column holds such, the fingerprints being hex strings.)"""
    for column in df.columns:
        if df[column].dtype.kind != "f":
            continue
        kinds = {p[column].dtype.kind for p in parts if column in p.columns and p[column].notna().any()}
        values = df[column].dropna()
        if "i" in kinds or "u" in kinds:
            if kinds <= {"i", "u", "f"} and bool((values == values.round()).all()):
                df[column] = df[column].astype("Int64")
    return df


def _write_table(df: "pandas.DataFrame", path: str) -> None:  # noqa: F821
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.Table.from_pandas(df.reset_index(drop=True), preserve_index=False)
    # No pandas metadata: the files stay the same for the same rows, whatever pandas wrote them.
    table = table.replace_schema_metadata(None)
    tmp = f"{path}.tmp"
    pq.write_table(table, tmp, compression="zstd", compression_level=9)
    os.replace(tmp, path)


def runs_digest(experiment: Experiment) -> str:
    """A hash of what decides an experiment's runs: each scenario as run (its file with
    the experiment's ``set``, without its ``description``), the grid or points, the
    seeds and topology seeds. Not the experiment's description or quick part, nor the
    build (provenance names the commits). Stored runs whose digest differs from the
    experiment's today were made from something else."""
    scenarios = {}
    for path in experiment.scenarios:
        doc = Scenario.from_file(path)
        doc = doc.with_overrides(experiment.fixed) if experiment.fixed else doc
        plain = {k: v for k, v in doc.to_dict().items() if k != "description"}
        scenarios[experiment.label(path)] = {"scenario": plain, "seeds": experiment.seeds_of(path)}
    what = {"scenarios": scenarios, "grid": experiment.grid, "points": experiment.points,
            "topology_seeds": experiment.topology_seeds}
    text = json.dumps(what, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def collect(study: Study, experiment: Experiment, sweeps: Mapping[str, Any], data_dir: str,
            extend: bool = False) -> Dict[str, Any]:
    """Stores one experiment's runs in ``data_dir/<experiment>/``: per table, every
    run's rows with a ``scenario`` column (the file name) in front and without the
    volatile columns; ``provenance.json`` names the commits and the runs. With
    ``extend``, the runs already stored there are kept and these added after them
    (``--add-seeds``; a column the older runs lack is null in their rows). Returns
    the provenance."""
    import pandas as pd

    tables: Dict[str, List[Any]] = {}
    commits: Dict[str, int] = {}
    out = os.path.join(data_dir, experiment.name)
    stored_runs = 0
    if extend:
        with open(os.path.join(out, PROVENANCE), encoding="utf-8") as f:
            old = json.load(f)
        stored_runs = int(old["runs"])
        commits.update({str(c): int(n) for c, n in old.get("commits", {}).items()})
        for name in sorted(os.listdir(out)):
            if name.endswith(".parquet"):
                tables[name[:-len(".parquet")]] = [pd.read_parquet(os.path.join(out, name))]
    for scenario, data in sweeps.items():
        label = experiment.label(scenario)
        parts = {t: getattr(data, t) for t in experiment.tables}
        if experiment.keep:
            parts.update(_kept_tables(data, experiment.keep, experiment.history_interval_s))
        if "wmnsim_commit" in data.runs.columns:
            for c in data.runs["wmnsim_commit"]:
                commits[str(c)] = commits.get(str(c), 0) + 1
        for name, df in parts.items():
            if df is None or df.empty:
                continue
            df = df.drop(columns=[c for c in VOLATILE if c in df.columns])
            if name in experiment.columns:
                wanted = experiment.columns[name]
                missing = [c for c in wanted if c not in df.columns]
                if missing:
                    raise ScenarioError(errors=[(f"/columns/{name}", f"no column {', '.join(missing)} in the {name} "
                                                                     f"table of {label}'s runs")],
                                        source=experiment.path)
                df = df[[c for c in df.columns if c in wanted or c in KEY_COLUMNS or c.startswith("/")]]
            df.insert(0, "scenario", label)
            tables.setdefault(name, []).append(df)
    os.makedirs(out, exist_ok=True)
    for stale in os.listdir(out):
        if stale.endswith(".parquet"):
            os.remove(os.path.join(out, stale))
    sizes = {}
    for name, parts in tables.items():
        df = pd.concat(parts, ignore_index=True)
        if extend:
            df = _integers_kept(df, parts)
        path = os.path.join(out, f"{name}.parquet")
        _write_table(df, path)
        sizes[name] = os.path.getsize(path)
    from . import _core

    provenance = {
        "study": study.name,
        "experiment": experiment.name,
        "spec": study.relative(experiment.path),
        "spec_sha256": hashlib.sha256(open(experiment.path, "rb").read()).hexdigest()[:16],
        "runs_sha256": runs_digest(experiment),
        "runs": stored_runs + int(sum(len(d.runs) for d in sweeps.values())),
        # Runs stored by a sweep before runs recorded their commit: "unknown", not this build's.
        "commits": commits or {"unknown": stored_runs + int(sum(len(d.runs) for d in sweeps.values()))},
        "wmnsim_version": _core.__version__,
        "tables": sizes,
    }
    if experiment.history_interval_s is not None:  # the report needs it to read the histories alike
        provenance["history_interval_s"] = experiment.history_interval_s
    with open(os.path.join(out, PROVENANCE), "w", encoding="utf-8") as f:
        json.dump(provenance, f, indent=1, sort_keys=True)
        f.write("\n")
    return provenance


def kept_table_name(keep: str) -> str:
    """The stored table a ``keep`` entry makes: ``controllers``, ``routing``, ``timeseries_<kind>``."""
    return keep if keep in KEEP_TABLES else f"timeseries_{keep.split(':', 1)[-1]}"


class ExperimentData:
    """One experiment's stored tables (``runs``, ``flows``, ``nodes``, ``radios``,
    ``controllers``, ``routing``, ``timeseries_<kind>``: pandas DataFrames read on first use) and
    its ``provenance``. ``source`` is the folder, relative to the repository root."""

    def __init__(self, directory: str, root: Optional[str] = None):
        self.directory = directory
        path = os.path.join(directory, PROVENANCE)
        if not os.path.isfile(path):
            raise FileNotFoundError(f"{directory}: no stored runs ({PROVENANCE} missing): "
                                    "run `wmnsim reproduce STUDY` to make them")
        with open(path, encoding="utf-8") as f:
            self.provenance: Dict[str, Any] = json.load(f)
        self.source = os.path.relpath(directory, root) if root else directory
        self._root = root
        self._cache: Dict[str, Any] = {}

    def table(self, name: str) -> "pandas.DataFrame":  # noqa: F821
        if name not in self._cache:
            import pandas as pd
            import pyarrow.parquet as pq

            stored = self.provenance.get("tables", {})
            path = os.path.join(self.directory, f"{name}.parquet")
            if os.path.isfile(path):
                self._cache[name] = pq.read_table(path).to_pandas()
            elif name in stored:
                raise FileNotFoundError(f"{path}: listed in {PROVENANCE} but missing: run the "
                                        "experiment again (`wmnsim reproduce STUDY --experiments NAME`)")
            else:
                # An empty table is not written; a table the experiment does not declare
                # is a mistake in the report (a misspelt name, or a `tables`/`keep` entry
                # missing from the spec), not an empty result: say which there are.
                declared = self._declared_tables()
                if declared is not None and name not in declared:
                    raise KeyError(f"{self.source}: no table {name!r}; the experiment declares "
                                   f"{', '.join(sorted(declared))} (its `tables` and `keep`)")
                self._cache[name] = pd.DataFrame()
        return self._cache[name]

    def optional(self, name: str) -> "pandas.DataFrame":  # noqa: F821
        """Table ``name``, or an empty frame when the experiment does not declare it: for
        report code shared by experiments that keep different tables."""
        declared = self._declared_tables()
        if declared is not None and name not in declared and name not in self.provenance.get("tables", {}):
            import pandas as pd

            return pd.DataFrame()
        return self.table(name)

    def _declared_tables(self) -> Optional[List[str]]:
        """The tables the experiment's spec declares, or None where the spec cannot be read."""
        spec = self.provenance.get("spec")
        if not spec or not self._root:
            return None
        try:
            with open(os.path.join(self._root, spec), encoding="utf-8") as f:
                doc = json.load(f)
        except (OSError, ValueError):
            return None
        names = list(doc.get("tables", list(TABLES)))
        names += [kept_table_name(k) for k in doc.get("keep", [])]
        return names

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_") or name in ("directory", "provenance", "source", "optional"):
            raise AttributeError(name)
        return self.table(name)

    @property
    def commit(self) -> str:
        """The commit that ran most of the runs (all of them, normally)."""
        commits = self.provenance.get("commits", {})
        return max(commits, key=lambda c: commits[c]) if commits else "unknown"

    def stamp(self) -> str:
        """What a generated block says of where its numbers come from."""
        commits = self.provenance.get("commits", {})
        which = ", ".join(sorted(commits)) if commits else "unknown"
        return f"{self.source} ({self.provenance.get('runs', '?')} runs, wmnsim {which})"


def load_data(study: Union[Study, str], experiment: str, quick: bool = False,
              data_dir: Optional[str] = None, root: Optional[PathLike] = None) -> ExperimentData:
    """An experiment's stored tables: from ``data_dir`` when given, else the study's
    ``data/`` (``data/quick/`` with ``quick``)."""
    s = study if isinstance(study, Study) else studies(root)[study]
    base = data_dir if data_dir is not None else s.data_dir(quick)
    return ExperimentData(os.path.join(base, experiment), s.root)


def stale_runs(study: Study, quick: bool = False, only: Optional[Sequence[str]] = None) -> List[Tuple[str, str]]:
    """(experiment, why) for each experiment whose stored runs are not what its files
    ask for today: no stored runs, no recorded digest, or a digest (:func:`runs_digest`)
    that differs, e.g. after an edit of a scenario file it runs."""
    out = []
    for name in study.experiments:
        if only is not None and name not in only:
            continue
        path = os.path.join(study.data_dir(quick), name, PROVENANCE)
        if not os.path.isfile(path):
            out.append((name, "no stored runs"))
            continue
        with open(path, encoding="utf-8") as f:
            recorded = json.load(f).get("runs_sha256")
        current = runs_digest(load_experiment(study.experiment_path(name), quick))
        if recorded is None:
            out.append((name, "the stored runs do not record what they were made from (runs_sha256)"))
        elif recorded != current:
            out.append((name, f"the stored runs were made from other scenarios, points or seeds "
                              f"(runs_sha256 {recorded}, the files now give {current})"))
    return out


# ---- adding seeds to stored runs ------------------------------------------------------------------


def _seed_values(seeds: Any) -> List[int]:
    """A spec's seeds as a list: a count N is seeds 1..N (docs/sweeps.md)."""
    return list(range(1, seeds + 1)) if isinstance(seeds, int) else [int(s) for s in seeds]


def _stored_table(study: Study, experiment: Experiment) -> str:
    for name in experiment.tables:
        path = os.path.join(study.data_dir(), experiment.name, f"{name}.parquet")
        if os.path.isfile(path):
            return path
    raise ValueError(f"{study.name}/{experiment.name}: no stored runs to add seeds to: run "
                     f"`wmnsim reproduce {study.name} --experiments {experiment.name}`")


def seeds_to_add(study: Study, name: str) -> Tuple[Dict[str, List[int]], Dict[str, List[int]]]:
    """For ``wmnsim reproduce --add-seeds``: per scenario path of experiment ``name``,
    the seeds its file lists that its stored runs lack, and the seeds stored. Raises
    ValueError when the stored runs are not what the file asks for with the stored
    seeds (:func:`runs_digest`): adding to them would mix two experiments."""
    import pyarrow.parquet as pq

    experiment = load_experiment(study.experiment_path(name))
    rows = pq.read_table(_stored_table(study, experiment), columns=["scenario", "seed"]).to_pandas()
    stored: Dict[str, List[int]] = {}
    missing: Dict[str, List[int]] = {}
    for path in experiment.scenarios:
        label = experiment.label(path)
        have = sorted({int(s) for s in rows.loc[rows["scenario"] == label, "seed"]})
        wanted = _seed_values(experiment.seeds_of(path))
        dropped = [s for s in have if s not in wanted]
        if dropped:
            raise ValueError(f"{study.name}/{name}: the stored runs of {label} have seeds {dropped} that the file no "
                             f"longer lists: --add-seeds only adds; run `wmnsim reproduce {study.name} --experiments "
                             f"{name}` to run everything again")
        stored[path] = have
        missing[path] = [s for s in wanted if s not in have]
    again = f"run `wmnsim reproduce {study.name} --experiments {name}` to run them all"
    try:
        with open(os.path.join(study.data_dir(), name, PROVENANCE), encoding="utf-8") as f:
            provenance = json.load(f)
    except FileNotFoundError:
        raise ValueError(f"{study.name}/{name}: the stored runs have no {PROVENANCE}: {again}") from None
    recorded = provenance.get("runs_sha256")
    if recorded is None:
        raise ValueError(f"{study.name}/{name}: the stored runs do not record what they were made from "
                         f"(runs_sha256): {again}")
    if provenance.get("history_interval_s") != experiment.history_interval_s:
        raise ValueError(f"{study.name}/{name}: the stored histories were sampled at "
                         f"{provenance.get('history_interval_s')} s, the file asks for "
                         f"{experiment.history_interval_s}: {again}")
    for table, wanted in sorted(experiment.columns.items()):
        path = os.path.join(study.data_dir(), name, f"{table}.parquet")
        lacking = [c for c in wanted if os.path.isfile(path) and c not in pq.read_schema(path).names]
        if lacking:
            raise ValueError(f"{study.name}/{name}: the file's /columns/{table} names {', '.join(lacking)}, which the "
                             f"stored {table} table does not hold (the file changed since): {again}")
    common = [p for p in experiment.scenarios if p not in experiment.scenario_seeds]
    if any(stored[p] != stored[common[0]] for p in common):
        raise ValueError(f"{study.name}/{name}: the stored runs of its scenarios have different seeds: "
                         "--add-seeds cannot tell which the file meant")

    def forms(seeds: List[int]) -> List[Any]:
        # A spec's seeds are a list or a count N (1..N): the stored digest used one of them.
        return [seeds, len(seeds)] if seeds == list(range(1, len(seeds) + 1)) else [seeds]
    entries = ([stored[common[0]]] if common else []) + [stored[p] for p in experiment.scenario_seeds]
    digests = set()
    for choice in itertools.product(*(forms(e) for e in entries)):
        seeds = choice[0] if common else experiment.seeds
        own = dict(zip(experiment.scenario_seeds, choice[1:] if common else choice))
        digests.add(runs_digest(dataclasses.replace(experiment, seeds=seeds, scenario_seeds=own)))
    if recorded not in digests:
        raise ValueError(f"{study.name}/{name}: the stored runs were made from other scenarios or points than the "
                         "file gives today with the stored seeds: --add-seeds adds seeds only to runs that are "
                         f"otherwise what the file asks for; {again}")
    return missing, stored


WITNESS_POINTS = 16  # the most stored runs --add-seeds runs again, one per scenario and point


def _comparable(v: Any) -> Any:
    """A cell as JSON-like data to compare: arrays as lists, every number a float,
    nulls (None, NaN) as None."""
    if hasattr(v, "tolist"):
        v = v.tolist()
    if isinstance(v, (list, tuple)):
        return [_comparable(x) for x in v]
    if isinstance(v, dict):
        return {k: _comparable(x) for k, x in v.items()}
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return None
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return v
    return float(v)


def _cells(df: "pandas.DataFrame", column: str) -> List[str]:  # noqa: F821
    if column not in df.columns:
        return ["null"] * len(df)
    return [json.dumps(_comparable(v), sort_keys=True) for v in df[column]]


def check_witness(study: Study, name: str, stored: Mapping[str, List[int]], work: str, scheduler: Any = None,
                  workers: Optional[int] = None) -> Optional[str]:
    """Runs again stored runs of experiment ``name`` with this build: for each
    scenario and point (the first ``WITNESS_POINTS``), its first topology seed and
    first stored seed; and compares every stored table's rows of those runs, column
    by column, the volatile columns and those the stored rows leave null (a column
    an older build did not have) aside. Returns None when they are equal, else what
    differs: the model changed since the stored runs, whose seeds must then not be
    added to."""
    import pandas as pd
    from .sweep import dask_client, sweep

    experiment = load_experiment(study.experiment_path(name))
    if experiment.points:
        points: Optional[List[Dict[str, Any]]] = [dict(p) for p in experiment.points]
    elif experiment.grid:
        keys = list(experiment.grid)
        points = [dict(zip(keys, combo)) for combo in itertools.product(*(experiment.grid[k] for k in keys))]
    else:
        points = None
    topology = [experiment.topology_seeds[0]] if experiment.topology_seeds else None
    witness_dir = os.path.join(work, study.name, "witness", experiment.name)
    shutil.rmtree(witness_dir, ignore_errors=True)  # a run key names no commit: never reuse one
    budget = WITNESS_POINTS
    sweeps: Dict[str, Any] = {}
    chosen: Dict[str, Any] = {}
    with dask_client(scheduler, workers) as client:
        for path in experiment.scenarios:
            if budget <= 0 or not stored.get(path):
                continue
            mine = points[:budget] if points is not None else None
            budget -= len(mine) if mine is not None else 1
            base = Scenario.from_file(path)
            if experiment.fixed:
                base = Scenario.from_dict(base.with_overrides(experiment.fixed).to_dict())
            sweeps[path] = sweep(base, points=mine, seeds=[stored[path][0]], topology_seeds=topology,
                                 out_dir=os.path.join(witness_dir, "runs", experiment.label(path)), scheduler=client,
                                 progress=False, keep_results=bool(experiment.keep), _spec_source=experiment.path)
            chosen[path] = mine
    if not sweeps:
        return None
    alone = dataclasses.replace(experiment, scenarios=tuple(sweeps), points=None, grid=None)
    collect(study, alone, sweeps, os.path.join(witness_dir, DATA))
    stored_dir = os.path.join(study.data_dir(), experiment.name)
    for table in sorted(f for f in os.listdir(stored_dir) if f.endswith(".parquet")):
        fresh_path = os.path.join(witness_dir, DATA, experiment.name, table)
        if not os.path.isfile(fresh_path):
            return f"this build stores no {table} for the witness runs"
        fresh = pd.read_parquet(fresh_path)
        old = pd.read_parquet(os.path.join(stored_dir, table))
        keys = [c for c in old.columns if c in KEY_COLUMNS or c.startswith("/")]
        row_key = lambda df: list(zip(*(_cells(df, k) for k in keys)))  # noqa: E731
        fresh_keys, old_keys = row_key(fresh), row_key(old)
        wanted = set(fresh_keys)
        rows = [i for i, k in enumerate(old_keys) if k in wanted]
        matched = old.iloc[rows].reset_index(drop=True)
        matched_keys = [old_keys[i] for i in rows]
        if sorted(matched_keys) != sorted(fresh_keys):
            return (f"{table}: the stored rows of the witness runs are {len(matched)}, this build's "
                    f"{len(fresh)} (their keys differ)")
        order_fresh = sorted(range(len(fresh)), key=lambda i: fresh_keys[i])
        order_old = sorted(range(len(matched)), key=lambda i: matched_keys[i])
        for column in old.columns:
            if column in keys or column in VOLATILE or matched[column].isna().all():
                continue
            fresh_cells, old_cells = _cells(fresh, column), _cells(matched, column)
            a = [fresh_cells[i] for i in order_fresh]
            b = [old_cells[i] for i in order_old]
            for i, (x, y) in enumerate(zip(a, b)):
                if x != y:
                    at = dict(zip(keys, fresh_keys[order_fresh[i]]))
                    return (f"{table} column {column} differs for the witness run {at}: stored {y[:200]}, "
                            f"this build {x[:200]}")
    stored_tables = set(os.listdir(stored_dir))
    for table in sorted(os.listdir(os.path.join(witness_dir, DATA, experiment.name))):
        if table.endswith(".parquet") and table not in stored_tables:
            return (f"the witness runs store a {table} table that the stored runs lack (the file's tables or keep "
                    "changed since they were stored, or this build adds the table)")
    return None


# ---- the quick check -----------------------------------------------------------------------------


def _band(mean: float, std: float, n: int, m: int, tolerance: Mapping[str, Any]) -> float:
    """The half-width docs/references.md gives a tolerance: the widest of the stated bands."""
    from scipy import stats

    width = 0.0
    if "absolute" in tolerance:
        width = max(width, float(tolerance["absolute"]))
    if "relative" in tolerance:
        width = max(width, float(tolerance["relative"]) * abs(mean))
    if "ci" in tolerance and n >= 2 and not math.isnan(std):
        t = float(stats.t.ppf(0.5 + float(tolerance["ci"]) / 2, n - 1))
        width = max(width, t * std * math.sqrt(1.0 / n + 1.0 / max(m, 1)))
    return width


def check_quick(study: Study, fresh_dir: str, only: Optional[Sequence[str]] = None) -> List[Dict[str, Any]]:
    """Compares the quick runs in ``fresh_dir`` with the stored quick tables: per
    experiment (those in ``only``, when given), check, and group (scenario,
    parameters, topology seed, id), the fresh mean must lie within the band around
    the stored mean. Returns one row per comparison."""
    import numpy as np
    import pandas as pd

    rows: List[Dict[str, Any]] = []
    for name in [n for n in study.experiments if only is None or n in only]:
        e = load_experiment(study.experiment_path(name), quick=True)
        stored_dir = os.path.join(study.data_dir(quick=True), name)
        if not os.path.isfile(os.path.join(stored_dir, PROVENANCE)):
            rows.append({"experiment": name, "metric": "-", "group": "-", "status": "missing",
                         "reason": f"no stored quick runs in {study.relative(stored_dir)} "
                                   "(wmnsim reproduce STUDY --quick --store)"})
            continue
        stored, fresh = ExperimentData(stored_dir), ExperimentData(os.path.join(fresh_dir, name))
        for check in e.checks:
            table, metric = check.get("table", "runs"), check["metric"]
            a, b = stored.table(table), fresh.table(table)
            if metric not in a.columns:
                if e.checks_given:  # a stated check that compares nothing could never fail
                    rows.append({"experiment": name, "metric": f"{table}/{metric}", "group": "-",
                                 "status": "missing", "reason": f"not in the stored quick {table} table"})
                continue  # a metric this experiment's tables do not have (a default check)
            if metric not in b.columns:
                rows.append({"experiment": name, "metric": f"{table}/{metric}", "group": "-", "status": "missing",
                             "reason": "not in the fresh runs"})
                continue
            # A topology seed is another network (docs/sweeps.md): its flows and nodes are
            # other flows and nodes, so it is part of the group, as a parameter is.
            topo = ["topology_seed"] if "topology_seed" in a.columns and a["topology_seed"].notna().any() else []
            keys = ["scenario"] + [c for c in a.columns if isinstance(c, str) and c.startswith("/")] + topo + \
                [c for c in ("flow_id", "node_id", "radio_id") if c in a.columns]
            # The fresh rows of a group: each key's value compared once per distinct value, not once per
            # group (a flows table has a group per flow), a comparison with a null counting as unequal.
            equal: Dict[Tuple[str, type, Any], Any] = {}  # the type too: 1, 1.0 and True are one dict key

            def rows_with(k: str, v: Any) -> Any:
                if k not in b.columns:
                    return np.zeros(len(b), dtype=bool)
                if v is None or (isinstance(v, float) and math.isnan(v)):
                    return b[k].isna().to_numpy(dtype=bool)
                key = (k, type(v), v)
                if key not in equal:
                    equal[key] = pd.array(b[k] == v, dtype="boolean").to_numpy(dtype=bool, na_value=False)
                return equal[key]

            for group, part in a.groupby(keys if len(keys) > 1 else keys[0], sort=False, dropna=False):
                group = group if isinstance(group, tuple) else (group,)
                mask = np.ones(len(b), dtype=bool)
                for k, v in zip(keys, group):
                    mask &= rows_with(k, v)
                label = "/".join(str(v) for v in group)
                if not mask.any():
                    rows.append({"experiment": name, "metric": f"{table}/{metric}", "group": label,
                                 "status": "missing", "reason": "no fresh run of this group"})
                    continue
                x = part[metric].astype(float).dropna()
                y = b.loc[mask, metric].astype(float).dropna()
                if x.empty or y.empty:
                    # Undefined (NaN) in every run of a group: the same in both passes, one-sided fails.
                    both = x.empty and y.empty
                    rows.append({"experiment": name, "metric": f"{table}/{metric}", "group": label,
                                 "status": "pass" if both else "fail",
                                 "reason": "undefined (NaN) in the stored and the fresh runs" if both else
                                 "undefined (NaN) in every " + ("stored" if x.empty else "fresh") + " run only"})
                    continue
                mean, std = float(x.mean()), float(x.std(ddof=1)) if len(x) > 1 else math.nan
                width = _band(mean, std, len(x), len(y), check["tolerance"])
                low, high = mean - width, mean + width
                measured = float(y.mean())
                ok = low - 1e-12 * abs(mean) <= measured <= high + 1e-12 * abs(mean)
                rows.append({"experiment": name, "metric": f"{table}/{metric}", "group": label, "expected": mean,
                             "low": low, "high": high, "measured": measured,
                             "status": "pass" if ok else "fail", "reason": ""})
    return rows


# ---- the report ------------------------------------------------------------------------------------


def render(study: Study, data_dir: str, doc_out: str, figures_dir: str, check: bool = False,
           plot: bool = True) -> int:
    """Runs the study's report script on the tables in ``data_dir``: it rewrites
    the generated blocks of ``doc_out`` (a copy of the doc when it is not the doc)
    and the figures in ``figures_dir``; with ``check``, writes nothing and returns 1
    when the doc would change."""
    if os.path.abspath(doc_out) != os.path.abspath(study.doc) and not check:
        os.makedirs(os.path.dirname(os.path.abspath(doc_out)), exist_ok=True)
        with open(study.doc, encoding="utf-8") as src, open(doc_out, "w", encoding="utf-8") as dst:
            dst.write(src.read())
    cmd = [sys.executable, study.report, "--root", study.root, "--data", data_dir,
           "--doc", doc_out if not check else study.doc, "--figures", figures_dir]
    if check:
        cmd.append("--check")
    if not plot or check:
        cmd.append("--no-plot")
    env = dict(os.environ)
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the folder that holds wmnsim/
    from . import _core

    core_dir = os.path.dirname(os.path.abspath(_core.__file__))
    env["PYTHONPATH"] = os.pathsep.join([here, core_dir] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    env.setdefault("MPLBACKEND", "Agg")
    return subprocess.run(cmd, env=env).returncode


# ---- the command line: wmnsim reproduce -------------------------------------------------------------


def _refresh_inventory(root: str) -> None:
    """After runs are stored: docs/reproduce.md's `stored` block (each experiment's runs, commits and the
    data folders' sizes) again, by scripts/reproduce_inventory.py, where the repository has both."""
    script = os.path.join(root, "scripts", "reproduce_inventory.py")
    if os.path.isfile(script) and os.path.isfile(os.path.join(root, "docs", "reproduce.md")):
        if subprocess.run([sys.executable, script, "--write"]).returncode != 0:
            print("wmnsim reproduce: docs/reproduce.md's stored block was not rewritten "
                  "(scripts/reproduce_inventory.py --write)", file=sys.stderr)


def _chosen(names: str, known: Dict[str, Study]) -> List[Study]:
    if names == "all":
        return list(known.values())
    out = []
    for name in names.split(","):
        if name not in known:
            close = difflib.get_close_matches(name, list(known), n=1)
            hint = f' (did you mean "{close[0]}"?)' if close else ""
            raise ValueError(f'no study "{name}"{hint}; the studies: {", ".join(known)}, or all')
        out.append(known[name])
    return out


def run_command(study: str, quick: bool = False, scheduler: Optional[str] = None, workers: Optional[int] = None,
                output: Optional[str] = None, report_only: bool = False, check: bool = False,
                store: bool = False, experiments: Optional[str] = None, no_plot: bool = False,
                add_seeds: bool = False, root: Optional[str] = None) -> int:
    """``wmnsim reproduce STUDY [--quick] [--scheduler ADDR] [--workers N] [-o DIR]
    [--report-only] [--check] [--store] [--experiments A,B] [--no-plot] [--add-seeds]``;
    returns the exit code: 0 done, 1 runs failed or an internal error, 2 invalid
    input, 3 a quick run outside its band, a doc that differs from its stored data
    (--check), or a build that does not reproduce the stored runs (--add-seeds), 130
    interrupted (the same command resumes; 143 and 129 after SIGTERM and SIGHUP)."""
    from .sweep import _stopped_by_signals

    with _stopped_by_signals() as stop:
        code = _run_command(study, quick, scheduler, workers, output, report_only, check, store, experiments,
                            no_plot, add_seeds, root)
        return 128 + stop.signal if code == EXIT_INTERRUPTED and stop.signal is not None else code


def _run_command(study: str, quick: bool, scheduler: Optional[str], workers: Optional[int], output: Optional[str],
                 report_only: bool, check: bool, store: bool, experiments: Optional[str], no_plot: bool,
                 add_seeds: bool, root: Optional[str]) -> int:
    from .sweep import SweepError, _check_out_dir, dask_client

    start = time.monotonic()
    # One cluster for every study and witness the command runs, started when the first needs
    # it (none for a report alone): an embedded cluster's start costs seconds of its workers'
    # imports, once per study before.
    clusters = contextlib.ExitStack()
    started: List[Any] = []

    def cluster() -> Any:
        if not started:
            started.append(clusters.enter_context(dask_client(scheduler, workers)))
        return started[0]

    try:
        with clusters:
            try:
                known = studies(root)
                chosen = _chosen(study, known)
            except (ValueError, FileNotFoundError) as e:
                print(f"wmnsim reproduce: {e}", file=sys.stderr)
                return EXIT_INVALID
            only = experiments.split(",") if experiments else None
            if only:
                listed = {n for s in chosen for n in s.experiments}
                unknown = [n for n in only if n not in listed]
                if unknown:
                    print(f"wmnsim reproduce: no experiment {unknown[0]!r} in {study} "
                          f"(experiments: {', '.join(sorted(listed))})", file=sys.stderr)
                    return EXIT_INVALID
            root_dir = chosen[0].root if chosen else find_root(root)
            work = os.path.abspath(output) if output else os.path.join(root_dir, "build", "reproduce")
            try:
                _check_out_dir(work, "a reproduction keeps its runs in a work folder", "work folder")
            except NotADirectoryError as e:  # -o names a file, or a path under one
                print(f"wmnsim reproduce: -o: {e.strerror}", file=sys.stderr)
                return EXIT_INVALID
            for s in chosen:  # everything checked before anything runs
                for n in s.experiments:
                    load_experiment(s.experiment_path(n), quick)
            if add_seeds and (quick or report_only):
                print("wmnsim reproduce: --add-seeds extends the stored full runs: not with --quick or --report-only",
                      file=sys.stderr)
                return EXIT_INVALID
            plans: Dict[Tuple[str, str], Tuple[Dict[str, List[int]], Dict[str, List[int]]]] = {}
            if add_seeds:
                # Every study's plan and witnesses before anything runs or is stored: runs of
                # two builds are mixed only when this one reproduces the stored ones.
                for s in chosen:
                    for n in [n for n in s.experiments if only is None or n in only]:
                        try:
                            plans[(s.name, n)] = seeds_to_add(s, n)
                        except ValueError as e:
                            print(f"wmnsim reproduce: {e}", file=sys.stderr)
                            return EXIT_INVALID
                for (sname, n), (missing, stored) in plans.items():
                    if not any(missing.values()):
                        continue
                    differs = check_witness(known[sname], n, stored, work, cluster())
                    if differs is not None:
                        print(f"{sname}/{n}: this build does not reproduce the stored runs ({differs}): their seeds "
                              f"cannot be added to; run `wmnsim reproduce {sname} --experiments {n}` to run them all "
                              "again", file=sys.stderr)
                        return EXIT_OUTSIDE
            status = EXIT_OK
            for s in chosen:
                names = [n for n in s.experiments if only is None or n in only]
                if not names:
                    continue
                if quick:
                    fresh = os.path.join(work, s.name, QUICK, DATA)
                    if not report_only:
                        sweeps = run_study(s, work, quick=True, only=names, _client=cluster)
                        target = s.data_dir(quick=True) if store else fresh
                        for n in names:
                            collect(s, load_experiment(s.experiment_path(n), True), sweeps[n], target)
                        if store:
                            _refresh_inventory(s.root)
                        if not store:
                            rows = check_quick(s, fresh, names)
                            bad = [r for r in rows if r["status"] != "pass"]
                            for r in bad:
                                band = f" [{r['low']:.6g}, {r['high']:.6g}] measured {r['measured']:.6g}" \
                                    if "low" in r else ""
                                print(f"{s.name}/{r['experiment']}: {r['metric']} {r['group']}: {r['status'].upper()}"
                                      f"{band} {r['reason']}".rstrip(), file=sys.stderr)
                            print(f"{s.name}: {len(rows) - len(bad)} of {len(rows)} quick checks within their bands",
                                  file=sys.stderr)
                            if bad:
                                status = max(status, EXIT_OUTSIDE)
                    if only is None:
                        # The report on the quick tables: a copy of the doc, never the doc itself.
                        data = s.data_dir(quick=True) if store or report_only else fresh
                        out_doc = os.path.join(work, s.name, QUICK, os.path.basename(s.doc))
                        code = render(s, data, out_doc, os.path.dirname(out_doc), plot=not no_plot)
                        if code != 0:
                            print(f"{s.name}: the report failed on the quick runs (exit {code})", file=sys.stderr)
                            status = max(status, EXIT_INTERNAL)
                else:
                    if add_seeds:
                        todo = [n for n in names if any(plans[(s.name, n)][0].values())]
                        for n in names:
                            if n not in todo:
                                print(f"{s.name}/{n}: every seed of the file is stored already", file=sys.stderr)
                        if todo:
                            sweeps = run_study(s, work, only=todo, _client=cluster,
                                               seeds={n: plans[(s.name, n)][0] for n in todo})
                            for n in todo:
                                # A run key names no commit: runs left in the work folder by
                                # another build are not this build's.
                                from . import _core
                                others = {str(c) for d in sweeps[n].values() for c in d.runs.get("wmnsim_commit", [])
                                          if str(c) != _core.commit}
                                if others:
                                    print(f"{s.name}/{n}: the work folder {work} holds runs of other builds "
                                          f"({', '.join(sorted(others))}): delete it or give another -o, and run again",
                                          file=sys.stderr)
                                    return EXIT_INVALID
                                added = {os.path.basename(p): v for p, v in plans[(s.name, n)][0].items() if v}
                                print(f"{s.name}/{n}: seeds added: {added}", file=sys.stderr)
                                collect(s, load_experiment(s.experiment_path(n)), sweeps[n], s.data_dir(), extend=True)
                            _refresh_inventory(s.root)
                    elif not report_only:
                        sweeps = run_study(s, work, only=names, _client=cluster)
                        for n in names:
                            collect(s, load_experiment(s.experiment_path(n)), sweeps[n], s.data_dir())
                        _refresh_inventory(s.root)
                    for n, why in stale_runs(s, only=names):
                        try:  # only seeds added: the stored runs stay, the new seeds run alone
                            more = any(seeds_to_add(s, n)[0].values())
                        except (ValueError, OSError):
                            more = False
                        print(f"{s.name}/{n}: {why}: run `wmnsim reproduce {s.name} --experiments {n}"
                              + (" --add-seeds`, the file only adds seeds" if more else "`")
                              + (" (a failed check)" if check else " (warning)"), file=sys.stderr)
                        if check:
                            status = max(status, EXIT_OUTSIDE)
                    code = render(s, s.data_dir(), s.doc, os.path.dirname(s.doc), check=check, plot=not no_plot)
                    if code != 0:
                        print(f"{s.name}: " + ("the doc differs from what its stored runs give (run `wmnsim reproduce "
                                               f"{s.name} --report-only` and commit)" if check and code == 3 else
                                               f"the report failed (exit {code})"), file=sys.stderr)
                        status = max(status, EXIT_OUTSIDE if check and code == 3 else EXIT_INTERNAL)
            print(f"wmnsim reproduce {study}{' --quick' if quick else ''}: {time.monotonic() - start:.0f} s",
                  file=sys.stderr)
            return status
    except ScenarioError as e:
        print(str(e), file=sys.stderr)
        return EXIT_INVALID
    except KeyboardInterrupt:
        print("\ninterrupted: finished runs are kept; the same command resumes", file=sys.stderr)
        return EXIT_INTERRUPTED
    except (SweepError, ConnectionError) as e:
        print(str(e), file=sys.stderr)
        return EXIT_INTERNAL
    except Exception as e:  # noqa: BLE001 - the command line reports, never a traceback
        print(f"wmnsim reproduce: internal error: {type(e).__name__}: {e}", file=sys.stderr)
        return EXIT_INTERNAL
