"""Plots of results and scenarios with matplotlib.

Every function returns a ``matplotlib.figure.Figure`` and, given ``path``, also
saves it (the format follows the suffix: ``.png``, ``.svg``, ``.pdf``). Figures are
made without pyplot, so nothing needs a display and nothing global changes; pass
``ax`` to draw into an axes of your own figure instead.

- :func:`flow_goodput`: per-flow goodput bars.
- :func:`goodput_over_time`, :func:`cwnd_over_time`, :func:`timeseries`: lines over time.
- :func:`topology`: nodes at their positions, gateways marked, radio and wired
  links coloured by use, and each flow's route.
- :func:`sweep`: a metric of a parameter sweep against a parameter, with
  confidence-interval error bars.
"""
from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

from .result import Result
from .scenario import Scenario

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["flow_goodput", "goodput_over_time", "cwnd_over_time", "timeseries", "topology", "sweep", "save"]

PathLike = Union[str, "os.PathLike[str]"]


def save(fig: "Figure", path: PathLike, dpi: int = 150) -> "Figure":
    """Saves ``fig`` to ``path`` (format from the suffix) and returns it."""
    fig.savefig(os.fspath(path), dpi=dpi, bbox_inches="tight")
    return fig


def _axes(ax: Optional["Axes"], size: Tuple[float, float]) -> Tuple["Figure", "Axes"]:
    if ax is not None:
        return ax.figure, ax
    from matplotlib.figure import Figure

    fig = Figure(figsize=size, layout="constrained")
    return fig, fig.add_subplot()


def _done(fig: "Figure", path: Optional[PathLike]) -> "Figure":
    if path is not None:
        save(fig, path)
    return fig


def flow_goodput(result: Result, metric: str = "goodput_bps", ax: Optional["Axes"] = None,
                 path: Optional[PathLike] = None, title: Optional[str] = None) -> "Figure":
    """Bars of one per-flow metric (default ``goodput_bps``, drawn in Mbit/s), one per
    flow, with Jain's fairness index in the title when the summary has it."""
    flows = result.flows
    if flows.empty:
        raise ValueError("these results have no flows to plot")
    if metric not in flows.columns:
        raise KeyError(f'no flow column "{metric}" (columns: {", ".join(map(str, flows.columns))})')
    fig, ax = _axes(ax, (max(4.0, 0.6 * len(flows) + 2), 3.5))
    scale, unit = (1e6, "Mbit/s") if metric.endswith("_bps") else (1.0, "")
    values = flows[metric].astype(float) / scale
    bars = ax.bar(flows["id"].astype(str), values, color="tab:blue")
    ax.bar_label(bars, fmt="%.3g", fontsize=8)
    label = metric[:-4] if metric.endswith("_bps") else metric
    ax.set_ylabel(f"{label} ({unit})" if unit else label)
    ax.set_xlabel("flow")
    jfi = result.summary.get("jain_fairness_index")
    default = "Per-flow " + label + (f" (Jain's index {jfi:.3f})" if isinstance(jfi, (int, float)) else "")
    ax.set_title(title or default)
    ax.tick_params(axis="x", rotation=30 if len(flows) > 6 else 0)
    return _done(fig, path)


# Kinds whose sample at time t covers the interval before it (a count or a fraction
# of (t - interval, t], docs/results.md "Time series"): drawn as steps that end at
# t. The other kinds are a state read at the sample instant: drawn as lines through
# the samples.
INTERVAL_KINDS = frozenset({"flow_goodput", "channel_busyness", "channel_busyness_ns2", "drops",
                            "weighted_intra_mesh_loss"})
LINES_PER_PANEL = 10  # beyond this many lines, timeseries() splits them into panels


def timeseries(result: Result, kind: str, ax: Optional["Axes"] = None, path: Optional[PathLike] = None,
               ids: Optional[Iterable[str]] = None, scale: float = 1.0, ylabel: Optional[str] = None,
               title: Optional[str] = None, per_panel: int = LINES_PER_PANEL, logy: bool = False) -> "Figure":
    """One line per id of a recorded time series (``Result.timeseries(kind)``),
    values divided by ``scale``; ``ids`` picks some of them.

    A kind measured over each interval (goodput, busyness, drops, weighted loss:
    ``INTERVAL_KINDS``) is drawn as steps, each value over the interval it covers
    (t - interval to t); a state read at the sample instant (cwnd, RTT, queue length,
    CW, TXOP limit, WCCP rate) as a line through the samples. More than ``per_panel``
    lines are split into panels of that many, one under the other with a shared time
    axis, so that each line keeps a colour and a legend entry of its own (with ``ax``
    given, all lines go into it and the legend moves beside it). ``logy``: a
    logarithmic value axis."""
    df = result.timeseries(kind)
    wanted = None if ids is None else set(ids)
    parts = [(str(i), p) for i, p in df.groupby("id", sort=False) if wanted is None or i in wanted]
    step = "steps-pre" if kind in INTERVAL_KINDS else "default"
    per_panel = max(1, int(per_panel))
    if ax is not None or len(parts) <= per_panel:
        fig, ax = _axes(ax, (7.0, 3.5))
        panels = [(ax, parts)]
    else:
        from matplotlib.figure import Figure

        chunks = [parts[k:k + per_panel] for k in range(0, len(parts), per_panel)]
        fig = Figure(figsize=(8.0, 2.6 * len(chunks)), layout="constrained")
        axes = fig.subplots(len(chunks), 1, sharex=True, squeeze=False)[:, 0]
        panels = list(zip(axes, chunks))
    unit = df.attrs.get("unit", "")
    colours = _colours(max((len(c) for _, c in panels), default=1))
    interval = df.attrs.get("interval_s")
    for k, (a, chunk) in enumerate(panels):
        for j, (ident, part) in enumerate(chunk):
            times, values = list(part["time_s"]), list(part["value"] / scale)
            if step == "steps-pre" and times and interval:
                # The first sample covers the interval before it too: start the step there.
                times, values = [times[0] - float(interval)] + times, values[:1] + values
            a.plot(times, values, label=ident, drawstyle=step, color=colours[j])
        a.set_ylabel(ylabel or (f"{kind} ({unit})" if unit else kind))
        if logy:
            a.set_yscale("log")
        if a.lines:
            outside = len(chunk) > LINES_PER_PANEL or len(panels) > 1
            a.legend(fontsize=7 if outside else 8, loc="upper left" if outside else "best",
                     bbox_to_anchor=(1.01, 1.0) if outside else None, ncol=1 + len(chunk) // 16)
        a.grid(True, alpha=0.3)
    panels[-1][0].set_xlabel("time (s)")
    panels[0][0].set_title(title or kind.replace("_", " "))
    return _done(fig, path)


def _colours(n: int) -> List[Any]:
    """n distinct colours: tab10, tab20, then evenly spaced on a perceptual map."""
    import matplotlib as mpl

    if n <= 10:
        return [mpl.colormaps["tab10"](i) for i in range(n)]
    if n <= 20:
        return [mpl.colormaps["tab20"](i) for i in range(n)]
    cmap = mpl.colormaps["turbo"]
    return [cmap(i / (n - 1)) for i in range(n)]


def goodput_over_time(result: Result, ax: Optional["Axes"] = None, path: Optional[PathLike] = None,
                      ids: Optional[Iterable[str]] = None) -> "Figure":
    """Per-flow goodput over time in Mbit/s (time series ``flow_goodput``)."""
    return timeseries(result, "flow_goodput", ax=ax, path=path, ids=ids, scale=1e6,
                      ylabel="goodput (Mbit/s)", title="Goodput over time")


def cwnd_over_time(result: Result, ax: Optional["Axes"] = None, path: Optional[PathLike] = None,
                   ids: Optional[Iterable[str]] = None) -> "Figure":
    """TCP congestion windows over time (time series ``tcp_cwnd``)."""
    df = result.timeseries("tcp_cwnd")
    unit = df.attrs.get("unit") or "packets"
    return timeseries(result, "tcp_cwnd", ax=ax, path=path, ids=ids,
                      ylabel=f"congestion window ({unit})", title="TCP congestion window over time")


# ---- topology ----------------------------------------------------------------------

Edge = Tuple[str, str]
MAX_AUTO_ROUTES = 8  # topology(routes="auto") draws route arrows up to this many flows


def _edge(a: str, b: str) -> Edge:
    return (a, b) if a <= b else (b, a)


def flow_routes(scenario: Scenario, result: Optional[Result] = None) -> Dict[str, List[str]]:
    """Each flow's route as a list of node ids.

    Taken from the results' per-flow ``route`` column when the run recorded one;
    otherwise from the routing layer itself (``Scenario.describe()["routing"]["paths"]``:
    the tables a run computes, with its metric, gateway trees and tie rule, and
    ``"@gateway"`` ends resolved as a run resolves them). Flows without a route are
    left out: all of them when the routes cannot be computed (a flow with no route,
    a PHY feature not simulated yet: ``describe()["routing"]["error"]`` says why)."""
    recorded: Dict[str, List[str]] = {}
    if result is not None:
        flows = result.flows
        if "route" in flows.columns:
            for ident, route in zip(flows["id"], flows["route"]):
                if isinstance(route, list) and route:
                    recorded[str(ident)] = [str(n) for n in route]
    described = scenario.describe()
    computed = {str(p["flow"]): list(p["path"]) for p in described["routing"]["paths"] or []}
    routes: Dict[str, List[str]] = {}
    for f in described["flows"]:
        fid = str(f["id"])
        route = recorded.get(fid) or computed.get(fid)
        if route:
            routes[fid] = route
    return routes


def _draw_reach(ax: "Axes", scenario: Scenario, pos: Dict[str, Tuple[float, float]], nodes: List[str]) -> None:
    """The decoding and sensing reach of ``nodes`` (plot.topology's ``reach``)."""
    from matplotlib.collections import LineCollection

    unknown = [n for n in nodes if n not in pos]
    if unknown:
        raise KeyError(f"reach: no placed node {', '.join(map(repr, unknown))} (nodes: {', '.join(pos)})")
    radio_nodes = {n["id"] for n in scenario.describe()["nodes"] if n["channels"]}
    no_radio = [n for n in nodes if n not in radio_nodes]
    if no_radio:
        raise KeyError(f"reach: {', '.join(map(repr, no_radio))} has no radio")
    links = scenario.radio_links(sensed=True)
    links = links[links["src"].isin(nodes) & links["dst"].isin(list(pos))]
    decodes = list(zip(links["src"][links["decodable"]], links["dst"][links["decodable"]]))
    only = ~links["decodable"] & links["sensed"]
    senses = list(zip(links["src"][only], links["dst"][only]))
    seg = lambda e: [pos[e[0]], pos[e[1]]]  # noqa: E731
    name = nodes[0] if len(nodes) == 1 else "these nodes"
    if decodes:
        ax.add_collection(LineCollection([seg(e) for e in decodes], colors="tab:green", linewidths=1.6, zorder=2.5,
                                         label=f"decodes {name}"))
    if senses:
        ax.add_collection(LineCollection([seg(e) for e in senses], colors="tab:orange", linewidths=1.6, zorder=2.5,
                                         linestyles=":", label=f"senses {name} only"))
    if len(nodes) == 1:
        heard = {b for _, b in decodes + senses} | set(nodes)
        hidden = [n for n in pos if n not in heard and n in radio_nodes]
        if hidden:
            ax.scatter([pos[n][0] for n in hidden], [pos[n][1] for n in hidden], s=380, facecolors="none",
                       edgecolors="tab:red", linestyles="--", linewidths=1.4, zorder=3.5, label=f"hidden from {name}")


# Where a node's label may go, in points from the node: above first, then below,
# right, left and the diagonals, then farther out.
_LABEL_OFFSETS = [(0, 8), (0, -9), (11, 0), (-11, 0), (9, 7), (-9, 7), (9, -8), (-9, -8),
                  (0, 16), (0, -17), (19, 0), (-19, 0)]


def _place_labels(fig: "Figure", ax: "Axes", texts: List[Any]) -> None:
    """Moves node labels so that no two overlap and none covers a node marker: each
    label takes the first offset (_LABEL_OFFSETS) whose box is clear of the labels
    placed before it and of every marker; a label with no clear place keeps the one
    that overlaps least. Measured in display coordinates with the figure's own
    renderer, so it holds for the saved file at the figure's size."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.transforms import Bbox

    if not hasattr(fig.canvas, "get_renderer"):
        FigureCanvasAgg(fig)
    renderer = fig.canvas.get_renderer()
    fig.draw_without_rendering()  # lay out (constrained layout, aspect) before measuring
    scale = fig.dpi / 72.0
    markers = [ax.transData.transform(t.xy) for t in texts]
    radius = 5.5 * scale  # the markers' half size (s = 70..120 points^2)
    marker_boxes = [Bbox.from_extents(x - radius, y - radius, x + radius, y + radius) for x, y in markers]
    placed: List[Any] = []

    def overlap(a: Any, b: Any) -> float:
        w = min(a.x1, b.x1) - max(a.x0, b.x0)
        h = min(a.y1, b.y1) - max(a.y0, b.y0)
        return w * h if w > 0 and h > 0 else 0.0

    for text in texts:
        best, best_cost = None, None
        for dx, dy in _LABEL_OFFSETS:
            text.set_position((dx, dy))
            text.set_horizontalalignment("center" if dx == 0 else "left" if dx > 0 else "right")
            box = text.get_window_extent(renderer).expanded(1.05, 1.1)
            cost = sum(overlap(box, b) for b in placed) + sum(overlap(box, m) for m in marker_boxes)
            if best_cost is None or cost < best_cost:
                best, best_cost = (dx, dy, box), cost
            if cost == 0.0:
                break
        dx, dy, box = best  # type: ignore[misc]
        text.set_position((dx, dy))
        text.set_horizontalalignment("center" if dx == 0 else "left" if dx > 0 else "right")
        placed.append(box)


def topology(source: Union[Result, Scenario, str, "os.PathLike[str]", Dict[str, Any]],
             ax: Optional["Axes"] = None, path: Optional[PathLike] = None,
             routes: Union[bool, str] = "auto", labels: bool = True, title: Optional[str] = None,
             reach: Union[None, str, Sequence[str]] = None) -> "Figure":
    """The network: nodes at their positions (gateways as red squares, mesh routers
    as circles, wired hosts as diamonds beside the node they hang off), radio links
    that can carry data, wired links, and each flow's route drawn as arrows
    (``routes``: True, False, or "auto": when there are at most 8 flows). Links are coloured by use: the summed goodput of the flows
    routed over them (the flow count when the results carry no ``goodput_bps``, or
    for a Scenario); unused links are light grey.

    ``source``: a Result (the scenario as run, plus its goodput and recorded routes)
    or a Scenario (or anything ``Scenario()`` takes).

    ``reach``: a node id (or several) whose radio reach is overlaid, as the PHY
    builds it for a run (``Scenario.radio_links(sensed=True)``: propagation,
    shadowing, thresholds): a line to each node that decodes its frames, a dotted
    line to each that only senses them (carrier sense beyond decoding range), and
    for one node a ring around every node that neither decodes nor senses it:
    hidden from it (those of them that reach a neighbour of it are the hidden
    terminals of 000's mechanism)."""
    import matplotlib as mpl
    from matplotlib.collections import LineCollection

    result = source if isinstance(source, Result) else None
    scenario = result.scenario if result is not None else (
        source if isinstance(source, Scenario) else Scenario(source))  # type: ignore[arg-type]
    d = scenario.describe()
    pos: Dict[str, Tuple[float, float]] = {
        n["id"]: (n["position_m"][0], n["position_m"][1]) for n in d["nodes"] if n["position_m"] is not None}
    xs = [p[0] for p in pos.values()] or [0.0]
    ys = [p[1] for p in pos.values()] or [0.0]
    span = max(max(xs) - min(xs), max(ys) - min(ys), 1.0)
    # Hosts have no position: put them below the node their wired link reaches.
    placed_below: Dict[str, int] = {}
    for _ in range(len(d["nodes"])):
        for link in d["links"]:
            for host, peer in ((link["a"], link["b"]), (link["b"], link["a"])):
                if host not in pos and peer in pos:
                    k = placed_below.get(peer, 0)
                    placed_below[peer] = k + 1
                    pos[host] = (pos[peer][0] + 0.08 * span * k, pos[peer][1] - 0.15 * span)

    fig, ax = _axes(ax, (7.0, 5.0))
    flow_routes_ = flow_routes(scenario, result)
    draw_routes = routes is True or (routes == "auto" and len(flow_routes_) <= MAX_AUTO_ROUTES)
    weight: Dict[str, float] = {}
    by_goodput = False
    if result is not None and "goodput_bps" in result.flows.columns:
        by_goodput = True
        weight = {str(i): float(g) for i, g in zip(result.flows["id"], result.flows["goodput_bps"])}
    use: Dict[Edge, float] = {}
    for fid, route in flow_routes_.items():
        for a, b in zip(route, route[1:]):
            use[_edge(a, b)] = use.get(_edge(a, b), 0.0) + (weight.get(fid, 0.0) if by_goodput else 1.0)

    radio: set = set()
    try:
        links = scenario.radio_links()
        usable = links["rate_bps"].notna()
        radio = {_edge(a, b) for a, b in zip(links["src"][usable], links["dst"][usable])}
    except Exception:  # noqa: BLE001 - a PHY this build cannot set up: no radio links drawn
        radio = set()
    wired = {_edge(link["a"], link["b"]) for link in d["links"]}
    edges = [e for e in sorted(radio | wired) if e[0] in pos and e[1] in pos]
    unused = [e for e in edges if use.get(e, 0.0) == 0.0]
    used = [e for e in edges if use.get(e, 0.0) > 0.0]
    seg = lambda e: [pos[e[0]], pos[e[1]]]  # noqa: E731
    if unused:
        ax.add_collection(LineCollection([seg(e) for e in unused], colors="0.8", linewidths=1.0, zorder=1,
                                         linestyles=["--" if e in wired else "-" for e in unused]))
    if used:
        values = [use[e] / (1e6 if by_goodput else 1.0) for e in used]
        norm = mpl.colors.Normalize(vmin=0.0, vmax=max(values))
        lc = LineCollection([seg(e) for e in used], cmap="viridis", norm=norm, linewidths=3.0, zorder=2,
                            linestyles=["--" if e in wired else "-" for e in used])
        lc.set_array(values)
        ax.add_collection(lc)
        fig.colorbar(lc, ax=ax, label="goodput carried (Mbit/s)" if by_goodput else "flows routed over the link")
    if reach is not None:
        _draw_reach(ax, scenario, pos, [reach] if isinstance(reach, str) else list(reach))
    # Routes: thin arrows from source to destination, offset a little per flow.
    drawn_routes = list(flow_routes_.items()) if draw_routes else []
    route_colours = _colours(len(drawn_routes))
    # Up to 20 routes each get a legend entry; more get one entry for all of them.
    route_entries = len(drawn_routes) <= 20
    for k, (fid, route) in enumerate(drawn_routes):
        if not all(n in pos for n in route):
            continue
        off = 0.012 * span * ((k % 10) - 4.5) if len(flow_routes_) > 10 else 0.012 * span * (k - (len(flow_routes_) - 1) / 2)
        for a, b in zip(route, route[1:]):
            (x0, y0), (x1, y1) = pos[a], pos[b]
            ax.annotate("", xy=(x1, y1 + off), xytext=(x0, y0 + off), zorder=3,
                        arrowprops=dict(arrowstyle="->", color=route_colours[k], lw=1.2, shrinkA=7, shrinkB=7))
        if route_entries:
            ax.plot([], [], color=route_colours[k], lw=1.2, label=f"route {fid}")
    if drawn_routes and not route_entries:
        ax.plot([], [], color=route_colours[0], lw=1.2, label=f"{len(drawn_routes)} routes, a colour each")
    styles = {"gateway": dict(marker="s", color="tab:red", s=120, label="gateway"),
              "mesh": dict(marker="o", color="tab:blue", s=70, label="mesh router"),
              "host": dict(marker="D", color="tab:gray", s=60, label="wired host")}
    label_texts = []
    for role, style in styles.items():
        ids = [n["id"] for n in d["nodes"] if n["role"] == role and n["id"] in pos]
        if ids:
            ax.scatter([pos[i][0] for i in ids], [pos[i][1] for i in ids], zorder=4, edgecolors="black", **style)
            if labels:
                for i in ids:
                    label_texts.append(ax.annotate(i, pos[i], xytext=(0, 8), textcoords="offset points", ha="center",
                                                   va="center", fontsize=8, zorder=5))
    ax.set_aspect("equal", adjustable="datalim")
    ax.margins(0.12)
    ax.autoscale_view()
    if label_texts:
        _place_labels(fig, ax, label_texts)
    ax.set_xlabel("x (m)")
    ax.set_ylabel("y (m)")
    ax.set_title(title or (d["name"] or scenario.name or "topology"))
    many = sum(1 for h in ax.get_legend_handles_labels()[1]) > 12
    ax.legend(fontsize=7 if many else 8, loc="upper left" if many else "best",
              bbox_to_anchor=(1.01, 1.0) if many else None)
    return _done(fig, path)


# ---- parameter sweeps ----------------------------------------------------------------


def _parameter_label(pointer: str) -> str:
    """A readable axis name for a swept JSON pointer: its last key in words, its unit
    from the key's suffix, and where it sits: "/nodes/1/mac/cw_min" -> "cw min
    (nodes/1/mac)", "/simulation/duration_s" -> "duration (s) (simulation)"."""
    parts = [p for p in str(pointer).split("/") if p]
    if not parts:
        return str(pointer)
    key, where = parts[-1], "/".join(parts[:-1])
    units = {"_bps": "bit/s", "_s": "s", "_ms": "ms", "_us": "µs", "_m": "m", "_dbm": "dBm", "_db": "dB",
             "_bytes": "bytes", "_hz": "Hz"}
    unit = next((u for suffix, u in units.items() if key.endswith(suffix)), None)
    if unit is not None:
        key = key[: key.rindex("_")]
    name = key.replace("_", " ") + (f" ({unit})" if unit else "")
    return f"{name} ({where})" if where else name


def _log2_spaced(values: Sequence[float]) -> bool:
    """True for three or more positive values that are all powers of two, or that
    grow by a constant factor of at least 2 (a doubling sweep): drawn on a log axis."""
    import math

    v = sorted(set(float(x) for x in values))
    if len(v) < 3 or v[0] <= 0:
        return False
    if all(math.log2(x).is_integer() for x in v):
        return True
    ratios = [b / a for a, b in zip(v, v[1:])]
    return min(ratios) >= 2.0 and max(ratios) / min(ratios) < 1.01


def sweep(source: Any, x: str, y: str, ax: Optional["Axes"] = None, path: Optional[PathLike] = None,
          table: str = "runs", confidence: float = 0.95, title: Optional[str] = None,
          logx: Optional[bool] = None, logy: bool = False, xlabel: Optional[str] = None) -> "Figure":
    """A metric of a sweep against one parameter: the mean per point with its
    Student-t confidence interval as error bars, one line per value of the other
    parameters (those that take more than one value).

    ``source``: a sweep directory, a :class:`wmnsim.SweepData`, or a DataFrame from
    :func:`wmnsim.sweep.aggregate` (its columns before ``metric`` are the groups;
    its intervals are drawn as they are). ``x``: the parameter (e.g.
    ``"/mac/cw_min"``); ``y``: the metric (e.g. ``"total_goodput_bps"``, drawn in
    Mbit/s like every ``*_bps``). ``table``: the table ``y`` comes from when
    aggregating here (``"runs"``, ``"flows"``, ``"nodes"`` or ``"radios"``; per
    flow, node or radio, each id is a line of its own). ``logx``: a base-2 log axis
    for the parameter (None: when its values are powers of two or double from point
    to point, as CW or queue sweeps do), ticks at the swept values; ``logy``: a log
    metric axis; ``xlabel``: the parameter's axis name (default: its last key in
    words, with its unit and where it sits)."""
    import pandas as pd

    from .sweep import SweepData, _groups, load

    if isinstance(source, (str, os.PathLike)):
        source = load(source)
    if isinstance(source, SweepData):
        agg = source.aggregate(metrics=[y], table=table, confidence=confidence)
    elif isinstance(source, pd.DataFrame) and "metric" in source.columns:
        agg = source[source["metric"] == y]
        if agg.empty:
            known = ", ".join(map(str, source["metric"].unique()))
            raise KeyError(f"no metric {y!r} in this aggregate (metrics: {known})")
        confidence = source.attrs.get("confidence", confidence)
    else:
        raise TypeError("sweep() takes a sweep directory, a SweepData or a DataFrame from wmnsim.sweep.aggregate")
    groups = list(agg.columns[:list(agg.columns).index("metric")])
    if x not in groups:
        raise KeyError(f"no parameter {x!r} (parameters: {', '.join(map(str, groups)) or 'none'})")
    others = [g for g in groups if g != x and agg[g].nunique(dropna=False) > 1]
    scale, unit = (1e6, "Mbit/s") if y.endswith("_bps") else (1.0, "")
    fig, ax = _axes(ax, (6.0, 4.0))
    numeric = pd.api.types.is_numeric_dtype(agg[x])
    categories = list(dict.fromkeys(agg[x]))  # non-numeric parameters: evenly spaced, in sweep order
    lines = list(_groups(agg, others))
    colours = _colours(len(lines))
    for colour, (values, part) in zip(colours, lines):
        part = part.sort_values(x) if numeric else part
        xs = part[x] if numeric else [categories.index(v) for v in part[x]]
        label = ", ".join(f"{g}={v}" for g, v in zip(others, values)) or None
        ax.errorbar(xs, part["mean"] / scale, yerr=part["ci_half_width"].fillna(0.0) / scale, marker="o",
                    capsize=4, label=label, color=colour)
    if not numeric:
        ax.set_xticks(range(len(categories)), [str(c) for c in categories])
    elif logx or (logx is None and _log2_spaced(agg[x].dropna().tolist())):
        ax.set_xscale("log", base=2)
        ticks = sorted(set(float(v) for v in agg[x].dropna()))
        ax.set_xticks(ticks, [f"{t:g}" for t in ticks])
        ax.minorticks_off()
    if logy:
        ax.set_yscale("log")
    name = y[:-4] if y.endswith("_bps") else y
    ax.set_xlabel(xlabel or _parameter_label(x))
    ax.set_ylabel(f"{name} ({unit})" if unit else name)
    ax.set_title(title or f"{name}: mean and {100 * confidence:g} % confidence interval")
    if others:
        # Many lines (a per-flow table): the legend goes beside the axes, not over the data.
        outside = len(lines) > LINES_PER_PANEL
        ax.legend(fontsize=7 if outside else 8, loc="upper left" if outside else "best",
                  bbox_to_anchor=(1.01, 1.0) if outside else None, ncol=1 + len(lines) // 16)
    ax.grid(True, alpha=0.3)
    return _done(fig, path)


# ---- the run over time, from the event trace (docs/traces.md "Event trace") ----------


def _apart(xs: Sequence[float], gap: float, texts: Optional[Sequence[str]] = None) -> List[int]:
    """The indices of ``xs`` (ascending) to label: each at least ``gap`` after the
    last one kept with the same text (``texts``; None: all the same), so that a
    label is never drawn over a copy of itself."""
    kept: List[int] = []
    last: Dict[Any, float] = {}
    for k, x in enumerate(xs):
        key = None if texts is None else texts[k]
        if key not in last or x - last[key] >= gap:
            kept.append(k)
            last[key] = x
    return kept


# The rows of a node's lane in timeline(), top to bottom; a "route" row below them
# when the trace holds route records (dynamic routing, AODV) in the window.
TIMELINE_ROWS = ("tx", "rx ok", "rx failed", "NAV", "backoff")
_TIMELINE_COLOURS = {"tx": "tab:blue", "rx ok": "tab:green", "rx failed": "tab:red", "NAV": "0.6",
                     "backoff": "tab:orange", "route": "tab:purple"}


def timeline_routes(events: "pandas.DataFrame", node: str, window: Tuple[float, float]) -> List[Tuple[float, str]]:
    """The route records of ``node`` in ``window`` that :func:`timeline` marks in its
    lane's "route" row: (time in seconds, label), the label "->D via P" for a route to
    D found or changed (next hop P), "->D lost" for one lost."""
    if not (events["kind"] == "route").any():
        return []  # also a frame loaded without the route columns
    part = events[(events["node"] == node) & (events["kind"] == "route")
                  & (events["time_s"] >= window[0]) & (events["time_s"] <= window[1])]
    out = []
    for t, dest, peer in zip(part["time_s"], part["destination"], part["peer"]):
        hop = f"via {peer}" if isinstance(peer, str) else "lost"
        out.append((float(t), f"\u2192{dest} {hop}"))
    return out


def _event_frame(source: Any) -> "pandas.DataFrame":
    import pandas as pd

    from . import trace

    if isinstance(source, pd.DataFrame):
        return source
    if isinstance(source, Result):
        return source.event_trace()
    if isinstance(source, (str, os.PathLike)):
        return trace.load(source)
    raise TypeError("timeline() takes a Result whose scenario wrote an event trace, a DataFrame from "
                    "wmnsim.trace.load, or the trace's path")


def timeline_intervals(events: "pandas.DataFrame", node: str, row: str,
                       window: Tuple[float, float]) -> List[Tuple[float, float]]:
    """The intervals (start, end) in seconds that :func:`timeline` draws in ``row``
    (one of ``TIMELINE_ROWS`` but "backoff") of ``node``'s lane: those of the
    trace's records that overlap ``window``. tx: each transmission (tx_start to its
    end); rx ok, rx failed: each frame the node's radios locked onto, from its first
    bit to its end; NAV: from each NAV setting to the NAV's end."""
    kinds = {"tx": "tx_start", "rx ok": "rx_ok", "rx failed": "rx_fail", "NAV": "nav"}
    part = events[(events["node"] == node) & (events["kind"] == kinds[row])]
    start = part["start_ps"].astype("float64") / 1e12
    end = part["end_ps"].astype("float64") / 1e12
    keep = (end >= window[0]) & (start <= window[1])
    return [(float(s), float(e)) for s, e in zip(start[keep], end[keep])]


def timeline(source: Any, nodes: Optional[Sequence[str]] = None, window: Optional[Tuple[float, float]] = None,
             path: Optional[PathLike] = None, title: Optional[str] = None,
             size: Optional[Tuple[float, float]] = None) -> "Figure":
    """The medium as each node saw it over ``window`` (seconds; default the trace's
    first 0.3 s), from the event trace: one lane per node of ``nodes`` (default
    every node with radio records) with a row each for its own transmissions (tx),
    the frames it decoded (rx ok) and lost (rx failed; a collision hatched, labelled
    with its interferer), its NAV, and its backoff draws (a mark each, labelled
    with the slots drawn when the window shows few); when the trace holds route
    records in the window (dynamic routing), a "route" row with a mark for each
    route found, changed or lost (:func:`timeline_routes`). Time in milliseconds.

    ``source``: a Result of a run whose scenario has ``outputs.event_trace``, a
    DataFrame from :func:`wmnsim.trace.load`, or the trace's path. Each drawn
    interval is one of :func:`timeline_intervals`; the collections carry the gid
    ``"<node>:<row>"``."""
    from matplotlib.figure import Figure
    from matplotlib.patches import Patch

    events = _event_frame(source)
    if events.empty:
        raise ValueError("the event trace holds no records")
    if window is None:
        t0 = float(events["time_s"].min())
        window = (t0, t0 + 0.3)
    t0, t1 = float(window[0]), float(window[1])
    if not t1 > t0:
        raise ValueError(f"window must be (start, end) with end > start, got {window!r}")
    radio_events = events[events["radio"].notna()]
    known = [str(n) for n in radio_events["node"].cat.categories if (radio_events["node"] == n).any()]
    if nodes is None:
        nodes = known
    nodes = [str(n) for n in nodes]
    missing = [n for n in nodes if n not in known]
    if missing:
        raise KeyError(f"no radio records for node(s) {', '.join(missing)} in this trace "
                       f"(nodes: {', '.join(known) or 'none'})")
    if not nodes:
        raise ValueError("no node to draw")
    fig = Figure(figsize=size or (10.0, 1.3 + 1.2 * len(nodes)), layout="constrained")
    axes = fig.subplots(len(nodes), 1, sharex=True, squeeze=False)[:, 0]
    ms = 1e3
    height = 0.7
    in_window = events[(events["time_s"] >= t0) & (events["time_s"] <= t1)]
    # A label closer than this to the same label drawn last in its row would overlap
    # it (a 6-point label is about 2.5 % of a 10-inch axis): the mark stays, unlabelled.
    label_gap = 0.025 * (t1 - t0) * ms
    routes = {node: timeline_routes(events, node, (t0, t1)) for node in nodes}
    rows = TIMELINE_ROWS + (("route",) if any(routes.values()) else ())
    for ax, node in zip(axes, nodes):
        for y, row in enumerate(rows):
            ypos = len(rows) - 1 - y
            if row == "route":
                xs = [t * ms for t, _ in routes[node]]
                ax.scatter(xs, [ypos] * len(xs), marker="d", s=25, color=_TIMELINE_COLOURS[row], gid=f"{node}:{row}")
                texts = [text for _, text in routes[node]]
                if 0 < len(xs) <= 40:
                    for k in _apart(xs, label_gap, texts):
                        ax.annotate(texts[k], (xs[k], ypos), xytext=(3, 3), textcoords="offset points",
                                    fontsize=6, color=_TIMELINE_COLOURS[row])
                continue
            if row == "backoff":
                draws = in_window[(in_window["node"] == node) & (in_window["kind"] == "backoff")]
                xs = (draws["time_s"] * ms).to_numpy()
                ax.scatter(xs, [ypos] * len(xs), marker="|", s=60, color=_TIMELINE_COLOURS[row],
                           gid=f"{node}:{row}")
                if 0 < len(draws) <= 40:
                    for k in _apart(xs, label_gap):
                        ax.annotate(str(int(draws["slots"].iloc[k])), (xs[k], ypos), xytext=(0, 5),
                                    textcoords="offset points", ha="center", fontsize=6, color="0.3")
                continue
            spans = timeline_intervals(events, node, row, (t0, t1))
            if row != "rx failed":
                ax.broken_barh([(s * ms, (e - s) * ms) for s, e in spans], (ypos - height / 2, height),
                               facecolors=_TIMELINE_COLOURS[row], gid=f"{node}:{row}")
                continue
            fails = events[(events["node"] == node) & (events["kind"] == "rx_fail")]
            start = fails["start_ps"].astype("float64") / 1e12
            end = fails["end_ps"].astype("float64") / 1e12
            fails = fails[(end >= t0) & (start <= t1)]
            collided = (fails["cause"] == "collision").to_numpy()
            bars = [(s * ms, (e - s) * ms) for s, e in spans]
            ax.broken_barh([b for b, c in zip(bars, collided) if not c], (ypos - height / 2, height),
                           facecolors=_TIMELINE_COLOURS[row], gid=f"{node}:{row}")
            ax.broken_barh([b for b, c in zip(bars, collided) if c], (ypos - height / 2, height),
                           facecolors="white", edgecolors=_TIMELINE_COLOURS[row], hatch="////",
                           gid=f"{node}:{row}:collision")
            labelled = [(x + w / 2, who) for (x, w), c, who in zip(bars, collided, fails["interferer"])
                        if c and isinstance(who, str)]
            labelled.sort(key=lambda item: item[0])
            if len(labelled) <= 60:
                for k in _apart([x for x, _ in labelled], label_gap, [who for _, who in labelled]):
                    ax.text(labelled[k][0], ypos + height / 2 + 0.05, f"\u00d7{labelled[k][1]}", ha="center",
                            va="bottom", fontsize=6, color=_TIMELINE_COLOURS[row])
        ax.set_yticks(range(len(rows)), list(reversed(rows)), fontsize=7)
        ax.set_ylim(-0.6, len(rows) - 0.2)
        ax.set_ylabel(node, rotation=0, ha="right", va="center", fontsize=10, fontweight="bold")
        ax.grid(True, axis="x", alpha=0.3)
    axes[-1].set_xlim(t0 * ms, t1 * ms)
    axes[-1].set_xlabel("time (ms)")
    handles = [Patch(facecolor=_TIMELINE_COLOURS[r], label=r) for r in ("tx", "rx ok", "rx failed", "NAV")]
    handles.append(Patch(facecolor="white", edgecolor=_TIMELINE_COLOURS["rx failed"], hatch="////",
                         label="rx failed: collision (\u00d7 interferer)"))
    handles.append(Patch(facecolor=_TIMELINE_COLOURS["backoff"], label="backoff drawn (slots)"))
    if "route" in rows:
        handles.append(Patch(facecolor=_TIMELINE_COLOURS["route"], label="route found, changed or lost"))
    axes[0].legend(handles=handles, loc="lower center", bbox_to_anchor=(0.5, 1.02), ncol=6, fontsize=7,
                   frameon=False)
    if title is not None:
        fig.suptitle(title)
    return _done(fig, path)


__all__ += ["timeline", "timeline_intervals", "timeline_routes"]


# ---- the run as an animation (a self-contained HTML page) ---------------------------------

_ANIMATE_SCRIPT = r"""
"use strict";
// The state of the air at simulated time t (seconds): who transmits (and to whom),
// which receptions are being lost in a collision (and to whom), each node's queue.
function stateAt(d, t) {
  const tx = d.tx.filter(r => r[1] <= t && t < r[2]).map(r => ({node: r[0], peer: r[3]}));
  const collisions = d.collisions.filter(r => r[1] <= t && t < r[2])
                                 .map(r => ({node: r[0], from: r[3], interferer: r[4]}));
  const queues = d.nodes.map(() => 0);
  for (const q of d.queues) {  // sorted by time: the last sample at or before t
    if (q[1] > t) break;
    queues[q[0]] = q[2];
  }
  return {tx: tx, collisions: collisions, queues: queues};
}
if (typeof module !== "undefined") module.exports = {stateAt: stateAt};
if (typeof document !== "undefined") {
  const d = JSON.parse(document.getElementById("wmnsim-data").textContent);
  const svg = document.getElementById("air");
  const NS = "http://www.w3.org/2000/svg";
  const xs = d.nodes.map(n => n.x), ys = d.nodes.map(n => n.y);
  const minx = Math.min(...xs), maxx = Math.max(...xs), miny = Math.min(...ys), maxy = Math.max(...ys);
  const span = Math.max(maxx - minx, maxy - miny, 1), pad = 0.15 * span;
  svg.setAttribute("viewBox", [minx - pad, -(maxy + pad), (maxx - minx) + 2 * pad, (maxy - miny) + 2 * pad].join(" "));
  const r = 0.035 * span, layer = document.createElementNS(NS, "g");
  const el = (name, attrs, parent) => {
    const e = document.createElementNS(NS, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    (parent || svg).appendChild(e);
    return e;
  };
  svg.appendChild(layer);
  const label = [];
  d.nodes.forEach((n, i) => {
    el("circle", {cx: n.x, cy: -n.y, r: r, fill: "#ddd", stroke: "#333", "stroke-width": r / 8});
    el("text", {x: n.x, y: -n.y + r / 3, "font-size": r, "text-anchor": "middle"}).textContent = n.id;
    label.push(el("text", {x: n.x, y: -n.y - 1.5 * r, "font-size": 0.7 * r, "text-anchor": "middle", fill: "#555"}));
  });
  const slider = document.getElementById("time"), shown = document.getElementById("now");
  const draw = t => {
    const s = stateAt(d, t);
    while (layer.firstChild) layer.removeChild(layer.firstChild);
    for (const x of s.tx) {
      const n = d.nodes[x.node];
      el("circle", {cx: n.x, cy: -n.y, r: 1.6 * r, fill: "none", stroke: "#1f77b4", "stroke-width": r / 4}, layer);
      if (x.peer >= 0) {
        const p = d.nodes[x.peer];
        el("line", {x1: n.x, y1: -n.y, x2: p.x, y2: -p.y, stroke: "#1f77b4", "stroke-width": r / 5,
                    "stroke-dasharray": r / 2}, layer);
      }
    }
    for (const c of s.collisions) {
      const n = d.nodes[c.node];
      el("circle", {cx: n.x, cy: -n.y, r: 1.25 * r, fill: "#d62728", opacity: 0.6}, layer);
      if (c.interferer >= 0) {
        const i = d.nodes[c.interferer];
        el("line", {x1: i.x, y1: -i.y, x2: n.x, y2: -n.y, stroke: "#d62728", "stroke-width": r / 5}, layer);
      }
    }
    s.queues.forEach((q, i) => { label[i].textContent = "queue " + q; });
    shown.textContent = (t * 1e3).toFixed(3) + " ms";
  };
  let playing = false, last = null;
  const step = now => {
    if (!playing) return;
    if (last !== null) {
      const speed = parseFloat(document.getElementById("speed").value);
      let t = parseFloat(slider.value) + (now - last) / 1e3 * speed;
      if (t >= d.end) { t = d.end; playing = false; }
      slider.value = t;
      draw(t);
    }
    last = now;
    requestAnimationFrame(step);
  };
  document.getElementById("play").onclick = () => {
    playing = !playing;
    last = null;
    if (playing) requestAnimationFrame(step);
  };
  slider.oninput = () => draw(parseFloat(slider.value));
  // "air.html#t=4.2843" opens at that simulated time (seconds).
  const at = /t=([-+0-9.eE]+)/.exec(location.hash);
  const t0 = at ? Math.min(Math.max(parseFloat(at[1]), d.start), d.end) : d.start;
  slider.value = t0;
  draw(t0);
}
"""

_ANIMATE_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>body{{font-family:sans-serif;margin:1em}} svg{{width:100%;max-width:900px;height:60vh;border:1px solid #ccc}}
#controls{{margin:.5em 0}} #now{{font-family:monospace;margin-left:1em}}</style></head>
<body><h3>{title}</h3>
<div id="controls"><button id="play">play / pause</button>
<input id="time" type="range" min="{start}" max="{end}" step="{step}" value="{start}" style="width:60%">
speed <select id="speed"><option value="{slow}">1/{slow_label}</option><option value="{normal}" selected>1/{normal_label}</option>
<option value="{fast}">1/{fast_label}</option></select><span id="now"></span></div>
<svg id="air" xmlns="http://www.w3.org/2000/svg"></svg>
<p>Blue ring: the node transmits (dashed: to its receiver). Red disc: a frame it is receiving is lost
in a collision (red line: from the interferer). Above each node: its MAC queue (packets).</p>
<script type="application/json" id="wmnsim-data">{data}</script>
<script>{script}</script>
</body></html>
"""


def animation_data(source: Any, scenario: Optional[Scenario] = None,
                   window: Optional[Tuple[float, float]] = None) -> Dict[str, Any]:
    """What :func:`animate` puts into its page: ``nodes`` (id, x, y), ``tx``
    ([node, start_s, end_s, receiver or -1]), ``collisions`` ([receiver, start_s,
    end_s, transmitter or -1, interferer or -1]: frames lost in a collision),
    ``queues`` ([node, time_s, packets], the MAC queue's length after each change,
    sorted by time), ``start`` and ``end`` (the window, seconds). Node indices
    are positions in ``nodes``."""
    events = _event_frame(source)
    if scenario is None:
        if not isinstance(source, Result):
            raise TypeError("animation_data() needs the scenario (its positions) when not given a Result")
        scenario = source.scenario
    described = scenario.describe()
    placed = [n for n in described["nodes"] if n["position_m"] is not None]
    index = {n["id"]: i for i, n in enumerate(placed)}
    if window is None:
        t0 = float(events["time_s"].min()) if not events.empty else 0.0
        window = (t0, t0 + 0.3)
    t0, t1 = float(window[0]), float(window[1])
    if not t1 > t0:
        raise ValueError(f"window must be (start, end) with end > start, got {window!r}")

    def idx(name: Any) -> int:
        return index.get(str(name), -1) if isinstance(name, str) else -1

    def overlapping(kind: str) -> "pandas.DataFrame":
        part = events[events["kind"] == kind]
        start = part["start_ps"].astype("float64") / 1e12
        end = part["end_ps"].astype("float64") / 1e12
        return part[(end >= t0) & (start <= t1) & part["node"].isin(list(index))]

    tx = [[idx(r.node), r.start_ps / 1e12, r.end_ps / 1e12, idx(r.peer)]
          for r in overlapping("tx_start").itertuples()]
    fails = overlapping("rx_fail")
    fails = fails[fails["cause"] == "collision"]
    collisions = [[idx(r.node), r.start_ps / 1e12, r.end_ps / 1e12, idx(r.peer), idx(r.interferer)]
                  for r in fails.itertuples()]
    q = events[events["kind"].isin(["enqueue", "dequeue"]) & (events["time_s"] <= t1)
               & events["node"].isin(list(index))]
    queues = [[idx(r.node), r.time_s, int(r.queue_length)] for r in q.itertuples()]
    return {"nodes": [{"id": n["id"], "x": n["position_m"][0], "y": n["position_m"][1]} for n in placed],
            "tx": tx, "collisions": collisions, "queues": queues, "start": t0, "end": t1}


def animate(source: Any, path: PathLike, scenario: Optional[Scenario] = None,
            window: Optional[Tuple[float, float]] = None, title: Optional[str] = None) -> str:
    """Writes a self-contained HTML page (inline SVG and JavaScript, no server, no
    network) that plays the run over ``window`` (seconds; default the trace's first
    0.3 s): the nodes at their positions, each transmission (a ring, a dashed line
    to its receiver), each reception lost in a collision (a red disc, a line from
    the interferer) and each MAC queue's length, with play, a time slider and
    slow-motion speeds. Returns the path written.

    ``source``: a Result whose scenario has ``outputs.event_trace`` (positions from
    its scenario), or a trace (a DataFrame from :func:`wmnsim.trace.load`, or its
    path) with ``scenario``. The data drawn is :func:`animation_data`'s."""
    import json
    import math

    data = animation_data(source, scenario, window)
    span = data["end"] - data["start"]
    # Playback speeds: the window in about 10, 30 and 100 s of wall-clock time.
    speeds = [span / 100.0, span / 30.0, span / 10.0]
    labels = [f"{1 / s:.0f}" if s < 1 else f"{1 / s:.3g}" for s in speeds]
    text = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    page = _ANIMATE_PAGE.format(
        title=title or f"wmnsim: {data['start']:.3f} s to {data['end']:.3f} s",
        start=repr(data["start"]), end=repr(data["end"]), step=repr(span / 1000.0 if math.isfinite(span) else 1e-3),
        slow=repr(speeds[0]), normal=repr(speeds[1]), fast=repr(speeds[2]),
        slow_label=labels[0], normal_label=labels[1], fast_label=labels[2], data=text, script=_ANIMATE_SCRIPT)
    out = os.fspath(path)
    with open(out, "w", encoding="utf-8") as f:
        f.write(page)
    return out


__all__ += ["animate", "animation_data"]
