"""The read path in the service layer, called as the dashboard calls it: no gRPC.

What it must keep without the edge: a delayed spectator sees, replays and
is listed no further than the delay; a seat token acts for its own seat
only; a running game is exported only to the admin; a
``min_version`` the caller may not see yet fails with the service layer's
error.  The gRPC tests (leak matrix, spectator delay, min_version) check
the same rules through the edge.
"""

from __future__ import annotations

import asyncio
import random
import uuid
from typing import Any

import pytest

from domain.contract.viewers import SeatGrant
from domain.games import find_game
from services.ledger.callers import (
    ANONYMOUS,
    PermissionDeniedError,
    Principal,
    UnauthenticatedError,
)
from services.ledger.reading.game_reads import GameReads
from services.ledger.reading.min_version import VersionNotVisibleError

pytestmark = pytest.mark.postgres
THALARA = find_game("thalara")
SETUP = {"players": 2, "mode": "standard", "characters": ["myrja", "canto"]}
ADMIN = Principal(admin=True)


def _play(ledger: Any, game_id: Any, moves: int, seed: int = 3) -> None:
    rnd = random.Random(seed)
    for _ in range(moves):
        game = ledger.load(game_id)
        seat = rnd.choice(game.to_act())
        command = THALARA.random_command(game.state, seat, rnd)
        ledger.submit(game_id, command, seat, str(uuid.uuid4()))


def _delayed_game(ledger: Any) -> Any:
    game_id = ledger.create_game("thalara", SETUP, spectator_delay={"moves": 2}).game_id
    _play(ledger, game_id, 6)
    return game_id


def test_a_delayed_spectator_sees_replays_and_lists_no_further_than_the_delay(
    ledger: Any,
) -> None:
    reads = GameReads(ledger)
    game_id = _delayed_game(ledger)
    head = ledger.load(game_id)

    async def run() -> tuple[Any, Any, Any]:
        seen = await reads.game(ANONYMOUS, game_id)
        admin = await reads.game(ADMIN, game_id)
        page = await reads.frames(ANONYMOUS, game_id, 0, 500)
        return seen, admin, page

    seen, admin, page = asyncio.run(run())
    assert seen.sight.upto < head.version
    assert seen.game.version == seen.sight.upto
    assert admin.game.version == head.version and admin.sight.show_hashes
    assert [e.originator_version for e, _ in page.frames] == list(
        range(1, seen.sight.upto + 1)
    )
    assert page.next_after == 0
    assert reads.game_now(ANONYMOUS, game_id).version == seen.sight.upto
    listed = {
        r["game_id"]: r["version"] for r in reads.listing(ANONYMOUS, 500, None, "")
    }
    assert listed[game_id] == seen.sight.upto


def test_a_version_the_caller_may_not_see_yet_is_the_service_layers_error(
    ledger: Any,
) -> None:
    reads = GameReads(ledger)
    game_id = _delayed_game(ledger)
    head = ledger.load(game_id)
    with pytest.raises(VersionNotVisibleError):
        asyncio.run(reads.head(ANONYMOUS, game_id, head.version, time_left=0.2))
    game, sight = asyncio.run(reads.head(ADMIN, game_id, head.version, time_left=0.2))
    assert game.version == sight.upto == head.version


def test_a_running_game_is_exported_to_the_admin_only(ledger: Any) -> None:
    reads = GameReads(ledger)
    created = ledger.create_game("thalara", SETUP)
    _play(ledger, created.game_id, 3)
    with pytest.raises(PermissionDeniedError):
        asyncio.run(reads.export(ANONYMOUS, created.game_id))
    lines = list(asyncio.run(reads.export(ADMIN, created.game_id)))
    assert len(lines) > 3


def test_the_seat_a_caller_acts_for_and_its_refusals(ledger: Any) -> None:
    reads = GameReads(ledger)
    game_id = ledger.create_game("thalara", SETUP).game_id
    seat0 = Principal(grant=SeatGrant(game_id, 0, (0,)))
    other = Principal(grant=SeatGrant(uuid.uuid4(), 0, (0,)))
    game, seat, moves = asyncio.run(reads.legal_moves(seat0, game_id, None))
    assert seat == 0 and game.id == game_id
    assert len(moves) == len(THALARA.legal_moves(game.state, 0))
    with pytest.raises(UnauthenticatedError):
        asyncio.run(reads.legal_moves(ANONYMOUS, game_id, None))
    with pytest.raises(PermissionDeniedError) as refused:
        asyncio.run(reads.legal_moves(other, game_id, None))
    assert refused.value.reason == "TOKEN_FOR_ANOTHER_GAME"


@pytest.mark.parametrize("caller", [ANONYMOUS, ADMIN], ids=["spectator", "admin"])
def test_a_game_read_with_min_version_discloses_once(
    ledger: Any, monkeypatch: pytest.MonkeyPatch, caller: Principal
) -> None:
    """``GetGame``'s read: the wait's disclosure is the one it presents by."""
    from services.ledger.reading import disclosure

    reads = GameReads(ledger)
    game_id = _delayed_game(ledger)
    calls: list[Any] = []
    policy = disclosure.disclose

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        return policy(*args, **kwargs)

    monkeypatch.setattr(disclosure, "disclose", counted)
    seen = asyncio.run(reads.game(caller, game_id, min_version=3))
    assert seen.game.version >= 3
    assert len(calls) == 1
