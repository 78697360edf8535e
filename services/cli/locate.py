"""Where things are: the data directory, the running server, the database.

The CLI must not depend on the current directory.  Everything local lives in
one data directory per user (``Settings.data_dir``: platformdirs' user data
dir, or ``LEDGER_DATA_DIR``).  A running ``ledger serve`` writes its address to
``DATA_DIR/server.json``, so client commands (``demo``, ``ratings``, ``stats``,
``tournament``) find it without ``--target``; commands that read the stored
games (``games``, ``audit``, ``export``, ``replay``) open the same database the
server uses and never create an empty one.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import typer

from services.cli import failures
from services.cli.failures import USAGE, UserError
from services.runtime.settings import Settings

if TYPE_CHECKING:
    from services.api.client import Connection
    from services.ledger.application import GameLedger

ADDRESS_FILE = "server.json"
S = TypeVar("S")


def parse_address(address: str, what: str = "--listen") -> tuple[str, int]:
    """``HOST:PORT`` (``[v6]:PORT`` too) split and checked.

    :raises UserError: for anything else, e.g. ``nonsense``.
    """
    host, sep, port = address.rpartition(":")
    host = host.strip("[]")
    if not sep or not host or not port.isdigit() or int(port) > 65535:
        raise UserError(
            f"{what} {address!r} is not HOST:PORT (e.g. 127.0.0.1:50051)", USAGE
        )
    return host, int(port)


def connectable(address: str) -> str:
    """The address a client dials for a server listening on ``address``."""
    host, port = parse_address(address)
    if host in ("0.0.0.0", "::", "*"):
        host = "127.0.0.1" if host != "::" else "[::1]"
    elif ":" in host:
        host = f"[{host}]"
    return f"{host}:{port}"


def write_address(data_dir: Path, address: str, dashboard: str | None = None) -> Path:
    """Announce a running server (its pid lets readers ignore a stale file)
    and, when it serves one, its dashboard's URL (for play links)."""
    data_dir.mkdir(parents=True, exist_ok=True)
    path = data_dir / ADDRESS_FILE
    found: dict[str, object] = {"address": address, "pid": os.getpid()}
    if dashboard:
        found["dashboard"] = dashboard
    path.write_text(json.dumps(found) + "\n")
    return path


def clear_address(data_dir: Path) -> None:
    """Remove our announcement, unless another server has replaced it since."""
    path = data_dir / ADDRESS_FILE
    try:
        if json.loads(path.read_text()).get("pid") == os.getpid():
            path.unlink()
    except (OSError, ValueError):
        pass


def announced_address(data_dir: Path) -> str | None:
    """The address a live local server wrote into ``data_dir``, if any."""
    try:
        found = json.loads((data_dir / ADDRESS_FILE).read_text())
        os.kill(int(found["pid"]), 0)  # gone: a stale file from a crash
        return connectable(str(found["address"]))
    except (OSError, ValueError, KeyError, TypeError, UserError):
        return None


def announced_dashboard(data_dir: Path) -> str | None:
    """The dashboard URL a live local server wrote into ``data_dir``, if any."""
    try:
        found = json.loads((data_dir / ADDRESS_FILE).read_text())
        os.kill(int(found["pid"]), 0)
        return str(found["dashboard"]) if found.get("dashboard") else None
    except (OSError, ValueError, KeyError, TypeError):
        return None


def server_target(explicit: str | None) -> str:
    """``--target``, else the running server's announced address, else LISTEN."""
    if explicit:
        parse_address(explicit, "--target")
        return explicit
    settings = Settings()
    return announced_address(settings.data_dir) or connectable(settings.listen)


def tls(settings: Settings | None = None) -> tuple[Any, list[tuple[str, Any]]] | None:
    """The CLI's TLS, from the server's own settings: ``(credentials, options)``,
    or None for plaintext.

    TLS when LEDGER_GRPC_TLS_CA names the CA of the server's certificate, or
    when LEDGER_GRPC_TLS_CERT is set (this machine's server serves TLS: its
    certificate is trusted); LEDGER_GRPC_TLS_CLIENT_CERT/_KEY add the
    certificate a mutual-TLS server asks for, and LEDGER_GRPC_TLS_SERVER_NAME
    the name to check when the address dialled is not in the certificate.

    :raises UserError: for a PEM file that cannot be read.
    """
    from services.api.transport import client_credentials

    settings = settings or Settings()
    roots = settings.grpc_tls_ca or settings.grpc_tls_cert
    if roots is None and settings.grpc_tls_client_cert is None:
        return None
    try:
        credentials = client_credentials(
            roots, settings.grpc_tls_client_cert, settings.grpc_tls_client_key
        )
    except OSError as exc:
        raise UserError(f"cannot read a TLS file: {exc}") from None
    options = []
    if settings.grpc_tls_server_name:
        options.append(("grpc.ssl_target_name_override", settings.grpc_tls_server_name))
    return credentials, options


def channel(target: str) -> Any:
    """A gRPC channel to ``target``, TLS when the settings say (:func:`tls`)."""
    import grpc

    secure = tls()
    if secure is None:
        return grpc.insecure_channel(target)
    return grpc.secure_channel(target, secure[0], secure[1])


def connect(explicit: str | None) -> Connection:
    """A gRPC connection to the server (remembered for "no server at ..." lines)."""
    from services.api.client import Connection

    failures.target = server_target(explicit)
    secure = tls()
    if secure is None:
        return Connection.open(failures.target)
    return Connection.open(failures.target, *secure)


TARGET = typer.Option(
    None,
    "--target",
    metavar="HOST:PORT",
    help="Server address. Default: the running `ledger serve`, else LEDGER_LISTEN.",
)
"""``--target``, the same option on every command that calls a server."""


def token_option(envvar: str, help_text: str) -> Any:
    """``--token``: the bearer token a command calls the server with, also
    read from ``envvar`` (a token on the command line shows in ``ps``)."""
    return typer.Option(None, "--token", metavar="TOKEN", envvar=envvar, help=help_text)


def stub(stub_class: type[S], explicit: str | None) -> S:
    """A gRPC stub of ``stub_class`` on the server (see :func:`server_target`)."""
    failures.target = server_target(explicit)
    return stub_class(channel(failures.target))  # type: ignore[call-arg]


def bearer(token: str | None) -> tuple[tuple[str, str], ...] | None:
    """The authorization metadata of ``token`` (None without one).

    :raises UserError: for a token with a byte a header cannot carry (a NUL,
        a control or non-ASCII character): grpc's client library refuses to
        send it and answers INTERNAL "Invalid metadata" itself.
    """
    if not token:
        return None
    if not (token.isascii() and token.isprintable()):
        raise UserError(
            "--token: a bearer token is printable ASCII (as the server issues "
            "them); this one has a character no request header can carry",
            USAGE,
        )
    return (("authorization", f"Bearer {token}"),)


def admin_token(
    settings: Settings | None = None, target: str | None = None
) -> str | None:
    """LEDGER_ADMIN_TOKEN, else the one the local server generated, else None.

    ``target``: the ``--target`` a command was given (None: the server it
    finds itself, :func:`server_target`).  The generated token goes only to
    the address dialled when it is a loopback one: it is this machine's
    admin credential, and a server elsewhere would see it before refusing it
    as unknown.  Whatever named the address (``--target``, LEDGER_LISTEN, a
    ``.env`` file, ``server.json``) makes no difference: a server found
    without ``--target`` may listen on another host's address too.
    LEDGER_ADMIN_TOKEN is the user's own choice and goes to any server, but
    never in plaintext off this machine.

    :raises UserError: LEDGER_ADMIN_TOKEN set, for a server elsewhere, with
        no TLS (:func:`tls`): the token would cross the network readable.
    """
    settings = settings or Settings()
    dialled = target or (
        announced_address(settings.data_dir) or connectable(settings.listen)
    )
    local = _loopback(dialled)
    if settings.admin_token is not None:
        if not local and tls(settings) is None:
            raise UserError(
                f"LEDGER_ADMIN_TOKEN would go to {dialled} in plaintext: set "
                "LEDGER_GRPC_TLS_CA (the CA of the server's certificate) so the "
                "CLI speaks TLS"
            )
        return settings.admin_token.get_secret_value()
    if not local:
        return None
    try:
        return (settings.data_dir / "admin-token").read_text().strip() or None
    except OSError:
        return None


def _loopback(target: str) -> bool:
    import ipaddress

    try:
        host, _ = parse_address(target, "--target")
    except UserError:
        return False
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def canonical_game(name: str, what: str = "GAME_TYPE") -> str:
    """The registered name of a game type (aliases accepted).

    :raises UserError: for an unknown game type.
    """
    from domain.games import UnknownGameError, find_game

    try:
        return find_game(name).name
    except UnknownGameError as exc:
        raise UserError(f"{what}: {exc}", USAGE) from None


def has_embedded_data(data_dir: Path) -> bool:
    return (data_dir / "pgdata" / "PG_VERSION").exists()


def probe_database(url: str) -> None:
    """One quick connection first: the pool would only say it timed out.

    :raises UserError: with PostgreSQL's own reason (refused, no such database...).
    """
    import psycopg
    from psycopg.conninfo import conninfo_to_dict

    try:
        psycopg.connect(url, connect_timeout=5).close()
    except psycopg.OperationalError as exc:
        params = conninfo_to_dict(url)
        where = f"{params.get('host', 'localhost')}:{params.get('port', 5432)}/{params.get('dbname', '')}"
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else "no answer"
        raise UserError(
            f"cannot reach PostgreSQL at {where} (LEDGER_DATABASE_URL): {reason}"
        ) from None


def open_ledger(settings: Settings | None = None) -> GameLedger:
    """The stored games, read directly from the server's database.

    :raises UserError: with the embedded database and no data yet: creating
        an empty cluster here would only answer "not found".
    """
    from services.runtime.bootstrap import build_ledger

    settings = settings or Settings()
    if not settings.database_url and not has_embedded_data(settings.data_dir):
        raise UserError(
            f"no ledger data in {settings.data_dir} yet: start the server with "
            "`ledger serve` (or set LEDGER_DATA_DIR or LEDGER_DATABASE_URL)"
        )
    from services.cli.root import CLEANUP

    if settings.database_url:
        probe_database(settings.database_url)
    ledger = build_ledger(settings)
    CLEANUP.callback(ledger.close)
    return ledger
