"""The bench database: created fresh for each run, dropped at the end."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
from psycopg.conninfo import conninfo_to_dict, make_conninfo

DEFAULT_ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/postgres"


def admin_url() -> str:
    """Where to create the bench database: ``BENCH_DATABASE_URL``, the tests' URL, or loopback."""
    return (
        os.environ.get("BENCH_DATABASE_URL")
        or os.environ.get("LEDGER_TEST_DATABASE_URL")
        or DEFAULT_ADMIN_URL
    )


def with_dbname(url: str, dbname: str) -> str:
    params = conninfo_to_dict(url)
    params["dbname"] = dbname
    return make_conninfo(**params)  # type: ignore[arg-type]


def libpq_params(url: str) -> dict[str, str]:
    params = conninfo_to_dict(url)
    return {
        "host": str(params.get("host") or "127.0.0.1"),
        "port": str(params.get("port") or "5432"),
        "user": str(params.get("user") or "postgres"),
        "dbname": str(params.get("dbname") or "postgres"),
        "password": str(params.get("password") or ""),
    }


@contextmanager
def bench_database(keep: bool = False) -> Iterator[str]:
    """A new database ``bench_<random>``; yields its URL; dropped afterwards."""
    base = admin_url()
    name = f"bench_{secrets.token_hex(4)}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield with_dbname(base, name)
    finally:
        if not keep:
            with psycopg.connect(base, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def server_settings(url: str) -> dict[str, str]:
    """The PostgreSQL settings that shape write throughput, for the report."""
    names = (
        "server_version",
        "synchronous_commit",
        "fsync",
        "wal_sync_method",
        "shared_buffers",
        "max_connections",
        "commit_delay",
    )
    out: dict[str, str] = {}
    with psycopg.connect(url) as conn:
        for name in names:
            out[name] = str(conn.execute(f"SHOW {name}").fetchone()[0])  # type: ignore[index]
    return out
