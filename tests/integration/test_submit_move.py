"""``submit_move`` when memory vouches for a game another process has moved on.

Between another process's commit and the arrival of its NOTIFY, this
process's cache still vouches for the older version.  A move judged on that
copy must not be refused for it: the stale copy is checked against the
store before a conflict or a rule error is reported.  A commit that got no
answer leaves memory the same doubt: the move may be stored.
"""

from __future__ import annotations

import random
import uuid

import psycopg
import pytest

from domain.games import find_game
from services.ledger.application import ConcurrencyConflictError

pytestmark = pytest.mark.postgres
THALARA = find_game("thalara")
SETUP = {"players": 2, "mode": "standard", "characters": ["myrja", "canto"]}


@pytest.fixture
def ledger(own_ledger):
    """This process: one of the test's own, so no other test's listener can
    deliver the NOTIFY whose absence these tests are about."""
    return own_ledger


def _vouched_but_behind(ledger, fresh_ledger):
    """A game this process holds and vouches for, one move behind the store,
    and the seat now to act (not the one to act on the stale copy)."""
    ledger.heads.listening()  # the cache vouches for what this process wrote
    game_id = ledger.create_game("thalara", SETUP).game_id
    rnd = random.Random(4)
    seed = ledger.seed_of(game_id)
    for _ in range(200):  # this process plays until one seat's move hands the turn on
        stale = ledger.cache.vouched(game_id)
        assert stale is not None and not stale.is_over
        mover = rnd.choice(stale.to_act())
        command = THALARA.random_command(stale.state, mover, rnd)
        trial = ledger.cache.vouched(game_id)  # a private copy: decide to look ahead
        trial.act(command, mover, seed, "trial")
        after = trial.to_act()
        if len(stale.to_act()) == 1 and len(after) == 1 and after != (mover,):
            break
        ledger.submit(game_id, command, mover, str(uuid.uuid4()))
    else:
        raise AssertionError("no move handed the turn to the other seat")
    elsewhere = fresh_ledger.submit(game_id, command, mover, "elsewhere")
    held = ledger.cache.vouched(game_id)
    assert held is not None and held.version < elsewhere.last_version  # no NOTIFY
    real = fresh_ledger.load(game_id)
    (seat,) = real.to_act()
    assert seat != mover, "the turn passed: the seat may not act on the stale copy"
    return game_id, real, seat, rnd


def test_an_expected_version_newer_than_memory_is_checked_against_the_store(
    ledger, fresh_ledger
):
    game_id, real, seat, rnd = _vouched_but_behind(ledger, fresh_ledger)
    command = THALARA.random_command(real.state, seat, rnd)
    result = ledger.submit(
        game_id, command, seat, "on-time", expected_version=real.version
    )
    assert not result.replayed
    assert result.first_version == real.version + 1


def test_a_move_refused_on_a_stale_copy_is_decided_on_the_store_state(
    ledger, fresh_ledger
):
    game_id, real, seat, rnd = _vouched_but_behind(ledger, fresh_ledger)
    command = THALARA.random_command(real.state, seat, rnd)
    result = ledger.submit(game_id, command, seat, "my-turn-now")
    assert result.first_version == real.version + 1
    assert fresh_ledger.load(game_id).version == result.last_version


def test_a_stale_expected_version_is_still_a_conflict(ledger, fresh_ledger):
    game_id, real, seat, rnd = _vouched_but_behind(ledger, fresh_ledger)
    command = THALARA.random_command(real.state, seat, rnd)
    with pytest.raises(ConcurrencyConflictError):
        ledger.submit(
            game_id, command, seat, str(uuid.uuid4()), expected_version=real.version - 1
        )


def test_a_move_stored_without_an_answer_is_read_back_and_recorded_once(
    ledger, monkeypatch
):
    """The commit reached the store but its answer was lost (a connection cut
    in an outage): memory stops vouching for the version before it, and the
    client's retry with the same command id gets the recorded move."""
    ledger.heads.listening()  # the cache vouches for what this process wrote
    game_id = ledger.create_game("thalara", SETUP).game_id
    game = ledger.load(game_id)
    seat = game.to_act()[0]
    command = THALARA.random_command(game.state, seat, random.Random(6))
    committer = ledger._committer
    commit = committer.commit

    async def answer_lost(append):
        await commit(append)
        raise psycopg.OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(committer, "commit", answer_lost)
    with pytest.raises(psycopg.OperationalError):
        ledger.submit(game_id, command, seat, "unanswered")
    assert ledger.cache.vouched(game_id) is None, "memory still vouches"
    monkeypatch.undo()
    stored = ledger.load(game_id)  # read from the store: the move is there
    assert stored.version > game.version
    again = ledger.submit(game_id, command, seat, "unanswered")
    assert again.replayed
    assert (again.first_version, again.last_version) == (
        game.version + 1,
        stored.version,
    )
