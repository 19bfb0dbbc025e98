"""Results of a run (docs/results.md) as pandas tables."""
from __future__ import annotations

import difflib
import json
import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Dict, List, NamedTuple, Optional, Union

from . import _core
from .scenario import Scenario

if TYPE_CHECKING:  # pandas is imported when a table is asked for
    import pandas

__all__ = ["Result", "Progress"]

PathLike = Union[str, "os.PathLike[str]"]

#: The results format this module reads and writes (docs/results.md).
FORMAT_VERSION = 2


class Progress(NamedTuple):
    """Where a run stands, as handed to a ``progress`` callable of :func:`wmnsim.run`."""

    simulated_s: float  #: simulated time reached
    end_s: float  #: simulated time the run goes to
    events_executed: int
    wall_time_s: float  #: wall time since the run started

    @property
    def fraction(self) -> float:
        """Share of the run done, 0..1."""
        return self.simulated_s / self.end_s if self.end_s > 0 else 1.0

    @property
    def events_per_s(self) -> float:
        """Events executed per second of wall clock so far (0 before any time has passed)."""
        return self.events_executed / self.wall_time_s if self.wall_time_s > 0 else 0.0

    @property
    def eta_s(self) -> float:
        """Estimated wall time left."""
        f = self.fraction
        return self.wall_time_s * (1.0 - f) / f if f > 0 else 0.0


class Result:
    """The results of one run: per-flow and per-node tables, time series, summary.

    Made by :func:`wmnsim.run`, or read from a results file written by
    ``wmnsim run -o`` with :meth:`from_json`. :meth:`to_json` writes exactly the
    command line's file. Tables are built on each access (copies: change them
    freely).
    """

    __slots__ = ("_doc", "_data", "_event_trace_path")

    def __init__(self, document: "_core.ResultsDocument"):
        if not isinstance(document, _core.ResultsDocument):
            raise TypeError("use wmnsim.run(...) or Result.from_json(...) to make a Result")
        self._doc = document
        self._data: Dict[str, Any] = json.loads(document.text())
        _check_results(self._data)
        # Set by wmnsim.run(): where the run wrote its event trace, made absolute then.
        self._event_trace_path: Optional[str] = None

    @classmethod
    def from_json(cls, source: Union[PathLike, Mapping[str, Any]]) -> "Result":
        """A Result from a results file (path), its JSON text, or its parsed dict.

        Raises ValueError when the document is not a wmnsim results document or has
        a newer format version; OSError when the file cannot be read."""
        if isinstance(source, Mapping):
            text = json.dumps(source, ensure_ascii=False, allow_nan=False)
        elif isinstance(source, str) and source.lstrip().startswith("{"):
            text = source
        elif isinstance(source, (str, os.PathLike)):
            with open(os.fspath(source), encoding="utf-8") as f:
                text = f.read()
        else:
            raise TypeError(f"Result.from_json takes a path, JSON text or a dict, not {type(source).__name__}")
        return cls(_core.ResultsDocument.from_text(text))

    # ---- the run ------------------------------------------------------------------

    @property
    def seed(self) -> int:
        """The master seed of the run."""
        return self._data["seed"]

    @property
    def run_info(self) -> Dict[str, Any]:
        """``simulated_time_s``, ``events_executed``, ``event_fingerprint``,
        ``fingerprint_records``, ``interrupted``, ``partial``."""
        return dict(self._data["run"])

    @property
    def interrupted(self) -> bool:
        """True if the run was stopped before the end (Ctrl-C or a cancel event)."""
        return bool(self._data["run"].get("interrupted", False))

    @property
    def partial(self) -> bool:
        """True if the tables cover the run only up to where it stopped (an
        interrupted or cancelled run; the measurement window is clipped to the
        stop, docs/results.md "Partial results")."""
        return bool(self._data["run"].get("partial", False))

    @property
    def simulated_time_s(self) -> float:
        """The simulated time the run reached, in seconds (short of the duration when interrupted)."""
        return float(self._data["run"]["simulated_time_s"])

    @property
    def event_fingerprint(self) -> Optional[str]:
        """Hash of the event trace (16 hex digits; docs/fingerprints.md): equal
        fingerprints, same event trace. None unless run with ``fingerprint=True``."""
        return self._data["run"].get("event_fingerprint")

    @property
    def fingerprint_records(self) -> Optional[Dict[str, int]]:
        """How many ``events``, ``frames``, ``deliveries`` and ``drops`` went into
        the fingerprint; None unless run with ``fingerprint=True``."""
        records = self._data["run"].get("fingerprint_records")
        return dict(records) if records is not None else None

    @property
    def wall_clock(self) -> Dict[str, Any]:
        """``wall_time_s`` and ``events_per_s``: the only machine-dependent part."""
        return dict(self._data.get("wall_clock", {}))

    @property
    def version(self) -> Dict[str, Any]:
        """The wmnsim build that produced the results (``version``, ``commit``, ``build_type``)."""
        return dict(self._data.get("wmnsim", {}))

    @property
    def scenario(self) -> Scenario:
        """The scenario as run, after seed and overrides."""
        return Scenario.from_dict(self._data["scenario"])

    # ---- tables -------------------------------------------------------------------

    @property
    def summary(self) -> Dict[str, Any]:
        """Run-level metrics (Jain's fairness index, utilisation, losses), as a dict."""
        return json.loads(json.dumps(self._data["summary"]))

    @property
    def flows(self) -> "pandas.DataFrame":
        """One row per flow, the columns of the results file's ``flows`` in order
        (the same table as ``wmnsim run --csv``). ``id`` is a column; use
        ``result.flows.set_index("id")`` to index by flow."""
        return _table(self._data["flows"])

    @property
    def nodes(self) -> "pandas.DataFrame":
        """One row per node (MAC statistics, drops), ``id`` first."""
        return _table(self._data["nodes"])

    @property
    def radios(self) -> "pandas.DataFrame":
        """One row per radio of every node with radios, ``id`` first
        (``"<node id>:<radio index>"``, e.g. ``"R9:1"``): the node rows' MAC
        columns per radio, with the channel, the MAC service and queueing delays
        and the AC_BE TXOP limit and CWmin at the end (docs/results.md). Empty for
        results files written before the table existed."""
        return _table(self._data.get("radios", []))

    def delay_histogram(self, flow: str) -> "pandas.DataFrame":
        """The delay histogram of one flow (by id): one row per bin that holds a
        delay, columns ``bin`` (k: the bin [k w, (k + 1) w)), ``delay_s`` (its lower
        edge k w), ``count``; ``df.attrs["bin_width_s"]`` the bin width w (1 ms).
        Delays of data packets delivered in the measurement window
        (docs/results.md, "Per-flow statistics"). Reads the sparse ``bins`` of
        format version 2 and the dense ``counts`` of version 1 alike. Raises
        KeyError naming the flows."""
        import pandas as pd

        histograms = self._data.get("flow_delay_histograms", [])
        for h in histograms:
            if h.get("flow") == flow:
                width = float(h["bin_width_s"])
                if "bins" in h:
                    pairs = [(int(k), int(c)) for k, c in h["bins"]]
                else:  # format version 1: a dense list from bin 0
                    pairs = [(k, int(c)) for k, c in enumerate(h["counts"]) if int(c) > 0]
                df = pd.DataFrame({"bin": [k for k, _ in pairs], "delay_s": [k * width for k, _ in pairs],
                                   "count": [c for _, c in pairs]})
                df = df.astype({"bin": "int64"})
                df = df.astype({"delay_s": "float64", "count": "int64"})
                df.attrs["bin_width_s"] = width
                return df
        known = ", ".join(str(h.get("flow")) for h in histograms) or "none"
        raise KeyError(f'no delay histogram for flow "{flow}" (flows: {known})')

    @property
    def warnings(self) -> List[Dict[str, Any]]:
        """What the run warned about (e.g. a flow that delivered nothing): one dict
        per warning with the scenario's JSON ``path`` and a ``message``."""
        return json.loads(json.dumps(self._data.get("warnings", [])))

    @property
    def controllers(self) -> List[Dict[str, Any]]:
        """One dict per controller of the scenario: ``id``, ``type`` and the
        controller's own ``statistics`` (e.g. the windows counter_starvation changed)."""
        return json.loads(json.dumps(self._data.get("controllers", [])))

    @property
    def hops(self) -> Optional["pandas.DataFrame"]:
        """Per-hop statistics when the scenario asked for them
        (``"outputs": {"hops": true}``), else None: one row per flow, direction
        (``"data"``, or ``"ack"`` for its TCP ACKs) and node that handled or dropped
        one of the flow's packets, along the path (``hop``): packets originated,
        forwarded and delivered, bytes, the mean delay from the source, and drops by
        cause (losses only; ``stale_copy_drops`` apart), as ns-3 FlowMonitor's probes
        give them (docs/results.md, ``hops``)."""
        rows = self._data.get("hops")
        return None if rows is None else _table(rows)

    @property
    def routing(self) -> Optional["pandas.DataFrame"]:
        """The routing protocol's figures when one ran during the simulation
        (``"routing": {"type": "aodv"}``, docs/aodv.md), else None: one row per node,
        ``node`` first, then control frames and bytes sent (total and per message
        type), received and dropped, route discoveries and their latency, link
        failures and route breaks, held packets, and the dropped data packets by
        cause as ``drops_<cause>`` columns. ``df.attrs["total"]`` holds the
        network's totals (the same keys, ``data_drops`` a dict)."""
        import pandas as pd

        routing = self._data.get("routing")
        if routing is None:
            return None

        def flat(row: Dict[str, Any]) -> Dict[str, Any]:
            out = {k: v for k, v in row.items() if k != "data_drops"}
            for cause, n in row.get("data_drops", {}).items():
                out[f"drops_{cause}"] = n
            return out

        df = _table([flat(r) for r in routing["nodes"]])
        df.attrs["type"] = routing["type"]
        df.attrs["total"] = json.loads(json.dumps(routing["total"]))
        return df

    @property
    def timeseries_kinds(self) -> List[str]:
        """The kinds of time series recorded (the scenario's ``outputs.timeseries``)."""
        return list(self._data["timeseries"].keys())

    def timeseries(self, kind: str) -> "pandas.DataFrame":
        """One recorded time series in long form: columns ``time_s``, ``id``, ``value``
        (one row per sample). ``df.attrs`` holds ``kind``, ``unit`` and
        ``interval_s``. Pivot with ``df.pivot(index="time_s", columns="id",
        values="value")``. Raises KeyError naming the recorded kinds."""
        import pandas as pd

        series = self._data["timeseries"]
        if kind not in series:
            close = difflib.get_close_matches(kind, list(series), n=1)
            hint = f'; did you mean "{close[0]}"?' if close else ""
            known = ", ".join(series) or "none (add kinds to the scenario's outputs.timeseries)"
            raise KeyError(f'no time series "{kind}" in these results (recorded: {known}){hint}')
        s = series[kind]
        columns = list(s.get("columns", ["time_s", "id", "value"]))
        df = pd.DataFrame(s["rows"], columns=columns)
        if df.empty:
            df = df.astype({"time_s": "float64", "id": "object", "value": "float64"})
        else:
            df = df.astype({"time_s": "float64", "value": "float64"})
        df.attrs.update({"kind": kind, "unit": s.get("unit", ""), "interval_s": s.get("interval_s")})
        return df

    def event_trace(self) -> "pandas.DataFrame":
        """The run's event trace (the scenario's ``outputs.event_trace``) read by
        :func:`wmnsim.trace.load`. A run made by :func:`wmnsim.run` in this process
        reads the file it wrote; results read from a file read the path the
        scenario names, from the working folder. Raises KeyError when the scenario
        wrote no event trace."""
        from . import trace

        path = self._event_trace_path
        if path is None:
            section = self._data["scenario"].get("outputs", {}).get("event_trace")
            if not isinstance(section, dict) or "path" not in section:
                raise KeyError("this run wrote no event trace: add outputs.event_trace to the scenario "
                               "(docs/traces.md \"Event trace\")")
            path = section["path"]
        return trace.load(path)

    # ---- files --------------------------------------------------------------------

    def to_dict(self) -> Dict[str, Any]:
        """The whole results document as plain Python data."""
        return json.loads(self._doc.text())

    def to_json(self, path: Optional[PathLike] = None) -> str:
        """The results file's text, byte for byte what ``wmnsim run -o`` writes;
        also written to ``path`` (atomically: a reader never sees half a file)."""
        if path is not None:
            self._doc.write(os.fspath(path))
        return self._doc.file_text()

    def flows_csv(self, path: Optional[PathLike] = None) -> str:
        """The per-flow table as ``wmnsim run --csv`` writes it; also to ``path``."""
        text = self._doc.flows_csv()
        if path is not None:
            _core.write_file_atomically(os.fspath(path), text)
        return text

    def flow_table(self, wide: bool = False) -> str:
        """The per-flow table and the summary as ``wmnsim run`` prints them:
        compact (goodput in Mbit/s, delays in ms, short headers), or with ``wide``
        every column under its results-file name, as ``wmnsim run --wide``."""
        return self._doc.flow_table(bool(wide))

    def __repr__(self) -> str:
        name = self._data.get("scenario", {}).get("name", "")
        state = ", interrupted (partial)" if self.partial else ", interrupted" if self.interrupted else ""
        return (f"<wmnsim.Result {name!r}: {len(self._data['flows'])} flows, "
                f"{self.simulated_time_s:g} s simulated, seed {self.seed}{state}>")


def _table(rows: List[Dict[str, Any]]) -> "pandas.DataFrame":
    import pandas as pd

    if not rows:
        return pd.DataFrame()
    columns = list(rows[0].keys())  # every row has the same keys in the same order
    return pd.DataFrame(rows, columns=columns)


def _check_results(data: Any) -> None:
    """A results document (docs/results.md) in the shape this module reads."""

    def fail(path: str, what: str) -> None:
        raise ValueError(f"not a wmnsim results document: {path}: {what}" if path else
                         f"not a wmnsim results document: {what}")

    if not isinstance(data, dict):
        fail("", "expected a JSON object")
    if data.get("format") != "wmnsim-results":
        fail("/format", f'expected "wmnsim-results", got {data.get("format")!r}')
    version = data.get("format_version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        fail("/format_version", f"expected a positive integer, got {version!r}")
    if version > FORMAT_VERSION:
        fail("/format_version", f"version {version} is newer than this wmnsim reads ({FORMAT_VERSION}); upgrade wmnsim")
    if not isinstance(data.get("seed"), int):
        fail("/seed", "expected an integer")
    run = data.get("run")
    if not isinstance(run, dict) or not isinstance(run.get("simulated_time_s"), (int, float)):
        fail("/run", "expected an object with simulated_time_s, events_executed, event_fingerprint, interrupted")
    if not isinstance(data.get("summary"), dict):
        fail("/summary", "expected an object")
    for key in ("flows", "nodes", "radios"):
        if key == "radios" and key not in data:
            continue  # written before the radios table existed
        rows = data.get(key)
        if not isinstance(rows, list):
            fail("/" + key, "expected an array")
        for i, r in enumerate(rows):
            if not isinstance(r, dict) or "id" not in r:
                fail(f"/{key}/{i}", 'expected an object with an "id"')
    series = data.get("timeseries")
    if not isinstance(series, dict):
        fail("/timeseries", "expected an object")
    for kind, s in series.items():
        if not isinstance(s, dict) or not isinstance(s.get("rows"), list):
            fail(f"/timeseries/{kind}", 'expected an object with "rows"')
        for i, row in enumerate(s["rows"]):
            if not (isinstance(row, list) and len(row) == 3):
                fail(f"/timeseries/{kind}/rows/{i}", "expected [time_s, id, value]")
    if not isinstance(data.get("scenario"), dict):
        fail("/scenario", "expected an object")
