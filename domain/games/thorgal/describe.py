"""Thorgal's events in words, for a person reading the log.

Thorgal is cooperative and almost everything is on the table; only a deck's
shuffled order is hidden (admins only), so most sentences read the same for
everyone.  A choice's options read as the answer's name and fields
(``use item Runic Sword``), as the board names them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from domain.words.narration import seats_in_words
from domain.words.phrasebook import Phrasebook, Way, Who
from domain.words.sentences import (
    Names,
    counted,
    listing,
    order_shown,
    words,
)

from . import events as ev
from . import names as N
from . import table_words  # noqa: F401  (registers the table's words)
from .move_words import PROCEED, TOKENS, describe_move, where
from .state import dec
from .view import redact

if TYPE_CHECKING:
    from .commands import Option


def _cells(cells: tuple[int, ...]) -> str:
    """Grid cells (``row * 32 + col``) as people count them: ``row 1, columns 2-3``."""
    return where(frozenset(dec(c) for c in cells))


def _crossing(reds: int, blues: int) -> str:
    crossed = [
        counted(n, f"{colour} Border")
        for n, colour in ((reds, "Red"), (blues, "Blue"))
        if n
    ]
    return f" (crossing {listing(crossed)})" if crossed else ""


def option_words(kind: str, option: Option | None, names: Names) -> str:
    """An answer to a ``kind`` question, as the log tells it (``take the
    Chisel from the Item Display``): the question's words without the table
    the chooser saw, so a die is its number and a Location its name."""
    if option is None:
        return "where the tile goes (placed next)"
    field, value = option.chosen()
    who = Who(names)
    match field:
        case "proceed":
            return PROCEED.get(kind, "go on")
        case "consent":
            return "agree to share" if value.agree else "refuse to share"
        case "use_item":
            return f"use {N.item(value.item)}"
        case "use_skill":
            return "use the Skill card"
        case "refresh_skill":
            return "flip the Skill card back to active"
        case "swap_action_card":
            return f"swap {N.action_card(N.pack(None), value.card)} into the Action Row"
        case "collect_at":
            r, col = dec(value.cell)
            return (
                f"place a Collect token on Terrain card {col // 3 + 1} at"
                f" {where(frozenset({(r, col)}))}"
            )
        case "discard_collect_tokens":
            return f"discard the Collect tokens on Terrain card {value.terrain + 1}"
        case "pick_location":
            loc = N.location(value.location)
            if kind in TOKENS:
                return f"place {TOKENS[kind]} at {loc}"
            verbs = {
                "assign": "Assign Goods at",
                "sacrifice": "Sacrifice at",
                "place_enemy": "place the Enemy token at",
            }
            return f"{verbs.get(kind, 'choose')} {loc}"
        case "give_good":
            return f"assign 1 {N.good(value.good)} from {who(value.from_seat)}'s supply"
        case "take_item":
            return f"take {N.item(value.item)} from the Item Display"
        case "discard_item":
            return f"discard {N.item(value.item)} from the Item Display"
        case "pick_side_plot":
            return f"follow Side Plot {value.plot + 1}"
        case "pick_enemy":
            verb = {"upgrade": "upgrade", "degrade": "degrade"}.get(kind, "fight")
            return f"{verb} Enemy {value.index + 1} at {N.location(value.location)}"
        case "pick_good":
            if kind == "cost_good":
                return f"raise the {N.good(value.good)} cost"
            return f"gain {N.good(value.good)}"
        case "pick_enemy_card":
            return f"lay out Enemy card {value.card} next"
        case "upgrade_die":
            return f"upgrade die {value.die + 1}"
        case "reroll_die":
            return f"reroll die {value.die + 1}"
        case "activate_critical":
            return f"activate the Critical result of die {value.die + 1}"
        case "pick_payer":
            return f"pay from {who(value.seat)}'s supply"
        case "cancel_payment":
            return "give up the payment"
        case "heal_wound":
            return f"discard Wound tile {value.index + 1}"
        case "pick_track":
            return f"gain 1 {value.track.capitalize()} Experience"
        case "move_to":
            return f"move to {N.area(value.area)}{_crossing(value.reds, value.blues)}"
    return words(field)


PLACES = {
    "terrain": "the Journey Path",
    "display": "the Item Display",
    "event": "become the active Event",
    "discard": "the discard pile",
    "combat": "the Combat",
}
"""Where drawn cards go (``CardsDrawn.to``), as the rulebook names it."""


def _deck(deck: str) -> str:
    """``items`` -> ``Item deck``, ``enemy_minor`` -> ``Minor Enemy deck``."""
    if deck == "items":
        return "Item deck"
    if deck.startswith("enemy_"):
        return f"{deck.removeprefix('enemy_').capitalize()} Enemy deck"
    return f"{N.titled(deck)} deck"


def _cards(deck: str, cards: tuple[str, ...]) -> str:
    """Items by their names (``The Herbs``, opening a sentence), other cards
    by their ids."""
    text = listing([N.item(c) if deck == "items" else c for c in cards])
    return text[:1].upper() + text[1:]


MARKS = {
    "blockade": "a Blockade token",
    "cover": "a Sacrifice cover token",
    "cost": "an Increased cost token",
    "entry": "a Completed Entry token",
}


WAYS: dict[str, Way] = {
    "action": N.action,
    "area": N.area,
    "cell": lambda cell: _cells((cell,)),
    "cells": _cells,
    "enemies": lambda tiers: listing([N.enemy(t) for t in tiers], "gone"),
    "enemy_cards": N.enemy_cards,
    "good": N.good,
    "goods": N.goods,
    "item": N.item,
    "location": N.location,
    "track": str.capitalize,
}
"""Thorgal's own ways to read a field in a template (``{item:item}``): its
things by the rulebook's names (:mod:`.names`), so a sentence that only names
them is a template, checked when the table is built."""


describe = Phrasebook(
    "thorgal",
    redact,
    {
        ev.AdventureStarted: lambda e, who: (
            f"The adventure begins with {e.seats} heroes"
            f" ({who.each([N.titled(c) for c in e.characters], ' as ')});"
            f" {who(e.first)} goes first."
        ),
        ev.DeckShuffled: lambda e, who: (
            f"The {e.deck} deck ({counted(e.size, 'card')}) is shuffled"
            f"{' from its discard' if e.from_discard else ''}{order_shown(e.cards)}."
        ),
        ev.CardsDrawn: lambda e, who: (
            f"{_cards(e.deck, e.cards)} {'is' if len(e.cards) == 1 else 'are'}"
            f" drawn from the {_deck(e.deck)} to {PLACES.get(e.to, f'the {e.to}')}."
        ),
        ev.CardDiscarded: lambda e, who: (
            f"{_cards(e.deck, (e.card,))} is discarded"
            f"{' from the Item Display' if e.source == 'display' else ''}."
        ),
        ev.TasksDropped: "A payment falls through: {n:count step} will not resolve.",
        ev.ChoiceOffered: "{pending}.",
        ev.ChoiceMade: lambda e, who: (
            f"{who(e.seat)} chooses: {option_words(e.kind, e.option, who.names)}."
        ),
        ev.TurnBegan: "Round {round}, turn {turn:from 1}: {seat} plays.",
        ev.ChipPlaced: lambda e, who: (
            f"{who(e.seat)} places an Action chip below"
            f" {N.action_card(N.pack(None), e.card, e.option)}."
        ),
        ev.ActionPrepared: "{act}.",
        ev.ActionEnded: "{seat} finishes the {action:action} action.",
        ev.CharacterMoved: "{seat} moves to {area:area} across {borders:count Border}.",
        ev.GoodsGained: "{seat} gains {n} {good:good}.",
        ev.GoodsSpent: "{seat} spends {n} {good:good}.",
        ev.WoundPlaced: (
            "{seat} places the {shape} Wound tile in their Wound area at {cells:cells}."
        ),
        ev.WoundRolled: "{seat} rolls the {die} die: a {shape} wound.",
        ev.WoundHealed: "{seat} heals wound {index:from 1}.",
        ev.ThreatsChanged: "{seat}'s threat track is now {threats}.",
        ev.ExperienceGained: "{seat} reaches {track:track} Experience {level}.",
        ev.ItemGained: lambda e, who: (
            f"{who(e.seat)} gains {N.item(e.item)}"
            f"{' as a starting Item' if e.source == 'start' else f' from the {e.source}'}."
        ),
        ev.ItemUsed: "{seat} uses {item:item}.",
        ev.SkillUsed: "{seat} uses their skill (round {round}).",
        ev.SkillRefreshed: "{seat} refreshes their skill.",
        ev.JourneyTilePlaced: (
            "{seat} places the {shape} Journey tile on the Journey Path at {cells:cells}."
        ),
        ev.CollectTokenPlaced: "{seat} places a Collect token at {cell:cell}.",
        ev.CollectTokensDiscarded: "The Collect tokens at {cells:cells} are discarded.",
        ev.GoodsAssigned: "{from_seat} assigns 1 {good:good} to {location:location}.",
        ev.AssignedGoodsDiscarded: (
            "{goods:goods} assigned at {location:location} are discarded."
        ),
        ev.EnemiesChanged: "The Enemies at {location:location} are now {enemies:enemies}.",
        ev.LocationMarked: lambda e, who: (
            f"{N.location(e.location)} is marked with {MARKS.get(e.token, e.token)}"
            f"{f' ({N.good(e.good)})' if e.good else ''}."
        ),
        ev.CombatBegan: (
            "{combat.seat} fights at {combat.location:location}:"
            " {combat.cards:enemy_cards}."
        ),
        ev.DiceRolled: "The dice show {faces}.",
        ev.DieUpgraded: "Die {index:from 1} is upgraded to {colour}.",
        ev.DieAdded: "A {colour} die is added.",
        ev.DieRerolled: "Die {index:from 1} is rerolled: {face}.",
        ev.CriticalActivated: "Die {index:from 1}'s critical is activated.",
        ev.CombatTilePlaced: (
            "The {shape} Wound tile covers the Enemy card at {cells:cells}."
        ),
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
    WAYS,
)
"""The ruleset's ``describe(event, viewer, names)``."""

__all__ = ["describe", "describe_move", "option_words"]
