"""docs/reproduce.md's `stored` block (each study's experiments, runs, the commits that ran them and the
data folder's size) is what scripts/reproduce_inventory.py derives from the stored provenance.json files."""
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "reproduce_inventory.py"
sys.path.insert(0, str(ROOT / "scripts"))
import reproduce_inventory  # noqa: E402


def test_reproduce_inventory_block_is_current():
    done = subprocess.run([sys.executable, str(SCRIPT), "--check"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_reproduce_inventory_counts_each_experiments_runs(tmp_path):
    # A study of two experiments, one of them not run: its runs are the stored one's, its commits named.
    folder = tmp_path / "scenarios" / "x" / "reproduction"
    (folder / "data" / "a").mkdir(parents=True)
    (folder / "study.json").write_text(json.dumps({"study": "x", "paper": "009", "experiments": ["a", "b"]}))
    (folder / "data" / "a" / "provenance.json").write_text(json.dumps(
        {"runs": 1234, "commits": {"abc+dirty": 4, "def": 1230}}))
    (folder / "data" / "a" / "runs.parquet").write_bytes(b"x" * 500_000)
    text = reproduce_inventory.inventory(tmp_path)
    assert "| `x` (009) | 2 | 1,234 | 0.5 |" in text
    assert "| `x` | a | 1,234 | - | def (1230), abc+dirty (4) |" in text
    assert "| `x` | b | not run | - |  |" in text
    assert "| all | | 1,234 | 0.5 |" in text
