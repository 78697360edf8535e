"""Random legal moves through a ledger application, as a player would submit them.

Why here: tests of the read side need games in the log, played to a point
or to the end, and each wrote the same submit loop.
"""

from __future__ import annotations

import random
import uuid
from typing import Any
from uuid import UUID

from domain.games import find_game


def play_random(
    ledger: Any, game_id: UUID, rnd: random.Random, moves: int | None = None
) -> int:
    """Submit random legal moves to ``game_id`` until it is over, or ``moves``
    of them; returns how many were submitted."""
    played = 0
    while moves is None or played < moves:
        game = ledger.load(game_id)
        if game.is_over:
            break
        seat = rnd.choice(game.to_act())
        ledger.submit(
            game_id,
            find_game(game.game_type).random_command(game.state, seat, rnd),
            seat,
            str(uuid.uuid4()),
        )
        played += 1
    return played


def decided_append(ledger: Any, game_id: UUID, command_id: str, seed: int = 5) -> Any:
    """A random legal move on ``game_id`` decided on a private copy, with the
    side rows a move stores: a ``store.Append`` that is not stored.

    Why: tests of the store's write path commit appends themselves, through
    one committer or another, instead of submitting moves."""
    from services.ledger.log_tail import CommandKey, request_hash

    game = ledger.load(game_id)
    rnd = random.Random(seed)
    seat = rnd.choice(game.to_act())
    command = find_game(game.game_type).random_command(game.state, seat, rnd)
    assert command is not None, "the seat to act has a legal move"
    events = game.act(command, seat, ledger.seed_of(game_id), command_id)
    key = CommandKey(command_id, seat, request_hash(command_id, command, seat))
    return ledger.log_tail.append_of(game, events, key)
