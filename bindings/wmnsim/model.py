"""Analytical models. :func:`starvation` is the Markov model of TCP starvation in a
two-hop chain, paper 000 Sec. 5 (control/starvation_model.hpp, docs/model.md)::

    import wmnsim
    r = wmnsim.model.starvation(cw_min_b=64, window=3)
    print(r.lambda_a_pps, r.lambda_b_pps, r.share_a, r.p_q1_and_qg_empty)

:func:`capacity` gives each flow's max-min fair share under paper 001's collision-domain
and clique models (control/capacity_model.hpp, docs/capacity.md)::

    c = wmnsim.model.capacity("scenarios/jamshaid/chain_1mbps.json")
    print([f["collision_domain_bps"] for f in c["flows"]], c["b"]["mac_capacity_bps"])

Bad parameters raise ``ValueError`` with the C++ message naming the parameter.
"""
from __future__ import annotations

import dataclasses
import json
from typing import Any, Dict, Mapping, Optional, Union

from . import _core
from ._errors import ScenarioError
from .scenario import Overrides, PathLike, Scenario

__all__ = ["StarvationResult", "capacity", "starvation"]


@dataclasses.dataclass(frozen=True)
class StarvationResult:
    """One solution of the model; the fields of the JSON document (docs/model.md)."""

    params: Dict[str, Any]
    lambda_a_pps: float  #: flow A -> GW (two hops), packets/s
    lambda_b_pps: float  #: flow B -> GW (one hop), packets/s
    lambda_a_bps: float  #: payload bit/s
    lambda_b_bps: float
    share_a: float  #: lambda_a / (lambda_a + lambda_b)
    jain_index: float
    p_q1_empty: float  #: Fig. 28, under the stationary distribution
    p_qg_empty: float
    p_q1_and_qg_empty: float
    p: Dict[str, float]  #: Eq. (3): channel states "1".."6", "c", "delta"
    duration_us: Dict[str, float]  #: T_i of the same states
    mean_state_duration_us: float  #: Delta
    first_packet_slots_a: int
    first_packet_slots_g: int
    feasible_states: int
    reachable_states: int
    bound_h: int  #: Eq. (2)
    max_row_sum_error: float
    iterations: int
    residual: float

    @classmethod
    def from_dict(cls, doc: Dict[str, Any]) -> "StarvationResult":
        """From the model's JSON document (what ``wmnsim model starvation --json`` prints per row)."""
        return cls(**{f.name: doc[f.name] for f in dataclasses.fields(cls)})

    def to_dict(self) -> Dict[str, Any]:
        """The fields as a plain dict (the JSON document's layout)."""
        return dataclasses.asdict(self)


def _starvation_text(params: Dict[str, Any]) -> str:
    """The model's JSON document as text (the command line prints these)."""
    return _core.starvation_model(json.dumps(params))


def starvation(cw_min_b: int = 32, window: int = 3, *, window_a: Optional[int] = None,
               window_b: Optional[int] = None, cw_min_a: int = 32, cw_min_g: int = 32, cw_max: int = 1024,
               retry_limit: int = 7, rts_cts: bool = False, payload_bytes: int = 1460,
               **phy: Any) -> StarvationResult:
    """Solves the model. ``window`` sets both fixed TCP windows unless ``window_a`` /
    ``window_b`` are given. Further keywords (``data_rate_bps``, ``basic_rate_bps``,
    ``short_preamble``, ``tolerance``, ``max_iterations``) go to the C++ parameters."""
    params: Dict[str, Any] = {
        "cw_min_a": cw_min_a, "cw_min_b": cw_min_b, "cw_min_g": cw_min_g, "cw_max": cw_max,
        "window_a": window if window_a is None else window_a,
        "window_b": window if window_b is None else window_b,
        "retry_limit": retry_limit, "rts_cts": rts_cts, "payload_bytes": payload_bytes, **phy,
    }
    return StarvationResult.from_dict(json.loads(_starvation_text(params)))


def capacity(scenario: Union[PathLike, Mapping[str, Any], Scenario], *, at: Optional[float] = None,
             mac_capacity_bps: Optional[float] = None, overrides: Optional[Overrides] = None) -> Dict[str, Any]:
    """Paper 001's capacity models (Appendix A) for a scenario: its PHY and routing built
    as a run builds them, then each flow's max-min fair share under the collision-domain
    and the clique model. Returns what ``wmnsim model capacity --json`` prints: ``b``
    (B and where it came from), ``models`` (U_opt and the constraints of each model) and
    ``flows`` (per flow: ``hops``, ``route``, ``active``, ``collision_domain_bps``,
    ``clique_bps``; a rate is None for a flow with no wireless hop).

    ``at``: only the flows sending at that time (start <= at < stop) are active; the
    others get 0. ``mac_capacity_bps``: B instead of Bianchi's one-station figure.
    ``overrides``: as :meth:`Scenario.with_overrides`. A scenario that cannot be built
    raises :class:`ScenarioError` (or ``NotSupportedError``); a bad value ``ValueError``.
    """
    sc = Scenario(scenario)
    if overrides is not None:
        sc = sc.with_overrides(overrides)
    try:
        text = _core.capacity_model(sc._text(), None if at is None else float(at),
                                    None if mac_capacity_bps is None else float(mac_capacity_bps))
    except ScenarioError as e:
        raise e.with_source(sc._source) from None
    result: Dict[str, Any] = json.loads(text)
    return result
