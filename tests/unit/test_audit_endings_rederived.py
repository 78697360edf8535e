"""The audit re-derives adjudications and who ended each game by itself.

A superuser who rewrites an ending or its conclusion and recomputes every
hash after it leaves a chain that links.  Without the receipts (an export
audited offline has none), the audit must still see that an adjudication's
winners contradict its ranks, or that "ended by" names someone who may not
end a game that way.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from domain.audit.game_audit import audit_records
from domain.ledger.records import canonical_json
from domain.ledger.records.sealing import recomputed_hash
from tests.unit.test_referee_endings import SEED, new_game, play, stored

Rows = list[tuple[int, str, bytes]]


def rewritten(
    game_id: str, rows: Rows, type_: str, change: Callable[[Any], None]
) -> Rows:
    """``rows`` with the body of the first row of ``type_`` changed and every
    hash from there on recomputed, as a superuser would."""
    out: Rows = []
    prev = None
    touched = False
    for version, topic, data in rows:
        record = json.loads(data)
        if topic == type_ and not touched:
            change(record["body"])
            touched = True
        if prev is not None:
            record["prev_hash"] = prev
        record["hash"] = recomputed_hash(game_id, version, topic, record)
        prev = record["hash"]
        out.append((version, topic, canonical_json(record)))
    assert touched, type_
    return out


def set_by(by: str) -> Callable[[Any], None]:
    def change(body: Any) -> None:
        body["by"] = by

    return change


def failures(game_id: str, rows: Rows) -> list[tuple[str, str]]:
    report = audit_records(game_id, rows)
    return [(f.check, f.detail) for f in report.failures]


def adjudicated_game(ranks: tuple[int, ...], by: str = "admin") -> tuple[str, Rows]:
    game = new_game("thalara-3p", control=None)
    play(game, 2, 5, random.Random(2))
    game.adjudicate(ranks, "arbiter: tied first", by, SEED)
    return str(game.id), stored(game)


def test_an_untouched_adjudication_audits_ok() -> None:
    game_id, rows = adjudicated_game((1, 1, 3))
    assert failures(game_id, rows) == []
    game_id, rows = adjudicated_game((2, 1, 3), by="organiser:6d1b0e4e")
    assert failures(game_id, rows) == []


@pytest.mark.parametrize(
    ("what", "change"),
    [
        ("winners", lambda body: body["outcome"].update(winners=[0])),
        ("ranks", lambda body: body["outcome"].update(ranks=[1, 2, 3])),
        ("scores", lambda body: body["outcome"].update(scores=[5, 0, 0])),
        ("reason", lambda body: body["outcome"].update(reason="nothing happened")),
    ],
)
def test_an_adjudication_whose_outcome_contradicts_itself_is_caught(
    what: str, change: Callable[[Any], None]
) -> None:
    game_id, rows = adjudicated_game((1, 1, 3))
    tampered = rewritten(game_id, rows, "ledger.GameConcluded", change)
    found = failures(game_id, tampered)
    if what == "ranks":  # consistent in itself: the winners then contradict
        assert any(check == "conclusion" for check, _ in found), found
    else:
        assert ("conclusion", "recorded outcome differs from the ending") in found


@pytest.mark.parametrize("by", ["seat:0", "seat:9", "timekeeper", "", "organiser:"])
def test_an_adjudication_said_to_be_by_someone_else_is_caught(by: str) -> None:
    game_id, rows = adjudicated_game((1, 1, 3))
    tampered = rewritten(
        game_id, rows, "ledger.GameAdjudicated", lambda body: body.update(by=by)
    )
    assert [c for c, _ in failures(game_id, tampered)] == ["ended-by"]


def test_a_resignation_said_to_be_by_another_seat_is_caught() -> None:
    game = new_game("thalara-2p", control=None)
    play(game, 2, 5, random.Random(2))
    game.resign(1, SEED, "seat:1")
    game_id, rows = str(game.id), stored(game)
    assert failures(game_id, rows) == []
    for by in ("seat:0", "admin", "timekeeper"):
        tampered = rewritten(game_id, rows, "ledger.SeatResigned", set_by(by))
        assert [c for c, _ in failures(game_id, tampered)] == ["ended-by"], by


def test_an_abort_said_to_be_by_a_stranger_is_caught() -> None:
    game = new_game("thalara-2p", control=None)
    play(game, 1, 5, random.Random(2))
    game.abort("seat:0", "wrong opponent", SEED)
    game_id, rows = str(game.id), stored(game)
    assert failures(game_id, rows) == []
    for by in ("seat:2", "timekeeper", "someone"):
        tampered = rewritten(game_id, rows, "ledger.GameAborted", set_by(by))
        assert [c for c, _ in failures(game_id, tampered)] == ["ended-by"], by
