"""The rows of a view's tables, for comparing a view with its rebuild."""

from __future__ import annotations

from typing import Any


def dump_with(curs: Any, tables: tuple[str, ...]) -> dict[str, list[tuple[Any, ...]]]:
    out = {}
    for table in tables:
        curs.execute(f"SELECT * FROM {table}")
        out[table] = sorted((tuple(r.values()) for r in curs.fetchall()), key=repr)
    return out


def dump(ledger: Any, tables: tuple[str, ...]) -> dict[str, list[tuple[Any, ...]]]:
    with ledger.datastore.transaction(commit=False) as curs:
        return dump_with(curs, tables)
