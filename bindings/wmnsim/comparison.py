"""wmnsim.compare: results against a reference file (docs/references.md), through
the same code as ``wmnsim compare``.

Named ``comparison`` rather than ``compare`` so that the module does not shadow
the function :func:`wmnsim.compare` exported by the package.
"""
from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import Any, Dict, List, Sequence, Union

from . import _core
from ._errors import ScenarioError
from .result import Result

__all__ = ["compare", "Comparison"]

PathLike = Union[str, "os.PathLike[str]"]
ResultsArg = Union[Result, PathLike, Sequence[Union[Result, PathLike]]]


class Comparison:
    """The outcome of :func:`compare`: one row per reference metric.

    ``passed`` is true when every metric is within its tolerance; ``rows`` is a
    pandas DataFrame with the columns ``metric, expected, low, high, tolerance,
    measured, n_measured, status ("pass", "fail" or "missing"), reason,
    open_below, open_above`` (the band, within the metric's range, reaches the
    least / most the metric can be: it cannot fail on that side); ``warnings``
    lists e.g. results of another scenario compared with
    ``allow_different_scenario=True``. ``str()`` is the table ``wmnsim compare``
    prints.
    """

    __slots__ = ("_data", "_table")

    def __init__(self, data: Dict[str, Any], table: str):
        self._data = data
        self._table = table

    @property
    def passed(self) -> bool:
        """True when every metric is within its tolerance (none outside, none missing)."""
        return bool(self._data["passed"])

    @property
    def warnings(self) -> List[str]:
        """Warnings such as results of another scenario than the reference's."""
        return list(self._data["warnings"])

    @property
    def rows(self) -> "pandas.DataFrame":  # noqa: F821 - pandas is imported lazily
        """One row per reference metric (a new DataFrame on each access)."""
        import pandas as pd

        columns = ["metric", "expected", "low", "high", "tolerance", "measured", "n_measured", "status", "reason",
                   "open_below", "open_above"]
        return pd.DataFrame(self._data["rows"], columns=columns)

    def to_dict(self) -> Dict[str, Any]:
        """``{"passed", "warnings", "rows"}``: what ``wmnsim compare --json`` prints."""
        return json.loads(json.dumps(self._data))

    def __bool__(self) -> bool:
        return self.passed

    def __str__(self) -> str:
        return self._table

    def __repr__(self) -> str:
        failed = sum(1 for r in self._data["rows"] if r["status"] != "pass")
        return f"<Comparison {'passed' if self.passed else 'failed'}: {failed} of {len(self._data['rows'])} outside>"


def compare(results: ResultsArg, reference: Union[PathLike, Mapping[str, Any]], *,
            allow_different_scenario: bool = False) -> Comparison:
    """Checks results against a reference; several results (one per seed) compare
    their mean.

    ``results``: a :class:`Result`, a results file path, or a list of them.
    ``reference``: a reference file path (its ``scenario`` is relative to it) or the
    reference as a dict (``scenario`` relative to the current folder).

    Raises :class:`ScenarioError` (a ValueError) for an invalid reference, with
    every problem's JSON path, for a file that is not a results file, for results
    made from another scenario or duration than the reference's ("the results are
    of a 20 s run, the reference of 120 s"; ``allow_different_scenario=True``
    compares them anyway, with the difference as a warning) and for one run given
    twice. Results of seeds that are not the reference's are compared.
    """
    items = [results] if isinstance(results, (Result, str, os.PathLike)) else list(results)
    if not items:
        raise ValueError("compare: give at least one result")
    documents: List[Any] = []
    labels: List[str] = []
    for i, item in enumerate(items):
        if isinstance(item, Result):
            documents.append(item._doc)
            labels.append(f"result {i + 1}")
        elif isinstance(item, (str, os.PathLike)):
            documents.append(os.fspath(item))
            labels.append(os.fspath(item))
        else:
            raise TypeError(f"compare: results must be Result objects or paths, not {type(item).__name__}")

    if isinstance(reference, Mapping):
        text, is_path, source = json.dumps(reference, allow_nan=False), False, None
    elif isinstance(reference, (str, os.PathLike)):
        text, is_path, source = os.fspath(reference), True, os.fspath(reference)
    else:
        raise TypeError(f"compare: reference must be a path or a dict, not {type(reference).__name__}")

    try:
        out = _core.compare(text, is_path, documents, labels, bool(allow_different_scenario))
    except ScenarioError as e:
        # Reference problems carry JSON paths: name the file as the CLI does.
        raise e.with_source(source) from None
    return Comparison(json.loads(out["json"]), out["table"])
