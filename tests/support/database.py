"""Real PostgreSQL for the integration and e2e tiers (never a mock).

Each test session creates its own fresh database on the server named by
``LEDGER_TEST_DATABASE_URL`` (default: the local server on 127.0.0.1:5432),
or, when no server answers, on an embedded ``pgserver`` started for the run.
The database is dropped at the end of the session.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import tempfile
from collections.abc import Iterator
from typing import Any

import pytest
from pydantic import SecretStr

DEFAULT_SERVER = "postgresql://postgres@127.0.0.1:5432/postgres"


def _reachable(url: str) -> bool:
    import psycopg

    try:
        with psycopg.connect(url, connect_timeout=3):
            return True
    except psycopg.OperationalError:
        return False


def scalar(cursor: Any) -> Any:
    """The first column of ``cursor``'s one row (a query that returns none fails)."""
    row = cursor.fetchone()
    assert row is not None, "the query returned no row"
    return row[0]


def _with_dbname(url: str, dbname: str) -> str:
    from psycopg.conninfo import conninfo_to_dict, make_conninfo

    params = conninfo_to_dict(url)
    params["dbname"] = dbname
    return make_conninfo("", **params)


@pytest.fixture(scope="session")
def server_url() -> Iterator[str]:
    url = os.environ.get("LEDGER_TEST_DATABASE_URL", DEFAULT_SERVER)
    if _reachable(url):
        yield url
        return
    import pgserver

    with tempfile.TemporaryDirectory(prefix="ledger-test-pg-") as datadir:
        server = pgserver.get_server(datadir, cleanup_mode="stop")
        try:
            yield server.get_uri()
        finally:
            server.cleanup()


@pytest.fixture(scope="session")
def database_url(server_url: str) -> Iterator[str]:
    """A fresh, empty database for this test session."""
    import psycopg

    name = f"ledger_test_{secrets.token_hex(6)}"
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield _with_dbname(server_url, name)
    finally:
        with psycopg.connect(server_url, autocommit=True) as conn:
            conn.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = %s AND pid <> pg_backend_pid()",
                (name,),
            )
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')


def _test_settings(database_url: str, data_dir: Any) -> Any:
    from services.runtime.settings import Settings

    return Settings(
        database_url=database_url,
        data_dir=data_dir,
        admin_token=SecretStr("test-admin-token"),
        snapshot_interval=10,
        pool_size=4,
    )


@pytest.fixture(scope="session")
def settings(database_url: str, tmp_path_factory: pytest.TempPathFactory):
    return _test_settings(database_url, tmp_path_factory.mktemp("ledger-data"))


@pytest.fixture(scope="module")
def quiet_settings(server_url: str, tmp_path_factory: pytest.TempPathFactory):
    """Settings on a database of the module's own.

    For tests that compare whole-database answers (statistics, ratings)
    before and after: on the session's database a clocked game another
    module left running can time out meanwhile (this module's server runs
    the timekeeper) and move those answers.  A module opts in by overriding
    ``settings`` with this and ``ledger`` with :func:`ledger_for`."""
    with scratch_database(server_url, "ledger_quiet") as url:
        yield _test_settings(url, tmp_path_factory.mktemp("ledger-quiet-data"))


@contextlib.contextmanager
def ledger_for(settings: Any) -> Iterator[Any]:
    """A ledger application on ``settings``' database, closed after."""
    from services.runtime.bootstrap import build_ledger

    app = build_ledger(settings)
    try:
        yield app
    finally:
        app.close()


@pytest.fixture(scope="session")
def ledger(settings):
    """The ledger application on the session's fresh database."""
    from services.runtime.bootstrap import build_ledger

    app = build_ledger(settings)
    yield app
    app.close()


@pytest.fixture
def fresh_ledger(settings):
    """Another ledger process on the same database (empty cache: a 'restart')."""
    from services.runtime.bootstrap import build_ledger

    app = build_ledger(settings)
    yield app
    app.close()


@pytest.fixture
def own_ledger(settings):
    """A ledger process of this test's own, for tests about what its cache
    vouches for: the session's ``ledger`` may have a listener another test
    attached, whose NOTIFYs would make a "not yet notified" copy impossible."""
    from services.runtime.bootstrap import build_ledger

    app = build_ledger(settings)
    yield app
    app.close()


@pytest.fixture
def superuser(database_url: str):
    """A raw connection for tests that play the part of a tampering DBA."""
    import psycopg

    with psycopg.connect(database_url, autocommit=True) as conn:
        yield conn


@contextlib.contextmanager
def scratch_database(server_url: str, prefix: str = "ledger_iso") -> Iterator[str]:
    """A database of its own (created empty, dropped after): nothing else touches it."""
    import psycopg

    name = f"{prefix}_{secrets.token_hex(6)}"
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield _with_dbname(server_url, name)
    finally:
        with psycopg.connect(server_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="module")
def isolated_ledger(server_url: str, settings):
    """A ledger on a database of its own: no background projector touches it."""
    from services.runtime.bootstrap import build_ledger

    with scratch_database(server_url) as url:
        app = build_ledger(settings, url)
        try:
            yield app
        finally:
            app.close()
