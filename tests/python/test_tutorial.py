"""docs/tutorial.md, run step by step as a reader would, so it cannot go stale.

The tutorial's blocks, in order: ```json file=NAME``` blocks are written to NAME,
```sh``` blocks run in bash (`set -e`: any failing command fails the test, and
`wmnsim compare` exits 3 when a metric is out of tolerance), ```python``` blocks run
in one namespace, as one session would. `wmnsim` is `python -m wmnsim` with this
interpreter, the same command line as the program (bindings/wmnsim/cli.py), so the
test needs no installed program. The reader works in `study/` inside the
repository; here that is a temporary folder beside a link to the repository's
scenarios.
"""
import os
import pathlib
import re
import shlex
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
TUTORIAL = ROOT / "docs" / "tutorial.md"
BLOCK = re.compile(r"^```(\w+)([^\n]*)\n(.*?)^```", re.M | re.S)

# bash functions the blocks call: wmnsim through this Python; tshark where it is
# installed, else a check that the file is a pcap (its magic number).
PRELUDE = f"""set -euo pipefail
wmnsim() {{ {shlex.quote(sys.executable)} -m wmnsim "$@"; }}
if ! command -v tshark >/dev/null; then
  tshark() {{ {shlex.quote(sys.executable)} -c 'import sys; m = open(sys.argv[1], "rb").read(4); \
assert m in (bytes.fromhex("d4c3b2a1"), bytes.fromhex("a1b2c3d4")), m' "$2"; }}
fi
"""


def blocks():
    return [(m.group(1), m.group(2).strip(), m.group(3)) for m in BLOCK.finditer(TUTORIAL.read_text())]


def test_the_tutorial_has_each_kind_of_step():
    kinds = [kind for kind, _, _ in blocks()]
    assert kinds.count("sh") >= 6 and kinds.count("python") >= 4 and kinds.count("json") >= 2
    for kind, info, _ in blocks():
        assert kind in ("sh", "python", "json"), f"a ```{kind} block the test would not run"
        assert kind != "json" or info.startswith("file="), "a json block the test would not write"


def test_every_step_runs(tmp_path, monkeypatch):
    (tmp_path / "scenarios").symlink_to(ROOT / "scenarios")
    monkeypatch.setenv("MPLBACKEND", "Agg")
    cwd = tmp_path
    namespace = {"__name__": "tutorial"}
    for kind, info, body in blocks():
        if kind == "json":
            (cwd / info.split("=", 1)[1]).write_text(body)
        elif kind == "sh":
            # The block's last folder carries over to the next block (`cd study`).
            script = PRELUDE + body + f'\npwd > {shlex.quote(str(tmp_path / ".cwd"))}\n'
            done = subprocess.run(["bash", "-c", script], cwd=cwd, capture_output=True, text=True, timeout=600,
                                  env={**os.environ, "PYTHONPATH": os.environ.get("PYTHONPATH", "")})
            assert done.returncode == 0, f"{body}\nexit {done.returncode}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
            cwd = pathlib.Path((tmp_path / ".cwd").read_text().strip())
        else:
            monkeypatch.chdir(cwd)
            exec(compile(body, f"{TUTORIAL}:python", "exec"), namespace)
    # What the steps leave behind, as the tutorial says.
    study = tmp_path / "study"
    for name in ("results.json", "flows.csv", "goodput_over_time.png", "topology.png", "ack_priority.json",
                 "spacing.png", "quick.json", "trace-ch6.pcap"):
        assert (study / name).is_file(), name
    assert len(namespace["data"].runs) == 9  # 3 spacings x 3 seeds
    # The routes and rates the prose of step 2 quotes are the run's and the build's.
    text = TUTORIAL.read_text()
    routes = {str(list(r)).replace("'", "") for r in namespace["result"].flows["route"]}
    assert {"[n3, n1, GW]", "[n5, n1, GW]", "[n4, GW]"} <= routes and all(r in text for r in routes)
    links = namespace["links"]
    to_gw = dict(zip(links[links.dst == "GW"].src, links[links.dst == "GW"].rate_bps))
    assert (to_gw["n1"], to_gw["n3"]) == (36e6, 6e6)
    assert "n1, 60 m away, at 36 Mbit/s and n3, 180 m away, only at\n6 Mbit/s" in text


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))
