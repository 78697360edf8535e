"""The Prometheus ``/metrics`` endpoint of each process, and its port.

Why one port per process: ``ledger serve --workers N`` runs N serving
processes and a supervisor, and each has its own registry.  The supervisor
serves ``LEDGER_METRICS_PORT`` (the views it runs: projection lag and
position), and worker *i* serves ``LEDGER_METRICS_PORT + 1 + i`` (its calls,
streams and database health).  prometheus-client's multiprocess mode would
give one endpoint, but it needs a writable directory shared by every process
(which a read-only container root does not have), files that outlive each
pid, and a merge mode chosen per gauge; docs/decisions.md, "Metrics with
several workers".
"""

from __future__ import annotations

import errno


def worker_port(base: int | None, index: int) -> int | None:
    """Worker ``index``'s metrics port when the supervisor serves ``base``."""
    return None if not base else base + 1 + index


def serve_metrics(port: int) -> None:
    """Serve ``/metrics`` on ``port`` in a daemon thread.

    :raises SystemExit: with one line when the port cannot be bound (another
        process already serves metrics there), never a traceback.
    """
    from prometheus_client import start_http_server

    try:
        start_http_server(port)
    except OSError as exc:
        reason = (
            "the port is in use (every process needs a metrics port of its own)"
            if exc.errno == errno.EADDRINUSE
            else exc.strerror
        )
        raise SystemExit(
            f"cannot serve metrics on :{port} (LEDGER_METRICS_PORT): {reason}"
        ) from None
