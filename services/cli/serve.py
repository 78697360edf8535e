"""``ledger serve`` and ``ledger project``: the long-running processes."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from services.cli.root import app, console, quiet_logging
from services.runtime.settings import Settings

if TYPE_CHECKING:
    from services.runtime.server import Running


@app.command()
def serve(
    listen: str | None = typer.Option(
        None, help="Address to bind, e.g. 0.0.0.0:50051. Default: LEDGER_LISTEN."
    ),
    workers: int | None = typer.Option(
        None, min=1, max=64, help="Server processes sharing the port (SO_REUSEPORT)."
    ),
    verbose: bool = typer.Option(
        False, "--verbose", "-v", help="Show the engine logs (PostgreSQL, gRPC)."
    ),
    log_level: str | None = typer.Option(
        None, help="Logging level (default WARNING; INFO with --verbose)."
    ),
    http: str | None = typer.Option(
        None,
        "--http",
        metavar="HOST:PORT",
        help="Web dashboard address, or 'off'. Default: LEDGER_HTTP_LISTEN.",
    ),
    views: str | None = typer.Option(
        None,
        "--views",
        metavar="child|in-process|off",
        help="Where the projection views run: a child process (default), this "
        "process, or not at all (run `ledger project`). Default: LEDGER_VIEWS.",
    ),
) -> None:
    """Run the gRPC server and the web dashboard (embedded PostgreSQL unless
    LEDGER_DATABASE_URL is set)."""
    import os

    from services.cli import banner, locate
    from services.runtime.bootstrap import wire

    os.environ.setdefault(
        "PGAPPNAME", "ledger serve"
    )  # libpq: seen in pg_stat_activity

    if verbose:
        quiet_logging(True)
    if log_level:
        logging.getLogger().setLevel(log_level.upper())
    update: dict[str, object] = {}
    if listen:
        update["listen"] = listen
    if workers:
        update["workers"] = workers
    if http:
        update["http_listen"] = http
    if views:
        update["views"] = views_mode(views)
    settings = Settings.model_validate({**Settings().model_dump(), **update})
    banner.check_port_free(settings.listen)
    http_address(settings.http_listen)
    warn_if_plaintext(settings)
    banner.starting(settings)
    if settings.database_url:
        locate.probe_database(settings.database_url)
    wiring = wire(settings)
    if settings.workers > 1:
        from services.runtime.supervisor import serve_workers

        banner.ready(wiring, settings.listen, announce(settings))
        try:
            serve_workers(wiring)
        finally:
            locate.clear_address(settings.data_dir)
        return
    from services.runtime.server import serve as run

    def ready(running: Running) -> None:  # the port is bound: now say so
        banner.ready(wiring, settings.listen, announce(settings, running.dashboard))

    try:
        asyncio.run(run(wiring, on_ready=ready))
    finally:
        locate.clear_address(settings.data_dir)


def warn_if_plaintext(settings: Settings) -> bool:
    """One warning line when gRPC listens beyond this machine without TLS.

    Every call carries a bearer token (a seat's, an organiser's, the
    admin's): on a non-loopback address without TLS anyone on the path reads
    them.  A warning, not a refusal: a TLS-terminating proxy or a private
    network may be the operator's choice.  Returns whether it warned.
    """
    import ipaddress

    from services.cli import locate

    host, _ = locate.parse_address(settings.listen)
    if settings.grpc_tls_cert is not None or host == "localhost":
        return False
    try:
        if ipaddress.ip_address(host).is_loopback:
            return False
    except ValueError:
        pass  # a name: it may resolve anywhere
    typer.echo(
        f"warning: gRPC listens on {settings.listen} without TLS: bearer tokens, "
        "the admin token included, cross the network readable; set "
        "LEDGER_GRPC_TLS_CERT and LEDGER_GRPC_TLS_KEY (or listen on 127.0.0.1)",
        err=True,
    )
    return True


def announce(settings: Settings, dashboard: str | None = None) -> Path | None:
    """Write ``server.json`` for local clients, if the data dir takes it.

    Why best effort: the file only saves a local client its ``--target``.  A
    server configured by environment (a container with a read-only root, a
    systemd unit) must start without a writable data dir; the embedded mode
    needs one anyway, for its database.
    """
    from services.cli import locate

    try:
        return locate.write_address(settings.data_dir, settings.listen, dashboard)
    except OSError as exc:
        logging.getLogger(__name__).info("server.json not written: %s", exc)
        return None


def http_address(value: str, allow_off: bool = True) -> str:
    """:raises UserError: an address the dashboard cannot listen on, in one line."""
    from services.cli.failures import USAGE, UserError
    from services.dashboard.address import check_listen

    try:
        return check_listen(value, allow_off=allow_off)
    except typer.BadParameter as exc:
        raise UserError(f"--http: {exc}", USAGE) from None


def views_mode(value: str) -> str:
    """:raises UserError: a ``--views`` value that is not one of the three modes."""
    from services.cli.failures import USAGE, UserError

    modes = ("child", "in-process", "off")
    if value not in modes:
        raise UserError(f"--views: expected one of {', '.join(modes)}", USAGE)
    return value


@app.command()
def dashboard(
    http: str | None = typer.Option(
        None,
        "--http",
        metavar="HOST:PORT",
        help="Address to serve on. Default: LEDGER_HTTP_LISTEN.",
    ),
) -> None:
    """Run only the web dashboard (read-only) against the configured database."""
    from services.dashboard.serve import run_alone
    from services.runtime.bootstrap import build_ledger, view_runners

    settings = Settings()
    listen = http_address(http or settings.http_listen, allow_off=False)
    scheme = "https" if settings.http_tls else "http"
    console.print(f"dashboard: [cyan]{scheme}://{listen}/[/]")
    ledger = build_ledger(settings)
    runners = view_runners(ledger.datastore, create_tables=settings.create_tables)
    asyncio.run(
        run_alone(
            ledger, listen, runners, settings.read_database_url, settings.http_tls
        )
    )


@app.command()
def project(
    metrics_port: int | None = typer.Option(
        None,
        min=0,
        max=65535,
        help="Serve Prometheus /metrics (projection lag and position) on this port; 0 = off. "
        "Default: LEDGER_METRICS_PORT.",
    ),
) -> None:
    """Run the projection views as their own process (follows the log live)."""
    import signal
    import threading

    from projections.projector import Projector
    from services.runtime.bootstrap import build_ledger, database_url, view_runners
    from services.runtime.metrics_endpoint import database_health, serve_metrics

    stop = threading.Event()  # first: a SIGTERM while starting still stops cleanly
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    settings = Settings()
    port = settings.metrics_port if metrics_port is None else metrics_port
    if port:  # first, so a port in use fails before anything runs
        serve_metrics(port, database_health(database_url(settings)))
        console.print(f"metrics on :{port}/metrics")
    ledger = build_ledger(settings)
    projector = Projector(
        view_runners(ledger.datastore, create_tables=settings.create_tables),
        database_url(settings),
        exclusive=True,  # several workers: one active per view, the rest stand by
    )
    projector.start()
    console.print(
        f"projecting {', '.join(r.view.name for r in projector.runners)}; Ctrl-C to stop"
    )
    try:
        stop.wait()
    except KeyboardInterrupt:
        pass
    projector.stop()
