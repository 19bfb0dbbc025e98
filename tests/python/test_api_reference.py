"""docs/api.md is the module's own API reference (scripts/api_reference.py)."""
import importlib.util
import pathlib

import wmnsim

ROOT = pathlib.Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("api_reference", ROOT / "scripts" / "api_reference.py")
api = importlib.util.module_from_spec(spec)
spec.loader.exec_module(api)


def test_the_page_is_current():
    assert (ROOT / "docs" / "api.md").read_text() == api.render(), "run scripts/api_reference.py --write"


def test_every_public_name_has_a_section_and_a_docstring():
    page = api.render()
    for name in wmnsim.__all__:
        if name.startswith("__") or name in api.SUBMODULES:
            continue
        assert f"### `wmnsim.{name}" in page, name
    assert "(no docstring)" not in page
