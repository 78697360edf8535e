"""The composition root: settings -> database -> ledger application.

Everything that reads the environment or decides which database to use lives
here, so tests and the CLI build the same object graph with other settings.
"""

from __future__ import annotations

import logging
import os
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from psycopg.conninfo import conninfo_to_dict

from services.ledger.application import GameLedger
from services.runtime.settings import Settings
from services.storage import roles
from services.storage.database_env import embedded_url, eventsourcing_env
from services.storage.signing_key import load_signer, parse_keyring

if TYPE_CHECKING:
    from projections.runner import ViewRunner

log = logging.getLogger(__name__)


@dataclass
class Wiring:
    settings: Settings
    database_url: str
    ledger: GameLedger
    admin_token: str


def database_url(settings: Settings) -> str:
    return settings.database_url or embedded_url(settings.data_dir)


def admin_token(settings: Settings) -> str:
    """The configured admin token, or one generated once and kept in data_dir."""
    if settings.admin_token is not None:
        return settings.admin_token.get_secret_value()
    path: Path = settings.data_dir / "admin-token"
    if path.exists():
        return path.read_text().strip()
    path.parent.mkdir(parents=True, exist_ok=True)
    token = secrets.token_urlsafe(32)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as fh:
        fh.write(token + "\n")
    log.info("generated an admin token in %s", path)
    return token


LIBPQ_SSL_ENV = {
    "sslmode": "PGSSLMODE",
    "sslrootcert": "PGSSLROOTCERT",
    "sslcert": "PGSSLCERT",
    "sslkey": "PGSSLKEY",
    "sslcrl": "PGSSLCRL",
    "sslcrldir": "PGSSLCRLDIR",
    "sslsni": "PGSSLSNI",
    "ssl_min_protocol_version": "PGSSLMINPROTOCOLVERSION",
    "ssl_max_protocol_version": "PGSSLMAXPROTOCOLVERSION",
}
"""A URL's TLS parameters and the libpq variables that mean the same."""


def pass_ssl_through(settings: Settings) -> None:
    """Make the URL's ``sslmode``/``sslrootcert``/... reach every pooled connection.

    Why the environment: eventsourcing builds its pools from host, port,
    user, password and database name only, so ``?sslmode=verify-full`` in
    ``LEDGER_DATABASE_URL`` would be dropped there (libpq's default,
    ``prefer``, encrypts without checking the server).  libpq reads the
    same settings from ``PGSSLMODE`` & co. for any connection that does not
    name them; connections opened from the URL itself name them anyway.
    One process has one environment, so the primary's and the replica's
    URLs must not ask for different TLS settings.

    :raises ValueError: when they do.
    """
    wanted: dict[str, str] = {}
    for url in (settings.database_url, settings.read_database_url):
        if not url:
            continue
        params = conninfo_to_dict(url)
        found = {k: str(v) for k, v in params.items() if k in LIBPQ_SSL_ENV}
        if wanted and found != wanted:
            raise ValueError(
                "LEDGER_DATABASE_URL and LEDGER_READ_DATABASE_URL ask for different "
                "TLS settings (sslmode, sslrootcert, ...): give both the same"
            )
        wanted = found
    for key, value in wanted.items():
        os.environ[LIBPQ_SSL_ENV[key]] = value


def build_ledger(settings: Settings, url: str | None = None) -> GameLedger:
    """The ledger on ``url``; with ``create_tables`` off, no DDL and a check first.

    :raises SetupRequiredError: when ``settings.create_tables`` is false and
        the database lacks a table, grant or view (``ledger db setup``).
    """
    url = url or database_url(settings)
    pass_ssl_through(settings)
    env = eventsourcing_env(
        url,
        settings.pool_size,
        settings.create_tables,
        settings.pool_min,
        settings.db_wait_seconds,
    )
    env["GAME_CACHE_SIZE"] = str(settings.cache_size)
    if not settings.create_tables:
        roles.check_ready(url)
        env["APPLICATION_RECORDER_TOPIC"] = roles.SERVICE_ROLE_RECORDER
    return GameLedger(
        env,
        snapshot_interval=settings.snapshot_interval,
        signer=lambda: load_signer(  # loaded (or created) on first use
            settings.signing_key.get_secret_value()
            if settings.signing_key is not None
            else None,
            settings.data_dir,
            settings.signing_key_file,
            # servers sharing a bus share a key: none of them generates one
            generate=not settings.nats_url,
        ),
        keyring=parse_keyring(settings.keyring),
        record_dir=settings.data_dir,
    )


def setup_database(
    settings: Settings, service_role: str | None = None
) -> roles.SetupReport:
    """The schema migrations the database lacks, then the grants.

    Run as the owner.  Migration 1, the baseline, is the same code paths as a
    normal start with ``create_tables`` on (ledger, tournaments, every view);
    later ones are SQL (:mod:`services.storage.migrations`); then
    :func:`services.storage.roles.finish_setup`.
    """
    from services.storage import migrations
    from services.tournaments.desk import TournamentDesk

    ledger = build_ledger(settings.model_copy(update={"create_tables": True}))
    try:

        def baseline() -> None:
            TournamentDesk(ledger.env_for_peers, ledger).close()
            for runner in view_runners(ledger.datastore):
                runner.ensure_tables()

        migrated = migrations.apply(database_url(settings), baseline)
        with ledger.datastore.transaction(commit=True) as curs:
            report = roles.finish_setup(curs, ledger.datastore.schema, service_role)
        report.schema_version = migrated.version
        report.migrated = [f"{m.version} {m.name}" for m in migrated.applied]
        return report
    finally:
        ledger.close()


def wire(settings: Settings | None = None) -> Wiring:
    settings = settings or Settings()
    url = database_url(settings)
    ledger = build_ledger(settings, url)
    ledger.signer  # noqa: B018 - a server has its receipt key from the start
    return Wiring(settings, url, ledger, admin_token(settings))


def view_runners(
    datastore: Any,
    names: list[str] | None = None,
    *,
    create_tables: bool = True,
    batch_size: int = 500,
) -> list[ViewRunner]:
    """Every view's runner, with the tournament application wired into the results policy."""
    from projections import registry
    from services.tournaments.results import ResultsDesk

    return registry.runners(
        datastore,
        names,
        batch_size=batch_size,
        create_tables=create_tables,
        results=ResultsDesk(datastore, create_tables),
    )
