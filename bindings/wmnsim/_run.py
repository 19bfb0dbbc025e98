"""wmnsim.run: one simulation, through the same code as ``wmnsim run``."""
from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from typing import Any, Callable, List, Optional, Sequence, Union

from . import _core
from ._errors import ScenarioError
from .result import Progress, Result
from .scenario import Overrides, Scenario

__all__ = ["run"]

ProgressArg = Union[bool, Callable[[Progress], Any], None]


def run(
    scenario: Union[Scenario, str, "os.PathLike[str]", Mapping[str, Any]],
    seed: Optional[int] = None,
    overrides: Optional[Overrides] = None,
    progress: ProgressArg = False,
    *,
    log_level: str = "warn",
    cancel: Any = None,
    fingerprint: bool = False,
    log_nodes: Optional[Sequence[str]] = None,
) -> Result:
    """Runs a scenario and returns its :class:`Result`.

    ``scenario`` is a :class:`Scenario` or anything ``Scenario()`` takes (a path, a
    dict, JSON text). ``overrides`` replaces values first (see
    :meth:`Scenario.with_overrides`), then ``seed`` sets ``/simulation/seed``:
    exactly ``wmnsim run FILE --set ... --seed N``, so the same scenario and seed
    give the same results through Python and the command line.

    ``progress``: ``True`` prints the command line's progress line to stderr (once
    a run lasts a second); a callable gets a :class:`Progress` about four times a
    second and once at the end.

    The GIL is released while the simulation runs, so runs in several threads
    proceed in parallel. Ctrl-C stops a run within a fraction of a second and raises
    KeyboardInterrupt (its ``result`` attribute holds the partial Result, with
    ``interrupted`` true). ``cancel``: an object with ``is_set()`` (a
    ``threading.Event``) that stops the run from another thread; the run then
    returns its partial Result. ``log_level``: trace, debug, info, warn, error,
    critical or off (log lines go to stderr). ``fingerprint``: hash the event trace
    (docs/fingerprints.md) into :attr:`Result.event_fingerprint`, as ``wmnsim run
    --fingerprint`` does. ``log_nodes``: node ids whose debug and trace lines are
    logged (``wmnsim run --log-node``); None: every node. A partial Result (Ctrl-C,
    ``cancel``) holds the tables measured up to the stop, with ``partial`` true.

    Raises :class:`ScenarioError` (a ValueError) for invalid input, with every
    problem's JSON path, and :class:`NotSupportedError` (a ScenarioError and a
    NotImplementedError) when this build cannot simulate what the scenario asks for.
    ``outputs.results_file`` and ``outputs.timeseries_file`` are the command line's:
    this writes nothing (``Result.to_json(path)`` does).
    """
    sc = scenario if isinstance(scenario, Scenario) else Scenario(scenario)
    assignments = []
    if overrides is not None:
        from .scenario import _assignments

        assignments = _assignments(overrides)
    if seed is not None:
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise TypeError(f"seed must be an int, not {type(seed).__name__}")
        assignments.append(f"/simulation/seed={seed}")  # after the overrides, as the CLI does
    sc = sc.with_overrides(assignments)

    if not isinstance(log_level, str):
        raise TypeError(f"log_level must be a str (trace, debug, info, warn, error, critical or off), "
                        f"not {type(log_level).__name__}")
    callback = _callback(progress)
    _check_cancel(cancel)
    try:
        document, pending = _core.run(sc._text(), sc.name or "scenario", log_level, callback, cancel,
                                      bool(fingerprint), _node_ids(log_nodes))
    except ScenarioError as e:  # NotSupportedError included: with_source keeps the class
        raise e.with_source(sc.source) from None
    result = Result(document)
    section = sc.to_dict().get("outputs", {}).get("event_trace")
    if isinstance(section, dict) and isinstance(section.get("path"), str):
        result._event_trace_path = os.path.abspath(section["path"])
    _raise_pending(pending, result)
    return result


def _node_ids(log_nodes: Optional[Sequence[str]]) -> List[str]:
    if log_nodes is None:
        return []
    if isinstance(log_nodes, str):
        raise TypeError("log_nodes must be a list of node ids, not a string")
    return [str(n) for n in log_nodes]


def _raise_pending(pending: Optional[BaseException], result: Any) -> None:
    """Re-raises what stopped a run from Python (KeyboardInterrupt from Ctrl-C, or
    an exception of the progress callable), with the partial result attached."""
    if pending is None:
        return
    try:
        pending.result = result  # type: ignore[attr-defined]
    except AttributeError:
        pass
    raise pending


def _engine_workload(duration_s: float, period_s: float = 1e-6, progress: ProgressArg = False,
                     cancel: Any = None) -> dict:
    """Testing aid: the event engine alone (one self-rescheduling timer every
    ``period_s``) run to ``duration_s`` through the same GIL release, Ctrl-C and
    cancel plumbing as :func:`run`; needs no radio stack. Returns ``finished``,
    ``simulated_time_s``, ``events_executed``."""
    _check_cancel(cancel)
    out = _core.engine_workload(duration_s, period_s, _callback(progress), cancel)
    pending = out.pop("pending_error")
    _raise_pending(pending, out)
    return out


def _check_cancel(cancel: Any) -> None:
    """``cancel`` is polled from the run (is_set()) with the GIL taken for a moment:
    a wrong type is refused here, by name, not found out there as an AttributeError."""
    if cancel is not None and not callable(getattr(cancel, "is_set", None)):
        raise TypeError(f"cancel must be None or an object with is_set() (a threading.Event), "
                        f"not {type(cancel).__name__}")


def _callback(progress: ProgressArg) -> Optional[Callable[..., None]]:
    if progress is None or progress is False:
        return None
    if progress is True:
        return _ProgressLine()
    if not callable(progress):
        raise TypeError("progress must be True, False or a callable taking a wmnsim.Progress")
    user = progress

    def call(simulated_s: float, end_s: float, events: int, wall_s: float) -> None:
        user(Progress(simulated_s, end_s, events, wall_s))

    return call


class _ProgressLine:
    """The command line's progress line, redrawn in place on stderr, shown once a
    run has lasted about a second. Written by hand, not by tqdm as a sweep's bar: it is
    the line `wmnsim run` draws in C++, and the two stay one format."""

    def __init__(self) -> None:
        self.shown = False

    def __call__(self, simulated_s: float, end_s: float, events: int, wall_s: float) -> None:
        p = Progress(simulated_s, end_s, events, wall_s)
        final = simulated_s >= end_s
        if wall_s < 1.0 and not self.shown:
            return
        self.shown = True
        sys.stderr.write(
            f"\r[wmnsim] {simulated_s:.1f}/{end_s:.0f} s simulated ({100 * p.fraction:3.0f}%)  "
            f"{p.events_per_s:.3g} events/s  ETA {p.eta_s:.0f} s   {chr(10) if final else ''}"
        )
        sys.stderr.flush()
