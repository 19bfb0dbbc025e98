#!/usr/bin/python3
"""Generate and check reference results (docs/references.md).

    references.py generate REF.json|FOLDER ... [--jobs N] [--quick] [--wmnsim PATH]
    references.py check    REF.json|FOLDER ... [--jobs N] [--quick] [--wmnsim PATH]

A folder stands for every *.reference.json under it; with --quick only the
*.quick.reference.json files (the CI subset). Each reference's scenario is run
once per seed with its overrides, as `wmnsim run SCEN --seed S --set ... -o FILE`
would, by the sweep runner (wmnsim.sweep, docs/sweeps.md) on one embedded Dask
cluster of --jobs worker processes.

generate rewrites each reference with the new mean/std/n/samples of its metrics
(tolerances and note kept) and what they were made from (the runs' scenario_hash
and duration_s), and prints how far each mean moved. check compares the runs with
`wmnsim compare` and prints its tables.

Exit codes: 0 all passed (or nothing to do), 2 invalid input or a failed run,
3 (check) some reference has a metric outside its tolerance or missing.
Needs the wmnsim Python module of the same build as --wmnsim (taken from the
build's python/ folder next to it, else the installed one), Dask's distributed
scheduler and SciPy (scripts/setup.sh installs them).
"""
from __future__ import annotations

import argparse
import concurrent.futures
import datetime
import json
import math
import os
import pathlib
import subprocess
import sys
import tempfile
from typing import Any, Dict, List, Optional, Tuple

from scipy import stats as scipy_stats

ROOT = pathlib.Path(__file__).resolve().parents[1]
EXIT_INVALID = 2
EXIT_OUTSIDE = 3
TOP_KEYS = ["wmnsim_reference", "scenario", "overrides", "seeds", "scenario_hash", "duration_s", "generated", "note",
            "metrics"]
METRIC_KEYS = ["metric", "mean", "std", "n", "samples", "tolerance"]


class ReferenceProblem(Exception):
    """Something wrong with one reference or its runs; reported, then the next one."""


# ---- finding references ------------------------------------------------------------

def find_references(paths: List[str], quick: bool) -> List[pathlib.Path]:
    found: List[pathlib.Path] = []
    for p in map(pathlib.Path, paths):
        if p.is_dir():
            pattern = "*.quick.reference.json" if quick else "*.reference.json"
            found.extend(sorted(p.rglob(pattern)))
        elif p.is_file():
            found.append(p)  # named explicitly: taken even without the quick suffix
        else:
            raise ReferenceProblem(f"{p}: no such file or folder")
    return found


def load(path: pathlib.Path) -> Dict[str, Any]:
    try:
        doc = json.loads(path.read_text())
    except (OSError, ValueError) as e:
        raise ReferenceProblem(f"{path}: cannot read: {e}") from None
    if not isinstance(doc, dict) or doc.get("wmnsim_reference") != 1:
        raise ReferenceProblem(f'{path}: not a reference file (expected "wmnsim_reference": 1)')
    for key, kind in (("scenario", str), ("seeds", list), ("metrics", list)):
        if not isinstance(doc.get(key), kind):
            raise ReferenceProblem(f'{path}: /{key}: missing or not a {kind.__name__} (docs/references.md)')
    # The rest is `wmnsim compare`'s to check; generate needs at least these two.
    for i, m in enumerate(doc["metrics"]):
        if not isinstance(m, dict) or not isinstance(m.get("metric"), str) or not isinstance(m.get("tolerance"), dict):
            raise ReferenceProblem(f'{path}: /metrics/{i}: needs "metric" and "tolerance" '
                                   '(e.g. {"metric": "flows/A_to_GW/goodput_bps", "tolerance": {"ci": 0.95}})')
    return doc


# ---- running the seeds -------------------------------------------------------------

def import_wmnsim(wmnsim_bin: str) -> Any:
    """The wmnsim Python module of the build that made --wmnsim (BUILD/cli/wmnsim ->
    BUILD/python plus bindings/), else an installed one. Dask's worker processes
    inherit the search path."""
    build_python = pathlib.Path(wmnsim_bin).resolve().parents[1] / "python"
    if (build_python / "wmnsim").is_dir():
        paths = [str(ROOT / "bindings"), str(build_python)]
        sys.path[:0] = paths
        os.environ["PYTHONPATH"] = os.pathsep.join(paths + [p for p in [os.environ.get("PYTHONPATH")] if p])
    try:
        import wmnsim
    except ImportError as e:
        raise ReferenceProblem(
            f"cannot import the wmnsim Python module ({e}) and {build_python} has none: build it with that "
            f"program (`scripts/build.sh release` and `ci` build it; another tree: cmake -S . -B "
            f"{build_python.parent} -DWMNSIM_BUILD_PYTHON=ON) or install it (docs/python.md)") from None
    return wmnsim


def run_seeds(wmnsim: Any, ref_path: pathlib.Path, doc: Dict[str, Any], out_dir: pathlib.Path,
              client: Any) -> List[pathlib.Path]:
    """Runs the reference's scenario once per seed (a sweep of one point); returns
    the results files in seed order."""
    try:
        scenario = wmnsim.Scenario(ref_path.parent / doc["scenario"]).with_overrides(doc.get("overrides", []))
        data = wmnsim.sweep(scenario, seeds=doc["seeds"], out_dir=out_dir, scheduler=client, keep_results=True,
                            progress=False)
    except wmnsim.ScenarioError as e:
        raise ReferenceProblem(f"{ref_path}: cannot run the seeds {doc['seeds']}:\n{e}") from None
    except wmnsim.SweepError as e:
        raise ReferenceProblem(f"{ref_path}: {e}") from None
    return [out_dir / "runs" / key / "results.json" for key in data.keys]  # one point: in seed order


# ---- metrics, as results/compare.cpp reads them -----------------------------------------

def lookup(results: Dict[str, Any], metric: str) -> Optional[float]:
    section, _, rest = metric.partition("/")
    if section == "summary":
        value: Any = results.get("summary", {})
        for key in rest.split("/"):
            if not isinstance(value, dict) or key not in value:
                return None
            value = value[key]
    elif section in ("flows", "nodes", "radios") and "/" in rest:
        row_id, _, column = rest.rpartition("/")  # ids may contain '/'; the column cannot
        rows = [r for r in results.get(section, []) if isinstance(r, dict) and r.get("id") == row_id]
        if not rows or column not in rows[0]:
            return None
        value = rows[0][column]
    else:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return value


def rounded(x: float) -> float:
    """Six significant digits: diffs show real changes, not the last bits."""
    if x == 0 or not math.isfinite(x):
        return x
    return float(f"{x:.6g}")


def stats(samples: List[float]) -> Tuple[float, float]:
    n = len(samples)
    mean = sum(samples) / n
    var = sum((s - mean) ** 2 for s in samples) / (n - 1) if n > 1 else 0.0
    return mean, math.sqrt(var)


def t_quantile(level: float, df: int) -> float:
    """Student's t with P(|T| <= t) = level, as `wmnsim compare` uses it."""
    return float(scipy_stats.t.ppf(0.5 + level / 2, df))


def band_half_width(metric: Dict[str, Any], m: int) -> float:
    """The widest band of the metric's tolerances (docs/references.md)."""
    tol, mean = metric.get("tolerance", {}), metric.get("mean", 0.0)
    widths = [0.0]
    if "absolute" in tol:
        widths.append(tol["absolute"])
    if "relative" in tol:
        widths.append(tol["relative"] * abs(mean))
    n = metric.get("n", 1)
    if "ci" in tol and n >= 2:
        widths.append(t_quantile(tol["ci"], n - 1) * metric.get("std", 0.0) * math.sqrt(1 / n + 1 / m))
    return max(widths)


# ---- writing a reference -------------------------------------------------------------

def ordered(doc: Dict[str, Any], keys: List[str]) -> Dict[str, Any]:
    out = {k: doc[k] for k in keys if k in doc}
    out.update({k: v for k, v in doc.items() if k not in out})  # unknown keys kept, last
    return out


def dumps(value: Any, indent: int = 0) -> str:
    """JSON with 2-space indent, but short arrays and flat objects (samples,
    tolerance, generated) on one line, so a reference reads as one line per fact."""
    flat = json.dumps(value)
    scalar = lambda v: not isinstance(v, (dict, list))  # noqa: E731
    if (isinstance(value, list) and all(map(scalar, value))) or \
            (isinstance(value, dict) and all(map(scalar, value.values())) and len(flat) <= 100) or scalar(value):
        return flat
    pad, inner = " " * indent, " " * (indent + 2)
    if isinstance(value, list):
        if not value:
            return "[]"
        return "[\n" + ",\n".join(inner + dumps(v, indent + 2) for v in value) + "\n" + pad + "]"
    if not value:
        return "{}"
    items = (inner + json.dumps(k) + ": " + dumps(v, indent + 2) for k, v in value.items())
    return "{\n" + ",\n".join(items) + "\n" + pad + "}"


def prepare(wmnsim: Any, ref_path: pathlib.Path, out_dir: pathlib.Path, client: Any
            ) -> Tuple[Dict[str, Any], List[pathlib.Path]]:
    """Reads a reference and runs its seeds: (the reference, its results files)."""
    doc = load(ref_path)
    return doc, run_seeds(wmnsim, ref_path, doc, out_dir, client)


def generate(ref_path: pathlib.Path, doc: Dict[str, Any], files: List[pathlib.Path]) -> None:
    results = [json.loads(f.read_text()) for f in files]

    print(f"== {ref_path}: {len(results)} runs")
    metrics = []
    for old in doc["metrics"]:
        name = old.get("metric", "")
        samples = [lookup(r, name) for r in results]
        if any(s is None for s in samples):
            raise ReferenceProblem(f"{ref_path}: metric {name!r} is missing or not a number in the results "
                                   "(`wmnsim compare` tells why)")
        mean, std = stats(samples)
        new = dict(old, mean=rounded(mean), std=rounded(std), n=len(samples), samples=[
            s if isinstance(s, int) else rounded(s) for s in samples])
        metrics.append(ordered(new, METRIC_KEYS))
        print("  " + moved(old, new))
    # What the numbers were made from: `wmnsim compare` refuses results of
    # another scenario or duration (docs/references.md).
    hashes = {r.get("scenario_hash") for r in results}
    if len(hashes) != 1 or not isinstance(next(iter(hashes)), str):
        raise ReferenceProblem(f"{ref_path}: the runs do not carry one scenario_hash ({sorted(map(str, hashes))}): "
                               "run them with a wmnsim that records it")
    doc["scenario_hash"] = next(iter(hashes))
    doc["duration_s"] = results[0]["scenario"]["simulation"]["duration_s"]
    version = results[0].get("wmnsim", {})
    doc["generated"] = {
        "wmnsim_version": version.get("version", "?"),
        "build_type": version.get("build_type", "?"),
        "commit": version.get("commit", "?"),
        "date": datetime.date.today().isoformat(),
    }
    doc["metrics"] = metrics
    text = dumps(ordered(doc, TOP_KEYS)) + "\n"
    tmp_path = ref_path.with_name(ref_path.name + ".tmp")
    tmp_path.write_text(text)
    os.replace(tmp_path, ref_path)  # never a half-written reference


def moved(old: Dict[str, Any], new: Dict[str, Any]) -> str:
    """"metric: old -> new (+0.4 std)", flagged when the new mean leaves the old band."""
    name = new["metric"]
    if "mean" not in old:
        return f"{name}: new, {new['mean']:.6g}"
    shift = new["mean"] - old["mean"]
    text = f"{name}: {old['mean']:.6g} -> {new['mean']:.6g}"
    old_std = old.get("std", 0.0)
    if old_std > 0:
        text += f" ({shift / old_std:+.2f} std)"
    elif shift != 0:
        text += " (old std 0)"
    if abs(shift) > band_half_width(old, new["n"]):
        text += "  <-- MOVED beyond the old tolerance band"
    return text


def check(wmnsim_bin: str, ref_path: pathlib.Path, files: List[pathlib.Path]) -> int:
    r = subprocess.run([wmnsim_bin, "compare", *map(str, files), "--reference", str(ref_path)],
                       capture_output=True, text=True)
    print(f"== {ref_path}: {len(files)} runs")
    sys.stdout.write(r.stdout)
    sys.stderr.write(r.stderr)
    return r.returncode


def default_wmnsim() -> str:
    return os.environ.get("WMNSIM_BIN") or str(ROOT / "build" / "release" / "cli" / "wmnsim")


def main(argv: Optional[List[str]] = None) -> int:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("paths", nargs="+", help="reference files or folders (searched for *.reference.json)")
    common.add_argument("--wmnsim", default=default_wmnsim(),
                        help="the wmnsim program (default: $WMNSIM_BIN, else build/release/cli/wmnsim)")
    common.add_argument("--jobs", type=int, default=2,
                        help="runs in parallel: worker processes of the embedded Dask cluster (default 2)")
    common.add_argument("--quick", action="store_true", help="in folders, only *.quick.reference.json (CI)")
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("generate", parents=[common], help="rerun the seeds and rewrite the references")
    sub.add_parser("check", parents=[common], help="rerun the seeds and compare with the references")
    args = parser.parse_args(argv)

    try:
        refs = find_references(args.paths, args.quick)
    except ReferenceProblem as e:
        print(e, file=sys.stderr)
        return EXIT_INVALID
    if not refs:
        print("no references found")
        return 0
    if not os.access(args.wmnsim, os.X_OK):
        print(f"cannot run {args.wmnsim}: give --wmnsim PATH or set WMNSIM_BIN", file=sys.stderr)
        return EXIT_INVALID

    if args.jobs < 1:
        print(f"--jobs must be at least 1, got {args.jobs}", file=sys.stderr)
        return EXIT_INVALID
    try:
        wmnsim = import_wmnsim(args.wmnsim)
    except ReferenceProblem as e:
        print(e, file=sys.stderr)
        return EXIT_INVALID

    status = 0
    outside: List[str] = []
    # One cluster for every reference; a few references are swept at once so that
    # the workers never wait for this process (comparing, writing); reports follow
    # the references' order.
    with tempfile.TemporaryDirectory(prefix="wmnsim-ref-") as tmp, \
            wmnsim.sweep.dask_client(workers=args.jobs) as client, \
            concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
        prepared = [pool.submit(prepare, wmnsim, ref, pathlib.Path(tmp) / str(i), client)
                    for i, ref in enumerate(refs)]
        for ref, runs in zip(refs, prepared):
            try:
                doc, files = runs.result()
                if args.command == "generate":
                    generate(ref, doc, files)
                    continue
                code = check(args.wmnsim, ref, files)
            except ReferenceProblem as e:
                print(e, file=sys.stderr)
                status = EXIT_INVALID
                continue
            if code == EXIT_OUTSIDE:
                outside.append(str(ref))
            elif code != 0:
                status = EXIT_INVALID
    if args.command == "check":
        print(f"{len(refs) - len(outside)} of {len(refs)} references passed" +
              (": failed " + ", ".join(outside) if outside else ""))
    return status or (EXIT_OUTSIDE if outside else 0)


if __name__ == "__main__":
    sys.exit(main())
