"""The binary wheel, as a user without a compiler gets it (issue 42, docs/python.md).

scripts/wheel.sh --ci builds the wheel (`pip wheel .` with the build requirements from
PyPI, then `auditwheel repair`); the test checks that the extension needs nothing
outside what a manylinux policy lets a wheel expect, installs the wheel into a fresh
venv without system site packages (numpy, pandas and matplotlib come from PyPI), and
runs the README's "Python in ten lines" example there, taken from README.md so that
the test follows the README.

--ci reuses build/ci's objects through ccache (scripts/build.sh), so after the ci
build only the extension's own files compile. WMNSIM_WHEEL is a wheel built before
(the test then only installs and runs it).
"""
import os
import pathlib
import re
import subprocess
import sys
import zipfile

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
PYTHON = "/usr/bin/python3"  # the interpreter the wheel is built for and the venv is made from
# What the manylinux policies let an extension link from the machine (PEP 600: glibc and
# the compiler's runtime); anything else must be inside the wheel (wmnsim.libs/).
SYSTEM_LIBRARIES = re.compile(r"^(linux-vdso|libc|libm|libpthread|libdl|librt|libgcc_s|libstdc\+\+|"
                              r"ld-linux-x86-64)\.so")


def readme_python_example() -> str:
    """The first ```python block of the README's "Python in ten lines" section."""
    text = README.read_text()
    section = re.search(r"^## Python in ten lines\n(.*?)(?=^## )", text, re.M | re.S)
    assert section, 'README.md has no "## Python in ten lines" section'
    block = re.search(r"^```python\n(.*?)^```", section.group(1), re.M | re.S)
    assert block, 'README.md\'s "Python in ten lines" has no ```python block'
    return block.group(1)


def test_the_example_is_the_readmes():
    example = readme_python_example()
    assert "wmnsim.run(" in example and "import wmnsim" in example


def undeclared_libraries(ldd_output: str) -> list:
    """The libraries ldd lists that are neither the system's allowed ones nor the wheel's own."""
    bad = []
    for line in ldd_output.splitlines():
        name = os.path.basename(line.strip().split(" ", 1)[0])
        if not name or SYSTEM_LIBRARIES.match(name):
            continue
        target = line.split("=>", 1)[1].strip() if "=>" in line else ""
        if "not found" in target or "wmnsim.libs" not in target:
            bad.append(line.strip())
    return bad


def test_undeclared_libraries_are_found():
    ldd = ("\tlinux-vdso.so.1 (0x00007ffd)\n"
           "\tlibspdlog-abc.so.1.10 => /v/lib/python3.11/site-packages/wmnsim.libs/libspdlog-abc.so.1.10 (0x7f)\n"
           "\tlibstdc++.so.6 => /lib/x86_64-linux-gnu/libstdc++.so.6 (0x7f)\n"
           "\tlibfmt.so.9 => /lib/x86_64-linux-gnu/libfmt.so.9 (0x7f)\n"
           "\tlibfoo.so.1 => not found\n"
           "\t/lib64/ld-linux-x86-64.so.2 (0x7f)\n")
    assert undeclared_libraries(ldd) == ["libfmt.so.9 => /lib/x86_64-linux-gnu/libfmt.so.9 (0x7f)",
                                         "libfoo.so.1 => not found"]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> pathlib.Path:
    if os.environ.get("WMNSIM_WHEEL"):
        return pathlib.Path(os.environ["WMNSIM_WHEEL"])
    out = tmp_path_factory.mktemp("wheelhouse")
    done = subprocess.run(["bash", str(ROOT / "scripts" / "wheel.sh"), "--ci", str(out)], cwd=ROOT,
                          capture_output=True, text=True, timeout=1200)
    assert done.returncode == 0, done.stderr[-4000:]
    path = pathlib.Path(done.stdout.strip().splitlines()[-1])
    assert path.is_file() and path.parent == out, done.stdout
    return path


@pytest.fixture(scope="module")
def venv(wheel, tmp_path_factory) -> pathlib.Path:
    """A fresh venv (no system site packages) with the wheel and its dependencies from PyPI,
    at the versions constraints.txt pins."""
    env_dir = tmp_path_factory.mktemp("venv")
    subprocess.run([PYTHON, "-m", "venv", str(env_dir)], check=True, timeout=300)
    done = subprocess.run([str(env_dir / "bin" / "pip"), "install", "-q", "--disable-pip-version-check",
                           "-c", str(pathlib.Path(__file__).with_name("constraints.txt")), str(wheel)],
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-4000:]
    return env_dir


def test_the_wheel_is_manylinux_and_carries_its_libraries(wheel):
    assert re.search(r"-manylinux_\d+_\d+_x86_64", wheel.name), wheel.name
    names = zipfile.ZipFile(wheel).namelist()
    assert any(re.match(r"wmnsim/_core\..*\.so$", n) for n in names), names
    assert any(n.startswith("wmnsim.libs/libspdlog") for n in names), names


def test_the_installed_extension_needs_nothing_else(venv):
    python = str(venv / "bin" / "python")
    where = subprocess.run([python, "-c", "import sys, wmnsim._core as c; print(c.__file__); print(sys.prefix)"],
                           capture_output=True, text=True, check=True, cwd="/", timeout=120).stdout.split()
    extension, prefix = pathlib.Path(where[0]), where[1]
    assert str(extension).startswith(str(venv)) and prefix == str(venv), where
    ldd = subprocess.run(["ldd", str(extension)], capture_output=True, text=True, check=True).stdout
    assert undeclared_libraries(ldd) == [], ldd


def test_the_readme_example_runs_in_the_fresh_venv(venv, tmp_path):
    (tmp_path / "scenarios").symlink_to(ROOT / "scenarios")
    script = tmp_path / "example.py"
    # No system site packages: importing anything from Debian's would fail here.
    script.write_text("import sys\nassert not any('dist-packages' in p for p in sys.path), sys.path\n"
                      + readme_python_example())
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    env["MPLBACKEND"] = "Agg"
    done = subprocess.run([str(venv / "bin" / "python"), str(script)], cwd=tmp_path, capture_output=True,
                          text=True, timeout=300, env=env)
    assert done.returncode == 0, done.stderr[-4000:]
    assert "Jain's fairness index" in done.stdout
    for name in ("goodput.png", "goodput_over_time.svg", "topology.png", "results.json"):
        assert (tmp_path / name).stat().st_size > 0, name
