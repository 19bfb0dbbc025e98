"""The event trace read into pandas (wmnsim.trace.load, Result.event_trace) and the
timeline drawn from it (wmnsim.plot.timeline); docs/traces.md "Event trace"."""
import html.parser
import json
import pathlib
import shutil
import subprocess

import numpy as np
import pandas as pd
import pytest

import wmnsim
import wmnsim.plot as wplot
import wmnsim.trace as wtrace
from conftest import FLAGSHIP, ROOT, WMNSIM_BIN


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
    assert wtrace.read_header(path).records == wtrace.read_header(path.read_bytes()).records == len(df)
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
    texts = [t for t in fig.axes[1].texts if t.get_text().startswith("\u00d7")]
    labels = sorted(t.get_text() for t in texts)
    assert set(labels) == {"\u00d7" + str(i) for i in fails["interferer"]}
    assert "\u00d7GW" in labels
    # Each collision has its interferer's label within 2.5 % of the window (closer
    # copies of a label are left out, so that none is drawn over another).
    gap = 0.025 * (window[1] - window[0]) * 1e3
    mids = ((fails["start_ps"] + fails["end_ps"]) / 2e9).to_numpy()  # ms
    for mid, who in zip(mids, fails["interferer"]):
        assert any(t.get_text() == "\u00d7" + str(who) and abs(t.get_position()[0] - mid) <= gap for t in texts)
    for a in texts:
        for b in texts:
            if a is not b and a.get_text() == b.get_text():
                assert abs(a.get_position()[0] - b.get_position()[0]) >= gap
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


def test_timeline_marks_routes_when_the_trace_has_them(traced, tmp_path):
    # Static routing records no routes: the lanes keep their five rows.
    result, _ = traced
    fig = wplot.timeline(result, nodes=["A", "B"], window=(0.5, 0.8))
    assert [t.get_text() for t in fig.axes[0].get_yticklabels()] == list(reversed(wplot.TIMELINE_ROWS))
    # AODV (003's random topologies): each route found is a mark in its node's "route" row.
    scenario = ROOT / "scenarios" / "zhai_wccp" / "random50_aodv" / "snapshot_11_tcp.json"
    path = tmp_path / "aodv.bin"
    wmnsim.run(scenario, seed=1, overrides={"/simulation/duration_s": 0.05,
                                            "/outputs/event_trace": {"path": str(path),
                                                                     "kinds": ["route", "tx_start"]}})
    df = wtrace.load(path)
    window = (0.0, 0.05)
    nodes = [str(n) for n in df[df["kind"] == "route"]["node"].unique()[:3]]
    fig = wplot.timeline(df, nodes=nodes, window=window)
    for ax, node in zip(fig.axes, nodes):
        assert [t.get_text() for t in ax.get_yticklabels()][0] == "route"
        want = wplot.timeline_routes(df, node, window)
        assert want and all(text.startswith("\u2192") and (" via " in text or text.endswith(" lost"))
                            for _, text in want)
        marks = [c for c in ax.collections if c.get_gid() == f"{node}:route"]
        assert len(marks) == 1
        assert np.allclose(sorted(marks[0].get_offsets()[:, 0]), sorted(t * 1e3 for t, _ in want), rtol=0, atol=1e-9)
        rec = df[(df["node"] == node) & (df["kind"] == "route")].iloc[0]
        assert want[0][1] == f"\u2192{rec['destination']} via {rec['peer']}"


def test_timeline_refuses_what_it_cannot_draw(traced):
    _, path = traced
    with pytest.raises(KeyError, match="no radio records for node"):
        wplot.timeline(path, nodes=["Z"])
    with pytest.raises(ValueError, match="end > start"):
        wplot.timeline(path, window=(1.0, 1.0))
    with pytest.raises(TypeError):
        wplot.timeline(42)


class _Page(html.parser.HTMLParser):
    """The scripts of a page and every attribute that could load something."""

    def __init__(self):
        super().__init__()
        self.scripts, self.external, self.tags, self._in = [], [], set(), None

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        for k, v in attrs:
            if k in ("src", "href") or (isinstance(v, str) and ("http://" in v or "https://" in v)
                                         and v != "http://www.w3.org/2000/svg"):
                self.external.append((tag, k, v))
        if tag == "script":
            self._in = dict(attrs)
            self.scripts.append([self._in, ""])

    def handle_endtag(self, tag):
        if tag == "script":
            self._in = None

    def handle_data(self, data):
        if self._in is not None:
            self.scripts[-1][1] += data


def _state(data, t):
    """What the page's stateAt() must give, computed here."""
    queues = [0] * len(data["nodes"])
    for node, at, length in data["queues"]:
        if at > t:
            break
        queues[node] = length
    return {"tx": [{"node": r[0], "peer": r[3]} for r in data["tx"] if r[1] <= t < r[2]],
            "collisions": [{"node": r[0], "from": r[3], "interferer": r[4]} for r in data["collisions"]
                           if r[1] <= t < r[2]],
            "queues": queues}


def test_animate_writes_a_self_contained_page_whose_script_plays_the_trace(traced, tmp_path):
    result, _ = traced
    window = (0.5, 0.8)
    page = tmp_path / "air.html"
    assert wplot.animate(result, page, window=window) == str(page)
    parsed = _Page()
    parsed.feed(page.read_text(encoding="utf-8"))
    assert parsed.external == []  # nothing loaded from elsewhere: opens without a server or network
    assert {"svg", "input", "button", "script"} <= parsed.tags
    (data_attrs, data_text), (_, script) = parsed.scripts
    assert data_attrs["type"] == "application/json"
    data = json.loads(data_text)
    assert data == json.loads(json.dumps(wplot.animation_data(result, window=window)))
    assert [n["id"] for n in data["nodes"]] == ["A", "B", "GW"]
    assert len(data["tx"]) > 0 and len(data["collisions"]) > 0 and len(data["queues"]) > 0
    # B's collisions: A's frames, GW the interferer.
    assert {(c[0], c[3], c[4]) for c in data["collisions"]} >= {(1, 0, 2)}
    # The page's own script, run by node.js, gives the state the trace says.
    node = shutil.which("node")
    if node is None:
        pytest.skip("node.js is not installed: the page's script was not run")
    (tmp_path / "page.js").write_text(script)
    (tmp_path / "data.json").write_text(data_text)
    times = [data["collisions"][0][1] + 1e-6, data["tx"][0][1] + 1e-6, 0.5, 0.65, 0.8]
    (tmp_path / "run.js").write_text(
        "const m = require('./page.js'); const fs = require('fs');"
        "const d = JSON.parse(fs.readFileSync(__dirname + '/data.json'));"
        f"console.log(JSON.stringify({json.dumps(times)}.map(t => m.stateAt(d, t))));")
    out = subprocess.run([node, str(tmp_path / "run.js")], check=True, capture_output=True, text=True).stdout
    states = json.loads(out)
    assert states == [_state(data, t) for t in times]
    assert any(s["collisions"] for s in states) and any(s["tx"] for s in states)


class _Dom(html.parser.HTMLParser):
    """The SVG circles (their attributes) and texts of a page as a browser left it."""

    def __init__(self):
        super().__init__()
        self.circles, self.texts, self.now, self._text = [], [], None, None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "circle":
            self.circles.append(attrs)
        elif tag == "text" or (tag == "span" and attrs.get("id") == "now"):
            self._text = tag
            self.texts.append("")

    def handle_endtag(self, tag):
        if tag == self._text:
            self._text = None

    def handle_data(self, data):
        if self._text is not None:
            self.texts[-1] += data


def _browser():
    for name in ("chromium-headless-shell", "chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    for path in ("/usr/lib/chromium/chromium-headless-shell", "/usr/lib/chromium/headless_shell"):
        if pathlib.Path(path).exists():
            return path
    return None


def test_animation_page_draws_in_a_headless_browser(traced, tmp_path):
    browser = _browser()
    if browser is None:
        pytest.skip("no headless Chromium (scripts/setup.sh installs chromium-headless-shell)")
    result, _ = traced
    window = (0.5, 0.8)
    page = tmp_path / "air.html"
    wplot.animate(result, page, window=window)
    data = wplot.animation_data(result, window=window)
    # A moment inside a collision of A's frame at B, and one before anything.
    hit = next(c for c in data["collisions"] if c[:1] + c[3:] == [1, 0, 2])
    for t in ((hit[1] + hit[2]) / 2, window[0]):
        want = _state(json.loads(json.dumps(data)), t)
        out = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom",
                              page.as_uri() + f"#t={t!r}"], capture_output=True, text=True, timeout=120)
        assert out.returncode == 0, out.stderr[-2000:]
        dom = _Dom()
        dom.feed(out.stdout)
        assert dom.texts[0] == f"{t * 1e3:.3f} ms"  # the page opened at t
        nodes = [c for c in dom.circles if c.get("fill") == "#ddd"]
        rings = [c for c in dom.circles if c.get("stroke") == "#1f77b4"]
        discs = [c for c in dom.circles if c.get("fill") == "#d62728"]
        assert len(nodes) == 3
        assert len(rings) == len(want["tx"]) and len(discs) == len(want["collisions"])
        xs = {i: float(n["x"]) for i, n in enumerate(data["nodes"])}
        assert sorted(float(c["cx"]) for c in discs) == sorted(xs[c["node"]] for c in want["collisions"])
        assert [s for s in dom.texts if s.startswith("queue ")] == [f"queue {q}" for q in want["queues"]]
        assert {"A", "B", "GW"} <= set(dom.texts)


def test_decision_records_carry_their_columns(tmp_path):
    """The params, controller and route records (docs/traces.md): 004's LSCC on the
    buffer-blocking chain writes its notifications, blocks and D; counter_starvation on the
    flagship B's new CWmin; AODV on the flagship its routes with their destinations."""
    kinds = ["params", "controller", "route"]
    lscc = wmnsim.run(ROOT / "scenarios" / "fu2009" / "buffer_blocking.json", seed=1, overrides={
        "/simulation/duration_s": 5, "/controllers": [{"type": "lscc"}],
        "/outputs/event_trace": {"path": str(tmp_path / "lscc.bin"), "kinds": kinds}}).event_trace()
    assert str(lscc["action_value"].dtype) == "Int64"
    controller = lscc[lscc["kind"] == "controller"]
    assert {"notify", "blocked", "duration"} <= set(controller["cause"])
    notify = controller[controller["cause"] == "notify"]
    assert notify["peer"].notna().all() and (notify["action_value"] >= 0).all()
    duration = controller[controller["cause"] == "duration"]
    assert (duration["action_value"] > 0).all()  # D in ps
    assert controller[controller["cause"] != "duration"]["node"].notna().all()
    assert lscc[lscc["kind"] != "controller"]["action_value"].isna().all()

    cs = wmnsim.run(FLAGSHIP, seed=1, overrides={
        "/simulation/duration_s": 2, "/controllers": [{"type": "counter_starvation"}],
        "/outputs/event_trace": {"path": str(tmp_path / "cs.bin"), "kinds": kinds}}).event_trace()
    params = cs[cs["kind"] == "params"]
    for column in ("cw_min", "cw_max", "aifsn"):
        assert str(params[column].dtype) == "Int64" and params[column].notna().all(), column
    # 000 Sec. 5.6: the relay B's CWmin is 32 x 4 = 128, the others keep 32.
    last = params.groupby("node", observed=True)["cw_min"].last()
    assert last["B"] == 128 and last["A"] == 32 and last["GW"] == 32

    # A's upload alone (with B's too, B's saturated flow keeps A's discovery from
    # completing in 2 s: 000's starvation, at the routing layer).
    flows = wmnsim.Scenario(FLAGSHIP).to_dict()["flows"][:1]
    aodv = wmnsim.run(FLAGSHIP, seed=1, overrides={
        "/simulation/duration_s": 2, "/routing": {"type": "aodv"}, "/flows": flows,
        "/outputs/event_trace": {"path": str(tmp_path / "aodv.bin"), "kinds": kinds}}).event_trace()
    route = aodv[aodv["kind"] == "route"]
    assert isinstance(route["destination"].dtype, pd.CategoricalDtype)
    assert len(route) > 0 and route["destination"].notna().all()
    # A reaches GW through B (A is hidden from GW): its route to GW has next hop B.
    a_to_gw = route[(route["node"] == "A") & (route["destination"] == "GW")]
    assert "B" in set(a_to_gw["peer"].dropna())
    assert aodv[aodv["kind"] != "route"]["destination"].isna().all()


def _records(rows):
    """A hand-made event table: (kind, node, frame, peer, cw, cause) per record, in time order."""
    cols = ["kind", "node", "frame", "peer", "cw", "cause"]
    df = pd.DataFrame(rows, columns=cols)
    for c in ("kind", "node", "frame", "peer", "cause"):
        df[c] = df[c].astype("category")
    df["cw"] = pd.array(df["cw"], dtype="Int64")
    return df


def test_attempts_by_window_counts_each_stage_and_its_failures():
    n = None
    rows = [
        # basic access at A: fails at 32 (retry), succeeds at 64, fails at 32 at the retry limit (drop).
        ("backoff", "A", n, n, 32, n), ("tx_start", "A", "data", "B", n, n), ("retry", "A", n, n, n, n),
        ("backoff", "A", n, n, 64, n), ("tx_start", "A", "data", "B", n, n),
        ("tx_start", "A", "ack", "B", n, n),  # A answering B: not an attempt
        ("tx_start", "A", "data", n, n, n),  # a broadcast: no exchange
        ("backoff", "A", n, n, 32, n), ("tx_start", "A", "data", "B", n, n),
        ("drop", "A", n, n, n, "retry_limit"), ("drop", "A", n, n, n, "queue_overflow"),
        ("backoff", "A", n, n, 32, n), ("tx_start", "A", "data", "B", n, n),  # the last: left out
        # RTS/CTS at C: an answered RTS (its data follows), a failed one at 32, an answered one at 64 whose
        # data then fails (no ACK: the RTS still got its CTS), a failed one at 128.
        ("tx_start", "C", "rts", "D", n, n),  # before any backoff: left out
        ("tx_start", "C", "data", "D", n, n),
        ("backoff", "C", n, n, 32, n), ("tx_start", "C", "rts", "D", n, n), ("tx_start", "C", "data", "D", n, n),
        ("backoff", "C", n, n, 32, n), ("tx_start", "C", "rts", "D", n, n), ("retry", "C", n, n, n, n),
        ("backoff", "C", n, n, 64, n), ("tx_start", "C", "rts", "D", n, n), ("tx_start", "C", "data", "D", n, n),
        ("retry", "C", n, n, n, n),
        ("backoff", "C", n, n, 128, n), ("tx_start", "C", "rts", "D", n, n), ("retry", "C", n, n, n, n),
        ("backoff", "C", n, n, 256, n), ("tx_start", "C", "rts", "D", n, n),  # the last: left out
    ]
    got = wtrace.attempts_by_window(_records(rows))
    assert got.values.tolist() == [
        ["A", "data", 32, 2, 2], ["A", "data", 64, 1, 0],
        ["C", "rts", 32, 2, 1], ["C", "rts", 64, 1, 0], ["C", "rts", 128, 1, 1]]


def test_attempts_by_window_from_a_run(traced):
    """On a real trace: every retry is a failed attempt, so the failures are the retries and retry-limit
    drops, less those of the last attempt and of data after an answered RTS (none here: no RTS/CTS)."""
    events = wtrace.load(traced[1])
    got = wtrace.attempts_by_window(events)
    assert not got.empty and set(got["frame"]) == {"data"}
    failures = int(got["failures"].sum())
    retries = int((events["kind"] == "retry").sum())
    drops = int(((events["kind"] == "drop") & (events["cause"] == "retry_limit")).sum())
    assert retries + drops - len(got["node"].unique()) <= failures <= retries + drops
    assert (got["cw"] >= 16).all() and (got["failures"] <= got["attempts"]).all()


def test_losses_by_interferer_counts_every_lost_frame_once(traced):
    events = wtrace.load(traced[1])
    got = wtrace.losses_by_interferer(events)
    # Both the frames the receivers locked onto and lost and those they never locked onto (busy).
    lost = events[events["kind"].isin(("rx_fail", "rx_missed"))]
    assert set(lost["kind"]) == {"rx_fail", "rx_missed"}
    assert int(got["lost"].sum()) == len(lost)
    for kind in ("rx_fail", "rx_missed"):
        assert int(got[got["kind"] == kind]["lost"].sum()) == int((lost["kind"] == kind).sum())
    fails = lost[lost["kind"] == "rx_fail"]
    # Each collision's interferer is counted where the record names it.
    first = fails[fails["cause"] == "collision"].iloc[0]
    row = got[(got["node"] == first["node"]) & (got["peer"] == first["peer"]) & (got["frame"] == first["frame"])
              & (got["kind"] == "rx_fail") & (got["cause"] == "collision") & (got["interferer"] == first["interferer"])]
    want = ((fails["node"] == first["node"]) & (fails["peer"] == first["peer"]) & (fails["frame"] == first["frame"])
            & (fails["cause"] == "collision") & (fails["interferer"] == first["interferer"])).sum()
    assert row["lost"].tolist() == [want]


def test_losses_by_interferer_leaves_the_interferer_na_where_the_cause_names_none():
    # A node may be named "none": its collisions must not be merged with the losses that name no interferer.
    n = None
    rows = [("rx_fail", "B", "data", "A", n, "collision"), ("rx_fail", "B", "data", "A", n, "below sensitivity"),
            ("rx_missed", "B", "data", "A", n, "collision"), ("rx_fail", "B", "data", "A", n, "collision")]
    events = _records(rows)
    events["interferer"] = pd.Series(["none", n, "C", "none"], dtype="category")
    got = wtrace.losses_by_interferer(events)
    assert got[got["interferer"].isna()][["kind", "cause", "lost"]].values.tolist() == [
        ["rx_fail", "below sensitivity", 1]]
    assert got[got["interferer"] == "none"][["kind", "cause", "lost"]].values.tolist() == [
        ["rx_fail", "collision", 2]]
    assert got[got["interferer"] == "C"][["kind", "lost"]].values.tolist() == [["rx_missed", 1]]


def _timed(rows):
    """A hand-made event table with times: (time_us, kind, node, frame, peer, cw, start_us, end_us, cause,
    interferer) per record, in time order; tx_start and nav records give their end, rx records their first bit."""
    cols = ["time_us", "kind", "node", "frame", "peer", "cw", "start_us", "end_us", "cause", "interferer"]
    df = pd.DataFrame(rows, columns=cols)
    df["time_ps"] = (df["time_us"] * 1_000_000).round().astype(np.int64)
    for c in ("start", "end"):
        df[f"{c}_ps"] = pd.array([None if pd.isna(x) else int(round(x * 1_000_000)) for x in df[f"{c}_us"]],
                                 dtype="Int64")
    for c in ("kind", "node", "frame", "peer", "cause", "interferer"):
        df[c] = df[c].astype("category")
    df["cw"] = pd.array(df["cw"], dtype="Int64")
    return df.drop(columns=["time_us", "start_us", "end_us"])


def _overlap_records():
    n = None
    return _timed([
        (0, "backoff", "A", n, n, 32, n, n, n, n),
        # A's first attempt (cw 32): C's frame 500-800 us overlaps it; B locks onto it and loses it to C.
        (100, "tx_start", "A", "data", "B", n, n, 1100, n, n),
        (500, "tx_start", "C", "data", "D", n, n, 800, n, n),
        (1100, "rx_fail", "B", "data", "A", n, 100.8, n, "collision", "C"),
        (1200, "retry", "A", n, n, n, n, n, n, n),
        (1300, "backoff", "A", n, n, 64, n, n, n, n),
        (1500, "nav", "B", n, n, n, n, 3500, n, n),  # B's NAV runs to 3500 us, past A's next frame's end
        # A's second attempt (cw 64), 2000-3000 us: C's next frame starts at 3000, as A's ends (no overlap);
        # B receives it but stays silent under its NAV.
        (2000, "tx_start", "A", "data", "B", n, n, 3000, n, n),
        (3000, "rx_ok", "B", "data", "A", n, 2000.8, n, n, n),
        (3000, "tx_start", "C", "data", "D", n, n, 3500, n, n),
        (3100, "retry", "A", n, n, n, n, n, n, n),
        (3600, "backoff", "A", n, n, 32, n, n, n, n),
        # A's third attempt (cw 32), 4049-5049 us: answered. B's record of it comes 12 us after its start,
        # beyond the 10 us of propagation: not this frame's (none).
        (4049, "tx_start", "A", "data", "B", n, n, 5049, n, n),
        (5049, "rx_ok", "B", "data", "A", n, 4061, n, n, n),
        (5059, "tx_start", "B", "ack", "A", n, n, 5363, n, n),
        (5400, "backoff", "A", n, n, 32, n, n, n, n),
        (6000, "tx_start", "A", "data", "B", n, n, 7000, n, n),  # the last attempt: left out
    ])


def test_attempt_overlaps_names_what_each_attempt_met():
    got = wtrace.attempt_overlaps(_overlap_records())
    assert list(got.columns) == ["node", "frame", "cw", "failed", "airtime_us", "overlapped", "receiver", "cause",
                                 "interferer", "receiver_nav", "attempts"]
    rows = [[None if pd.isna(x) else x for x in r] for r in got.values.tolist()]
    assert rows == [
        ["A", "data", 32, False, 1000, "none", "none", None, None, False, 1],
        ["A", "data", 32, True, 1000, "C", "rx_fail", "collision", "C", False, 1],
        ["A", "data", 64, True, 1000, "none", "rx_ok", None, None, True, 1]]
    # Whatever the frame's index: relabelled, or repeating labels (as two traces concatenated).
    records = _overlap_records()
    assert wtrace.attempt_overlaps(records.set_index(records.index * 7 + 3)).equals(got)
    assert wtrace.attempt_overlaps(records.set_index(pd.Index([0] * len(records)))).equals(got)
    # The attempts and failures are attempts_by_window's.
    by_window = wtrace.attempts_by_window(_overlap_records())
    assert by_window.values.tolist() == [["A", "data", 32, 2, 1], ["A", "data", 64, 1, 1]]


def test_tx_gaps_bins_each_nodes_idle_time_between_its_frames():
    got = wtrace.tx_gaps(_overlap_records())
    # A: 1100 -> 2000 (900 us), 3000 -> 4049 (1049: the 1000 bin), 5049 -> 6000 (951: the 950 bin);
    # C: 800 -> 3000 (2200); B sent one frame: no gap.
    assert got.values.tolist() == [["A", "data", 900, 1], ["A", "data", 950, 1], ["A", "data", 1000, 1],
                                   ["C", "data", 2200, 1]]
    assert wtrace.tx_gaps(_overlap_records(), bin_us=1000).values.tolist() == [
        ["A", "data", 0, 2], ["A", "data", 1000, 1], ["C", "data", 2000, 1]]
    with pytest.raises(ValueError, match="bin_us"):
        wtrace.tx_gaps(_overlap_records(), bin_us=0)
