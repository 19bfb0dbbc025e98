"""Scenarios: one JSON document that describes one experiment (docs/scenario.md)."""
from __future__ import annotations

import copy
import json
import math
import numbers
import os
from collections.abc import Iterable, Mapping
from typing import Any, Dict, List, Optional, Union

from . import _core
from ._errors import ScenarioError, ValidationIssue

__all__ = ["Scenario"]

PathLike = Union[str, "os.PathLike[str]"]
Overrides = Union[Mapping[str, Any], Iterable[str], str]


class Scenario:
    """A scenario document, from a file, a dict or a JSON string.

    ``Scenario(x)`` accepts a path (``str`` or ``os.PathLike``), a mapping, a JSON
    string (a ``str`` whose first non-blank character is ``{``) or another
    Scenario. Reading checks the JSON (a missing file, malformed JSON with line and
    column, duplicate keys: :class:`ScenarioError`); the scenario itself is checked
    by :meth:`validate` and by :func:`wmnsim.run`, with the command line's rules and
    messages. A Scenario is immutable: :meth:`with_overrides` returns a new one.
    """

    __slots__ = ("_doc", "_source")

    def __init__(self, source: Union[PathLike, Mapping[str, Any], "Scenario"]):
        if isinstance(source, Scenario):
            self._doc, self._source = source._doc, source._source
        elif isinstance(source, Mapping):
            self._doc, self._source = _plain(source, ""), None
        elif isinstance(source, str) and not isinstance(source, _PathStr) and source.lstrip().startswith("{"):
            self._doc, self._source = _parse_json_text(source), None
        elif isinstance(source, (str, os.PathLike)):
            path = os.fspath(source)
            try:
                _core.check_json_file(path)  # the CLI's reader: its messages, duplicate keys
            except ScenarioError as e:
                raise e.with_source(path) from None
            with open(path, encoding="utf-8-sig") as f:
                self._doc = json.load(f)  # the same content, with the file's key order
            self._source = path
        else:
            raise TypeError(
                f"Scenario() takes a path, a dict, a JSON string or a Scenario, not {type(source).__name__}"
            )
        if not isinstance(self._doc, dict):
            raise ScenarioError(errors=[("", "a scenario must be a JSON object { ... }, got " + _kind(self._doc))],
                                source=self._source)

    # ---- construction -------------------------------------------------------------

    @classmethod
    def from_file(cls, path: PathLike) -> "Scenario":
        """Reads a scenario file (ScenarioError if it is missing or not valid JSON)."""
        return cls(os.fspath(path) if not isinstance(path, str) else _PathStr(path))

    @classmethod
    def from_dict(cls, document: Mapping[str, Any]) -> "Scenario":
        """A scenario from a mapping of JSON-compatible values (copied)."""
        return cls(document)

    @classmethod
    def from_json(cls, text: str) -> "Scenario":
        """A scenario from JSON text."""
        self = cls.__new__(cls)
        self._doc, self._source = _parse_json_text(text), None
        if not isinstance(self._doc, dict):
            raise ScenarioError(errors=[("", "a scenario must be a JSON object { ... }, got " + _kind(self._doc))])
        return self

    # ---- what it is ---------------------------------------------------------------

    @property
    def source(self) -> Optional[str]:
        """The file it was read from, or None. Error messages are prefixed with it."""
        return self._source

    @property
    def name(self) -> str:
        """The scenario's "name", else the file name without its extension, else ""."""
        name = self._doc.get("name")
        if isinstance(name, str) and name:
            return name
        if self._source:
            return os.path.splitext(os.path.basename(self._source))[0]
        return ""

    def to_dict(self) -> Dict[str, Any]:
        """A deep copy of the document (after any overrides)."""
        return copy.deepcopy(self._doc)

    def to_json(self, path: Optional[PathLike] = None, indent: Optional[int] = 2) -> str:
        """The document as JSON text; also written to ``path`` when given."""
        text = json.dumps(self._doc, indent=indent, ensure_ascii=False) + "\n"
        if path is not None:
            with open(os.fspath(path), "w", encoding="utf-8") as f:
                f.write(text)
        return text

    def __getitem__(self, key: str) -> Any:
        """``scenario["simulation"]``: a copy of a top-level section."""
        return copy.deepcopy(self._doc[key])

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Scenario) and self._doc == other._doc

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        where = f" from {self._source!r}" if self._source else ""
        return f"<wmnsim.Scenario {self.name or '(unnamed)'!r}{where}>"

    # ---- checks -------------------------------------------------------------------

    def validate(self) -> None:
        """Checks the whole scenario; raises :class:`ScenarioError` listing every
        problem with its JSON path (the messages of ``wmnsim validate``)."""
        try:
            _core.validate(self._text())
        except ScenarioError as e:
            raise e.with_source(self._source) from None

    def errors(self) -> List[ValidationIssue]:
        """Every problem :meth:`validate` would raise, or ``[]`` for a valid scenario."""
        try:
            self.validate()
        except ScenarioError as e:
            return list(e.errors)
        return []

    def is_valid(self) -> bool:
        """True when :meth:`validate` would pass."""
        return not self.errors()

    # ---- changes ------------------------------------------------------------------

    def with_overrides(self, overrides: Overrides) -> "Scenario":
        """A new Scenario with values replaced, as ``wmnsim run --set`` does.

        ``overrides`` maps JSON pointers to values, e.g.
        ``{"/simulation/duration_s": 30, "/phy/standard": "802.11a",
        "/controllers/-": {"type": "lscc"}}``; or it is a list of the command
        line's ``"/json/pointer=value"`` strings (the value parsed as JSON if it
        parses, else taken as a string). Missing objects are created; ``-`` appends
        to an array. A bad pointer raises :class:`ScenarioError` naming it. The
        result is not validated yet: call :meth:`validate`, or run it.
        """
        assignments = _assignments(overrides)
        if not assignments:
            return self
        try:
            text = _core.apply_overrides(self._text(), assignments)
        except ScenarioError as e:
            raise e.with_source(self._source) from None
        out = Scenario.__new__(Scenario)
        out._doc = _reorder_like(json.loads(text), self._doc)
        out._source = self._source
        return out

    # ---- the resolved scenario ----------------------------------------------------

    def describe(self) -> Dict[str, Any]:
        """The validated scenario with every default applied and ``node_groups``
        expanded: ``{"name", "duration_s", "seed", "timeseries", "nodes", "links",
        "flows", "routing"}``; each node has ``id``, ``role``, ``position_m`` (x, y,
        z, or None for hosts) and ``channels``; ``routing`` holds the routes a run takes,
        computed as a run computes them: ``paths`` (per flow ``{"flow", "src", "dst",
        "path", "return_path"}``, "@gateway" resolved), ``routes`` (next hops ``{"node",
        "dst", "next_hop"}``: the static tables as written, else every node's next hop
        towards each flow end and gateway) and ``gateway`` (each mesh node's gateway).
        Raises ScenarioError if invalid or if a flow has no route."""
        try:
            return _core.describe(self._text())
        except ScenarioError as e:
            raise e.with_source(self._source) from None

    def radio_links(self, sensed: bool = False) -> "pandas.DataFrame":
        """The directed radio links that can carry data, built by the physical layer
        as a run builds them, one row per link: ``src``, ``dst`` (node ids),
        ``channel``, ``rx_power_dbm`` (NaN with the range model), ``rate_bps`` (NaN
        when no rate is usable: the frame error rate rule routing applies,
        docs/network.md), ``decodable``, ``sensed``. With ``sensed``, also the links
        whose frames the receiver cannot decode but senses (its medium busy on that
        signal alone: carrier sense beyond decoding range), ``decodable`` False and
        no rate. Built from columns, so a network of 10^5 nodes (millions of links)
        costs arrays, not a Python object per link."""
        import numpy as np
        import pandas as pd

        try:
            c = _core.radio_links(self._text(), bool(sensed))
        except ScenarioError as e:
            raise e.with_source(self._source) from None
        ids = np.asarray(c["node_ids"], dtype=object)
        return pd.DataFrame({"src": ids[c["src"]], "dst": ids[c["dst"]], "channel": c["channel"],
                             "rx_power_dbm": c["rx_power_dbm"], "rate_bps": c["rate_bps"],
                             "decodable": c["decodable"], "sensed": c["sensed"]})

    # ---- internal -----------------------------------------------------------------

    def _text(self) -> str:
        return json.dumps(self._doc, ensure_ascii=False, allow_nan=False)


class _PathStr(str):
    """A str that is a path even if it starts with "{"."""


def _kind(value: Any) -> str:
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "a string"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    return "a number"


def _check_unicode(text: str, path: str) -> None:
    """JSON text is UTF-8: a str with lone surrogates cannot be written as JSON."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as e:
        raise ScenarioError(errors=[(path, f"not valid Unicode text (a lone surrogate at character {e.start})")]) from None


# The loader's nesting limit (scenario/scenario.hpp kMaxJsonDepth; docs/scenario.md "Limits").
_MAX_DEPTH = 64


def _plain(value: Any, path: str, depth: int = 0) -> Any:
    """A deep copy made of JSON types only; anything else is a ScenarioError at its path.
    Containers nest at most _MAX_DEPTH deep (a dict that contains itself included)."""
    if isinstance(value, (Mapping, list, tuple)):
        depth += 1
        if depth > _MAX_DEPTH:
            raise ScenarioError(errors=[(path, f"nested deeper than {_MAX_DEPTH} levels; a scenario needs fewer "
                                               "than 10 (does a dict or list contain itself?)")])
    if isinstance(value, str):
        _check_unicode(value, path)
        return value
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        f = float(value)
        if not math.isfinite(f):
            raise ScenarioError(errors=[(path, f"{f} is not a JSON number; use a finite number")])
        return f
    if isinstance(value, Mapping):
        out = {}
        for k, v in value.items():
            if not isinstance(k, str):
                raise ScenarioError(errors=[(path, f"object keys must be strings, got {k!r}")])
            _check_unicode(k, path)
            out[k] = _plain(v, path + "/" + k.replace("~", "~0").replace("/", "~1"), depth)
        return out
    if isinstance(value, (list, tuple)):
        return [_plain(v, f"{path}/{i}", depth) for i, v in enumerate(value)]
    raise ScenarioError(
        errors=[(path, f"expected a JSON value (object, array, string, number, boolean or null), "
                       f"got {type(value).__name__} {value!r}")]
    )


def _parse_json_text(text: str) -> Any:
    """JSON text -> plain data, with the command line's reader first (C++): the line and
    column of a syntax error, the nesting limit, numbers beyond a double and duplicate
    keys are ScenarioErrors with its messages; only checked text reaches json.loads."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as e:  # lone surrogates: no JSON text can hold them
        raise ScenarioError(errors=[("", f"<string>: not valid Unicode text at character {e.start}")]) from None
    _core.check_json_text(text)
    return json.loads(text)


def _assignments(overrides: Optional[Overrides]) -> List[str]:
    """Overrides -> the command line's "/json/pointer=value" assignments."""
    if overrides is None:
        return []
    if isinstance(overrides, str):
        _check_unicode(overrides, "")
        return [overrides]
    if isinstance(overrides, Mapping):
        out = []
        for pointer, value in overrides.items():
            if not isinstance(pointer, str):
                raise TypeError(f"override keys are JSON pointers (str), got {pointer!r}")
            _check_unicode(pointer, "")
            if "=" in pointer:
                raise ScenarioError(errors=[(pointer, 'a pointer cannot contain "=" (as with --set)')])
            out.append(pointer + "=" + json.dumps(_plain(value, pointer), ensure_ascii=False, allow_nan=False))
        return out
    if isinstance(overrides, Iterable):
        out = []
        for a in overrides:
            if not isinstance(a, str):
                raise TypeError(f"override assignments are '/json/pointer=value' strings, got {a!r}")
            _check_unicode(a, "")
            out.append(a)
        return out
    raise TypeError(f"overrides must be a dict of JSON pointers to values or a list of strings, "
                    f"not {type(overrides).__name__}")


def _reorder_like(new: Any, old: Any) -> Any:
    """``new`` with the key order of ``old`` where they share keys (the C++ side sorts
    keys); keys only in ``new`` follow in their order."""
    if isinstance(new, dict) and isinstance(old, dict):
        out = {k: _reorder_like(new[k], old[k]) for k in old if k in new}
        out.update((k, v) for k, v in new.items() if k not in out)
        return out
    if isinstance(new, list) and isinstance(old, list):
        return [_reorder_like(n, old[i]) if i < len(old) else n for i, n in enumerate(new)]
    return new
