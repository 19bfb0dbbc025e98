"""Everything public is documented, and the _core stubs match the extension."""
import ast
import inspect
import pathlib

import wmnsim
import wmnsim._core as core
import wmnsim.plot

STUB = pathlib.Path(wmnsim.__file__).with_name("_core.pyi")


def public_members(obj):
    for name, member in vars(obj).items():
        if not name.startswith("_") and (inspect.isfunction(member) or isinstance(member, property)):
            yield name, member


def test_every_public_name_has_a_docstring():
    missing = []
    for name in wmnsim.__all__:
        obj = getattr(wmnsim, name)
        if isinstance(obj, str):
            continue
        if not inspect.getdoc(obj):
            missing.append(name)
        if inspect.isclass(obj):
            for member_name, member in public_members(obj):
                if not inspect.getdoc(member) and member_name not in ("events_per_s", "simulated_time_s", "seed"):
                    missing.append(f"{name}.{member_name}")
    for name in wmnsim.plot.__all__:
        if not inspect.getdoc(getattr(wmnsim.plot, name)):
            missing.append(f"plot.{name}")
    assert missing == []


def test_help_explains_run():
    doc = inspect.getdoc(wmnsim.run)
    assert "KeyboardInterrupt" in doc and "ScenarioError" in doc and "seed" in doc


def test_core_stub_lists_every_name_of_the_extension():
    tree = ast.parse(STUB.read_text())
    stubbed = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    stubbed |= {t.id for n in tree.body if isinstance(n, (ast.AnnAssign,)) for t in [n.target]}
    actual = {n for n in dir(core) if not n.startswith("_")} | {"__version__"}
    assert actual - stubbed == set()
    assert {n for n in stubbed if not n.startswith("_")} - actual - {"ProgressCallback"} == set()
    assert wmnsim.__version__ == core.__version__
