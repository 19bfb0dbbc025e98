"""The event trace of a run (docs/traces.md "Event trace") as a pandas DataFrame.

A scenario's ``outputs.event_trace`` (or ``wmnsim run --event-trace FILE``) writes
one record per event of interest: frames on the air (tx start and end, rx lock,
rx ok, rx fail and rx missed with the cause and interferer), the MACs' contention
(backoff drawn, NAV set, retry, enqueue and dequeue with the queue's length) and
the nodes' drops and deliveries. :func:`load` reads the file::

    events = wmnsim.trace.load("events.bin")
    lost = events[(events.kind == "rx_fail") & (events.node == "B")]
    lost[["time_s", "packet", "cause", "interferer"]]

The file is self-describing (trace/event_record.hpp): a header with the node
names and the kind, cause and frame-kind names, then fixed 64-octet records. This
module needs numpy and pandas only.
"""
from __future__ import annotations

import os
import struct
from typing import TYPE_CHECKING, List, Tuple, Union

if TYPE_CHECKING:  # pragma: no cover
    import pandas

PathLike = Union[str, "os.PathLike[str]"]

MAGIC = b"WMNSEVTR"
VERSION = 1
RECORD_BYTES = 64

# The record as trace/event_record.hpp lays it out (little-endian, packed).
_FIELDS = [
    ("time_ps", "<i8"),
    ("packet", "<u8"),
    ("value", "<i8"),
    ("flow", "<u4"),
    ("node", "<u4"),
    ("radio", "<u4"),
    ("peer", "<u4"),
    ("interferer", "<u4"),
    ("sinr_db", "<f4"),
    ("power_dbm", "<f4"),
    ("sequence", "<u2"),
    ("kind", "u1"),
    ("cause", "u1"),
    ("frame", "u1"),
    ("retry", "u1"),
    ("access_category", "u1"),
    ("reserved", "u1"),
    ("cw", "<u4"),
]
_NO_INDEX = 0xFFFFFFFF
_NO_CODE = 0xFF
_NO_SEQUENCE = 0xFFFF
# The access categories' codes (mac/mac_params.hpp AccessCategory).
_ACCESS_CATEGORIES = ["ac_bk", "ac_be", "ac_vi", "ac_vo"]

# Which kinds give `value` which meaning (trace/event_record.hpp).
_START_FROM_VALUE = ("tx_end", "rx_ok", "rx_fail", "rx_missed")
_END_FROM_VALUE = ("tx_start", "nav")

__all__ = ["load", "Header", "read_header", "attempts_by_window", "losses_by_interferer", "attempt_overlaps",
           "tx_gaps"]


class Header:
    """What an event trace's header holds: the names its records' codes index."""

    def __init__(self, records: int, cut_at_ps: int, nodes: List[str], kinds: List[str], causes: List[str],
                 frames: List[str], header_bytes: int):
        self.records = records
        #: When the trace reached max_records and stopped (ps), or None.
        self.cut_at_ps = None if cut_at_ps < 0 else cut_at_ps
        self.nodes = nodes
        self.kinds = kinds
        self.causes = causes
        self.frames = frames
        self.header_bytes = header_bytes


def _names(data: bytes, at: int) -> Tuple[List[str], int]:
    (count,) = struct.unpack_from("<I", data, at)
    at += 4
    names = []
    for _ in range(count):
        (length,) = struct.unpack_from("<H", data, at)
        at += 2
        names.append(data[at:at + length].decode("utf-8"))
        at += length
    return names, at


def read_header(data: Union[bytes, str, "os.PathLike[str]"], path: str = "") -> Header:
    """The header of an event trace: ``data`` its bytes, or the file's path (read
    whole)."""
    if isinstance(data, (str, os.PathLike)):
        path = path or os.fspath(data)
        with open(data, "rb") as f:
            data = f.read()
    if len(data) < 40 or data[:8] != MAGIC:
        raise ValueError(f"{path}: not a wmnsim event trace (no {MAGIC.decode()} magic)")
    version, header_bytes, record_bytes, _reserved, records, cut = struct.unpack_from("<IIIIQq", data, 8)
    if version != VERSION or record_bytes != RECORD_BYTES:
        raise ValueError(f"{path}: event trace version {version} with {record_bytes}-octet records; "
                         f"this reader knows version {VERSION} with {RECORD_BYTES}")
    at = 40
    nodes, at = _names(data, at)
    kinds, at = _names(data, at)
    causes, at = _names(data, at)
    frames, at = _names(data, at)
    if at > header_bytes or header_bytes + records * record_bytes > len(data):
        raise ValueError(f"{path}: the event trace is cut short ({len(data)} bytes for {records} records)")
    return Header(records, cut, nodes, kinds, causes, frames, header_bytes)


def _categorical(codes, names: List[str], none: int):
    import numpy as np
    import pandas as pd

    codes = np.asarray(codes, dtype=np.int64)
    codes = np.where(codes == none, -1, codes)
    return pd.Categorical.from_codes(codes, categories=names)


def load(path: PathLike) -> "pandas.DataFrame":
    """The records of the event trace at ``path``, sorted by time (ties in the
    order the simulator observed them), one row each.

    Columns: ``time_ps`` (int64, the simulator's clock), ``time_s``; ``node``,
    ``peer`` (tx: the receiver's node, rx: the transmitter's), ``interferer``
    (categorical node names); ``radio`` (Int64); ``kind``, ``cause``, ``frame``,
    ``access_category`` (categorical); ``packet`` (UInt64, the packet id),
    ``flow`` (Int64, the scenario's flow index), ``sequence`` (Int64, the MAC
    sequence number); ``retry`` (bool, the frame's Retry bit); ``sinr_db``,
    ``power_dbm`` (float); and by kind: ``start_ps``/``end_ps`` (a frame's
    interval on tx and rx records, the NAV's on ``nav``), ``slots`` and ``cw``
    (``backoff``), ``retries`` (``retry``), ``queue_length``
    (``enqueue``/``dequeue``); ``cw_min``, ``cw_max``, ``aifsn`` (``params``: each
    access category's parameters at the start, then each change a controller made);
    ``destination`` (``route``: a node's route to it found or changed, ``peer``
    the next hop and ``radio`` the node's radio to it, or lost, both NA); ``action_value`` (``controller``: the
    action is the ``cause``; notify: the notification's duration in ps, blocked:
    until when in ps, duration: D in ps, rate: bit/s, txop: the TXOP limit in
    frames). A field a record
    does not have is NA.
    ``df.attrs["cut_at_s"]`` is when the trace stopped at max_records (None if it
    did not)."""
    import numpy as np
    import pandas as pd

    path = os.fspath(path)
    with open(path, "rb") as f:
        data = f.read()
    h = read_header(data, path)
    rec = np.frombuffer(data, dtype=np.dtype(_FIELDS), count=h.records, offset=h.header_bytes)
    kind = _categorical(rec["kind"], h.kinds, _NO_CODE)
    df = pd.DataFrame({
        "time_ps": rec["time_ps"].astype(np.int64),
        "time_s": rec["time_ps"] / 1e12,
        "node": _categorical(rec["node"], h.nodes, _NO_INDEX),
        "radio": pd.array(np.where(rec["radio"] == _NO_INDEX, 0, rec["radio"]), dtype="Int64"),
        "kind": kind,
        "cause": _categorical(rec["cause"], h.causes, _NO_CODE),
        "packet": pd.array(rec["packet"], dtype="UInt64"),
        "flow": pd.array(rec["flow"].astype(np.int64), dtype="Int64"),
        "sequence": pd.array(rec["sequence"].astype(np.int64), dtype="Int64"),
        "frame": _categorical(rec["frame"], h.frames, _NO_CODE),
        "retry": rec["retry"].astype(bool),
        "peer": _categorical(rec["peer"], h.nodes, _NO_INDEX),
        "interferer": _categorical(rec["interferer"], h.nodes, _NO_INDEX),
        "sinr_db": rec["sinr_db"].astype(np.float64),
        "power_dbm": rec["power_dbm"].astype(np.float64),
        "access_category": _categorical(rec["access_category"], _ACCESS_CATEGORIES, _NO_CODE),
    })
    df.loc[rec["radio"] == _NO_INDEX, "radio"] = pd.NA
    df.loc[rec["packet"] == 0, "packet"] = pd.NA
    df.loc[rec["flow"] == _NO_INDEX, "flow"] = pd.NA
    df.loc[rec["sequence"] == _NO_SEQUENCE, "sequence"] = pd.NA
    names = np.asarray(h.kinds, dtype=object)[np.minimum(rec["kind"], len(h.kinds) - 1)] if h.kinds else []
    value = rec["value"].astype(np.int64)

    def by_kind(kinds) -> "pandas.arrays.IntegerArray":
        mask = np.isin(names, kinds)
        out = pd.array(np.where(mask, value, 0), dtype="Int64")
        out[~mask] = pd.NA
        return out

    start = by_kind(_START_FROM_VALUE)
    end = by_kind(_END_FROM_VALUE)
    interval_start = np.isin(names, _END_FROM_VALUE)
    interval_end = np.isin(names, _START_FROM_VALUE)
    start[interval_start] = rec["time_ps"][interval_start]
    end[interval_end] = rec["time_ps"][interval_end]
    df["start_ps"] = start
    df["end_ps"] = end
    df["slots"] = by_kind(("backoff",))
    cw = pd.array(rec["cw"].astype(np.int64), dtype="Int64")
    cw[names != "backoff"] = pd.NA
    df["cw"] = cw
    df["retries"] = by_kind(("retry",))
    df["queue_length"] = by_kind(("enqueue", "dequeue"))
    # Decisions: an access category's parameters set, a route, a controller's action.
    params = names == "params"
    df["cw_min"] = by_kind(("params",))
    cw_max = pd.array(rec["cw"].astype(np.int64), dtype="Int64")
    cw_max[~params] = pd.NA
    df["cw_max"] = cw_max
    aifsn = pd.array(rec["retry"].astype(np.int64), dtype="Int64")
    aifsn[~params] = pd.NA
    df["aifsn"] = aifsn
    df.loc[params, "retry"] = False
    routes = names == "route"
    destination = np.where(routes, value, _NO_INDEX).astype(np.int64)
    df["destination"] = _categorical(destination, h.nodes, _NO_INDEX)
    df["action_value"] = by_kind(("controller",))
    df = df.sort_values("time_ps", kind="stable").reset_index(drop=True)
    df.attrs["cut_at_s"] = None if h.cut_at_ps is None else h.cut_at_ps / 1e12
    df.attrs["path"] = path
    return df



_DATA_FRAMES = ("data", "qos_data")


def _attempts(events: "pandas.DataFrame"):
    """The exchange attempts attempts_by_window counts, one at a time, in each node's time
    order: (node, frame, cw, failed, row), ``row`` the label in ``events`` of the attempt's
    ``tx_start`` record."""
    import pandas as pd

    ev = events[events["kind"].isin(("tx_start", "backoff", "retry", "drop"))]
    ev = ev[(ev["kind"] != "drop") | (ev["cause"] == "retry_limit")]
    for node, part in ev.groupby("node", observed=True, sort=True):
        window = None  # the window of the node's latest backoff
        pending = None  # the attempt in flight: (frame, cw, row)
        failed = False  # a failure record since the node's last frame
        for label, kind, frame, peer, cw in zip(part.index, part["kind"], part["frame"], part["peer"], part["cw"]):
            if kind == "backoff":
                window = int(cw)
            elif kind in ("retry", "drop"):
                failed = True
            elif kind == "tx_start" and (frame == "rts" or frame in _DATA_FRAMES) and not pd.isna(peer):
                if pending is not None:
                    answered = pending[0] == "rts" and not failed and frame in _DATA_FRAMES
                    yield str(node), pending[0], pending[1], failed or (pending[0] == "rts" and not answered), pending[2]
                    pending = None
                    failed = False
                    if answered:
                        continue  # the data of the RTS's exchange: not an attempt of its own
                failed = False
                if window is not None:
                    pending = ("rts" if frame == "rts" else "data", window, label)


def attempts_by_window(events: "pandas.DataFrame") -> "pandas.DataFrame":
    """Each transmitter's exchange attempts and their failures by the contention window
    the attempt's backoff was drawn in (its backoff stage: 32, 64, 128, ... slots under
    DCF with 802.11b's CWmin 31), from an event trace holding the transmitters'
    ``tx_start``, ``backoff``, ``retry`` and ``drop`` records. For DCF only, and nodes with
    one radio: under EDCA a node's access categories back off each on its own, and their
    records, not keyed by category here, would be read as one sequence.

    An attempt is the first frame of a unicast exchange: an RTS, or a data frame that
    does not follow its own answered RTS (basic access). Its window is that of the
    node's latest backoff drawn before it (under saturation a backoff precedes every
    attempt, 802.11-2012 9.3.4.3); attempts before the node's first backoff are left
    out, and so is its last one (its outcome may fall after the trace's end). An RTS
    fails when its CTS does not come: the node's next frame is not the data. A data
    frame sent without RTS fails when its ACK does not come: a ``retry`` record, or a
    ``retry_limit`` drop, before the node's next frame.

    Returns one row per (node, frame, cw) with ``attempts`` and ``failures``; ``frame``
    is ``rts`` or ``data``."""
    import pandas as pd

    counts: dict = {}
    for node, frame, window, failed, _ in _attempts(events):
        row = counts.setdefault((node, frame, window), [0, 0])
        row[0] += 1
        row[1] += int(failed)
    rows = [dict(node=k[0], frame=k[1], cw=k[2], attempts=a, failures=f) for k, (a, f) in sorted(counts.items())]
    return pd.DataFrame(rows, columns=["node", "frame", "cw", "attempts", "failures"])


def losses_by_interferer(events: "pandas.DataFrame") -> "pandas.DataFrame":
    """The frames lost at their receivers, counted by receiver, transmitter, frame kind, record
    kind, cause and interferer. A lost frame is an ``rx_fail`` record (a frame the receiver locked
    onto and lost) or an ``rx_missed`` one (a frame that reached it while it was busy, receiving
    another or transmitting, and was never locked onto: in a busy network the majority); ``kind``
    tells them apart. The interferer is the node of the strongest other signal that overlapped the
    frame, NA where the cause names none (so that no node id, ``none`` included, stands for "no
    interferer"). One row per (``node``, ``peer``, ``frame``, ``kind``, ``cause``, ``interferer``)
    with ``lost``, the receiver in ``node`` and the transmitter in ``peer``, as the records have
    them."""
    import pandas as pd

    keys = ["node", "peer", "frame", "kind", "cause", "interferer"]
    lost = events[events["kind"].isin(("rx_fail", "rx_missed"))]
    if lost.empty:
        return pd.DataFrame(columns=keys + ["lost"])
    cols = {k: lost[k].astype(object).where(lost[k].notna(), None) for k in keys}
    out = pd.DataFrame(cols).groupby(keys, sort=True, dropna=False).size().reset_index(name="lost")
    return out


def _tx_intervals(events: "pandas.DataFrame") -> dict:
    """Each node's frames on the air, from its ``tx_start`` records: node -> (starts, ends) in ps,
    numpy arrays in time order (a radio sends one frame at a time, so they do not overlap)."""
    import numpy as np

    tx = events[events["kind"] == "tx_start"]
    out = {}
    for node, part in tx.groupby("node", observed=True, sort=True):
        out[str(node)] = (part["time_ps"].to_numpy(np.int64), part["end_ps"].to_numpy(np.int64))
    return out


def attempt_overlaps(events: "pandas.DataFrame") -> "pandas.DataFrame":
    """The exchange attempts of attempts_by_window (each transmitter's, by contention window, and
    whether it failed) by what the attempt's frame met: which other nodes were sending while it was
    on the air, and what its receiver made of it. From an event trace holding the ``tx_start``,
    ``backoff``, ``retry`` and ``drop`` records of the transmitters, the ``tx_start`` records of the
    other nodes whose frames are to be seen, and the receivers' ``rx_ok``, ``rx_fail``,
    ``rx_missed`` and ``nav`` records. DCF only, one radio per node (as attempts_by_window).

    Columns, one row per distinct combination, with ``attempts``:
    ``node``, ``frame`` (``rts`` or ``data``), ``cw``, ``failed``; ``airtime_us`` (the frame's
    time on the air, whole microseconds); ``overlapped`` (the other traced nodes with a frame on
    the air at some time during it, sorted and joined by ``+``, or ``none``); ``receiver`` (the
    record the receiver wrote of the frame: ``rx_ok``, ``rx_fail``, ``rx_missed``, or ``none``
    where it wrote none, its records not traced or the frame not reaching it); ``cause`` and
    ``interferer`` (of an ``rx_fail`` or ``rx_missed``, NA otherwise and where the cause names no
    node); ``receiver_nav`` (the receiver's NAV, as its latest ``nav`` records set it, ran past the
    frame's last bit: a station with its NAV set does not answer an RTS, 802.11-2012 9.3.2.6).
    The receiver's record is the one it wrote from that transmitter with the frame's first bit
    within 10 us after the frame's start (the propagation delay)."""
    import numpy as np
    import pandas as pd

    keys = ["node", "frame", "cw", "failed", "airtime_us", "overlapped", "receiver", "cause", "interferer",
            "receiver_nav"]
    tx = _tx_intervals(events)
    rx = events[events["kind"].isin(("rx_ok", "rx_fail", "rx_missed"))]
    rx_by = {(str(n), str(p)): part for (n, p), part in rx.groupby(["node", "peer"], observed=True, sort=True)}
    nav_by = {}
    for node, part in events[events["kind"] == "nav"].groupby("node", observed=True, sort=True):
        # The NAV after each record: the latest end any record up to then set (9.3.2.4: a NAV only grows).
        nav_by[str(node)] = (part["time_ps"].to_numpy(np.int64),
                             np.maximum.accumulate(part["end_ps"].to_numpy(np.int64)))
    propagation_ps = 10_000_000
    if not events.index.is_unique:  # rows are read by position below (trace.load numbers them 0..n-1)
        events = events.reset_index(drop=True)
    attempts = list(_attempts(events))
    # Each attempt's frame, read by position once for all (a label lookup per attempt took most
    # of the time on a trace of 10^5 records).
    at = events.index.get_indexer([a[4] for a in attempts])
    starts_of = events["time_ps"].iloc[at].to_numpy(np.int64)
    ends_of = events["end_ps"].iloc[at].to_numpy(np.int64)
    receivers = [str(p) for p in events["peer"].iloc[at]]
    # The other nodes met: for each traced sender, its last frame begun before each attempt's end,
    # still on the air after the attempt's start (a radio's frames do not overlap one another).
    met: List[List[str]] = [[] for _ in attempts]
    for other, (starts, ends) in tx.items():
        i = np.searchsorted(starts, ends_of, side="left") - 1
        on_air = (i >= 0) & (ends[np.maximum(i, 0)] > starts_of) if len(starts) else np.zeros(len(attempts), bool)
        for a in np.flatnonzero(on_air):
            if attempts[a][0] != other:
                met[a].append(other)
    # The receivers' records by (receiver, transmitter), as arrays and lists read by position.
    records = {key: (part["start_ps"].to_numpy(np.int64), part["kind"].astype(str).tolist(),
                     [None if pd.isna(c) else str(c) for c in part["cause"]],
                     [None if pd.isna(c) else str(c) for c in part["interferer"]])
               for key, part in rx_by.items()}
    counts: dict = {}
    for a, (node, frame, window, failed, _) in enumerate(attempts):
        start, end, receiver = int(starts_of[a]), int(ends_of[a]), receivers[a]
        record, cause, interferer = "none", None, None
        found = records.get((receiver, node))
        if found is not None:
            firsts, kinds, causes, interferers = found
            j = int(np.searchsorted(firsts, start, side="left"))
            if j < len(firsts) and firsts[j] <= start + propagation_ps:
                record = kinds[j]
                if record != "rx_ok":
                    cause, interferer = causes[j], interferers[j]
        nav = False
        if receiver in nav_by:
            times, ends_nav = nav_by[receiver]
            k = int(np.searchsorted(times, end, side="right")) - 1
            nav = bool(k >= 0 and ends_nav[k] > end)
        key = (node, frame, window, bool(failed), (end - start) // 1_000_000, "+".join(sorted(met[a])) or "none",
               record, cause, interferer, nav)
        counts[key] = counts.get(key, 0) + 1
    rows = [dict(zip(keys, k), attempts=n) for k, n in counts.items()]
    out = pd.DataFrame(rows, columns=keys + ["attempts"])
    return out.sort_values(keys[:7], kind="stable").reset_index(drop=True)


def tx_gaps(events: "pandas.DataFrame", bin_us: int = 50) -> "pandas.DataFrame":
    """Each node's idle gaps between its own frames: the time from the last bit of each frame it
    sent to the first bit of its next, from its ``tx_start`` records, counted in bins of ``bin_us``
    microseconds. One row per (``node``, ``frame``, ``gap_us``) with ``gaps``: ``frame`` the kind
    of the frame after the gap, ``gap_us`` the bin's lower edge (a gap of g us is in the bin
    ``bin_us * floor(g / bin_us)``)."""
    import numpy as np
    import pandas as pd

    if bin_us <= 0:
        raise ValueError(f"bin_us must be positive, not {bin_us}")
    tx = events[events["kind"] == "tx_start"]
    counts: dict = {}
    for node, part in tx.groupby("node", observed=True, sort=True):
        starts, ends = part["time_ps"].to_numpy(np.int64), part["end_ps"].to_numpy(np.int64)
        gaps_us = (starts[1:] - ends[:-1]) // 1_000_000
        bins = (gaps_us // bin_us) * bin_us
        for frame, b in zip(part["frame"].iloc[1:].astype(str), bins):
            key = (str(node), frame, int(b))
            counts[key] = counts.get(key, 0) + 1
    rows = [dict(node=k[0], frame=k[1], gap_us=k[2], gaps=n) for k, n in sorted(counts.items())]
    return pd.DataFrame(rows, columns=["node", "frame", "gap_us", "gaps"])
