"""Thorgal's table drawn from a view: the heroes, the Locations, the action row.

Thorgal hides only the decks' order (admins only); the board shows each
deck's size, never its order, so it reads the same for every viewer but the
admin's view holds nothing the board draws that others lack.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING

from domain.words.board_html import cards, el, facts, render
from domain.words.sentences import Names, listing, seat_name, words

from .content import GOODS

if TYPE_CHECKING:
    from domain.contract.core import Model

    from .state import Hero, Site


def _goods(counts: tuple[int, ...]) -> str:
    named = [f"{n} {g}" for g, n in zip(GOODS, counts) if n]
    return listing(named, "none")


def _hero(h: Hero, names: Names) -> ET.Element:
    return el(
        "li",
        el("h4", f"{seat_name(names, h.seat)} · {h.character}"),
        facts(
            [
                ("area", h.area),
                ("goods", _goods(h.goods)),
                ("wounds", len(h.wounds)),
                ("threats", h.threats),
                ("combat", h.combat_level),
                ("journey", h.journey_level),
                ("skill", "ready" if h.skill_active else "used"),
            ]
        ),
        cards(h.items, kind="items"),
        class_="seat",
        data_seat=h.seat,
    )


def _site(s: Site) -> ET.Element:
    marks = [
        m
        for m, on in (
            ("blockade", s.blockade),
            ("cover", s.cover),
            ("entry", s.entry_token),
        )
        if on
    ]
    return el(
        "li",
        el("h4", s.id),
        facts(
            [
                ("assigned", _goods(s.assigned)),
                ("tokens", listing(marks) if marks else None),
            ]
        ),
        cards(s.enemies, kind="enemies"),
        class_="site",
    )


def board(view: Model, names: Names) -> str:
    """The table as the view's viewer may see it, as an HTML fragment."""
    from .view import ThorgalView

    assert isinstance(view, ThorgalView)
    question = None
    if view.pending is not None:
        question = f"{seat_name(names, view.pending.seat)}: {words(view.pending.kind)}"
    return render(
        el(
            "section",
            facts(
                [
                    ("round", f"{view.round} of {view.rounds}"),
                    ("turn", view.turn),
                    ("phase", view.phase),
                    ("event", view.active_event or None),
                    ("waiting for", question),
                    ("result", view.result or None),
                ]
            ),
            el("h5", "action row"),
            cards(view.row, kind="row"),
            el("h5", "terrain"),
            cards(view.terrain, kind="terrain"),
            el("h5", "item display"),
            cards(view.display, kind="display"),
            el(
                "ul",
                *(
                    el("li", f"{d.name}: {d.size} cards", class_="deck")
                    for d in view.decks
                ),
                class_="decks",
            ),
            el("ol", *(_hero(h, names) for h in view.heroes), class_="seats"),
            el("ol", *(_site(s) for s in view.sites), class_="sites"),
            class_="board board-thorgal",
        )
    )
