#!/usr/bin/python3
"""Validates every scenario in scenarios/ against scenarios/schema/scenario.schema.json.

Also checks the schema itself (Draft 2020-12 meta-schema) and that a handful of
broken documents are rejected, so the schema cannot silently accept everything.
Run with the system Python, which has Debian's python3-jsonschema:

    /usr/bin/python3 tests/scenarios/check_schema.py [SOURCE_DIR]

Prints one line per check and "N passed, N failed"; exits nonzero on any failure.
"""

import copy
import json
import pathlib
import re
import sys

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError

MINIMAL = {
    "simulation": {"duration_s": 10},
    "nodes": [
        {"id": "A", "position_m": [0, 0]},
        {"id": "GW", "position_m": [100, 0], "role": "gateway"},
    ],
    "flows": [{"id": "f1", "transport": "tcp", "src": "A", "dst": "GW"}],
}


def mutated(change):
    doc = copy.deepcopy(MINIMAL)
    change(doc)
    return doc


def set_path(doc, path, value):
    *parents, last = path
    for key in parents:
        doc = doc.setdefault(key, {}) if isinstance(doc, dict) else doc[key]
    doc[last] = value


# (name, document) pairs the schema must reject.
BAD_DOCUMENTS = [
    ("negative duration", mutated(lambda d: set_path(d, ["simulation", "duration_s"], -5))),
    ("missing duration", mutated(lambda d: d["simulation"].pop("duration_s"))),
    ("empty flows", mutated(lambda d: set_path(d, ["flows"], []))),
    ("no nodes at all", mutated(lambda d: d.pop("nodes"))),
    ("unknown top-level key", mutated(lambda d: set_path(d, ["flow"], []))),
    ("misspelt mac key", mutated(lambda d: set_path(d, ["mac"], {"cw_mni": 64}))),
    ("window not a power of two", mutated(lambda d: set_path(d, ["mac"], {"cw_min": 31}))),
    ("edca windows at the top of mac", mutated(lambda d: set_path(d, ["mac"], {"type": "edca", "cw_min": 16}))),
    ("pcap without a path", mutated(lambda d: set_path(d, ["outputs"], {"pcap": {"per": "node"}}))),
    ("pcap snap length below 64", mutated(lambda d: set_path(d, ["outputs"], {"pcap": {"path": "t", "snap_length": 10}}))),
    ("pcap per radio", mutated(lambda d: set_path(d, ["outputs"], {"pcap": {"path": "t", "per": "radio"}}))),
    ("pcap failed frames misnamed", mutated(lambda d: set_path(d, ["outputs"], {"pcap": {"path": "t", "failed": "some"}}))),
    ("pcap format misnamed", mutated(lambda d: set_path(d, ["outputs"], {"pcap": {"path": "t", "format": "ng"}}))),
    ("bad standard", mutated(lambda d: set_path(d, ["phy"], {"standard": "802.11n"}))),
    ("5 GHz channel on 802.11b", mutated(lambda d: set_path(d, ["phy"], {"channel": 36}))),
    ("OFDM rate on 802.11b", mutated(lambda d: set_path(d, ["phy"], {"data_rate_bps": 54000000}))),
    ("channel as text", mutated(lambda d: set_path(d, ["nodes", 0, "radios"], [{"channel": "six"}]))),
    ("range key on log_distance", mutated(lambda d: set_path(d, ["propagation"], {"rx_range_m": 250}))),
    ("host with a position", mutated(lambda d: d["nodes"].append({"id": "H", "role": "host", "position_m": [0, 0]}))),
    ("mesh node without position", mutated(lambda d: d["nodes"][0].pop("position_m"))),
    ("bad node id", mutated(lambda d: set_path(d, ["nodes", 0, "id"], "node A"))),
    ("tcp settings on a udp flow",
     mutated(lambda d: d["flows"][0].update({"transport": "udp", "tcp": {"variant": "reno"}}))),
    ("cbr without a rate", mutated(lambda d: set_path(d, ["flows", 0, "traffic"], {"type": "cbr"}))),
    ("both ends @gateway", mutated(lambda d: d["flows"][0].update({"src": "@gateway", "dst": "@gateway"}))),
    ("unknown controller", mutated(lambda d: set_path(d, ["controllers"], [{"type": "magic"}]))),
    ("probability above 1", mutated(lambda d: set_path(d, ["controllers"], [{"type": "lscc", "congestion_threshold": 1.5}]))),
    ("lscc key on tcc", mutated(lambda d: set_path(d, ["controllers"], [{"type": "tcc", "look_ahead_share": 0.1}]))),
    ("unknown time series", mutated(lambda d: set_path(d, ["outputs"], {"timeseries": ["goodput"]}))),
    ("metric with static routing", mutated(lambda d: set_path(d, ["routing"], {"type": "static", "metric": "airtime", "tables": {}}))),
    ("seed above 2^64-1", mutated(lambda d: set_path(d, ["simulation", "seed"], 18446744073709551616))),
    ("unknown queue discipline", mutated(lambda d: set_path(d, ["mac"], {"queue": {"discipline": "fifo"}}))),
    ("ack category on a udp flow",
     mutated(lambda d: d["flows"][0].update({"transport": "udp", "ack_access_category": "ac_vo"}))),
    ("queue lifetime of zero", mutated(lambda d: set_path(d, ["mac"], {"queue_lifetime_s": 0}))),
    ("negative shadowing seed",
     mutated(lambda d: set_path(d, ["propagation"], {"shadowing": {"sigma_db": 4, "seed": -1}}))),
    ("auto_rate without frame errors",
     mutated(lambda d: set_path(d, ["phy"], {"reception": {"model": "threshold"}, "auto_rate": {"max_fer": 0.1}}))),
]


class Report:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def check(self, ok, label, detail=""):
        if ok:
            self.passed += 1
            print(f"ok    {label}")
        else:
            self.failed += 1
            print(f"FAIL  {label}{': ' + detail if detail else ''}")


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parents[2])
    schema_path = root / "scenarios" / "schema" / "scenario.schema.json"
    report = Report()

    schema = json.loads(schema_path.read_text())
    try:
        Draft202012Validator.check_schema(schema)
        report.check(True, "schema is valid Draft 2020-12")
    except SchemaError as e:
        report.check(False, "schema is valid Draft 2020-12", e.message)
        print(f"{report.passed} passed, {report.failed} failed")
        return 1
    validator = Draft202012Validator(schema)

    report.check(validator.is_valid(MINIMAL), "minimal scenario is accepted",
                 "; ".join(e.message for e in validator.iter_errors(MINIMAL)))

    files = sorted(p for p in (root / "scenarios").rglob("*.json")
                   if p.parent.name != "schema" and "reproduction" not in p.parts
                   and not p.name.endswith((".reference.json", ".sweep.json")))
    report.check(len(files) > 0, "scenario files found")
    for path in files:
        label = str(path.relative_to(root))
        try:
            doc = json.loads(path.read_text())
        except json.JSONDecodeError as e:
            report.check(False, label, f"invalid JSON: {e}")
            continue
        errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
        detail = "; ".join(f"/{'/'.join(map(str, e.absolute_path))}: {e.message[:200]}" for e in errors[:5])
        report.check(not errors, label, detail)

    # The complete examples in docs/scenario.md must validate too.
    docs = root / "docs" / "scenario.md"
    examples = re.findall(r"```json\n(.*?)```", docs.read_text(), re.S) if docs.exists() else []
    report.check(len(examples) >= 2, "docs/scenario.md has examples")
    for i, text in enumerate(examples):
        doc = json.loads(text)
        errors = list(validator.iter_errors(doc))
        report.check(not errors, f"docs/scenario.md example {i}", "; ".join(e.message[:200] for e in errors[:5]))

    for name, doc in BAD_DOCUMENTS:
        report.check(not validator.is_valid(doc), f"rejects: {name}", "the schema accepted it")

    print(f"{report.passed} passed, {report.failed} failed")
    return 0 if report.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
