"""A process's HTTP endpoint for Prometheus: ``/metrics``, and ``/healthz``.

Why one port per process: ``ledger serve --workers N`` runs N serving
processes and a supervisor, and each has its own registry.  The supervisor
serves ``LEDGER_METRICS_PORT`` (the views it runs: projection lag and
position), and worker *i* serves ``LEDGER_METRICS_PORT + 1 + i`` (its calls,
streams and database health).  prometheus-client's multiprocess mode would
give one endpoint, but it needs a writable directory shared by every process
(which a read-only container root does not have), files that outlive each
pid, and a merge mode chosen per gauge; docs/decisions.md, "Metrics with
several workers".

Why ``/healthz`` here: ``ledger project`` serves no gRPC, so this port is
the only one a health check can reach; it answers 200 while the process's
database answers, else 503.
"""

from __future__ import annotations

import errno
import threading
from collections.abc import Callable, Iterable
from socketserver import ThreadingMixIn
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

Health = Callable[[], tuple[bool, str]]
"""``(healthy, one line saying why)``."""


def worker_port(base: int | None, index: int) -> int | None:
    """Worker ``index``'s metrics port when the supervisor serves ``base``."""
    return None if not base else base + 1 + index


class _Server(ThreadingMixIn, WSGIServer):
    daemon_threads = True


class _Quiet(WSGIRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        """Every scrape would be a log line."""


def database_health(url: str) -> Health:
    """A :data:`Health` that opens one connection to ``url`` per check."""

    def check() -> tuple[bool, str]:
        import psycopg

        try:
            psycopg.connect(url, connect_timeout=3).close()
        except psycopg.Error as exc:
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
            return False, f"database unavailable: {first}"
        return True, "ok"

    return check


def serve_metrics(port: int, health: Health | None = None) -> None:
    """Serve ``/metrics`` (and ``/healthz`` with ``health``) on ``port``, in a thread.

    :raises SystemExit: with one line when the port cannot be bound (another
        process already serves metrics there), never a traceback.
    """
    from prometheus_client import make_wsgi_app

    metrics = make_wsgi_app()

    def app(environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        if environ.get("PATH_INFO") == "/healthz":
            if health is None:  # not the metrics: a probe must not pass by accident
                start_response("404 Not Found", [("Content-Type", "text/plain")])
                return [b"no health check here\n"]
            ok, why = health()
            status = "200 OK" if ok else "503 Service Unavailable"
            start_response(status, [("Content-Type", "text/plain; charset=utf-8")])
            return [why.encode() + b"\n"]
        return metrics(environ, start_response)

    try:
        server = make_server("0.0.0.0", port, app, _Server, _Quiet)
    except OSError as exc:
        reason = (
            "the port is in use (every process needs a metrics port of its own)"
            if exc.errno == errno.EADDRINUSE
            else exc.strerror
        )
        raise SystemExit(
            f"cannot serve metrics on :{port} (LEDGER_METRICS_PORT): {reason}"
        ) from None
    threading.Thread(target=server.serve_forever, daemon=True, name="metrics").start()
