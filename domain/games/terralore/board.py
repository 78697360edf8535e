"""Terralore's table laid out from a view: each castle, its two lanes and its cards.

Laid out only from :class:`~.view.TerraloreView`: the other seat's hand is
a face-down count and its committed plan is only "committed".  Card ids are
looked up in the content pack for their name, kind, cost, points, affinity
and effects.

Targets (:mod:`domain.words.targets`): a hand card ``card:<id>`` (a
``Play`` of ``PlaceCards``) and ``discards:<id>`` (paying a cost); a
creature in a lane ``destroys:<id>`` (making room); a lane of the seat
whose hand the view shows ``lane:attacking`` / ``lane:defending`` (a
``Play``'s lane is always the player's own).
"""

from __future__ import annotations

from domain.words import board_svg
from domain.words.board_layout import Board, Piece, Section, Zone, end_facts, laid_out
from domain.words.sentences import Names, listing, seat_name, words
from domain.words.targets import pair, targets

from .commands import Lane
from .content import Card, cards
from .view import PlayerView, TerraloreView


def _effects(card: Card) -> str:
    return listing([f"{words(e.kind.value)} {e.amount}" for e in card.effects], "")


def card_words(card_id: str) -> str:
    """``cinder-hound (Cinder Hound: creature, fire, cost 1, 2 points)``."""
    card = cards().get(card_id)
    if card is None:
        return card_id
    effects = _effects(card)
    points = f", {card.points} points" if card.is_creature else ""
    also = f", {effects}" if effects else ""
    return f"{card_id} ({card.name}: {card.kind}, {card.affinity}, cost {card.cost}{points}{also})"


def _card(card_id: str, *alts: str | None) -> Piece:
    card = cards().get(card_id)
    if card is None:
        return Piece(card_id, card_id, targets=targets(*alts))
    label = f"{card.points} pts" if card.is_creature else "skill"
    effects = _effects(card)
    return Piece(
        label,
        card_words(card_id),
        (
            card.name,
            f"{card.affinity} · cost {card.cost}",
            *([effects] if effects else []),
        ),
        card.affinity,
        targets(*alts),
    )


def _seat(view: TerraloreView, p: PlayerView, names: Names) -> Section:
    other = [q for q in view.players if q.seat != p.seat]
    facing = seat_name(names, other[0].seat) if other else "the opponent"
    own = bool(p.hand)
    facts = [
        f"castle {p.hp} HP",
        f"deck {p.deck_size} cards",
        *(["placement committed"] if p.committed else []),
    ]
    zones = [
        Zone(
            "attacking lane",
            tuple(_card(c, pair("destroys", c)) for c in p.attacking),
            note=f"faces {facing}'s defending lane",
            targets=pair("lane", Lane.ATTACKING) if own else "",
        ),
        Zone(
            "defending lane",
            tuple(_card(c, pair("destroys", c)) for c in p.defending),
            note=f"faces {facing}'s attacking lane",
            targets=pair("lane", Lane.DEFENDING) if own else "",
        ),
        Zone(
            "hand",
            tuple(_card(c, pair("card", c), pair("discards", c)) for c in p.hand),
            0 if p.hand else p.hand_size,
        ),
    ]
    if p.plan is not None:
        plays = [f"{x.card} to the {x.lane.value} lane" for x in p.plan.plays]
        zones.append(
            Zone(
                "committed plan",
                tuple(
                    Piece(text, text)
                    for text in (
                        *plays,
                        *(f"discard {c}" for c in p.plan.discards),
                        *(f"destroy {c}" for c in p.plan.destroys),
                    )
                ),
                compact=True,
            )
        )
    zones += [
        Zone("graveyard", tuple(_card(c) for c in p.graveyard), compact=True),
        Zone("exile", tuple(_card(c) for c in p.exile), compact=True),
    ]
    return Section(
        f"{seat_name(names, p.seat)} · castle {p.hp} HP",
        tuple(facts[1:]),
        tuple(zones),
        seat=p.seat,
        highlight=view.phase == "play" and not p.committed,
    )


@laid_out(TerraloreView)
def layout(view: TerraloreView, names: Names) -> Board:
    """The table as the view's viewer may see it."""
    facts = [f"turn {view.turn}", f"{words(view.phase)} phase"]
    if view.last_reveal_order:
        order = [
            f"{seat_name(names, r.seat)} {r.lane.value}" for r in view.last_reveal_order
        ]
        facts.append("last reveal: " + ", ".join(order))
    return Board(
        "terralore",
        "Terralore",
        (*facts, *end_facts(view.reason)),
        tuple(_seat(view, p, names) for p in view.players),
    )


board = board_svg.drawing(TerraloreView, layout)
