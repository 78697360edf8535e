"""Vaalbara's table laid out from a view: the Omens, the two Land rows, each clan.

Laid out only from :class:`~.view.VaalbaraView`: another clan's hand,
deck, face-down character and VP are what the view holds of them (counts,
or nothing).  Lands are looked up in the content pack for their type and
Forest value; characters carry their initiative and the rulebook's effect.

Targets (:mod:`domain.words.targets`): a first-row Land ``card:<id>`` and
``first:<id>`` (``TakeLand``, ``TrackLand``; the Rider's ``SwapLands``), a
second-row Land ``card:<id>`` and ``second:<id>``; a Realm Land
``card:<id>`` (the Pioneer's swap); a character in hand or discard
``character:<name>`` (``ChooseCharacter``, the Midwife's take-back); a
clan ``target:<seat>`` (the Bard's gift; the seat as the command counts it,
from 0).
"""

from __future__ import annotations

from domain.words import board_svg
from domain.words.board_layout import Board, Piece, Section, Zone, laid_out
from domain.words.sentences import Names, seat_name, words
from domain.words.targets import pair, targets

from .content import INITIATIVE, LANDS, ROUNDS
from .view import PlayerView, VaalbaraView

EFFECTS: dict[str, str] = {
    "fighter": "all with a Fighter may reveal her for 1 VP",
    "bard": "another player gains 2 VP",
    "hunter": "3 VP if you play before your neighbours",
    "oracle": "2 VP per neighbour who played an odd initiative",
    "carpenter": "3 VP per Forest in your Realm",
    "falconer": "steal 2 VP from the player before you",
    "tracker": "swap a row Land with the Land deck's top card",
    "midwife": "take a character back from your discard",
    "rider": "swap a first-row Land with a second-row Land",
    "crafter": "5 VP if you play after your neighbours",
    "pioneer": "swap a Realm Land with the deck's bottom card",
    "farmer": "double this round's Land reward",
}
"""Each character's effect, in the rulebook's words, shortened."""

REWARDS: dict[str, str] = {
    "meadow": "1 VP per Meadow in your and your neighbours' Realms",
    "forest": "its value in VP",
    "mountain": "10 VP for the 2nd Mountain, 20 more for the 4th",
    "field": "2 VP per Field in your Realm",
    "village": "2 VP per Land type in your Realm",
    "river": "initiative played (max 6) x Rivers in your Realm",
}
"""Each Land type's reward, in the rulebook's words, shortened."""


def land_words(land_id: str) -> str:
    """``L07 (Forest, value 5: its value in VP)``."""
    land = LANDS.get(land_id)
    if land is None:
        return land_id
    value = f", value {land.value}" if land.value is not None else ""
    return f"{land_id} ({land.type.capitalize()}{value}: {REWARDS.get(land.type, '')})"


def _land(land_id: str, *alts: str | None) -> Piece:
    land = LANDS.get(land_id)
    if land is None:
        return Piece(land_id, land_id, targets=targets(*alts))
    label = land.type.capitalize()
    return Piece(
        label,
        land_words(land_id),
        (*([f"value {land.value}"] if land.value is not None else []), land_id),
        land.type,
        targets(*alts),
    )


def character_words(name: str) -> str:
    """``hunter (initiative 3: 3 VP if you play before your neighbours)``."""
    return f"{name} (initiative {INITIATIVE.get(name, '?')}: {EFFECTS.get(name, '')})"


def _character(name: str, *alts: str | None, marked: str = "") -> Piece:
    return Piece(
        str(INITIATIVE.get(name, "?")),
        character_words(name) + (f", {marked}" if marked else ""),
        (name.capitalize(), EFFECTS.get(name, "")),
        None,
        targets(*alts),
        marked,
    )


def _seat(view: VaalbaraView, p: PlayerView, names: Names) -> Section:
    acting = p.seat in view.to_act
    chosen = None
    if p.chosen is not None:
        chosen = _character(p.chosen, marked="chosen, face down to the others")
    facts = [
        f"{p.vp} VP" if p.vp is not None else "VP hidden",
        f"clan deck {p.deck_size} cards",
        *(["character chosen"] if p.has_chosen and p.chosen is None else []),
        *(["to act"] if acting else []),
    ]
    zones = [
        Zone(
            "hand",
            tuple(_character(c, pair("character", c)) for c in p.hand),
            0 if p.hand else p.hand_size,
        ),
    ]
    if chosen is not None:
        zones.append(Zone("chosen character", (chosen,)))
    if p.played is not None:
        zones.append(Zone("played this round", (_character(p.played),)))
    zones += [
        Zone("Realm", tuple(_land(c, pair("card", c)) for c in p.realm), compact=True),
        Zone(
            "discard",
            tuple(_character(c, pair("character", c)) for c in p.discard),
            compact=True,
        ),
    ]
    return Section(
        f"{seat_name(names, p.seat)} · {p.clan} clan",
        tuple(facts),
        tuple(zones),
        pair("target", p.seat),
        seat=p.seat,
        highlight=acting,
    )


@laid_out(VaalbaraView)
def layout(view: VaalbaraView, names: Names) -> Board:
    """The table as the view's viewer may see it."""
    facts = [
        f"round {view.round} of {ROUNDS}",
        f"{words(view.phase)} phase",
        f"Land deck {view.land_deck_size} cards",
        "Omens: " + " > ".join(view.omens),
    ]
    if view.current is not None:
        facts.append(f"turn: {seat_name(names, view.current)}")
    if view.step:
        facts.append(f"step: {words(view.step)}")
    if view.final_scores:
        facts.append(
            "final: "
            + ", ".join(
                f"{seat_name(names, s)} {v}" for s, v in enumerate(view.final_scores)
            )
        )
    rows = Section(
        "Land rows",
        (),
        (
            Zone(
                "first row",
                tuple(
                    _land(c, pair("card", c), pair("first", c)) for c in view.first_row
                ),
            ),
            Zone(
                "second row",
                tuple(
                    _land(c, pair("card", c), pair("second", c))
                    for c in view.second_row
                ),
            ),
        ),
    )
    return Board(
        "vaalbara",
        "Vaalbara",
        tuple(facts),
        (rows, *(_seat(view, p, names) for p in view.players)),
    )


board = board_svg.drawing(VaalbaraView, layout)
