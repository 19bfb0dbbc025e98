"""scripts/check_test_files.py: the test files' anonymous namespaces nest WMNSIM_FILE_LOCAL,
so that CI's unity build of the tests neither merges two files' helpers nor lets one file
call another's overload (tests/CMakeLists.txt)."""
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "check_test_files.py"

GOOD = """#include <gtest/gtest.h>
namespace wmnsim {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)
int helper() { return 1; }
TEST(A, B) { EXPECT_EQ(helper(), 1); }
}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim
"""


def run(root):
    return subprocess.run([sys.executable, str(SCRIPT), str(root)], capture_output=True, text=True)


def tree(tmp_path, files):
    for name, text in files.items():
        path = tmp_path / "tests" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return tmp_path


def test_the_repository_passes():
    result = run(ROOT)
    assert result.returncode == 0, result.stdout
    assert "every anonymous namespace nests WMNSIM_FILE_LOCAL" in result.stdout


def test_a_file_that_nests_passes(tmp_path):
    assert run(tree(tmp_path, {"core/test_a.cpp": GOOD})).returncode == 0


def test_a_plain_anonymous_namespace_is_named_with_its_line(tmp_path):
    bad = GOOD.replace("namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)\n", "")
    bad = bad.replace("}  // namespace WMNSIM_FILE_LOCAL\n", "")
    result = run(tree(tmp_path, {"core/test_a.cpp": GOOD, "mac/test_b.cpp": bad}))
    assert result.returncode == 1
    assert "tests/mac/test_b.cpp:3: an anonymous namespace not followed by" in result.stdout
    assert "tests/mac/test_b.cpp:6: an anonymous namespace closed without closing" in result.stdout
    assert "test_a.cpp" not in result.stdout


def test_closing_only_one_of_the_two_fails(tmp_path):
    bad = GOOD.replace("}  // namespace\n", "")
    result = run(tree(tmp_path, {"core/test_a.cpp": bad}))
    assert result.returncode == 1
    assert "tests/core/test_a.cpp:7: WMNSIM_FILE_LOCAL closed but not the anonymous namespace" in result.stdout


def test_the_file_local_namespace_outside_an_anonymous_one_fails(tmp_path):
    bad = GOOD.replace("namespace {\n", "").replace("}  // namespace\n", "")
    result = run(tree(tmp_path, {"core/test_a.cpp": bad}))
    assert result.returncode == 1
    assert "tests/core/test_a.cpp:3: `namespace WMNSIM_FILE_LOCAL {` outside an anonymous namespace" in result.stdout


def test_the_shards_probe_is_not_batched_and_not_checked(tmp_path):
    plain = GOOD.replace("namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)\n", "")
    plain = plain.replace("}  // namespace WMNSIM_FILE_LOCAL\n", "")
    assert run(tree(tmp_path, {"shards/probe.cpp": plain})).returncode == 0


def test_no_tests_folder_is_a_usage_error(tmp_path):
    result = run(tmp_path)
    assert result.returncode == 2
    assert "no tests/ folder" in result.stderr
