"""The read side on a PostgreSQL streaming replica (``LEDGER_READ_DATABASE_URL``).

Why no new consistency mechanism: a view's rows and its tracking position
commit in one transaction on the primary (``projections/runner.py``), and a
streaming replica replays commits in commit order.  So when the *replica's*
``projection_tracking`` shows a view at or past ``min_log_position``, the
replica also holds that view's rows for the move: ``ReadModels.catch_up_to``
waits on the replica's own positions, and the ``min_log_position`` contract
holds unchanged (it may wait a little longer: the replica's replay lag).

Writes never go here: the projector, moves and tournaments use the primary.
"""

from __future__ import annotations

from typing import Any

from psycopg.conninfo import conninfo_to_dict

from services.storage.datastore import LedgerDatastore, with_tcp_timeouts


def read_datastore(url: str, pool_size: int) -> Any:
    """A pooled, read-only datastore on ``url`` (a hot standby)."""
    parts = conninfo_to_dict(url)
    return with_tcp_timeouts(
        LedgerDatastore(
            dbname=str(parts.get("dbname") or parts.get("user") or "postgres"),
            host=str(parts.get("host") or "127.0.0.1"),
            port=str(parts.get("port") or 5432),
            user=str(parts.get("user") or "postgres"),
            password=str(parts.get("password") or ""),
            pool_size=pool_size,
            pre_ping=True,
        )
    )


def read_side(wiring: Any, runners: list[Any]) -> tuple[Any, list[Any]]:
    """``(datastore, runners)`` the read RPCs query and wait on: the replica's
    when ``read_database_url`` is set, else the primary's own."""
    url = getattr(wiring.settings, "read_database_url", None)
    if not url:
        return wiring.ledger.datastore, runners
    from projections import registry

    store = read_datastore(url, wiring.settings.pool_size)
    return store, registry.runners(store, create_tables=False)


class ReadSide:
    """The views a blocking reader queries and waits on (the dashboard's).

    The same contract as :meth:`services.api.read_rpc.ReadModels.catch_up_to`
    for callers without an event loop: a position past the primary's log head
    is refused, any other waits until every view *on this datastore* has
    applied it.  On a replica that means waiting for its replay too.
    """

    def __init__(
        self, datastore: Any, runners: list[Any], primary: Any, owned: bool
    ) -> None:
        self.datastore = datastore
        self.runners = runners
        self._primary = primary
        self._owned = owned

    def wait_for(self, position: int, timeout: float) -> bool:
        """True once every view has applied ``position`` (or the log's head,
        if that is nearer: the head is not every caller's to find out, see
        :meth:`services.api.read_rpc.ReadModels.catch_up_to`); False at
        ``timeout``."""
        from projections.runner import wait_for_position

        if position <= 0 or not self.runners:
            return True
        target = min(position, self._primary.status().head)
        # a view stopped at an event it cannot apply will not get there by
        # waiting, and a page knows no view it reads: the stopped one serves
        # what it has, and holds back no page of the others
        following = [r for r in self.runners if r.status().stalled is None]
        return wait_for_position(following, target, timeout)

    def close(self) -> None:
        if self._owned:
            self.datastore.close()


def views_for(primary: Any, read_url: str | None, pool_size: int = 2) -> ReadSide:
    """The replica's views when ``read_url`` is set, else ``primary``'s own.

    No DDL either way: the views' tables are made by whoever runs them.
    """
    from projections import registry

    on_primary = registry.runners(primary, create_tables=False)
    if not read_url:
        return ReadSide(primary, on_primary, on_primary[0], owned=False)
    store = read_datastore(read_url, pool_size)
    replica = registry.runners(store, create_tables=False)
    return ReadSide(store, replica, on_primary[0], owned=True)
