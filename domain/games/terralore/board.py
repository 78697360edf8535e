"""Terralore's table drawn from a view: each castle, its two lanes and its cards.

Drawn only from :class:`~.view.TerraloreView`: the other seat's hand is a
face-down count and its committed plan is shown only as "committed".
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING

from domain.words.board_html import cards, el, facts, render
from domain.words.sentences import Names, seat_name

if TYPE_CHECKING:
    from domain.contract.core import Model

    from .view import PlayerView


def _seat(p: PlayerView, names: Names) -> ET.Element:
    plan = None
    if p.plan is not None:
        plan = el(
            "ol",
            *(
                el("li", f"{x.card} → {x.lane.value}", class_="card")
                for x in p.plan.plays
            ),
            class_="plan",
        )
    return el(
        "li",
        el("h4", f"{seat_name(names, p.seat)} · castle {p.hp} HP"),
        facts(
            [
                ("deck", f"{p.deck_size} cards"),
                ("placement", "committed" if p.committed else None),
            ]
        ),
        el("h5", "attacking lane"),
        cards(p.attacking, kind="lane attacking"),
        el("h5", "defending lane"),
        cards(p.defending, kind="lane defending"),
        el("h5", "hand"),
        cards(p.hand, p.hand_size, "hand"),
        plan,
        el("h5", "graveyard"),
        cards(p.graveyard, kind="graveyard"),
        el("h5", "exile"),
        cards(p.exile, kind="exile"),
        class_="seat",
        data_seat=p.seat,
    )


def board(view: Model, names: Names) -> str:
    """The table as the view's viewer may see it, as an HTML fragment."""
    from .view import TerraloreView

    assert isinstance(view, TerraloreView)
    return render(
        el(
            "section",
            facts(
                [
                    ("turn", view.turn),
                    ("phase", view.phase),
                    ("result", view.reason or None),
                ]
            ),
            el("ol", *(_seat(p, names) for p in view.players), class_="seats"),
            class_="board board-terralore",
        )
    )
