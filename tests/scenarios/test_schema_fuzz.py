"""The schema-driven fuzzer (fuzz/schema_sites.py, fuzz/schema_fuzz.py): it lists every key
of the composed schema, generates values at and beyond each limit, and its coverage check
fails for a key it cannot reach (docs/testing.md, "Schema-driven fuzzing")."""
from __future__ import annotations

import copy
import json
import os
import pathlib
import random
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "fuzz"))
import schema_sites as S  # noqa: E402

SCHEMA = json.loads((ROOT / "scenarios" / "schema" / "scenario.schema.json").read_text(encoding="utf-8"))


def names(schema):
    return {s.name for s in S.SchemaSites(schema).sites}


def test_every_controller_type_and_key_is_a_site():
    sites = names(SCHEMA)
    branches = SCHEMA["properties"]["controllers"]["items"]["oneOf"]
    assert len(branches) >= 7
    for branch in branches:
        kind = branch["properties"]["type"]["const"]
        for key in branch["properties"]:
            assert f"/controllers/*[type={kind}]/{key}" in sites, (kind, key)


def test_a_ref_is_a_site_at_every_place_that_refers_to_it():
    sites = names(SCHEMA)
    for place in ("/mac/queue", "/links/*/queue", "/nodes/*[role!=host]/mac/queue",
                  "/node_groups/*/radios/*/mac/queue"):
        for key in SCHEMA["$defs"]["queue"]["properties"]:
            assert f"{place}/{key}" in sites, (place, key)


def test_branches_of_if_then_are_sites_with_their_condition():
    sites = names(SCHEMA)
    assert "/phy[standard=802.11a]/data_rate_bps" in sites
    assert "/propagation[model=two_ray]/antenna_height_m" in sites
    assert "/flows/*[transport=tcp]/tcp/variant" in sites
    assert "/routing[type=static]/tables/{}(name)" in sites


def test_a_newly_registered_controller_type_is_listed():
    schema = copy.deepcopy(SCHEMA)
    schema["properties"]["controllers"]["items"]["oneOf"].append({
        "type": "object", "required": ["type"], "additionalProperties": False,
        "properties": {"type": {"const": "brand_new"}, "gain": {"type": "number", "minimum": 0, "maximum": 2}}})
    assert "/controllers/*[type=brand_new]/gain" in names(schema)
    assert "/controllers/*[type=brand_new]/gain" not in names(SCHEMA)


def test_values_at_inside_and_beyond_the_limits():
    got = {(json.dumps(v.value), v.why) for v in S.values({"type": "integer", "minimum": 1, "maximum": 10}, True, [])}
    for value, why in [("1", "at minimum"), ("0", "beyond minimum"), ("10", "at maximum"), ("11", "beyond maximum"),
                       ("5", "inside"), ("1.5", "not an integer"), ('"x"', "wrong type (string)"),
                       ("null", "missing required key")]:
        assert (value, why) in got, (value, why)
    got = {(json.dumps(v.value), v.why) for v in S.values({"type": "number", "exclusiveMinimum": 0}, False, [])}
    assert ("0", "at exclusiveMinimum (beyond)") in got
    got = {json.dumps(v.value) for v in S.values({"enum": ["fifo", "fq"]}, False, [])}
    assert {'"fifo"', '"fq"', '"FIFO_"'} <= got
    got = {json.dumps(v.value) for v in S.values({"type": "string", "pattern": "^[a-z]+$"}, False, [])}
    assert '"bad name/\\u00e9"' in got and '""' in got


def test_containers_and_conditions():
    site = next(s for s in S.SchemaSites(SCHEMA).sites if s.name == "/controllers/*[type=tcc]/nodes")
    doc = {"controllers": [{"type": "lscc"}, {"type": "tcc"}]}
    assert [p for p, _ in S.containers(doc, site)] == [("controllers", 1)]
    made = S.build_container({"controllers": [{"type": "lscc"}]}, site, random.Random(1), lambda steps, consts: dict(consts))
    assert made is not None and made[0] == ("controllers", 1) and made[1] == {"type": "tcc"}


@pytest.mark.skipif(not os.environ.get("WMNSIM_BIN"), reason="needs WMNSIM_BIN")
def test_coverage_fails_for_a_key_the_loader_does_not_know(tmp_path):
    """A key in the schema that the program refuses wherever it is put is never accepted:
    the coverage check must fail and name it (a registry key the generator cannot reach
    fails the same way)."""
    schema = copy.deepcopy(SCHEMA)
    branch = next(b for b in schema["properties"]["controllers"]["items"]["oneOf"]
                  if b["properties"]["type"]["const"] == "tcc")
    branch["properties"]["not_in_the_loader"] = {"type": "integer", "minimum": 1, "maximum": 3}
    path = tmp_path / "schema.json"
    path.write_text(json.dumps(schema), encoding="utf-8")
    cov = tmp_path / "coverage.json"
    r = subprocess.run([sys.executable, str(ROOT / "fuzz" / "mutate_scenarios.py"), "--wmnsim", os.environ["WMNSIM_BIN"],
                        "--mode", "schema", "--schema", str(path), "--only", "/controllers/*[type=tcc]",
                        "--seconds", "0", "--seed", "1", "--cover-only", "--run-share", "0",
                        "--coverage", str(cov), "--require-full-coverage", "--save", str(tmp_path / "findings")],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 1, r.stdout[-2000:] + r.stderr[-2000:]
    assert "not covered: /controllers/*[type=tcc]/not_in_the_loader (no accepted value" in r.stdout
    report = json.loads(cov.read_text())
    assert report["missing"] == ["/controllers/*[type=tcc]/not_in_the_loader"]
    assert report["sites"]["/controllers/*[type=tcc]/nodes"]["accepted"] > 0


def test_only_matching_no_key_is_a_clear_error(tmp_path):
    """--only with a prefix no key has (a typo, a path without its leading slash) stops
    with a message naming the prefix and what the names look like, not a traceback."""
    r = subprocess.run([sys.executable, str(ROOT / "fuzz" / "mutate_scenarios.py"), "--wmnsim", os.environ["WMNSIM_BIN"],
                        "--mode", "schema", "--only", "controllers/", "--seconds", "0", "--seed", "1",
                        "--save", str(tmp_path / "findings")],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 1, r.stdout[-2000:] + r.stderr[-2000:]
    assert "--only 'controllers/': no schema key's name starts with it" in r.stderr
    assert "Traceback" not in r.stderr
