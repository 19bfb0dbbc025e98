#!/usr/bin/env python3
"""Checks that the C++ test files can be compiled in batches (tests/CMakeLists.txt).

CI compiles the test files eight at a time as one translation unit (CMake's unity
build). There, two files' anonymous namespaces are one namespace: a helper both files
define fails to compile, and a helper one file overloads differently is, silently,
called from the other file. So each file nests what its anonymous namespace holds in
`namespace WMNSIM_FILE_LOCAL`, a name unique to the file in a batch (empty otherwise).
This check fails, with the file and line, where a test file opens or closes an
anonymous namespace without it:

    namespace {
    namespace WMNSIM_FILE_LOCAL {  // ...
    ...
    }  // namespace WMNSIM_FILE_LOCAL
    }  // namespace

    python3 scripts/check_test_files.py [ROOT]
"""

import pathlib
import sys

OPEN = "namespace {"
OPEN_LOCAL = "namespace WMNSIM_FILE_LOCAL {"
CLOSE = "}  // namespace"
CLOSE_LOCAL = "}  // namespace WMNSIM_FILE_LOCAL"


def check_file(path: pathlib.Path, shown: str) -> list[str]:
    problems = []
    lines = path.read_text(encoding="utf-8").splitlines()
    depth = 0  # file-local namespaces open at this line
    for i, line in enumerate(lines):
        following = lines[i + 1] if i + 1 < len(lines) else ""
        previous = lines[i - 1] if i > 0 else ""
        if line.strip() == OPEN and not following.strip().startswith(OPEN_LOCAL):
            problems.append(f"{shown}:{i + 1}: an anonymous namespace not followed by `{OPEN_LOCAL}`")
        elif line.strip().startswith(OPEN_LOCAL):
            if previous.strip() != OPEN:
                problems.append(f"{shown}:{i + 1}: `{OPEN_LOCAL}` outside an anonymous namespace")
            depth += 1
        elif line.strip() == CLOSE and previous.strip() != CLOSE_LOCAL:
            problems.append(f"{shown}:{i + 1}: an anonymous namespace closed without closing "
                            f"WMNSIM_FILE_LOCAL first (`{CLOSE_LOCAL}` on the line before)")
        elif line.strip() == CLOSE_LOCAL:
            if following.strip() != CLOSE:
                problems.append(f"{shown}:{i + 1}: WMNSIM_FILE_LOCAL closed but not the anonymous "
                                f"namespace around it (`{CLOSE}` on the line after)")
            depth -= 1
    if depth != 0:
        problems.append(f"{shown}: WMNSIM_FILE_LOCAL opened and closed unequally ({depth:+d})")
    return problems


def check(root: pathlib.Path) -> list[str]:
    tests = root / "tests"
    problems = []
    for path in sorted(tests.rglob("*.cpp")):
        if "shards" in path.relative_to(tests).parts:  # its own program, not batched
            continue
        problems += check_file(path, str(path.relative_to(root)))
    return problems


def main() -> int:
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parent.parent)
    if not (root / "tests").is_dir():
        print(f"check_test_files: no tests/ folder in {root}", file=sys.stderr)
        return 2
    problems = check(root)
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} places would break the unity build of the tests "
              "(scripts/check_test_files.py, docs/testing.md \"CI's time\")")
        return 1
    print("test files: every anonymous namespace nests WMNSIM_FILE_LOCAL")
    return 0


if __name__ == "__main__":
    sys.exit(main())
