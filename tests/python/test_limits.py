"""docs/scenario.md "Limits" from Python: every hostile input is a ScenarioError,
never a crash, a RecursionError or a hang; `python -m wmnsim` handles signals like
the program."""
import json
import signal
import subprocess
import sys

import pytest

import wmnsim
from conftest import FLAGSHIP, ROOT

sys.path.insert(0, str(ROOT / "tests"))
from process_wait import wait_until_running  # noqa: E402


def small():
    doc = json.loads(FLAGSHIP.read_text())
    doc["simulation"]["duration_s"] = 1
    return doc


def test_deep_and_self_referencing_documents_are_scenario_errors():
    deep = {}
    cur = deep
    for _ in range(100000):
        cur["a"] = {}
        cur = cur["a"]
    e = pytest.raises(wmnsim.ScenarioError, wmnsim.Scenario, deep).value
    assert "nested deeper than 64 levels" in str(e)
    loop = small()
    loop["description"] = loop  # a dict that contains itself
    e = pytest.raises(wmnsim.ScenarioError, wmnsim.Scenario, loop).value
    assert e.errors[0].path.startswith("/description/description")
    text = '{"description": ' + "[" * 100000 + "]" * 100000 + "}"
    e = pytest.raises(wmnsim.ScenarioError, wmnsim.Scenario.from_json, text).value
    assert e.errors[0].path.startswith("/description/0/0") and "nested deeper" in e.errors[0].message


def test_numbers_beyond_a_double_and_bad_unicode_are_scenario_errors():
    doc = small()
    doc["simulation"]["duration_s"] = 10**400  # a Python int no double holds
    e = pytest.raises(wmnsim.ScenarioError, wmnsim.Scenario(doc).validate).value
    assert e.errors[0].path == "/simulation/duration_s" and "too large for a double" in e.errors[0].message
    e = pytest.raises(wmnsim.ScenarioError, wmnsim.Scenario.from_json, '{"a": 1e999}').value
    assert e.errors[0].path == "/a"
    doc = small()
    doc["name"] = "\udc80"
    e = pytest.raises(wmnsim.ScenarioError, wmnsim.Scenario, doc).value
    assert e.errors[0].path == "/name"


def test_seeds_are_refused_as_by_the_command_line():
    for seed in (-1, 2**64):
        e = pytest.raises(wmnsim.ScenarioError, wmnsim.run, small(), seed=seed).value
        assert e.errors[0].path == "/simulation/seed"
        assert "expected an integer 0..18446744073709551615" in e.errors[0].message


def test_not_supported_is_a_scenario_error_with_its_path_and_validate_finds_it():
    doc = small()
    doc["propagation"] = {"model": "log_distance", "shadowing": {"sigma_db": 3, "mode": "per_frame"}}
    for call in (wmnsim.Scenario(doc).validate, lambda: wmnsim.run(doc)):
        e = pytest.raises(wmnsim.NotSupportedError, call).value
        assert isinstance(e, wmnsim.ScenarioError) and isinstance(e, NotImplementedError)
        assert e.errors[0].path == "/propagation/shadowing/mode" and "is not modelled yet" in e.errors[0].message
    assert wmnsim.Scenario(doc).errors()[0].path == "/propagation/shadowing/mode"


def test_validate_finds_unreachable_flows():
    doc = small()
    doc["nodes"][0]["position_m"] = [-2000, 0]
    e = pytest.raises(wmnsim.ScenarioError, wmnsim.Scenario(doc).validate).value
    assert e.errors[0].path.startswith("/flows/0")


@pytest.mark.parametrize("sig,code", [(signal.SIGTERM, 143), (signal.SIGHUP, 129)])
def test_python_cli_stops_on_sigterm_and_sighup(tmp_path, sig, code):
    out = tmp_path / "out.json"
    p = subprocess.Popen([sys.executable, "-m", "wmnsim", "run", str(FLAGSHIP), "--set", "/simulation/duration_s=100000",
                          "-o", str(out)], stderr=subprocess.PIPE, text=True)
    wait_until_running(p)  # the interpreter has started and the run is well under way
    p.send_signal(sig)
    _, err = p.communicate(timeout=60)
    assert p.returncode == code, err
    # The C++ command line's words and files: partial results, marked so.
    assert "partial results written" in err
    assert json.loads(out.read_text())["run"]["partial"] is True
