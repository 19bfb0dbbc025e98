"""Every case of the bad-input corpus (bad_inputs.json) is refused: exit code 2 from
`wmnsim validate` and `wmnsim run` with the JSON path and the words it must give,
nothing written, in bounded time; wmnsim.ScenarioError from Python, and the same
output from `python -m wmnsim` as from the program where the case says so."""
import os
import pathlib
import subprocess
import sys
import time

import pytest

import bad_inputs

ROOT = pathlib.Path(__file__).resolve().parents[2]
WMNSIM = str(pathlib.Path(os.environ.get("WMNSIM_BIN", ROOT / "build" / "ci" / "cli" / "wmnsim")).resolve())
CORPUS = bad_inputs.load()
# Subprocesses (python -m wmnsim) run in other folders: absolute search paths.
os.environ["PYTHONPATH"] = os.pathsep.join(
    str(pathlib.Path(p).resolve()) for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p)
CASES = CORPUS["cases"]


def _ids(case):
    return case["name"]


def test_corpus_is_large_and_named_uniquely():
    names = [c["name"] for c in CASES]
    assert len(names) >= 60
    assert len(set(names)) == len(names)
    for c in CASES:
        assert c["message"] and "class" in c


def _expect_refused(stderr: str, case) -> None:
    assert case["message"] in stderr, stderr[:3000]
    if case["path"] is not None:
        assert case["path"] in stderr, stderr[:3000]
    assert "internal error" not in stderr


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_cli_refuses(case, tmp_path):
    path, args, _ = bad_inputs.build(case, CORPUS["base"], tmp_path)
    before = sorted(tmp_path.iterdir())
    for command in case.get("commands", ["validate", "run"]):
        start = time.monotonic()
        r = subprocess.run([WMNSIM, command, path, *args], capture_output=True, text=True, cwd=tmp_path,
                           timeout=120, errors="replace")
        elapsed = time.monotonic() - start
        assert r.returncode == 2, (command, r.returncode, r.stderr[:3000])
        _expect_refused(r.stderr, case)
        assert r.stdout == ""
        assert elapsed < case.get("max_seconds", 30), (command, elapsed)
        assert sorted(tmp_path.iterdir()) == before  # nothing written, no temporary file left


def _python_cases():
    return [c for c in CASES if c.get("python", "validate") is not False]


@pytest.mark.parametrize("case", _python_cases(), ids=_ids)
def test_python_refuses(case, tmp_path):
    if os.environ.get("WMNSIM_REQUIRE_PYTHON") == "1":  # ctest, with the module built
        import wmnsim
    else:
        wmnsim = pytest.importorskip("wmnsim")
    path, args, text = bad_inputs.build(case, CORPUS["base"], tmp_path)
    mode = case.get("python", "validate")
    if mode == "mirror":
        # `python -m wmnsim` answers exactly as the program does.
        for command in case.get("commands", ["validate", "run"]):
            c = subprocess.run([WMNSIM, command, path, *args], capture_output=True, text=True, cwd=tmp_path,
                               timeout=120, errors="replace")
            p = subprocess.run([sys.executable, "-m", "wmnsim", command, path, *args], capture_output=True,
                               text=True, cwd=tmp_path, timeout=120, errors="replace")
            assert (p.returncode, p.stdout, p.stderr) == (c.returncode, c.stdout, c.stderr)
        return
    start = time.monotonic()
    with pytest.raises(wmnsim.ScenarioError) as info:
        if mode == "file":
            wmnsim.Scenario(path).validate()
        else:
            scenario = wmnsim.Scenario.from_json(text)
            if "python_seed" in case:
                wmnsim.run(scenario, seed=case["python_seed"])
            elif mode == "run":
                wmnsim.run(scenario)
            else:
                scenario.validate()
    assert time.monotonic() - start < case.get("max_seconds", 30)
    e = info.value
    assert case["message"] in str(e), str(e)[:3000]
    if case["path"] is None:
        assert any(issue.path == "" for issue in e.errors), e.errors[:5]
    else:
        assert any(issue.path.startswith(case["path"]) or case["path"] in issue.message for issue in e.errors), \
            e.errors[:5]
