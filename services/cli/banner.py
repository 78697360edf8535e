"""What ``ledger serve`` says: what it is doing while the user waits, then where
everything is and what to try next.  Nothing else, unless ``--verbose``."""

from __future__ import annotations

import errno
import socket
from typing import TYPE_CHECKING

from services.cli.failures import UserError
from services.cli.locate import connectable, has_embedded_data, parse_address
from services.cli.root import console

if TYPE_CHECKING:
    from pathlib import Path

    from services.runtime.bootstrap import Wiring
    from services.runtime.settings import Settings


def check_port_free(listen: str) -> None:
    """Fail before the slow database start if ``listen`` cannot be bound.

    The same check gRPC makes (SO_REUSEADDR, so a port in TIME_WAIT is fine);
    the server binds again for real, and a bind that loses a race in between
    still fails without a traceback.

    :raises UserError: for a malformed address, an unknown host or a port in use.
    """
    host, port = parse_address(listen)
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise UserError(f"cannot listen on {listen}: {exc.strerror}") from None
    family, kind, proto, _, sockaddr = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(sockaddr)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                raise UserError(
                    f"cannot listen on {listen}: the port is in use (another "
                    "`ledger serve`?); stop it or pass --listen HOST:PORT"
                ) from None
            raise UserError(f"cannot listen on {listen}: {exc.strerror}") from None


def starting(settings: Settings) -> None:
    """Say what the wait is for: initdb on a first start takes several seconds."""
    console.print(f"data dir: {settings.data_dir}", highlight=False)
    if settings.database_url:
        console.print("connecting to PostgreSQL…")
    elif has_embedded_data(settings.data_dir):
        console.print("starting the embedded PostgreSQL…")
    else:
        console.print(
            "first start: creating the embedded PostgreSQL database "
            "(initdb takes a few seconds)…",
            highlight=False,
            soft_wrap=True,
        )


def ready(wiring: Wiring, listen: str, announced: Path | None = None) -> None:
    """The banner: address, data dir, database, admin token, next command.

    ``announced``: where ``server.json`` was written (``None``: not written).
    """
    settings = wiring.settings
    if settings.database_url:
        from psycopg.conninfo import conninfo_to_dict

        params = conninfo_to_dict(wiring.database_url)
        database = f"PostgreSQL at {params.get('host')}:{params.get('port', 5432)}/{params.get('dbname')}"
    else:
        database = f"embedded PostgreSQL in {settings.data_dir / 'pgdata'}"
    token = (
        "from LEDGER_ADMIN_TOKEN"
        if settings.admin_token is not None
        else str(settings.data_dir / "admin-token")
    )
    target = connectable(listen)
    dashboard = (
        f"  dashboard    {'https' if settings.http_tls else 'http'}://{settings.http_listen}/\n"
        if settings.http_listen != "off"
        else ""
    )
    where = f" (written to {announced})" if announced is not None else ""
    workers = f" ({settings.workers} worker processes)" if settings.workers > 1 else ""
    console.print(
        f"[bold]ledger[/] serving on [cyan]{listen}[/]{workers}\n"
        f"  data dir     {settings.data_dir}\n"
        f"  database     {database}\n"
        f"  admin token  {token}\n"
        f"  clients      find it at {target}{where}\n"
        f"{dashboard}"
        "  next         ledger demo --game thalara   (in another terminal)\n"
        "Ctrl-C stops the server.",
        highlight=False,
        soft_wrap=True,
    )
