"""The bad-input corpus (bad_inputs.json): builds each case's scenario file and
command-line arguments. Used by test_bad_inputs.py and, as seeds, by scripts/fuzz.sh:

    python3 tests/scenarios/bad_inputs.py write-seeds DIR    # one file per case
"""
from __future__ import annotations

import copy
import json
import os
import pathlib
import sys
from typing import Any, Dict, List, Tuple

HERE = pathlib.Path(__file__).resolve().parent
CORPUS = HERE / "bad_inputs.json"


def load() -> Dict[str, Any]:
    return json.loads(CORPUS.read_text())


def _parts(parts: List[List[Any]]) -> str:
    """[[piece, times], ...] -> the pieces repeated and joined."""
    return "".join(str(piece) * int(times) for piece, times in parts)


def _set(doc: Any, pointer: str, value: Any) -> None:
    """RFC 6901 pointer assignment as --set does it: missing objects created, '-' appends."""
    tokens = [t.replace("~1", "/").replace("~0", "~") for t in pointer.split("/")[1:]]
    cur = doc
    for i, tok in enumerate(tokens):
        last = i == len(tokens) - 1
        if isinstance(cur, list):
            index = len(cur) if tok == "-" else int(tok)
            if last:
                if index == len(cur):
                    cur.append(value)
                else:
                    cur[index] = value
                return
            cur = cur[index]
        else:
            if last:
                cur[tok] = value
                return
            cur = cur.setdefault(tok, {})


def _substitute(value: Any, places: Dict[str, str]) -> Any:
    if isinstance(value, str):
        for k, v in places.items():
            value = value.replace("{" + k + "}", v)
        return value
    if isinstance(value, list):
        return [_substitute(v, places) for v in value]
    if isinstance(value, dict):
        return {k: _substitute(v, places) for k, v in value.items()}
    return value


def _generate(name: str, base: Dict[str, Any]) -> Dict[str, Any]:
    """Documents too large to keep in the corpus file."""
    doc = copy.deepcopy(base)
    if name == "unknown_keys_5000":
        for i in range(5000):
            doc["simulation"][f"k{i}"] = i
    elif name == "megabyte_flow_dst":
        doc["flows"][0]["dst"] = "x" * 1_000_000
    elif name == "missing_nodes_20000":
        # 10^4 nodes, 2 x 10^4 flows to nodes one letter off an existing id: every
        # message would search 10^4 ids for a suggestion.
        doc["nodes"] = []
        doc["node_groups"] = [{"id_prefix": "n", "placement": "line", "count": 10000, "spacing_m": 50}]
        doc["flows"] = [{"id": f"f{i}", "transport": "udp", "src": "n0", "dst": f"n{i % 10000}x"} for i in range(20000)]
    elif name == "groups_10000":
        doc["node_groups"] = [{"id_prefix": f"g{i}n", "placement": "line", "count": 10000, "spacing_m": 10,
                               "origin_m": [0, 10 * i + 5]} for i in range(10000)]
    elif name == "random_grids_2000":
        # Each grid has 251001 points and places one node: the fourth passes 10^6.
        doc["node_groups"] = [{"id_prefix": f"r{i}n", "placement": "random_grid", "count": 1, "spacing_m": 2,
                               "area_m": [1000, 1000], "origin_m": [0, 1e5 + 3 * i], "seed": i} for i in range(2000)]
    else:
        raise ValueError(f"unknown generator {name}")
    return doc


def build(case: Dict[str, Any], base: Dict[str, Any], tmp: pathlib.Path) -> Tuple[str, List[str], str]:
    """Writes the case's scenario into `tmp` (unless it names its own file); returns
    (scenario path, command-line arguments, scenario text or "" for a given file)."""
    scenario = tmp / "scenario.json"
    places = {"tmp": str(tmp), "tmpname": tmp.name, "scenario": str(scenario), "scenario_name": scenario.name}
    text = ""
    if "file" in case:
        path = case["file"]
    else:
        path = str(scenario)
        if "text" in case:
            text = case["text"]
        elif "text_parts" in case:
            text = _parts(case["text_parts"])
        else:
            doc = _generate(case["generate"], base) if "generate" in case else copy.deepcopy(base)
            for pointer, value in case.get("patch", {}).items():
                _set(doc, pointer, _substitute(value, places))
            raw = {}
            for i, (pointer, parts) in enumerate(case.get("patch_text", {}).items()):
                marker = f"@@raw{i}@@"
                _set(doc, pointer, marker)
                raw[json.dumps(marker)] = _parts(parts)
            text = json.dumps(doc)
            for marker, replacement in raw.items():
                text = text.replace(marker, replacement)
        scenario.write_text(text, encoding="utf-8")
    args = [_substitute(a, places) for a in case.get("args", [])]
    if "args_parts" in case:
        for a in case["args_parts"]:
            args.append(a if isinstance(a, str) else _parts(a))
    return path, args, text


def main(argv: List[str]) -> int:
    if len(argv) != 3 or argv[1] != "write-seeds":
        print(__doc__, file=sys.stderr)
        return 2
    out = pathlib.Path(argv[2])
    out.mkdir(parents=True, exist_ok=True)
    corpus = load()
    for case in corpus["cases"]:
        if "file" in case or "generate" in case:
            continue  # devices and generated megabytes: not seeds
        tmp = out / ("tmp-" + case["name"])
        tmp.mkdir(exist_ok=True)
        _, args, text = build(case, corpus["base"], tmp)
        sets = [args[i + 1] for i in range(len(args) - 1) if args[i] == "--set"]
        seed = text + ("\n--set\n" + "\n".join(sets) if sets else "")
        (out / f"bad-{case['name']}.json").write_text(seed, encoding="utf-8")
        for f in tmp.iterdir():
            f.unlink()
        tmp.rmdir()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
