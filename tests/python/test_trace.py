"""The event trace read into pandas (wmnsim.trace.load, Result.event_trace) and the
timeline drawn from it (wmnsim.plot.timeline); docs/traces.md "Event trace"."""
import subprocess

import numpy as np
import pandas as pd
import pytest

import wmnsim
import wmnsim.plot as wplot
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


def _drawn(fig, gid):
    """The (start, end) in ms of each bar of the collections with `gid`."""
    out = []
    for ax in fig.axes:
        for c in ax.collections:
            if c.get_gid() == gid:
                for p in c.get_paths():
                    xs = p.vertices[:, 0]
                    out.append((float(xs.min()), float(xs.max())))
    return sorted(out)


def test_timeline_draws_the_traces_intervals(traced, tmp_path):
    result, path = traced
    df = wtrace.load(path)
    window = (0.5, 0.8)
    png = tmp_path / "timeline.png"
    fig = wplot.timeline(result, nodes=["A", "B", "GW"], window=window, path=png)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(fig.axes) == 3
    for node in ("A", "B", "GW"):
        for row in ("tx", "rx ok", "NAV"):
            want = sorted((s * 1e3, e * 1e3) for s, e in wplot.timeline_intervals(df, node, row, window))
            got = _drawn(fig, f"{node}:{row}")
            assert len(got) == len(want), (node, row)
            assert np.allclose(got, want, rtol=0, atol=1e-9), (node, row)
        fails = df[(df["node"] == node) & (df["kind"] == "rx_fail")]
        want = sorted((s * 1e3, e * 1e3) for s, e in wplot.timeline_intervals(df, node, "rx failed", window))
        got = sorted(_drawn(fig, f"{node}:rx failed") + _drawn(fig, f"{node}:rx failed:collision"))
        assert np.allclose(got, want, rtol=0, atol=1e-9) and len(got) == len(want)
    # B's collisions are hatched and labelled with their interferer: GW for A's frames.
    collisions = _drawn(fig, "B:rx failed:collision")
    fails = df[(df["node"] == "B") & (df["kind"] == "rx_fail") & (df["cause"] == "collision")
               & (df["end_ps"] / 1e12 >= window[0]) & (df["start_ps"] / 1e12 <= window[1])]
    assert len(collisions) == len(fails) > 0
    labels = sorted(t.get_text() for t in fig.axes[1].texts if t.get_text().startswith("\u00d7"))
    assert labels == sorted("\u00d7" + str(i) for i in fails["interferer"])
    assert "\u00d7GW" in labels
    assert set(fails[fails["interferer"] == "GW"]["peer"]) == {"A"}
    # The tx intervals are the trace's own: tx_start to its end.
    a_tx = df[(df["node"] == "A") & (df["kind"] == "tx_start")]
    inside = a_tx[(a_tx["end_ps"] / 1e12 >= window[0]) & (a_tx["start_ps"] / 1e12 <= window[1])]
    assert len(_drawn(fig, "A:tx")) == len(inside) > 0
    # The backoff marks: one per draw in the window.
    draws = df[(df["node"] == "A") & (df["kind"] == "backoff") & (df["time_s"] >= window[0])
               & (df["time_s"] <= window[1])]
    marks = [c for c in fig.axes[0].collections if c.get_gid() == "A:backoff"]
    assert len(marks) == 1 and len(marks[0].get_offsets()) == len(draws)


def test_timeline_refuses_what_it_cannot_draw(traced):
    _, path = traced
    with pytest.raises(KeyError, match="no radio records for node"):
        wplot.timeline(path, nodes=["Z"])
    with pytest.raises(ValueError, match="end > start"):
        wplot.timeline(path, window=(1.0, 1.0))
    with pytest.raises(TypeError):
        wplot.timeline(42)

