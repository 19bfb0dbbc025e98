"""Every doc's claims about what the build simulates, checked against its registries.

The controllers, transports and queue disciplines a build offers are registries
(control/, transport/, link/). docs/scenario.md's registry regions are generated
from them (`wmnsim fragments`), with a status for each controller and transport;
prose elsewhere is not, and went stale before (a status table saying most
controllers were refused by `run`, docs/python.md saying `wmnsim.run` could not
simulate anything, a layout table listing simulated controllers "as parameters so
far"). These tests ask the build, without running a simulation:

- which entries it registers and which it simulates: `wmnsim fragments --write` on
  copies of the schema and docs/scenario.md gives each controller's and transport's
  status from the registry itself; a queue discipline without a build function is
  refused by validation, so validating the flagship with each discipline tells;
- then every status claim in README.md and docs/**.md: a sentence that says a named
  entry is not simulated (refused by `run`, parameters only, ...) fails when the
  build simulates it, and a claim that nothing runs yet fails when anything does.
"""
import pathlib
import re
import shutil

import pytest

import wmnsim
import wmnsim.cli

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "scenarios" / "schema" / "scenario.schema.json"
SCENARIO_DOC = ROOT / "docs" / "scenario.md"
FLAGSHIP = ROOT / "scenarios" / "two_hop_chain_tcp.json"
SIMULATED = "simulated"  # scenario/scenario_fragments.cpp, status()

# A sentence that says a plug-in does not run (present tense; "were not simulated"
# is history). Cross-checked with the registries for the entries the sentence names.
NOT_SIMULATED = re.compile(
    r"not simulated yet|(?:is|are) (?:still )?not simulated|refused by `?run|`?\brun`? refuses"
    r"|parameters (?:only|so far)|validated only|not (?:yet )?implemented",
    re.IGNORECASE)
# A sentence that says no scenario runs yet: stale once any entry is simulated.
NOTHING_RUNS = re.compile(
    r"cannot simulate any|until the [\w ,]*layers? land|when the layers land", re.IGNORECASE)


def region(markdown, name):
    m = re.search(rf"<!-- registry:{name} begin -->\n(.*?)<!-- registry:{name} end -->", markdown, re.S)
    assert m, f"docs/scenario.md has no registry:{name} region"
    return m.group(1)


def first_table(text):
    """The region's entry table without its header: the rows after `|---` up to the
    first blank line (each entry's keys follow in tables of their own)."""
    table = text.split("\n\n", 1)[0]
    assert re.search(r"^\|---", table, re.M), table
    return re.split(r"^\|---.*\n", table, maxsplit=1, flags=re.M)[1]


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    """docs/scenario.md as this build's registries write it."""
    tmp = tmp_path_factory.mktemp("fragments")
    schema, doc = tmp / "scenario.schema.json", tmp / "scenario.md"
    shutil.copy(SCHEMA, schema)
    shutil.copy(SCENARIO_DOC, doc)
    assert wmnsim.cli.main(["fragments", "--write", str(schema), str(doc)]) == 0
    return doc.read_text()


@pytest.fixture(scope="module")
def registries(generated):
    """{kind: {name: simulated?}} for the build's controllers, transports and queue disciplines."""
    controllers = {m.group(1): m.group(2).strip() == SIMULATED
                   for m in re.finditer(r"^\| `([a-z0-9_]+)` \|[^|\n]*\|([^|\n]*)\|",
                                        first_table(region(generated, "controllers")), re.M)}
    transports = {m.group(1): m.group(2).split(";")[-1].strip() == SIMULATED
                  for m in re.finditer(r"^`([a-z0-9_]+)` \(([^)]*)\): ", region(generated, "transports"), re.M)}
    flagship = wmnsim.Scenario(FLAGSHIP)
    disciplines = {}
    for m in re.finditer(r"^\| `([a-z0-9_]+)` \|", first_table(region(generated, "queue_disciplines")), re.M):
        issues = [e.message for e in flagship.with_overrides({"/mac/queue/discipline": m.group(1)}).errors()
                  if e.path == "/mac/queue/discipline"]
        # Its own keys may be missing (token_bucket's rate_bps); the choice itself is
        # either accepted or refused as not simulated, never unknown.
        assert all("not simulated" in i for i in issues), (m.group(1), issues)
        disciplines[m.group(1)] = not issues
    return {"controller": controllers, "transport": transports, "queue discipline": disciplines}


def test_the_build_registers_each_kind(registries):
    # The parsing above found every kind; a format change in the generated regions
    # would otherwise leave nothing to check against.
    for kind, entries in registries.items():
        assert entries, f"no {kind} found in the generated docs/scenario.md"
    assert {"counter_starvation", "lscc", "wccp"} <= registries["controller"].keys()
    assert {"udp", "tcp", "wccp"} <= registries["transport"].keys()
    assert {"drop_tail", "fred"} <= registries["queue discipline"].keys()


def test_docs_scenario_status_is_the_builds(generated):
    # The generated regions (status columns included) are what this build writes.
    text = SCENARIO_DOC.read_text()
    for name in ("controllers", "transports", "queue_disciplines"):
        assert region(text, name) == region(generated, name), (
            f"docs/scenario.md's {name} differ from the build's registries: run `wmnsim fragments --write`")


def name_pattern(name):
    """A registry name as prose writes it: `fred`, FRED, gateway rate control, counter-starvation."""
    words = re.escape(name).replace("_", "[ _-]")
    if len(name) <= 5 and "_" not in name:
        return re.compile(rf"`{re.escape(name)}`|\b{re.escape(name.upper())}\b")
    return re.compile(rf"`{re.escape(name)}`|\b{words}\b", re.IGNORECASE)


def doc_sentences():
    """(file, line, sentence) of README.md and docs/**.md, without code blocks and
    without docs/scenario.md's generated regions (checked above)."""
    files = [ROOT / "README.md"] + sorted((ROOT / "docs").rglob("*.md"))
    for path in files:
        text = path.read_text()
        text = re.sub(r"<!-- registry:(\w+) begin -->.*?<!-- registry:\1 end -->",
                      lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
        text = re.sub(r"^```.*?^```", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S | re.M)
        # Table rows are claims of their own; prose splits at sentence ends and
        # semicolons. Each piece keeps the line it starts on.
        for block in re.finditer(r"(?:[^\n]*\S[^\n]*(?:\n|\Z))+", text):
            pieces = (re.finditer(r"^.*$", block.group(0), re.M) if block.group(0).lstrip().startswith("|")
                      else re.finditer(r"\S.*?(?:[.;](?=\s)|\Z)", block.group(0), re.S))
            for piece in pieces:
                sentence = " ".join(piece.group(0).split())
                if sentence:
                    yield path.relative_to(ROOT), text.count("\n", 0, block.start() + piece.start()) + 1, sentence


def test_doc_sentences_are_found():
    # Every doc is read, and a sentence's line is the line it starts on (the failures
    # below name it).
    sentences = list(doc_sentences())
    assert {str(path) for path, _, _ in sentences} >= {"README.md", "docs/python.md", "docs/reproductions/edca.md"}
    lines = SCENARIO_DOC.read_text().split("\n")
    found = [(line, s) for path, line, s in sentences
             if str(path) == "docs/scenario.md" and s.startswith("The file format covers all five papers")]
    assert len(found) == 1
    assert lines[found[0][0] - 1].startswith("The file format covers all five papers")


def test_no_doc_says_a_simulated_entry_is_not_simulated(registries):
    patterns = {(kind, name): name_pattern(name)
                for kind, entries in registries.items() for name, simulated in entries.items() if simulated}
    stale = []
    for path, line, sentence in doc_sentences():
        if not NOT_SIMULATED.search(sentence):
            continue
        named = sorted({f"{kind} {name}" for (kind, name), p in patterns.items() if p.search(sentence)})
        if named:
            stale.append(f"{path}:{line}: {', '.join(named)} simulated by this build, but: {sentence}")
    assert not stale, "\n".join(stale)


def test_no_doc_says_nothing_runs_yet(registries):
    if not any(any(entries.values()) for entries in registries.values()):
        pytest.skip("this build simulates no registered entry")
    stale = [f"{path}:{line}: {sentence}" for path, line, sentence in doc_sentences() if NOTHING_RUNS.search(sentence)]
    assert not stale, "\n".join(stale)


@pytest.mark.parametrize("sentence, kind, name, stale", [
    ("gateway rate control and TCC/LSCC as parameters so far)", "controller", "lscc", True),
    ("the `fred` discipline is not simulated yet", "queue discipline", "fred", True),
    ("entries stored when those controllers were simulated; `wccp` runs", "transport", "wccp", False),
    ("counter-starvation is refused by `run` (exit 2)", "controller", "counter_starvation", True),
    ("a feature not simulated yet, such as a controller", "transport", "tcp", False),
])
def test_the_claim_finder(sentence, kind, name, stale):
    # The patterns above on sentences of the forms the docs used: a stale claim is
    # found whichever way prose spells the entry, and history or a plain mention is not.
    assert bool(NOT_SIMULATED.search(sentence) and name_pattern(name).search(sentence)) == stale
