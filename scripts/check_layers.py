#!/usr/bin/env python3
"""Checks that dependencies point one way (docs/architecture.md, "Layers").

Each source folder is a layer and may include only its own headers and those of
the layers below it. The check reads every `#include "folder/..."` of every C++
file, and every folder's CMakeLists.txt `target_link_libraries`, and fails with
one line per violation: the file, the include or library, and the rule.

    python3 scripts/check_layers.py [ROOT]
"""

import pathlib
import re
import sys

# The layers, lowest first, with what each may use besides itself. Kept explicit
# (not "everything lower") where a layer skips one: transport/ does not know
# the radio stack, fixtures/ are not a model, phy/ knows no queue.
ALLOWED = {
    "core": set(),
    "config": {"core"},
    # link/ and transport/ hold registry entries (queue disciplines, transports) that
    # parse their own part of the scenario, so they use the JSON reader in config/.
    "link": {"core", "config"},
    "phy": {"core"},
    "mac": {"core", "link", "phy"},
    "transport": {"core", "config", "link"},
    # Frame traces read the air (phy/'s AirObserver) and decode MAC frames; only the
    # runner attaches them (the layers above reach them through it).
    "trace": {"core", "link", "phy", "mac"},
    "control": {"core", "config", "link", "phy", "mac", "transport"},
    "scenario": {"core", "config", "link", "phy", "mac", "transport", "control"},
    "results": {"core", "config", "link", "phy", "mac", "transport", "control", "scenario"},
    "runner": {"core", "config", "link", "phy", "mac", "trace", "transport", "control", "scenario", "results"},
    "analysis": {"core", "config", "link", "phy", "mac", "transport", "control", "scenario", "results",
                 "runner"},
    # Test and benchmark set-ups, not part of any model; only tests/ and bench/ use them.
    "fixtures": {"core", "link", "phy", "mac"},
    # The programs on top.
    "cli": {"core", "config", "link", "phy", "mac", "transport", "control", "scenario", "results", "runner",
            "analysis"},
    # The Python module runs the command line's own code for `python -m wmnsim`.
    "bindings": {"core", "config", "link", "phy", "mac", "transport", "control", "scenario", "results",
                 "runner", "analysis", "cli"},
    "fuzz": {"core", "config", "link", "phy", "mac", "transport", "control", "scenario"},
}
# Folders that may use everything (they test or measure every layer).
UNRESTRICTED = {"tests", "bench"}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([A-Za-z0-9_]+)/')
LINK = re.compile(r"target_link_libraries\s*\(([^)]*)\)", re.S)


def check_includes(root: pathlib.Path) -> list[str]:
    problems = []
    for layer, allowed in ALLOWED.items():
        folder = root / layer
        if not folder.is_dir():
            continue
        for path in sorted(folder.rglob("*")):
            if path.suffix not in {".hpp", ".cpp", ".h", ".cc"}:
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                target = m.group(1)
                if target == layer or target in allowed:
                    continue
                if target in ALLOWED or target in UNRESTRICTED:
                    problems.append(f"{path.relative_to(root)}:{number}: includes {target}/, "
                                    f"but {layer}/ may use only {', '.join(sorted(allowed)) or 'itself'}")
    return problems


def check_links(root: pathlib.Path) -> list[str]:
    problems = []
    for layer, allowed in ALLOWED.items():
        cmake = root / layer / "CMakeLists.txt"
        if not cmake.is_file():
            continue
        for m in LINK.finditer(cmake.read_text(encoding="utf-8")):
            for word in m.group(1).split():
                if not word.startswith("wmnsim_") or word == "wmnsim_flags":
                    continue
                target = word[len("wmnsim_"):]
                if target == layer or target in allowed or target not in ALLOWED:
                    continue
                problems.append(f"{cmake.relative_to(root)}: links {word}, "
                                f"but {layer}/ may use only {', '.join(sorted(allowed)) or 'itself'}")
    return problems


def main() -> int:
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parent.parent)
    missing = [layer for layer in ALLOWED if not (root / layer).is_dir()]
    if missing:
        print(f"check_layers: folders missing: {', '.join(missing)} (update ALLOWED)", file=sys.stderr)
        return 1
    problems = check_includes(root) + check_links(root)
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} dependencies point the wrong way (docs/architecture.md, \"Layers\")")
        return 1
    print("layers: every include and link points down")
    return 0


if __name__ == "__main__":
    sys.exit(main())
