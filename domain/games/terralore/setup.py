"""Table options: two players, each with an optional deck.

A seat's deck is either a named sample deck (``name``) or an explicit list of
card ids (``cards``); leaving both empty (or passing no ``decks`` at all)
gives seat 0 "emberfall" and seat 1 "tidewatch".
"""

from __future__ import annotations

from pydantic import model_validator

from domain.contract.core import InvalidCommandError, Model

from . import content
from .state import TerraloreState


class DeckChoice(Model):
    name: str = ""
    cards: tuple[str, ...] = ()


class TerraloreSetup(Model):
    players: int = 2
    decks: tuple[DeckChoice, ...] = ()

    @model_validator(mode="after")
    def _check(self) -> TerraloreSetup:
        resolve_decks(self)
        return self


def resolve_decks(setup: TerraloreSetup) -> tuple[tuple[str, ...], ...]:
    """The two validated deck lists, seat order.

    :raises InvalidCommandError: wrong player count, unknown deck or card, a
        deck that is not 20 single copies, both ``name`` and ``cards`` given.
    """
    if setup.players != 2:
        raise InvalidCommandError("Terralore is played by exactly 2 players")
    if len(setup.decks) not in (0, 2):
        raise InvalidCommandError("give a deck choice for both seats, or none")
    defaults = content.default_deck_names()
    out = []
    for seat in range(2):
        choice = setup.decks[seat] if setup.decks else DeckChoice()
        if choice.name and choice.cards:
            raise InvalidCommandError(
                "a deck choice is a name or a card list, not both"
            )
        if choice.cards:
            out.append(content.parse_deck(choice.cards))
        else:
            out.append(
                content.parse_deck(content.named_deck(choice.name or defaults[seat]))
            )
    return tuple(out)


def initial_state(setup: TerraloreSetup) -> TerraloreState:
    """The empty table: the chosen decks, no chance yet.

    :raises InvalidCommandError: if the setup's decks are not legal.
    """
    return TerraloreState(decks=resolve_decks(setup))
