"""wmnsim.run against the command line: same outcome, same per-flow results."""
import json
import os
import re
import signal
import subprocess
import threading
import time

import pytest

import wmnsim
from conftest import FLAGSHIP, WMNSIM_BIN

SHORT = {"/simulation/duration_s": 2}


def cli(*args):
    return subprocess.run([WMNSIM_BIN, *map(str, args)], capture_output=True, text=True, timeout=300)


def without_wall_clock(text):
    doc = json.loads(text)
    doc.pop("wall_clock")
    return doc


def test_run_has_the_same_outcome_as_the_cli(tmp_path):
    out = tmp_path / "cli.json"
    r = cli("run", FLAGSHIP, "--seed", 3, "--set", "/simulation/duration_s=2", "-o", out)
    result = wmnsim.run(FLAGSHIP, seed=3, overrides=SHORT)
    assert r.returncode == 0, r.stderr
    assert without_wall_clock(result.to_json()) == without_wall_clock(out.read_text())


def test_results_name_the_commit_they_were_built_from():
    # The source tree's git commit, as the build recorded it: results can be traced
    # back to the code that produced them (a CI clone is a git checkout).
    result = wmnsim.run(FLAGSHIP, seed=3, overrides=SHORT)
    assert result.version["commit"] == wmnsim.commit
    assert re.fullmatch(r"[0-9a-f]{12}(\+dirty)?|unknown", wmnsim.commit)
    r = cli("--version")
    assert r.returncode == 0 and f"commit {wmnsim.commit}" in r.stdout


def test_invalid_input_to_run_raises_scenario_error_with_paths():
    with pytest.raises(wmnsim.ScenarioError) as info:
        wmnsim.run(FLAGSHIP, overrides={"/simulation/duration_s": -1, "/flows/0/dst": "Q"})
    assert [i.path for i in info.value.errors] == ["/simulation/duration_s", "/flows/0/dst"]
    assert str(info.value).startswith(f"{FLAGSHIP}: /simulation/duration_s: ")
    e = pytest.raises(wmnsim.ScenarioError, wmnsim.run, FLAGSHIP, seed=-1).value
    assert e.errors[0].path == "/simulation/seed"
    with pytest.raises(TypeError):
        wmnsim.run(FLAGSHIP, seed="7")
    with pytest.raises(wmnsim.ScenarioError):
        wmnsim.run({"simulation": {"duration_s": 1}})
    with pytest.raises(ValueError, match="log_level"):
        wmnsim.run(FLAGSHIP, log_level="loud")


def test_run_arguments_of_the_wrong_type_are_type_errors_naming_the_argument():
    # Refused before the run starts, not found out while it polls (an AttributeError).
    for kwargs, name in (({"cancel": 5}, "cancel"), ({"cancel": "stop"}, "cancel"), ({"log_level": 3}, "log_level"),
                         ({"progress": 1.5}, "progress"), ({"seed": 2.0}, "seed")):
        with pytest.raises(TypeError, match=f"^{name} must be"):
            wmnsim.run(FLAGSHIP, overrides=SHORT, **kwargs)


def test_same_scenario_and_seed_give_identical_flows_through_python_and_the_cli(tmp_path):
    out, csv = tmp_path / "cli.json", tmp_path / "cli.csv"
    r = cli("run", FLAGSHIP, "--seed", 7, "--set", "/simulation/duration_s=2", "-o", out, "--csv", csv)
    assert r.returncode == 0, r.stderr
    result = wmnsim.run(FLAGSHIP, seed=7, overrides=SHORT)
    assert result.flows_csv() == csv.read_text()
    assert result.flows.to_dict("records") == json.loads(out.read_text())["flows"]
    assert without_wall_clock(result.to_json()) == without_wall_clock(out.read_text())
    assert result.event_fingerprint is None and result.fingerprint_records is None  # not asked for
    assert result.seed == 7 and result.scenario.to_dict()["simulation"]["duration_s"] == 2


def test_the_fingerprint_through_python_is_the_clis(tmp_path):
    out = tmp_path / "cli.json"
    r = cli("run", FLAGSHIP, "--seed", 7, "--set", "/simulation/duration_s=2", "--fingerprint", "-o", out)
    assert r.returncode == 0, r.stderr
    result = wmnsim.run(FLAGSHIP, seed=7, overrides=SHORT, fingerprint=True)
    again = wmnsim.run(FLAGSHIP, seed=7, overrides=SHORT, fingerprint=True)
    other = wmnsim.run(FLAGSHIP, seed=8, overrides=SHORT, fingerprint=True)
    stored = json.loads(out.read_text())["run"]
    assert result.event_fingerprint == again.event_fingerprint == stored["event_fingerprint"]
    assert result.fingerprint_records == stored["fingerprint_records"]
    assert result.fingerprint_records["frames"] > 0 and result.fingerprint_records["deliveries"] > 0
    assert other.event_fingerprint != result.event_fingerprint
    assert f"event_fingerprint: {result.event_fingerprint} (" in r.stdout


def test_ctrl_c_stops_a_real_run():
    timer = threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    start = time.perf_counter()
    with pytest.raises(KeyboardInterrupt) as info:
        wmnsim.run(FLAGSHIP, overrides={"/simulation/duration_s": 1e5})
    timer.join()
    assert time.perf_counter() - start < 1.5
    assert info.value.result.interrupted


def test_two_real_runs_in_two_threads_proceed_in_parallel():
    seen = {0: [], 1: []}
    cancel = threading.Event()
    results = {}

    def work(k):
        results[k] = wmnsim.run(FLAGSHIP, overrides={"/simulation/duration_s": 1e5}, cancel=cancel,
                                progress=lambda p: seen[k].append(time.perf_counter()))

    threads = [threading.Thread(target=work, args=(k,)) for k in (0, 1)]
    for t in threads:
        t.start()
    time.sleep(1.5)
    cancel.set()
    for t in threads:
        t.join(timeout=10)
    assert all(results[k].interrupted for k in (0, 1))
    assert any(seen[0][0] < t < seen[0][-1] for t in seen[1])


def test_a_flow_that_delivers_nothing_shows_in_result_warnings():
    doc = json.loads(FLAGSHIP.read_text())
    doc["simulation"]["duration_s"] = 2
    # One datagram half a millisecond before the end: it cannot arrive.
    doc["flows"].append({"id": "late", "transport": "udp", "src": "A", "dst": "GW", "start_s": 1.9995,
                         "traffic": {"type": "cbr", "rate_bps": 100000}})
    result = wmnsim.run(doc, log_level="off")
    assert [w["path"] for w in result.warnings] == ["/flows/2"]
    assert result.warnings[0]["message"].startswith('flow "late" delivered nothing')
    assert wmnsim.run(FLAGSHIP, overrides=SHORT).warnings == []


def test_radios_are_a_dataframe_one_row_per_radio_with_the_txop_series():
    # 002's parking lot: relays R9, R6, R3 have one radio per side, on two channels.
    parking_lot = FLAGSHIP.parent / "badarla" / "parking_lot.json"
    result = wmnsim.run(parking_lot, overrides={"/simulation/duration_s": 2, "/simulation/warmup_s": 0,
                                                "/simulation/measurement_interval_s": 1})
    radios = result.radios.set_index("id")
    assert list(result.radios["id"][:7]) == ["S:0", "R9:0", "R9:1", "R6:0", "R6:1", "R3:0", "R3:1"]
    assert len(radios) == len(result.nodes) + 3
    assert radios.loc["R9:0", "channel"] == 44 and radios.loc["R9:1", "channel"] == 48
    assert radios.loc["R6:1", "txop_limit_frames"] == 6 and radios.loc["a0:0", "txop_limit_frames"] == 1
    assert radios.loc["R9:1", "mac_queueing_delay_mean_s"] >= 0
    # The node row pools its radios: the per-radio counters add up to it.
    nodes = result.nodes.set_index("id")
    assert radios.loc[["R9:0", "R9:1"], "tx_success"].sum() == nodes.loc["R9", "tx_success"]
    txop = result.timeseries("txop_limit")
    assert txop.attrs["unit"] == "frames"
    assert set(txop[txop["id"] == "R3/1:ac_be"]["value"]) == {3.0}
