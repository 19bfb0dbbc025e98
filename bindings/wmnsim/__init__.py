"""wmnsim: a discrete-event simulator of 802.11 wireless mesh networks.

Run a scenario and look at the results::

    import wmnsim
    result = wmnsim.run("scenarios/two_hop_chain_tcp.json", seed=7,
                        overrides={"/simulation/duration_s": 30})
    print(result.flows)                      # one row per flow (pandas)
    wmnsim.plot.flow_goodput(result, path="goodput.png")

The public names: :class:`Scenario`, :func:`run`, :class:`Result`,
:class:`Progress`, :func:`compare` (results against a reference file) and its
:class:`Comparison`, :func:`sweep` (parameter sweeps on Dask, docs/sweeps.md)
and its :class:`SweepData` and :class:`SweepError`, the exceptions :class:`ScenarioError` (a ``ValueError``),
:class:`NotSupportedError` (a ``NotImplementedError``) and
:class:`ValidationIssue`, and the modules :mod:`wmnsim.plot` and
:mod:`wmnsim.model` (analytical models, docs/model.md). ``python -m wmnsim``
is the ``wmnsim`` command line. docs/python.md has the whole guide.
"""
from __future__ import annotations

# In a development tree the compiled _core sits in the build folder's
# python/wmnsim/ and these files in bindings/wmnsim/: with both on PYTHONPATH the
# package spans the two folders. An installed package has them in one folder.
from pkgutil import extend_path

__path__ = extend_path(__path__, __name__)

from . import _core  # noqa: E402
from ._errors import NotSupportedError, ScenarioError, ValidationIssue  # noqa: E402
from .result import Progress, Result  # noqa: E402
from ._run import run  # noqa: E402
from .comparison import Comparison, compare  # noqa: E402
from .scenario import Scenario  # noqa: E402
from . import model  # noqa: E402
# wmnsim.sweep is the sweep function; wmnsim.sweep.load, .aggregate, ... hang off it.
from .sweep import SweepData, SweepError, sweep  # noqa: E402

__version__: str = _core.__version__
#: Build type of the compiled core ("Release", "RelWithDebInfo", ...).
build_type: str = _core.build_type
#: Git commit of the compiled core (12 hex digits, "+dirty" for a modified tree,
#: "unknown" outside a git checkout).
commit: str = _core.commit


def __getattr__(name: str):
    # wmnsim.plot imports matplotlib, so it loads on first use only.
    # wmnsim.plot imports matplotlib, wmnsim.trace pandas: each loads on first use.
    if name in ("plot", "trace"):
        import importlib

        return importlib.import_module("." + name, __name__)
    raise AttributeError(f"module 'wmnsim' has no attribute {name!r}")


__all__ = [
    "Scenario",
    "run",
    "Result",
    "Progress",
    "compare",
    "Comparison",
    "ScenarioError",
    "NotSupportedError",
    "ValidationIssue",
    "plot",
    "trace",
    "model",
    "sweep",
    "SweepData",
    "SweepError",
    "__version__",
    "build_type",
    "commit",
]
