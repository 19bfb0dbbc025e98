"""``python -m wmnsim``: the ``wmnsim`` command line, in Python.

The same subcommands, options, messages and exit codes as cli/main.cpp::

    python -m wmnsim run SCENARIO [-o results.json] [--csv flows.csv] [--seed N]
                                  [--set /json/pointer=value ...] [--log-level L]
                                  [--fingerprint]
    python -m wmnsim validate SCENARIO... [--seed N] [--set /json/pointer=value ...]
    python -m wmnsim compare RESULTS... REFERENCE [--json]
    python -m wmnsim compare RESULTS... --reference REFERENCE [--json]
    python -m wmnsim model starvation [options]   (cli/model_command.hpp)
    python -m wmnsim --version

Exit codes: 0 success, 1 internal error, 2 invalid input (nothing written),
3 (compare) some metric outside its tolerance or missing, 130, 143, 129 stopped by
SIGINT (Ctrl-C), SIGTERM or SIGHUP (nothing written).
"""
from __future__ import annotations

import argparse
import json
import re
import signal
import sys
from typing import Any, List, Optional, Tuple

from . import _core
from .model import _starvation_text
from ._errors import NotSupportedError, ScenarioError
from ._run import run
from .scenario import Scenario

__all__ = ["main"]

EXIT_INTERNAL = 1
EXIT_INVALID_INPUT = 2
EXIT_OUTSIDE = 3
EXIT_INTERRUPTED = 130
LOG_LEVELS = ["trace", "debug", "info", "warn", "error", "critical", "off"]


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="wmnsim",
                                description="wmnsim: discrete-event simulator of 802.11 wireless mesh networks")
    p.add_argument("--version", action="version", version=f"wmnsim {_core.__version__} ({_core.build_type})")
    sub = p.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run", help="Run a scenario and print its per-flow table")
    r.add_argument("scenario", help="Scenario JSON file")
    r.add_argument("-o", "--output", default="",
                   help="Write the results JSON here (docs/results.md; default: the scenario's outputs.results_file)")
    r.add_argument("--csv", default="", help="Write the per-flow table as CSV here")
    r.add_argument("--seed", default=None, help="Master seed 0..2^64-1 (sets /simulation/seed)")
    r.add_argument("--set", dest="sets", action="append", default=[],
                   help="Override a scenario value: /json/pointer=value (repeatable)")
    r.add_argument("--log-level", default="warn", choices=LOG_LEVELS,
                   help="trace, debug, info, warn, error, critical or off")
    r.add_argument("--fingerprint", action="store_true",
                   help="Hash the event trace (docs/fingerprints.md): print it and record it in the results file")
    v = sub.add_parser("validate",
                       help="Check scenarios as run would, without simulating; print every error with its JSON path")
    v.add_argument("scenarios", nargs="+", help="Scenario JSON files")
    v.add_argument("--seed", default=None, help="Master seed 0..2^64-1 (sets /simulation/seed)")
    v.add_argument("--set", dest="sets", action="append", default=[],
                   help="Override a scenario value: /json/pointer=value (repeatable), as run does")
    c = sub.add_parser("compare", help="Check results files against a reference file (docs/references.md)")
    c.add_argument("files", nargs="+", help="Results JSON files (several seeds: their mean is compared), "
                   "then the reference file unless --reference is given")
    c.add_argument("--reference", default="", help="The reference file (else the last positional file)")
    c.add_argument("--json", action="store_true", help="Print the rows as JSON instead of a table")
    m = sub.add_parser("model", help="Analytical models")
    models = m.add_subparsers(dest="model", required=True)
    s = models.add_parser("starvation",
                          help="Markov model of TCP starvation in a two-hop chain (paper 000 Sec. 5)")
    s.add_argument("--cwmin-a", type=int, default=32, help="CWmin of the two-hop node A (default 32)")
    s.add_argument("--cwmin-b", default="32", help="CWmin of the middle node B, or a sweep: 16,32,64 (default 32)")
    s.add_argument("--cwmin-g", type=int, default=32, help="CWmin of the gateway GW (default 32)")
    s.add_argument("--window", type=int, default=None, help="Fixed TCP window of both flows, packets (default 3)")
    s.add_argument("--window-a", type=int, default=None, help="Window of flow A -> GW (overrides --window)")
    s.add_argument("--window-b", type=int, default=None, help="Window of flow B -> GW (overrides --window)")
    s.add_argument("--retry-limit", type=int, default=7, help="Short retry limit RL (default 7)")
    s.add_argument("--rts", default="off", choices=["on", "off"], help="RTS/CTS: on or off (default off)")
    s.add_argument("--payload-bytes", type=int, default=1460, help="TCP payload of a data packet (default 1460)")
    s.add_argument("--json", action="store_true",
                   help="Print JSON (a list, one object per CWmin_B) instead of the table")
    return p


def _print_issues(file: str, e: ScenarioError) -> None:
    print(ScenarioError.format(e.errors, file), file=sys.stderr)


class _Stopped(BaseException):
    """SIGTERM or SIGHUP during a run: stops it like Ctrl-C (KeyboardInterrupt)."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


def _stop_on(signum: int, _frame: Any) -> None:
    raise _Stopped(signum)


def _load(file: str, args: argparse.Namespace) -> Scenario:
    """The scenario as `run` would simulate it: file, overrides, then --seed, which is
    --set /simulation/seed=N (the loader's rule for the seed, as in the C++ CLI)."""
    sets = list(args.sets)
    if args.seed is not None:
        sets.append(f"/simulation/seed={args.seed}")
    scenario = Scenario.from_file(file).with_overrides(sets)
    try:
        _core.validate(scenario._text(), False)  # the loader only; the network is built by run
    except ScenarioError as e:
        raise e.with_source(file) from None
    return scenario


def _outputs(scenario: Scenario, output: str = "", csv: str = "") -> List[Tuple[str, str]]:
    """The files a run writes, as cli/main.cpp's outputs_of()."""
    declared = scenario.to_dict().get("outputs", {})
    out = []
    if output:
        out.append(("-o", output))
    elif declared.get("results_file"):
        out.append(("/outputs/results_file", declared["results_file"]))
    if csv:
        out.append(("--csv", csv))
    if declared.get("timeseries_file"):
        out.append(("/outputs/timeseries_file", declared["timeseries_file"]))
    return out


def _output_problems(file: str, outputs: List[Tuple[str, str]]) -> bool:
    problems = _core.check_output_files(file, outputs)
    for p in problems:
        print(p, file=sys.stderr)
    return bool(problems)


def _run_command(args: argparse.Namespace) -> int:
    try:
        scenario = _load(args.scenario, args)
    except ScenarioError as e:
        _print_issues(args.scenario, e)
        return EXIT_INVALID_INPUT

    # Output paths are checked before a possibly long run, not after it.
    outputs = _outputs(scenario, args.output, args.csv)
    if _output_problems(args.scenario, outputs):
        return EXIT_INVALID_INPUT

    # Progress only on a terminal, and only once a run has lasted about a second.
    progress = sys.stderr.isatty()
    previous = {s: signal.signal(s, _stop_on) for s in (signal.SIGTERM, signal.SIGHUP)}
    try:
        result = run(scenario, progress=progress, log_level=args.log_level, fingerprint=args.fingerprint)
    except NotSupportedError as e:
        print(str(e), file=sys.stderr)
        return EXIT_INVALID_INPUT
    except ScenarioError as e:
        _print_issues(args.scenario, e)
        return EXIT_INVALID_INPUT
    except (KeyboardInterrupt, _Stopped) as e:
        partial = getattr(e, "result", None)
        at = f"{partial.simulated_time_s:g}" if partial is not None else "?"
        signum = e.signum if isinstance(e, _Stopped) else signal.SIGINT
        by = {signal.SIGTERM: " by SIGTERM", signal.SIGHUP: " by SIGHUP"}.get(signum, "")
        print(f"\ninterrupted{by} at {at} s simulated; nothing written", file=sys.stderr)
        return 128 + int(signum)
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)

    # The files only after the run succeeded; each is atomic on its own.
    try:
        doc = result._doc
        for what, path in outputs:
            if what == "/outputs/timeseries_file":
                _core.write_file_atomically(path, doc.timeseries_csv())
                doc = doc.without_timeseries()  # there instead of in the results
        for what, path in outputs:
            if what == "--csv":
                _write_csv(result, path)
            if what in ("-o", "/outputs/results_file"):
                doc.write(path)
    except OSError as e:
        print(str(e), file=sys.stderr)
        return EXIT_INVALID_INPUT
    sys.stdout.write(result.flow_table())
    if result.event_fingerprint is not None:
        c = result.fingerprint_records or {}
        print(f"event_fingerprint: {result.event_fingerprint} (events {c.get('events')}, frames {c.get('frames')}, "
              f"deliveries {c.get('deliveries')}, drops {c.get('drops')})")
    return 0


def _write_csv(result, path: str) -> None:
    _core.write_file_atomically(path, result.flows_csv())


def _validate_command(args: argparse.Namespace) -> int:
    status = 0
    for file in args.scenarios:
        try:
            scenario = _load(file, args)
        except ScenarioError as e:
            _print_issues(file, e)
            status = EXIT_INVALID_INPUT
            continue
        if _output_problems(file, _outputs(scenario)):
            status = EXIT_INVALID_INPUT
            continue
        try:
            scenario.validate()  # what run checks before its first event
        except NotSupportedError as e:
            print(str(e), file=sys.stderr)
            status = EXIT_INVALID_INPUT
            continue
        except ScenarioError as e:
            _print_issues(file, e)
            status = EXIT_INVALID_INPUT
            continue
        print(f"{file}: valid")
    return status


def _compare_command(args: argparse.Namespace) -> int:
    files, reference = list(args.files), args.reference
    if not reference:
        if len(files) < 2:
            print("compare: give at least one results file and a reference file "
                  "(wmnsim compare RESULTS... REFERENCE)", file=sys.stderr)
            return EXIT_INVALID_INPUT
        reference = files.pop()
    try:
        _core.check_reference(reference, True)
    except ScenarioError as e:
        _print_issues(reference, e)
        return EXIT_INVALID_INPUT
    # Every results file is read before comparing, as the CLI does.
    status = 0
    for file in files:
        try:
            _core.load_results_file(file)
        except ScenarioError as e:
            _print_issues(file, e)
            status = EXIT_INVALID_INPUT
    if status:
        return status
    out = _core.compare(reference, True, files, files)
    if args.json:
        sys.stdout.write(out["json"] + "\n")  # the C++ text, as `wmnsim compare --json`
    else:
        sys.stdout.write(out["table"])
    return 0 if json.loads(out["json"])["passed"] else EXIT_OUTSIDE


def _cw_list(text: str) -> List[int]:
    """"16,32,64" -> [16, 32, 64], with the C++ command's rules and message (std::stoi)."""
    values = []
    for item in text.split(","):
        if not re.fullmatch(r"[ \t\n\v\f\r]*[+-]?[0-9]+", item) or not -2**31 <= int(item) < 2**31:
            raise ValueError(f"starvation model: --cwmin-b: '{item}' is not an integer")
        values.append(int(item))
    return values


def _model_command(args: argparse.Namespace) -> int:
    texts = []
    try:
        window = 3 if args.window is None else args.window
        params = {
            "cw_min_a": args.cwmin_a, "cw_min_g": args.cwmin_g,
            "window_a": window if args.window_a is None else args.window_a,
            "window_b": window if args.window_b is None else args.window_b,
            "retry_limit": args.retry_limit, "rts_cts": args.rts == "on", "payload_bytes": args.payload_bytes,
        }
        for cw in _cw_list(args.cwmin_b):
            texts.append(_starvation_text({**params, "cw_min_b": cw}))
    except ValueError as e:
        print(str(e), file=sys.stderr)
        return EXIT_INVALID_INPUT
    sys.stdout.write(_core.starvation_report("[" + ",".join(texts) + "]", args.json))
    return 0


def main(argv: Optional[List[str]] = None) -> int:
    """Runs the command line with ``argv`` (default: ``sys.argv[1:]``); returns the exit code."""
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # --help, --version: 0; a bad command line: 2, as the CLI
        return int(e.code or 0) if e.code in (0, None) else EXIT_INVALID_INPUT
    try:
        if args.command == "run":
            return _run_command(args)
        if args.command == "compare":
            return _compare_command(args)
        if args.command == "model":
            return _model_command(args)
        return _validate_command(args)
    except Exception as e:  # noqa: BLE001 - the CLI's last resort, with its words
        print(f"wmnsim: internal error: {e}", file=sys.stderr)
        return EXIT_INTERNAL
