"""wmnsim.plot renders to PNG and SVG files without a display."""
import math
import subprocess
import sys

import pytest

import wmnsim
import wmnsim.plot as wplot
from conftest import FLAGSHIP, ROOT, SAMPLE_RESULTS


@pytest.fixture
def result():
    return wmnsim.Result.from_json(SAMPLE_RESULTS)


def check_files(tmp_path, name, make):
    png, svg = tmp_path / f"{name}.png", tmp_path / f"{name}.svg"
    fig = make(png)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 2000
    wplot.save(fig, svg)
    assert b"<svg" in svg.read_bytes()[:1000]
    return fig


def texts(fig):
    return [t.get_text() for ax in fig.axes for t in ax.texts + [ax.title] + ax.get_xticklabels()]


def test_flow_goodput_bars(result, tmp_path):
    fig = check_files(tmp_path, "goodput", lambda p: wplot.flow_goodput(result, path=p))
    ax = fig.axes[0]
    assert [round(b.get_height(), 3) for b in ax.patches] == [0.24, 3.9]
    assert "Jain's index 0.552" in ax.get_title()
    assert {"A_to_GW", "B_to_GW"} <= set(texts(fig))
    with pytest.raises(KeyError, match="goodput_bps"):
        wplot.flow_goodput(result, metric="throughput_bps")


def test_goodput_and_cwnd_over_time(result, tmp_path):
    fig = check_files(tmp_path, "goodput_t", lambda p: wplot.goodput_over_time(result, path=p))
    lines = fig.axes[0].lines
    assert [l.get_label() for l in lines] == ["A_to_GW", "B_to_GW"]
    # Goodput covers each interval: the first sample's step starts an interval earlier.
    assert list(lines[0].get_xdata()) == pytest.approx([0.0, 1.0, 2.0, 3.0])
    assert list(lines[0].get_ydata()) == pytest.approx([0.12, 0.12, 0.24, 0.36])
    fig = check_files(tmp_path, "cwnd", lambda p: wplot.cwnd_over_time(result, path=p, ids=["B_to_GW"]))
    assert [l.get_label() for l in fig.axes[0].lines] == ["B_to_GW"]
    assert "packets" in fig.axes[0].get_ylabel()


def drawn_value_at(line, t):
    """The value a line shows at time t, read from its drawn path (drawstyle applied)."""
    import numpy as np

    path = line._get_transformed_path().get_fully_transformed_path()  # display coordinates
    ax = line.axes
    inv = ax.transData.inverted()
    xy = inv.transform(path.vertices)
    for (x0, y0), (x1, y1) in zip(xy, xy[1:]):
        if min(x0, x1) <= t <= max(x0, x1) and x0 != x1:
            return float(np.interp(t, [x0, x1], [y0, y1]) if x0 < x1 else np.interp(t, [x1, x0], [y1, y0]))
    raise AssertionError(f"nothing drawn at t={t}")


def test_interval_kinds_are_drawn_over_the_interval_they_cover(result):
    # flow_goodput's sample at t = 2 s (0.24 Mbit/s for A) covers 1-2 s: the step over
    # 1.5 s shows it, not the 1-s sample (the old steps-post drew each value one interval late).
    fig = wplot.goodput_over_time(result)
    a = fig.axes[0].lines[0]
    assert a.get_drawstyle() == "steps-pre"
    assert drawn_value_at(a, 1.5) == pytest.approx(0.24) and drawn_value_at(a, 2.5) == pytest.approx(0.36)
    assert drawn_value_at(a, 0.5) == pytest.approx(0.12)  # the first interval is drawn too
    # cwnd is a state at the sample instant: a line through the samples (3 at 1 s, 4 at 2 s).
    c = wplot.cwnd_over_time(result).axes[0].lines[0]
    assert c.get_drawstyle() == "default" and drawn_value_at(c, 1.5) == pytest.approx(3.5)


def test_many_series_are_split_into_panels_with_their_own_colours(result, tmp_path):
    import json

    doc = json.loads(SAMPLE_RESULTS.read_text())
    doc["timeseries"]["queue_length"] = {"unit": "packets", "interval_s": 1.0, "columns": ["time_s", "id", "value"],
                                         "rows": [[t, f"n{k}", float(k + t)] for t in (1.0, 2.0) for k in range(23)]}
    many = wmnsim.Result.from_json(doc)
    fig = check_files(tmp_path, "panels", lambda p: wplot.timeseries(many, "queue_length", path=p))
    assert [len(ax.lines) for ax in fig.axes] == [10, 10, 3]
    for ax in fig.axes:
        assert len({l.get_color() for l in ax.lines}) == len(ax.lines)  # no colour twice in a panel
        assert [t.get_text() for t in ax.get_legend().get_texts()] == [l.get_label() for l in ax.lines]
    assert fig.axes[-1].get_xlabel() == "time (s)"
    # All 23 in one given axes: 23 distinct colours, the legend beside it; a log axis on request.
    from matplotlib.figure import Figure

    ax = Figure().add_subplot()
    wplot.timeseries(many, "queue_length", ax=ax, logy=True)
    assert len(ax.lines) == 23 and len({l.get_color() for l in ax.lines}) == 23 and ax.get_yscale() == "log"
    assert wplot.timeseries(many, "queue_length", per_panel=30).axes[0].get_legend() is not None


def test_sweep_axis_names_and_log_axes():
    import pandas as pd

    assert wplot._parameter_label("/mac/cw_min") == "cw min (mac)"
    assert wplot._parameter_label("/nodes/1/mac/queue_limit_bytes") == "queue limit (bytes) (nodes/1/mac)"
    assert wplot._parameter_label("/simulation/duration_s") == "duration (s) (simulation)"
    assert wplot._log2_spaced([16, 32, 64, 1024]) and wplot._log2_spaced([3, 6, 12, 24])
    assert not wplot._log2_spaced([10, 20, 30]) and not wplot._log2_spaced([16, 32]) and not wplot._log2_spaced([0, 2, 4])
    df = pd.DataFrame([{"/mac/cw_min": cw, "seed": s, "goodput_bps": 1e6 * (s + cw / 1024)}
                       for cw in (16, 32, 64, 128) for s in (1, 2)])
    agg = wmnsim.sweep.aggregate(df, metrics=["goodput_bps"])
    ax = wplot.sweep(agg, x="/mac/cw_min", y="goodput_bps").axes[0]
    assert ax.get_xscale() == "log" and [t.get_text() for t in ax.get_xticklabels()] == ["16", "32", "64", "128"]
    assert ax.get_xlabel() == "cw min (mac)" and ax.get_yscale() == "linear"
    ax = wplot.sweep(agg, x="/mac/cw_min", y="goodput_bps", logx=False, logy=True, xlabel="CWmin").axes[0]
    assert ax.get_xscale() == "linear" and ax.get_yscale() == "log" and ax.get_xlabel() == "CWmin"
    # A per-flow table of 20 flows: 20 lines, no colour twice, the legend beside the axes.
    flows = pd.DataFrame([{"/mac/cw_min": cw, "seed": s, "flow_id": f"f{k}", "goodput_bps": 1e5 * (k + s)}
                          for cw in (16, 32) for s in (1, 2) for k in range(20)])
    per_flow = wmnsim.sweep.aggregate(flows, by=["/mac/cw_min", "flow_id"], metrics=["goodput_bps"])
    ax = wplot.sweep(per_flow, x="/mac/cw_min", y="goodput_bps").axes[0]
    colours = [c.lines[0].get_color() for c in ax.containers]
    assert len(colours) == 20 and len({tuple(c) if not isinstance(c, str) else c for c in colours}) == 20
    assert ax.get_legend().get_bbox_to_anchor().x0 > ax.get_window_extent().x1 - 1


def test_topology_of_a_result_uses_its_routes_and_goodput(result, tmp_path):
    fig = check_files(tmp_path, "topology", lambda p: wplot.topology(result, path=p))
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert "gateway" in labels and "mesh router" in labels
    assert "route A_to_GW" in labels and "route B_to_GW" in labels
    assert {"A", "B", "GW"} <= set(texts(fig))
    colorbar = fig.axes[1]
    assert "goodput" in colorbar.get_ylabel()
    assert wplot.flow_routes(result.scenario, result) == {"A_to_GW": ["A", "B", "GW"], "B_to_GW": ["B", "GW"]}


def test_topology_with_many_routes_has_one_legend_entry_for_them():
    # The 80-flow mesh: 80 routes in 80 colours, one legend entry for all of them.
    fig = wplot.topology(ROOT / "scenarios" / "fu2009" / "mesh40_4gw.json", routes=True)
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert "80 routes, a colour each" in labels and not any(l.startswith("route ") for l in labels)


def test_topology_of_a_scenario_derives_routes(tmp_path):
    scenario = wmnsim.Scenario(FLAGSHIP)
    # Fewest hops over the links the PHY builds: A reaches GW only through B.
    assert wplot.flow_routes(scenario) == {"A_to_GW": ["A", "B", "GW"], "B_to_GW": ["B", "GW"]}
    check_files(tmp_path, "topology_scenario", lambda p: wplot.topology(scenario, path=p))
    for f in ("fu2009/mesh40_4gw.json", "jamshaid/chain_1mbps.json", "badarla/parking_lot.json"):
        fig = wplot.topology(ROOT / "scenarios" / f)
        assert fig.axes[0].collections  # nodes and links were drawn


def test_reach_overlay_shows_who_decodes_senses_and_is_hidden(tmp_path):
    # The flagship (range model, 250 m decoding, 300 m sensing, nodes 200 m apart):
    # B decodes A, GW (400 m) neither decodes nor senses A: hidden from it.
    scenario = wmnsim.Scenario(FLAGSHIP)
    fig = check_files(tmp_path, "reach", lambda p: wplot.topology(scenario, path=p, reach="A"))
    ax = fig.axes[0]
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "decodes A" in labels and "hidden from A" in labels and "senses A only" not in labels
    decodes = next(c for c in ax.collections if c.get_label() == "decodes A")
    assert [tuple(map(tuple, seg)) for seg in decodes.get_segments()] == [((0.0, 0.0), (200.0, 0.0))]
    hidden = next(c for c in ax.collections if c.get_label() == "hidden from A")
    assert [tuple(o) for o in hidden.get_offsets()] == [(400.0, 0.0)]
    # Sensing beyond decoding: at 450 m sensing GW senses A (400 m) without decoding it.
    wide = scenario.with_overrides({"/propagation/cs_range_m": 450})
    links = wide.radio_links(sensed=True).set_index(["src", "dst"])
    ag = links.loc[("A", "GW")]
    assert ag["sensed"] and not ag["decodable"] and math.isnan(ag["rate_bps"])
    assert ("A", "GW") not in set(zip(wide.radio_links()["src"], wide.radio_links()["dst"]))
    ax = wplot.topology(wide, reach="A").axes[0]
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "senses A only" in labels and "hidden from A" not in labels
    with pytest.raises(KeyError, match="Z"):
        wplot.topology(scenario, reach="Z")
    # A scenario whose flow has no route still draws (no route arrows), reach and all.
    far = scenario.with_overrides({"/nodes/0/position_m": [5000, 0]})
    assert wplot.flow_routes(far) == {}
    ax = wplot.topology(far, reach="B").axes[0]
    assert "hidden from B" in [t.get_text() for t in ax.get_legend().get_texts()]


def test_node_labels_do_not_overlap_on_the_44_node_mesh():
    import itertools

    from matplotlib.backends.backend_agg import FigureCanvasAgg

    fig = wplot.topology(ROOT / "scenarios" / "fu2009" / "mesh40_4gw.json", routes=False)
    ax = fig.axes[0]
    if not hasattr(fig.canvas, "get_renderer"):
        FigureCanvasAgg(fig)
    renderer = fig.canvas.get_renderer()
    fig.draw_without_rendering()
    boxes = [(t.get_text(), t.get_window_extent(renderer)) for t in ax.texts]
    assert len(boxes) == 44  # labels above their nodes collided here (s9, s10, s11)
    assert [(a, b) for (a, ba), (b, bb) in itertools.combinations(boxes, 2) if ba.overlaps(bb)] == []
    # Each label stays beside its own node: within 25 points of it.
    for t in ax.texts:
        x, y = ax.transData.transform(t.xy)
        box = t.get_window_extent(renderer)
        assert abs((box.x0 + box.x1) / 2 - x) < 60 and abs((box.y0 + box.y1) / 2 - y) < 25 * fig.dpi / 72


def test_plots_need_no_display_and_leave_pyplot_alone(tmp_path):
    code = (
        "import os, sys; os.environ.pop('DISPLAY', None); os.environ.pop('MPLBACKEND', None)\n"
        "import wmnsim, wmnsim.plot as p\n"
        f"r = wmnsim.Result.from_json({str(SAMPLE_RESULTS)!r})\n"
        f"p.topology(r, path={str(tmp_path / 'x.png')!r}); p.flow_goodput(r, path={str(tmp_path / 'y.svg')!r})\n"
        "assert 'matplotlib.pyplot' not in sys.modules\n"
    )
    env = {k: v for k, v in __import__("os").environ.items() if k not in ("DISPLAY", "MPLBACKEND")}
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "x.png").stat().st_size > 0 and (tmp_path / "y.svg").stat().st_size > 0
