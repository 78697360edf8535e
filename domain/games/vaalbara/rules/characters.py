"""The twelve character actions, as printed.

Each character is either *automatic* (its effect follows from the table:
Fighter, Hunter, Oracle, Carpenter, Falconer, Crafter, Farmer) or a *choice*
of the player who played it (Bard, Tracker, Midwife, Rider, Pioneer).  A
choice character with no possible option (Midwife with an empty discard,
Pioneer with an empty Realm, ...) has no effect and needs no decision, so the
game never waits for a move nobody can make.

The Farmer's doubling happens during the Land action (see :mod:`.decide`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from domain.contract.core import IllegalCommandError, InvalidCommandError

from .. import commands as cmd
from .. import events as ev
from ..content import CHARACTERS, INITIATIVE, LANDS
from ..state import VaalbaraState
from .lands import count_type, land_reward

if TYPE_CHECKING:
    from domain.contract.core import Command, Event

CHOICE_CHARACTERS = {
    "bard": cmd.GiveBardPoints,
    "tracker": cmd.TrackLand,
    "midwife": cmd.TakeBackCharacter,
    "rider": cmd.SwapLands,
    "pioneer": cmd.SwapWithDeckBottom,
}
"""Characters whose effect is a decision, and the command that takes it."""

BARD_POINTS = 2
HUNTER_POINTS = 3
ORACLE_POINTS = 2
CARPENTER_POINTS = 3
FALCONER_POINTS = 2
CRAFTER_POINTS = 5
FIGHTER_POINTS = 1


def fighter_callees(state: VaalbaraState, seat: int) -> tuple[int, ...]:
    """Seats asked whether they reveal a Fighter.

    Every other seat whose Fighter is not publicly elsewhere (discarded or
    played this round) is asked, whether or not it holds the card, so that
    being asked reveals nothing about a hand.
    """
    return tuple(
        other
        for other, p in enumerate(state.players)
        if other != seat and "fighter" not in p.discard and p.played != "fighter"
    )


def generate_choices(state: VaalbaraState, seat: int) -> Iterator[Command]:
    """Every option of the choice character ``seat`` is resolving."""
    character = state.revealed[seat]
    p = state.players[seat]
    if character == "bard":
        for other in range(state.player_count):
            if other != seat:
                yield cmd.GiveBardPoints(target=other)
    elif character == "tracker":
        if state.land_deck:
            for card in state.first_row + state.second_row:
                yield cmd.TrackLand(card=card)
    elif character == "midwife":
        for character_back in dict.fromkeys(p.discard):
            if character_back != "midwife":
                yield cmd.TakeBackCharacter(character=character_back)
    elif character == "rider":
        for first in state.first_row:
            for second in state.second_row:
                yield cmd.SwapLands(first=first, second=second)
    elif character == "pioneer" and state.land_deck:
        for card in dict.fromkeys(p.realm):
            yield cmd.SwapWithDeckBottom(card=card)


def needs_choice(state: VaalbaraState, seat: int) -> bool:
    """Whether ``seat``'s character action waits for a move."""
    if state.revealed[seat] not in CHOICE_CHARACTERS:
        return False
    return next(generate_choices(state, seat), None) is not None


def _beats_neighbours(state: VaalbaraState, seat: int, before: bool) -> bool:
    """Hunter/Crafter test: initiative, ties broken by the *current* Omens."""
    mine = state.initiative_key(seat)
    return all(
        (mine < state.initiative_key(n)) if before else (mine > state.initiative_key(n))
        for n in state.neighbours(seat)
    )


def automatic_effect(state: VaalbaraState, seat: int) -> list[Event]:
    """Events of an automatic (or option-less) character action.

    The Fighter's call is returned as a ``FighterCalled`` event when someone
    can answer; the caller then waits for the answers before discarding.
    """
    character = state.revealed[seat]
    p = state.players[seat]
    points = 0
    if character == "fighter":
        callees = fighter_callees(state, seat)
        return [ev.FighterCalled(seats=callees)] if callees else []
    if character == "hunter" and _beats_neighbours(state, seat, before=True):
        points = HUNTER_POINTS
    elif character == "crafter" and _beats_neighbours(state, seat, before=False):
        points = CRAFTER_POINTS
    elif character == "oracle":
        odd = sum(
            1 for n in state.neighbours(seat) if INITIATIVE[state.revealed[n]] % 2
        )
        points = ORACLE_POINTS * odd
    elif character == "carpenter":
        points = CARPENTER_POINTS * count_type(p.realm, "forest")
    elif character == "falconer":
        if not state.done:
            return []
        victim = state.done[-1]
        stolen = min(FALCONER_POINTS, state.players[victim].vp)
        return [ev.PointsStolen(thief=seat, victim=victim, points=stolen)]
    if points:
        return [ev.PointsScored(seat=seat, reason=character, points=points)]
    return []


def _require(condition: bool, rule: str, message: str) -> None:
    if not condition:
        raise IllegalCommandError(f"vaalbara.{rule}", message)


def _known_land(card: str) -> None:
    if card not in LANDS:
        raise InvalidCommandError(f"unknown land card {card!r}")


def apply_choice(state: VaalbaraState, seat: int, command: Command) -> list[Event]:
    """Validate a choice command against the rows/Realm/discard and decide it.

    :raises InvalidCommandError: unknown seat, land or character.
    :raises IllegalCommandError: an option the card does not allow now.
    """
    p = state.players[seat]
    match command:
        case cmd.GiveBardPoints(target=target):
            if not 0 <= target < state.player_count:
                raise InvalidCommandError(f"no seat {target}")
            _require(
                target != seat, "bard-target", "the Bard gives VP to another player"
            )
            return [ev.PointsScored(seat=target, reason="bard", points=BARD_POINTS)]
        case cmd.TrackLand(card=card):
            _known_land(card)
            _require(
                card in state.first_row + state.second_row,
                "tracker-card",
                "the Tracker swaps a card of the first or second Land row",
            )
            return [ev.LandTracked(seat=seat, card=card, new_card=state.land_deck[0])]
        case cmd.TakeBackCharacter(character=character):
            if character not in CHARACTERS:
                raise InvalidCommandError(f"unknown character {character!r}")
            _require(
                character != "midwife",
                "midwife-self",
                "the Midwife cannot take herself back",
            )
            _require(
                character in p.discard,
                "midwife-card",
                "that character is not in your discard",
            )
            return [ev.CharacterTakenBack(seat=seat, character=character)]
        case cmd.SwapLands(first=first, second=second):
            _known_land(first)
            _known_land(second)
            _require(
                first in state.first_row,
                "rider-first",
                "the first card must be in the first row",
            )
            _require(
                second in state.second_row,
                "rider-second",
                "the second card must be in the second row",
            )
            return [ev.LandsSwapped(seat=seat, first=first, second=second)]
        case cmd.SwapWithDeckBottom(card=card):
            _known_land(card)
            _require(
                card in p.realm,
                "pioneer-card",
                "the Pioneer swaps a Land of your Realm",
            )
            new_card = state.land_deck[-1]
            realm = tuple(new_card if c == card else c for c in p.realm)
            # The reward is scored as if the table already shows the swap.
            points = land_reward(state, seat, new_card, realm)
            return [
                ev.RealmLandSwapped(seat=seat, card=card, new_card=new_card),
                ev.PointsScored(seat=seat, reason=LANDS[new_card].type, points=points),
            ]
    raise InvalidCommandError(f"{type(command).__name__} is not a character choice")
