"""wmnsim.Result from a results document (docs/results.md): tables, time series, files."""
import json

import pandas as pd
import pytest

import wmnsim
from conftest import SAMPLE_RESULTS


@pytest.fixture
def result():
    return wmnsim.Result.from_json(SAMPLE_RESULTS)


def test_from_path_text_and_dict_agree(result, sample_results_doc):
    assert wmnsim.Result.from_json(str(SAMPLE_RESULTS)).to_dict() == sample_results_doc
    assert wmnsim.Result.from_json(SAMPLE_RESULTS.read_text()).to_dict() == sample_results_doc
    assert wmnsim.Result.from_json(sample_results_doc).to_dict() == sample_results_doc
    assert result.seed == 7 and result.simulated_time_s == 3.0 and not result.interrupted
    assert result.event_fingerprint == "3f2a9c0d5e6b7a81"
    assert result.wall_clock["wall_time_s"] == 0.05
    assert result.version == {"version": "0.1.0", "build_type": "Release"}
    assert result.scenario.to_dict()["simulation"]["duration_s"] == 3
    assert "2 flows" in repr(result)


def test_flows_and_nodes_are_dataframes_in_file_order(result):
    flows = result.flows
    assert isinstance(flows, pd.DataFrame)
    assert list(flows.columns) == ["id", "src", "dst", "transport", "goodput_bps", "packets_delivered", "route"]
    assert list(flows["id"]) == ["A_to_GW", "B_to_GW"]
    assert flows.set_index("id").loc["B_to_GW", "goodput_bps"] == 3900000.25
    assert flows["packets_delivered"].dtype.kind == "i"
    nodes = result.nodes
    assert list(nodes["id"]) == ["A", "B", "GW"] and nodes["drops"].sum() == 12
    flows.loc[0, "goodput_bps"] = 0  # a copy: the result is unchanged
    assert result.flows.loc[0, "goodput_bps"] == 240000.5


def test_summary_is_a_dict(result):
    assert result.summary == {"jain_fairness_index": 0.5523, "utilization": 0.71, "packets_lost": 12}


def test_timeseries_long_form(result):
    assert result.timeseries_kinds == ["flow_goodput", "tcp_cwnd"]
    g = result.timeseries("flow_goodput")
    assert list(g.columns) == ["time_s", "id", "value"] and len(g) == 6
    assert g.attrs == {"kind": "flow_goodput", "unit": "bit/s", "interval_s": 1.0}
    assert g["time_s"].dtype == "float64" and g["value"].dtype == "float64"
    wide = g.pivot(index="time_s", columns="id", values="value")
    assert wide.loc[2.0, "A_to_GW"] == 240000.0
    with pytest.raises(KeyError, match='did you mean "tcp_cwnd"'):
        result.timeseries("tcp_cwin")
    with pytest.raises(KeyError, match="recorded: flow_goodput, tcp_cwnd"):
        result.timeseries("drops")


def test_to_json_round_trips_byte_for_byte(result, tmp_path, sample_results_doc):
    first = tmp_path / "a.json"
    text = result.to_json(first)
    assert first.read_text() == text and text.endswith("}\n")
    assert json.loads(text) == sample_results_doc
    # Loading what we wrote and writing again gives the same bytes (nlohmann's dump(2),
    # as the CLI writes; key order kept).
    again = wmnsim.Result.from_json(first).to_json(tmp_path / "b.json")
    assert again == text == (tmp_path / "b.json").read_text()
    assert list(tmp_path.iterdir()) == [first, tmp_path / "b.json"] or sorted(tmp_path.iterdir()) == sorted(
        [first, tmp_path / "b.json"])  # no temporary files left
    with pytest.raises(OSError, match="cannot write"):
        result.to_json(tmp_path / "no" / "such" / "c.json")


def test_flows_csv_and_table_as_the_cli_writes_them(result, tmp_path):
    csv = result.flows_csv(tmp_path / "flows.csv")
    lines = csv.splitlines()
    assert lines[0] == "id,src,dst,transport,goodput_bps,packets_delivered,route"
    assert lines[1] == 'A_to_GW,A,GW,tcp,240000.5,61,"[""A"",""B"",""GW""]"'  # RFC 4180 quoting
    assert (tmp_path / "flows.csv").read_text() == csv
    back = pd.read_csv(tmp_path / "flows.csv")
    assert list(back["goodput_bps"]) == list(result.flows["goodput_bps"])
    wide = result.flow_table(wide=True)
    assert wide.splitlines()[0].split() == ["id", "src", "dst", "transport", "goodput_bps", "packets_delivered", "route"]
    assert "jain_fairness_index: 0.5523" in wide
    # Compact: the columns it knows, goodput in Mbit/s, a line saying how to see all.
    table = result.flow_table()
    lines = table.splitlines()
    assert lines[0].split() == ["id", "proto", "src", "dst", "Mbit/s", "route"]
    assert lines[1].split()[:5] == ["A_to_GW", "tcp", "A", "GW", "0.24"] and "--wide" in lines[3]
    assert "jain_fairness_index: 0.5523" in table


@pytest.mark.parametrize("change, message", [
    (lambda d: d.update(format="something-else"), "/format"),
    (lambda d: d.update(format_version=99), "newer"),
    (lambda d: d.update(flows={}), "/flows"),
    (lambda d: d["nodes"].append(3), "/nodes/3"),
    (lambda d: d["timeseries"]["tcp_cwnd"]["rows"].append([1.0, "x"]), "/timeseries/tcp_cwnd/rows/6"),
    (lambda d: d.pop("scenario"), "/scenario"),
])
def test_documents_that_are_not_results_are_refused(sample_results_doc, change, message):
    change(sample_results_doc)
    with pytest.raises(ValueError, match=message):
        wmnsim.Result.from_json(sample_results_doc)


def test_malformed_inputs_raise_not_crash(tmp_path):
    with pytest.raises(ValueError):
        wmnsim.Result.from_json("{ not json")
    with pytest.raises(OSError):
        wmnsim.Result.from_json(tmp_path / "missing.json")
    with pytest.raises(TypeError):
        wmnsim.Result.from_json(3)
    with pytest.raises(TypeError):
        wmnsim.Result("x")


def test_delay_histograms_of_both_format_versions(sample_results_doc):
    # Version 2 writes sparse [bin, count] pairs; version 1 files (a dense list from
    # bin 0) still read, as the same non-empty bins.
    v2 = dict(sample_results_doc, format_version=2,
              flow_delay_histograms=[{"flow": "A_to_GW", "bin_width_s": 0.001, "bins": [[1, 12], [100000, 1]]}])
    h = wmnsim.Result.from_json(v2).delay_histogram("A_to_GW")
    assert h["bin"].tolist() == [1, 100000] and h["count"].tolist() == [12, 1]
    assert h["delay_s"].tolist() == pytest.approx([0.001, 100.0]) and h.attrs["bin_width_s"] == 0.001
    v1 = dict(sample_results_doc, format_version=1,
              flow_delay_histograms=[{"flow": "A_to_GW", "bin_width_s": 0.001, "counts": [0, 12, 0, 3]}])
    h = wmnsim.Result.from_json(v1).delay_histogram("A_to_GW")
    assert h["bin"].tolist() == [1, 3] and h["count"].tolist() == [12, 3]
    with pytest.raises(KeyError, match="A_to_GW"):
        wmnsim.Result.from_json(v1).delay_histogram("nope")
    with pytest.raises(ValueError, match="newer"):
        wmnsim.Result.from_json(dict(sample_results_doc, format_version=3))


def test_hops_only_when_asked():
    """outputs.hops adds the per-hop table (docs/results.md, `hops`); without it
    result.hops is None and the results have no such key."""
    import wmnsim
    from conftest import FLAGSHIP

    plain = wmnsim.run(FLAGSHIP, seed=1, overrides={"/simulation/duration_s": 5})
    assert plain.hops is None and "hops" not in json.loads(plain.to_json())
    r = wmnsim.run(FLAGSHIP, seed=1, overrides={"/simulation/duration_s": 5, "/outputs/hops": True})
    hops = r.hops
    assert list(hops.columns[:4]) == ["flow", "direction", "node", "hop"]
    data = hops[(hops["flow"] == "B_to_GW") & (hops["direction"] == "data")]
    assert list(data["node"]) == ["B", "GW"] and list(data["hop"]) == [0, 1]
    flows = r.flows.set_index("id")
    for fid, rows in hops.groupby("flow"):
        assert rows["drops"].sum() == flows.loc[fid, "dropped_packets"]
    assert data["originated"].iloc[0] == flows.loc["B_to_GW", "tx_packets"]
