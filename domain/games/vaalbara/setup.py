"""Vaalbara setup: the creation options and the empty table they lead to."""

from __future__ import annotations

from domain.contract.core import InvalidCommandError, Model

from .content import CHARACTERS, CLANS, PACK
from .state import PlayerState, VaalbaraState


class VaalbaraSetup(Model):
    """Creation options: the player count and, optionally, each seat's clan."""

    players: int = 2
    """Two by default, as every game's setup (an omitted setup is a table)."""
    clans: tuple[str, ...] = ()
    """Clan of each seat; empty means the pack's clans in order."""


MIN_PLAYERS = 2
MAX_PLAYERS = 5


def initial_state(setup: VaalbaraSetup) -> VaalbaraState:
    """The empty table: clans seated, decks unshuffled (setup steps A-C).

    :raises InvalidCommandError: bad player count or clan list.
    """
    if not MIN_PLAYERS <= setup.players <= MAX_PLAYERS:
        raise InvalidCommandError("Vaalbara is played by 2 to 5 players")
    clans = setup.clans or CLANS[: setup.players]
    if len(clans) != setup.players or len(set(clans)) != len(clans):
        raise InvalidCommandError("give one distinct clan per seat")
    if any(c not in CLANS for c in clans):
        raise InvalidCommandError(f"clans are {', '.join(CLANS)}")
    return VaalbaraState(
        players=initial_players(tuple(clans), CHARACTERS),
        land_deck=PACK.for_players(setup.players),
    )


def initial_players(
    clans: tuple[str, ...], deck: tuple[str, ...]
) -> tuple[PlayerState, ...]:
    return tuple(PlayerState(clan=clan, deck=deck) for clan in clans)
