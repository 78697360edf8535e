"""Thorgal's table drawn from a view: the heroes, the Locations, the action row.

Thorgal hides only the decks' order (admins only); the board shows each
deck's size, never its order, so it reads the same for every viewer but the
admin's view holds nothing the board draws that others lack.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING

from domain.words import board_html as html
from domain.words.sentences import Names, listing, seat_name, words

from .content import GOODS
from .view import ThorgalView

if TYPE_CHECKING:
    from .state import Hero, Site


def _goods(counts: tuple[int, ...]) -> str:
    named = [f"{n} {g}" for g, n in zip(GOODS, counts) if n]
    return listing(named, "none")


def _hero(h: Hero, names: Names) -> ET.Element:
    return html.seat_entry(
        h,
        h.character,
        names,
        {
            "area": h.area,
            "goods": _goods(h.goods),
            "wounds": len(h.wounds),
            "threats": h.threats,
            "combat": h.combat_level,
            "journey": h.journey_level,
            "skill": "ready" if h.skill_active else "used",
        },
        html.cards(h.items, kind="items"),
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
    return html.el(
        "li",
        html.el("h4", s.id),
        html.facts(
            {
                "assigned": _goods(s.assigned),
                "tokens": listing(marks) if marks else None,
            }
        ),
        html.cards(s.enemies, kind="enemies"),
        class_="site",
    )


@html.drawn_from(ThorgalView, "thorgal")
def board(view: ThorgalView, names: Names) -> ET.Element:
    """The table as the view's viewer may see it (rendered by ``drawn_from``)."""
    question = None
    if view.pending is not None:
        question = f"{seat_name(names, view.pending.seat)}: {words(view.pending.kind)}"
    return html.table(
        {
            "round": f"{view.round} of {view.rounds}",
            "turn": view.turn,
            "phase": view.phase,
            "event": view.active_event or None,
            "waiting for": question,
            "result": view.result or None,
        },
        *html.titled("action row", html.cards(view.row, kind="row")),
        *html.titled("terrain", html.cards(view.terrain, kind="terrain")),
        *html.titled("item display", html.cards(view.display, kind="display")),
        html.el(
            "ul",
            *(
                html.el("li", f"{d.name}: {d.size} cards", class_="deck")
                for d in view.decks
            ),
            class_="decks",
        ),
        html.seat_list(_hero(h, names) for h in view.heroes),
        html.el("ol", *(_site(s) for s in view.sites), class_="sites"),
    )
