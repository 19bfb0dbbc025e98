"""Fig. 7's convergence as scripts/gateway_report.py measures it (issue 38): the seconds from
a change until a flow's goodput, averaged over the last W seconds, first comes within 10 %
of its new share. A flow that jumps to its share at the change takes about W seconds, so
the window alone adds that much; a flow held below 0.9 of its share never converges."""
import importlib.util
import json
import sys
from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
SPEC = importlib.util.spec_from_file_location("gateway_report", ROOT / "scripts" / "gateway_report.py")
gr = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(gr)

SHARE = 60000.0
END = 300


def runs(goodput_of):
    """One seed of chain7_short_lived.json: each flow its own class at SHARE throughout, and
    a per-second goodput series from goodput_of(flow, t)."""
    flows = [f["id"] for f in json.loads((gr.SCEN / "chain7_short_lived.json").read_text())["flows"]]
    classes = [{"class": f, "flows": [f], "share_series_bps": [SHARE] * END} for f in flows]
    ctl = pd.DataFrame([{"seed": 1, "report_interval_s": 1.0, "classes": json.dumps(classes)}])
    ts = pd.DataFrame([{"seed": 1, "id": f, "time_s": float(t), "value": goodput_of(f, t)}
                       for f in flows for t in range(1, END + 1)])
    return ts, ctl


def times_of(recs, change, flow):
    (rec,) = [r for r in recs if r[0] == change and r[1] == flow]
    return rec[5], rec[6]


@pytest.mark.parametrize("window_s", [5.0, 2.0, 1.0])
def test_a_flow_at_its_share_from_the_change_takes_the_window(window_s):
    # 3to0 runs throughout: idle until 150 s, at its share after.
    ts, ctl = runs(lambda f, t: SHARE if t > 150 else 0.0)
    recs = gr.convergence(ts, ctl, float(END), window_s)
    times, held = times_of(recs, 150.0, "3to0")
    assert times == [window_s]
    assert held == [pytest.approx(1.0)]
    # A flow starting at 250 s is in slow start there.
    (state,) = [r[2] for r in recs if r[0] == 250.0 and r[1] == "1to0_again"]
    assert state == "slow start"


def test_a_flow_held_below_its_share_does_not_converge():
    # At 0.3 of its share for 20 s after the change at 200 s (what "held" leaves out), then at 0.8.
    ts, ctl = runs(lambda f, t: 0.3 * SHARE if 200 < t <= 220 else 0.8 * SHARE)
    times, held = times_of(gr.convergence(ts, ctl, float(END), 2.0), 200.0, "0to6")
    assert times == [None]
    assert held == [pytest.approx(0.8)]
