"""Thalara's events in words, for a person reading the log.

Card and Artifact ids are the table's own (``r07@1``, ``a05``): a reader who
opens the board sees the same ids.  Hidden cards read as a count.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from domain.words.sentences import Names, cards_or_count, counted, listing, seat_name

from . import events as ev
from .view import redact

if TYPE_CHECKING:
    from domain.contract.core import Event, Viewer


def describe(event: Event, viewer: Viewer, names: Names) -> str:
    """One sentence for ``event`` as ``viewer`` may see it."""
    event = redact(event, viewer)

    def who(seat: int | None) -> str:
        return seat_name(names, seat)

    match event:
        case ev.ArtifactsShuffled(order=order, size=size):
            stack = f": {listing(order)}" if order else ""
            return f"The Artifact stack of {counted(size, 'card')} is shuffled{stack}."
        case ev.FirstPlayerChosen(seat=seat):
            return f"{who(seat)} is chosen to start."
        case ev.ArtifactsRefilled(artifacts=artifacts):
            return f"New conflicts open over {listing(artifacts)}."
        case ev.RoundStarted(round=round_, starter=starter):
            return f"Round {round_} begins; {who(starter)} starts."
        case ev.HandSelected(seat=seat, cards=cards, count=count):
            return f"{who(seat)} selects {cards_or_count(cards, count)}."
        case ev.SupplyShuffled(seat=seat, order=order, size=size):
            hidden = f": {listing(order)}" if order else ""
            return (
                f"{who(seat)}'s supply of {counted(size, 'card')} is shuffled{hidden}."
            )
        case ev.CardsDrawn(seat=seat, cards=cards, count=count):
            return f"{who(seat)} draws {cards_or_count(cards, count)}."
        case ev.CardPlayed(seat=seat, card=card, conflict=conflict):
            return f"{who(seat)} plays {card} in the conflict over {conflict}."
        case ev.SpellActivated(seat=seat, spell=spell, conflict=conflict, target=t):
            on = f" on {t}" if t else ""
            return f"{who(seat)} casts {spell} in the conflict over {conflict}{on}."
        case ev.CardDestroyed(card=card, owner=owner, conflict=conflict):
            return (
                f"{who(owner)}'s {card} is destroyed in the conflict over {conflict}."
            )
        case ev.CardReturned(card=card, owner=owner, conflict=c, to_supply=to_supply):
            where = "supply" if to_supply else "hand"
            return f"{who(owner)}'s {card} goes back to the {where} from {c}."
        case ev.Passed(seat=seat):
            return f"{who(seat)} passes."
        case ev.ConflictResolved(conflict=conflict, totals=totals, winner=winner):
            score = "–".join(str(t) for t in totals)
            if winner is None:
                return f"The conflict over {conflict} ends in a tie ({score})."
            return f"{who(winner)} wins {conflict} ({score})."
        case ev.RoundEnded(round=round_):
            return f"Round {round_} ends."
        case ev.RemnantsReturned(seat=seat, cards=cards, count=count):
            return f"{who(seat)} returns {cards_or_count(cards, count, 'Remnant')}."
        case ev.GameEnded(reason=reason, scores=scores):
            tally = ", ".join(f"{who(s)} {p}" for s, p in enumerate(scores))
            return f"The game ends ({reason}): {tally}."
    raise TypeError(f"no words for {type(event).__name__}")
