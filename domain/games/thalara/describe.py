"""Thalara's events in words, for a person reading the log.

Card and Artifact ids are the table's own (``r07@1``, ``a05``): a reader who
opens the board sees the same ids.  Hidden cards read as a count.
"""

from __future__ import annotations

from domain.words.phrasebook import Phrasebook, Who

from . import events as ev
from .view import redact

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
