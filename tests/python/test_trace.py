"""The event trace read into pandas (wmnsim.trace.load, Result.event_trace);
docs/traces.md "Event trace"."""
import subprocess

import numpy as np
import pandas as pd
import pytest

import wmnsim
import wmnsim.trace as wtrace
from conftest import FLAGSHIP, WMNSIM_BIN


@pytest.fixture(scope="module")
def traced(tmp_path_factory):
    """The flagship for 2 s with its event trace, run from Python."""
    path = tmp_path_factory.mktemp("trace") / "events.bin"
    result = wmnsim.run(FLAGSHIP, overrides={"/simulation/duration_s": 2,
                                             "/outputs/event_trace": {"path": str(path)}})
    return result, path


def test_load_gives_typed_columns(traced):
    result, path = traced
    df = wtrace.load(path)
    assert len(df) > 1000
    assert df["time_ps"].dtype == np.int64
    assert df["time_s"].dtype == np.float64
    for column in ("node", "peer", "interferer", "kind", "cause", "frame", "access_category"):
        assert isinstance(df[column].dtype, pd.CategoricalDtype), column
    assert list(df["node"].cat.categories) == ["A", "B", "GW"]
    assert {"tx_start", "tx_end", "rx_lock", "rx_ok", "rx_fail", "backoff", "nav", "retry", "enqueue",
            "dequeue", "deliver"} <= set(df["kind"].unique())
    assert "collision" in list(df["cause"].cat.categories)
    assert str(df["packet"].dtype) == "UInt64"
    for column in ("radio", "flow", "sequence", "start_ps", "end_ps", "slots", "cw", "retries", "queue_length"):
        assert str(df[column].dtype) == "Int64", column
    assert df["retry"].dtype == bool
    assert df["time_ps"].is_monotonic_increasing
    # Fields a kind does not have are NA: a backoff has slots, no packet.
    backoff = df[df["kind"] == "backoff"]
    assert backoff["slots"].notna().all() and backoff["packet"].isna().all()
    assert ((backoff["slots"] >= 0) & (backoff["slots"] < backoff["cw"])).all()
    assert df[df["kind"] == "tx_start"]["slots"].isna().all()
    # Deliveries carry the packet and its flow: data at GW, the TCP ACKs at A and B.
    deliver = df[df["kind"] == "deliver"]
    assert deliver["packet"].notna().all() and set(deliver["node"]) == {"A", "B", "GW"}
    assert set(deliver[deliver["node"] == "GW"]["flow"]) == {0, 1}
    assert set(deliver[deliver["node"] == "A"]["flow"]) == {0}
    # The drops their cause.
    assert df[df["kind"] == "drop"]["cause"].notna().all()
    assert df.attrs["cut_at_s"] is None
    # From the Result too, the same frame.
    pd.testing.assert_frame_equal(result.event_trace(), df)


def test_the_collision_at_b_and_the_retry_of_its_packet(traced):
    _, path = traced
    df = wtrace.load(path)
    lost = df[(df["kind"] == "rx_fail") & (df["node"] == "B") & (df["peer"] == "A") & df["packet"].notna()]
    assert len(lost) > 0
    first = lost.iloc[0]
    assert first["cause"] == "collision" and first["interferer"] == "GW"
    assert first["frame"] == "data" and first["flow"] == 0
    # The frame's interval: its first bit at B to its end, as long as A's transmission.
    sent = df[(df["kind"] == "tx_start") & (df["node"] == "A") & (df["packet"] == first["packet"])
              & (df["sequence"] == first["sequence"])].iloc[0]
    assert first["end_ps"] - first["start_ps"] == sent["end_ps"] - sent["start_ps"]
    later = df[(df["kind"] == "retry") & (df["node"] == "A") & (df["packet"] == first["packet"])
               & (df["time_ps"] > first["time_ps"])]
    assert len(later) > 0 and later.iloc[0]["sequence"] == first["sequence"]


def test_the_command_line_writes_it(tmp_path):
    out = tmp_path / "ev.bin"
    subprocess.run([WMNSIM_BIN, "run", str(FLAGSHIP), "--set", "/simulation/duration_s=0.5", "--event-trace",
                    str(out), "--set", '/outputs/event_trace={"path": "x", "kinds": ["rx_fail"]}'],
                   check=True, capture_output=True)
    df = wtrace.load(out)
    assert len(df) > 0 and set(df["kind"].unique()) == {"rx_fail"}
    bad = subprocess.run([WMNSIM_BIN, "run", str(FLAGSHIP), "--event-trace", str(tmp_path / "no" / "ev.bin")],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "/outputs/event_trace/path" in bad.stderr


def test_load_refuses_other_files(tmp_path):
    other = tmp_path / "x.bin"
    other.write_bytes(b"not a trace at all, not at all, not at all")
    with pytest.raises(ValueError, match="not a wmnsim event trace"):
        wtrace.load(other)


def test_result_without_a_trace_says_so(traced):
    result = wmnsim.run(FLAGSHIP, overrides={"/simulation/duration_s": 0.1})
    with pytest.raises(KeyError, match="outputs.event_trace"):
        result.event_trace()
