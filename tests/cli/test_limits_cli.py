"""The command line's side of docs/scenario.md "Limits" and of the outputs keys:
signals, the scenario's output files, and `validate` answering what `run` would."""
import json
import os
import pathlib
import resource
import signal
import subprocess
import sys
import time

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
WMNSIM = os.environ.get("WMNSIM_BIN", str(ROOT / "build" / "ci" / "cli" / "wmnsim"))
FLAGSHIP = ROOT / "scenarios" / "two_hop_chain_tcp.json"
sys.path.insert(0, str(ROOT / "tests"))
from process_wait import wait_until_running  # noqa: E402


def wmnsim(*args, cwd=None):
    return subprocess.run([WMNSIM, *map(str, args)], capture_output=True, text=True, cwd=cwd, timeout=300)


def scenario(tmp_path, **changes):
    doc = json.loads(FLAGSHIP.read_text())
    doc["simulation"]["duration_s"] = 2
    for pointer, value in changes.items():
        section, key = pointer.split("__")
        doc.setdefault(section, {})[key] = value
    f = tmp_path / "s.json"
    f.write_text(json.dumps(doc))
    return f


@pytest.mark.parametrize("sig,code,words", [(signal.SIGINT, 130, "interrupted at"),
                                            (signal.SIGTERM, 143, "interrupted by SIGTERM at"),
                                            (signal.SIGHUP, 129, "interrupted by SIGHUP at")])
def test_stop_signals_end_the_run_and_write_partial_results(tmp_path, sig, code, words):
    out, csv = tmp_path / "out.json", tmp_path / "out.csv"
    p = subprocess.Popen([WMNSIM, "run", str(FLAGSHIP), "--set", "/simulation/duration_s=100000", "-o", str(out),
                          "--csv", str(csv)], stderr=subprocess.PIPE, text=True)
    wait_until_running(p)
    p.send_signal(sig)
    _, err = p.communicate(timeout=60)
    assert p.returncode == code, err
    assert words in err and "partial results written" in err
    assert sorted(f.name for f in tmp_path.iterdir()) == ["out.csv", "out.json"]
    doc = json.loads(out.read_text())
    assert doc["run"]["partial"] is True and doc["run"]["interrupted"] is True
    stop = doc["run"]["simulated_time_s"]
    assert 0 < stop < 100000
    # The tables hold what was measured up to the stop, over the clipped window.
    assert [f["id"] for f in doc["flows"]] == [f["id"] for f in doc["scenario"]["flows"]]
    assert len(doc["nodes"]) == len(doc["scenario"]["nodes"])
    assert sum(f["rx_packets"] for f in doc["flows"]) > 0
    assert any(f["goodput_bps"] > 0 for f in doc["flows"])
    for f in doc["flows"]:
        assert f["tx_packets"] == f["rx_packets"] + f["lost_packets"] + f["in_network_packets"]
    balance = doc["summary"]["packets"]
    assert balance["originated"] == balance["delivered"] + balance["dropped"] + balance["in_network"]
    assert csv.read_text().splitlines()[0].startswith("id,")


def test_an_interrupted_run_without_output_files_says_so(tmp_path):
    p = subprocess.Popen([WMNSIM, "run", str(FLAGSHIP), "--set", "/simulation/duration_s=100000"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    wait_until_running(p)
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=60)
    assert p.returncode == 130, err
    assert "no output file asked for" in err
    assert list(tmp_path.iterdir()) == []


def test_results_file_is_written_when_no_o_is_given(tmp_path):
    f = scenario(tmp_path, outputs__results_file="from_scenario.json")
    r = wmnsim("run", f, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    doc = json.loads((tmp_path / "from_scenario.json").read_text())
    assert doc["format"] == "wmnsim-results" and doc["timeseries"]["flow_goodput"]["rows"]
    # -o wins.
    (tmp_path / "from_scenario.json").unlink()
    r = wmnsim("run", f, "-o", tmp_path / "cli.json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "cli.json").exists() and not (tmp_path / "from_scenario.json").exists()


def test_timeseries_file_takes_the_series_out_of_the_results(tmp_path):
    f = scenario(tmp_path, outputs__timeseries_file="series.csv", outputs__timeseries=["flow_goodput", "drops"])
    r = wmnsim("run", f, "-o", tmp_path / "r.json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    lines = (tmp_path / "series.csv").read_text().splitlines()
    assert lines[0] == "kind,unit,time_s,id,value"
    kinds = {line.split(",")[0] for line in lines[1:]}
    assert kinds == {"flow_goodput", "drops"}
    assert len([x for x in lines if x.startswith("flow_goodput,bit/s,")]) == 2 * 2  # 2 intervals x 2 flows
    assert json.loads((tmp_path / "r.json").read_text())["timeseries"] == {}


def test_validate_answers_what_run_would(tmp_path):
    doc = json.loads(FLAGSHIP.read_text())
    doc["propagation"] = {"model": "log_distance", "shadowing": {"sigma_db": 3, "mode": "per_frame"}}
    bad = tmp_path / "per_frame.json"
    bad.write_text(json.dumps(doc))
    v, r = wmnsim("validate", bad), wmnsim("run", bad)
    assert v.returncode == r.returncode == 2
    assert "/propagation/shadowing/mode: per-frame shadowing is not modelled yet" in v.stderr
    assert v.stderr == r.stderr
    doc = json.loads(FLAGSHIP.read_text())
    doc["nodes"][0]["position_m"] = [-2000, 0]
    far = tmp_path / "far.json"
    far.write_text(json.dumps(doc))
    v, r = wmnsim("validate", far), wmnsim("run", far)
    assert v.returncode == r.returncode == 2
    assert "/flows/0" in v.stderr and v.stderr == r.stderr


def test_validate_takes_set_and_seed_like_run(tmp_path):
    r = wmnsim("validate", FLAGSHIP, "--set", "/simulation/duration_s=-1", "--seed", "3")
    assert r.returncode == 2 and "/simulation/duration_s" in r.stderr
    r = wmnsim("validate", FLAGSHIP, "--set", "/controllers=[{\"type\": \"counter_starvation\"}]", "--seed", "7")
    assert r.returncode == 0 and r.stdout == f"{FLAGSHIP}: valid\n"
    r = wmnsim("validate", FLAGSHIP, "--seed=-1")
    assert r.returncode == 2 and "/simulation/seed: expected an integer 0..18446744073709551615, got -1" in r.stderr


def test_validate_checks_the_output_files_the_scenario_names(tmp_path):
    f = scenario(tmp_path, outputs__results_file="no/such/r.json")
    r = wmnsim("validate", f, cwd=tmp_path)
    assert r.returncode == 2 and "the folder no/such does not exist" in r.stderr


def test_outputs_must_differ_from_each_other_and_from_the_input(tmp_path):
    f = scenario(tmp_path)
    r = wmnsim("run", f, "-o", tmp_path / "x", "--csv", tmp_path / "x")
    assert r.returncode == 2 and "-o writes the same file" in r.stderr
    r = wmnsim("run", f, "-o", f)
    assert r.returncode == 2 and "it is the scenario file" in r.stderr
    assert json.loads(f.read_text())["simulation"]["duration_s"] == 2  # untouched


def _file_size_limit(limit):
    """A file write past `limit` bytes fails (EFBIG), as on a full disk (ENOSPC):
    the same failing write(2). SIGXFSZ ignored, so the write fails instead of the
    signal ending the process."""
    def apply():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return apply


def test_a_trace_that_cannot_be_written_is_refused_as_the_results_file_is(tmp_path):
    f = scenario(tmp_path, outputs__pcap={"path": "trace"})
    r = wmnsim("run", f, "-o", "r.json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    traces = [n for n in before if n.startswith("trace")]
    # More than the trace's 256 KiB buffer: the write that fails is one during the run.
    assert traces and max(len(before[n]) for n in traces) > 300_000
    limited = _file_size_limit(100_000)
    trace = subprocess.run([WMNSIM, "run", f, "-o", "r.json"], capture_output=True, text=True, cwd=tmp_path,
                           timeout=300, preexec_fn=limited)
    assert trace.returncode == 2, trace.stderr
    assert "/outputs/pcap/path: cannot write the trace " in trace.stderr and "File too large" in trace.stderr
    assert "internal error" not in trace.stderr
    # The results file under the same condition: the same exit code, the same kind of message.
    f = scenario(tmp_path)
    results = subprocess.run([WMNSIM, "run", f, "-o", "r.json"], capture_output=True, text=True, cwd=tmp_path,
                             timeout=300, preexec_fn=_file_size_limit(1_000))
    assert results.returncode == trace.returncode == 2, results.stderr
    assert "cannot write r.json: File too large" in results.stderr
    # Both keep the earlier files and leave no temporary file.
    after = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.name != "s.json"}
    assert after == {n: b for n, b in before.items() if n != "s.json"}


def test_an_output_that_is_a_symbolic_link_is_written_through(tmp_path):
    f = scenario(tmp_path)
    (tmp_path / "store").mkdir()
    target = tmp_path / "store" / "results.json"
    target.write_text("old")
    (tmp_path / "link.json").symlink_to("store/results.json")
    (tmp_path / "dangling.csv").symlink_to("store/flows.csv")  # its target is made
    r = wmnsim("run", f, "-o", "link.json", "--csv", "dangling.csv", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "link.json").is_symlink() and (tmp_path / "dangling.csv").is_symlink()
    assert json.loads(target.read_text())["format"] == "wmnsim-results"
    assert (tmp_path / "store" / "flows.csv").read_text().startswith("id,")
    assert sorted(p.name for p in (tmp_path / "store").iterdir()) == ["flows.csv", "results.json"]
    # The target's folder is checked before the run, as any output's.
    (tmp_path / "broken.json").symlink_to("no/such/folder/r.json")
    r = wmnsim("run", f, "-o", "broken.json", cwd=tmp_path)
    assert r.returncode == 2 and "the folder no/such/folder does not exist" in r.stderr, r.stderr


def test_a_killed_run_leaves_no_trace_file_behind(tmp_path):
    f = scenario(tmp_path, outputs__pcap={"path": "trace"})
    f.write_text(f.read_text().replace('"duration_s": 2', '"duration_s": 100000'))
    p = subprocess.Popen([WMNSIM, "run", f], cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    # Until the trace has written past its first buffer (the unnamed file holds data).
    while time.monotonic() < deadline and p.poll() is None:
        written = sum(int(l.split()[1]) for l in open(f"/proc/{p.pid}/io") if l.startswith("wchar:"))
        if written > 1_000_000:
            break
        time.sleep(0.1)
    assert p.poll() is None
    p.kill()
    p.wait(timeout=60)
    assert sorted(x.name for x in tmp_path.iterdir()) == ["s.json"]


def test_a_trace_stops_at_its_max_bytes_and_the_run_warns(tmp_path):
    f = scenario(tmp_path, outputs__pcap={"path": "trace", "max_bytes": 1 << 20}, simulation__duration_s=10)
    r = wmnsim("run", f, "-o", "r.json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    traces = [p for p in tmp_path.iterdir() if p.name.startswith("trace")]
    assert traces and 1 << 20 <= sum(p.stat().st_size for p in traces) < (1 << 20) + 70_000
    warnings = json.loads((tmp_path / "r.json").read_text())["warnings"]
    assert [w["path"] for w in warnings] == ["/outputs/pcap/max_bytes"]
    assert "the trace stops at" in warnings[0]["message"] and "/outputs/pcap/max_bytes" in r.stderr
    # The frames before the cut are those of a trace without one: the same bytes.
    g = scenario(tmp_path, outputs__pcap={"path": "full"}, simulation__duration_s=10)
    assert wmnsim("run", g, cwd=tmp_path).returncode == 0
    cut, full = traces[0].read_bytes(), (tmp_path / traces[0].name.replace("trace", "full")).read_bytes()
    assert len(full) > len(cut) and full.startswith(cut)
