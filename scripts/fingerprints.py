#!/usr/bin/python3
"""Generate and check the stored event-trace fingerprints (docs/fingerprints.md).

    fingerprints.py generate [SCENARIO...] [--wmnsim PATH] [--jobs N] [--file FILE]
    fingerprints.py check    [SCENARIO...] [--wmnsim PATH] [--jobs N] [--file FILE]

FILE (default tests/fingerprints/fingerprints.json) holds one entry per shipped
scenario (every scenarios/**/*.json but the schema, *.reference.json files and reproduction/ folders) and
seed: the scenario run for a short duration with fixed overrides, and its
fingerprint (`wmnsim run SCEN --seed S --set /simulation/duration_s=D --set ...
--fingerprint`) with the number of records of each kind behind it. A scenario the
runner refuses (exit code 2: a feature not simulated yet, or invalid input) is
stored as refused, with the exit code, so that the check notices when it starts
to run.

generate reruns every entry and rewrites FILE: entries keep their scenario, seed,
duration and overrides; a new scenario gets one entry per default seed; entries
of deleted scenarios go. It prints what moved. check reruns every entry and
compares; it fails when a fingerprint moved, a refused scenario runs (or the
reverse), or a shipped scenario has no entry. Naming scenarios (paths relative
to the repository) limits either command to their entries.

Exit codes: 0 all as stored, 2 invalid input or a run that crashed, 3 (check)
something moved or is missing. Standard library only: runs with /usr/bin/python3.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import datetime
import json
import os
import pathlib
import shlex
import subprocess
import sys
import tempfile
import time
from typing import Any, Dict, List, Optional, Tuple

ROOT = pathlib.Path(__file__).resolve().parents[1]
DEFAULT_FILE = ROOT / "tests" / "fingerprints" / "fingerprints.json"
EXIT_INVALID = 2
EXIT_MOVED = 3
EXIT_REFUSED = 2  # what `wmnsim run` answers for a scenario it will not simulate
# New scenarios: two seeds, 5 simulated seconds (TCP's first timeouts and backoff,
# route use over several hops, MAC retries and drops, all in well under a second).
DEFAULT_SEEDS = [1, 2]
DEFAULT_DURATION_S = 5
RECORD_KINDS = ["events", "frames", "deliveries", "drops"]
ENTRY_KEYS = ["scenario", "seed", "duration_s", "overrides", "fingerprint", "records", "refused"]
REGENERATE = "python3 scripts/fingerprints.py generate --wmnsim build/ci/cli/wmnsim"


class Problem(Exception):
    """Invalid input, or a run that crashed: reported, exit code 2."""


# ---- the shipped scenarios and the stored file -------------------------------------

def shipped_scenarios() -> List[str]:
    """Every scenario file under scenarios/, as a path relative to the repository."""
    found = []
    for p in sorted((ROOT / "scenarios").rglob("*.json")):
        rel = p.relative_to(ROOT)
        if "schema" in rel.parts[:-1] or "reproduction" in rel.parts or p.name.endswith((".reference.json", ".sweep.json")):  # not scenarios
            continue
        found.append(rel.as_posix())
    return found


def load(path: pathlib.Path) -> Dict[str, Any]:
    try:
        doc = json.loads(path.read_text())
    except (OSError, ValueError) as e:
        raise Problem(f"{path}: cannot read: {e}") from None
    if not isinstance(doc, dict) or doc.get("wmnsim_fingerprints") != 1 or not isinstance(doc.get("runs"), list):
        raise Problem(f'{path}: not a fingerprint file (expected "wmnsim_fingerprints": 1 and "runs": [...])')
    for i, e in enumerate(doc["runs"]):
        where = f"{path}: /runs/{i}"
        if not isinstance(e, dict):
            raise Problem(f"{where}: expected an object")
        if not isinstance(e.get("scenario"), str):
            raise Problem(f'{where}/scenario: expected a path relative to the repository')
        if not isinstance(e.get("seed"), int) or isinstance(e.get("seed"), bool) or e["seed"] < 0:
            raise Problem(f"{where}/seed: expected an integer >= 0")
        d = e.get("duration_s")
        if isinstance(d, bool) or not isinstance(d, (int, float)) or not d > 0:
            raise Problem(f"{where}/duration_s: expected a number > 0")
        if not isinstance(e.get("overrides", []), list) or not all(isinstance(o, str) for o in e.get("overrides", [])):
            raise Problem(f"{where}/overrides: expected a list of /json/pointer=value strings")
    return doc


def key(entry: Dict[str, Any]) -> Tuple[str, int, Tuple[str, ...]]:
    return entry["scenario"], entry["seed"], tuple(entry.get("overrides", []))


def label(entry: Dict[str, Any]) -> str:
    extra = " " + " ".join(entry["overrides"]) if entry.get("overrides") else ""
    return f"{entry['scenario']} seed {entry['seed']} {entry['duration_s']:g} s{extra}"


def default_entries(scenario: str) -> List[Dict[str, Any]]:
    overrides = []
    try:
        warmup = json.loads((ROOT / scenario).read_text()).get("simulation", {}).get("warmup_s", 0)
    except (OSError, ValueError, AttributeError):
        warmup = 0  # the run will say what is wrong with the file
    if isinstance(warmup, (int, float)) and warmup >= DEFAULT_DURATION_S:
        overrides.append("/simulation/warmup_s=0")  # a warm-up longer than the run is invalid
    return [{"scenario": scenario, "seed": s, "duration_s": DEFAULT_DURATION_S, "overrides": list(overrides)}
            for s in DEFAULT_SEEDS]


# ---- running -----------------------------------------------------------------------

def command(wmnsim: str, entry: Dict[str, Any], out: Optional[pathlib.Path]) -> List[str]:
    cmd = [wmnsim, "run", entry["scenario"], "--seed", str(entry["seed"]),
           "--set", f"/simulation/duration_s={entry['duration_s']:g}"]
    for o in entry.get("overrides", []):
        cmd += ["--set", o]
    cmd.append("--fingerprint")
    if out is not None:
        cmd += ["-o", str(out)]
    return cmd


def run_entry(wmnsim: str, entry: Dict[str, Any], tmp: pathlib.Path, index: int) -> Dict[str, Any]:
    """Runs one entry; returns its outcome: fingerprint and records, or refused."""
    out = tmp / f"run_{index}.json"
    cmd = command(wmnsim, entry, out)
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    if r.returncode == EXIT_REFUSED:
        lines = r.stderr.strip().splitlines()
        return {"refused": {"exit_code": r.returncode, "message": lines[0] if lines else ""}}
    if r.returncode != 0:
        raise Problem(f"{label(entry)}: `{shlex.join(cmd)}` failed (exit {r.returncode}):\n{r.stderr.strip()}")
    try:
        run = json.loads(out.read_text())["run"]
        records = run["fingerprint_records"]
        return {"fingerprint": run["event_fingerprint"], "records": {k: records[k] for k in RECORD_KINDS}}
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise Problem(f"{label(entry)}: no fingerprint in the results of `{shlex.join(cmd)}`: {e}") from None


def run_all(wmnsim: str, entries: List[Dict[str, Any]], jobs: int) -> List[Dict[str, Any]]:
    with tempfile.TemporaryDirectory(prefix="wmnsim-fp-") as tmp:
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            futures = [pool.submit(run_entry, wmnsim, e, pathlib.Path(tmp), i) for i, e in enumerate(entries)]
            return [f.result() for f in futures]


def version_of(wmnsim: str) -> str:
    r = subprocess.run([wmnsim, "--version"], capture_output=True, text=True)
    return r.stdout.strip() or "?"


# ---- comparing ---------------------------------------------------------------------

def describe(outcome: Dict[str, Any]) -> str:
    if "refused" in outcome:
        return f"refused (exit {outcome['refused']['exit_code']}: {outcome['refused'].get('message', '')})"
    rec = outcome.get("records", {})
    return f"{outcome.get('fingerprint')} (" + ", ".join(f"{k} {rec.get(k)}" for k in RECORD_KINDS) + ")"


def same(stored: Dict[str, Any], now: Dict[str, Any]) -> bool:
    if "refused" in stored or "refused" in now:
        return ("refused" in stored and "refused" in now and
                stored["refused"].get("exit_code") == now["refused"]["exit_code"])
    return stored.get("fingerprint") == now["fingerprint"] and stored.get("records") == now["records"]


def ordered(entry: Dict[str, Any]) -> Dict[str, Any]:
    out = {k: entry[k] for k in ENTRY_KEYS if k in entry}
    out.update({k: v for k, v in entry.items() if k not in out})
    return out


def dumps(doc: Dict[str, Any]) -> str:
    """One line per entry, so a diff shows which scenario moved."""
    head = {k: v for k, v in doc.items() if k != "runs"}
    lines = ["{"]
    for k, v in head.items():
        lines.append(f"  {json.dumps(k)}: {json.dumps(v)},")
    lines.append('  "runs": [')
    lines.append(",\n".join("    " + json.dumps(e) for e in doc["runs"]))
    lines.append("  ]")
    lines.append("}")
    return "\n".join(lines) + "\n"


# ---- the two commands ----------------------------------------------------------------

def selected(scenarios: List[str], only: List[str]) -> List[str]:
    for s in only:
        if s not in scenarios:
            raise Problem(f"{s}: not a shipped scenario (a path such as scenarios/two_hop_chain_tcp.json)")
    return [s for s in scenarios if not only or s in only]


def generate(wmnsim: str, path: pathlib.Path, jobs: int, only: List[str]) -> int:
    old = load(path) if path.exists() else {"wmnsim_fingerprints": 1, "runs": []}
    scenarios = shipped_scenarios()
    chosen = selected(scenarios, only)
    kept = [e for e in old["runs"] if e["scenario"] in scenarios]
    for e in old["runs"]:
        if e["scenario"] not in scenarios:
            print(f"dropped:   {label(e)} (the scenario is gone)")
    covered = {e["scenario"] for e in kept}
    for s in chosen:
        if s not in covered:
            kept.extend(default_entries(s))
    kept.sort(key=lambda e: (e["scenario"], e["seed"], e.get("overrides", [])))
    specs = [{"scenario": e["scenario"], "seed": e["seed"], "duration_s": e["duration_s"],
              "overrides": e.get("overrides", [])} for e in kept]
    stored = {key(e): e for e in old["runs"]}
    to_run = [i for i, spec in enumerate(specs) if spec["scenario"] in chosen]

    start = time.monotonic()
    outcomes: List[Dict[str, Any]] = [
        {k: stored[key(spec)][k] for k in ("fingerprint", "records", "refused") if k in stored[key(spec)]}
        if spec["scenario"] not in chosen else {} for spec in specs]
    for i, outcome in zip(to_run, run_all(wmnsim, [specs[i] for i in to_run], jobs)):
        outcomes[i] = outcome
    moved = 0
    for spec, outcome in (zip([specs[i] for i in to_run], [outcomes[i] for i in to_run])):
        before = stored.get(key(spec))
        if before is None or not ("fingerprint" in before or "refused" in before):
            print(f"new:       {label(spec)}: {describe(outcome)}")
        elif not same(before, outcome) or before.get("duration_s") != spec["duration_s"]:
            moved += 1
            print(f"moved:     {label(spec)}: {describe(before)} -> {describe(outcome)}")
    doc = {
        "wmnsim_fingerprints": 1,
        "note": "Generated by scripts/fingerprints.py generate; docs/fingerprints.md says when to regenerate.",
        "generated": {"wmnsim": version_of(wmnsim), "date": datetime.date.today().isoformat()},
        "runs": [ordered(spec | outcome) for spec, outcome in zip(specs, outcomes)],
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(dumps(doc))
    os.replace(tmp, path)  # never a half-written file
    refused = sum("refused" in outcomes[i] for i in to_run)
    print(f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}: ran {len(to_run)} of "
          f"{len(specs)} entries ({refused} refused), {moved} moved, in {time.monotonic() - start:.1f} s")
    return 0


def check(wmnsim: str, path: pathlib.Path, jobs: int, only: List[str]) -> int:
    doc = load(path)
    entries = doc["runs"]
    scenarios = shipped_scenarios()
    chosen = selected(scenarios, only)
    problems: List[str] = []
    covered = {e["scenario"] for e in entries}
    for s in chosen:
        if s not in covered:
            problems.append(f"{s}: a shipped scenario without a stored fingerprint")
    if not only:
        for e in entries:
            if e["scenario"] not in scenarios:
                problems.append(f"{label(e)}: the scenario is not shipped any more")
    runnable = [e for e in entries if e["scenario"] in chosen]

    start = time.monotonic()
    outcomes = run_all(wmnsim, runnable, jobs)
    for e, now in zip(runnable, outcomes):
        if same(e, now):
            continue
        rel_wmnsim = os.path.relpath(wmnsim, ROOT) if os.path.isabs(wmnsim) else wmnsim
        problems.append(f"{label(e)}: moved\n      stored: {describe(e)}\n      now:    {describe(now)}\n"
                        f"      rerun:  {shlex.join(command(rel_wmnsim, e, None))}")
    elapsed = time.monotonic() - start
    if problems:
        print(f"{len(problems)} of {len(runnable)} fingerprinted runs differ from {path.name} "
              f"(docs/fingerprints.md):", file=sys.stderr)
        for p in problems:
            print("  " + p, file=sys.stderr)
        print("A refactoring must not move a fingerprint: find the change that did. A deliberate model "
              "change regenerates them in the same commit, and its message says why:\n"
              f"  {REGENERATE}", file=sys.stderr)
        return EXIT_MOVED
    refused = sum("refused" in o for o in outcomes)
    print(f"all {len(runnable)} fingerprinted runs as stored ({len(chosen)} scenarios, "
          f"{refused} runs refused as stored), in {elapsed:.1f} s")
    return 0


def default_wmnsim() -> str:
    return os.environ.get("WMNSIM_BIN") or str(ROOT / "build" / "release" / "cli" / "wmnsim")


def main(argv: Optional[List[str]] = None) -> int:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("scenarios", nargs="*",
                        help="only these scenarios (paths relative to the repository); default: all")
    common.add_argument("--wmnsim", default=default_wmnsim(),
                        help="the wmnsim program (default: $WMNSIM_BIN, else build/release/cli/wmnsim)")
    common.add_argument("--jobs", type=int, default=2, help="runs in parallel (default 2)")
    common.add_argument("--file", default=str(DEFAULT_FILE),
                        help="the fingerprint file (default tests/fingerprints/fingerprints.json)")
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("generate", parents=[common], help="rerun every entry and rewrite the file")
    sub.add_parser("check", parents=[common], help="rerun every entry and compare with the file")
    args = parser.parse_args(argv)

    wmnsim = os.path.abspath(args.wmnsim) if os.sep in args.wmnsim else args.wmnsim
    if not os.access(wmnsim, os.X_OK):
        print(f"cannot run {args.wmnsim}: give --wmnsim PATH or set WMNSIM_BIN", file=sys.stderr)
        return EXIT_INVALID
    path = pathlib.Path(args.file).resolve()
    try:
        only = [pathlib.Path(os.path.relpath(pathlib.Path(s).resolve(), ROOT)).as_posix() for s in args.scenarios]
        if args.command == "generate":
            return generate(wmnsim, path, args.jobs, only)
        return check(wmnsim, path, args.jobs, only)
    except Problem as e:
        print(e, file=sys.stderr)
        return EXIT_INVALID


if __name__ == "__main__":
    sys.exit(main())
