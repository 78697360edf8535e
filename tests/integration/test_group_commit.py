"""Group commit against PostgreSQL: moves on different games share one
transaction, a batch never loses or duplicates a move, and one stale game in
a batch does not fail the others."""

from __future__ import annotations

import random
import threading
import time
import uuid

import pytest

from domain.audit.game_audit import audit_records
from domain.games import find_game

pytestmark = pytest.mark.postgres
THALARA = find_game("thalara")
SETUP = {"players": 2, "mode": "standard", "characters": ["myrja", "canto"]}


def _move(ledger, game_id, rnd):
    game = ledger.load(game_id)
    seat = rnd.choice(game.to_act())
    return ledger.submit(
        game_id,
        THALARA.random_command(game.state, seat, rnd),
        seat,
        str(uuid.uuid4()),
    )


def _slow_first_save(ledger, monkeypatch):
    """Hold the first transaction a moment so the others queue behind it.

    Patched through ``monkeypatch``: the ledger is the session's, and a
    wrapper left on it would slow (and appear in the tracebacks of) every
    later test.
    """
    committer = ledger._committer
    append, calls = committer._append, []

    def slow(appends):
        calls.append(len(appends))
        if len(calls) == 1:
            time.sleep(0.3)
        return append(appends)

    monkeypatch.setattr(committer, "_append", slow)
    return calls


def _all_at_once(games, move):
    """One move per game from one thread each, released together; the first
    goes ahead so its (slowed) save holds the committer while the rest queue."""
    results, errors = {}, []
    start = threading.Barrier(len(games))

    def play(i: int, game_id: uuid.UUID) -> None:
        try:
            start.wait()
            if i:
                time.sleep(0.05)
            results[game_id] = move(i, game_id)
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=play, args=(i, g)) for i, g in enumerate(games)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert not errors
    return results


def test_moves_on_different_games_are_saved_together_and_each_exactly_once(
    ledger, monkeypatch
):
    games = [ledger.create_game("thalara", SETUP).game_id for _ in range(12)]
    before = {g: ledger.load(g).version for g in games}
    calls = _slow_first_save(ledger, monkeypatch)
    results = _all_at_once(
        games, lambda i, game_id: _move(ledger, game_id, random.Random(i))
    )
    assert max(calls) > 1, f"no two moves shared a transaction: {calls}"
    assert sum(calls) == len(games)
    for game_id in games:
        result = results[game_id]
        assert result.first_version == before[game_id] + 1
        records = ledger.read_records(game_id)
        assert [v for v, _, _ in records] == list(range(1, result.last_version + 1))
        assert audit_records(str(game_id), records).ok


def test_a_stale_game_in_a_batch_is_redecided_without_failing_the_others(
    own_ledger, fresh_ledger, monkeypatch, tmp_path
):
    from services.storage.signed_heads import SignedHeadsFile

    # another host, with a signer record of its own: the save, not the
    # signer, is what finds the stale game here
    monkeypatch.setattr(
        own_ledger.head_signer, "record", SignedHeadsFile.in_dir(tmp_path)
    )
    own_ledger.heads.listening()  # the cache vouches for the games it created...
    games = [own_ledger.create_game("thalara", SETUP).game_id for _ in range(6)]
    stale = games[-1]  # not the first: it must land in the shared batch
    before = {g: own_ledger.load(g).version for g in games}
    # ...and the other process's NOTIFY never arrives: one held game is stale
    moved_elsewhere = _move(fresh_ledger, stale, random.Random(99)).last_version
    calls = _slow_first_save(own_ledger, monkeypatch)
    results = _all_at_once(
        games, lambda i, game_id: _move_with_held(own_ledger, game_id, random.Random(i))
    )
    assert max(calls) > 1 and sum(calls) > len(games), (
        f"a shared batch failed and was split: {calls}"
    )
    for game_id in games[:-1]:
        assert results[game_id].first_version == before[game_id] + 1
    assert results[stale].first_version == moved_elsewhere + 1, (
        "re-decided after the other process's move"
    )
    for game_id in games:
        assert audit_records(str(game_id), fresh_ledger.read_records(game_id)).ok


def _move_with_held(ledger, game_id, rnd):
    """Decide from the copy this process holds (stale for one game), as SubmitMove's routing does."""
    from domain.contract.core import RuleError

    game = ledger.load(game_id)
    seat = rnd.choice(game.to_act())
    command = THALARA.random_command(game.state, seat, rnd)
    try:
        return ledger.submit(game_id, command, seat, str(uuid.uuid4()))
    except RuleError:
        # chosen on the stale copy, the move may be illegal on the real state
        fresh = ledger.cache.refresh(game_id)
        seat = rnd.choice(fresh.to_act())
        return ledger.submit(
            game_id,
            THALARA.random_command(fresh.state, seat, rnd),
            seat,
            str(uuid.uuid4()),
        )
