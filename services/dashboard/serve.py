"""Serving the dashboard: beside gRPC in ``ledger serve``, or alone (``ledger dashboard``).

Beside gRPC it is a uvicorn server in the same asyncio loop, so one process
and one database pool serve both; uvicorn's own signal handling is off there
(``ledger serve`` owns SIGINT/SIGTERM and stops both).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import uvicorn

from services.dashboard.address import InvalidListenError, parse_listen
from services.dashboard.app import create_app
from services.dashboard.reader import Reader, reader_for

log = logging.getLogger(__name__)


class _Embedded(uvicorn.Server):
    def capture_signals(self) -> Any:  # the host process owns the signals
        return contextlib.nullcontext()


@dataclass
class Http:
    server: uvicorn.Server
    task: asyncio.Task[None]
    reader: Reader
    host: str = "127.0.0.1"
    scheme: str = "http"

    @property
    def port(self) -> int:
        return int(self.server.servers[0].sockets[0].getsockname()[1])

    @property
    def url(self) -> str:
        """Where a browser on this machine reaches it (for play links)."""
        host = {"0.0.0.0": "127.0.0.1", "::": "::1"}.get(self.host, self.host)
        host = f"[{host}]" if ":" in host else host
        return f"{self.scheme}://{host}:{self.port}"

    async def stop(self) -> None:
        self.server.should_exit = True
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(self.task, 5)
        self.reader.close()


class DashboardBindError(OSError):
    """Raised when the dashboard's address is taken or cannot be bound."""


def _bind(host: str, port: int, listen: str) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise DashboardBindError(
            f"the dashboard cannot listen on {listen}: {exc.strerror or exc};"
            " set LEDGER_HTTP_LISTEN / --http to another address, or 'off'"
        ) from None
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


async def start(
    ledger: Any,
    listen: str,
    desk: Any = None,
    read_url: str | None = None,
    tls: tuple[Path, Path] | None = None,
) -> Http | None:
    """Serve the dashboard for ``ledger`` on ``listen`` in the running loop;
    the views are read on ``read_url`` (a streaming replica) when it is set.
    With ``tls`` (certificate, key: PEM files) it serves HTTPS.

    :raises DashboardBindError: when the address is taken.
    """
    address = parse_listen(listen)
    if address is None:
        return None
    sock = _bind(*address, listen)
    reader = await asyncio.to_thread(reader_for, ledger, desk, read_url)
    config = uvicorn.Config(
        create_app(reader),
        log_level="warning",
        lifespan="off",
        timeout_graceful_shutdown=2,
        ssl_certfile=str(tls[0]) if tls else None,
        ssl_keyfile=str(tls[1]) if tls else None,
    )
    server = _Embedded(config)
    task = asyncio.create_task(server.serve(sockets=[sock]))
    while not server.started:
        if task.done():
            reader.close()
            task.result()  # raises what stopped it
            raise OSError(f"the dashboard could not start on {listen}")
        await asyncio.sleep(0.02)
    scheme = "https" if tls else "http"
    http = Http(server, task, reader, address[0], scheme)
    log.info("dashboard on %s://%s:%s/", scheme, address[0], http.port)
    return http


async def run_alone(
    ledger: Any,
    listen: str,
    runners: Sequence[Any],
    read_url: str | None = None,
    tls: tuple[Path, Path] | None = None,
) -> None:
    """``ledger dashboard``: the dashboard only, until SIGINT/SIGTERM.

    The views' tables are made (or, without ``create_tables``, checked) first,
    so a database no view has run on yet shows empty pages, not errors.
    """
    import signal

    for runner in runners:
        await asyncio.to_thread(runner.ensure_tables)
    http = await start(ledger, listen, read_url=read_url, tls=tls)
    if http is None:
        raise InvalidListenError("the dashboard cannot run with --http off")
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    waiter = asyncio.create_task(stop.wait())
    await asyncio.wait({waiter, http.task}, return_when=asyncio.FIRST_COMPLETED)
    await http.stop()


def start_in_thread(
    ledger: Any,
    listen: str,
    read_url: str | None = None,
    tls: tuple[Path, Path] | None = None,
) -> Any:
    """The dashboard in a thread of its own (the ``--workers N`` supervisor,
    which has no event loop); returns a function that stops it, or ``None``."""
    import threading

    if parse_listen(listen) is None:
        return None
    loop = asyncio.new_event_loop()
    started: dict[str, Any] = {}
    ready = threading.Event()

    def run() -> None:
        asyncio.set_event_loop(loop)
        try:
            started["http"] = loop.run_until_complete(
                start(ledger, listen, read_url=read_url, tls=tls)
            )
        except BaseException as exc:  # noqa: BLE001 - reported to the caller below
            started["error"] = exc
        ready.set()
        if "http" in started:
            loop.run_until_complete(started["http"].task)

    thread = threading.Thread(target=run, name="dashboard", daemon=True)
    thread.start()
    ready.wait(30)
    if "error" in started:
        raise started["error"]

    def stop() -> None:
        http = started.get("http")
        if http is not None:
            http.server.should_exit = True
            thread.join(10)
            http.reader.close()

    return stop
