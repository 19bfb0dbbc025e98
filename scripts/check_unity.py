#!/usr/bin/env python3
"""Checks that the C++ sources can be compiled in batches (CMake's unity build).

CI compiles the test files eight at a time as one translation unit, and in the
sanitizer build the libraries too (scripts/build.sh, tests/CMakeLists.txt).

The test files: There, two files' anonymous namespaces are one namespace: a helper both files
define fails to compile, and a helper one file overloads differently is, silently,
called from the other file. So each test file keeps its code in
`namespace WMNSIM_FILE_LOCAL`, nested in an anonymous namespace; the macro is a name
unique to the file in a batch (empty otherwise):

    namespace wmnsim::mac {
    namespace {
    namespace WMNSIM_FILE_LOCAL {  // ...
    ...
    }  // namespace WMNSIM_FILE_LOCAL
    }  // namespace
    }  // namespace wmnsim::mac

The check reads each file with its comments and literals blanked and fails, with the
file and line, on:
- an anonymous namespace that holds anything but one `namespace WMNSIM_FILE_LOCAL`;
- code at global or named namespace scope outside it (helpers, constants, `using`,
  tests), except the few entities a header declares a friend (ALLOWED) and the
  plugin sources (tests/plugins/*.cpp but test_*.cpp: their classes are declared in
  their headers; their private helpers are file-local like a test file's);
- a `#define` without an `#undef` later in the file, and a `#pragma GCC diagnostic`
  change outside a push/pop pair (either would reach the batch's later files).

The libraries keep plain anonymous namespaces, whose names must then differ between
the files of one library (one CMake target, batched together): the check fails on a
name (not a `using` alias) that two files of a library folder define in their
anonymous namespaces or as `static` at namespace scope, naming both files, and on a
`using namespace` directive, a `using n::name;` declaration or a `using enum` at namespace scope (it
would reach the files after it in the batch; block scope is fine).

    python3 scripts/check_unity.py [ROOT]
"""

import pathlib
import re
import sys

LOCAL = "WMNSIM_FILE_LOCAL"
# Entities a test file defines at named-namespace scope because a header names them
# (friends of the class whose layout the test reads).
ALLOWED = {
    "tests/mac/test_mac_layout.cpp": {"MacLayout"},
    "tests/phy/test_radio_layout.cpp": {"RadioLayout"},
}
TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|::|[{};]|\S")


def blank(text: str) -> tuple[str, list[tuple[int, str]]]:
    """The text with comments, string and character literals and preprocessor lines
    replaced by spaces (newlines kept, so lines still count), and the preprocessor
    lines apart, each with its line number."""
    out = []
    directives = []
    i, n, line = 0, len(text), 1
    at_line_start = True
    while i < n:
        c = text[i]
        if at_line_start and c == "#":
            start_line = line
            j = i
            while j < n and text[j] != "\n" or (j < n and j > 0 and text[j - 1] == "\\"):
                j += 1
            directive = text[i:j]
            directives.append((start_line, directive.replace("\\\n", " ")))
            out.append("".join("\n" if ch == "\n" else " " for ch in directive))
            line += directive.count("\n")
            i = j
            continue
        if c == "\n":
            out.append(c)
            line += 1
            i += 1
            at_line_start = True
            continue
        if not c.isspace():
            at_line_start = False
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
            continue
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            chunk = text[i:j]
            out.append("".join("\n" if ch == "\n" else " " for ch in chunk))
            line += chunk.count("\n")
            i = j
            continue
        raw = re.match(r'(?:u8|u|U|L)?R"([^(\s]*)\(', text[i:i + 24])
        if raw and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            end = ")" + raw.group(1) + '"'
            j = text.find(end, i + raw.end())
            j = n if j < 0 else j + len(end)
            chunk = text[i:j]
            out.append("".join("\n" if ch == "\n" else " " for ch in chunk))
            line += chunk.count("\n")
            i = j
            continue
        # A quote opens a literal, except a digit separator (1'000) after a digit.
        if c == '"' or (c == "'" and not (i > 0 and text[i - 1].isalnum())):
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            j = min(n, j + 1)
            out.append(" " * (j - i))
            i = j
            continue
        out.append(c)
        i += 1
    return "".join(out), directives


def tokens(code: str) -> list[tuple[int, str]]:
    result = []
    for number, text in enumerate(code.split("\n"), 1):
        result += [(number, m.group(0)) for m in TOKEN.finditer(text)]
    return result


def check_directives(directives: list[tuple[int, str]], shown: str) -> list[str]:
    problems = []
    defined = {}
    depth = 0
    for number, text in directives:
        words = text.lstrip("#").split()
        if len(words) >= 2 and words[0] == "define":
            defined[re.match(r"[A-Za-z_][A-Za-z0-9_]*", words[1]).group(0)] = number
        elif len(words) >= 2 and words[0] == "undef":
            defined.pop(words[1], None)
        elif words[:2] == ["pragma", "GCC"] and len(words) >= 4 and words[2] == "diagnostic":
            if words[3] == "push":
                depth += 1
            elif words[3] == "pop":
                depth -= 1
            elif depth <= 0:
                problems.append(f"{shown}:{number}: `#pragma GCC diagnostic {words[3]}` outside a "
                                "push/pop pair reaches the files after it in a batch")
        elif words[:1] == ["pragma"] and words[1:2] != ["once"]:
            # Any other pragma (optimize, pack, clang diagnostic) holds to the end of the batch.
            problems.append(f"{shown}:{number}: `#{' '.join(words[:3])}` reaches the files after it in "
                            "a batch; avoid it or undo it at the file's end and allow it here")
        elif words[:1] in (["if"], ["ifdef"], ["ifndef"]) and len(words) >= 2 and words[1] == "0":
            problems.append(f"{shown}:{number}: `#if 0`: the check does not evaluate conditions, "
                            "so write no code that is never compiled")
    for name, number in defined.items():
        problems.append(f"{shown}:{number}: `#define {name}` without an `#undef {name}` at the end "
                        "reaches the files after it in a batch")
    if depth > 0:
        problems.append(f"{shown}: a `#pragma GCC diagnostic push` without its pop")
    return problems


def statement_end(toks: list[tuple[int, str]], i: int) -> int:
    """The index after the declaration or statement that toks[i] is in: after its `;` at
    its own depth, or after its closing brace and an optional `;` (or at a `}` that
    closes the scope around it)."""
    depth = 0
    while i < len(toks):
        t = toks[i][1]
        if t == "{":
            depth += 1
        elif t == "}":
            if depth == 0:
                return i
            depth -= 1
            if depth == 0:
                i += 1
                return i + 1 if i < len(toks) and toks[i][1] == ";" else i
        elif t == ";" and depth == 0:
            return i + 1
        i += 1
    return i


def check_file(path: pathlib.Path, shown: str, code_outside_allowed: bool) -> list[str]:
    code, directives = blank(path.read_text(encoding="utf-8"))
    problems = check_directives(directives, shown)
    toks = tokens(code)
    allowed = ALLOWED.get(shown, set())
    # The scopes open at this token: "named" (global or a named namespace), "anonymous",
    # "local" (WMNSIM_FILE_LOCAL) or "other" (any other brace).
    stack = ["named"]
    i = 0
    while i < len(toks):
        number, tok = toks[i]
        scope = stack[-1]
        if tok == "}":
            closed = stack.pop() if len(stack) > 1 else "named"
            if closed == "local" and stack[-1] == "anonymous" and (i + 1 >= len(toks) or toks[i + 1][1] != "}"):
                problems.append(f"{shown}:{number}: code in the anonymous namespace after {LOCAL} closes")
            i += 1
            continue
        if tok == "{":
            stack.append("other")
            i += 1
            continue
        if scope in ("local", "other"):
            i += 1
            continue
        # At namespace scope: a namespace opens, or a declaration starts.
        if tok == "namespace":
            j = i + 1
            names = []
            while j < len(toks) and toks[j][1] not in ("{", ";", "="):
                names.append(toks[j][1])
                j += 1
            opens = j < len(toks) and toks[j][1] == "{"
            if opens and not names:
                if scope == "anonymous":
                    problems.append(f"{shown}:{number}: an anonymous namespace inside another")
                stack.append("anonymous")
                if j + 1 >= len(toks) or toks[j + 1][1] != "namespace" or \
                        j + 2 >= len(toks) or toks[j + 2][1] != LOCAL:
                    problems.append(f"{shown}:{number}: an anonymous namespace that does not open "
                                    f"with `namespace {LOCAL} {{`")
                i = j + 1
                continue
            if opens and names == [LOCAL]:
                if scope != "anonymous":
                    problems.append(f"{shown}:{number}: `namespace {LOCAL}` outside an anonymous namespace")
                stack.append("local")
                i = j + 1
                continue
            if opens and scope == "named":
                stack.append("named")
                i = j + 1
                continue
        # A declaration or statement at named or anonymous namespace scope.
        start = i
        i = statement_end(toks, i)
        words = [t for _, t in toks[start:min(i, start + 3)]]
        if scope == "anonymous":
            problems.append(f"{shown}:{number}: code in an anonymous namespace outside {LOCAL}")
        elif code_outside_allowed:
            pass
        elif len(words) >= 2 and words[0] in ("struct", "class") and words[1] in allowed:
            pass
        else:
            problems.append(f"{shown}:{number}: code at namespace scope outside {LOCAL} "
                            f"(`{' '.join(words)} ...`): it is visible to the files batched with this one")
    return problems


# The library folders (one CMake target each, scripts/check_layers.py's layers).
LIBRARIES = ["core", "config", "link", "phy", "mac", "transport", "trace", "control", "scenario", "results",
             "runner", "analysis", "fixtures", "cli", "bindings"]


IDENTIFIER = re.compile(r"[A-Za-z_]\w*")
# Words of a declaration that are not the name it declares.
NOT_NAMES = {"const", "constexpr", "constinit", "consteval", "inline", "static", "extern", "volatile",
             "final", "override", "noexcept", "typename", "unsigned", "signed", "thread_local", "mutable",
             "static_assert"}


def declared_name(toks: list[tuple[int, str]], i: int) -> tuple[str | None, bool, int]:
    """The name a namespace-scope declaration starting at toks[i] declares (None for
    `using` and the like), whether it is `static`, and the index where its head ends
    (its `(`, `=`, `{`, `;` or `[`, or `:` after a class name)."""
    n = len(toks)
    name = None
    static = False
    angle = 0
    while i < n:
        t = toks[i][1]
        if t == "[" and i + 1 < n and toks[i + 1][1] == "[":  # an attribute: [[...]]
            depth = 0
            while i < n:
                depth += {"[": 1, "]": -1}.get(toks[i][1], 0)
                i += 1
                if depth == 0:
                    break
            continue
        if t == "template" and i + 1 < n and toks[i + 1][1] == "<":  # its parameters are not names
            depth = 0
            i += 1
            while i < n:
                depth += {"<": 1, ">": -1}.get(toks[i][1], 0)
                i += 1
                if depth == 0:
                    break
            continue
        if t in ("struct", "class", "union", "enum") and angle == 0:
            i += 1
            while i < n and toks[i][1] in ("class", "struct"):  # enum class
                i += 1
            if i < n and IDENTIFIER.fullmatch(toks[i][1]):
                name = toks[i][1]
            while i < n and toks[i][1] not in ("{", ";"):
                i += 1
            return name, static, i
        if t == "operator":  # operator== and the like: the symbol is part of the name
            symbol = ""
            i += 1
            while i < n and toks[i][1] != "(" or (i < n and symbol == "" and toks[i][1] == "("):
                symbol += toks[i][1]
                i += 1
                if symbol == "()":
                    break
            return "operator" + symbol, static, i
        if t == "static":
            static = True
        if angle == 0 and t in ("(", "=", "{", ";", "["):
            break
        if t == "<":
            angle += 1
        elif t == ">":
            angle = max(0, angle - 1)
        elif angle == 0 and IDENTIFIER.fullmatch(t) and t not in NOT_NAMES:
            name = t
        i += 1
    return name, static, i


def file_local_names(path: pathlib.Path, usings: list[tuple[int, str]] | None = None) -> dict[str, int]:
    """The names a source file declares in its anonymous namespaces (first level) or as
    `static` at namespace scope, each with the line of its first declaration; the
    namespace-scope `using` directives and declarations (not aliases) are added to
    ``usings`` as (line, text)."""
    code, _ = blank(path.read_text(encoding="utf-8"))
    toks = tokens(code)
    names: dict[str, int] = {}
    usings = [] if usings is None else usings
    stack = ["named"]
    i = 0
    while i < len(toks):
        number, tok = toks[i]
        if tok == "}":
            if len(stack) > 1:
                stack.pop()
            i += 1
            continue
        if tok == "{":
            stack.append("other")
            i += 1
            continue
        if stack[-1] == "other":
            i += 1
            continue
        if tok == "namespace":
            j = i + 1
            while j < len(toks) and toks[j][1] not in ("{", ";", "="):
                j += 1
            if j < len(toks) and toks[j][1] == "{":
                # A namespace inside an anonymous one is file-local too.
                stack.append("anonymous" if j == i + 1 or stack[-1] == "anonymous" else "named")
                i = j + 1
                continue
        if tok == "using":
            # `using namespace n;`, `using n::f;` or `using enum E;` at namespace scope (named or anonymous:
            # a batch's files share one anonymous namespace) reaches the files after it in a
            # batch, where an unqualified call may then find another overload. Not an alias
            # (`using T = ...;`): two of one name fail to compile, which is not silent.
            j = statement_end(toks, i)
            words = [t for _, t in toks[i:j]]
            alias = len(words) > 2 and words[2] == "="  # `using T = ...;` (not `using n::operator==;`)
            if words[1:2] in (["namespace"], ["enum"]) or ("::" in words and not alias):
                usings.append((number, " ".join(code.split("\n")[number - 1].split()).rstrip(";")))
        # A declaration: the name it declares, and whether it is `static`.
        start = i
        name, static, i = declared_name(toks, i)
        counted = stack[-1] == "anonymous" or static
        # Not `using` (two files' aliases of one type may coexist; of two types they fail
        # to compile, which is not silent).
        if counted and name and toks[start][1] != "using":
            names.setdefault(name, number)
        i = statement_end(toks, i)
    return names


def check_libraries(root: pathlib.Path) -> list[str]:
    problems = []
    for library in LIBRARIES:
        seen: dict[str, str] = {}
        for path in sorted((root / library).rglob("*.cpp")):
            shown = path.relative_to(root).as_posix()
            problems += check_directives(blank(path.read_text(encoding="utf-8"))[1], shown)
            usings: list[tuple[int, str]] = []
            for name, number in file_local_names(path, usings).items():
                if name in seen:
                    problems.append(f"{shown}:{number}: `{name}` is also defined in {seen[name]}: in a "
                                    f"batch of {library}/ they would clash or overload; give one another name")
                else:
                    seen[name] = f"{shown}:{number}"
            for number, text in usings:
                problems.append(f"{shown}:{number}: `{text};` at namespace scope reaches the files after it "
                                f"in a batch of {library}/; qualify the names, or put it in the functions "
                                "that use them")
    return problems


def check(root: pathlib.Path) -> list[str]:
    tests = root / "tests"
    problems = []
    for path in sorted(tests.rglob("*.cpp")):
        parts = path.relative_to(tests).parts
        if parts[0] == "shards":  # its own program, not batched
            continue
        plugin_source = parts[0] == "plugins" and not path.name.startswith("test_")
        problems += check_file(path, path.relative_to(root).as_posix(), plugin_source)
    return problems + check_libraries(root)


def main() -> int:
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parent.parent)
    if not (root / "tests").is_dir():
        print(f"check_unity: no tests/ folder in {root}", file=sys.stderr)
        return 2
    problems = check(root)
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} places would break the unity build "
              "(scripts/check_unity.py, docs/testing.md \"CI's time\")")
        return 1
    print(f"test files: all code in {LOCAL}, no macro or warning setting leaks; "
          "libraries: no file-local name defined twice in one library, no `using` at namespace scope")
    return 0


if __name__ == "__main__":
    sys.exit(main())
