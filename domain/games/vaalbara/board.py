"""Vaalbara's table drawn from a view: the two Land rows, each clan and its Realm.

Drawn only from :class:`~.view.VaalbaraView`: another clan's hand, deck,
face-down character and VP are what the view holds of them (counts, or
nothing).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from domain.words import board_html as html
from domain.words.sentences import Names, seat_name

from .view import PlayerView, VaalbaraView


def _seat(p: PlayerView, names: Names, acting: bool) -> ET.Element:
    return html.seat_entry(
        p,
        p.clan,
        names,
        {
            "VP": p.vp,
            "character": p.chosen or ("face down" if p.has_chosen else None),
            "played": p.played,
            "deck": f"{p.deck_size} cards",
            "to act": "yes" if acting else None,
        },
        *html.titled("hand", html.cards(p.hand, p.hand_size, "hand")),
        *html.titled("Realm", html.cards(p.realm, kind="realm")),
        *html.titled("discard", html.cards(p.discard)),
    )


@html.drawn_from(VaalbaraView, "vaalbara")
def board(view: VaalbaraView, names: Names) -> ET.Element:
    """The table as the view's viewer may see it (rendered by ``drawn_from``)."""
    turn = seat_name(names, view.current) if view.current is not None else None
    return html.table(
        {
            "round": view.round,
            "phase": view.phase,
            "Land deck": f"{view.land_deck_size} cards",
            "turn": turn,
        },
        *html.titled("first row", html.cards(view.first_row, kind="row first")),
        *html.titled("second row", html.cards(view.second_row, kind="row second")),
        html.seat_list(_seat(p, names, p.seat in view.to_act) for p in view.players),
    )
