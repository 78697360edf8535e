"""Thorgal's things by the rulebook's names, for sentences and boards.

The rules engine keys everything by short ids (``wolf_den``, ``C05``,
``rune_stone``, a goods count per :data:`~.content.GOODS` position); a person
reads the rulebook's words: "the Wolf Den", "Action card 5 (Collect 2)",
"the Rune Stone", "1 Material and 2 Ore", "a red Penalty".  Every reader
(the moves' sentences, the board in words) names things through here, so
the table and the moves say the same.

Why the pack is read by name and not from the view: ``ThorgalView`` names no
content pack, and "sample" is the only pack shipped; :func:`pack` is the one
place to change when a view carries its pack.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.words.sentences import Names, listing, seat_name

from .content import GOODS, ICON_GOOD, Content, load

ICONS = {
    ".": ("an empty space", "empty spaces"),
    "*": ("an Area-specific Good", "Area-specific Goods"),
    "H": ("a Heal", "Heals"),
    "X": ("an Experience", "Experience"),
    "D": ("a Discovery card", "Discovery cards"),
    "r": ("a red Penalty", "red Penalties"),
    "y": ("a yellow Penalty", "yellow Penalties"),
    "R": (
        "an Area-specific Good with a red Penalty",
        "Area-specific Goods with a red Penalty",
    ),
    "Y": (
        "an Area-specific Good with a yellow Penalty",
        "Area-specific Goods with a yellow Penalty",
    ),
    "h": ("an Enemy heart", "Enemy hearts"),
}
"""A grid's one-letter icons (``content.py``) as the rulebook's Icon Glossary
names them, one and many; the Goods icons read as their Good."""

ACTIONS = {
    "move": "Move",
    "journey": "Journey",
    "collect": "Collect",
    "assign": "Assign",
    "sacrifice": "Sacrifice",
    "combat": "Combat",
    "craft": "Craft",
}


def pack(view: object) -> Content:
    """The content pack ``view``'s table plays with (see the module's note)."""
    return load(str(getattr(view, "content", "sample")))


def titled(ident: str) -> str:
    """An id as a printed name: ``wolf_den`` -> ``Wolf Den``.

    >>> titled("wolf_den"), titled("rune_stone"), titled("smithy")
    ('Wolf Den', 'Rune Stone', 'Smithy')
    """
    return " ".join(part.capitalize() for part in ident.replace("-", "_").split("_"))


def good(name: str) -> str:
    """``ore`` -> ``Ore`` (Goods are proper names in the rulebook)."""
    return name.capitalize()


def goods(counts: Sequence[int], empty: str = "no Goods") -> str:
    """A goods count per :data:`GOODS` position, in words.

    >>> goods((1, 2, 0, 0, 0, 0)), goods((0,) * 6)
    ('1 Material and 2 Ore', 'no Goods')
    """
    return listing([f"{n} {good(g)}" for g, n in zip(GOODS, counts) if n], empty)


def location(lid: str) -> str:
    """``the Wolf Den``."""
    return f"the {titled(lid)}"


def area(aid: str) -> str:
    """``the Fjord``."""
    return f"the {titled(aid)}"


def item(iid: str) -> str:
    """``the Rune Stone``."""
    return f"the {titled(iid)}"


def action(name: str) -> str:
    """``collect`` -> ``Collect``."""
    return ACTIONS.get(name, titled(name))


def action_card(c: Content, cid: str, option: int | None = None) -> str:
    """``Action card 5 (Collect 2)``; a card with two Main actions reads both,
    or the one ``option`` picks.

    >>> action_card(load(), "C09"), action_card(load(), "C09", 1)
    ('Action card 9 (Assign 2 or Sacrifice 2)', 'Action card 9 (Sacrifice 2)')
    """
    try:
        card = c.card(cid)
    except KeyError:
        return f"Action card {cid}"
    picked = card.actions
    if option is not None and 0 <= option < len(card.actions):
        picked = (card.actions[option],)
    mains = " or ".join(f"{action(a)} {card.value}" for a in picked)
    return f"Action card {card.number} ({mains})"


def enemy(tier: str) -> str:
    """``minor`` -> ``a Minor Enemy`` (``an`` before a vowel)."""
    article = "an" if tier[:1] in "aeiou" else "a"
    return f"{article} {tier.capitalize()} Enemy"


def enemy_cards(cards: Sequence[str]) -> str:
    """The Enemy cards of a Combat by their ids.

    >>> enemy_cards(("E3",)), enemy_cards(("E3", "E4"))
    ('Enemy card E3', 'Enemy cards E3 and E4')
    """
    return f"Enemy card{'s' if len(cards) > 1 else ''} {listing(cards)}"


def icon(ch: str, n: int = 1) -> str:
    """``n`` of one grid icon in words: ``O`` -> ``1 Ore``, ``r`` -> ``a red
    Penalty``, ``h`` twice -> ``2 Enemy hearts``.

    >>> icon("O"), icon("r"), icon("h", 2), icon("O", 3)
    ('1 Ore', 'a red Penalty', '2 Enemy hearts', '3 Ore')
    """
    if ch in ICON_GOOD:
        return f"{n} {good(ICON_GOOD[ch])}"
    one, many = ICONS.get(ch, ("a space", "spaces"))
    return one if n == 1 else f"{n} {many}"


def icons(chars: Sequence[str]) -> str:
    """Icons as a list, each kind counted once, empty spaces left out.

    >>> icons("hrh."), icons("..")
    ('2 Enemy hearts and a red Penalty', '')
    """
    counts: dict[str, int] = {}
    for ch in chars:
        if ch not in ".#":
            counts[ch] = counts.get(ch, 0) + 1
    return listing([icon(ch, n) for ch, n in counts.items()], "")


def hero(view: object, seat: int | None) -> str:
    """A seat by its Character's name (``Aaricia``), as the rulebook names
    heroes; a seat the view has no hero for reads as "nobody"."""
    heroes = getattr(view, "heroes", ())
    if seat is None or not 0 <= seat < len(heroes):
        return "nobody"
    return titled(heroes[seat].character)


def whose(view: object, seat: int, chooser: int) -> str:
    """``your`` for the chooser's own seat, else ``Aaricia's``."""
    return "your" if seat == chooser else f"{hero(view, seat)}'s"


def player(view: object, seat: int, names: Names) -> str:
    """``Aaricia (rita)``: a hero and who plays it, for a board's headings."""
    name = seat_name(names, seat)
    return f"{hero(view, seat)} ({name})"
