#!/usr/bin/env python3
"""A mutation fuzzer of the scenario loader and a short run (docs/scenario.md, "Limits").

Takes the shipped scenarios and the bad-input corpus as seeds, mutates them (hostile
values, scaled numbers, deleted and misspelt keys, swapped values, duplicated
entries, and byte-level edits of the JSON text), and feeds every mutant to

  * `wmnsim validate` (it must exit 0 or 2, within the time limit),
  * `wmnsim run` for a short simulated time when validate said valid (0 or 2; 2
    only if validate also refused: validate answers what run would),
  * with --python, `wmnsim.Scenario(text).validate()` in a worker interpreter, which
    may only return or raise ScenarioError (a dead worker is a finding).

A finding is a crash (a signal), a hang (the time limit), another exit code, an
exit code 2 without a message, or a disagreement; each is saved with its command
under --save and the run fails. For a bounded wall time (--seconds), from --seed.

    fuzz/mutate_scenarios.py --wmnsim build/ci/cli/wmnsim --seconds 40 --seed 1 [--python]

With --mode schema the mutants come from the composed schema instead: every key, with
values at, inside and beyond its limits, put in its place in a valid seed, and the key
coverage reported (schema_fuzz.py):

    fuzz/mutate_scenarios.py --wmnsim build/ci/cli/wmnsim --mode schema --seconds 300 \
        --coverage coverage.json [--python] [--cover-only --require-full-coverage]
"""
from __future__ import annotations

import argparse
import copy
import json
import os
import pathlib
import random
import subprocess
import sys
import tempfile
import time
from typing import Any, List, Optional, Tuple

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "scenarios"))
import bad_inputs  # noqa: E402

# Values that have broken simulators: zero, signs, limits of int64, uint64 and double,
# times below the engine's resolution, empty and long strings, wrong types, nesting.
HOSTILE: List[Any] = [
    0, -1, 1, 2, 0.5, -0.0, 1e-13, 1e-7, 1e-300, 5e-324, 1e15, 1e300, 1.7e308, -1.7e308,
    2**31, 2**32, 2**53 + 1, 2**63 - 1, 2**63, 2**64 - 1, 2**64, -2**63, 10**30,
    "", "x", "auto", "off", "@gateway", "*", "ac_vo", "é" * 40, "A" * 300, "\u0000", "a/b",
    None, True, False, [], {}, [0], [0, 0], [-1, -1, -1], [1e308, 1e308], {"": 1},
]
TEXT_INSERTS = ["[" * 70, "{\"a\":" * 70, "1e999", "-1e999", "9" * 400, "\"\\ud800\"", ",", "}", "]", "\"", "NaN",
                "\u00e9", "\x00", "\n", "{}", "[]", "null", "\"k\": 1, \"k\": 2, "]

# Per command: a hang (a large accepted scenario runs 0.2 s simulated in well under a
# minute). --timeout raises it: a crowd near the link cap (thousands of nodes that all
# hear each other, which the schema mode makes from a node group's count) takes minutes
# to build on a loaded machine (docs/scenario.md, Limits, "sizes").
TIMEOUT_S = 120
RUN_DURATION_S = 0.2  # simulated time of the short run


def scenario_seeds() -> List[str]:
    """The shipped scenarios (sweep specs and study files among them) and fuzz/seeds, which
    hold the containers no shipped scenario has (schema_fuzz.py places keys in them)."""
    out = []
    for p in sorted((ROOT / "scenarios").rglob("*.json")) + sorted((ROOT / "fuzz" / "seeds").glob("*.json")):
        if "schema" in p.parts or p.name.endswith(".reference.json"):
            continue
        out.append(p.read_text(encoding="utf-8"))
    return out


def seeds() -> List[str]:
    """The scenario seeds and the bad-input corpus."""
    out = scenario_seeds()
    corpus = bad_inputs.load()
    with tempfile.TemporaryDirectory() as tmp:
        for case in corpus["cases"]:
            if "file" in case or "generate" in case:
                continue
            _, _, text = bad_inputs.build(case, corpus["base"], pathlib.Path(tmp))
            out.append(text)
    out.append(json.dumps(corpus["base"]))
    return out


def paths(doc: Any, prefix: Tuple = ()) -> List[Tuple]:
    """Every location in a document, containers included."""
    out = [prefix]
    if isinstance(doc, dict):
        for k, v in doc.items():
            out += paths(v, prefix + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out += paths(v, prefix + (i,))
    return out


def get(doc: Any, path: Tuple) -> Any:
    for p in path:
        doc = doc[p]
    return doc


def put(doc: Any, path: Tuple, value: Any) -> Any:
    if not path:
        return value
    get(doc, path[:-1])[path[-1]] = value
    return doc


def typo(word: str, rng: random.Random) -> str:
    if not word:
        return "x"
    i = rng.randrange(len(word))
    op = rng.randrange(4)
    if op == 0:
        return word[:i] + word[i + 1:]
    if op == 1 and len(word) > 1:
        j = min(i + 1, len(word) - 1)
        w = list(word)
        w[i], w[j] = w[j], w[i]
        return "".join(w)
    if op == 2:
        return word[:i] + rng.choice("abcxyz_") + word[i:]
    return word.upper()


def mutate_doc(doc: Any, rng: random.Random, donors: List[Any]) -> Any:
    locations = paths(doc)
    path = rng.choice(locations)
    value = get(doc, path)
    op = rng.randrange(9)
    if op == 0:  # a hostile value
        return put(doc, path, copy.deepcopy(rng.choice(HOSTILE)))
    if op == 1 and isinstance(value, (int, float)) and not isinstance(value, bool) and abs(value) < 1e300:
        scaled = float(value) * 10.0 ** rng.randint(-15, 15) * rng.choice([1, -1])  # scale a number
        return put(doc, path, int(scaled) if isinstance(value, int) and abs(scaled) < 2**70 else scaled)
    if op == 2 and path:  # delete
        parent = get(doc, path[:-1])
        del parent[path[-1]]
        return doc
    if op == 3 and isinstance(value, dict) and value:  # misspell a key
        k = rng.choice(list(value))
        value[typo(k, rng)] = value.pop(k)
        return doc
    if op == 4 and isinstance(value, list) and value:  # duplicate entries, a few or many
        value.extend(copy.deepcopy(rng.choice(value)) for _ in range(rng.choice([1, 2, 50, 500])))
        return doc
    if op == 5:  # a value from elsewhere (this document or another seed): type confusion
        donor = rng.choice(donors)
        return put(doc, path, copy.deepcopy(get(donor, rng.choice(paths(donor)))))
    if op == 6 and isinstance(value, str):
        return put(doc, path, typo(value, rng))
    if op == 7 and isinstance(value, dict):  # graft a section of another seed
        donor = rng.choice(donors)
        if isinstance(donor, dict) and donor:
            k = rng.choice(list(donor))
            value[k] = copy.deepcopy(donor[k])
        return doc
    if op == 8 and isinstance(value, (int, float)) and not isinstance(value, bool) and abs(value) < 1e300:
        v = float(value)  # tiny or huge
        return put(doc, path, rng.choice([v * 1e-13, v * 1e13, -value, value + 1, value - 1]))
    return put(doc, path, copy.deepcopy(rng.choice(HOSTILE)))


def mutate_text(text: str, rng: random.Random) -> str:
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(text) + 1)
        op = rng.randrange(4)
        if op == 0:
            text = text[:i] + rng.choice(TEXT_INSERTS) + text[i:]
        elif op == 1:
            text = text[:i] + text[i + rng.randint(1, 20):]
        elif op == 2:
            text = text[:i]
        else:
            text = text[:i] + chr(rng.randrange(32, 0x250)) + text[i + 1:]
    return text


def shorten(doc: Any) -> Any:
    """Keeps the run short in simulated time (the loader sees the mutant as it is), and
    its output files inside the fuzzer's folder."""
    if isinstance(doc, dict) and isinstance(doc.get("outputs"), dict):
        for key in ("results_file", "timeseries_file"):
            name = doc["outputs"].get(key)
            if isinstance(name, str) and name and ("/" in name or name.startswith(".")):
                doc["outputs"][key] = key + ".out"
    if isinstance(doc, dict) and isinstance(doc.get("simulation"), dict):
        d = doc["simulation"].get("duration_s")
        if isinstance(d, (int, float)) and not isinstance(d, bool) and d > RUN_DURATION_S:
            doc["simulation"]["duration_s"] = RUN_DURATION_S
            w = doc["simulation"].get("warmup_s")
            if isinstance(w, (int, float)) and not isinstance(w, bool) and w >= RUN_DURATION_S:
                doc["simulation"]["warmup_s"] = 0
    return doc


class Finding(Exception):
    pass


def run_cli(wmnsim: str, args: List[str], cwd: str) -> Tuple[int, str, float]:
    start = time.monotonic()
    try:
        r = subprocess.run([wmnsim, *args], capture_output=True, cwd=cwd, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        raise Finding(f"hang: {' '.join(args)} ran over {TIMEOUT_S} s") from None
    elapsed = time.monotonic() - start
    err = r.stderr.decode("utf-8", "replace")
    if r.returncode < 0:
        raise Finding(f"crash: {' '.join(args)} died of signal {-r.returncode}\n{err[-2000:]}")
    if r.returncode not in (0, 2):
        raise Finding(f"exit code {r.returncode}: {' '.join(args)}\n{err[-2000:]}")
    if r.returncode == 2 and not err.strip():
        raise Finding(f"exit code 2 without a message: {' '.join(args)}")
    return r.returncode, err, elapsed


WORKER = r"""
import sys, json
import wmnsim
for line in sys.stdin:
    text = json.loads(line)
    try:
        wmnsim.Scenario.from_json(text).validate()
        out = "valid"
    except wmnsim.ScenarioError:
        out = "refused"
    except BaseException as e:
        out = "other: " + type(e).__name__ + ": " + str(e)[:500]
    sys.stdout.write(json.dumps(out) + "\n")
    sys.stdout.flush()
"""


class PythonWorker:
    """An interpreter that validates mutants; it must survive every one."""

    def __init__(self) -> None:
        self.proc: Optional[subprocess.Popen] = None

    def check(self, text: str) -> str:
        if self.proc is None or self.proc.poll() is not None:
            self.proc = subprocess.Popen([sys.executable, "-c", WORKER], stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, text=True)
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(json.dumps(text) + "\n")
        self.proc.stdin.flush()
        import selectors
        sel = selectors.DefaultSelector()
        sel.register(self.proc.stdout, selectors.EVENT_READ)
        if not sel.select(TIMEOUT_S):
            self.proc.kill()  # reaped here: the next mutant gets a new interpreter, not this one's exit
            self.proc.wait()
            self.proc = None
            raise Finding(f"hang: Python's Scenario.validate() ran over {TIMEOUT_S} s")
        line = self.proc.stdout.readline()
        if not line:
            code = self.proc.wait()
            raise Finding(f"crash: the Python interpreter died validating the scenario (exit {code})")
        out = json.loads(line)
        if out.startswith("other"):
            raise Finding(f"Python raised something other than ScenarioError: {out}")
        return out

    def close(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.stdin.close()  # type: ignore[union-attr]
            self.proc.wait(timeout=10)


class Oracle:
    """Feeds one scenario text to validate, a short run and Python, and raises Finding when
    they break the rules of the module's docstring."""

    def __init__(self, wmnsim: str, work: str, worker: Optional[PythonWorker], rng: random.Random) -> None:
        self.wmnsim, self.work, self.worker, self.rng = wmnsim, work, worker, rng
        self.scenario = os.path.join(work, "mutant.json")
        self.counts = {"mutants": 0, "valid": 0, "refused": 0, "runs": 0, "run_ok": 0}
        self.slowest = (0.0, "")

    def check(self, text: str, run_share_valid: float = 1.0, run_share_refused: float = 0.2) -> Tuple[int, str]:
        """validate's exit code and message; the short run (for the given shares of valid
        and refused mutants) and Python must agree with it."""
        self.counts["mutants"] += 1
        with open(self.scenario, "w", encoding="utf-8", errors="surrogatepass") as f:
            f.write(text)
        try:
            code, err, elapsed = run_cli(self.wmnsim, ["validate", self.scenario], self.work)
            self._time(elapsed, "validate")
            self.counts["valid" if code == 0 else "refused"] += 1
            if self.rng.random() < (run_share_valid if code == 0 else run_share_refused):
                self.counts["runs"] += 1
                run_code, run_err, elapsed = run_cli(self.wmnsim, ["run", self.scenario, "-o", "results.json"], self.work)
                self._time(elapsed, "run")
                # -o replaces /outputs/results_file: a refusal for that path alone is
                # validate's answer for a run without -o; validate is asked again
                # with the path -o gives (its other checks come after the outputs').
                vcode, verr = code, err
                only_results_file = all("(/outputs/results_file)" in line for line in err.splitlines() if line.strip())
                if code == 2 and only_results_file and err.strip():
                    vcode, verr, _ = run_cli(self.wmnsim, ["validate", self.scenario, "--set",
                                                           '/outputs/results_file="results.json"'], self.work)
                if run_code != vcode:
                    raise Finding(f"validate exited {vcode} but run exited {run_code}\n{verr[-1000:]}\n{run_err[-1000:]}")
                self.counts["run_ok"] += run_code == 0
            if self.worker is not None:
                py = self.worker.check(text)
                # Output files are the command line's: Python's validate does not check them.
                if (py == "valid") != (code == 0) and "cannot write" not in err:
                    raise Finding(f"Python's validate said {py}, the program exited {code}\n{err[-1000:]}")
            leftovers = [n for n in os.listdir(self.work) if ".tmp-" in n]
            if leftovers:
                raise Finding(f"temporary files left behind: {leftovers}")
            return code, err
        finally:
            for n in os.listdir(self.work):  # what the run wrote (-o, a timeseries_file)
                if n != "mutant.json" and os.path.isfile(os.path.join(self.work, n)):
                    os.unlink(os.path.join(self.work, n))

    def _time(self, elapsed: float, what: str) -> None:
        if elapsed > self.slowest[0]:
            self.slowest = (elapsed, what)


class Findings:
    def __init__(self, save: pathlib.Path) -> None:
        self.save, self.count = save, 0

    def add(self, text: str, e: Exception) -> None:
        self.count += 1
        name = self.save / f"finding-{self.count}.json"
        name.write_text(text, encoding="utf-8", errors="surrogatepass")
        print(f"FINDING {self.count} ({name}): {e}", file=sys.stderr)


def fuzz_mutations(oracle: Oracle, findings: Findings, rng: random.Random, seconds: float) -> None:
    texts = seeds()
    docs = [d for d in map(_loads, texts) if d is not None]
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if rng.random() < 0.25:
            text = mutate_text(rng.choice(texts), rng)
        else:
            doc = copy.deepcopy(rng.choice(docs))
            for _ in range(rng.choice([1, 1, 1, 2, 3])):
                doc = mutate_doc(doc, rng, docs)
            text = json.dumps(shorten(doc), ensure_ascii=rng.random() < 0.5)
        try:
            oracle.check(text)
        except Finding as e:
            findings.add(text, e)


def main() -> int:
    global TIMEOUT_S
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--wmnsim", required=True, help="the wmnsim program")
    ap.add_argument("--mode", choices=["mutate", "schema"], default="mutate",
                    help="mutate the seeds at random (default), or walk the schema's keys (schema_fuzz.py)")
    ap.add_argument("--seconds", type=float, default=40,
                    help="wall time to fuzz for (schema mode: after its full pass over every key)")
    ap.add_argument("--seed", type=int, default=None, help="random seed (default: from the clock, printed)")
    ap.add_argument("--python", action="store_true", help="also validate every mutant in a Python worker")
    ap.add_argument("--save", default=None, help="folder for findings (default: a new temporary folder)")
    ap.add_argument("--schema", default=str(ROOT / "scenarios" / "schema" / "scenario.schema.json"),
                    help="schema mode: the composed schema")
    ap.add_argument("--coverage", default=None, help="schema mode: write the key coverage (JSON) here")
    ap.add_argument("--require-full-coverage", action="store_true",
                    help="schema mode: fail unless every key was both accepted and refused")
    ap.add_argument("--cover-only", action="store_true",
                    help="schema mode: in the pass over every key, stop at a key once it is covered (CI)")
    ap.add_argument("--only", default=None, help="schema mode: only the keys whose name starts with this")
    ap.add_argument("--run-share", type=float, default=0.25,
                    help="schema mode: the share of accepted mutants also run (refused: a fifth of it)")
    ap.add_argument("--timeout", type=float, default=None, help="seconds a command may take (a hang beyond; 120)")
    args = ap.parse_args()
    if args.timeout is not None:
        TIMEOUT_S = args.timeout
    seed = args.seed if args.seed is not None else int(time.time())
    rng = random.Random(seed)
    save = pathlib.Path(args.save or tempfile.mkdtemp(prefix="wmnsim-fuzz-"))
    save.mkdir(parents=True, exist_ok=True)
    worker = PythonWorker() if args.python else None
    findings = Findings(save)
    coverage_ok = True
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="wmnsim-fuzz-work-") as work:
        oracle = Oracle(args.wmnsim, work, worker, rng)
        if args.mode == "mutate":
            fuzz_mutations(oracle, findings, rng, args.seconds)
        else:
            # schema_fuzz imports this module's Finding and shorten: one module, not a second copy
            sys.modules.setdefault("mutate_scenarios", sys.modules[__name__])
            import schema_fuzz
            coverage_ok = schema_fuzz.fuzz(oracle, findings, rng, args, scenario_seeds())
    if worker is not None:
        worker.close()
    c = oracle.counts
    print(f"fuzz_scenarios ({args.mode}): seed {seed}, {time.monotonic() - start:.0f} s: {c['mutants']} mutants "
          f"({c['valid']} valid, {c['refused']} refused), {c['runs']} short runs "
          f"({c['run_ok']} completed), slowest command {oracle.slowest[0]:.2f} s ({oracle.slowest[1]}), "
          f"{findings.count} findings" + (f" saved in {save}" if findings.count else ""))
    return 1 if findings.count or not coverage_ok else 0


def _loads(text: str) -> Any:
    try:
        doc = json.loads(text)
        return doc if isinstance(doc, dict) else None
    except (ValueError, RecursionError):  # the seeds include the deep bad inputs
        return None


if __name__ == "__main__":
    sys.exit(main())
