"""Thalara's table drawn from a view: conflicts, Artifacts won, each seat's cards.

Drawn only from :class:`~.view.ThalaraView`, so another seat's hand and
supply are face-down counts (the view holds no card of them).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING

from domain.words.board_html import cards, el, facts, render
from domain.words.sentences import Names, seat_name

if TYPE_CHECKING:
    from domain.contract.core import Model

    from .view import ConflictView, PlayerView


def _conflict(c: ConflictView, names: Names) -> ET.Element:
    plays = el(
        "ol",
        *(
            el(
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
    spells = el(
        "ul",
        *(
            el("li", f"{s.spell} ({seat_name(names, s.caster)})", class_="spell")
            for s in c.spells
        ),
        class_="spells",
    )
    totals = " – ".join(str(t) for t in c.totals)
    return el(
        "li",
        el("h4", c.artifact, class_="artifact"),
        plays,
        spells,
        el("p", f"strength {totals}", class_="totals"),
        class_="conflict",
        data_artifact=c.artifact,
    )


def _seat(p: PlayerView, names: Names, acting: bool) -> ET.Element:
    return el(
        "li",
        el("h4", f"{seat_name(names, p.seat)} · {p.character}"),
        facts(
            [
                ("score", p.score),
                ("passed", "yes" if p.passed else None),
                ("to act", "yes" if acting else None),
            ]
        ),
        el("h5", "hand"),
        cards(p.hand, p.hand_size, "hand"),
        el("h5", "supply"),
        cards(p.supply, p.supply_size, "supply"),
        el("h5", "discard"),
        cards(p.discard),
        el("h5", "Artifacts won"),
        cards(p.won, kind="won"),
        class_="seat",
        data_seat=p.seat,
    )


def board(view: Model, names: Names) -> str:
    """The table as the view's viewer may see it, as an HTML fragment."""
    from .view import ThalaraView

    assert isinstance(view, ThalaraView)
    return render(
        el(
            "section",
            facts(
                [
                    ("round", view.round),
                    ("phase", view.phase),
                    ("Artifact stack", f"{view.stack_size} cards"),
                    ("result", view.end_reason or None),
                ]
            ),
            el(
                "ol",
                *(_conflict(c, names) for c in view.conflicts),
                class_="conflicts",
            ),
            el(
                "ol",
                *(_seat(p, names, p.seat in view.to_act) for p in view.players),
                class_="seats",
            ),
            class_="board board-thalara",
        )
    )
