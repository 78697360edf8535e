"""A libpq multi-host URL reaches the primary from every pooled connection.

eventsourcing builds its pool from host, port, user, password and database
alone; ``target_session_attrs=read-write`` (which host of the list is the
primary) must reach the pool's connection arguments, from which the loop's
committer, the timekeeper's lock and the tournament desk connect too.
"""

from __future__ import annotations

from typing import Any

from services.storage.database_env import eventsourcing_env
from services.storage.datastore import LedgerPostgresFactory

MULTI = (
    "postgresql://ledger:pw@10.0.0.1:5432,10.0.0.2:5432,10.0.0.3:5432/ledger"
    "?target_session_attrs=read-write"
)


def test_the_pool_asks_each_host_for_a_read_write_session() -> None:
    factory = LedgerPostgresFactory(eventsourcing_env(MULTI, pool_size=2))
    kwargs: Any = factory.datastore.pool.kwargs  # a dict (eventsourcing's)
    assert kwargs["host"] == "10.0.0.1,10.0.0.2,10.0.0.3"
    assert kwargs["port"] == "5432,5432,5432"
    assert kwargs["target_session_attrs"] == "read-write"


def test_a_single_host_url_sets_no_session_attributes() -> None:
    factory = LedgerPostgresFactory(
        eventsourcing_env("postgresql://ledger@db:5432/ledger", pool_size=2)
    )
    kwargs: Any = factory.datastore.pool.kwargs
    assert "target_session_attrs" not in kwargs
