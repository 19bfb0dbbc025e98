"""Loaded by every worker process of the embedded Dask cluster (``preload``, see
wmnsim.sweep.dask_client), before it takes a task.

Ctrl-C at a terminal sends SIGINT to the whole process group, `kill -TERM -PGID`
SIGTERM: to the sweep's own process and to each worker. The sweep's process stops
the sweep (finished runs kept, one line printed) and closes the cluster, whose
nannies ask each worker to close and kill it if it does not; a worker that took
the signal itself would print its traceback or, killed, be restarted by its nanny
while the cluster closes. So workers ignore SIGINT, SIGTERM and SIGHUP. A worker
whose sweep process died ends by itself (Dask's parent-alive watch).
"""
import logging
import signal

# A worker whose heartbeat reaches a scheduler that is closing logs an ERROR with a
# traceback ("Failed to communicate with scheduler during heartbeat"): a race of
# Dask's own close, seen when a stopped sweep closes its cluster while a heartbeat
# is in flight. The scheduler is the sweep's own process here (this module is only
# preloaded by the embedded cluster), so the message says only that it is closing;
# every other record of the worker's log is kept.
_CLOSING_HEARTBEAT = "Failed to communicate with scheduler during heartbeat"


class _DropClosingHeartbeat(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return _CLOSING_HEARTBEAT not in record.getMessage()


def dask_setup(worker) -> None:  # noqa: ARG001 - the preload protocol passes the worker
    for stop in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(stop, signal.SIG_IGN)
    logging.getLogger("distributed.worker").addFilter(_DropClosingHeartbeat())
