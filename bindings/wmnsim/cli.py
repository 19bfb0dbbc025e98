"""``python -m wmnsim`` and the ``wmnsim-py`` script: the ``wmnsim`` command line.

Not a second parser: :func:`main` calls the C++ command line of the ``wmnsim``
program through the extension (cli/command_line.hpp), so subcommands, options,
help, messages, files and exit codes are the program's, by construction. Only
``wmnsim sweep`` and ``wmnsim reproduce`` come back to Python, where the sweep
runner lives (:mod:`wmnsim.sweep`, :mod:`wmnsim.reproduce`, on Dask).

Exit codes: 0 success, 1 internal error, 2 invalid input (nothing written),
3 (compare) some metric outside its tolerance or missing, 130, 143, 129 stopped by
SIGINT (Ctrl-C), SIGTERM or SIGHUP.
"""
from __future__ import annotations

import sys
from typing import List, Optional

from . import _core

__all__ = ["main"]


def _sweep(spec: str, output: str, scheduler: Optional[str], workers: Optional[int]) -> int:
    from .sweep import run_spec_command  # Dask loads only for a sweep

    return run_spec_command(spec, output, scheduler, workers)


def _reproduce(study: str, quick: bool, scheduler: Optional[str], workers: Optional[int], output: Optional[str],
               report_only: bool, check: bool, store: bool, experiments: Optional[str], no_plot: bool,
               add_seeds: bool) -> int:
    from .reproduce import run_command  # Dask loads only for a reproduction

    return run_command(study, quick=quick, scheduler=scheduler, workers=workers, output=output,
                       report_only=report_only, check=check, store=store, experiments=experiments, no_plot=no_plot,
                       add_seeds=add_seeds)


def main(argv: Optional[List[str]] = None) -> int:
    """Runs the command line with ``argv`` (default: ``sys.argv[1:]``); returns the exit code."""
    args = [str(a) for a in (sys.argv[1:] if argv is None else argv)]
    sys.stdout.flush()  # the C++ side writes to the same file descriptors
    sys.stderr.flush()
    return _core.command_line(args, _sweep, _reproduce)
