"""001 Tables 1-2 as scripts/gateway_report.py computes them from stored rows: JFI,
min and max of goodput over the off-line fair share, and U/U_opt over wireless hops
(the wired hop to the host is not counted, as in the capacity models)."""
import importlib.util
import sys
from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
SPEC = importlib.util.spec_from_file_location("gateway_report", ROOT / "scripts" / "gateway_report.py")
gr = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(gr)

pytestmark = pytest.mark.skipif(not (ROOT / "build" / "release" / "cli" / "wmnsim").exists(),
                                reason="needs the wmnsim program (the capacity model)")


def test_table_metrics_use_the_offline_share_and_wireless_hops():
    path = gr.scenario_file("chain4_down_o01")
    fair, hops = gr.model_shares(path), gr.model_hops(path)
    assert sorted(hops.values()) == [1, 2, 3, 4]  # a 4-node chain behind the gateway
    factor = {f: (0.5 if hops[f] == 4 else 1.5 if hops[f] == 1 else 1.0) for f in fair}
    rows = [{"scenario": "chain4_down_o01", gr.SCHEME: "fifo", "seed": 1, "flow_id": f,
             "goodput_bps": fair[f] * factor[f]} for f in fair]

    class Data:
        flows = pd.DataFrame(rows)

    (jfi, lo, hi, u, topo), = gr.t12_metrics(Data)["fifo"]
    rates = [fair[f] * factor[f] for f in fair]
    assert jfi == pytest.approx(sum(rates) ** 2 / (len(rates) * sum(r * r for r in rates)))
    assert (lo, hi) == (pytest.approx(0.5), pytest.approx(1.5))
    u_expected = sum(fair[f] * factor[f] * hops[f] for f in fair) / sum(fair[f] * hops[f] for f in fair)
    assert u == pytest.approx(u_expected) and topo == "chain4"
    near_far = gr.BY_HOPS[("down", "fifo")]
    assert sorted(near_far["far"]) == [pytest.approx(0.5)]  # the 4-hop flow
    assert sorted(near_far["near"]) == [pytest.approx(1.0), pytest.approx(1.5)]
