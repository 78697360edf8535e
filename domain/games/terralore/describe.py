"""Terralore's events in words, for a person reading the log.

A face-down plan reads as "commits a face-down plan" to everyone but its
owner; drawn cards as a count; a deck order only to admins.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from domain.words.phrasebook import Phrasebook, Who
from domain.words.sentences import counted, listing

from . import events as ev
from .view import redact

if TYPE_CHECKING:
    from .commands import Play


def _plays(plays: tuple[Play, ...]) -> str:
    return listing([f"{p.card} to the {p.lane.value} lane" for p in plays], "no card")


describe = Phrasebook(
    "terralore",
    redact,
    {
        ev.DeckShuffled: "{seat}'s deck is shuffled{order:shown}.",
        ev.TurnStarted: "Turn {turn} begins.",
        ev.PlacementCommitted: lambda e, who: (
            f"{who(e.seat)} commits a face-down plan."
            if e.hidden
            else f"{who(e.seat)} commits a plan: {_plays(e.plays)}."
        ),
        ev.PlacementRevealed: lambda e, who: (
            f"{who(e.seat)} reveals {_plays(e.plays)}"
            f"{f', discarding {listing(e.discards)}' if e.discards else ''}."
        ),
        ev.RevealOrderDecided: "{first} resolves first ({reason}[, rolls {rolls}]).",
        ev.CreaturePlayed: "{seat} plays {card} in the {lane} lane.",
        ev.SkillPlayed: "{seat} uses skill {card} in the {lane} lane.",
        ev.CreatureDestroyed: "{seat}'s {card} in the {lane} lane is destroyed ({reason}).",
        ev.CreatureExiled: "{seat}'s {card} in the {lane} lane is exiled.",
        ev.LaneBoosted: "{seat}'s {lane} lane gains {amount} this turn.",
        ev.CastleDamaged: "{seat}'s castle takes {amount} damage from {source} ({hp} HP left).",
        ev.CastleHealed: "{seat}'s castle heals {amount} ({hp} HP).",
        ev.CardsDiscarded: "{seat} discards {cards}.",
        ev.DeckRanOut: "{seat} must draw from an empty deck.",
        ev.GameEnded: lambda e, who: (
            f"The game ends ({e.reason}): {who.each(e.ranks, ' #')}."
        ),
    },
)
"""The ruleset's ``describe(event, viewer, names)``."""


@describe.on(ev.CardsDrawn)
def _(e: ev.CardsDrawn, who: Who) -> str:
    drawn = listing(e.cards) if e.cards else counted(e.count, "card")
    lost = f"; {listing(e.burned)} burn (hand full)" if e.burned else ""
    return f"{who(e.seat)} draws {drawn}{lost}."


@describe.on(ev.LanesCounted)
def _(e: ev.LanesCounted, who: Who) -> str:
    sides = "; ".join(
        f"{who(s)} attacks {a}, defends {d}"
        for s, (a, d) in enumerate(zip(e.attack, e.defense))
    )
    return f"The lanes are counted: {sides}."
