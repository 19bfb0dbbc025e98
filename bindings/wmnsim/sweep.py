"""Parameter sweeps on Dask: every point of a grid, with every seed, is one run.

    import wmnsim
    data = wmnsim.sweep("scenarios/two_hop_chain_tcp.json",
                        {"/mac/cw_min": [16, 32, 64], "/simulation/duration_s": [30]},
                        seeds=5, out_dir="cw_sweep")
    agg = wmnsim.sweep.aggregate(data.runs, metrics=["total_goodput_bps"])
    wmnsim.plot.sweep(agg, x="/mac/cw_min", y="total_goodput_bps", path="cw.png")

Runs are Dask tasks: on an embedded ``dask.distributed.LocalCluster`` (one worker
process per core) or on an existing cluster given by its scheduler's address, so
the same sweep moves from a laptop to a cluster unchanged. Each run is
:func:`wmnsim.run` in a worker, written by that worker into the output directory
as Parquet files in a directory of its own, renamed into place only when complete
(atomic), and named by a hash of the scenario as run, the seed and the wmnsim
version. So a sweep resumes where it stopped, a run Dask retries after a worker
died is never stored twice, and the directory says what it holds (``sweep.json``).
docs/sweeps.md is the guide.
"""
from __future__ import annotations

import contextlib
import dataclasses
import difflib
import errno
import fcntl
import hashlib
import itertools
import json
import math
import numbers
import os
import shutil
import sys
import time
import uuid
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Dict, Iterator, List, Optional, Sequence, Tuple, Union

from . import _core
from ._errors import ScenarioError, ValidationIssue
from .scenario import Scenario, _plain

if TYPE_CHECKING:
    import pandas

__all__ = ["sweep", "load", "compact", "aggregate", "load_spec", "run_spec_command", "dask_client", "SweepData", "SweepError"]

PathLike = Union[str, "os.PathLike[str]"]

#: The sweep directory's metadata format (DIR/sweep.json).
FORMAT_VERSION = 1
METADATA_FILE = "sweep.json"
RUNS_DIR = "runs"  # DIR/runs/<run key>/{run,flows,nodes,radios}.parquet
# compact(DIR): DIR/compacted/current -> g-<id>/, one <table>.parquet per table of every
# compacted run; each compacted run's directory keeps a marker file instead of its tables.
COMPACTED_DIR = "compacted"
COMPACTED_CURRENT = "current"
COMPACTED_MARKER = "compacted"
TMP_DIR = ".tmp"  # runs being written; renamed into RUNS_DIR when complete
LOCK_FILE = ".sweep.json.lock"  # flock()ed around the read-modify-write of sweep.json
STALE_TMP_S = 3600  # a DIR/.tmp entry untouched this long is left by a killed worker: removed
# Columns a run's stored files do not hold: they belong to the sweep that asks for the run
# (another sweep can reach the same scenario, hence the same run key, by other parameters).
PLAN_COLUMNS = ("point_key", "seed", "topology_seed")
SPEC_KEYS = ("scenario", "grid", "points", "seeds", "topology_seeds", "max_runs", "timeseries")
# The most runs a sweep may expand to unless it says otherwise (max_runs): each run is
# planned, hashed and listed in sweep.json before any runs, about a kilobyte apiece.
# 10x the largest stored sweep (001's a4_random, 10,500 runs); a spec of a few bytes
# could otherwise ask for 10^17 (docs/sweeps.md).
MAX_RUNS = 100_000
RANDOM_PLACEMENTS = ("random_uniform", "random_grid")  # the node groups that take a "seed"
MAX_SEED = 2**64 - 1  # simulation.seed (docs/scenario.md)
MAX_LISTED_ERRORS = 30

EXIT_OK, EXIT_INTERNAL, EXIT_INVALID, EXIT_INTERRUPTED = 0, 1, 2, 130


class SweepError(RuntimeError):
    """Some runs of a sweep failed. The runs that finished are stored; running the
    same sweep again retries only the others. ``failures`` lists ``(run, exception)``
    with ``run`` a dict: ``key``, ``overrides``, ``seed``, ``topology_seed``."""

    def __init__(self, message: str, failures: List[Tuple[Dict[str, Any], BaseException]]):
        super().__init__(message)
        self.failures = failures


# ---- the plan: points x topology seeds x seeds -------------------------------------------


@dataclasses.dataclass(frozen=True)
class _Run:
    key: str  # hash of (scenario as run, seed, wmnsim version): the run's directory
    point_key: str  # hash of the point's overrides: the same for all its seeds and topology seeds
    overrides: Dict[str, Any]  # the point's overrides (pointer -> JSON value)
    seed: int
    topology_seed: Optional[int]
    random_groups: Tuple[int, ...]  # the node groups topology_seed is set on

    def describe(self) -> Dict[str, Any]:
        return {"key": self.key, "point_key": self.point_key, "overrides": self.overrides,
                "seed": self.seed, "topology_seed": self.topology_seed}


@dataclasses.dataclass
class _Plan:
    scenario: Scenario
    parameters: List[str]  # the pointers the points set, in order of first use
    runs: List[_Run]
    spec: Dict[str, Any]  # what was asked, for sweep.json


def _escape(pointer: str) -> str:
    """A grid pointer as one JSON pointer token (RFC 6901), for error paths."""
    return pointer.replace("~", "~0").replace("/", "~1")


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def _digest(value: Any, length: int = 20) -> str:
    return hashlib.sha256(_canonical(value).encode("utf-8")).hexdigest()[:length]


def _is_int(value: Any) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def _check_seed_list(value: Any, where: str, issues: List[ValidationIssue], maximum: int,
                     count_allowed: bool) -> Optional[List[int]]:
    """Seeds: a list of distinct integers 0..maximum (or a count N, meaning 1..N)."""
    if count_allowed and _is_int(value):
        if value < 1:
            issues.append(ValidationIssue(where, f"a seed count must be at least 1, got {value}"))
            return None
        return list(range(1, int(value) + 1))
    if not isinstance(value, (list, tuple)) or not value:
        what = "a non-empty list of integers" + (" or a count N (seeds 1..N)" if count_allowed else "")
        issues.append(ValidationIssue(where, f"must be {what}"))
        return None
    seeds, seen, ok = [], {}, True
    for i, s in enumerate(value):
        if not _is_int(s) or not 0 <= s <= maximum:
            issues.append(ValidationIssue(f"{where}/{i}", f"must be an integer 0..{maximum}, got {s!r}"))
            ok = False
        elif s in seen:
            issues.append(ValidationIssue(f"{where}/{i}", f"seed {s} is listed twice (also at {where}/{seen[s]})"))
            ok = False
        else:
            seen[s] = i
            seeds.append(int(s))
    return seeds if ok else None


def _check_pointer(pointer: Any, where: str, issues: List[ValidationIssue]) -> bool:
    if not isinstance(pointer, str) or not pointer.startswith("/"):
        issues.append(ValidationIssue(where, f'a key must be a JSON pointer starting with "/", got {pointer!r}'))
        return False
    if pointer == "/simulation/seed":
        issues.append(ValidationIssue(where, "the simulation seed is swept by \"seeds\", not by an override"))
        return False
    if "=" in pointer:
        issues.append(ValidationIssue(where, 'a pointer cannot contain "=" (as with --set)'))
        return False
    return True


def _points_from_grid(grid: Any, issues: List[ValidationIssue]) -> List[Tuple[Dict[str, Any], List[str]]]:
    """The cartesian product of a grid, each point with the error paths of its values."""
    if not isinstance(grid, Mapping) or not grid:
        issues.append(ValidationIssue("/grid", "must be a non-empty object of JSON pointers to lists of values, "
                                               'e.g. {"/mac/cw_min": [16, 32, 64]}'))
        return []
    axes = []
    for pointer, values in grid.items():
        where = "/grid/" + _escape(str(pointer))
        if not _check_pointer(pointer, where, issues):
            continue
        if not isinstance(values, (list, tuple)) or not values:
            issues.append(ValidationIssue(where, "must be a non-empty list"))
            continue
        plain, seen = [], {}
        for i, v in enumerate(values):
            try:
                v = _plain(v, f"{where}/{i}")
            except ScenarioError as e:
                issues.extend(e.errors)
                continue
            c = _canonical(v)
            if c in seen:
                issues.append(ValidationIssue(f"{where}/{i}", f"{c} is listed twice (also at {where}/{seen[c]})"))
                continue
            seen[c] = i
            plain.append((v, f"{where}/{i}"))
        axes.append((pointer, plain))
    points = []
    for combo in itertools.product(*(values for _, values in axes)):
        points.append(({p: v for (p, _), (v, _) in zip(axes, combo)}, [w for _, w in combo]))
    return points


def _points_from_list(points: Any, issues: List[ValidationIssue]) -> List[Tuple[Dict[str, Any], List[str]]]:
    if not isinstance(points, (list, tuple)) or not points:
        issues.append(ValidationIssue("/points", "must be a non-empty list of objects of JSON pointers to values, "
                                                 'e.g. [{"/mac/cw_min": 16}, {"/mac/cw_min": 32}]'))
        return []
    out = []
    for i, point in enumerate(points):
        where = f"/points/{i}"
        if not isinstance(point, Mapping):
            issues.append(ValidationIssue(where, "must be an object of JSON pointers to values"))
            continue
        values, ok = {}, True
        for pointer, value in point.items():
            ok = _check_pointer(pointer, f"{where}/{_escape(str(pointer))}", issues) and ok
            try:
                values[pointer] = _plain(value, f"{where}/{_escape(str(pointer))}")
            except ScenarioError as e:
                issues.extend(e.errors)
                ok = False
        if ok:
            out.append((values, [where]))
    return out


def _random_groups(document: Mapping[str, Any]) -> List[int]:
    groups = document.get("node_groups")
    if not isinstance(groups, list):
        return []
    return [i for i, g in enumerate(groups) if isinstance(g, Mapping) and g.get("placement") in RANDOM_PLACEMENTS]


def _related(issue_path: str, pointer: str) -> bool:
    """Whether a scenario problem at issue_path can come from overriding pointer."""
    if not issue_path:
        return False
    return issue_path == pointer or issue_path.startswith(pointer + "/") or pointer.startswith(issue_path + "/")


def _run_count(grid: Any, points: Any, seeds: Any, topology_seeds: Any) -> Tuple[int, str]:
    """How many runs a spec asks for (points x topology seeds x seeds), counted from
    the lengths alone, and how; malformed parts count 1 (they are reported apart)."""
    if grid is not None and isinstance(grid, Mapping):
        lengths = [len(v) for v in grid.values() if isinstance(v, (list, tuple)) and v]
        n_points = math.prod(lengths)
        what = " x ".join(map(str, lengths)) + " grid points" if len(lengths) > 1 else f"{n_points} points"
    elif points is not None and isinstance(points, (list, tuple)):
        n_points, what = max(len(points), 1), f"{len(points)} points"
    else:
        n_points, what = 1, "1 point"
    n_seeds = seeds if _is_int(seeds) and seeds > 0 else len(seeds) if isinstance(seeds, (list, tuple)) and seeds else 1
    n_topo = len(topology_seeds) if isinstance(topology_seeds, (list, tuple)) and topology_seeds else 1
    how = f"{what} x {n_seeds} seeds" + (f" x {n_topo} topology seeds" if topology_seeds is not None else "")
    return n_points * n_topo * int(n_seeds), how


def _check_max_runs(max_runs: Any) -> int:
    if not _is_int(max_runs) or max_runs < 1:
        raise ScenarioError(errors=[("/max_runs", f"must be a positive integer, got {max_runs!r}")])
    return int(max_runs)


def _plan(scenario: Union[Scenario, PathLike, Mapping[str, Any]], grid: Any, points: Any, seeds: Any,
          topology_seeds: Any, spec_source: Optional[str] = None, max_runs: int = MAX_RUNS) -> _Plan:
    """Checks everything a sweep needs and lists its runs; raises ScenarioError with
    every problem (JSON paths into the spec) before anything runs. The number of runs
    is checked against ``max_runs`` from the lengths of the spec's lists, before any
    point or seed list is built."""
    try:
        max_runs = _check_max_runs(max_runs)
    except ScenarioError as e:
        raise e.with_source(spec_source) from None
    count, how = _run_count(grid, points, seeds, topology_seeds)
    if count > max_runs:
        raise ScenarioError(errors=[("", f"the sweep expands to {count:.3g} runs ({how}); at most {max_runs} "
                                         f'(max_runs): set "max_runs" in the spec, or sweep(max_runs=...) in '
                                         "Python, to run more, or sweep fewer values")], source=spec_source)
    base = scenario if isinstance(scenario, Scenario) else Scenario(scenario)
    issues: List[ValidationIssue] = []
    if grid is not None and points is not None:
        issues.append(ValidationIssue("/points", 'give either "grid" or "points", not both'))
        point_list = []
    elif grid is not None:
        point_list = _points_from_grid(grid, issues)
    elif points is not None:
        point_list = _points_from_list(points, issues)
    else:
        point_list = [({}, ["/scenario"])]  # the scenario as it is, once per seed
    seed_list = _check_seed_list(seeds, "/seeds", issues, MAX_SEED, count_allowed=True)
    topo_list: List[Optional[int]] = [None]
    if topology_seeds is not None:
        checked = _check_seed_list(topology_seeds, "/topology_seeds", issues, 2**63 - 1, count_allowed=False)
        topo_list = list(checked) if checked else []
    if issues:
        raise ScenarioError(errors=issues, source=spec_source)

    version = _core.__version__
    runs: List[_Run] = []
    scenario_issues: Dict[ValidationIssue, None] = {}  # an ordered set: one line per distinct problem
    first_seen: Dict[str, str] = {}

    def blame(values: Dict[str, Any], wheres: List[str], where_topo: Optional[str], err: ValidationIssue) -> None:
        """Reports a scenario problem at the spec value that causes it, else at /scenario."""
        if len(wheres) == len(values):  # a grid point: one path per value
            hits = [w for p, w in zip(values, wheres) if _related(err.path, p)]
        else:
            hits = [wheres[0]] if any(_related(err.path, p) for p in values) else []
        if where_topo and _related(err.path, "/node_groups"):
            hits.append(where_topo)
        if hits:
            scenario_issues[ValidationIssue(hits[0], f"gives an invalid scenario: {err}")] = None
        else:
            scenario_issues[ValidationIssue("/scenario", f"{base.source or 'the scenario'}: {err}")] = None

    for values, wheres in point_list:
        try:
            variant = base.with_overrides(values) if values else base
        except ScenarioError as e:
            for err in e.errors:
                blame(values, wheres, None, err)
            continue
        groups = _random_groups(variant.to_dict())
        if topo_list != [None] and not groups:
            issues.append(ValidationIssue("/topology_seeds", "the scenario has no node group with a random placement "
                                          f"({', '.join(RANDOM_PLACEMENTS)}): nothing to seed"))
            break
        for t_index, topo in enumerate(topo_list):
            where_topo = None if topo is None else f"/topology_seeds/{t_index}"
            overrides = dict(values)
            if topo is not None:
                for g in groups:
                    pointer = f"/node_groups/{g}/seed"
                    if pointer in values:
                        issues.append(ValidationIssue(wheres[0], f"sets {pointer}, which topology_seeds sets too"))
                    overrides[pointer] = topo
            try:
                as_run = base.with_overrides(overrides) if overrides else base
                as_run.validate()
            except ScenarioError as e:
                for err in e.errors:
                    blame(values, wheres, where_topo, err)
                continue
            canonical = _canonical(as_run.to_dict())
            label = wheres[0] if where_topo is None else f"{wheres[0]} with {where_topo}"
            if canonical in first_seen:
                issues.append(ValidationIssue(wheres[0], f"gives the same scenario as {first_seen[canonical]}"))
                continue
            first_seen[canonical] = label
            for seed in seed_list or []:
                key = _digest({"scenario": as_run.to_dict(), "seed": seed, "wmnsim": version})
                runs.append(_Run(key, _digest(values, 12), dict(values), seed, topo,
                                 tuple(groups) if topo is not None else ()))
    issues.extend(scenario_issues)
    if issues:
        if len(issues) > MAX_LISTED_ERRORS:
            more = len(issues) - MAX_LISTED_ERRORS
            issues = issues[:MAX_LISTED_ERRORS] + [ValidationIssue("", f"... and {more} more problems")]
        raise ScenarioError(errors=issues, source=spec_source)
    parameters: List[str] = []
    for values, _ in point_list:
        parameters += [p for p in values if p not in parameters]
    # What was asked, as plain JSON (the arguments may hold tuples or numpy numbers).
    spec: Dict[str, Any] = {"scenario": base.source}
    if grid is not None:
        spec["grid"] = {p: list({_canonical(v[p]): v[p] for v, _ in point_list}.values()) for p in parameters}
    if points is not None:
        spec["points"] = [v for v, _ in point_list]
    spec["seeds"] = seed_list
    if topology_seeds is not None:
        spec["topology_seeds"] = topo_list
    return _Plan(base, parameters, runs, spec)


# ---- the sweep spec file ------------------------------------------------------------------


def load_spec(path: PathLike) -> Dict[str, Any]:
    """Reads a sweep spec (JSON) and returns :func:`sweep`'s arguments: ``scenario``
    (a :class:`Scenario`; its path is relative to the spec file), ``grid`` or
    ``points``, ``seeds``, ``topology_seeds``. Checks only the spec's shape; the
    points are checked by :func:`sweep` (both raise ScenarioError naming the spec's
    JSON paths)."""
    path = os.fspath(path)
    try:
        _core.check_json_file(path, "sweep spec")  # the command line's reader: line and column, duplicate keys
    except ScenarioError as e:
        raise e.with_source(path) from None
    with open(path, encoding="utf-8-sig") as f:
        doc = json.load(f)
    if not isinstance(doc, dict):
        raise ScenarioError(errors=[("", f"{path}: a sweep spec must be a JSON object "
                                         '{"scenario": ..., "grid": {...}, "seeds": [...]}')])
    issues = []
    for key in doc:
        if key not in SPEC_KEYS:
            close = difflib.get_close_matches(key, SPEC_KEYS, n=1)
            hint = f' (did you mean "{close[0]}"?)' if close else ""
            issues.append(ValidationIssue("/" + _escape(key), f"unknown key{hint}; a spec has {', '.join(SPEC_KEYS)}"))
    scenario = doc.get("scenario")
    if not isinstance(scenario, str) or not scenario:
        issues.append(ValidationIssue("/scenario", "must be the scenario file's path (relative to the spec file)"))
    if "seeds" not in doc:
        issues.append(ValidationIssue("/seeds", "missing: a list of seeds, or a count N (seeds 1..N)"))
    if issues:
        raise ScenarioError(errors=issues, source=path)
    scenario_path = os.path.join(os.path.dirname(os.path.abspath(path)), scenario)
    if not os.path.isfile(scenario_path):
        raise ScenarioError(errors=[("/scenario", f"no such file: {scenario_path}")], source=path)
    kwargs = {"scenario": Scenario.from_file(scenario_path), "grid": doc.get("grid"), "points": doc.get("points"),
              "seeds": doc["seeds"], "topology_seeds": doc.get("topology_seeds")}
    if "max_runs" in doc:
        kwargs["max_runs"] = doc["max_runs"]
    if "timeseries" in doc:
        kwargs["timeseries"] = doc["timeseries"]
    return kwargs


# ---- one run, in a Dask worker --------------------------------------------------------------


def _flatten(prefix: str, value: Any, out: Dict[str, Any]) -> None:
    """Nested summary dicts -> "drops.queue_overflow" columns; lists as JSON text."""
    if isinstance(value, Mapping):
        for k, v in value.items():
            _flatten(f"{prefix}.{k}" if prefix else str(k), v, out)
    elif isinstance(value, (list, tuple)):
        out[prefix] = _canonical(value)
    else:
        out[prefix] = value


def _parameter_value(value: Any) -> Any:
    """A point's override as a table cell: scalars as they are, objects and lists as JSON text."""
    return _canonical(value) if isinstance(value, (Mapping, list, tuple)) else value


def _tables(task: Dict[str, Any], result: Any
            ) -> Tuple["pandas.DataFrame", "pandas.DataFrame", "pandas.DataFrame", "pandas.DataFrame"]:
    """One run's rows: the run (key, seed, summary, run statistics), its flows,
    nodes and radios, the latter three keyed by run key and id. Not the point's parameters,
    point key or topology seed: the run key hashes the scenario as run, which other
    parameters can reach too, so those columns come from the sweep reading the run
    (:func:`_read_runs`)."""
    import pandas as pd

    row: Dict[str, Any] = {"run_key": task["key"], "seed": task["seed"]}
    _flatten("", result.summary, row)
    info, clock = result.run_info, result.wall_clock
    row.update({"simulated_time_s": info["simulated_time_s"], "events_executed": info["events_executed"],
                "interrupted": bool(info.get("interrupted", False)), "warnings": len(result.warnings),
                "wall_time_s": clock.get("wall_time_s"), "events_per_s": clock.get("events_per_s"),
                "wmnsim_version": task["version"], "wmnsim_commit": _core.commit})
    run = pd.DataFrame([row])

    def keyed(df: "pandas.DataFrame", id_column: str) -> "pandas.DataFrame":
        df = df.rename(columns={"id": id_column})
        df.insert(0, "run_key", task["key"])
        return df

    return run, keyed(result.flows, "flow_id"), keyed(result.nodes, "node_id"), keyed(result.radios, "radio_id")


def _timeseries_table(key: str, result: Any) -> Optional["pandas.DataFrame"]:
    """A run's time series as one long table (``run_key``, ``kind``, ``unit``,
    ``time_s``, ``id``, ``value``; kinds in the results' order), or None when the
    run recorded none (the scenario asked for no time series)."""
    import pandas as pd

    parts = []
    for kind in result.timeseries_kinds:
        df = result.timeseries(kind)
        if df.empty:
            continue
        df = df[["time_s", "id", "value"]].astype({"time_s": "float64", "id": "string", "value": "float64"})
        df.insert(0, "unit", df.attrs.get("unit", "") or "")
        df.insert(0, "kind", kind)
        parts.append(df)
    if not parts:
        return None
    out = pd.concat(parts, ignore_index=True)
    out.insert(0, "run_key", key)
    return out


def _with_timeseries(scenario: Union[Scenario, PathLike, Mapping[str, Any]], kinds: Any) -> Scenario:
    """The scenario with ``outputs.timeseries`` set to ``kinds`` (the spec's
    ``timeseries``): what every run then records, and the sweep stores."""
    base = scenario if isinstance(scenario, Scenario) else Scenario(scenario)
    if not isinstance(kinds, (list, tuple)) or not kinds or not all(isinstance(k, str) for k in kinds):
        raise ScenarioError(errors=[("/timeseries", "must be a non-empty list of time-series kinds "
                                                    '(e.g. ["flow_goodput", "queue_length"]; docs/results.md)')])
    out = base.with_overrides({"/outputs/timeseries": list(kinds)})
    try:
        out.validate()
    except ScenarioError as e:
        # Only the kinds are checked here: the base may be valid only once a point
        # fills it in (each point is validated by the plan, with its own paths).
        bad = [("/timeseries", err.message) for err in e.errors if err.path.startswith("/outputs/timeseries")]
        if bad:
            raise ScenarioError(errors=bad) from None
    return out


EVENT_TRACE_FILE = "events.bin"  # DIR/runs/<run key>/events.bin: a run's event trace, when its scenario asks


def _asks_event_trace(scenario: Scenario, overrides: Mapping[str, Any]) -> bool:
    """Whether the run's scenario, with the point's overrides, writes an event trace (outputs.event_trace)."""
    if "event_trace" not in scenario.to_json(indent=None) and not any(k.startswith("/outputs") for k in overrides):
        return False  # the common case, without building the scenario again
    outputs = scenario.with_overrides(overrides).to_dict().get("outputs") or {}
    return bool(outputs.get("event_trace"))


def _execute(task: Dict[str, Any]) -> Dict[str, Any]:
    """Runs one point with one seed and stores it in DIR/runs/<key> (atomically).

    Runs in a Dask worker. A run whose directory exists already (finished by an
    earlier attempt whose worker died before reporting, or by a concurrent sweep)
    is not run again; if one appears while this one runs, this copy is discarded."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from . import _run

    if _core.__version__ != task["version"]:
        raise RuntimeError(f"this worker has wmnsim {_core.__version__}, the sweep was planned with "
                           f"{task['version']}: install the same version on every worker")
    final = os.path.join(task["out_dir"], RUNS_DIR, task["key"])
    if os.path.isdir(final):
        return {"key": task["key"], "status": "duplicate"}
    overrides = dict(task["overrides"])
    if task["topology_seed"] is not None:
        for g in task["random_groups"]:
            overrides[f"/node_groups/{g}/seed"] = task["topology_seed"]
    tmp = os.path.join(task["out_dir"], TMP_DIR, f"{task['key']}.{uuid.uuid4().hex}")
    os.makedirs(tmp)
    try:
        scenario = Scenario.from_json(task["scenario"])
        if _asks_event_trace(scenario, overrides):
            # Every run of the sweep would write the one path the scenario names (relative to
            # the worker's folder): each writes its own into its run folder instead.
            overrides["/outputs/event_trace/path"] = os.path.join(tmp, EVENT_TRACE_FILE)
        # Warnings are counted in the table (and kept in results.json): not printed by every worker.
        result = _run.run(scenario, seed=task["seed"], overrides=overrides, log_level="error")
        if getattr(result, "partial", False):
            # Stopped early (a signal to the worker, a cancel): stored, it would be skipped
            # as finished by every resume. Raised instead, so Dask retries or reports it.
            raise RuntimeError(f"run {task['key']} stopped before its end (a partial result): not stored")
        run, flows, nodes, radios = _tables(task, result)
        series = _timeseries_table(task["key"], result)
        tables = [("run", run), ("flows", flows), ("nodes", nodes), ("radios", radios)]
        if series is not None:
            tables.append(("timeseries", series))
        hops = result.hops
        if hops is not None and not hops.empty:  # the scenario asked (outputs.hops)
            hops.insert(0, "run_key", task["key"])
            tables.append(("hops", hops))
        for name, df in tables:
            pq.write_table(pa.Table.from_pandas(df, preserve_index=False), os.path.join(tmp, name + ".parquet"))
        if task["keep_results"]:
            text = result.to_json()
            # The scenario recorded in results.json names the event trace where the run wrote it,
            # the temporary folder: name the file where it stays, in the run's folder, instead.
            text = text.replace(json.dumps(tmp)[1:-1], json.dumps(final)[1:-1])
            _core.write_file_atomically(os.path.join(tmp, "results.json"), text)
        try:
            os.rename(tmp, final)  # atomic: readers see the whole run or none of it
        except OSError:
            if not os.path.isdir(final):
                raise
            return {"key": task["key"], "status": "duplicate"}  # another attempt stored it first
    finally:
        if os.path.isdir(tmp):
            shutil.rmtree(tmp, ignore_errors=True)
    return {"key": task["key"], "status": "done", "wall_time_s": result.wall_clock.get("wall_time_s")}


# ---- the sweep -------------------------------------------------------------------------------



class _Stop:
    """Which signal stopped a command: its exit code is 128 + the signal's number."""

    signal: Optional[int] = None


@contextlib.contextmanager
def _stopped_by_signals() -> Iterator[_Stop]:
    """SIGTERM and SIGHUP stop a command as Ctrl-C does (a KeyboardInterrupt: finished
    runs are kept, one line is printed), so that a plain `kill PID` is a clean stop.
    After the first, further stop signals are ignored while the command cleans up (the
    launcher may forward one the interpreter also got as a member of the group)."""
    import signal

    stop = _Stop()
    names = [signal.SIGINT, signal.SIGTERM, signal.SIGHUP]
    if _is_main_thread():
        def handler(signum: int, _frame: Any) -> None:
            if stop.signal is not None:
                return
            stop.signal = signum
            raise KeyboardInterrupt

        old = {n: signal.getsignal(n) for n in names}
        for n in names:
            if old[n] is not signal.SIG_IGN:  # ignored before (nohup): stays ignored
                signal.signal(n, handler)
        try:
            yield stop
        finally:
            for n in names:
                signal.signal(n, old[n])
    else:  # signals are the main thread's: nothing to install
        yield stop


@contextlib.contextmanager
def _held_stop_signals() -> Iterator[Any]:
    """SIGINT, SIGTERM and SIGHUP held back while a cluster starts (a cluster stopped
    half-made cannot close: Dask prints a traceback at exit). Yields a function that
    ends this early; a signal that came meanwhile is raised again then (or on leaving)."""
    import signal

    if not _is_main_thread():
        yield lambda: None
        return
    held: List[int] = []
    names = [signal.SIGINT, signal.SIGTERM, signal.SIGHUP]
    old = {n: signal.getsignal(n) for n in names}
    for n in names:
        if old[n] not in (signal.SIG_IGN, None):
            signal.signal(n, lambda signum, _frame: held.append(signum))
    done = False

    def release() -> None:
        nonlocal done
        if done:
            return
        done = True
        for n in names:
            signal.signal(n, old[n])
        if held:
            signal.raise_signal(held[0])

    try:
        yield release
    finally:
        release()


@contextlib.contextmanager
def _environment(**values: str) -> Iterator[None]:
    """Environment variables for the processes started in the block (a value already
    set by the user wins)."""
    added = [k for k in values if k not in os.environ]
    for k in added:
        os.environ[k] = values[k]
    try:
        yield
    finally:
        for k in added:
            os.environ.pop(k, None)


def _is_main_thread() -> bool:
    import threading

    return threading.current_thread() is threading.main_thread()


@contextlib.contextmanager
def dask_client(scheduler: Any = None, workers: Optional[int] = None) -> Iterator[Any]:
    """A ``distributed.Client`` for several sweeps in a row (``sweep(...,
    scheduler=client)``), so that the cluster starts once: the embedded
    ``LocalCluster`` (``scheduler`` None; ``workers`` processes, default one per
    core, one thread each), the cluster at a scheduler address, or a Client given
    (left open). Closed, with an embedded cluster, on leaving the ``with``."""
    import logging

    from distributed import Client, LocalCluster

    _check_workers(scheduler, workers)
    if scheduler is None:
        n = workers if workers is not None else (os.cpu_count() or 1)
        # Ctrl-C at a terminal signals the whole process group: this process stops
        # the sweep (finished runs kept, one line) and closes the cluster, which ends
        # the workers; the workers ignore it and SIGTERM (wmnsim._worker_setup, loaded as they
        # start; their log levels come from the environment, before silence_logs
        # reaches them). A stop signal while the cluster starts is held back until
        # the cluster can close (_held_stop_signals). The scheduler's HTTP server on a
        # free port (":0"): the default 8787 is taken by any other cluster on the
        # machine (a warning of four lines at every sweep).
        with contextlib.ExitStack() as stack:
            release = stack.enter_context(_held_stop_signals())
            with _environment(DASK_LOGGING__DISTRIBUTED="error"):
                cluster = stack.enter_context(LocalCluster(
                    n_workers=n, threads_per_worker=1, processes=True, dashboard_address=":0",
                    silence_logs=logging.ERROR, preload=["wmnsim._worker_setup"]))
            client = stack.enter_context(Client(cluster))
            release()
            yield client
        return
    if isinstance(scheduler, str):
        try:
            client = Client(scheduler, timeout="10s")
        except (OSError, TimeoutError) as e:
            raise ConnectionError(f"cannot reach the Dask scheduler at {scheduler}: {e}") from None
        with client:
            yield client
        return
    yield scheduler  # a distributed.Client


def _check_out_dir(out_dir: PathLike, what: str = "a sweep stores its runs in a folder",
                   folder: str = "sweep folder") -> None:
    """The sweep's folder is a folder, or can be made one: a path that names a file,
    or lies under one, raises NotADirectoryError saying which (``wmnsim sweep`` and
    ``wmnsim reproduce``: exit 2; `what` says what the folder is for). Missing folders
    are created by the sweep."""
    path = os.path.abspath(os.fspath(out_dir))
    if os.path.isdir(path):
        return
    if os.path.lexists(path):
        raise NotADirectoryError(errno.ENOTDIR, f"{path} is a file, not a folder: {what} "
                                 "(created when missing); choose another output path")
    parent = os.path.dirname(path)
    while parent and not os.path.lexists(parent):
        parent = os.path.dirname(parent)
    if parent and not os.path.isdir(parent):
        raise NotADirectoryError(errno.ENOTDIR, f"cannot make the {folder} {path}: {parent} is a file, "
                                 "not a folder; choose another output path")


def _check_requirements() -> None:
    """Sweeps need packages plain runs do not: say which, before anything runs."""
    import importlib.util

    missing = [m for m in ("distributed", "pyarrow", "pandas", "scipy", "tqdm", "tabulate") if importlib.util.find_spec(m) is None]
    if missing:
        raise ImportError(f"wmnsim.sweep needs {', '.join(missing)}: scripts/setup.sh installs them "
                          "(or: pip install 'wmnsim[sweep]')")


def _check_workers(scheduler: Any, workers: Any) -> None:
    if workers is None:
        return
    if scheduler is not None:
        raise ValueError("workers= sizes the embedded cluster; a cluster given by its scheduler has its own workers")
    if not _is_int(workers) or workers < 1:
        raise ValueError(f"workers must be a positive integer, got {workers!r}")


class _ProgressLine:
    """The sweep's progress bar on stderr (tqdm), counting stored runs, skipped ones
    included; the rate and ETA count the runs of this call only:
    ``[sweep]  68%|██████▊   | 17/25 [00:13<00:06, 1.26 run/s, 0 skipped]``."""

    def __init__(self, total: int, skipped: int, enabled: bool):
        self.total, self.skipped, self.enabled = total, skipped, enabled
        self.failed, self.closed = 0, False
        self.bar: Any = None
        self.submitted_at: Optional[float] = None  # time.time() when the runs went to the cluster

    def _postfix(self) -> str:
        return f"{self.skipped} skipped" + (f", {self.failed} failed" if self.failed else "")

    def started(self) -> None:
        """The cluster is up: the bar, its clock and its rate start here."""
        if not self.enabled:
            return
        from tqdm import tqdm

        # initial=skipped: tqdm counts its rate from `initial` on, so stored runs do not
        # inflate it. dynamic_ncols: the bar follows the terminal's width.
        self.bar = tqdm(total=self.total, initial=self.skipped, desc="[sweep]", unit="run", file=sys.stderr,
                        dynamic_ncols=True, postfix=self._postfix())
        if self.submitted_at is not None:  # runs handed out before the bar opened (wmnsim reproduce)
            self.bar.start_t = min(self.bar.start_t, self.submitted_at)

    def update(self, failed: bool = False) -> None:
        self.failed += int(failed)
        if self.bar is not None:
            if failed:
                self.bar.set_postfix_str(self._postfix(), refresh=False)
            self.bar.update(1)

    def finish(self, keep: bool = True) -> None:
        """Closes the bar; ``keep=False`` (an interrupted sweep) clears it, so that the
        interruption's one line stands alone."""
        if not self.enabled or self.closed:
            return
        if self.bar is None:  # nothing to run: the bar shows the skipped runs once
            self.started()
        self.bar.leave = keep
        self.bar.close()
        self.closed = True


def _write_metadata(out_dir: str, plan: _Plan) -> None:
    """DIR/sweep.json: what the directory holds. A sweep run again into the same
    directory with other points or seeds adds an entry; runs are the union. The
    read-modify-write holds an flock on DIR/.sweep.json.lock, so that sweeps started
    together into one directory each keep their entry."""
    with open(os.path.join(out_dir, LOCK_FILE), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        _update_metadata(out_dir, plan)


def _update_metadata(out_dir: str, plan: _Plan) -> None:
    path = os.path.join(out_dir, METADATA_FILE)
    doc: Dict[str, Any] = {"format": "wmnsim-sweep", "format_version": FORMAT_VERSION, "sweeps": []}
    if os.path.isfile(path):
        with open(path, encoding="utf-8") as f:
            old = json.load(f)
        if isinstance(old, dict) and old.get("format") == "wmnsim-sweep":
            doc["sweeps"] = list(old.get("sweeps", []))
    keys = [r.key for r in plan.runs]
    if any([r["key"] for r in s.get("runs", [])] == keys for s in doc["sweeps"]):
        return  # resumed: already described
    doc["sweeps"].append({
        "wmnsim_version": _core.__version__,
        "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "spec": plan.spec,
        "parameters": plan.parameters,
        "scenario": plan.scenario.to_dict(),
        "runs": [r.describe() for r in plan.runs],
    })
    _core.write_file_atomically(path, json.dumps(doc, indent=1, ensure_ascii=False) + "\n")


def _remove_stale_tmp(out_dir: str, now: Optional[float] = None) -> None:
    """Removes DIR/.tmp entries left by workers killed while they wrote (SIGKILL: no
    cleanup ran). A live run writes its three files within seconds of creating its
    directory, so only entries of which nothing changed for STALE_TMP_S are removed."""
    tmp_dir = os.path.join(out_dir, TMP_DIR)
    now = time.time() if now is None else now
    for name in os.listdir(tmp_dir):
        path = os.path.join(tmp_dir, name)
        try:
            newest = os.lstat(path).st_mtime
            if os.path.isdir(path) and not os.path.islink(path):
                for entry in os.scandir(path):
                    newest = max(newest, entry.stat(follow_symlinks=False).st_mtime)
        except FileNotFoundError:
            continue  # renamed into place or removed meanwhile
        if now - newest < STALE_TMP_S:
            continue
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path, ignore_errors=True)
        else:
            with contextlib.suppress(FileNotFoundError):
                os.remove(path)


def sweep(
    scenario: Union[Scenario, PathLike, Mapping[str, Any]],
    grid: Optional[Mapping[str, Sequence[Any]]] = None,
    *,
    out_dir: PathLike,
    points: Optional[Sequence[Mapping[str, Any]]] = None,
    seeds: Union[int, Sequence[int]] = 1,
    topology_seeds: Optional[Sequence[int]] = None,
    scheduler: Any = None,
    workers: Optional[int] = None,
    progress: Optional[bool] = None,
    keep_results: bool = False,
    max_runs: int = MAX_RUNS,
    timeseries: Optional[Sequence[str]] = None,
    _spec_source: Optional[str] = None,
) -> "SweepData":
    """Runs every point with every seed on Dask and stores the results in ``out_dir``.

    ``scenario``: a :class:`Scenario` or anything ``Scenario()`` takes. ``grid``
    maps JSON pointers to lists of values (every combination is a point, e.g.
    ``{"/mac/cw_min": [16, 32], "/simulation/duration_s": [30]}``); ``points`` is
    an explicit list of such dicts instead; with neither, the scenario runs as it
    is. ``seeds``: a list of simulation seeds, or a count N (seeds 1..N).
    ``topology_seeds``: a list of placement seeds, each set as
    ``/node_groups/<i>/seed`` on every node group with a random placement (the
    other placements take no seed): one network snapshot per value
    (docs/random.md). Every point x topology seed x seed is one
    ``wmnsim.run(scenario, seed=..., overrides=...)`` in a Dask worker.

    Everything is checked before anything runs: bad input raises
    :class:`ScenarioError` naming its JSON path in the spec (``/grid/~1mac~1cw_min/1``).
    ``max_runs`` (default ``MAX_RUNS``, 100,000; a spec's ``"max_runs"``) caps the
    runs a sweep may expand to, counted before any list of points is built.

    ``scheduler``: None starts an embedded ``LocalCluster`` with ``workers``
    processes (default: one per core), one thread each; a scheduler address
    (``"tcp://host:8786"``) uses that cluster (its workers must import this same
    wmnsim version and see ``out_dir`` at the same path); a
    ``distributed.Client`` is used as it is. ``progress``: a progress bar (tqdm) on
    stderr (None: only when stderr is a terminal). ``keep_results``: also store
    each run's results file (``results.json``, what ``wmnsim run -o`` writes).
    ``timeseries``: kinds every run records (sets the scenario's
    ``outputs.timeseries``, a spec's ``"timeseries"``); a run's recorded series are
    stored (``DIR/runs/<key>/timeseries.parquet``) and read as one long table,
    :attr:`SweepData.timeseries`. A scenario that records series itself has them
    stored too.

    Runs already stored in ``out_dir`` are skipped, so calling this again resumes.
    Returns the sweep's runs as :class:`SweepData` (its tables are read on first
    use; ``ran``, ``skipped`` and ``duplicates`` count this call's work). Raises
    :class:`SweepError` when runs failed (the others are stored), and
    KeyboardInterrupt on Ctrl-C (finished runs are stored)."""
    _check_workers(scheduler, workers)
    pending = _prepare(scenario, grid, out_dir=out_dir, points=points, seeds=seeds, topology_seeds=topology_seeds,
                       progress=progress, keep_results=keep_results, max_runs=max_runs, timeseries=timeseries,
                       _spec_source=_spec_source)
    if not pending.todo:  # every run stored already: no cluster needed
        return pending.finish()
    with dask_client(scheduler, workers) as client:
        pending.submit(client)
        return pending.finish()


class _PendingSweep:
    """A sweep checked and planned (:func:`_prepare`), its runs then handed to a cluster
    (``submit``) and waited for (``finish``, what :func:`sweep` returns). Apart, so that
    ``wmnsim reproduce`` hands every sweep of a study to the cluster before it waits for
    the first: a study's sweeps are mostly one or two runs each, which alone would leave
    the other workers idle."""

    def __init__(self, plan: Any, out: str, todo: List[Any], line: "_ProgressLine", keep_results: bool):
        self.plan, self.out, self.todo, self.line = plan, out, todo, line
        self.keep_results = keep_results
        self.client: Any = None
        self.futures: Dict[Any, Any] = {}

    def submit(self, client: Any) -> None:
        """Hands the runs not stored yet to ``client``'s cluster."""
        if not self.todo:
            return
        text = self.plan.scenario._text()
        # Per invocation: a task of an interrupted sweep may still be cancelling on an
        # external scheduler, and a future with its key would come back cancelled. Two
        # attempts at one run are harmless: the atomic rename keeps the first.
        tag = f"{_digest(self.out, 8)}-{uuid.uuid4().hex[:8]}"
        self.client = client
        self.line.submitted_at = time.time()  # the bar's clock, when it opens later (finish)
        for r in self.todo:
            task = {"key": r.key, "point_key": r.point_key, "overrides": r.overrides, "seed": r.seed,
                    "topology_seed": r.topology_seed, "random_groups": list(r.random_groups), "scenario": text,
                    "out_dir": self.out, "version": _core.__version__, "keep_results": self.keep_results}
            self.futures[client.submit(_execute, task, key=f"wmnsim-run-{r.key}-{tag}", pure=False)] = r

    def cancel(self) -> None:
        """Cancels the runs handed out and not finished (finished ones stay stored)."""
        if self.futures:
            self.client.cancel(list(self.futures))

    def finish(self) -> "SweepData":
        """Waits for the runs handed out, then returns the sweep's runs, or raises
        SweepError when some failed (KeyboardInterrupt: the others are cancelled)."""
        out, line = self.out, self.line
        ran = duplicates = 0
        failures: List[Tuple[Dict[str, Any], BaseException]] = []
        if self.futures:
            from distributed import as_completed

            line.started()
            try:
                for future in as_completed(list(self.futures)):
                    r = self.futures[future]
                    if future.status != "finished":  # an error, or cancelled by the scheduler
                        error = future.exception() if future.status == "error" else \
                            RuntimeError(f"the task was {future.status}")
                        failures.append((r.describe(), error))
                        line.update(failed=True)
                        continue
                    status = future.result()["status"]
                    if not os.path.isdir(os.path.join(out, RUNS_DIR, r.key)):
                        failures.append((r.describe(), FileNotFoundError(
                            f"a worker stored run {r.key} but {out} does not show it: with a remote cluster, "
                            "the output directory must be on a file system every worker and this machine share, "
                            "at the same path")))
                        line.update(failed=True)
                        continue
                    ran += status == "done"
                    duplicates += status == "duplicate"
                    line.update()
            except BaseException:
                self.cancel()
                line.finish(keep=False)
                raise
        line.finish()
        self.futures = {}  # counted: the cluster may forget their results
        if failures:
            lines = [f"{len(failures)} of {len(self.plan.runs)} runs failed (the others are stored in {out}; "
                     "running the sweep again retries only the failed ones):"]
            for run, error in failures[:MAX_LISTED_ERRORS]:
                lines.append(f"  point {_canonical(run['overrides'])}, seed {run['seed']}"
                             + (f", topology seed {run['topology_seed']}" if run["topology_seed"] is not None else "")
                             + f": {type(error).__name__}: {error}")
            raise SweepError("\n".join(lines), failures)
        return SweepData(out, [_entry_row(r.describe()) for r in self.plan.runs], self.plan.parameters, ran,
                         line.skipped, duplicates)


def _prepare(scenario: Union[Scenario, PathLike, Mapping[str, Any]], grid: Optional[Mapping[str, Sequence[Any]]] = None,
             *, out_dir: PathLike, points: Optional[Sequence[Mapping[str, Any]]] = None,
             seeds: Union[int, Sequence[int]] = 1, topology_seeds: Optional[Sequence[int]] = None,
             progress: Optional[bool] = None, keep_results: bool = False, max_runs: int = MAX_RUNS,
             timeseries: Optional[Sequence[str]] = None, _spec_source: Optional[str] = None) -> _PendingSweep:
    """What :func:`sweep` does before its runs go to a cluster: checks the input, plans
    the runs, writes the sweep's folder and metadata, and finds the runs not stored yet."""
    _check_requirements()
    if timeseries is not None:
        try:
            scenario = _with_timeseries(scenario, timeseries)
        except ScenarioError as e:
            raise e.with_source(_spec_source) from None
    plan = _plan(scenario, grid, points, seeds, topology_seeds, _spec_source, max_runs)
    out = os.path.abspath(os.fspath(out_dir))
    _check_out_dir(out)
    os.makedirs(os.path.join(out, RUNS_DIR), exist_ok=True)
    os.makedirs(os.path.join(out, TMP_DIR), exist_ok=True)
    _remove_stale_tmp(out)
    _write_metadata(out, plan)

    todo = [r for r in plan.runs if not os.path.isdir(os.path.join(out, RUNS_DIR, r.key))]
    line = _ProgressLine(len(plan.runs), len(plan.runs) - len(todo),
                         progress if progress is not None else sys.stderr.isatty())
    return _PendingSweep(plan, out, todo, line, bool(keep_results))


# ---- reading a sweep directory ----------------------------------------------------------------


class SweepData:
    """The runs of a sweep directory as pandas tables, read on first use.

    ``runs``: one row per run (``run_key``, ``point_key``, the parameters as
    columns named by their JSON pointer, ``seed``, ``topology_seed``, the
    summary flattened (``jain_fairness_index``, ``drops.queue_overflow``, ...),
    run statistics). ``flows``, ``nodes`` and ``radios``: one row per flow / node /
    radio of each run (``flow_id`` / ``node_id`` / ``radio_id``), with the run's
    key, parameters and seeds in front.
    The parameters, ``point_key`` and ``topology_seed`` are those of the sweep that
    asked for the run (its plan, or its sweep.json entry), not stored with the run.
    ``parameters`` lists the parameter columns; ``keys`` the run keys (the
    directories under ``DIR/runs``) in row order. ``ran``, ``skipped`` and
    ``duplicates`` count what :func:`sweep` did (0 from :func:`load`)."""

    def __init__(self, directory: str, rows: Sequence[Dict[str, Any]], parameter_order: Sequence[str] = (),
                 ran: int = 0, skipped: int = 0, duplicates: int = 0):
        self.directory = directory
        self._rows = list(rows)  # per row: run_key, point_key, parameters (as cells), seed, topology_seed
        self.keys = [r["run_key"] for r in self._rows]
        self.ran, self.skipped, self.duplicates = ran, skipped, duplicates
        self._parameter_order = list(parameter_order)
        self._tables: Optional[Tuple[List[str], "pandas.DataFrame", "pandas.DataFrame", "pandas.DataFrame",
                                     "pandas.DataFrame"]] = None

    def _read(self) -> Tuple[List[str], "pandas.DataFrame", "pandas.DataFrame", "pandas.DataFrame",
                             "pandas.DataFrame"]:
        if self._tables is None:
            self._tables = _read_runs(self.directory, self._rows, self._parameter_order)
        return self._tables

    @property
    def parameters(self) -> List[str]:
        """The parameter columns (JSON pointers), in the order the sweeps set them."""
        return list(self._read()[0])

    @property
    def runs(self) -> "pandas.DataFrame":
        """One row per run: keys, parameters, seeds, summary, run statistics."""
        return self._read()[1]

    @property
    def flows(self) -> "pandas.DataFrame":
        """One row per flow and run (``flow_id``), the run's parameters and seeds in front."""
        return self._read()[2]

    @property
    def nodes(self) -> "pandas.DataFrame":
        """One row per node and run (``node_id``), the run's parameters and seeds in front."""
        return self._read()[3]

    @property
    def radios(self) -> "pandas.DataFrame":
        """One row per radio and run (``radio_id``, ``"<node id>:<radio index>"``),
        the run's parameters and seeds in front. Runs stored before the radios
        table existed have no rows here."""
        return self._read()[4]

    @property
    def timeseries(self) -> "pandas.DataFrame":
        """Every stored run's time series as one long table: one row per sample
        (``kind``, ``unit``, ``time_s``, ``id``, ``value``), the run's key,
        parameters and seeds in front. A run records what its scenario's
        ``outputs.timeseries`` lists (``["flow_goodput"]`` unless the scenario says
        otherwise; ``timeseries=`` or a spec's ``"timeseries"`` sets it). Runs stored
        before sweeps kept series have none here. Read on each access (it can be
        large: filter it, or aggregate with ``by=[..., "kind", "id", "time_s"]``)."""
        import pandas as pd

        table = _read_runs(self.directory, self._rows, self._parameter_order, names=("timeseries",))[1]
        for column, dtype in (("kind", "object"), ("unit", "object"), ("time_s", "float64"), ("id", "object"),
                              ("value", "float64")):
            if column not in table.columns:  # no run recorded any: the columns, no rows
                table[column] = pd.Series(dtype=dtype)
        return table

    @property
    def hops(self) -> "pandas.DataFrame":
        """The per-hop table of every stored run whose scenario asked for it
        (``"/outputs/hops": true``; docs/results.md, ``hops``): one row per flow,
        direction and node (``flow``, ``direction``, ``node``, ``hop``, ...), the
        run's key, parameters and seeds in front. No rows when no run has it."""
        return _read_runs(self.directory, self._rows, self._parameter_order, names=("hops",))[1]

    def __repr__(self) -> str:
        return f"<wmnsim.SweepData {self.directory!r}: {len(self.keys)} runs>"

    def aggregate(self, metrics: Optional[Sequence[str]] = None, by: Optional[Sequence[str]] = None,
                  table: str = "runs", confidence: float = 0.95) -> "pandas.DataFrame":
        """:func:`aggregate` of one table (``"runs"``, ``"flows"``, ``"nodes"``,
        ``"radios"``), by default per point (the parameters; for flows, nodes and
        radios also per id)."""
        if table not in ("runs", "flows", "nodes", "radios"):
            raise ValueError(f'table must be "runs", "flows", "nodes" or "radios", not {table!r}')
        if by is None:
            by = list(self.parameters) + {"runs": [], "flows": ["flow_id"], "nodes": ["node_id"],
                                          "radios": ["radio_id"]}[table]
        return aggregate(getattr(self, table), by=by, metrics=metrics, confidence=confidence)

    def summary_table(self, confidence: float = 0.95) -> str:
        """Per point: runs, mean goodput (Mbit/s) with its confidence interval, and
        mean Jain's fairness index, as aligned text (tabulate's "simple" table)."""
        from tabulate import tabulate

        metrics = [m for m in ("total_goodput_bps", "jain_fairness_index") if m in self.runs.columns]
        if self.runs.empty:
            return "no runs"
        agg = self.aggregate(metrics=metrics or ["seed"], confidence=confidence)
        by = list(self.parameters)
        header = by + ["runs"]
        if "total_goodput_bps" in metrics:
            header.append(f"goodput Mbit/s (± {100 * confidence:g} % CI)")
        if "jain_fairness_index" in metrics:
            header.append("Jain's index")
        rows = []
        for values, part in _groups(agg, by):
            stats = part.set_index("metric")
            row = [_cell(v) for v in values] + [str(int(stats["count"].iloc[0]))]
            if "total_goodput_bps" in metrics:
                g = stats.loc["total_goodput_bps"]
                half = "" if _nan(g["ci_half_width"]) else f" ± {g['ci_half_width'] / 1e6:.3f}"
                row.append(f"{g['mean'] / 1e6:.3f}{half}")
            if "jain_fairness_index" in metrics:
                row.append(f"{stats.loc['jain_fairness_index', 'mean']:.3f}")
            rows.append(row)
        # Cells are text already (our own number formats): no parsing, all left-aligned.
        return tabulate(rows, header, tablefmt="simple", disable_numparse=True, stralign="left")


def _groups(df: "pandas.DataFrame", by: Sequence[str]) -> Iterator[Tuple[tuple, "pandas.DataFrame"]]:
    """(values of ``by``, rows) per group, in order of first appearance, NaN a value
    of its own; the whole table as one group when ``by`` is empty."""
    if not by:
        yield (), df
        return
    for values, part in df.groupby(list(by) if len(by) > 1 else by[0], sort=False, dropna=False):
        yield (values if isinstance(values, tuple) else (values,)), part


def _nan(x: Any) -> bool:
    return isinstance(x, float) and math.isnan(x)


def _cell(value: Any) -> str:
    if value is None or _nan(value):
        return "-"
    return f"{value:g}" if isinstance(value, float) else str(value)


TABLE_FILES = ("run", "flows", "nodes", "radios")  # DIR/runs/<run key>/<name>.parquet
# Tables a run may lack: radios (runs stored before the table existed), timeseries
# (runs that recorded none), hops (runs whose scenario did not ask: outputs.hops).
OPTIONAL_TABLES = ("radios", "timeseries", "hops")


def _table_sources(run_dirs: Sequence[str], name: str, compacted: Optional[str],
                   compacted_keys: Sequence[str]) -> Tuple[List[Tuple[List[str], Any]], Any]:
    """Where one kind of table (``name``) of the runs in ``run_dirs`` is stored:
    (files, row filter) pairs, the runs' own files first, then the compacted table
    for the runs of ``compacted_keys`` (:func:`compact`), and the schema to read them
    under (the union of theirs: runs stored with other columns, by an older wmnsim or
    other controllers, have the missing ones null). No sources: no run has the table
    (an optional one, or radios before that table existed)."""
    import pyarrow as pa
    import pyarrow.dataset as ds
    import pyarrow.parquet as pq

    in_compacted = set(compacted_keys)
    paths = [os.path.join(d, f"{name}.parquet") for d in run_dirs if os.path.basename(d) not in in_compacted]
    if name in OPTIONAL_TABLES:
        paths = [p for p in paths if os.path.exists(p)]
    sources: List[Tuple[List[str], Any]] = []
    schemas = []
    if paths:
        schemas += [f.physical_schema for f in ds.dataset(paths, format="parquet").get_fragments()]
        sources.append((paths, None))
    compacted_path = os.path.join(compacted, f"{name}.parquet") if compacted else None
    if in_compacted and compacted_path and os.path.exists(compacted_path):
        schemas.append(pq.read_schema(compacted_path))
        sources.append(([compacted_path], ds.field("run_key").isin(sorted(in_compacted))))
    if not sources:
        return [], None
    same = all(x.equals(schemas[0]) for x in schemas)
    return sources, schemas[0] if same else pa.unify_schemas(schemas, promote_options="permissive")


def _read_table(run_dirs: Sequence[str], name: str, compacted: Optional[str] = None,
                compacted_keys: Sequence[str] = ()) -> Any:
    """One kind of table (``name``) of every run in ``run_dirs`` as a pandas
    DataFrame, read as pyarrow datasets: a few calls into Arrow, not a pandas frame
    per file (issue 42: 120 runs loaded in 6.9 s that way). The runs of
    ``compacted_keys`` are read from the compacted table in ``compacted``, the
    others from their own directory (:func:`_table_sources`). Each run's rows keep
    their stored order; the order of the runs is not kept (callers pick rows by
    ``run_key``). None when no run has the table."""
    import pyarrow as pa
    import pyarrow.dataset as ds

    sources, schema = _table_sources(run_dirs, name, compacted, compacted_keys)
    if not sources:
        return None
    tables = [ds.dataset(files, schema=schema, format="parquet").to_table(filter=keep) for files, keep in sources]
    return (tables[0] if len(tables) == 1 else pa.concat_tables(tables)).to_pandas()


def _write_compacted_table(run_dirs: Sequence[str], name: str, compacted: Optional[str],
                           compacted_keys: Sequence[str], path: str, rows_per_group: int = 65536) -> bool:
    """What :func:`_read_table` reads for the same arguments, written to ``path`` as
    it is read: the files' record batches (at most ``rows_per_group`` rows, one read
    ahead) stream into a Parquet writer, gathered into row groups of up to twice that,
    so a compaction holds a few groups' rows in memory, not the table of every run. Fsyncs the file. False when no run has
    the table (nothing written)."""
    import pyarrow as pa
    import pyarrow.dataset as ds
    import pyarrow.parquet as pq

    sources, schema = _table_sources(run_dirs, name, compacted, compacted_keys)
    if not sources:
        return False
    with pq.ParquetWriter(path, schema) as writer:
        pending: List[Any] = []
        rows = 0
        for files, keep in sources:
            # Batches no larger than a group, one read ahead: memory holds about two groups.
            batches = ds.dataset(files, schema=schema, format="parquet").to_batches(
                filter=keep, batch_size=rows_per_group, batch_readahead=1, fragment_readahead=1)
            for batch in batches:
                pending.append(batch)
                rows += batch.num_rows
                if rows >= rows_per_group:
                    writer.write_table(pa.Table.from_batches(pending, schema=schema))
                    pending, rows = [], 0
        if pending:
            writer.write_table(pa.Table.from_batches(pending, schema=schema))
    _fsync(path)
    return True


def _fsync(path: str) -> None:
    """Makes a file's (or a directory's entries') writes durable: a crash after
    :func:`compact`'s switch must not find the new files empty, nor the runs' own
    files gone before their markers exist."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _compacted_dir(directory: str) -> Optional[str]:
    """DIR/compacted/current (the last complete compaction), or None."""
    path = os.path.join(directory, COMPACTED_DIR, COMPACTED_CURRENT)
    return path if os.path.isdir(path) else None


def _compacted_keys(directory: str, keys: Sequence[str]) -> List[str]:
    """The runs of ``keys`` whose tables are read from the compacted files: those the
    current compacted run table holds and whose directory holds the compaction's
    marker. Either alone is not enough: a compaction stopped between switching to its
    files and writing the markers leaves runs the compacted files hold that are still
    read from their own, and a run directory made again after a compaction (removed,
    then run again) has no marker and new files of its own, while the compacted files
    still hold its old rows until the next compaction."""
    import pyarrow.parquet as pq

    current = _compacted_dir(directory)
    if current is None:
        return []
    held = set(pq.read_table(os.path.join(current, f"{TABLE_FILES[0]}.parquet"), columns=["run_key"])
               .column(0).to_pylist())
    runs_dir = os.path.join(directory, RUNS_DIR)
    return [k for k in keys if k in held and os.path.exists(os.path.join(runs_dir, k, COMPACTED_MARKER))]


def compact(directory: PathLike) -> int:
    """Merges the per-run table files of a sweep directory into one file per table
    (``DIR/compacted/current/<table>.parquet``), so that :func:`load` opens a handful
    of files instead of four or more per run. Returns how many runs it moved in.

    What :func:`load` returns does not change (the test compares the tables). Runs
    stored later (a resumed sweep, added seeds) are read from their own files until the
    next compaction; each run directory stays, with a marker file in place of its
    tables (and its ``results.json``), so a resumed sweep still skips it. Safe against
    a crash at any point, a power cut included: the new files become current in one
    rename, and a run's own files are removed only after that, each step on disk
    (fsync) before the next. Streams: memory holds a few row groups (of about 65,536
    rows) of a table, not the table of every run. Holds the directory's lock (``sweep`` runs that
    store meanwhile are taken by the next compaction); a :func:`load` running at the
    same time may fail (run it again)."""
    directory = os.path.abspath(os.fspath(directory))
    runs_dir = os.path.join(directory, RUNS_DIR)
    if not os.path.isdir(runs_dir):
        raise FileNotFoundError(f"{directory} is not a sweep directory (no {RUNS_DIR}/ folder)")
    with open(os.path.join(directory, LOCK_FILE), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one compaction at a time; sweep.json's writers wait
        keys = sorted(os.listdir(runs_dir))
        marked = set(_compacted_keys(directory, keys))
        loose = [k for k in keys if k not in marked and
                 os.path.exists(os.path.join(runs_dir, k, f"{TABLE_FILES[0]}.parquet"))]
        if not loose:
            return 0
        old = _compacted_dir(directory)
        base = os.path.join(directory, COMPACTED_DIR)
        if not os.path.isdir(base):
            os.makedirs(base)
            _fsync(directory)  # base's own entry
        generation = os.path.join(base, f"g-{uuid.uuid4().hex}")
        os.makedirs(generation)
        for name in dict.fromkeys(TABLE_FILES + OPTIONAL_TABLES):  # radios is in both: once
            # The runs compacted before (from the current files) and the new ones.
            _write_compacted_table([os.path.join(runs_dir, k) for k in loose], name, old, sorted(marked),
                                   os.path.join(generation, f"{name}.parquet"))
        _fsync(generation)
        _fsync(base)  # generation's entry, before the link that names it
        # The switch, then the markers, then the runs' own files go: stopped anywhere,
        # every run is read once, from its current rows (_compacted_keys). Markers
        # first would let a rerun's marker point at the old set's stale rows of it.
        # Each step is on disk before the next starts (fsync; one sync for the
        # markers), so a power cut keeps that order too.
        link = os.path.join(base, f".current-{uuid.uuid4().hex}")
        os.symlink(os.path.basename(generation), link)
        os.replace(link, os.path.join(base, COMPACTED_CURRENT))  # atomic: the old or the new set
        _fsync(base)
        for k in loose:
            with open(os.path.join(runs_dir, k, COMPACTED_MARKER), "w", encoding="utf-8") as f:
                f.write(f"This run's tables are in ../../{COMPACTED_DIR}/{COMPACTED_CURRENT}/ "
                        "(wmnsim.sweep.compact, docs/sweeps.md).\n")
        os.sync()  # every marker and its directory entry, in one call rather than two per run
        for k in loose:
            for name in TABLE_FILES + OPTIONAL_TABLES:
                with contextlib.suppress(FileNotFoundError):
                    os.remove(os.path.join(runs_dir, k, f"{name}.parquet"))
        for entry in os.listdir(base):
            if entry.startswith("g-") and entry != os.path.basename(generation):
                shutil.rmtree(os.path.join(base, entry), ignore_errors=True)
    return len(loose)


def _entry_row(run: Mapping[str, Any]) -> Dict[str, Any]:
    """A run as a sweep asked for it (``_Run.describe()``, a sweep.json ``runs``
    entry) -> the columns the sweep gives it: key, point key, parameters, seeds."""
    row: Dict[str, Any] = {"run_key": run["key"], "point_key": run.get("point_key")}
    for pointer, value in (run.get("overrides") or {}).items():
        row[pointer] = _parameter_value(value)
    row["seed"] = run.get("seed")
    row["topology_seed"] = run.get("topology_seed")
    return row


def load(directory: PathLike, keys: Optional[Sequence[str]] = None) -> SweepData:
    """A sweep directory's runs (every stored run, or those of ``keys``) as a
    :class:`SweepData`. Rows follow the sweeps' order (points, topology seeds,
    seeds) as recorded in sweep.json.

    The parameters, ``point_key`` and ``topology_seed`` come from the sweep.json
    entries. With several sweeps in the directory, there is one row per (sweep
    point, run): a run that two sweeps reached by different parameters (a default
    set explicitly, /node_groups/0/seed instead of topology_seeds) appears once per
    way, each row with that sweep's values (a parameter another sweep did not set
    is missing, NaN); the same point of several sweeps is one row. A stored run no
    entry describes has its key and results only."""
    directory = os.path.abspath(os.fspath(directory))
    runs_dir = os.path.join(directory, RUNS_DIR)
    if not os.path.isdir(runs_dir):
        raise FileNotFoundError(f"{directory} is not a sweep directory (no {RUNS_DIR}/ folder)")
    rows: Dict[str, Dict[str, Any]] = {}  # canonical row -> row, in the sweeps' order
    parameters: List[str] = []
    meta_path = os.path.join(directory, METADATA_FILE)
    if os.path.isfile(meta_path):
        with open(meta_path, encoding="utf-8") as f:
            for s in json.load(f).get("sweeps", []):
                parameters += [p for p in s.get("parameters", []) if p not in parameters]
                for r in s.get("runs", []):
                    row = _entry_row(r)
                    rows.setdefault(_canonical(row), row)
    stored = set(os.listdir(runs_dir))
    described = {r["run_key"] for r in rows.values()}
    found = [r for r in rows.values() if r["run_key"] in stored]
    found += [{"run_key": k} for k in sorted(stored - described)]
    if keys is not None:
        wanted = set(keys)
        found = [r for r in found if r["run_key"] in wanted]
    return SweepData(directory, found, parameters)


def _read_runs(directory: str, rows: Sequence[Dict[str, Any]], parameter_order: Sequence[str],
               names: Sequence[str] = TABLE_FILES) -> Tuple[Any, ...]:
    """The parameters and the tables ``names`` (default: runs, flows, nodes and
    radios) of ``rows``: each row's stored run (by its key) with that row's
    parameters, point key and seeds in front, rows in the order of ``rows`` (a run
    that several rows name appears once per row)."""
    import pandas as pd

    if not rows:
        return tuple([[]] + [pd.DataFrame() for _ in names])
    plan = pd.DataFrame(list(rows))
    columns = list(plan.columns)
    parameters = [p for p in parameter_order if p in columns] + \
        [c for c in columns if c.startswith("/") and c not in parameter_order]
    for c in ["point_key"] + parameters + ["seed", "topology_seed"]:
        if c not in plan.columns:
            plan[c] = None
    plan["topology_seed"] = pd.array(plan["topology_seed"].tolist(), dtype="Int64")
    front = ["run_key", "point_key"] + parameters + ["seed", "topology_seed"]
    plan = plan[front]
    keys = list(dict.fromkeys(r["run_key"] for r in rows))
    run_dirs = [os.path.join(directory, RUNS_DIR, k) for k in keys]
    compacted, compacted_keys = _compacted_dir(directory), _compacted_keys(directory, keys)

    def joined(name: str, with_point_key: bool) -> "pandas.DataFrame":
        """Table ``name`` of every row's run, the row's columns in front."""
        head_columns = front if with_point_key else [c for c in front if c != "point_key"]
        stored = _read_table(run_dirs, name, compacted, compacted_keys)
        if stored is None:
            return plan.iloc[[]][head_columns].reset_index(drop=True)
        if name == "run":
            # Directories written before the plan columns left the stored files: the
            # sweep's own values win, never those of the sweep that ran it first.
            stored = stored.drop(columns=[c for c in stored.columns if c in PLAN_COLUMNS or str(c).startswith("/")])
        run_key = stored["run_key"]
        stored = stored.drop(columns=[c for c in head_columns if c in stored.columns])
        # Each plan row's stored rows, in the plan's order then the stored order.
        by_key: Dict[str, List[int]] = {}
        for i, k in enumerate(run_key):
            by_key.setdefault(k, []).append(i)
        plan_index: List[int] = []
        stored_index: List[int] = []
        for i, k in enumerate(plan["run_key"]):
            found = by_key.get(k, ())
            plan_index += [i] * len(found)
            stored_index += found
        head = plan.iloc[plan_index][head_columns].reset_index(drop=True)
        return pd.concat([head, stored.iloc[stored_index].reset_index(drop=True)], axis=1)

    return tuple([parameters] + [joined(name, name == "run") for name in names])


# ---- statistics ----------------------------------------------------------------------------------


def aggregate(df: "pandas.DataFrame", by: Optional[Sequence[str]] = None, metrics: Optional[Sequence[str]] = None,
              confidence: float = 0.95) -> "pandas.DataFrame":
    """Statistics of ``metrics`` per group of ``by`` (default: the parameter
    columns, those named by a JSON pointer): one row per group and metric, with
    ``count``, ``mean``, ``std`` (sample standard deviation, ddof=1),
    ``ci_half_width``, ``ci_low``, ``ci_high`` (Student-t interval of the mean at
    ``confidence``, t from scipy.stats.t.ppf: NaN with fewer than two values),
    ``min``, ``q25``, ``median``, ``q75`` (linear interpolation), ``max``.
    ``metrics`` defaults to every numeric column but the keys and seeds. Missing
    values (NaN) are left out of a metric's statistics."""
    import pandas as pd
    from scipy import stats

    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be between 0 and 1, got {confidence!r}")
    by = [c for c in df.columns if isinstance(c, str) and c.startswith("/")] if by is None else list(by)
    missing = [c for c in by if c not in df.columns]
    if missing:
        raise KeyError(f"no column {missing[0]!r} to group by (columns: {', '.join(map(str, df.columns))})")
    if metrics is None:
        skip = set(by) | {"seed", "topology_seed", "events_executed", "interrupted", "warnings",
                          "wall_time_s", "events_per_s"}
        metrics = [c for c in df.columns if c not in skip and pd.api.types.is_numeric_dtype(df[c])
                   and not pd.api.types.is_bool_dtype(df[c])]
    for m in metrics:
        if m not in df.columns:
            close = difflib.get_close_matches(str(m), [str(c) for c in df.columns], n=1)
            hint = f'; did you mean "{close[0]}"?' if close else ""
            raise KeyError(f"no column {m!r} to aggregate{hint}")
    import numpy as np

    # One groupby over every metric (issue 42: a Python loop per group and metric was
    # the cost at thousands of groups); the same statistics as Series.mean/std/quantile.
    values = df[list(metrics)].apply(pd.to_numeric, errors="coerce").astype(float)
    if by:
        grouped = values.groupby([df[c] for c in by], sort=False, dropna=False)
    else:
        grouped = values.groupby(np.zeros(len(values), dtype=int), sort=False)  # one group: the whole table
    count, mean, std = grouped.count(), grouped.mean(), grouped.std(ddof=1)
    low, high = grouped.min(), grouped.max()
    quartiles = {q: grouped.quantile(q) for q in (0.25, 0.5, 0.75)}
    if not by and values.empty:  # the whole (empty) table is still one group
        index = pd.Index([0])
        count, mean, std, low, high = (x.reindex(index) for x in (count, mean, std, low, high))
        count = count.fillna(0)
        quartiles = {q: x.reindex(index) for q, x in quartiles.items()}
    columns = by + ["metric", "count", "mean", "std", "ci_half_width", "ci_low", "ci_high",
                    "min", "q25", "median", "q75", "max"]
    frames = []
    for m in metrics:
        n = count[m].to_numpy(dtype=float)
        sd = std[m].to_numpy(dtype=float)
        with np.errstate(invalid="ignore", divide="ignore"):
            t = stats.t.ppf(0.5 + confidence / 2, np.where(n > 1, n - 1, np.nan))
            half = np.where(n > 1, t * sd / np.sqrt(n), math.nan)
        mu = mean[m].to_numpy(dtype=float)
        frame = pd.DataFrame({"metric": m, "count": n.astype(int), "mean": mu, "std": sd, "ci_half_width": half,
                              "ci_low": mu - half, "ci_high": mu + half, "min": low[m].to_numpy(dtype=float),
                              "q25": quartiles[0.25][m].to_numpy(dtype=float),
                              "median": quartiles[0.5][m].to_numpy(dtype=float),
                              "q75": quartiles[0.75][m].to_numpy(dtype=float), "max": high[m].to_numpy(dtype=float)})
        if by:
            keys = count.index.to_frame(index=False)
            keys.columns = by
            frame = pd.concat([keys, frame], axis=1)
        frame["_group"] = np.arange(len(frame))
        frames.append(frame)
    out = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=columns)
    if frames:  # group by group, each group's metrics in the order asked for
        out = out.sort_values("_group", kind="stable").drop(columns="_group").reset_index(drop=True)[columns]
    out.attrs["confidence"] = confidence
    return out


# ---- the command line's `wmnsim sweep SPEC -o DIR` ------------------------------------------------


def run_spec_command(spec_path: PathLike, out_dir: PathLike, scheduler: Optional[str] = None,
                     workers: Optional[int] = None, progress: Optional[bool] = None) -> int:
    """``wmnsim sweep SPEC -o DIR [--scheduler ADDR] [--workers N]``: runs a spec
    file's sweep, compacts the directory (:func:`compact`) when every run is stored,
    prints the summary table on stdout, and returns the exit code:
    0 done, 2 invalid input (messages on stderr, nothing run), 1 runs failed or
    an internal error, 130 interrupted (finished runs are kept: the same command
    resumes)."""
    spec = os.fspath(spec_path)
    with _stopped_by_signals() as stop:
        return _run_spec_command(spec, out_dir, scheduler, workers, progress, stop)


def _run_spec_command(spec: str, out_dir: PathLike, scheduler: Optional[str], workers: Optional[int],
                      progress: Optional[bool], stop: _Stop) -> int:
    try:
        # Invalid input is told apart here, before anything runs: a ValueError from
        # pandas or pyarrow during the sweep is an internal error (exit 1), not exit 2.
        try:
            kwargs = load_spec(spec)
            _check_workers(scheduler, workers)
            _check_out_dir(out_dir)
        except ScenarioError as e:
            print(str(e), file=sys.stderr)
            return EXIT_INVALID
        except ValueError as e:  # workers= with a scheduler address, a bad worker count
            print(f"wmnsim sweep: {e}", file=sys.stderr)
            return EXIT_INVALID
        except NotADirectoryError as e:  # -o names a file
            print(f"wmnsim sweep: -o: {e.strerror}", file=sys.stderr)
            return EXIT_INVALID
        data = sweep(out_dir=out_dir, scheduler=scheduler, workers=workers, progress=progress,
                     _spec_source=spec, **kwargs)
        # One file per table, so that loading a study of thousands of runs opens a few
        # files, not four per run (docs/sweeps.md "The dataset"); resumes still work.
        # Every run is stored by now: a compaction that fails (a full disk, a file
        # system without symbolic links) loses nothing and is only a warning.
        try:
            compact(out_dir)
        except OSError as e:
            print(f"wmnsim sweep: warning: the runs are stored but not compacted ({e}); "
                  f"wmnsim.sweep.compact({os.fspath(out_dir)!r}) compacts them later", file=sys.stderr)
    except ScenarioError as e:  # the points, checked by sweep() before anything runs
        print(str(e), file=sys.stderr)
        return EXIT_INVALID
    except KeyboardInterrupt:
        print(f"\ninterrupted: finished runs are kept in {out_dir}; the same command resumes", file=sys.stderr)
        return 128 + stop.signal if stop.signal is not None else EXIT_INTERRUPTED
    except (SweepError, ConnectionError) as e:
        print(str(e), file=sys.stderr)
        return EXIT_INTERNAL
    except Exception as e:  # noqa: BLE001 - the command line reports, never a traceback
        print(f"wmnsim sweep: internal error: {type(e).__name__}: {e}", file=sys.stderr)
        return EXIT_INTERNAL
    print(data.summary_table())
    print(f"\n{len(data.runs)} runs in {os.path.abspath(os.fspath(out_dir))}: {data.ran} run now, "
          f"{data.skipped} skipped (stored before)" + (f", {data.duplicates} duplicates discarded"
                                                      if data.duplicates else ""))
    return EXIT_OK


# ``wmnsim.sweep`` is this module's sweep function (exported by the package), so
# the module's other entry points hang off it too: wmnsim.sweep.load(DIR).
sweep.load = load  # type: ignore[attr-defined]
sweep.compact = compact  # type: ignore[attr-defined]
sweep.aggregate = aggregate  # type: ignore[attr-defined]
sweep.load_spec = load_spec  # type: ignore[attr-defined]
sweep.run_spec_command = run_spec_command  # type: ignore[attr-defined]
sweep.dask_client = dask_client  # type: ignore[attr-defined]
sweep.SweepData = SweepData  # type: ignore[attr-defined]
sweep.SweepError = SweepError  # type: ignore[attr-defined]
