"""Generated parts of the reproduction documents (docs/reproductions/*.md).

A report script (scripts/<study>_report.py) reads a study's stored runs
(wmnsim.reproduce, docs/reproduce.md) and rewrites, in its document, only:

  - blocks: what lies between <!-- begin:NAME --> and <!-- end:NAME -->; the first
    line of a block names the stored runs it comes from and their commits;
  - values: the text between <!--v:NAME--> and <!--/v--> inside the prose (a number
    such as "23 %" or a word such as "doubles"), so that no simulated number in the
    prose is typed by hand;
  - the block `sources`, which the Report fills itself: per stored experiment, its
    runs and commits and the values of the prose drawn from it (a value names its
    sources; one that names none is listed as drawn from all the runs the report read).

Everything else is prose written by hand and kept. The report must fill every block
and every value of its document, and only those: a block or value it does not know,
or one it fills that the document lacks, is an error (exit 2), so the two cannot
drift apart. `--check` writes nothing and exits 3 when the document would change
(the CI test: every doc regenerates exactly from its stored runs).

A report script:

    report = Report("edca", __doc__)          # parses --data --doc --figures --check --no-plot
    runs = report.data("parking_lot")         # wmnsim.reproduce.ExperimentData
    report.block("pairs", table_text, runs)   # the table, stamped with where it comes from
    report.value("ack_gain", f"{gain:.0%}", runs)
    report.claim(gain > 0, "ACK priority raises the total")  # a verdict the prose states in words
    if report.plot: ...savefig(report.figure("edca.png"))
    sys.exit(report.finish())
"""
from __future__ import annotations

import argparse
import difflib
import re
import sys
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional

ROOT = Path(__file__).resolve().parent.parent
SOURCES = "sources"  # the block the Report fills itself, where the doc has it
BLOCK = re.compile(r"(<!-- begin:([A-Za-z0-9_.-]+) -->\n)(.*?)(<!-- end:\2 -->)", re.S)
VALUE = re.compile(r"<!--v:([A-Za-z0-9_.-]+)-->(.*?)<!--/v-->", re.S)
EXIT_INVALID, EXIT_DIFFERS = 2, 3


def replace_block(text: str, name: str, body: str, doc: Path) -> str:
    """`text` with the block NAME's content replaced by `body`; exits if `doc` lacks it."""
    pattern = re.compile(rf"(<!-- begin:{re.escape(name)} -->\n).*?(<!-- end:{re.escape(name)} -->)", re.S)
    if not pattern.search(text):
        sys.exit(f"{doc}: no <!-- begin:{name} --> ... <!-- end:{name} --> markers")
    return pattern.sub(lambda m: m.group(1) + body + "\n" + m.group(2), text)


def _stamp(sources: Iterable[Any]) -> str:
    parts = sorted({s.stamp() for s in sources})
    return f"<!-- generated from {'; '.join(parts)} -->" if parts else "<!-- generated -->"


class Report:
    """The command line and the bookkeeping every report script shares."""

    def __init__(self, study: str, description: Optional[str] = None, argv: Optional[List[str]] = None):
        ap = argparse.ArgumentParser(description=(description or "").splitlines()[0] if description else None)
        ap.add_argument("--root", default=str(ROOT), help="the repository (default: this script's)")
        root = Path(ap.parse_known_args(argv)[0].root)
        sys.path.append(str(ROOT / "bindings"))  # when the wmnsim module is not importable otherwise
        import wmnsim.reproduce as reproduce  # noqa: E402 - after the path

        self.reproduce = reproduce
        self.root = root
        self.study = reproduce.studies(root)[study]
        ap.add_argument("--data", default=self.study.data_dir(),
                        help="the stored runs (default: the study's data/ folder)")
        ap.add_argument("--doc", default=self.study.doc, help="the document to rewrite (default: the study's doc)")
        ap.add_argument("--figures", default=None, help="where the figures go (default: next to the doc)")
        ap.add_argument("--check", action="store_true", help="write nothing; exit 3 if the doc would change")
        ap.add_argument("--no-plot", action="store_true", help="only the doc, no figures")
        self.args = ap.parse_args(argv)
        self.doc = Path(self.args.doc)
        self.figures = Path(self.args.figures) if self.args.figures else self.doc.parent
        self.plot = not (self.args.no_plot or self.args.check)
        self.text = self.doc.read_text(encoding="utf-8")
        self.original = self.text
        self.blocks: Dict[str, str] = {}
        self.values: Dict[str, str] = {}
        self.value_sources: Dict[str, List[Any]] = {}
        self.problems: List[str] = []
        self._data: Dict[str, Any] = {}

    def data(self, experiment: str) -> Any:
        """An experiment's stored tables (wmnsim.reproduce.ExperimentData)."""
        if experiment not in self._data:
            self._data[experiment] = self.reproduce.ExperimentData(str(Path(self.args.data) / experiment),
                                                                   str(self.root))
        return self._data[experiment]

    def block(self, name: str, body: str, *sources: Any) -> None:
        """Sets block NAME to `body`, stamped with the stored runs it comes from."""
        if name in self.blocks or name == SOURCES:
            self.problems.append(f"block {name} filled twice" if name != SOURCES
                                 else f"block {SOURCES} is the report's own (the values' sources)")
        self.blocks[name] = f"{_stamp(sources)}\n{body.rstrip()}"

    def value(self, name: str, text: str, *sources: Any) -> None:
        """Sets inline value NAME (<!--v:NAME-->...<!--/v-->) to `text`."""
        if name in self.values:
            self.problems.append(f"value {name} set twice")
        if "<!--" in text or "\n" in text:
            self.problems.append(f"value {name}: one line of text, no markers: {text!r}")
        self.values[name] = text
        self.value_sources[name] = list(sources)

    def claim(self, holds: Any, text: str) -> None:
        """A statement the doc makes in words (a verdict such as "reproduces", "near 1/3",
        "falls in both") that the stored runs must support: when they no longer do, the
        report fails (exit 2) naming it, so a claim cannot outlive the runs behind it."""
        if not bool(holds):
            self.problems.append(f"a claim the stored runs no longer support: {text}")

    def figure(self, name: str) -> Path:
        self.figures.mkdir(parents=True, exist_ok=True)
        return self.figures / name

    def _sources_block(self) -> str:
        """Per stored experiment the report read: its stamp and the prose's values drawn from it."""
        by_stamp: Dict[str, List[str]] = {d.stamp(): [] for d in self._data.values()}
        size = {d.stamp(): sum(d.provenance.get("tables", {}).values()) for d in self._data.values()}
        unattributed = []
        for name, sources in self.value_sources.items():
            if not sources:
                unattributed.append(name)
            for s in sources:
                by_stamp.setdefault(s.stamp(), []).append(name)
        lines = ["| stored runs | stored tables (KB) | values in the prose drawn from them |", "|---|---:|---|"]
        for stamp in sorted(by_stamp):
            names = sorted(set(by_stamp[stamp]))
            kb = f"{size[stamp] / 1e3:.0f}" if stamp in size else "-"
            lines.append(f"| {stamp} | {kb} | {', '.join(f'`{n}`' for n in names) if names else '(blocks only)'} |")
        lines.append(f"| all of the above | {sum(size.values()) / 1e3:.0f} | |")
        text = "<!-- generated: the stored runs this doc's report read -->\n" + "\n".join(lines)
        if unattributed:
            text += ("\n\nValues drawn from several of the runs above together: "
                     + ", ".join(f"`{n}`" for n in sorted(unattributed)) + ".")
        return text

    def finish(self) -> int:
        """Checks that the doc's blocks and values are exactly those filled, then
        writes the doc (or, with --check, compares it). Returns the exit code."""
        if f"<!-- begin:{SOURCES} -->" in self.text:  # every reproduction doc has it (tests/python/test_reproduce.py)
            self.blocks[SOURCES] = self._sources_block()
        in_doc_blocks = [m.group(2) for m in BLOCK.finditer(self.text)]
        in_doc_values = [m.group(1) for m in VALUE.finditer(self.text)]
        for name in in_doc_blocks:
            if name not in self.blocks:
                self.problems.append(f"block {name} is in the doc but the report does not fill it")
        for name in self.blocks:
            if name not in in_doc_blocks:
                self.problems.append(f"block {name}: no <!-- begin:{name} --> ... <!-- end:{name} --> in the doc")
        for name in set(in_doc_values):
            if name not in self.values:
                self.problems.append(f"value {name} is in the doc but the report does not give it")
        for name in self.values:
            if name not in in_doc_values:
                self.problems.append(f"value {name}: no <!--v:{name}-->...<!--/v--> in the doc")
        if self.problems:
            for p in self.problems:
                print(f"{self.doc}: {p}", file=sys.stderr)
            return EXIT_INVALID
        text = BLOCK.sub(lambda m: m.group(1) + self.blocks[m.group(2)] + "\n" + m.group(4), self.text)
        text = VALUE.sub(lambda m: f"<!--v:{m.group(1)}-->{self.values[m.group(1)]}<!--/v-->", text)
        if self.args.check:
            if text != self.original:
                diff = difflib.unified_diff(self.original.splitlines(), text.splitlines(), str(self.doc),
                                            "regenerated from the stored runs", lineterm="", n=1)
                print("\n".join(list(diff)[:80]), file=sys.stderr)
                return EXIT_DIFFERS
            print(f"{self.doc}: regenerates exactly from {self.args.data}")
            return 0
        self.doc.write_text(text, encoding="utf-8")
        print(f"wrote {self.doc}")
        return 0
