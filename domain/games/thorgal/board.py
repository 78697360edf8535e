"""Thorgal's table laid out from a view, in the rulebook's words.

The open question and its answers, the Event in play, the Action Row with
its Action chips, the Atlas of Adventure (each Area with its Locations,
Enemy tokens and tokens), the Journey (Terrain cards, Journey tiles,
Collect tokens), each Character board (Area, Goods by name, the Wound area
and its Wound tiles, Threats, Experience, Skill, Items), the Item Display
and the decks.  The engine's bookkeeping (the resolution stack, chip slot
numbers, goods as rows of counts) is never shown as such.

Thorgal hides only the decks' order and undrawn cards (admins only); the
layout shows each deck's size and discard, from the view alone.

Targets (:mod:`domain.words.targets`): an Action Row card ``slot:<i>``, an
Action chip ``chip:<i>`` (``TakeAction``); each answer of the open question
carries every pair of its ``Option`` (``location:keep``, or
``location:keep,index:0`` for an Enemy token), and so do the things it
names: an Area ``area:<id>``, a Location ``location:<id>``, an Enemy token
``location:<id>,index:<i>``, an Item ``item:<id>``, a Special Action card
``card:<id>``, a Character ``seat:<s>`` and its goods
``from_seat:<s>,good:<good>``; during a tile question, the cells of its
grid ``row:<r>,col:<c>`` (``PlaceTile``'s corner), during a Heal a Wound
tile's cells ``index:<i>``; a Journey cell ``cell:<n>`` (``CollectAt``).
"""

from __future__ import annotations

from domain.words import board_svg
from domain.words.board_layout import Board, Piece, Section, Zone, laid_out
from domain.words.sentences import Names, listing, seat_name, words
from domain.words.targets import command_pairs, pair, targets

from .board_grids import combat_grid, journey, wound_grid
from .board_words import QUESTIONS, effect_words, goods_words, named, option_words
from .commands import Option
from .content import GOODS, Content, load
from .state import Hero, Site
from .view import ThorgalView


def _pairs_of(option: Option) -> str:
    return ",".join(sorted(command_pairs(option)))


def _item(c: Content | None, item_id: str, *alts: str | None) -> Piece:
    try:
        item = c.item(item_id) if c is not None else None
    except KeyError:
        item = None
    if item is None:
        return Piece(named(item_id), item_id, targets=targets(*alts))
    does = listing([effect_words(x) for x in (*item.mods, *item.effects)], "")
    said = f"{named(item_id)} (Item for {item.action}, {item.timing} it: {does})"
    return Piece(
        named(item_id),
        said,
        (f"{item.action} · {item.timing}", does),
        None,
        targets(*alts),
    )


def _row_card(c: Content | None, slot: int, card_id: str, chips: str) -> Piece:
    try:
        card = c.card(card_id) if c is not None else None
    except KeyError:
        card = None
    if card is None:
        return Piece(card_id, card_id, targets=pair("slot", slot))
    actions = " or ".join(named(a) for a in card.actions)
    bonus = ""
    if card.bonus is not None:
        when = {"only": "alone", "left": "per chip left", "below": "per chip here"}
        bonus = f"bonus {when.get(card.bonus.when, card.bonus.when)}: " + listing(
            [effect_words(x) for x in (*card.bonus.mods, *card.bonus.effects)]
        )
    said = f"Action card {card.number}: {actions} {card.value}" + (
        f", {bonus}" if bonus else ""
    )
    if chips:
        said += f"; {chips}"
    return Piece(
        f"{actions} {card.value}",
        said,
        (
            f"card {card.number}",
            *([chips] if chips else []),
            *([bonus] if bonus else []),
        ),
        None,
        pair("slot", slot),
    )


def _hero(view: ThorgalView, c: Content | None, h: Hero, names: Names) -> Section:
    pending = view.pending
    try:
        character = c.character(h.character) if c is not None else None
    except KeyError:
        character = None
    skill = character.skill.name if character is not None else "Skill"
    facts = [
        f"in the {named(h.area)}",
        f"{h.threats} Threat{'s' if h.threats != 1 else ''}",
        f"Experience: Combat {h.combat_level}, Journey {h.journey_level}",
        f"Skill {skill} {'ready' if h.skill_active else 'used'}",
    ]
    if pending is not None and pending.seat == h.seat:
        facts.append("to answer")
    goods = tuple(
        Piece(
            f"{n} {g}",
            f"{n} {g}",
            colour=g,
            targets=",".join((pair("from_seat", h.seat), pair("good", g))),
        )
        for g, n in zip(GOODS, h.goods, strict=False)
        if n
    )
    placing = (
        pending is not None and pending.kind == "place_wound" and pending.seat == h.seat
    )
    healing = pending is not None and pending.kind == "heal" and pending.seat == h.seat
    return Section(
        f"{seat_name(names, h.seat)} · {named(h.character)}",
        tuple(facts),
        (
            Zone("Goods", goods, compact=True),
            Zone(
                "Wound area",
                note=f"{len(h.wounds)} Wound tile{'s' if len(h.wounds) != 1 else ''}",
                grid=wound_grid(c, h, placing, healing),
            ),
            Zone("Items", tuple(_item(c, i, pair("item", i)) for i in h.items)),
        ),
        pair("seat", h.seat),
        seat=h.seat,
        highlight=pending is not None and pending.seat == h.seat,
    )


def _site(c: Content | None, s: Site) -> Zone:
    try:
        loc = c.location(s.id) if c is not None else None
    except KeyError:
        loc = None
    what = []
    if loc is not None and loc.action != "none":
        cost = f" {listing(list(loc.cost))}" if loc.cost else ""
        what.append(f"{named(loc.action)}{cost}")
    if loc is not None and loc.effects:
        what.append("gives " + listing([effect_words(e) for e in loc.effects]))
    pieces = [
        Piece(
            f"{named(kind)} Enemy",
            f"{named(kind)} Enemy token {i + 1} at the {named(s.id)}",
            colour="black",
            targets=",".join((pair("location", s.id), pair("index", i))),
        )
        for i, kind in enumerate(s.enemies)
    ]
    for on, token in (
        (s.blockade, "Blockade"),
        (s.cover, "Sacrifice cover"),
        (s.entry_token, "Entry token"),
    ):
        if on:
            pieces.append(Piece(token, f"{token} at the {named(s.id)}", colour="grey"))
    if s.cost_tokens:
        pieces.append(
            Piece(
                f"{s.cost_tokens} Cost", f"{s.cost_tokens} Cost tokens", colour="grey"
            )
        )
    if any(s.assigned):
        assigned = goods_words(s.assigned)
        pieces.append(
            Piece(f"assigned {assigned}", f"assigned: {assigned}", colour="gold")
        )
    return Zone(
        named(s.id),
        tuple(pieces),
        note="; ".join(what),
        targets=pair("location", s.id),
        compact=True,
    )


def _atlas(view: ThorgalView, c: Content | None, names: Names) -> list[Section]:
    if c is None:
        return []
    sites = {s.id: s for s in view.sites}
    out = []
    for area in c.areas:
        here = [seat_name(names, h.seat) for h in view.heroes if h.area == area.id]
        borders = [
            f"{named(b.b if b.a == area.id else b.a)} ({b.kind}"
            + (f" x{b.count}" if b.count != 1 else "")
            + ")"
            for b in c.borders
            if area.id in (b.a, b.b)
        ]
        facts = [
            f"Area {area.number}" + ("" if area.number <= view.round else ", closed"),
            f"Goods: {listing(list(area.sources), 'none')}",
            f"Characters here: {listing(here, 'none')}",
            f"Borders: {listing(borders, 'none')}",
        ]
        zones = tuple(
            _site(c, sites[loc.id])
            for loc in c.locations
            if area.id in loc.areas and loc.id in sites and loc.areas[0] == area.id
        )
        out.append(
            Section(f"{named(area.id)}", tuple(facts), zones, pair("area", area.id))
        )
    return out


def _question(view: ThorgalView, names: Names) -> Section | None:
    p = view.pending
    if p is None:
        return None
    asked = QUESTIONS.get(p.kind, words(p.kind))
    facts = []
    if view.act is not None:
        a = view.act
        facts.append(f"{seat_name(names, a.seat)}'s {named(a.action)}, value {a.value}")
        if a.dice:
            facts.append("dice: " + listing(list(a.dice)))
    if p.shapes:
        facts.append("tile shapes: " + listing(list(p.shapes)))
    answers = tuple(
        Piece(option_words(o, names), option_words(o, names), targets=_pairs_of(o))
        for o in p.options
    )
    return Section(
        f"{seat_name(names, p.seat)}: {asked}",
        tuple(facts),
        (Zone("answers", answers, compact=True),) if answers else (),
        highlight=True,
    )


def _row(view: ThorgalView, c: Content | None, names: Names) -> Section:
    under: dict[int, list[str]] = {}
    for i, chip in enumerate(view.chips):
        if chip.slot >= 0:
            under.setdefault(chip.slot, []).append(f"chip {i + 1}")
    row = tuple(
        _row_card(c, slot, card, listing(under.get(slot, []), ""))
        for slot, card in enumerate(view.row)
    )
    chips = tuple(
        Piece(
            f"chip {i + 1}",
            f"Action chip {i + 1}: "
            + ("placed" if chip.slot >= 0 else "ready")
            + ("" if chip.active else ", flipped"),
            colour="gold" if chip.active else "grey",
            targets=pair("chip", i),
            marked="" if chip.active else "used",
        )
        for i, chip in enumerate(view.chips)
    )
    specials = tuple(
        Piece(f"Special {s}", f"Special Action card {s}", targets=pair("card", s))
        for s in view.specials
    )
    return Section(
        "Action Row",
        (),
        (
            Zone("Action cards", row),
            Zone("Action chips", chips, compact=True),
            *(
                (Zone("Special Action cards", specials, compact=True),)
                if specials
                else ()
            ),
        ),
    )


def _pack() -> Content | None:
    try:
        return load()
    except Exception:  # a missing pack: draw ids only  # noqa: BLE001
        return None


@laid_out(ThorgalView)
def layout(view: ThorgalView, names: Names) -> Board:
    """The table as the view's viewer may see it."""
    c = _pack()
    facts = [
        f"round {view.round} of {view.rounds}",
        f"turn {view.turn + 1}",
        f"{words(view.phase)} phase",
        f"first player {seat_name(names, view.first)}",
    ]
    if view.active_event:
        title = view.active_event
        if c is not None:
            try:
                title = f"{view.active_event} {c.event(view.active_event).title}"
            except KeyError:
                pass
        facts.append(f"Event: {title}")
    if view.result:
        facts.append(f"result: {words(view.result)}")
    question = _question(view, names)
    decks = tuple(
        Piece(
            f"{named(d.name)} {d.size}",
            f"{named(d.name)} deck: {d.size} cards"
            + (f", discard {listing(list(d.discard))}" if d.discard else ""),
        )
        for d in view.decks
    )
    table = Section(
        "Journey, Items and decks",
        (),
        (
            journey(view, c),
            Zone(
                "Item Display",
                tuple(_item(c, i, pair("item", i)) for i in view.display),
            ),
            Zone("decks", decks, compact=True),
            *(
                (
                    Zone(
                        "Entries read",
                        tuple(
                            Piece(e.title, f"{e.title}: {e.text}") for e in view.entries
                        ),
                        compact=True,
                    ),
                )
                if view.entries
                else ()
            ),
        ),
    )
    combat = _combat(view, c, names)
    return Board(
        "thorgal",
        "Thorgal",
        tuple(facts),
        (
            *((question,) if question else ()),
            *((combat,) if combat else ()),
            _row(view, c, names),
            *(_hero(view, c, h, names) for h in view.heroes),
            *_atlas(view, c, names),
            table,
        ),
    )


def _combat(view: ThorgalView, c: Content | None, names: Names) -> Section | None:
    fight = view.combat
    if fight is None:
        return None

    def faces(i: int) -> str:
        colour = fight.dice[i]
        if not fight.rolled or i >= len(fight.faces) or c is None:
            return f"{colour}, not rolled"
        try:
            face = c.die(colour).faces[fight.faces[i]]
        except (KeyError, IndexError):
            return colour
        white, _, critical = face.partition(":")
        lit = i < len(fight.critical) and fight.critical[i]
        shown = critical if lit else white
        spare = f" (Critical {critical})" if critical and not lit else ""
        return f"{colour}: {shown} tile{spare}"

    grid = combat_grid(view, fight)
    return Section(
        f"Combat at the {named(fight.location)}",
        (
            f"{seat_name(names, fight.seat)} fights",
            "Enemy cards: " + listing(list(fight.cards)),
            f"{len(fight.placed)} Combat tiles placed",
        ),
        (
            Zone("Enemy cards", note=listing(list(fight.cards)), grid=grid),
            Zone(
                "dice",
                tuple(
                    Piece(
                        faces(i),
                        f"die {i + 1}: {faces(i)}",
                        colour=fight.dice[i],
                        targets=pair("die", i),
                    )
                    for i in range(len(fight.dice))
                ),
                compact=True,
            ),
        ),
        highlight=True,
    )


board = board_svg.drawing(ThorgalView, layout)
