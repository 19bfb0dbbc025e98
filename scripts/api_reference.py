#!/usr/bin/env python3
"""The Python module's API reference (docs/api.md), rendered from the module itself:
every public name of `wmnsim` (its __all__), and of its submodules plot, trace, model
and sweep, with its signature and docstring. tests/python/test_api_reference.py fails
when docs/api.md differs from what this writes.

    PYTHONPATH=bindings:build/ci/python python3 scripts/api_reference.py --write
"""
import argparse
import inspect
import pathlib
import re
import sys

import wmnsim

DOC = pathlib.Path(__file__).resolve().parents[1] / "docs" / "api.md"
SUBMODULES = ("plot", "trace", "model", "sweep")


def signature(obj) -> str:
    try:
        text = str(inspect.signature(obj))
    except (TypeError, ValueError):
        return "(...)"
    return re.sub(r" at 0x[0-9a-f]+", "", text)  # no addresses: the page must not change by itself


def doc(obj) -> str:
    return inspect.cleandoc(obj.__doc__) if obj.__doc__ else "(no docstring)"


def public_members(cls) -> list:
    out = []
    for name, member in sorted(vars(cls).items()):
        if name.startswith("_") and name != "__init__":
            continue
        if name == "__init__" and not member.__doc__:
            continue
        out.append((name, member))
    return out


def render_class(qualname: str, cls) -> list:
    lines = [f"### `{qualname}`", "", doc(cls), ""]
    for name, member in public_members(cls):
        target = member.fget if isinstance(member, property) else getattr(member, "__func__", member)
        if isinstance(member, property):
            lines += [f"- **`{name}`** (property): {doc(member).splitlines()[0]}"]
        elif callable(target):
            first = doc(target).split("\n\n")[0].replace("\n", " ")
            lines += [f"- **`{name}{signature(target)}`**: {first}"]
    return lines + [""]


def render_function(qualname: str, fn) -> list:
    return [f"### `{qualname}{signature(fn)}`", "", doc(fn), ""]


def public_names(module) -> list:
    names = getattr(module, "__all__", None)
    if names is None:
        names = [n for n, v in vars(module).items()
                 if not n.startswith("_") and getattr(v, "__module__", None) == module.__name__]
    return sorted(names)


def render() -> str:
    lines = ["# Python API reference", "",
             "Generated from the module by `scripts/api_reference.py` (do not edit: "
             "`tests/python/test_api_reference.py` fails when this page is stale). "
             "The guides are [python.md](python.md), [sweeps.md](sweeps.md), [traces.md](traces.md) "
             "and [tutorial.md](tutorial.md).", ""]
    sections = [("wmnsim", wmnsim, [n for n in wmnsim.__all__ if n not in SUBMODULES and not n.startswith("__")])]
    sections += [(f"wmnsim.{m}", getattr(wmnsim, m), public_names(getattr(wmnsim, m))) for m in SUBMODULES]
    for title, module, names in sections:
        lines += [f"## `{title}`", ""]
        if module is not wmnsim:
            lines += [doc(module).split("\n\n")[0], ""]
        for name in names:
            obj = getattr(module, name)
            qualname = f"{title}.{name}"
            if inspect.isclass(obj):
                lines += render_class(qualname, obj)
            elif callable(obj):
                lines += render_function(qualname, obj)
            else:
                # A value (the build's commit, its type): its type only, so the page does not
                # change with every build.
                lines += [f"### `{qualname}`", "", f"A `{type(obj).__name__}` of the build that is running.", ""]
    return "\n".join(lines).rstrip() + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--write", action="store_true", help=f"write {DOC}")
    args = ap.parse_args()
    text = render()
    if args.write:
        DOC.write_text(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
