"""Thalara's table laid out from a view: conflicts, then each seat.

Laid out only from :class:`~.view.ThalaraView`, so another seat's hand and
supply are face-down counts (the view holds no card of them).  Card ids are
looked up in the game's content pack for their strength, colour and
victory points; spells for their requirement and effect.

Targets (:mod:`domain.words.targets`): a hand card ``card:<id>``,
``cards:<id>`` and ``target:<id>`` (``PlayCard``; ``ReturnRemnants``; the
target of the spell cast with it), a supply card
``cards:<id>`` (``SelectHand``), a conflict and its Artifact
``conflict:<artifact>``, a card in a conflict ``target:<id>`` (a spell's
target), a spell ``spell:<id>``.
"""

from __future__ import annotations

from domain.words import board_svg
from domain.words.board_layout import Board, Piece, Section, Zone, end_facts, laid_out
from domain.words.sentences import Names, listing, seat_name, words
from domain.words.targets import pair, targets

from .content import CardInfo, Spell, catalogue, characters, spells
from .view import ConflictView, PlayerView, ThalaraView


def card_words(card: str, info: CardInfo | None) -> str:
    """``r05@1 (Remnant, strength 5, red)``; an id the pack lacks is its id."""
    if info is None:
        return card
    points = f", {info.victory_points} VP" if info.kind == "artifact" else ""
    return f"{card} ({info.kind.capitalize()}, strength {info.strength}, {info.colour}{points})"


def _card(view: ThalaraView, card: str, *alts: str | None, marked: str = "") -> Piece:
    info = catalogue(view.content, len(view.players)).get(card)
    said = card_words(card, info)
    if marked:
        said += f", {marked}"
    if info is None:
        return Piece(card, said, targets=targets(*alts), marked=marked)
    detail = [info.colour]
    if info.kind == "artifact":
        detail.append(f"{info.victory_points} VP")
    detail.append(card)
    return Piece(
        str(info.strength),
        said,
        tuple(detail),
        info.colour,
        targets(*alts),
        marked,
    )


def _effect(spell: Spell) -> str:
    e = spell.effect
    if e.kind == "bonus":
        return f"+{e.amount} strength to the caster here"
    if e.kind == "weaken":
        return f"-{e.amount} strength to every opponent here"
    whose = {"opponent": "an opponent's", "own": "your own", "any": "any"}[
        e.target or "any"
    ]
    most = (
        f" of strength {e.max_strength} or less" if e.max_strength is not None else ""
    )
    verb = "destroy" if e.kind == "destroy" else "return to its owner's hand"
    return f"{verb} {whose} card{most}"


def _spell(view: ThalaraView, spell_id: str, used: bool) -> Piece:
    spell = spells(view.content).get(spell_id)
    if spell is None:
        return Piece(spell_id, spell_id, targets=pair("spell", spell_id))
    needs = listing(list(spell.requirement))
    said = f"{spell.name} (needs {needs}: {_effect(spell)})" + (
        ", used this round" if used else ""
    )
    return Piece(
        spell.name,
        said,
        (" ".join(spell.requirement), "used" if used else _effect(spell)),
        spell.requirement[0] if len(set(spell.requirement)) == 1 else None,
        pair("spell", spell_id),
        "used" if used else "",
    )


def _conflict(view: ThalaraView, c: ConflictView, names: Names) -> Section:
    by_seat: dict[int, list[Piece]] = {}
    for p in c.plays:
        by_seat.setdefault(p.owner, []).append(
            _card(
                view,
                p.card,
                pair("target", p.card),
                marked="destroyed" if p.destroyed else "",
            )
        )
    zones = [
        Zone(
            "Artifact",
            (_card(view, c.artifact, pair("conflict", c.artifact)),),
        ),
        *(
            Zone(f"{seat_name(names, seat)}'s cards", tuple(pieces))
            for seat, pieces in sorted(by_seat.items())
        ),
    ]
    if c.spells:
        zones.append(
            Zone(
                "spells here",
                tuple(
                    Piece(
                        f"{_spell_name(view, s.spell)} ({seat_name(names, s.caster)})",
                        f"{_spell_name(view, s.spell)} cast by {seat_name(names, s.caster)}"
                        + (f" on {s.target}" if s.target else ""),
                    )
                    for s in c.spells
                ),
                compact=True,
            )
        )
    totals = tuple(
        f"{seat_name(names, seat)} {total}" for seat, total in enumerate(c.totals)
    )
    return Section(
        f"Conflict for Artifact {c.artifact}",
        ("strength " + ", ".join(totals),) if totals else (),
        tuple(zones),
        pair("conflict", c.artifact),
    )


def _spell_name(view: ThalaraView, spell_id: str) -> str:
    spell = spells(view.content).get(spell_id)
    return spell.name if spell is not None else spell_id


def _seat(view: ThalaraView, p: PlayerView, names: Names) -> Section:
    acting = p.seat in view.to_act
    facts = [
        f"{p.score} VP",
        *(["passed"] if p.passed else []),
        *(["ready"] if p.ready and view.phase != "play" else []),
        *(["to act"] if acting else []),
    ]
    character = characters(view.content).get(p.character)
    spell_ids = [s.id for s in character.spells] if character is not None else []
    return Section(
        f"{seat_name(names, p.seat)} · {character.name if character else p.character}",
        tuple(facts),
        (
            Zone(
                "hand",
                tuple(
                    _card(view, c, pair("card", c), pair("cards", c), pair("target", c))
                    for c in p.hand
                ),
                0 if p.hand else p.hand_size,
            ),
            Zone(
                "supply",
                tuple(_card(view, c, pair("cards", c)) for c in p.supply),
                0 if p.supply else p.supply_size,
                compact=True,
            ),
            Zone("discard", tuple(_card(view, c) for c in p.discard), compact=True),
            Zone("Artifacts won", tuple(_card(view, c) for c in p.won), compact=True),
            Zone(
                "spells",
                tuple(_spell(view, s, s in p.spells_used) for s in spell_ids),
            ),
        ),
        seat=p.seat,
        highlight=acting,
    )


@laid_out(ThalaraView)
def layout(view: ThalaraView, names: Names) -> Board:
    """The table as the view's viewer may see it."""
    facts = [
        words(view.mode),
        f"round {view.round}",
        f"{words(view.phase)} phase",
        f"Artifact stack {view.stack_size} cards",
    ]
    if view.to_act:
        facts.append("to act: " + listing([seat_name(names, s) for s in view.to_act]))
    return Board(
        "thalara",
        "Thalara",
        (*facts, *end_facts(view.end_reason)),
        (
            *(_conflict(view, c, names) for c in view.conflicts),
            *(_seat(view, p, names) for p in view.players),
        ),
    )


board = board_svg.drawing(ThalaraView, layout)
