"""Read-your-writes across servers: answer from a version the caller names, or later.

Why: a client that moved through one server and reads through another (per
call round robin) could get the state from before its own move, because
the reading server's memory is vouched fresh by a NOTIFY still in flight.
Reads that carry ``min_version`` (the ``last_version`` a move returned)
read the store when memory is older, and wait for a version not recorded
yet, until the call's deadline (at most :data:`MAX_WAIT`).

Disclosure: what is awaited is the version the caller may *see*.  A
spectator held back by a delay waits until the delay has passed that
version; it never learns whether the game has already reached it, since the
answer (and its timing) depend only on what it may see: a version recorded
but hidden and a version not recorded yet both wait, then both fail alike.
"""

from __future__ import annotations

import asyncio
from typing import Any
from uuid import UUID

from domain.contract.core import InvalidCommandError
from domain.ledger.aggregate import Game
from services.api.auth import Principal
from services.api.disclosure import SpectatorWindow, is_delayed_for
from services.api.errors import VersionNotVisibleError
from services.ledger.application import GameLedger

MAX_WAIT = 10.0
"""Seconds a read waits for a version at most, whatever its deadline."""
POLL = (0.02, 0.25)
"""First and longest pause between store reads while waiting."""


def check_min_version(value: int) -> int:
    """:raises InvalidCommandError: for a negative ``min_version``."""
    if value < 0:
        raise InvalidCommandError(
            "min_version must be >= 0", violations=(("min_version", "must be >= 0"),)
        )
    return value


async def _visible(
    ledger: GameLedger, window: SpectatorWindow, principal: Principal, head: Game
) -> int:
    if not is_delayed_for(principal, head):
        return head.version
    sight = await ledger.io(window.disclose, principal, head)
    return int(sight.upto)


async def head_seen_at(
    ledger: GameLedger,
    window: SpectatorWindow,
    principal: Principal,
    game_id: UUID,
    min_version: int,
    context: Any,
) -> Game:
    """The game now, once the caller may see ``min_version`` of it (0: at once).

    :raises VersionNotVisibleError: when it may not by the deadline.
    :raises GameNotFoundError:
    """
    if min_version <= 0:
        return await ledger.game(game_id)
    head = await ledger.game_at_least(game_id, min_version)
    remaining = context.time_remaining() if context is not None else None
    budget = (
        MAX_WAIT if remaining is None else max(0.0, min(MAX_WAIT, remaining - 0.05))
    )
    loop = asyncio.get_running_loop()
    deadline = loop.time() + budget
    pause = POLL[0]
    while await _visible(ledger, window, principal, head) < min_version:
        if loop.time() + pause > deadline:
            raise VersionNotVisibleError(
                f"version {min_version} of this game is not visible to this caller "
                "yet; retry later"
            )
        await asyncio.sleep(pause)
        pause = min(pause * 2, POLL[1])
        head = await ledger.io(ledger.cache.refresh, game_id)
    return head
