"""Read-your-writes across servers: answer from a version the caller names, or later.

Why: a client that moved through one server and reads through another (per
call round robin) could get the state from before its own move, because
the reading server's memory is vouched fresh by a NOTIFY still in flight.
Reads that carry ``min_version`` (the ``last_version`` a move returned)
read the store when memory is older, and wait for a version not recorded
yet, until the caller's time is up (at most :data:`MAX_WAIT`).

Disclosure: what is awaited is the version the caller may *see*.  A
spectator held back by a delay waits until the delay has passed that
version; it never learns whether the game has already reached it, since the
answer (and its timing) depend only on what it may see: a version recorded
but hidden and a version not recorded yet both wait, then both fail alike.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING
from uuid import UUID

from domain.contract.core import InvalidCommandError
from services.ledger.reading.disclosure import Disclosure, SpectatorWindow

if TYPE_CHECKING:
    from domain.ledger.aggregate import Game
    from services.ledger.application import GameLedger
    from services.ledger.callers import Principal

MAX_WAIT = 10.0
"""Seconds a read waits for a version at most, however long its caller has."""
POLL = (0.02, 0.25)
"""First and longest pause between store reads while waiting."""
MARGIN = 0.05
"""Seconds kept back from the caller's time, to answer before it runs out."""


class VersionNotVisibleError(Exception):
    """A read's ``min_version`` was not reached, as far as the caller may see, in time."""


def check_min_version(value: int) -> int:
    """:raises InvalidCommandError: for a negative ``min_version``."""
    if value < 0:
        raise InvalidCommandError(
            "min_version must be >= 0", violations=(("min_version", "must be >= 0"),)
        )
    return value


async def head_seen_at(
    ledger: GameLedger,
    window: SpectatorWindow,
    principal: Principal,
    game_id: UUID,
    min_version: int,
    time_left: float | None,
) -> tuple[Game, Disclosure]:
    """The game now, once the caller may see ``min_version`` of it (0: at once),
    with the caller's disclosure of it (computed once per head looked at).

    ``time_left``: seconds the caller may wait (``None``: :data:`MAX_WAIT`).

    :raises VersionNotVisibleError: when it may not in time.
    :raises GameNotFoundError:
    """
    check_min_version(min_version)
    if min_version <= 0:
        head = await ledger.game(game_id)
        return head, await window.sight(principal, head)
    head = await ledger.game_at_least(game_id, min_version)
    budget = (
        MAX_WAIT if time_left is None else max(0.0, min(MAX_WAIT, time_left - MARGIN))
    )
    loop = asyncio.get_running_loop()
    deadline = loop.time() + budget
    pause = POLL[0]
    while (sight := await window.sight(principal, head)).upto < min_version:
        if loop.time() + pause > deadline:
            raise VersionNotVisibleError(
                f"version {min_version} of this game is not visible to this caller "
                "yet; retry later"
            )
        await asyncio.sleep(pause)
        pause = min(pause * 2, POLL[1])
        head = await ledger.io(ledger.cache.refresh, game_id)
    return head, sight
