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
import signal


def dask_setup(worker) -> None:  # noqa: ARG001 - the preload protocol passes the worker
    for stop in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(stop, signal.SIG_IGN)
