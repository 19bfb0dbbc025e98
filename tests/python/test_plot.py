"""wmnsim.plot renders to PNG and SVG files without a display."""
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
    assert list(lines[0].get_ydata()) == pytest.approx([0.12, 0.24, 0.36])
    fig = check_files(tmp_path, "cwnd", lambda p: wplot.cwnd_over_time(result, path=p, ids=["B_to_GW"]))
    assert [l.get_label() for l in fig.axes[0].lines] == ["B_to_GW"]
    assert "packets" in fig.axes[0].get_ylabel()


def test_topology_of_a_result_uses_its_routes_and_goodput(result, tmp_path):
    fig = check_files(tmp_path, "topology", lambda p: wplot.topology(result, path=p))
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert "gateway" in labels and "mesh router" in labels
    assert "route A_to_GW" in labels and "route B_to_GW" in labels
    assert {"A", "B", "GW"} <= set(texts(fig))
    colorbar = fig.axes[1]
    assert "goodput" in colorbar.get_ylabel()
    assert wplot.flow_routes(result.scenario, result) == {"A_to_GW": ["A", "B", "GW"], "B_to_GW": ["B", "GW"]}


def test_topology_of_a_scenario_derives_routes(tmp_path):
    scenario = wmnsim.Scenario(FLAGSHIP)
    # Fewest hops over the links the PHY builds: A reaches GW only through B.
    assert wplot.flow_routes(scenario) == {"A_to_GW": ["A", "B", "GW"], "B_to_GW": ["B", "GW"]}
    check_files(tmp_path, "topology_scenario", lambda p: wplot.topology(scenario, path=p))
    for f in ("fu2009/mesh40_4gw.json", "jamshaid/chain_1mbps.json", "badarla/parking_lot.json"):
        fig = wplot.topology(ROOT / "scenarios" / f)
        assert fig.axes[0].collections  # nodes and links were drawn


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
