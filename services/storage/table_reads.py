"""``TableReads``: how a store reads its own tables (the ledger's and the desk's).

Why one base: both stores ran the same two helpers, a row or all rows of a
query in a read-only transaction of its own, and both looked bearer tokens
up by their hash, the only form the tables keep.  Each read is retried when
a pooled connection's prepared statements went stale
(:func:`services.storage.datastore.retried_on_stale_statements`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from services.storage.datastore import retried_on_stale_statements
from services.storage.recorder import hash_token


class TableReads:
    """Reads over ``datastore``, each in a transaction of its own."""

    datastore: Any

    @retried_on_stale_statements
    def _one(self, sql: str, params: Sequence[Any]) -> dict[str, Any] | None:
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(sql, params)
            row: dict[str, Any] | None = curs.fetchone()
            return row

    @retried_on_stale_statements
    def _all(self, sql: str, params: Sequence[Any]) -> list[dict[str, Any]]:
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(sql, params)
            return list(curs.fetchall())

    def _token_row(self, sql: str, token: str) -> dict[str, Any] | None:
        """The row ``sql`` selects for bearer ``token`` (its one parameter is
        the token's hash)."""
        return self._one(sql, (hash_token(token),))
