"""`wmnsim model starvation`: the Markov model of paper 000 Sec. 5 from the command line."""
import json
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
WMNSIM = os.environ.get("WMNSIM_BIN", str(ROOT / "build" / "ci" / "cli" / "wmnsim"))


def wmnsim(*args):
    return subprocess.run([WMNSIM, *map(str, args)], capture_output=True, text=True, timeout=120)


def test_default_table():
    r = wmnsim("model", "starvation")
    assert r.returncode == 0, r.stderr
    assert "Starvation model (paper 000 Sec. 5): W_a 3, W_b 3" in r.stdout
    assert "RTS/CTS off" in r.stdout
    assert "p_delta" in r.stdout and "lambda_a" in r.stdout


def test_sweep_json_one_row_per_value():
    r = wmnsim("model", "starvation", "--cwmin-b", "16,32,64,128,256,512", "--json")
    assert r.returncode == 0, r.stderr
    rows = json.loads(r.stdout)
    assert [row["params"]["cw_min_b"] for row in rows] == [16, 32, 64, 128, 256, 512]
    shares = [row["share_a"] for row in rows]
    assert shares == sorted(shares)
    for row in rows:
        assert abs(sum(row["p"].values()) - 1) < 1e-9
        assert row["residual"] < 1e-12


def test_options_reach_the_model():
    r = wmnsim("model", "starvation", "--window", "2", "--window-b", "1", "--rts", "on", "--cwmin-a", "16",
               "--cwmin-g", "64", "--retry-limit", "4", "--payload-bytes", "500", "--json")
    assert r.returncode == 0, r.stderr
    (row,) = json.loads(r.stdout)
    p = row["params"]
    assert (p["window_a"], p["window_b"], p["rts_cts"], p["cw_min_a"], p["cw_min_g"], p["retry_limit"],
            p["payload_bytes"]) == (2, 1, True, 16, 64, 4, 500)
    # 500-byte payload: 540-byte IP packet, and RTS first packets.
    assert row["first_packet_slots_a"] == row["first_packet_slots_g"] == 14
    assert row["lambda_a_bps"] == pytest.approx(row["lambda_a_pps"] * 4000)


@pytest.mark.parametrize("args, words", [
    (["--cwmin-b", "48"], "cw_min_b must be a power of two"),
    (["--cwmin-b", "16,x"], "--cwmin-b: 'x' is not an integer"),
    (["--window", "0"], "window_a must be"),
    (["--window-a", "300"], "lower window_a"),
    (["--retry-limit", "0"], "retry_limit"),
    (["--payload-bytes", "0"], "payload_bytes"),
])
def test_bad_values_exit_2(args, words):
    r = wmnsim("model", "starvation", *args)
    assert r.returncode == 2
    assert words in r.stderr
    assert r.stdout == ""


@pytest.mark.parametrize("args", [["model"], ["model", "starvation", "--rts", "maybe"],
                                  ["model", "starvation", "--cwmin-a", "abc"]])
def test_bad_command_lines_exit_2(args):
    assert wmnsim(*args).returncode == 2
