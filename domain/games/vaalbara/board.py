"""Vaalbara's table drawn from a view: the two Land rows, each clan and its Realm.

Drawn only from :class:`~.view.VaalbaraView`: another clan's hand, deck,
face-down character and VP are what the view holds of them (counts, or
nothing).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING

from domain.words.board_html import cards, el, facts, render
from domain.words.sentences import Names, seat_name

if TYPE_CHECKING:
    from domain.contract.core import Model

    from .view import PlayerView


def _seat(p: PlayerView, names: Names, acting: bool) -> ET.Element:
    return el(
        "li",
        el("h4", f"{seat_name(names, p.seat)} · {p.clan}"),
        facts(
            [
                ("VP", p.vp),
                ("character", p.chosen or ("face down" if p.has_chosen else None)),
                ("played", p.played),
                ("deck", f"{p.deck_size} cards"),
                ("to act", "yes" if acting else None),
            ]
        ),
        el("h5", "hand"),
        cards(p.hand, p.hand_size, "hand"),
        el("h5", "Realm"),
        cards(p.realm, kind="realm"),
        el("h5", "discard"),
        cards(p.discard),
        class_="seat",
        data_seat=p.seat,
    )


def board(view: Model, names: Names) -> str:
    """The table as the view's viewer may see it, as an HTML fragment."""
    from .view import VaalbaraView

    assert isinstance(view, VaalbaraView)
    return render(
        el(
            "section",
            facts(
                [
                    ("round", view.round),
                    ("phase", view.phase),
                    ("Land deck", f"{view.land_deck_size} cards"),
                    (
                        "turn",
                        seat_name(names, view.current)
                        if view.current is not None
                        else None,
                    ),
                ]
            ),
            el("h5", "first row"),
            cards(view.first_row, kind="row first"),
            el("h5", "second row"),
            cards(view.second_row, kind="row second"),
            el(
                "ol",
                *(_seat(p, names, p.seat in view.to_act) for p in view.players),
                class_="seats",
            ),
            class_="board board-vaalbara",
        )
    )
