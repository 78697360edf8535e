"""Terralore's table drawn from a view: each castle, its two lanes and its cards.

Drawn only from :class:`~.view.TerraloreView`: the other seat's hand is a
face-down count and its committed plan is shown only as "committed".
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from domain.words import board_html as html
from domain.words.sentences import Names

from .view import PlayerView, TerraloreView


def _seat(p: PlayerView, names: Names) -> ET.Element:
    plan = None
    if p.plan is not None:
        plan = html.el(
            "ol",
            *(
                html.el("li", f"{x.card} → {x.lane.value}", class_="card")
                for x in p.plan.plays
            ),
            class_="plan",
        )
    return html.seat_entry(
        p,
        f"castle {p.hp} HP",
        names,
        {
            "deck": f"{p.deck_size} cards",
            "placement": "committed" if p.committed else None,
        },
        *html.titled("attacking lane", html.cards(p.attacking, kind="lane attacking")),
        *html.titled("defending lane", html.cards(p.defending, kind="lane defending")),
        *html.titled("hand", html.cards(p.hand, p.hand_size, "hand")),
        plan,
        *html.titled("graveyard", html.cards(p.graveyard, kind="graveyard")),
        *html.titled("exile", html.cards(p.exile, kind="exile")),
    )


@html.drawn_from(TerraloreView, "terralore")
def board(view: TerraloreView, names: Names) -> ET.Element:
    """The table as the view's viewer may see it (rendered by ``drawn_from``)."""
    return html.table(
        {
            "turn": view.turn,
            "phase": view.phase,
            "result": view.reason or None,
        },
        html.seat_list(_seat(p, names) for p in view.players),
    )
