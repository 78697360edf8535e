"""The group committers' queue discipline, without a database
(services.storage.group_commit): the committer thread's and the event loop's."""

from __future__ import annotations

import asyncio
import threading
import uuid
from typing import Any

import pytest
from eventsourcing.persistence import IntegrityError

from services.storage.datastore import DatabaseUnavailableError
from services.storage.group_commit import GroupCommitter, LoopCommitter
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


class LoopGate:
    """A :class:`LoopAppender` stand-in holding the first batch until released."""

    def __init__(self, conflicting: set[str] = frozenset()) -> None:  # type: ignore[assignment]
        self.batches: list[list[str]] = []
        self.release = asyncio.Event()
        self.entered = asyncio.Event()
        self.conflicting = conflicting
        self.closed = False

    async def append(self, appends: Any) -> list[list[Any]]:
        tags = [a.events[0] for a in appends]
        self.batches.append(tags)
        if len(self.batches) == 1:
            self.entered.set()
            await self.release.wait()
        if self.conflicting & set(tags):
            raise IntegrityError("conflict")
        return [[tag] for tag in tags]

    async def close(self) -> None:
        self.closed = True


async def _queued_behind_first(
    committer: LoopCommitter, gate: LoopGate, *appends: Append
) -> tuple[asyncio.Task[Any], list[asyncio.Task[Any]]]:
    first = asyncio.ensure_future(committer.commit(_append(uuid.uuid4(), "first")))
    await asyncio.wait_for(gate.entered.wait(), 10)
    rest = [asyncio.ensure_future(committer.commit(a)) for a in appends]
    await asyncio.sleep(0)  # each has queued its move
    return first, rest


def test_on_the_loop_a_move_cancelled_while_queued_is_never_stored() -> None:
    async def run() -> None:
        gate = LoopGate()
        committer = LoopCommitter(gate)  # type: ignore[arg-type]
        first, (gone, kept) = await _queued_behind_first(
            committer,
            gate,
            _append(uuid.uuid4(), "gone"),
            _append(uuid.uuid4(), "kept"),
        )
        gone.cancel()
        await asyncio.sleep(0)
        gate.release.set()
        assert await asyncio.wait_for(first, 10) == ["first"]
        assert await asyncio.wait_for(kept, 10) == ["kept"]
        assert gate.batches == [["first"], ["kept"]]
        await committer.close()
        assert gate.closed

    asyncio.run(run())


def test_on_the_loop_a_failed_batch_is_retried_one_move_at_a_time() -> None:
    async def run() -> None:
        gate = LoopGate(conflicting={"stale"})
        committer = LoopCommitter(gate)  # type: ignore[arg-type]
        first, (stale, fine) = await _queued_behind_first(
            committer,
            gate,
            _append(uuid.uuid4(), "stale"),
            _append(uuid.uuid4(), "fine"),
        )
        gate.release.set()
        assert await asyncio.wait_for(first, 10) == ["first"]
        assert await asyncio.wait_for(fine, 10) == ["fine"]
        with pytest.raises(IntegrityError):
            await asyncio.wait_for(stale, 10)
        assert gate.batches == [["first"], ["stale", "fine"], ["stale"], ["fine"]]
        await committer.close()

    asyncio.run(run())


def test_on_the_loop_two_moves_of_one_game_never_share_a_batch() -> None:
    async def run() -> None:
        gate = LoopGate()
        committer = LoopCommitter(gate)  # type: ignore[arg-type]
        game = uuid.uuid4()
        first, (a, b) = await _queued_behind_first(
            committer, gate, _append(game, "a"), _append(game, "b")
        )
        gate.release.set()
        assert await asyncio.gather(first, a, b) == [["first"], ["a"], ["b"]]
        assert gate.batches == [["first"], ["a"], ["b"]]
        await committer.close()

    asyncio.run(run())


def test_a_move_waiting_when_the_loop_committer_closes_gets_unavailable() -> None:
    async def run() -> None:
        gate = LoopGate()
        committer = LoopCommitter(gate)  # type: ignore[arg-type]
        first, (waiting,) = await _queued_behind_first(
            committer, gate, _append(uuid.uuid4(), "waiting")
        )
        await committer.close()
        for task in (first, waiting):
            with pytest.raises(DatabaseUnavailableError):
                await asyncio.wait_for(task, 10)
        assert gate.batches == [["first"]]

    asyncio.run(run())


def test_the_group_committer_sends_only_its_loops_moves_to_the_loop_committer() -> None:
    """Moves decided on the serving loop commit there; any other caller (a
    CLI's own loop, a thread) still goes through the committer thread."""
    threaded = Gate()
    threaded.release.set()
    committer = GroupCommitter(threaded)

    async def serving() -> tuple[LoopGate, list[Any]]:
        gate = LoopGate()
        gate.release.set()
        committer.on_loop(LoopCommitter(gate))  # type: ignore[arg-type]
        return gate, await committer.commit(_append(uuid.uuid4(), "on the loop"))

    gate, answer = asyncio.run(serving())
    assert answer == ["on the loop"] and gate.batches == [["on the loop"]]
    other = asyncio.run(committer.commit(_append(uuid.uuid4(), "elsewhere")))
    assert other == ["elsewhere"] and threaded.batches == [["elsewhere"]]


def test_once_the_loop_committer_closes_its_loop_commits_on_the_thread() -> None:
    """A server stopped and its loop still running (an embedding program, a
    test): moves made there afterwards go through the thread, not into a
    queue nobody takes from."""
    threaded = Gate()
    threaded.release.set()
    committer = GroupCommitter(threaded)

    async def after_stopping() -> list[Any]:
        gate = LoopGate()
        loop_committer = LoopCommitter(gate)  # type: ignore[arg-type]
        committer.on_loop(loop_committer)
        await loop_committer.close()
        with pytest.raises(DatabaseUnavailableError):
            await loop_committer.commit(_append(uuid.uuid4(), "refused"))
        return await asyncio.wait_for(
            committer.commit(_append(uuid.uuid4(), "after")), 10
        )

    assert asyncio.run(after_stopping()) == ["after"]
    assert threaded.batches == [["after"]]
