"""scripts/check_unity.py: every test file keeps its code in WMNSIM_FILE_LOCAL (inside an
anonymous namespace) and leaks no macro or warning setting, and no library defines one
file-local name in two files, so that the unity builds (tests/CMakeLists.txt,
scripts/build.sh) neither merge two files' helpers nor let one file call another's
overload."""
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "check_unity.py"
LOCAL_OPEN = "namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)\n"
LOCAL_CLOSE = "}  // namespace WMNSIM_FILE_LOCAL\n"

GOOD = """#include <gtest/gtest.h>
namespace wmnsim {
namespace {
namespace WMNSIM_FILE_LOCAL {  // unique per file in a unity build (tests/CMakeLists.txt)
using namespace std::literals;
int helper() { return 1'000; }
const char* kJson = R"({"namespace {": [1, 2]})";
TEST(A, B) { EXPECT_EQ(helper(), 1000); }
}  // namespace WMNSIM_FILE_LOCAL
}  // namespace
}  // namespace wmnsim
"""


def run(root):
    return subprocess.run([sys.executable, str(SCRIPT), str(root)], capture_output=True, text=True)


def write(root, files):
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def check(tmp_path, files):
    """Runs the check on a tree whose tests/ folder holds `files`."""
    write(tmp_path / "tests", files)
    return run(tmp_path)


def test_the_repository_passes():
    result = run(ROOT)
    assert result.returncode == 0, result.stdout
    assert "all code in WMNSIM_FILE_LOCAL" in result.stdout


def test_a_file_that_nests_passes_and_literals_and_comments_are_not_code(tmp_path):
    commented = GOOD.replace("namespace wmnsim {\n", "namespace wmnsim {\n/* namespace {\n int x; */ // namespace {\n")
    result = check(tmp_path, {"core/test_a.cpp": GOOD, "core/test_b.cpp": commented})
    assert result.returncode == 0, result.stdout


def test_a_plain_anonymous_namespace_is_named_with_its_line(tmp_path):
    bad = GOOD.replace(LOCAL_OPEN, "").replace(LOCAL_CLOSE, "")
    result = check(tmp_path, {"core/test_a.cpp": GOOD, "mac/test_b.cpp": bad})
    assert result.returncode == 1
    assert "tests/mac/test_b.cpp:3: an anonymous namespace that does not open with" in result.stdout
    assert "tests/mac/test_b.cpp:4: code in an anonymous namespace outside WMNSIM_FILE_LOCAL" in result.stdout
    assert "test_a.cpp" not in result.stdout


def test_however_the_anonymous_namespace_is_written(tmp_path):
    one_line = "namespace wmnsim { namespace {  // helpers\nint helper() { return 1; }\n}  // anonymous\n}\n"
    result = check(tmp_path, {"core/test_a.cpp": one_line})
    assert result.returncode == 1
    assert "tests/core/test_a.cpp:1: an anonymous namespace that does not open with" in result.stdout


def test_code_after_the_file_local_namespace_closes_fails(tmp_path):
    bad = GOOD.replace(LOCAL_CLOSE, LOCAL_CLOSE + "int late() { return 2; }\n")
    result = check(tmp_path, {"core/test_a.cpp": bad})
    assert result.returncode == 1
    assert "tests/core/test_a.cpp:9: code in the anonymous namespace after WMNSIM_FILE_LOCAL closes" in result.stdout


def test_the_file_local_namespace_outside_an_anonymous_one_fails(tmp_path):
    bad = GOOD.replace("namespace {\n", "").replace("}  // namespace\n", "")
    result = check(tmp_path, {"core/test_a.cpp": bad})
    assert result.returncode == 1
    assert "tests/core/test_a.cpp:3: `namespace WMNSIM_FILE_LOCAL` outside an anonymous namespace" in result.stdout


def test_code_at_named_namespace_scope_fails(tmp_path):
    for code, shown in (("static int helper() { return 1; }", "static int helper"),
                        ("constexpr int kBytes = 1500;", "constexpr int kBytes"),
                        ("using namespace std::literals;", "using namespace std"),
                        ("TEST(C, D) { EXPECT_TRUE(true); }", "TEST ( C")):
        bad = GOOD.replace("namespace wmnsim {\n", "namespace wmnsim {\n" + code + "\n")
        result = check(tmp_path, {"core/test_a.cpp": bad})
        assert result.returncode == 1, code
        assert f"tests/core/test_a.cpp:3: code at namespace scope outside WMNSIM_FILE_LOCAL (`{shown} ...`)" \
            in result.stdout, result.stdout


def test_a_friend_struct_is_allowed_only_in_its_own_file(tmp_path):
    layout = GOOD.replace("namespace wmnsim {\n", "namespace wmnsim {\nstruct MacLayout {\n  int f();\n};\n")
    assert check(tmp_path, {"mac/test_mac_layout.cpp": layout}).returncode == 0
    result = check(tmp_path, {"mac/test_other.cpp": layout})
    assert result.returncode == 1
    assert "tests/mac/test_other.cpp:3: code at namespace scope outside WMNSIM_FILE_LOCAL (`struct MacLayout {" \
        in result.stdout


def test_a_macro_must_be_undefined_and_a_warning_setting_popped(tmp_path):
    defined = GOOD.replace("namespace wmnsim {\n", "#define WMNSIM_X(m) (m)\nnamespace wmnsim {\n")
    result = check(tmp_path, {"core/test_a.cpp": defined})
    assert result.returncode == 1
    assert "tests/core/test_a.cpp:2: `#define WMNSIM_X` without an `#undef WMNSIM_X`" in result.stdout
    assert check(tmp_path, {"core/test_a.cpp": defined + "#undef WMNSIM_X\n"}).returncode == 0

    ignored = '#pragma GCC diagnostic ignored "-Winvalid-offsetof"\n' + GOOD
    result = check(tmp_path, {"core/test_a.cpp": ignored})
    assert result.returncode == 1
    assert "tests/core/test_a.cpp:1: `#pragma GCC diagnostic ignored` outside a push/pop pair" in result.stdout
    pushed = "#pragma GCC diagnostic push\n" + ignored + "#pragma GCC diagnostic pop\n"
    assert check(tmp_path, {"core/test_a.cpp": pushed}).returncode == 0


def test_plugin_sources_define_their_classes_but_keep_helpers_local(tmp_path):
    plugin = "namespace wmnsim::test {\nvoid Probe::send() {}\n}  // namespace wmnsim::test\n"
    assert check(tmp_path, {"plugins/probe.cpp": plugin}).returncode == 0
    helper = plugin.replace("void Probe", "namespace {\nint key() { return 1; }\n}  // namespace\nvoid Probe")
    result = check(tmp_path, {"plugins/probe.cpp": helper})
    assert result.returncode == 1
    assert "tests/plugins/probe.cpp:2: an anonymous namespace that does not open with" in result.stdout


def test_the_shards_probe_is_not_batched_and_not_checked(tmp_path):
    plain = GOOD.replace(LOCAL_OPEN, "").replace(LOCAL_CLOSE, "")
    assert check(tmp_path, {"shards/probe.cpp": plain}).returncode == 0


def test_no_tests_folder_is_a_usage_error(tmp_path):
    result = run(tmp_path)
    assert result.returncode == 2
    assert "no tests/ folder" in result.stderr


def test_a_library_defining_a_file_local_name_twice_fails_naming_both_files(tmp_path):
    a = "namespace wmnsim {\nnamespace {\nvoid check(const int& p) {}\n}  // namespace\n}  // namespace wmnsim\n"
    b = "namespace wmnsim {\nnamespace {\nvoid check(const double& c) {}\n}  // namespace\n}  // namespace wmnsim\n"
    result = check(tmp_path, {"core/test_a.cpp": GOOD})
    assert result.returncode == 0
    write(tmp_path, {"control/bianchi.cpp": a, "control/capacity_model.cpp": b})
    result = run(tmp_path)
    assert result.returncode == 1
    assert "control/capacity_model.cpp:3: `check` is also defined in control/bianchi.cpp:3" in result.stdout


def test_file_statics_count_and_aliases_and_other_libraries_do_not(tmp_path):
    static = "namespace wmnsim {\nstatic int helper() { return 1; }\n}  // namespace wmnsim\n"
    alias = "namespace wmnsim {\nnamespace {\nusing Json = int;\n}  // namespace\n}  // namespace wmnsim\n"
    write(tmp_path, {"core/a.cpp": static, "link/b.cpp": static, "analysis/c.cpp": alias, "analysis/d.cpp": alias})
    (tmp_path / "tests").mkdir()
    assert run(tmp_path).returncode == 0, run(tmp_path).stdout
    (tmp_path / "core" / "e.cpp").write_text(static)
    result = run(tmp_path)
    assert result.returncode == 1
    assert "core/e.cpp:2: `helper` is also defined in core/a.cpp:2" in result.stdout


def library_names(tmp_path, text):
    path = tmp_path / "phy" / "x.cpp"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    sys.path.insert(0, str(ROOT / "scripts"))
    import check_unity  # noqa: E402
    return sorted(check_unity.file_local_names(path))


def test_the_name_of_a_declaration_whatever_surrounds_it(tmp_path):
    text = """namespace wmnsim {
namespace {
[[nodiscard]] int throw_bad_sinr(int x) { return x; }
class ShortestPathSource final : public Routing::Source {};
enum class Kind : int { a, b };
template <typename T = int> T twice(T x) { return x + x; }
bool operator==(const Kind&, const Kind&);
std::function<void(int)> g_callback;
static_assert(sizeof(int) == 4);
namespace inner {
int helper();
}  // namespace inner
}  // namespace
[[maybe_unused]] static int counted_static() { return 1; }
constexpr static int kCounted = 2;
int not_file_local();
}  // namespace wmnsim
"""
    assert library_names(tmp_path, text) == ["Kind", "ShortestPathSource", "counted_static", "g_callback",
                                             "helper", "kCounted", "operator==", "throw_bad_sinr", "twice"]


def test_a_library_pragma_or_macro_that_outlives_its_file_fails(tmp_path):
    (tmp_path / "tests").mkdir()
    path = tmp_path / "core" / "a.cpp"
    path.parent.mkdir(parents=True)
    path.write_text('#pragma GCC optimize("O3")\n#define WMNSIM_Y 1\nnamespace wmnsim {}\n')
    result = run(tmp_path)
    assert result.returncode == 1
    assert "core/a.cpp:1: `#pragma GCC optimize(\"O3\")` reaches the files after it" in result.stdout
    assert "core/a.cpp:2: `#define WMNSIM_Y` without an `#undef WMNSIM_Y`" in result.stdout
    path.write_text("#define WMNSIM_Y 1\nnamespace wmnsim {}\n#undef WMNSIM_Y\n")
    assert run(tmp_path).returncode == 0


def test_a_library_using_at_namespace_scope_fails_and_in_a_function_or_as_an_alias_not(tmp_path):
    (tmp_path / "tests").mkdir()
    fine = """namespace wmnsim {
namespace {
using Json = nlohmann::ordered_json;
int f() {
  using namespace mac_column;
  using std::swap;
  return 1;
}
struct Derived : Base {
  using Base::Base;
};
}  // namespace
}  // namespace wmnsim
"""
    write(tmp_path, {"results/a.cpp": fine})
    assert run(tmp_path).returncode == 0, run(tmp_path).stdout
    for code, shown in (("using namespace scenario_detail;", "using namespace scenario_detail;"),
                        ("using routing_detail::same_cost;", "using routing_detail::same_cost;"),
                        ("namespace {\nusing control::StarvationModelParams;\n}  // namespace",
                         "using control::StarvationModelParams;"),
                        ("using enum Kind;", "using enum Kind;"),
                        ("using mac::operator==;", "using mac::operator==;"),
                        ("using ::memcpy;", "using ::memcpy;")):
        write(tmp_path, {"results/b.cpp": "namespace wmnsim {\n" + code + "\n}  // namespace wmnsim\n"})
        result = run(tmp_path)
        assert result.returncode == 1
        line = 3 if code.startswith("namespace {") else 2
        assert f"results/b.cpp:{line}: `{shown}` at namespace scope reaches the files after it in a batch of " \
               "results/" in result.stdout, result.stdout
