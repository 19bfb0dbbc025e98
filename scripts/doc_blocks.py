"""Generated blocks of the reproduction documents (docs/reproductions/*.md).

A report script (scripts/starvation_report.py, scripts/edca_report.py) rewrites what
lies between <!-- begin:NAME --> and <!-- end:NAME --> markers, and nothing else,
so the prose around the tables is written by hand and kept.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path


def replace_block(text: str, name: str, body: str, doc: Path) -> str:
    """`text` with the block NAME's content replaced by `body`; exits if `doc` lacks it."""
    pattern = re.compile(rf"(<!-- begin:{name} -->\n).*?(<!-- end:{name} -->)", re.S)
    if not pattern.search(text):
        sys.exit(f"{doc}: no <!-- begin:{name} --> ... <!-- end:{name} --> markers")
    return pattern.sub(lambda m: m.group(1) + body + "\n" + m.group(2), text)
