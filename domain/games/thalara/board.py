"""Thalara's table drawn from a view: conflicts, Artifacts won, each seat's cards.

Drawn only from :class:`~.view.ThalaraView`, so another seat's hand and
supply are face-down counts (the view holds no card of them).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from domain.words import board_html as html
from domain.words.sentences import Names, seat_name

from .view import ConflictView, PlayerView, ThalaraView


def _conflict(c: ConflictView, names: Names) -> ET.Element:
    plays = html.el(
        "ol",
        *(
            html.el(
                "li",
                p.card,
                class_="card destroyed" if p.destroyed else "card",
                data_seat=p.owner,
                title=seat_name(names, p.owner),
            )
            for p in c.plays
        ),
        class_="plays",
    )
    spells = html.el(
        "ul",
        *(
            html.el("li", f"{s.spell} ({seat_name(names, s.caster)})", class_="spell")
            for s in c.spells
        ),
        class_="spells",
    )
    totals = " – ".join(str(t) for t in c.totals)
    return html.el(
        "li",
        html.el("h4", c.artifact, class_="artifact"),
        plays,
        spells,
        html.el("p", f"strength {totals}", class_="totals"),
        class_="conflict",
        data_artifact=c.artifact,
    )


def _seat(p: PlayerView, names: Names, acting: bool) -> ET.Element:
    return html.seat_entry(
        p,
        p.character,
        names,
        {
            "score": p.score,
            "passed": "yes" if p.passed else None,
            "to act": "yes" if acting else None,
        },
        *html.titled("hand", html.cards(p.hand, p.hand_size, "hand")),
        *html.titled("supply", html.cards(p.supply, p.supply_size, "supply")),
        *html.titled("discard", html.cards(p.discard)),
        *html.titled("Artifacts won", html.cards(p.won, kind="won")),
    )


@html.drawn_from(ThalaraView, "thalara")
def board(view: ThalaraView, names: Names) -> ET.Element:
    """The table as the view's viewer may see it (rendered by ``drawn_from``)."""
    return html.table(
        {
            "round": view.round,
            "phase": view.phase,
            "Artifact stack": f"{view.stack_size} cards",
            "result": view.end_reason or None,
        },
        html.el(
            "ol", *(_conflict(c, names) for c in view.conflicts), class_="conflicts"
        ),
        html.seat_list(_seat(p, names, p.seat in view.to_act) for p in view.players),
    )
