"""pcap traces read back by tshark (docs/traces.md): every frame of a UDP and a TCP
run, per channel and per node, dissects without a malformed-packet or error-level
expert item, and tshark's per-flow counts match wmnsim's results.

Counts, per flow (docs/results.md):
  delivered_packets  data frames decoded by the destination's radio, addressed to it
                     (RA) and to its node (IP destination), less the MAC duplicates
                     (Retry set and the sequence number of the last frame from that
                     transmitter and TID: the receiver's filter, IEEE 802.11-2012
                     9.3.2.10)
  sent_packets       first transmissions (Retry clear) of the source's data frames, in
                     the source's trace and in the channel's; the flows stop early, so
                     nothing sent is still queued at the end
Also: tracing leaves the run's event fingerprint as it is, and the channel trace
holds exactly the frames the node traces list as transmitted.

Run by ctest (test `pcap_tshark`) with WMNSIM_BIN; skipped only when tshark is absent.
"""
import collections
import json
import os
import pathlib
import re
import shutil
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
WMNSIM = os.environ.get("WMNSIM_BIN", str(ROOT / "build" / "ci" / "cli" / "wmnsim"))
TSHARK = shutil.which("tshark")
# CI must run this check (scripts/setup.sh installs tshark): there a missing tshark fails.
if TSHARK is None and os.environ.get("CI"):
    raise RuntimeError("tshark is not installed, and CI is set: run scripts/setup.sh")
pytestmark = pytest.mark.skipif(TSHARK is None, reason="tshark is not installed (scripts/setup.sh installs it)")

NODES = ["A", "B", "C"]  # one radio each: radio index = node index


def radio_mac(i):  # trace/addresses.hpp
    return "02:00:00:%02x:%02x:%02x" % ((i >> 16) & 0xff, (i >> 8) & 0xff, i & 0xff)


def node_ip(i):
    n = i + 1
    return "10.%d.%d.%d" % ((n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff)


def data_ports(flow):  # trace/ip_datagram.hpp
    return 40000 + flow % 10000, 50000 + flow % 10000


def scenario(transport, mac_type, rts):
    """A - B - C, 90 m apart: C hears A only at the basic rate, so A -> C goes through B."""
    flows = [{"id": "f_ac", "transport": transport, "src": "A", "dst": "C", "start_s": 0.1, "stop_s": 2.0,
              "payload_bytes": 1000},
             {"id": "f_cb", "transport": transport, "src": "C", "dst": "B", "start_s": 0.2, "stop_s": 2.0,
              "payload_bytes": 600}]
    if transport == "udp":
        for f in flows:
            f["traffic"] = {"type": "cbr", "rate_bps": 400000}
    doc = {
        "simulation": {"duration_s": 3, "seed": 3},
        "phy": {"standard": "802.11b", "data_rate_bps": 11000000, "basic_rate_bps": 1000000},
        # Queues that never overflow: every packet a source sends goes on the air.
        "mac": {"type": mac_type, "rts_threshold_bytes": rts, "queue": {"capacity_packets": 1000}},
        "nodes": [{"id": n, "position_m": [90 * i, 0]} for i, n in enumerate(NODES)],
        "routing": {"type": "auto", "metric": "hop_count"},
        "flows": flows,
    }
    return doc


def run(tmp_path, doc, name, fingerprint=False):
    f = tmp_path / f"{name}.json"
    f.write_text(json.dumps(doc))
    out = tmp_path / f"{name}.results.json"
    args = [WMNSIM, "run", str(f), "-o", str(out)] + (["--fingerprint"] if fingerprint else [])
    r = subprocess.run(args, capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert r.returncode == 0, r.stderr
    m = re.search(r"event_fingerprint: (\S+)", r.stdout)
    return json.loads(out.read_text()), (m.group(1) if m else None)


FIELDS = ["frame.number", "wlan.fc.type_subtype", "wlan.fc.retry", "wlan.seq", "wlan.ra", "wlan.ta",
          "wlan.qos.tid", "ip.src", "ip.dst", "udp.srcport", "udp.dstport", "tcp.srcport", "tcp.dstport",
          "tcp.len", "radiotap.txpower", "_ws.malformed", "_ws.expert.severity"]
PI_ERROR = 0x00800000  # Wireshark's expert severity "Error" (epan/proto.h)


def tshark_rows(path):
    r = subprocess.run([TSHARK, "-r", str(path), "-T", "fields", "-E", "separator=|", "-E", "occurrence=a",
                        "-E", "aggregator=;"] + sum((["-e", f] for f in FIELDS), []),
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    rows = []
    for line in r.stdout.splitlines():
        values = line.split("|")
        assert len(values) == len(FIELDS), line
        rows.append(dict(zip(FIELDS, values)))
    return rows


def assert_clean(path, rows):
    assert rows, f"{path.name}: no frame"
    for row in rows:
        assert row["_ws.malformed"] == "", f"{path.name} frame {row['frame.number']} is malformed: {row}"
        severities = [int(s, 0) for s in row["_ws.expert.severity"].split(";") if s]
        assert all(s < PI_ERROR for s in severities), f"{path.name} frame {row['frame.number']}: {row}"


def is_data(row):
    return row["wlan.fc.type_subtype"] in ("32", "40", "0x0020", "0x0028")  # Data, QoS Data


def flow_port(row, which):
    return row[f"udp.{which}"] or row[f"tcp.{which}"]


def carries_data(row, transport):
    return transport == "udp" or (row["tcp.len"] not in ("", "0"))


def delivered_count(rows, flow, dst, transport):
    """Data frames the destination's MAC accepts, as its duplicate filter does."""
    last = {}
    count = 0
    for row in rows:
        if not is_data(row) or row["wlan.ra"] != radio_mac(dst) or row["radiotap.txpower"]:
            continue
        key = (row["wlan.ta"], row["wlan.qos.tid"])
        seq, retry = int(row["wlan.seq"]), row["wlan.fc.retry"] in ("1", "True")
        duplicate = key in last and retry and last[key] == seq
        last[key] = seq
        if duplicate:
            continue
        if row["ip.dst"] == node_ip(dst) and flow_port(row, "dstport") == str(data_ports(flow)[1]) \
                and carries_data(row, transport):
            count += 1
    return count


def sent_count(rows, flow, src, transport):
    """First transmissions of the flow's data by the source."""
    return sum(1 for row in rows
               if is_data(row) and row["wlan.ta"] == radio_mac(src) and row["wlan.fc.retry"] in ("0", "False")
               and row["ip.src"] == node_ip(src) and flow_port(row, "srcport") == str(data_ports(flow)[0])
               and carries_data(row, transport))


@pytest.mark.parametrize("transport,mac_type,rts", [("udp", "edca", 300), ("tcp", "dcf", "off")])
def test_traces_dissect_and_count_like_the_results(tmp_path, transport, mac_type, rts):
    plain = scenario(transport, mac_type, rts)
    _, fingerprint_plain = run(tmp_path, plain, "plain", fingerprint=True)

    per_node = json.loads(json.dumps(plain))
    per_node["outputs"] = {"pcap": {"path": "node", "per": "node", "snap_length": 128}}
    results, fingerprint_node = run(tmp_path, per_node, "per_node", fingerprint=True)
    per_channel = json.loads(json.dumps(plain))
    per_channel["outputs"] = {"pcap": {"path": "air"}}
    results_channel, _ = run(tmp_path, per_channel, "per_channel")
    # Tracing only reads: the same events, the same results.
    assert fingerprint_node == fingerprint_plain and fingerprint_plain is not None
    assert results_channel["flows"] == results["flows"]

    node_rows = {}
    for i, n in enumerate(NODES):
        path = tmp_path / f"node-{n}.pcap"
        node_rows[i] = tshark_rows(path)
        assert_clean(path, node_rows[i])
    channel = tmp_path / "air-ch6.pcap"
    channel_rows = tshark_rows(channel)
    assert_clean(channel, channel_rows)
    assert sorted(p.name for p in tmp_path.glob("*.pcap")) == ["air-ch6.pcap", "node-A.pcap", "node-B.pcap",
                                                               "node-C.pcap"]
    assert not list(tmp_path.glob(".*tmp*")), "temporary files left behind"

    # The channel trace is every transmission, which the node traces list as theirs.
    transmitted = sum(1 for rows in node_rows.values() for row in rows if row["radiotap.txpower"])
    assert len(channel_rows) == transmitted
    kinds = collections.Counter(row["wlan.fc.type_subtype"] for row in channel_rows)
    assert len(kinds) >= 2, kinds  # data and ACK at least (RTS/CTS too under the RTS threshold)

    assert results["summary"]["drops"]["queue_overflow"] == 0
    for k, flow in enumerate(results["flows"]):
        src, dst = NODES.index(flow["src"]), NODES.index(flow["dst"])
        assert flow["delivered_packets"] > 0, flow
        assert delivered_count(node_rows[dst], k, dst, transport) == flow["delivered_packets"], flow
        assert sent_count(node_rows[src], k, src, transport) == flow["sent_packets"], flow
        assert sent_count(channel_rows, k, src, transport) == flow["sent_packets"], flow


# ---- failed receptions (docs/traces.md "Failed receptions") ------------------------

FLAGSHIP = ROOT / "scenarios" / "two_hop_chain_tcp.json"
FAILED_FIELDS = ["frame.number", "frame.comment", "radiotap.flags.badfcs", "wlan.fcs.status", "wlan.ta", "wlan.ra",
                 "wlan.fc.type_subtype", "ip.src", "_ws.malformed"]


def tshark_table(path, fields, *options):
    r = subprocess.run([TSHARK, "-r", str(path), *options, "-T", "fields", "-E", "separator=|", "-E", "occurrence=f"]
                       + sum((["-e", f] for f in fields), []), capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return [dict(zip(fields, line.split("|"))) for line in r.stdout.splitlines()]


def flagship(duration_s, pcap=None):
    doc = json.loads(FLAGSHIP.read_text())
    doc.pop("$schema", None)
    doc["simulation"]["duration_s"] = duration_s
    if pcap is not None:
        doc["outputs"]["pcap"] = pcap
    return doc


def test_flagship_relay_capture_shows_the_hidden_senders_collided_frames(tmp_path):
    """000's mechanism, seen in B's capture: A's data frames lost at B, each with
    the bad-FCS flag and a comment naming GW, the hidden sender whose frame
    overlapped it; every lost frame the MAC counts as an error is there."""
    _, fingerprint_plain = run(tmp_path, flagship(20), "plain", fingerprint=True)
    pcap = {"path": "trace", "per": "node", "failed": "decoded-header"}  # whole frames: their FCS
    results, fingerprint_traced = run(tmp_path, flagship(20, pcap), "traced", fingerprint=True)
    assert fingerprint_traced == fingerprint_plain and fingerprint_plain is not None
    assert sorted(p.name for p in tmp_path.glob("trace-*")) == ["trace-A.pcapng", "trace-B.pcapng",
                                                                 "trace-GW.pcapng"]
    # Wireshark checks the FCS when asked (status 0 bad, 1 good).
    rows = tshark_table(tmp_path / "trace-B.pcapng", FAILED_FIELDS, "-o", "wlan.check_checksum:TRUE")
    a, b = radio_mac(0), radio_mac(1)
    failed = [r for r in rows if r["radiotap.flags.badfcs"] in ("1", "True")]
    assert failed, "no failed frame in B's capture"
    for r in rows:
        # A bad-FCS frame, and only one, carries the cause; its FCS does not check,
        # which is all tshark finds wrong with it (an error of its group Malformed).
        assert (r["frame.comment"] != "") == (r in failed), r
        assert r["wlan.fcs.status"] == ("0" if r in failed else "1"), r
        assert (r["_ws.malformed"] != "") == (r in failed), r
    for r in failed:
        assert r["frame.comment"].startswith("failed: "), r
    from_a = [r for r in failed if r["wlan.ta"] == a and r["wlan.ra"] == b and r["ip.src"] == node_ip(0)]
    assert len(from_a) >= 10, f"{len(from_a)} of A's data frames failed at B"
    assert all(r["frame.comment"] == "failed: collision, interferer GW" for r in from_a), from_a[:3]
    # The MAC counts an error for each lost frame it locked onto (its radio did not
    # transmit meanwhile): as many as the capture lists with another cause.
    radio_b = next(r for r in results["radios"] if r["node"] == "B")
    not_own = [r for r in failed if r["frame.comment"] != "failed: own transmission"]
    assert len(not_own) == radio_b["rx_errors"], (len(not_own), radio_b["rx_errors"])
    # A Wireshark filter finds them.
    chosen = tshark_table(tmp_path / "trace-B.pcapng", ["frame.number"],
                          "-Y", 'frame.comment contains "interferer GW" && wlan.ta == %s' % a)
    assert len(chosen) == len([r for r in failed if r["wlan.ta"] == a and "interferer GW" in r["frame.comment"]])


def test_all_failed_frames_add_those_never_locked_onto(tmp_path):
    """failed: "all" adds, at B, GW's frames that arrived while B received A's
    (never locked onto, interferer A); per channel, the channel's file gains the
    traced receivers' failed frames beside every transmission."""
    pcap = {"path": "node", "per": "node", "failed": "all", "nodes": ["B"]}
    run(tmp_path, flagship(10, pcap), "all")
    pcap_header = {"path": "hdr", "per": "node", "failed": "decoded-header", "nodes": ["B"]}
    run(tmp_path, flagship(10, pcap_header), "header")
    every = tshark_table(tmp_path / "node-B.pcapng", FAILED_FIELDS)
    header = tshark_table(tmp_path / "hdr-B.pcapng", FAILED_FIELDS)
    not_locked = [r for r in every if r["frame.comment"].startswith("not locked: ")]
    assert not_locked and all(r["radiotap.flags.badfcs"] in ("1", "True") for r in not_locked)
    assert any(r["frame.comment"] == "not locked: collision, interferer A" and r["wlan.ta"] == radio_mac(2)
               for r in not_locked)
    # The rest is the decoded-header capture, record for record.
    key = lambda r: (r["frame.comment"], r["wlan.ta"], r["wlan.ra"], r["wlan.fc.type_subtype"])
    assert [key(r) for r in every if r not in not_locked] == [key(r) for r in header]

    per_channel = {"path": "air", "failed": "decoded-header"}
    run(tmp_path, flagship(10, per_channel), "channel")
    plain_channel = {"path": "plain", "format": "pcapng"}
    run(tmp_path, flagship(10, plain_channel), "plain_channel")
    channel = tshark_table(tmp_path / "air-ch6.pcapng", FAILED_FIELDS)
    plain = tshark_table(tmp_path / "plain-ch6.pcapng", FAILED_FIELDS)
    failed = [r for r in channel if r["frame.comment"]]
    assert failed and all(r["frame.comment"].startswith("failed: ") for r in failed)
    assert [key(r) for r in channel if not r["frame.comment"]] == [key(r) for r in plain]


# ---- pcapng: interfaces and names per node (docs/traces.md "pcapng") ---------------

def name_records(path):
    """The (kind, address octets, name) entries of the file's Name Resolution Blocks."""
    data = path.read_bytes()
    out, at = [], 0
    while at < len(data):
        kind, length = int.from_bytes(data[at:at + 4], "little"), int.from_bytes(data[at + 4:at + 8], "little")
        if kind == 4:
            r = at + 8
            while True:
                rtype, rlen = int.from_bytes(data[r:r + 2], "little"), int.from_bytes(data[r + 2:r + 4], "little")
                if rtype == 0:
                    break
                value = data[r + 4:r + 4 + rlen]
                octets = 4 if rtype == 1 else 6
                out.append((rtype, value[:octets], value[octets:].rstrip(b"\0").decode()))
                r += 4 + rlen + (-rlen) % 4
        at += length
    return out


def test_pcapng_names_interfaces_and_addresses_by_node(tmp_path):
    doc = scenario("udp", "dcf", "off")
    doc["outputs"] = {"pcap": {"path": "node", "per": "node", "format": "pcapng"}}
    run(tmp_path, doc, "ng")
    doc["outputs"] = {"pcap": {"path": "node", "per": "node"}}
    run(tmp_path, doc, "classic")
    doc["outputs"] = {"pcap": {"path": "air", "format": "pcapng", "failed": "all"}}
    run(tmp_path, doc, "channel")
    for i, n in enumerate(NODES):
        ng = tmp_path / f"node-{n}.pcapng"
        # The same frames as the classic file, each on the node's one interface.
        assert tshark_rows(ng) == tshark_rows(tmp_path / f"node-{n}.pcap")
        names = tshark_table(ng, ["frame.interface_name"])
        assert {r["frame.interface_name"] for r in names} == {n}
        # Every node's IPv4 address and every radio's MAC address carry its id.
        expected = set()
        for k, m in enumerate(NODES):
            expected |= {(1, bytes(int(x) for x in node_ip(k).split(".")), m),
                         (3, bytes.fromhex(radio_mac(k).replace(":", "")), m)}
        assert set(name_records(ng)) == expected
        # tshark resolves the IPv4 addresses with them (-N n).
        hosts = tshark_table(ng, ["ip.src", "ip.src_host", "ip.dst", "ip.dst_host"], "-N", "n")
        for r in hosts:
            if r["ip.src"]:
                assert r["ip.src_host"] == NODES[[node_ip(k) for k in range(3)].index(r["ip.src"])], r
                assert r["ip.dst_host"] == NODES[[node_ip(k) for k in range(3)].index(r["ip.dst"])], r
    # Per channel: an interface per node; a transmission on its transmitter's, a
    # failed frame on its receiver's.
    rows = tshark_table(tmp_path / "air-ch6.pcapng", ["frame.interface_name", "frame.comment", "wlan.ta",
                                                      "radiotap.txpower"])
    assert {r["frame.interface_name"] for r in rows} == set(NODES)
    sent = [r for r in rows if not r["frame.comment"]]
    assert sent and all(r["radiotap.txpower"] for r in sent)
    for r in sent:
        if r["wlan.ta"]:
            assert r["frame.interface_name"] == NODES[[radio_mac(k) for k in range(3)].index(r["wlan.ta"])], r
    failed = [r for r in rows if r["frame.comment"]]
    assert failed and not any(r["radiotap.txpower"] for r in failed)
    assert all(r["frame.interface_name"] != NODES[[radio_mac(k) for k in range(3)].index(r["wlan.ta"])]
               for r in failed if r["wlan.ta"])


def test_data_records_are_as_long_as_the_simulator_times_them(tmp_path):
    """Wireshark computes each frame's duration from its length and rate: with data
    records as long as the simulated MPDU, the gap it shows between a data frame B
    decodes and B's ACK is the scenario's SIFS (10 us in the flagship), in B's
    capture exactly (the radiotap TSFT is whole microseconds, both times at B)."""
    run(tmp_path, flagship(3, {"path": "t", "per": "node", "nodes": ["B"]}), "sifs")
    rows = tshark_table(tmp_path / "t-B.pcap", ["wlan.fc.type_subtype", "wlan.ra", "radiotap.txpower",
                                                "wlan_radio.ifs", "wlan_radio.duration"],
                        "-o", "wlan_radio.tsf_at_end:FALSE", "-o", "wlan_radio.timeline:TRUE")
    b = radio_mac(1)
    gaps = [row["wlan_radio.ifs"] for prev, row in zip(rows, rows[1:])
            if row["wlan.fc.type_subtype"] == "0x001d" and row["radiotap.txpower"]
            and prev["wlan.fc.type_subtype"] == "0x0020" and prev["wlan.ra"] == b and not prev["radiotap.txpower"]]
    assert len(gaps) > 100
    assert set(gaps) == {"10"}, collections.Counter(gaps)


def test_every_tcp_segment_carries_the_ack_flag(tmp_path):
    """RFC 793 3.1, as Wireshark expects: past the opening SYN every segment has
    ACK set, the data sender's too (no SYN in these flows)."""
    run(tmp_path, flagship(3, {"path": "t", "per": "node", "nodes": ["A"], "snap_length": 128}), "flags")
    rows = tshark_table(tmp_path / "t-A.pcap", ["tcp.len", "tcp.flags.ack", "tcp.flags.syn"], "-Y", "tcp")
    data = [r for r in rows if r["tcp.len"] not in ("", "0")]
    assert len(data) > 100 and len(rows) > len(data)  # A's data segments and the ACKs it forwards or gets
    assert all(r["tcp.flags.ack"] in ("1", "True") for r in rows), collections.Counter(r["tcp.flags.ack"] for r in rows)


def wired_scenario(pcap):
    """H = GW ~ A: a host behind a 10 Mbit/s, 2 ms wired link to the gateway, one
    TCP flow from H down to A and one UDP flow up from A to H."""
    return {
        "simulation": {"duration_s": 1.5, "seed": 2},
        "phy": {"standard": "802.11b", "data_rate_bps": 11000000, "basic_rate_bps": 1000000},
        "nodes": [{"id": "A", "position_m": [0, 0]}, {"id": "GW", "role": "gateway", "position_m": [40, 0]},
                  {"id": "H", "role": "host"}],
        "links": [{"nodes": ["GW", "H"], "rate_bps": 10000000, "delay_s": 0.002}],
        "routing": {"type": "auto", "metric": "hop_count"},
        "flows": [{"id": "down", "transport": "tcp", "src": "H", "dst": "A", "start_s": 0.1, "stop_s": 1.2},
                  {"id": "up", "transport": "udp", "src": "A", "dst": "H", "start_s": 0.2, "stop_s": 1.2,
                   "payload_bytes": 500, "traffic": {"type": "cbr", "rate_bps": 200000}}],
        "outputs": {"pcap": pcap},
    }


WIRED_FIELDS = ["frame.number", "frame.time_epoch", "frame.len", "frame.interface_name", "ip.src", "ip.dst",
                "tcp.len", "udp.length", "_ws.malformed", "_ws.expert.severity"]


def test_wired_links_are_traced_as_ip_datagrams_at_their_first_bit(tmp_path):
    """The gateway's uplink in <path>-wired.pcapng: raw IPv4 (link type 101), an
    interface per direction, every data segment the host's TCP sent and every
    datagram A's UDP flow sent that crossed the wire, each timed at the start of
    its serialization; tracing leaves the run's events as they are."""
    doc = wired_scenario({"path": "trace", "per": "node", "format": "pcapng", "nodes": ["GW"]})
    results, traced = run(tmp_path, doc, "traced", fingerprint=True)
    plain_doc = wired_scenario({"path": "x"})
    del plain_doc["outputs"]["pcap"]
    _, plain = run(tmp_path, plain_doc, "plain", fingerprint=True)
    assert traced == plain and plain is not None
    assert sorted(p.name for p in tmp_path.glob("trace-*")) == ["trace-GW.pcapng", "trace-wired.pcapng"]
    path = tmp_path / "trace-wired.pcapng"
    rows = tshark_table(path, WIRED_FIELDS)
    assert_clean(path, rows)
    info = subprocess.run(["capinfos", "-E", str(path)], capture_output=True, text=True)
    if info.returncode == 0:  # capinfos comes with tshark's package on Debian
        assert "Raw IP" in info.stdout, info.stdout
    host, gw, a = node_ip(2), node_ip(1), node_ip(0)
    assert {r["frame.interface_name"] for r in rows} == {"GW->H", "H->GW"}
    down = [r for r in rows if r["frame.interface_name"] == "H->GW"]
    up = [r for r in rows if r["frame.interface_name"] == "GW->H"]
    assert all(r["ip.src"] == host and r["ip.dst"] == a for r in down)
    assert all(r["ip.dst"] == host for r in up)
    flows = {f["id"]: f for f in results["flows"]}
    # The wire drops nothing here: every data segment the host sent is on it once,
    # and every datagram of A that reached the gateway went on to H.
    data_down = [r for r in down if r["tcp.len"] not in ("", "0")]
    assert len(data_down) == flows["down"]["sent_packets"], (len(data_down), flows["down"])
    udp_up = [r for r in up if r["udp.length"] != ""]
    assert len(udp_up) == flows["up"]["delivered_packets"] > 0, (len(udp_up), flows["up"])
    # Timed at the first bit: the host's first segment starts at the flow's start,
    # and a direction's records are at least a serialization time apart.
    assert abs(float(down[0]["frame.time_epoch"]) - 0.1) < 1e-9, down[0]
    for before, after in zip(down, down[1:]):
        gap = float(after["frame.time_epoch"]) - float(before["frame.time_epoch"])
        assert gap >= int(before["frame.len"]) * 8 / 10e6 - 1e-9, (before, after)
    # Both directions in one file, in time order (each written as it starts).
    times = [float(r["frame.time_epoch"]) for r in rows]
    assert times == sorted(times)


HANDSHAKE_FIELDS = ["frame.number", "frame.time_epoch", "ip.src", "ip.dst", "wlan.ta", "wlan.fc.retry", "tcp.srcport",
                    "tcp.flags.syn", "tcp.flags.ack", "tcp.flags.fin", "tcp.seq", "tcp.seq_raw", "tcp.ack_raw",
                    "tcp.len", "_ws.malformed", "_ws.expert.severity"]


def flag(row, name):
    return row[f"tcp.flags.{name}"] in ("1", "True")


@pytest.mark.parametrize("transport", ["tcp", "wccp"])
def test_a_handshake_flow_opens_and_closes_on_the_air(tmp_path, transport):
    """`"handshake": true`: A's capture starts A's flow with a SYN (the initial
    sequence number 2^32 - 1, no ACK flag), C's SYN-ACK and A's ACK, data from
    Wireshark's relative sequence number 1, and ends it with A's FIN, C's FIN-ACK
    and A's last ACK; the results count the handshake's segments in
    no packet count (they carry no data): tx_packets equals sent_packets."""
    doc = scenario(transport, "dcf", 2347)
    for f in doc["flows"]:
        f[transport] = {"handshake": True}
    doc["outputs"] = {"pcap": {"path": "t", "per": "node", "nodes": ["A"]}}
    results, _ = run(tmp_path, doc, "hs")
    path = tmp_path / "t-A.pcap"
    rows = tshark_table(path, HANDSHAKE_FIELDS, "-Y", "tcp")
    assert_clean(path, rows)
    src, dst = data_ports(0)
    a, c = node_ip(0), node_ip(2)
    # What A sent first (Retry clear) and what it got from C, in order.
    mine = [r for r in rows if r["ip.src"] == a and r["tcp.srcport"] == str(src) and r["wlan.ta"] == radio_mac(0)
            and r["wlan.fc.retry"] in ("0", "False")]
    theirs = [r for r in rows if r["ip.src"] == c and r["tcp.srcport"] == str(dst)]
    assert flag(mine[0], "syn") and not flag(mine[0], "ack") and mine[0]["tcp.seq_raw"] == "4294967295", mine[0]
    assert flag(theirs[0], "syn") and flag(theirs[0], "ack") and theirs[0]["tcp.ack_raw"] == "0", theirs[0]
    assert not flag(mine[1], "syn") and mine[1]["tcp.len"] == "0" and flag(mine[1], "ack"), mine[1]
    assert mine[2]["tcp.len"] not in ("", "0") and mine[2]["tcp.seq"] == "1", mine[2]
    assert float(mine[0]["frame.time_epoch"]) < float(theirs[0]["frame.time_epoch"]) <= float(
        mine[1]["frame.time_epoch"])
    fins = [r for r in mine if flag(r, "fin")]
    fin_acks = [r for r in theirs if flag(r, "fin")]
    assert len(fins) == 1 and fin_acks, (fins, fin_acks)  # C's may reach A twice (B's MAC retries)
    assert float(fins[0]["frame.time_epoch"]) < float(fin_acks[0]["frame.time_epoch"])
    last = mine[-1]
    assert last["tcp.len"] == "0" and not flag(last, "fin") and last["tcp.ack_raw"] == "1", last
    flow = next(f for f in results["flows"] if f["id"] == "f_ac")
    assert flow["syn_retransmissions"] == 0 and flow["fin_retransmissions"] == 0
    assert 0 < flow["handshake_s"] < 0.1, flow
    # The flow's packet counts are of data: the handshake's segments carry none.
    assert flow["tx_packets"] == flow["sent_packets"], flow


SYNTHETIC = "synthetic: not simulated, no airtime"
SYNTHETIC_FIELDS = HANDSHAKE_FIELDS + ["frame.comment", "wlan.ra", "tcp.dstport", "tcp.window_size_value",
                                       "tcp.options.timestamp.tsval", "tcp.options.timestamp.tsecr"]


def connection_records(rows, ports, radio):
    """The flow's opening and close on the hop of `radio` (not those it overheard) as
    (sender?, flags, seq_raw, ack_raw, window, TSecr given) tuples: its first three
    segments and the three from its FIN on."""
    mac = radio_mac(radio)
    ours = [r for r in rows if (r["tcp.srcport"], r["tcp.dstport"]) in ports and mac in (r["wlan.ta"], r["wlan.ra"])]
    fin = next(i for i, r in enumerate(ours) if flag(r, "fin"))

    def fields(r):
        return (r["tcp.srcport"] == sorted(ports)[0][0], flag(r, "syn"), flag(r, "ack"), flag(r, "fin"),
                r["tcp.seq_raw"], r["tcp.ack_raw"], r["tcp.window_size_value"],
                r["tcp.options.timestamp.tsecr"] not in ("", "0"))
    return [fields(r) for r in ours[:3]], [fields(r) for r in ours[fin:fin + 3]]


@pytest.mark.parametrize("transport", ["tcp", "wccp"])
def test_a_synthetic_handshake_opens_and_closes_each_file_without_changing_the_run(tmp_path, transport):
    """`synthetic_handshake`: a flow without a handshake of its own gets one in
    each file, as records marked "synthetic: not simulated, no airtime": before its
    first record there, A's SYN (initial sequence number 2^32 - 1, no ACK flag),
    C's SYN-ACK and A's ACK, all at that record's time and on its hop (at B, the
    hop A -> B, addresses swapped for the SYN-ACK); when the transfer completes,
    A's FIN at the last byte, C's FIN-ACK and A's last ACK (ack 1). The run is the
    one without the trace: same event fingerprint, and its results count no
    synthetic segment."""
    doc = scenario(transport, "dcf", 2347)
    if transport == "tcp":
        for f in doc["flows"]:
            f["tcp"] = {"timestamps": True}
    doc["outputs"] = {"pcap": {"path": "t", "per": "node", "synthetic_handshake": True}}
    results, traced = run(tmp_path, doc, "syn", fingerprint=True)
    plain_doc = json.loads(json.dumps(doc))
    del plain_doc["outputs"]
    plain, untraced = run(tmp_path, plain_doc, "plain", fingerprint=True)
    assert traced == untraced and traced is not None
    assert [f["tx_packets"] for f in results["flows"]] == [f["tx_packets"] for f in plain["flows"]]
    flow = next(f for f in results["flows"] if f["id"] == "f_ac")
    last_byte = flow["delivered_packets"] * 1000  # every byte of the stopped transfer arrived
    src_port, dst_port = data_ports(0)
    ports = {(str(src_port), str(dst_port)), (str(dst_port), str(src_port))}
    a, c = node_ip(0), node_ip(2)
    for node in ["A", "B", "C"]:
        path = tmp_path / f"t-{node}.pcapng"
        rows = tshark_table(path, SYNTHETIC_FIELDS, "-Y", "tcp")
        assert_clean(path, rows)
        ours = [r for r in rows if (r["tcp.srcport"], r["tcp.dstport"]) in ports]
        synthetic = [r for r in ours if r["frame.comment"] == SYNTHETIC]
        assert len(synthetic) == 6, (node, synthetic)  # one opening and one close per file
        syn, syn_ack, ack = synthetic[:3]
        first_real = next(r for r in ours if r["frame.comment"] == "")
        assert ours[:3] == synthetic[:3], node  # before the flow's first record
        assert {r["frame.time_epoch"] for r in synthetic[:3]} == {first_real["frame.time_epoch"]}
        assert (syn["ip.src"], syn["ip.dst"]) == (a, c) and flag(syn, "syn") and not flag(syn, "ack")
        assert syn["tcp.seq_raw"] == "4294967295", syn
        assert (syn_ack["ip.src"], syn_ack["ip.dst"]) == (c, a) and flag(syn_ack, "syn") and flag(syn_ack, "ack")
        assert syn_ack["tcp.seq_raw"] == "4294967295" and syn_ack["tcp.ack_raw"] == "0", syn_ack
        assert not flag(ack, "syn") and flag(ack, "ack") and ack["tcp.len"] == "0", ack
        # On the hop of the file's first record of the flow, the SYN-ACK reversed.
        assert (syn["wlan.ta"], syn["wlan.ra"]) == (ack["wlan.ta"], ack["wlan.ra"])
        assert (syn_ack["wlan.ta"], syn_ack["wlan.ra"]) == (syn["wlan.ra"], syn["wlan.ta"])
        hop = (first_real["wlan.ta"], first_real["wlan.ra"])
        assert (syn["wlan.ta"], syn["wlan.ra"]) in (hop, hop[::-1])
        # Data then starts at Wireshark's relative sequence number 1.
        assert first_real["tcp.seq"] == "1" or first_real["ip.src"] == c, first_real
        fin, fin_ack, last = synthetic[3:]
        assert flag(fin, "fin") and fin["ip.src"] == a and int(fin["tcp.seq_raw"]) == last_byte, fin
        assert flag(fin_ack, "fin") and fin_ack["ip.src"] == c and int(fin_ack["tcp.ack_raw"]) == last_byte + 1
        assert not flag(last, "fin") and last["tcp.ack_raw"] == "1" and int(last["tcp.seq_raw"]) == last_byte + 1
        # At the completion: after every record of the flow's data in the file.
        assert all(float(r["frame.time_epoch"]) <= float(fin["frame.time_epoch"]) for r in ours)
        # The file stays in time order (a node that overheard the last ACK writes it
        # after the completion, with an earlier first bit: the close waits for it).
        every = tshark_table(path, ["frame.time_epoch"])
        times = [float(r["frame.time_epoch"]) for r in every]
        assert times == sorted(times), node
        if transport == "tcp":
            # No segment after the SYN has an older TSval (RFC 7323 5.3's PAWS).
            tsvals = [int(r["tcp.options.timestamp.tsval"]) for r in ours
                      if r["ip.src"] == a and r["tcp.options.timestamp.tsval"]]
            assert min(tsvals) == int(syn["tcp.options.timestamp.tsval"]), node
    # Field for field as the simulated handshake has them (timing and the close's
    # sequence numbers aside): flags, initial numbers, the receiver's window, TSecr.
    real_doc = json.loads(json.dumps(plain_doc))
    for f in real_doc["flows"]:
        f.setdefault(transport, {})["handshake"] = True
    real_doc["outputs"] = {"pcap": {"path": "real", "per": "node", "nodes": ["A"], "format": "pcapng"}}
    run(tmp_path, real_doc, "real")
    ports = {(str(src_port), str(dst_port)), (str(dst_port), str(src_port))}
    real_open, real_close = connection_records(
        tshark_table(tmp_path / "real-A.pcapng", SYNTHETIC_FIELDS, "-Y", "tcp && wlan.fc.retry == 0"), ports, 0)
    ours_open, ours_close = connection_records(tshark_table(tmp_path / "t-A.pcapng", SYNTHETIC_FIELDS, "-Y", "tcp"),
                                               ports, 0)
    assert ours_open == real_open
    strip = [t[:4] + t[6:] for t in ours_close]  # the FIN's numbers depend on the run's last byte
    assert strip == [t[:4] + t[6:] for t in real_close]


def test_a_synthetic_handshake_goes_on_the_wire_too_and_needs_pcapng(tmp_path):
    """The wired file gets the host's flow's synthetic opening on the wire direction
    of its first record (H->GW), and asking for it in a pcap file is refused at
    /outputs/pcap/format with exit 2."""
    doc = wired_scenario({"path": "trace", "per": "node", "nodes": ["GW"], "synthetic_handshake": True})
    run(tmp_path, doc, "wired")
    rows = tshark_table(tmp_path / "trace-wired.pcapng",
                        WIRED_FIELDS + ["frame.comment", "tcp.flags.syn", "tcp.flags.fin"])
    synthetic = [r for r in rows if r["frame.comment"] == SYNTHETIC]
    assert len(synthetic) >= 3 and synthetic[:3] == rows[:3], rows[:4]
    # Each on the direction it goes: H's segments H->GW, A's SYN-ACK GW->H.
    assert [r["frame.interface_name"] for r in synthetic[:3]] == ["H->GW", "GW->H", "H->GW"]
    assert [r["ip.src"] for r in synthetic[:3]] == [node_ip(2), node_ip(0), node_ip(2)]
    # The transfer stops at 1.2 s and completes: the close follows every TCP record,
    # three in a row, on the directions they go.
    assert len(synthetic) == 6, synthetic
    close_at = rows.index(synthetic[3])
    assert rows[close_at:close_at + 3] == synthetic[3:]
    assert [r["tcp.flags.fin"] in ("1", "True") for r in synthetic[3:]] == [True, True, False]
    assert [r["frame.interface_name"] for r in synthetic[3:]] == ["H->GW", "GW->H", "H->GW"]
    assert all(r["tcp.len"] == "" for r in rows[close_at + 3:]), rows[close_at + 3:]
    times = [float(r["frame.time_epoch"]) for r in rows]
    assert times == sorted(times)
    # The UDP flow gets none.
    assert all(r["udp.length"] == "" for r in synthetic)
    bad = wired_scenario({"path": "trace", "format": "pcap", "synthetic_handshake": True})
    f = tmp_path / "bad.json"
    f.write_text(json.dumps(bad))
    r = subprocess.run([WMNSIM, "run", str(f)], capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert r.returncode == 2 and "/outputs/pcap/format" in r.stderr and "pcapng" in r.stderr, r.stderr
