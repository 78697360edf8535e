"""Thorgal's events in words, for a person reading the log.

Thorgal is cooperative and almost everything is on the table; only a deck's
shuffled order is hidden (admins only), so most sentences read the same for
everyone.  A choice's options read as the answer's name and fields
(``use item Runic Sword``), as the board names them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from domain.words.narration import seats_in_words
from domain.words.phrasebook import Phrasebook
from domain.words.sentences import (
    Names,
    counted,
    fields_words,
    listing,
    order_shown,
    words,
)

from . import events as ev
from . import table_words  # noqa: F401  (registers the table's words)
from .move_words import describe_move
from .view import redact

if TYPE_CHECKING:
    from .commands import Option


def option_words(option: Option | None, names: Names) -> str:
    """The one field an :class:`Option` sets, in words (``pick location fjord``)."""
    if option is None:
        return "a tile"
    for name in type(option).model_fields:
        value = getattr(option, name)
        if value is not None:
            return f"{words(name)} {fields_words(value, names)}".strip()
    return "nothing"


describe = Phrasebook(
    "thorgal",
    redact,
    {
        ev.AdventureStarted: (
            "The adventure begins with {seats:count hero}"
            " ({characters:each as}); {first} goes first."
        ),
        ev.DeckShuffled: lambda e, who: (
            f"The {e.deck} deck ({counted(e.size, 'card')}) is shuffled"
            f"{' from its discard' if e.from_discard else ''}{order_shown(e.cards)}."
        ),
        ev.CardsDrawn: lambda e, who: (
            f"{listing(e.cards)} {'is' if len(e.cards) == 1 else 'are'} drawn"
            f" from the {e.deck} deck to the {e.to}."
        ),
        ev.CardDiscarded: "{card} is discarded[ from the {source}] ({deck}).",
        ev.TasksDropped: "A payment falls through: {n:count step} will not resolve.",
        ev.ChoiceOffered: "{pending.seat} must choose: {pending.kind:words}.",
        ev.ChoiceMade: lambda e, who: (
            f"{who(e.seat)} answers {words(e.kind)}"
            f" with {option_words(e.option, who.names)}."
        ),
        ev.TurnBegan: "Round {round}, turn {turn}: {seat} plays.",
        ev.ChipPlaced: "{seat} places chip {chip} on slot {slot} ({card}).",
        ev.ActionPrepared: (
            "{act.seat} prepares {act.action:words} with strength {act.value}."
        ),
        ev.ActionEnded: "{seat} finishes {action:words}.",
        ev.CharacterMoved: "{seat} moves to {area} across {borders:count border}.",
        ev.GoodsGained: "{seat} gains {n} {good}.",
        ev.GoodsSpent: "{seat} spends {n} {good}.",
        ev.WoundPlaced: "{seat} takes a {shape} wound on cells {cells}.",
        ev.WoundRolled: "{seat} rolls the {die} die: a {shape} wound.",
        ev.WoundHealed: "{seat} heals wound {index:from 1}.",
        ev.ThreatsChanged: "{seat}'s threat track is now {threats}.",
        ev.ExperienceGained: "{seat} reaches level {level} in {track}.",
        ev.ItemGained: "{seat} gains {item} from the {source}.",
        ev.ItemUsed: "{seat} uses {item}.",
        ev.SkillUsed: "{seat} uses their skill (round {round}).",
        ev.SkillRefreshed: "{seat} refreshes their skill.",
        ev.JourneyTilePlaced: "{seat} places a {shape} journey tile on cells {cells}.",
        ev.CollectTokenPlaced: "{seat} places a collect token on cell {cell}.",
        ev.CollectTokensDiscarded: "The collect tokens on cells {cells} are discarded.",
        ev.GoodsAssigned: "{from_seat} assigns {good} to {location}.",
        ev.AssignedGoodsDiscarded: (
            "{goods:count assigned good} at {location} are discarded."
        ),
        ev.EnemiesChanged: lambda e, who: (
            f"The enemies at {e.location} are now {listing(e.enemies, 'gone')}."
        ),
        ev.LocationMarked: "{location} is marked with a {token} token[ ({good})].",
        ev.CombatBegan: "{combat.seat} fights at {combat.location}: {combat.cards}.",
        ev.DiceRolled: "The dice show {faces}.",
        ev.DieUpgraded: "Die {index:from 1} is upgraded to {colour}.",
        ev.DieAdded: "A {colour} die is added.",
        ev.DieRerolled: "Die {index:from 1} is rerolled: {face}.",
        ev.CriticalActivated: "Die {index:from 1}'s critical is activated.",
        ev.CombatTilePlaced: "A {shape} combat tile covers cells {cells}.",
        ev.CombatTileDropped: "No room is left for {shapes}.",
        ev.CombatEnded: lambda e, who: (
            f"The combat is {'won' if e.won else 'lost'}"
            f" ({counted(e.uncovered, 'cell')} uncovered)."
        ),
        ev.EntryRead: "Entry {entry} is read: {title}.",
        ev.SidePlotChosen: "Side plot {plot} is chosen at entry {entry}.",
        ev.ActionCardSwapped: "Action card {old} is swapped for {new}.",
        ev.SpecialCardGained: "The special card {card} is gained.",
        ev.RoundAdvanced: "Round {round} begins.",
        ev.ChipsFlipped: "The action chips are flipped.",
        ev.FirstPlayerPassed: "{first} becomes first player.",
        ev.AdventureEnded: lambda e, who: (
            f"{'The heroes win the adventure' if e.won else 'The adventure is lost'}"
            f" ({seats_in_words(e.reason, who.names)})."
        ),
    },
)
"""The ruleset's ``describe(event, viewer, names)``."""

__all__ = ["describe", "describe_move", "option_words"]
