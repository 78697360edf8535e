"""Thalara's events in words, for a person reading the log.

Card and Artifact ids are the table's own (``r07@1``, ``a05``): a reader who
opens the board sees the same ids.  Hidden cards read as a count.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from domain.words.move_words import you
from domain.words.phrasebook import Phrasebook, Who
from domain.words.sentences import Names, counted, listing

from . import events as ev
from .commands import Pass, PlayCard, ReturnRemnants, SelectHand, SpellActivation
from .content import catalogue, spells
from .view import ThalaraView, redact

if TYPE_CHECKING:
    from domain.contract.core import Command, Model

describe = Phrasebook(
    "thalara",
    redact,
    {
        ev.ArtifactsShuffled: (
            "The Artifact stack of {size:count card} is shuffled{order:shown}."
        ),
        ev.FirstPlayerChosen: "{seat} is chosen to start.",
        ev.ArtifactsRefilled: "New conflicts open over {artifacts}.",
        ev.RoundStarted: "Round {round} begins; {starter} starts.",
        ev.HandSelected: "{seat} selects {cards:or count card}.",
        ev.SupplyShuffled: (
            "{seat}'s supply of {size:count card} is shuffled{order:shown}."
        ),
        ev.CardsDrawn: "{seat} draws {cards:or count card}.",
        ev.CardPlayed: "{seat} plays {card} in the conflict over {conflict}.",
        ev.SpellActivated: (
            "{seat} casts {spell} in the conflict over {conflict}[ on {target}]."
        ),
        ev.CardDestroyed: "{owner}'s {card} is destroyed in the conflict over {conflict}.",
        ev.CardReturned: lambda e, who: (
            f"{who(e.owner)}'s {e.card} goes back to the"
            f" {'supply' if e.to_supply else 'hand'} from {e.conflict}."
        ),
        ev.Passed: "{seat} passes.",
        ev.RoundEnded: "Round {round} ends.",
        ev.RemnantsReturned: "{seat} returns {cards:or count Remnant}.",
        ev.GameEnded: "The game ends ({reason}): {scores:each}.",
    },
)
"""The ruleset's ``describe(event, viewer, names)``."""


@describe.on(ev.ConflictResolved)
def _(e: ev.ConflictResolved, who: Who) -> str:
    score = "–".join(str(t) for t in e.totals)
    if e.winner is None:
        return f"The conflict over {e.conflict} ends in a tie ({score})."
    return f"{who(e.winner)} wins {e.conflict} ({score})."


# ------------------------------------------------------------------ moves


def _card(view: ThalaraView, card: str, seat: int, names: Names) -> str:
    """A card as the chooser reads it: ``r05 (strength 5, red)``; another
    seat's Remnant with its owner (``sam's r03 (...)``).  Printed values come
    from the table's content pack, public for every card."""
    info = catalogue(view.content, len(view.players)).get(card)
    if info is None:
        return card
    printed = f"strength {info.strength}, {info.colour}"
    if info.kind == "artifact":
        return f"{card} ({printed}, {counted(info.victory_points, 'VP')})"
    base = card.partition("@")[0]
    owner = "" if info.owner == seat else f"{you(names, info.owner, seat, True)} "
    return f"{owner}{base} ({printed})"


def _cards(view: ThalaraView, cards: tuple[str, ...], seat: int, names: Names) -> str:
    return listing([_card(view, c, seat, names) for c in cards])


_EFFECTS = {
    "bonus": "+{amount} strength to you there this round",
    "weaken": "-{amount} strength to each opponent there this round",
    "destroy": "destroy {target}",
    "return": "return {target} to its owner's hand",
}


def _spell(view: ThalaraView, cast: SpellActivation, seat: int, names: Names) -> str:
    spell = spells(view.content).get(cast.spell)
    if spell is None:
        return f"cast {cast.spell} in the conflict over {cast.conflict}"
    target = _card(view, cast.target, seat, names) if cast.target else ""
    effect = _EFFECTS[spell.effect.kind].format(
        amount=spell.effect.amount, target=target
    )
    where = f" in the conflict over {cast.conflict}"
    return f"cast {spell.name}{where} ({effect})"


def describe_move(command: Command, seat: int, view: Model, names: Names) -> str:
    """The ruleset's ``describe_move``: a Thalara move as the chooser reads it.

    >>> from domain.games import find_game
    >>> from domain.contract.core import Viewer
    >>> game = find_game("thalara")
    >>> from domain.ledger.simulate import play_random_game
    >>> table = play_random_game(game, game.setup_model(**game.examples[0].setup), 1)
    >>> view = game.view(table.states[0], Viewer.player(0))
    >>> describe_move(PlayCard(card="r05@0", conflict="a13"), 0, view, {})
    'play r05 (strength 5, red) in the conflict over a13'
    """
    assert isinstance(view, ThalaraView), type(view)
    if isinstance(command, PlayCard):
        played = (
            f"play {_card(view, command.card, seat, names)}"
            f" in the conflict over {command.conflict}"
        )
        if command.spell is None:
            return played
        return f"{played}, then {_spell(view, command.spell, seat, names)}"
    if isinstance(command, Pass):
        return "pass: play no more cards this round"
    if isinstance(command, SelectHand):
        return f"take {_cards(view, command.cards, seat, names)} into your hand"
    if isinstance(command, ReturnRemnants):
        if not command.cards:
            return "keep every Remnant in your hand"
        return (
            f"shuffle {_cards(view, command.cards, seat, names)} back into your supply"
        )
    raise TypeError(f"thalara has no move {type(command).__name__}")
