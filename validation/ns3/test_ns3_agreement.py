"""CI-optional: wmnsim under the ns3 preset against ns-3 3.44's stored results.

Not part of the README's test command or .ci/run (it needs minutes, and the ns-3
half needs the `ns3` wheel). Run it on its own (docs/validation.md):

    /usr/bin/python3 -m pytest -q -p no:cacheprovider validation/ns3

with a ci build in build/ci (WMNSIM_BUILD to use another) and, for the ns-3 half,
ns-3 3.44 in a venv (NS3_VENV, default /work/venv-ns3).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
BUILD = Path(os.environ.get("WMNSIM_BUILD", REPO / "build" / "ci"))
CLI = BUILD / "cli" / "wmnsim"
NS3_VENV = Path(os.environ.get("NS3_VENV", "/work/venv-ns3"))
sys.path.insert(0, str(HERE))
import run_ns3  # noqa: E402

CASES = [run_ns3.Case(s) for s in run_ns3.DEFAULT_SCENARIOS]
# Metrics that differ from ns-3, each listed in docs/validation.md ("What still
# differs", with its mechanism or as not traced): `wmnsim compare` must still find them outside the
# 15 % band (if one comes inside, the doc is out of date), and every other metric
# inside it. The cell's total and index were here until session 23 traced them to
# the bandwidth of a DSSS frame's SINR (the preset's dsss_processing_gain).
KNOWN_DIFFERENCES: dict = {
    # -26 % over 12 seeds (docs/validation.md, "What still differs"): the range model
    # loses both of two overlapping RTS at B, where ns-3's stand-in for it (Friis cut at
    # 300 m) decodes the first at 0 dB; with ns-3 given wmnsim's range receiver
    # (run_ns3.py --receiver range) -2.0 %.
    "chain2_tcp_rts_on_cw32": {
        "flows/A_to_GW/goodput_bps": "the RTS/CTS chain: overlapping RTS at B, lost under range, decoded by ns-3's stand-in",
        # Follows A's goodput: 0.612 against ns-3's 0.662, 0.0003 below the band under the
        # preset's queue_lifetime_rule "ns3" (0.0006 inside it with "when_taken").
        "summary/jain_fairness_index": "the RTS/CTS chain's index, which follows A's goodput",
    },
    # Every metric inside its band with the ns-3 program's sources in wmnsim (CBR at twice
    # the data rate): test_with_ns3s_sources_every_metric_agrees.
    "chain2_udp_rts_off": {
        m: "saturated UDP at a relay: ns-3's on-off source keeps B's queue full, A's relayed packets are lost"
        for m in ("flows/A_to_GW/goodput_bps", "flows/B_to_GW/goodput_bps", "flows/GW_to_A/goodput_bps",
                  "summary/total_goodput_bps", "summary/jain_fairness_index")
    },
}

needs_build = pytest.mark.skipif(not CLI.exists(), reason=f"no wmnsim build at {BUILD}")


def compare_rows(case: run_ns3.Case, tmp_path: Path, extra_overrides: tuple = ()) -> list:
    """`wmnsim compare` of the preset's runs (the reference's seeds and overrides, then
    `extra_overrides`, which make a different scenario than the reference's) against the
    stored ns-3 reference."""
    ref = run_ns3.reference_name(case)
    doc = json.loads(ref.read_text())
    files = []
    for seed in doc["seeds"]:
        out = tmp_path / f"{case.name}.{seed}.json"
        sets = [a for o in [*doc["overrides"], *extra_overrides] for a in ("--set", o)]
        subprocess.run([str(CLI), "run", str(case.path), "--seed", str(seed), *sets, "-o", str(out)],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        files.append(str(out))
    allow = ["--allow-different-scenario"] if extra_overrides else []
    r = subprocess.run([str(CLI), "compare", "--json", *allow, *files, str(ref)], capture_output=True, text=True)
    assert r.returncode in (0, 3), r.stderr
    return json.loads(r.stdout)["rows"]


@needs_build
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_preset_agrees_with_ns3_or_the_difference_is_named(case, tmp_path):
    rows = compare_rows(case, tmp_path)
    known = KNOWN_DIFFERENCES.get(case.name, {})
    for row in rows:
        if row["metric"] in known:
            assert row["status"] == "fail", (f"{row['metric']} now agrees with ns-3: docs/validation.md's "
                                       f"'{known[row['metric']]}' is out of date")
        else:
            assert row["status"] == "pass", (f"{row['metric']}: wmnsim {row['measured']} against ns-3 "
                                             f"{row['expected']} [{row['low']}, {row['high']}]")


@needs_build
@pytest.mark.parametrize("name,saturated_flows", [
    ("chain2_udp_rts_off", ["A_to_GW", "B_to_GW"]),
    ("cell50_saturated", [f"s{i}_up" for i in range(50)]),
])
def test_with_ns3s_sources_every_metric_agrees(name, saturated_flows, tmp_path):
    """wmnsim's saturated source tops its queue up as it empties; the ns-3 program's on-off
    source offers twice the data rate and overflows its queue (docs/validation.md). With
    the saturated flows as CBR at twice the data rate (what the ns-3 program runs) every
    metric is inside the reference's band: for the UDP chain, whose relay's own source
    starves the relayed flow (test_preset_agrees_with_ns3_or_the_difference_is_named lists
    its metrics as known differences), and for the cell, whose stale queues make a station
    at a high CW lose accesses under the preset's queue_lifetime_rule "ns3" (the preset's
    own runs agree too, less closely)."""
    case = next(c for c in CASES if c.name == name)
    doc = json.loads(case.path.read_text())
    sources = run_ns3.ns3_sources(case)
    assert [doc["flows"][int(o.split("/")[2])]["id"] for o in sources] == saturated_flows
    rows = compare_rows(case, tmp_path, tuple(sources))
    if name == "cell50_saturated":
        # The cell's total and index: a station's share varies by a third from seed to seed
        # in both simulators, so over three seeds one of 50 per-station bands may miss by
        # chance (docs/validation.md, "The saturated cell").
        rows = [r for r in rows if r["metric"].startswith("summary/")]
        assert len(rows) == 2
    for row in rows:
        assert row["status"] == "pass", (f"{row['metric']}: wmnsim {row['measured']} against ns-3 "
                                         f"{row['expected']} [{row['low']}, {row['high']}]")


@pytest.mark.skipif(not (NS3_VENV / "bin" / "python").exists(), reason=f"no ns-3 venv at {NS3_VENV}")
@needs_build
def test_the_stored_ns3_results_are_what_ns3_gives(tmp_path):
    # ns-3 is deterministic for a seed and a version: the flagship's first seed again.
    binary = run_ns3.build_ns3(tmp_path / "wmnsim_ns3")
    wmnsim = run_ns3.wmnsim_module(BUILD)
    case = CASES[0]
    ref = json.loads(run_ns3.reference_name(case).read_text())
    seed = ref["seeds"][0]
    run = run_ns3.run_ns3(binary, run_ns3.spec_for(case.path, seed, wmnsim, case.overrides))
    for m in ref["metrics"]:
        if m["metric"].startswith("flows/"):
            fid = m["metric"].split("/")[1]
            got = next(f["goodput_bps"] for f in run["flows"] if f["id"] == fid)
            assert round(got, 1) == m["samples"][0], fid


@needs_build
def test_the_cell_table_in_validation_md_is_what_compare_prints(tmp_path):
    """docs/validation.md's table of the saturated cell (its columns, Jain's index of the
    per-station means, the stations within 15 %) is regenerated by the command it cites;
    a change of the PHY or MAC that moves one of them makes the doc stale, and this fails."""
    out = tmp_path / "cell.json"
    subprocess.run([sys.executable, str(HERE / "run_ns3.py"), "compare", "scenarios/bench/cell50_saturated.json",
                    "--build", str(BUILD), "--json", str(out),
                    "--variant", "chip_rate:/phy/reception/dsss_processing_gain=chip_rate",
                    "--variant", "arrival:/phy/reception/preamble_detection=arrival"],
                   cwd=REPO, check=False, stdout=subprocess.DEVNULL)
    summary = json.loads(out.read_text())["cell50_saturated"]["summary"]
    doc = (REPO / "docs" / "validation.md").read_text()
    total = summary["total, Mbit/s"]
    index = summary["Jain's index of the per-flow means"]
    columns = ("wmnsim default", "wmnsim ns3 preset", "chip_rate", "arrival", "ns-3")
    assert f"| total | {total['wmnsim default']} | {total['wmnsim ns3 preset']} " in doc
    for c in ("chip_rate", "arrival"):
        assert f"| {total[c]} " in doc, c
    row = "| Jain's index (of the per-station means) | " + " | ".join(index[c] for c in columns) + " |"
    assert row in doc
    runs = summary["mean of the per-run indices"]
    assert "| mean of the per-run indices | " + " | ".join(runs[c] for c in columns) + " |" in doc
    within = summary["flows within 15% of ns-3"]
    assert (f"{within['wmnsim ns3 preset'].split()[0]} of the 50 are within 15 % of ns-3 "
            f"({within['chip_rate'].split()[0]} with the DSSS SINR read over the chip rate, "
            f"{within['arrival'].split()[0]} with") in " ".join(doc.split())


def test_overrides_with_commas_in_their_values_stay_whole():
    """--variant and PATH@LABEL: split the overrides at commas before a JSON pointer only,
    so an array or object value is one override (it was cut at each comma)."""
    assert run_ns3.parse_variant("v:/a=1,/b=[1,2],/c={\"x\":1,\"y\":2}") == (
        "v", ["/a=1", "/b=[1,2]", "/c={\"x\":1,\"y\":2}"])
    case = run_ns3.Case("scenarios/two_hop_chain_tcp.json@w:/x=[3,4]")
    assert case.overrides == ["/x=[3,4]"] and case.name == "two_hop_chain_tcp.w"


needs_venv = pytest.mark.skipif(not (NS3_VENV / "bin" / "python").exists(), reason=f"no ns-3 venv at {NS3_VENV}")
RTS_CHAIN = REPO / "scenarios" / "starvation" / "chain2_tcp_rts_on_cw32.json"


@needs_build
def test_the_range_receiver_line_is_derived_and_refused_off_range():
    """`--receiver range` writes `receiver range SNR_DB ED_DBM` from the scenario (23 dBm,
    channel 6, rx_range_m 250, cs_range_m 300) and ns-3's PHY constants; the default writes
    no receiver line (the references' specs); a scenario without range propagation, or
    with an interference range other than the sensing range, is refused."""
    import math
    wmnsim = run_ns3.wmnsim_module(BUILD)
    # Friis and thermal noise over 20 MHz with ns-3's 7 dB noise figure, written out again here.
    wavelength = 299792458.0 / 2.437e9
    friis = lambda d: 23 + 10 * math.log10(wavelength ** 2 / (16 * math.pi ** 2 * d ** 2))
    noise = 10 * math.log10(1.3803e-23 * 290 * 20e6) + 30 + 7
    spec = run_ns3.spec_for(RTS_CHAIN, 1, wmnsim, [], receiver="range")
    line = [l for l in spec.splitlines() if l.startswith("receiver ")]
    assert line == [f"receiver range {round(friis(250) - noise, 3)} {round(friis(300) - 1.0, 3)}"], line
    assert line == ["receiver range 28.822 -67.727"]
    assert "receiver" not in run_ns3.spec_for(RTS_CHAIN, 1, wmnsim, [])
    with pytest.raises(SystemExit, match="propagation is 'log_distance'"):
        run_ns3.spec_for(REPO / "scenarios" / "bench" / "cell50_saturated.json", 1, wmnsim, [], receiver="range")
    with pytest.raises(SystemExit, match="interference_range_m"):
        run_ns3.spec_for(RTS_CHAIN, 1, wmnsim, ["/propagation/interference_range_m=400"], receiver="range")


def rts_answers(trace: Path, receiver: str = "B") -> dict:
    """Per category of the RTS frames sent to `receiver` in an ns-3 trace of the two-hop
    chain (A and GW both 200 m from B): [answered by B's CTS SIFS after the RTS, sent].
    "overlapped": another node's frame was on the air at B during the RTS; "lone": none
    was and B itself was not transmitting. Durations: 192 us of long preamble and header,
    the PSDU at 2 Mbit/s (control) or 11 Mbit/s (DATA)."""
    frames, own, cts = [], [], []
    for line in trace.read_text().splitlines():
        w = line.split()
        if w[2] != "tx":
            continue
        kv = dict(x.split("=", 1) for x in w[4:] if "=" in x)
        rate = 11e6 if w[3] == "DATA" else 2e6
        t = float(w[0])
        end = t + 192e-6 + -(-int(kv["bytes"]) * 8 * 1e6 // rate) * 1e-6
        if w[1] == receiver:
            own.append((t, end))
            if w[3] == "CTS":
                cts.append((t, kv["to"]))
        else:
            frames.append((t, end, w[1], w[3], kv["to"], kv["from"]))
    cts_at = {round(t * 1e6): to for t, to in cts}
    out = {"overlapped": [0, 0], "lone": [0, 0]}
    for i, (s, e, node, kind, to, frm) in enumerate(frames):
        if kind != "RTS" or to != "00:00:00:00:00:02":
            continue
        near = frames[max(0, i - 10):i + 10]
        overlapped = any(f[2] != node and f[0] < e and f[1] > s for f in near)
        if not overlapped and any(a < e and b > s for a, b in own):
            continue
        answered = any(cts_at.get(round((e + 10e-6) * 1e6) + k) == frm for k in (-1, 0, 1))
        c = out["overlapped" if overlapped else "lone"]
        c[0] += answered
        c[1] += 1
    return out


@needs_venv
@needs_build
def test_under_the_range_receiver_b_answers_no_overlapped_rts(tmp_path):
    """The RTS/CTS chain for 10 s under `receiver range`: B answers none of the RTS frames
    another frame overlapped at B (under ns-3's own receiver it answers most of those that
    began first, docs/validation.md) and every lone one."""
    import json as _json
    binary = run_ns3.build_ns3(tmp_path / "wmnsim_ns3")
    constants = _json.loads(subprocess.run([str(binary), "--phy-constants"], check=True, capture_output=True,
                                           text=True).stdout)
    assert constants["rx_noise_figure_db"] == run_ns3.NS3_RX_NOISE_FIGURE_DB
    wmnsim = run_ns3.wmnsim_module(BUILD)
    trace = tmp_path / "range.trace"
    run = run_ns3.run_ns3(binary, run_ns3.spec_for(RTS_CHAIN, 1, wmnsim, ["/simulation/duration_s=10"],
                                                   receiver="range"), trace)
    assert run["receiver"] == "range" and run["receptions_destroyed_by_overlap"] > 0
    answers = rts_answers(trace)
    assert answers["overlapped"][1] > 50 and answers["overlapped"][0] == 0, answers
    assert answers["lone"][1] > 500 and answers["lone"][0] == answers["lone"][1], answers
    # Lone frames decode: from 200 m their SNR is the Friis power over ns-3's noise.
    snrs = {l.split("snr_db=")[1] for l in trace.read_text().splitlines() if " rx_ok " in l}
    assert snrs == {"30.760"}, snrs
    # The trace's other readers still read it.
    counts = run_ns3.ns3_trace_counts(trace, {})
    assert counts["A"]["segments_attempts"] > 0 and counts["GW"]["acks_attempts"] > 0


@needs_build
def test_retry_counts_other_than_ns3s_are_refused():
    """ns-3 3.44 has one retry rule (one count per MPDU, docs/mac.md "Retries"): a scenario
    that asks for another is refused with its pointer, never run as something else."""
    wmnsim = run_ns3.wmnsim_module(BUILD)
    assert "retry_limit 7" in run_ns3.spec_for(RTS_CHAIN, 1, wmnsim, ["/mac/retry_counts=ns3"])
    for reading in ("reset_on_cts", "per_mpdu"):
        with pytest.raises(SystemExit, match=f"/mac/retry_counts is '{reading}'"):
            run_ns3.spec_for(RTS_CHAIN, 1, wmnsim, [f"/mac/retry_counts={reading}"])


def test_eifs_after_busy_counts_starts_within_eifs_of_the_busy_end(tmp_path):
    """run_ns3.py trace's EIFS count (docs/validation.md, the fifth departure): B's frame
    after a lost frame and a medium busy past its end + EIFS - DIFS counts, and is early
    when it starts less than EIFS after the busy end; a frame after a good reception, or
    after a busy period that ended within EIFS - DIFS of the loss, is not counted."""
    a = run_ns3.frame_airtime_s("DATA", 1000)   # 920 us
    g = run_ns3.frame_airtime_s("DATA", 1500)   # 1283 us
    assert round(a * 1e6) == 920 and round(g * 1e6) == 1283
    lines = [
        f"0.000000000 A tx DATA to=x from=y seq=0 retry=0 bytes=1000",
        f"0.000500000 GW tx DATA to=x from=y seq=0 retry=0 bytes=1500",
        f"{a:.9f} B rx_fail DATA to=x from=y seq=0 retry=0 bytes=1000 snr_db=0",
        f"{0.0005 + g + 70e-6:.9f} B tx DATA to=x from=y seq=0 retry=0 bytes=1000",   # DIFS + 1 slot: early
        f"0.010000000 A tx DATA to=x from=y seq=0 retry=0 bytes=1000",
        f"0.010500000 GW tx DATA to=x from=y seq=0 retry=0 bytes=1500",
        f"{0.01 + a:.9f} B rx_fail DATA to=x from=y seq=0 retry=0 bytes=1000 snr_db=0",
        f"{0.0105 + g + 400e-6:.9f} B tx DATA to=x from=y seq=0 retry=0 bytes=1000",  # after EIFS: not early
        f"0.020000000 A tx DATA to=x from=y seq=0 retry=0 bytes=1000",
        f"{0.02 + a:.9f} B rx_fail DATA to=x from=y seq=0 retry=0 bytes=1000 snr_db=0",
        f"{0.02 + a + 100e-6:.9f} B tx DATA to=x from=y seq=0 retry=0 bytes=1000",   # no busy past the loss
        f"0.030000000 A tx DATA to=x from=y seq=0 retry=0 bytes=1000",
        f"{0.03 + a:.9f} B rx_ok DATA to=x from=y seq=0 retry=0 bytes=1000 snr_db=30",
        f"{0.03 + a + 70e-6:.9f} B tx DATA to=x from=y seq=0 retry=0 bytes=1000",    # after a good frame
    ]
    trace = tmp_path / "t.trace"
    trace.write_text("\n".join(sorted(lines, key=lambda l: float(l.split()[0]))) + "\n")
    counted, early, least = run_ns3.eifs_after_busy(trace, "B", 364e-6, 50e-6)
    assert (counted, early) == (2, 1) and abs(least - 70e-6) < 1e-8


@needs_venv
@needs_build
def test_the_relay_admits_the_gateways_packets_for_a_into_places_its_acks_free(tmp_path):
    """relay_admission.py on 15 s of the UDP chain's seed 1 (ns-3's sources): ns-3 keeps an
    MPDU queued until its ACK, so B's full queue frees a place at each of B's ACKs, and a
    few per cent of the gateway's packets for A that reach B land in it before B's own
    source refills it (over 120 s, seeds 1-3: 1785, 1809, 1749; the uniform-phase prediction
    1770, 1753, 1762). Every place freed follows an ACK (B has no expiries or drops). And
    --queue-trace only adds lines: without it the trace is what the other readers know."""
    import relay_admission
    binary = run_ns3.build_ns3(tmp_path / "wmnsim_ns3")
    wmnsim = run_ns3.wmnsim_module(BUILD)
    spec = run_ns3.spec_for(relay_admission.SCENARIO, 1, wmnsim, ["/simulation/duration_s=15"])
    capacity, period = relay_admission.spec_numbers(spec, "B")
    assert capacity == 50 and round(period * 1e6, 2) == 535.27
    traced, plain = tmp_path / "queue.trace", tmp_path / "plain.trace"
    run_ns3.run_ns3(binary, spec, traced, ("--queue-trace",))
    run_ns3.run_ns3(binary, spec, plain)
    with traced.open() as lines:
        r = relay_admission.analyse(lines, "B", "GW>A", capacity, period)
    admitted = sum(f["taker"] == "GW>A" for f in r["frees"])
    assert r["reaching"] > 1500 and 0.05 < admitted / r["reaching"] < 0.15, (admitted, r["reaching"])
    assert abs(r["predicted"] - admitted) < 0.2 * admitted, (r["predicted"], admitted)
    assert len(r["frees"]) > 5000 and {f["cause"] for f in r["frees"]} == {relay_admission.ACK}
    assert (r["expired"], r["dropped_after_dequeue"], r["retry_limit_drops"]) == (0, 0, 0)
    queue_events = ("ip_tx", "tc_drop", "q_enqueue", "q_dequeue", "q_drop_after_dequeue", "q_drop_before_enqueue",
                    "q_expired", "q_after_dequeue")
    kept = [l for l in traced.read_text().splitlines() if l.split()[2] not in queue_events]
    assert kept == plain.read_text().splitlines()
