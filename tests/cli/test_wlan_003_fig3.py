"""scripts/wlan_003_fig3.py: the one-hop WLAN of 003 Fig. 3 (the wccp study's fig3
experiment). The committed scenarios are what the script writes, and the airtime it
counts a successful exchange with is the one the simulator spends on it."""
import json
import os
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "wlan_003_fig3.py"
GENERATED = ROOT / "scenarios" / "zhai_wccp" / "reproduction" / "generated"
WMNSIM_BIN = os.environ.get("WMNSIM_BIN", str(ROOT / "build" / "ci" / "cli" / "wmnsim"))

sys.path.insert(0, str(ROOT / "scripts"))
import wlan_003_fig3  # noqa: E402


def test_the_committed_scenarios_are_what_the_script_writes(tmp_path):
    subprocess.run([sys.executable, str(SCRIPT), "--write-scenarios", str(tmp_path)], check=True, capture_output=True)
    written = sorted(p.name for p in tmp_path.iterdir())
    assert written == sorted(f"fig3_n{n}_p{p}.json" for n, p in wlan_003_fig3.files())
    for name in written:
        assert (tmp_path / name).read_bytes() == (GENERATED / name).read_bytes(), name


def test_the_stations_are_one_hop_and_the_load_scale_is_the_capacity():
    doc = wlan_003_fig3.scenario(20, 500)
    ap, *stations = doc["nodes"]
    assert ap["id"] == "AP" and len(stations) == 20
    for s in stations:  # every station on the circle: equal distances to AP
        assert abs(sum(c * c for c in s["position_m"]) ** 0.5 - wlan_003_fig3.RADIUS_M) < 1e-5
    assert {f["dst"] for f in doc["flows"]} == {"AP"} and len(doc["flows"]) == 20
    total = sum(f["traffic"]["rate_bps"] for f in doc["flows"])
    assert total == pytest.approx(wlan_003_fig3.capacity_bps(500), rel=1e-6)
    # 802.11b at 2/1 Mbit/s, long preamble: RTS 352 us, CTS and ACK 304 us, DATA of a
    # 500-byte payload (564 octets at 2 Mbit/s) 192 + 2256 us, three SIFS.
    assert wlan_003_fig3.exchange_us(500) == pytest.approx(352 + 304 + 2448 + 304 + 30)


def test_the_exchange_airtime_is_the_simulators(tmp_path):
    """At light load nearly every exchange succeeds alone, so the receiver's busy time is
    the successful exchanges' airtime: c_u as the report computes it must match it."""
    if not os.path.exists(WMNSIM_BIN):
        pytest.skip(f"no {WMNSIM_BIN}")
    out = tmp_path / "r.json"
    r = subprocess.run([WMNSIM_BIN, "run", str(GENERATED / "fig3_n5_p1000.json"), "--set",
                        "/simulation/offered_load_scale=0.2", "--set", "/simulation/duration_s=20", "-o", str(out)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    res = json.loads(out.read_text())
    delivered = sum(f["delivered_packets"] for f in res["flows"])
    c_u = delivered * wlan_003_fig3.exchange_us(1000) * 1e-6 / 20
    ap = next(x for x in res["radios"] if x["node"] == "AP")
    failed = sum(x["failed_attempts"] for x in res["radios"])
    assert failed < 0.01 * delivered
    assert c_u == pytest.approx(ap["channel_busyness"], rel=0.01)
