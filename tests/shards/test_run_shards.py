"""scripts/run_shards.sh, which CI's sanitizer stage runs the unit tests with
(scripts/test.sh): it passes only when every listed test ran and passed.

RUN_SHARDS_PROBE names tests/shards/probe.cpp's program (tests/CMakeLists.txt)."""
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "run_shards.sh"
PROBE = os.environ.get("RUN_SHARDS_PROBE", str(ROOT / "build" / "ci" / "tests" / "run_shards_probe"))
ENABLED = 6  # probe.cpp's tests but the two disabled ones


def run(*args, **env):
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("PROBE_", "GTEST_"))}
    clean.update(env)
    return subprocess.run(["bash", str(SCRIPT), *args], capture_output=True, text=True, env=clean, timeout=120)


@pytest.fixture(autouse=True)
def probe_built():
    if not os.access(PROBE, os.X_OK):
        pytest.fail(f"{PROBE} is not built (cmake --build build/ci --target run_shards_probe)")


@pytest.mark.parametrize("shards", ["1", "2", "3", "9"])
def test_every_enabled_test_runs_in_exactly_one_shard(shards):
    r = run(PROBE, shards)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.strip().endswith(f"{ENABLED} tests passed in {shards} shards")


@pytest.mark.parametrize("env, says", [
    ({"PROBE_FAIL": "1"}, "Probe.FailsWhenAsked"),
    ({"PROBE_ABORT": "1"}, "[ RUN      ] Probe.AbortsWhenAsked"),
])
def test_a_failed_or_aborted_test_fails_the_run_and_is_named(env, says):
    r = run(PROBE, "2", **env)
    assert r.returncode == 1
    assert says in r.stdout
    assert "failed, exit status" in r.stderr


def test_a_shard_that_exits_early_is_caught_by_the_count():
    r = run(PROBE, "1", PROBE_EXIT="1")
    assert r.returncode == 1
    assert f"lists {ENABLED}" in r.stderr


def test_a_hung_test_ends_at_the_limit_and_is_named():
    r = run(PROBE, "2", "2", PROBE_HANG="1")
    assert r.returncode == 1
    assert "[ RUN      ] Probe.HangsWhenAsked" in r.stdout
    assert "did not end within 2 s" in r.stderr


@pytest.mark.parametrize("env", [{"GTEST_FILTER": "Probe.Passes"}, {"GTEST_COLOR": "yes"},
                                 {"GTEST_ALSO_RUN_DISABLED_TESTS": "1"}, {"GTEST_REPEAT": "2"}])
def test_the_callers_gtest_settings_do_not_change_what_runs(env):
    r = run(PROBE, "2", **env)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.strip().endswith(f"{ENABLED} tests passed in 2 shards")


@pytest.mark.parametrize("args", [[], ["/nonexistent/program"], ["/tmp"], ["PROBE", "0"], ["PROBE", "x"],
                                  ["PROBE", "2", "-1"], ["PROBE", "2", "3", "4"]])
def test_bad_arguments_exit_2_with_the_usage_or_the_reason(args):
    r = run(*[PROBE if a == "PROBE" else a for a in args])
    assert r.returncode == 2
    assert r.stderr.strip()
