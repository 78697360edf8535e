"""The group committer's queue discipline, without a database (services.storage.group_commit)."""

from __future__ import annotations

import threading
import uuid
from typing import Any

from eventsourcing.persistence import IntegrityError

from services.storage.group_commit import GroupCommitter
from services.storage.store import Append


def _append(game_id: uuid.UUID, tag: str) -> Append:
    return Append(game_id, (tag,), None)  # type: ignore[arg-type]


class Gate:
    """An ``append`` that holds the first batch until released, recording batches."""

    def __init__(self, conflicting: set[str] = frozenset()) -> None:  # type: ignore[assignment]
        self.batches: list[list[str]] = []
        self.release = threading.Event()
        self.entered = threading.Event()
        self.conflicting = conflicting

    def __call__(self, appends: Any) -> list[list[Any]]:
        tags = [a.events[0] for a in appends]
        self.batches.append(tags)
        if len(self.batches) == 1:
            self.entered.set()
            self.release.wait(10)
        if self.conflicting & set(tags):
            raise IntegrityError("conflict")
        return [[tag] for tag in tags]


def test_a_move_cancelled_while_queued_is_never_stored_and_the_rest_are() -> None:
    gate = Gate()
    committer = GroupCommitter(gate)
    first = committer.enqueue(_append(uuid.uuid4(), "first"))
    assert gate.entered.wait(10)
    gone = committer.enqueue(_append(uuid.uuid4(), "gone"))
    kept = committer.enqueue(_append(uuid.uuid4(), "kept"))
    assert gone.cancel()
    gate.release.set()
    assert first.result(10) == ["first"]
    assert kept.result(10) == ["kept"]
    assert gate.batches == [["first"], ["kept"]]


def test_a_failed_batch_is_retried_one_move_at_a_time() -> None:
    gate = Gate(conflicting={"stale"})
    committer = GroupCommitter(gate)
    first = committer.enqueue(_append(uuid.uuid4(), "first"))
    assert gate.entered.wait(10)
    stale = committer.enqueue(_append(uuid.uuid4(), "stale"))
    fine = committer.enqueue(_append(uuid.uuid4(), "fine"))
    gate.release.set()
    assert first.result(10) == ["first"]
    assert fine.result(10) == ["fine"]
    assert isinstance(stale.exception(10), IntegrityError)
    assert gate.batches == [["first"], ["stale", "fine"], ["stale"], ["fine"]]


def test_two_moves_of_one_game_never_share_a_batch() -> None:
    gate = Gate()
    committer = GroupCommitter(gate)
    game = uuid.uuid4()
    first = committer.enqueue(_append(uuid.uuid4(), "first"))
    assert gate.entered.wait(10)
    a = committer.enqueue(_append(game, "a"))
    b = committer.enqueue(_append(game, "b"))
    gate.release.set()
    assert (first.result(10), a.result(10), b.result(10)) == (["first"], ["a"], ["b"])
    assert gate.batches == [["first"], ["a"], ["b"]]
