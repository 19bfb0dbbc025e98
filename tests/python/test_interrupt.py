"""The run plumbing without a radio stack: the event engine alone runs through the
same GIL release, Ctrl-C polling and cancel flag as wmnsim.run (bindings/src/
python_watch.hpp); then real runs, stopped, carry their partial results."""
import os
import signal
import threading
import time

import pytest

import wmnsim
from wmnsim._run import _engine_workload

# A self-rescheduling timer every simulated microsecond: about 10^7 events per
# wall second, so 10^4 simulated seconds would take many minutes uninterrupted.
LONG_S = 1e4


def test_the_workload_finishes_and_counts_its_events():
    out = _engine_workload(0.5, 1e-6)
    assert out["finished"] and out["simulated_time_s"] == pytest.approx(0.5)
    assert out["events_executed"] == 500_001  # t = 0, 1 us, ..., 0.5 s


@pytest.mark.skipif(threading.current_thread() is not threading.main_thread(), reason="signals need the main thread")
def test_ctrl_c_stops_a_run_within_a_fraction_of_a_second_and_raises():
    sent = []

    def interrupt():
        sent.append(time.perf_counter())
        os.kill(os.getpid(), signal.SIGINT)  # a real SIGINT, as Ctrl-C sends

    timer = threading.Timer(0.3, interrupt)
    start = time.perf_counter()
    timer.start()
    with pytest.raises(KeyboardInterrupt) as info:
        _engine_workload(LONG_S, 1e-6)
    stopped = time.perf_counter()
    timer.join()
    assert sent, "the run ended before the interrupt was sent"
    assert stopped - sent[0] < 0.5, f"took {stopped - sent[0]:.3f} s to stop"
    assert stopped - start < 5
    partial = info.value.result  # the partial state rides along
    assert not partial["finished"] and 0 < partial["simulated_time_s"] < LONG_S


def test_a_cancel_event_stops_a_run_in_another_thread():
    cancel = threading.Event()
    out = {}
    worker = threading.Thread(target=lambda: out.update(_engine_workload(LONG_S, 1e-6, cancel=cancel)))
    worker.start()
    time.sleep(0.2)
    cancel.set()
    worker.join(timeout=5)
    assert not worker.is_alive()
    assert out["finished"] is False and out["simulated_time_s"] < LONG_S


def test_the_gil_is_released_while_a_run_proceeds():
    # While a worker simulates, the main thread keeps running Python code.
    cancel = threading.Event()
    worker = threading.Thread(target=_engine_workload, args=(LONG_S, 1e-6), kwargs={"cancel": cancel})
    worker.start()
    try:
        counted, deadline = 0, time.perf_counter() + 0.3
        while time.perf_counter() < deadline:
            counted += 1
        assert worker.is_alive()
        assert counted > 10_000  # a held GIL would allow a few switch intervals at most
    finally:
        cancel.set()
        worker.join(timeout=5)


def test_two_runs_in_two_threads_proceed_in_parallel():
    # Each run reports progress; with the GIL released both are in flight at once:
    # each one reports progress while the other is between its first and last report.
    cancel = threading.Event()
    seen = {0: [], 1: []}

    def work(k):
        _engine_workload(LONG_S, 1e-6, progress=lambda p: seen[k].append((time.perf_counter(), p)), cancel=cancel)

    threads = [threading.Thread(target=work, args=(k,)) for k in (0, 1)]
    for t in threads:
        t.start()
    time.sleep(1.2)
    cancel.set()
    for t in threads:
        t.join(timeout=5)
    assert all(len(seen[k]) >= 2 for k in (0, 1)), {k: len(v) for k, v in seen.items()}
    first0, last0 = seen[0][0][0], seen[0][-1][0]
    assert any(first0 < t < last0 for t, _ in seen[1])
    # Both simulated a good share of what one alone does in the same wall time.
    assert all(seen[k][-1][1].events_executed > 1_000_000 for k in (0, 1))
    assert all(isinstance(p, wmnsim.Progress) and 0 < p.fraction < 1 for k in (0, 1) for _, p in seen[k])


def test_an_exception_in_the_progress_callable_stops_the_run_and_propagates():
    def boom(p):
        raise RuntimeError("stop here")

    start = time.perf_counter()
    with pytest.raises(RuntimeError, match="stop here"):
        _engine_workload(LONG_S, 1e-6, progress=boom)
    assert time.perf_counter() - start < 5


def test_progress_is_reported_to_the_end():
    seen = []
    _engine_workload(0.2, 1e-6, progress=seen.append)
    assert seen and seen[-1].simulated_s == pytest.approx(0.2) and seen[-1].fraction == pytest.approx(1.0)


def test_bad_workload_arguments_raise():
    with pytest.raises(ValueError):
        _engine_workload(-1.0, 1e-6)
    with pytest.raises(TypeError):
        _engine_workload(1.0, 1e-6, progress=42)


# ---- real runs: partial results (docs/results.md, "Partial results") -------------

def _check_partial_tables(result):
    assert result.interrupted and result.partial
    assert 0 < result.simulated_time_s < 1e5
    flows, nodes = result.flows, result.nodes
    assert len(flows) == len(result.scenario.to_dict()["flows"]) and len(nodes) > 0
    assert (flows["tx_packets"] == flows["rx_packets"] + flows["lost_packets"] + flows["in_network_packets"]).all()
    assert flows["rx_packets"].sum() > 0 and (flows["goodput_bps"] > 0).any()
    packets = result.summary["packets"]
    assert packets["originated"] == packets["delivered"] + packets["dropped"] + packets["in_network"]
    assert result.to_dict()["run"]["partial"] is True


def test_a_cancelled_real_run_returns_partial_tables():
    from conftest import FLAGSHIP

    cancel = threading.Event()
    threading.Timer(0.7, cancel.set).start()
    result = wmnsim.run(FLAGSHIP, overrides={"/simulation/duration_s": 1e5}, cancel=cancel)
    _check_partial_tables(result)
    hist = result.delay_histogram(result.flows["id"][0])
    assert hist.attrs["bin_width_s"] == 0.001 and hist["count"].sum() > 0
    assert (hist["count"] > 0).all() and hist["bin"].is_monotonic_increasing
    assert hist["delay_s"].tolist() == pytest.approx((hist["bin"] * 0.001).tolist())


@pytest.mark.skipif(threading.current_thread() is not threading.main_thread(), reason="signals need the main thread")
def test_ctrl_c_on_a_real_run_carries_partial_tables():
    from conftest import FLAGSHIP

    timer = threading.Timer(0.7, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    with pytest.raises(KeyboardInterrupt) as info:
        wmnsim.run(FLAGSHIP, overrides={"/simulation/duration_s": 1e5})
    timer.join()
    _check_partial_tables(info.value.result)


def test_a_finished_run_is_not_partial_and_log_nodes_are_checked():
    from conftest import FLAGSHIP

    result = wmnsim.run(FLAGSHIP, overrides={"/simulation/duration_s": 1})
    assert not result.partial and not result.interrupted
    node = result.nodes["id"][0]
    quiet = wmnsim.run(FLAGSHIP, overrides={"/simulation/duration_s": 1}, fingerprint=True)
    traced = wmnsim.run(FLAGSHIP, overrides={"/simulation/duration_s": 1}, fingerprint=True, log_level="trace",
                        log_nodes=[node])
    assert traced.event_fingerprint == quiet.event_fingerprint  # logging changes nothing
    with pytest.raises(wmnsim.ScenarioError, match="no node has this id"):
        wmnsim.run(FLAGSHIP, overrides={"/simulation/duration_s": 1}, log_level="debug", log_nodes=["nowhere"])
    with pytest.raises(TypeError):
        wmnsim.run(FLAGSHIP, overrides={"/simulation/duration_s": 1}, log_nodes=node)
