"""The expand/contract rule's mechanical part: an expand migration only adds."""

from __future__ import annotations

import pytest

from services.storage.migrations import MIGRATIONS, Migration, check_expand_only


def test_the_shipped_migrations_are_in_order_and_expand_only():
    assert check_expand_only(MIGRATIONS) == []


@pytest.mark.parametrize(
    "statement",
    [
        "ALTER TABLE ledger_games DROP COLUMN head_hash",
        "ALTER TABLE ledger_commands RENAME COLUMN request_hash TO digest",
        "ALTER TABLE ledger_games ALTER COLUMN head_hash SET NOT NULL",
        "ALTER TABLE ledger_games ALTER COLUMN version TYPE int",
        "DROP INDEX ledger_games_next_deadline",
    ],
)
def test_an_expand_migration_that_removes_or_tightens_is_refused(statement):
    bad = (*MIGRATIONS, Migration(len(MIGRATIONS) + 1, "bad", statement))
    assert len(check_expand_only(bad)) == 1
    contract = (
        *MIGRATIONS,
        Migration(len(MIGRATIONS) + 1, "later", statement, "contract"),
    )
    assert check_expand_only(contract) == []


def test_versions_must_follow_each_other():
    assert check_expand_only((*MIGRATIONS, Migration(9, "gap", "SELECT 1")))
