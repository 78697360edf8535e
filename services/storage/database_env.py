"""Finding the database: a configured server, or the embedded default.

Why embedded by default: the first thing a new user runs is ``ledger serve``,
and that should work with nothing installed but the package.  ``pgserver``
ships real PostgreSQL binaries in a wheel and starts them in well under a
second; the data survives restarts in ``data_dir``.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from psycopg.conninfo import conninfo_to_dict

from services.storage.datastore import FACTORY_TOPIC

log = logging.getLogger(__name__)

_embedded: Any = None


def embedded_url(data_dir: Path) -> str:
    """Start (or reuse) the embedded server and return its URL."""
    global _embedded
    if _embedded is None:
        import warnings

        from platformdirs import RuntimeDirWarning

        # pgserver asks platformdirs for a runtime dir; without XDG_RUNTIME_DIR
        # that warns on every start and falls back to /tmp, which suits us.
        warnings.filterwarnings("ignore", category=RuntimeDirWarning)
        import pgserver

        pgdata = (data_dir / "pgdata").resolve()
        pgdata.mkdir(parents=True, exist_ok=True)
        _embedded = pgserver.get_server(pgdata, cleanup_mode="stop")
        log.info("embedded PostgreSQL running in %s", pgdata)
    return _embedded.get_uri()


TARGET_SESSION_ATTRS = "POSTGRES_TARGET_SESSION_ATTRS"
"""Our setting beside eventsourcing's: the URL's ``target_session_attrs``."""


def eventsourcing_env(
    url: str,
    pool_size: int,
    create_tables: bool = True,
    pool_min: int = 0,
    db_wait: float = 3.0,
) -> dict[str, str]:
    """Translate a libpq URL into eventsourcing's ``POSTGRES_*`` settings.

    The pool keeps ``pool_min`` connections when idle and grows to
    ``pool_size`` under load (eventsourcing's ``POOL_SIZE`` is the pool's
    minimum, ``MAX_OVERFLOW`` what it may add): an idle server must not pin
    a shared PostgreSQL's ``max_connections``.

    ``create_tables=False`` is eventsourcing's ``CREATE_TABLE=no``: its
    recorders then run no DDL (see ``LEDGER_CREATE_TABLES``).

    ``db_wait`` (``LEDGER_DB_WAIT_SECONDS``) bounds a checkout from the pool:
    eventsourcing passes ``POSTGRES_CONNECT_TIMEOUT`` to psycopg_pool as the
    time a caller waits for a connection.  During an outage the pool has no
    live connection to give, so every call in flight waited that long (it
    was 10 s: past a client's usual deadline) before it could be told
    ``UNAVAILABLE``.
    """
    pool_min = min(pool_min, pool_size)
    params = conninfo_to_dict(url)
    return {
        "PERSISTENCE_MODULE": FACTORY_TOPIC,  # eventsourcing's, outage-aware
        "POSTGRES_DBNAME": str(params.get("dbname") or "postgres"),
        "POSTGRES_HOST": str(params.get("host") or "127.0.0.1"),
        "POSTGRES_PORT": str(params.get("port") or "5432"),
        "POSTGRES_USER": str(params.get("user") or "postgres"),
        "POSTGRES_PASSWORD": str(params.get("password") or ""),
        "POSTGRES_POOL_SIZE": str(pool_min),
        "POSTGRES_MAX_OVERFLOW": str(pool_size - pool_min),
        "POSTGRES_CONNECT_TIMEOUT": f"{db_wait:g}",
        "CREATE_TABLE": "yes" if create_tables else "no",
        "POSTGRES_PRE_PING": "n",  # a SELECT 1 per checkout cost ~6 round trips a move; eventsourcing retries broken connections
        # a multi-host URL (one host per Patroni node) finds the primary by
        # asking each host in turn; eventsourcing builds its pool from host
        # and port alone, so the factory passes this on (datastore.py)
        TARGET_SESSION_ATTRS: str(params.get("target_session_attrs") or ""),
    }


def io_threads(env: dict[str, str]) -> int:
    """Threads for blocking database work: as many as the pool has
    connections (each blocks on one), at least 4."""
    pool = int(env.get("POSTGRES_POOL_SIZE") or 0)
    overflow = int(env.get("POSTGRES_MAX_OVERFLOW") or 0)
    return max(pool + overflow, 4)
