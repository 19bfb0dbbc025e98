"""The exceptions of the wmnsim package.

Kept in pure Python (the C++ extension raises these very classes), so that they
carry ``.errors`` and docstrings and can be caught without importing ``_core``.
"""
from __future__ import annotations

from typing import Iterable, NamedTuple, Optional, Sequence, Tuple, Union

__all__ = ["ValidationIssue", "ScenarioError", "NotSupportedError"]


class ValidationIssue(NamedTuple):
    """One problem in a scenario: where (a JSON pointer) and what to do.

    ``path`` is ``""`` for a problem with the document as a whole (a missing
    file, malformed JSON, a malformed ``--set``).
    """

    path: str
    message: str

    def __str__(self) -> str:
        return self.message if not self.path else f"{self.path}: {self.message}"


IssueLike = Union[ValidationIssue, Tuple[str, str]]


class ScenarioError(ValueError):
    """Invalid user input: a scenario, an override or a file that cannot be read.

    ``str(error)`` is what the ``wmnsim`` command line prints, one line per problem
    (``FILE: /json/pointer: message`` for a scenario read from a file);
    ``error.errors`` lists every problem as a :class:`ValidationIssue`, and
    ``error.source`` names the file (``None`` for dicts and JSON strings).
    Every problem in a document is reported at once, not only the first.
    """

    errors: list
    source: Optional[str]

    def __init__(self, message: str = "", errors: Iterable[IssueLike] = (), source: Optional[str] = None):
        self.errors = [ValidationIssue(*e) for e in errors]
        self.source = source
        if not message:
            message = self.format(self.errors, source)
        super().__init__(message)

    @staticmethod
    def format(errors: Sequence[ValidationIssue], source: Optional[str] = None) -> str:
        """The command line's rendering: ``SOURCE: PATH: MESSAGE`` per issue, and
        ``SOURCE: MESSAGE`` for an issue at the root (path ``""``) unless its message
        names the file already (an unreadable file, malformed JSON)."""
        lines = []
        for e in errors:
            if not e.path:
                lines.append(e.message if not source or source in e.message else f"{source}: {e.message}")
            elif source:
                lines.append(f"{source}: {e.path}: {e.message}")
            else:
                lines.append(f"{e.path}: {e.message}")
        return "\n".join(lines)

    def with_source(self, source: Optional[str]) -> "ScenarioError":
        """The same problems, attributed to the file ``source`` (as the CLI prints them)."""
        if source is None:
            return self
        return type(self)(errors=self.errors, source=source)

    def __reduce__(self):  # picklable, e.g. across multiprocessing workers
        return (type(self), (str(self), [tuple(e) for e in self.errors], self.source))


class NotSupportedError(ScenarioError, NotImplementedError):
    """The scenario is valid, but this build of wmnsim cannot simulate something it
    asks for (a controller, a transport or a time series not implemented yet). The
    message starts with the JSON path of the key concerned, and ``errors`` holds it
    as one :class:`ValidationIssue`. The command line reports it like invalid input
    (exit code 2). A :class:`ScenarioError` (what every input the simulator refuses
    raises) and a :class:`NotImplementedError`."""
