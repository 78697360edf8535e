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
from domain.words.board_layout import (
    Board,
    Cell,
    Grid,
    Piece,
    Section,
    Zone,
    laid_out,
    pair,
    targets,
)
from domain.words.sentences import Names, fields_words, listing, seat_name, words
from domain.words.targets import command_pairs

from .cards import Effect, Mod, _Shorthand
from .commands import Option
from .content import GOODS, ICON_GOOD, Content, load
from .state import WIDTH, Hero, Site
from .view import ThorgalView

QUESTIONS: dict[str, str] = {
    "prepare": "use an Item or the Skill before the action, or begin it",
    "move": "choose where to Move",
    "collect": "choose the good to Collect",
    "assign": "choose the Location to Assign Goods to",
    "assign_good": "choose a Good to Assign",
    "consent": "agree to share Goods, or refuse",
    "pay_consent": "agree to pay from their supply, or refuse",
    "pay_from": "choose who pays",
    "group_pay": "choose who discards",
    "cost_good": "choose the Good the Cost token raises",
    "area_good": "choose a Good of the Area",
    "sacrifice": "choose the Location to Sacrifice at",
    "target": "choose the Enemy to fight",
    "upgrade": "choose the Enemy to Upgrade",
    "degrade": "choose the Enemy to Degrade",
    "place_enemy": "choose where the Enemy goes",
    "enemy_order": "lay out the Enemy cards, left to right",
    "upgrade_die": "upgrade dice before the Combat roll",
    "combat_mod": "reroll dice or activate Criticals",
    "heal": "choose a Wound tile to Heal",
    "after_item": "use an Item after the action",
    "place_wound": "place a Wound tile on the Wound area",
    "place_journey": "place a Journey tile on the Terrain cards",
    "place_combat": "place a Combat tile on the Enemy cards",
}
"""Each open question's kind, as the rulebook asks it of a player."""

ICONS: dict[str, str] = {
    ".": "empty",
    "*": "the Area's good",
    "H": "Heal",
    "X": "Experience",
    "D": "Discovery card",
    "r": "red penalty",
    "y": "yellow penalty",
    "R": "the Area's good and a red penalty",
    "Y": "the Area's good and a yellow penalty",
    "h": "Enemy heart",
    **ICON_GOOD,
}


def _named(text: str) -> str:
    return text.replace("_", " ").title()


def effect_words(e: _Shorthand) -> str:
    """``gain material 1``, ``reroll 2``: a card's shorthand, spaced as words."""
    if isinstance(e, Mod):
        also = f" ({e.action})" if e.action else ""
        return " ".join(p for p in (words(e.kind), str(e.n), e.arg) if p) + also
    assert isinstance(e, Effect), e
    if e.op == "heal":
        return f"heal {e.n}" + (f" (tiles up to size {e.arg})" if e.arg else "")
    if e.arg and e.n == 1 and not e.arg.isalpha():
        return f"{words(e.op)} {e.arg}"
    return " ".join(p for p in (words(e.op), str(e.n), e.arg) if p)


def _goods(counts: tuple[int, ...]) -> str:
    return listing(
        [f"{n} {g}" for g, n in zip(GOODS, counts, strict=False) if n], "none"
    )


def _pairs_of(option: Option) -> str:
    return ",".join(sorted(command_pairs(option)))


def _option_words(option: Option, names: Names) -> str:
    """An answer as a player says it: ``agree``, ``move to the Forest crossing
    1 Red border``, ``1 ore from sam``; a kind without a phrase here reads
    as its name and fields."""
    name, v = option.chosen()
    if name == "proceed":
        return "go on"
    if name == "consent":
        return "agree" if v.agree else "refuse"
    if name == "move_to":
        crossing = [
            f"{n} {k} border{'s' if n != 1 else ''}"
            for k, n in (("Red", v.reds), ("Blue", v.blues))
            if n
        ]
        return f"move to the {_named(v.area)}" + (
            f" crossing {listing(crossing)}" if crossing else ""
        )
    if name == "give_good":
        return f"1 {v.good} from {seat_name(names, v.from_seat)}"
    if name == "pick_enemy":
        return f"Enemy token {v.index + 1} at the {_named(v.location)}"
    if name == "pick_location":
        return f"the {_named(v.location)}"
    if name == "pick_payer":
        return f"{seat_name(names, v.seat)} pays"
    if name in ("use_item", "take_item", "discard_item"):
        return f"{words(name).split()[0]} {_named(v.item)}"
    if name in ("use_skill", "refresh_skill", "cancel_payment"):
        return {"use_skill": "use the Skill", "refresh_skill": "refresh the Skill"}.get(
            name, "cancel the payment"
        )
    said = fields_words(v, names)
    return f"{words(name)} {said}".strip()


def _item(c: Content | None, item_id: str, *alts: str | None) -> Piece:
    try:
        item = c.item(item_id) if c is not None else None
    except KeyError:
        item = None
    if item is None:
        return Piece(_named(item_id), item_id, targets=targets(*alts))
    does = listing([effect_words(x) for x in (*item.mods, *item.effects)], "")
    said = f"{_named(item_id)} (Item for {item.action}, {item.timing} it: {does})"
    return Piece(
        _named(item_id),
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
    actions = " or ".join(_named(a) for a in card.actions)
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


def _wound_grid(
    c: Content | None, h: Hero, placing: bool, healing: bool
) -> Grid | None:
    if c is None:
        return None
    try:
        rows = c.character(h.character).wound_rows
    except KeyError:
        return None
    tile_of = {cell: i for i, t in enumerate(h.wounds) for cell in t.cells}
    out = []
    for r, line in enumerate(rows):
        cells = []
        for col, icon in enumerate(line):
            enc = r * WIDTH + col
            corner = ",".join((pair("row", r), pair("col", col)))
            if icon == "#":
                cells.append(Cell(blank=True, targets=corner if placing else ""))
            elif enc in tile_of:
                i = tile_of[enc]
                cells.append(
                    Cell(
                        "W",
                        "red",
                        f"Wound tile {i + 1} ({h.wounds[i].shape})",
                        targets(
                            pair("index", i) if healing else None,
                            corner if placing else None,
                        ),
                    )
                )
            else:
                cells.append(Cell("", None, "free", corner if placing else ""))
        out.append(tuple(cells))
    return Grid(tuple(out), "W: a Wound tile")


def _hero(view: ThorgalView, c: Content | None, h: Hero, names: Names) -> Section:
    pending = view.pending
    try:
        character = c.character(h.character) if c is not None else None
    except KeyError:
        character = None
    skill = character.skill.name if character is not None else "Skill"
    facts = [
        f"in the {_named(h.area)}",
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
        f"{seat_name(names, h.seat)} · {_named(h.character)}",
        tuple(facts),
        (
            Zone("Goods", goods, compact=True),
            Zone(
                "Wound area",
                note=f"{len(h.wounds)} Wound tile{'s' if len(h.wounds) != 1 else ''}",
                grid=_wound_grid(c, h, placing, healing),
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
        what.append(f"{_named(loc.action)}{cost}")
    if loc is not None and loc.effects:
        what.append("gives " + listing([effect_words(e) for e in loc.effects]))
    pieces = [
        Piece(
            f"{_named(kind)} Enemy",
            f"{_named(kind)} Enemy token {i + 1} at the {_named(s.id)}",
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
            pieces.append(Piece(token, f"{token} at the {_named(s.id)}", colour="grey"))
    if s.cost_tokens:
        pieces.append(
            Piece(
                f"{s.cost_tokens} Cost", f"{s.cost_tokens} Cost tokens", colour="grey"
            )
        )
    if any(s.assigned):
        assigned = _goods(s.assigned)
        pieces.append(
            Piece(f"assigned {assigned}", f"assigned: {assigned}", colour="gold")
        )
    return Zone(
        _named(s.id),
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
            f"{_named(b.b if b.a == area.id else b.a)} ({b.kind}"
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
            Section(f"{_named(area.id)}", tuple(facts), zones, pair("area", area.id))
        )
    return out


def _journey(view: ThorgalView, c: Content | None) -> Zone:
    if c is None or not view.terrain:
        return Zone("Terrain cards", note="none")
    try:
        cards = [c.terrain_card(t).rows for t in view.terrain]
    except KeyError:
        return Zone("Terrain cards", tuple(Piece(t, t) for t in view.terrain))
    path = {cell for t in view.path for cell in t.cells}
    tokens = set(view.collect_tokens)
    placing = view.pending is not None and view.pending.kind == "place_journey"
    rows = []
    for r in range(max(len(x) for x in cards)):
        line = "".join(card[r] if r < len(card) else "" for card in cards)
        cells = []
        for col, icon in enumerate(line):
            enc = r * WIDTH + col
            said = ICONS.get(icon, icon)
            alts = [pair("cell", enc)]
            if placing:
                alts.append(",".join((pair("row", r), pair("col", col))))
            if icon == "#":
                cells.append(Cell(blank=True, targets=targets(*alts[1:])))
            elif enc in path:
                cells.append(
                    Cell("J", "sky", f"Journey tile on {said}", targets(*alts))
                )
            elif enc in tokens:
                cells.append(
                    Cell("C", "gold", f"Collect token on {said}", targets(*alts))
                )
            else:
                text = "" if icon == "." else icon
                cells.append(Cell(text, ICON_GOOD.get(icon), said, targets(*alts)))
        rows.append(tuple(cells))
    legend = (
        "J Journey tile, C Collect token; M material, O ore, G gossip, A magic,"
        " F fate, W power, * the Area's good, H Heal, X Experience,"
        " D Discovery, r/y red/yellow penalty"
    )
    return Zone(
        "Terrain cards",
        note=listing(list(view.terrain)),
        grid=Grid(tuple(rows), legend),
    )


def _question(view: ThorgalView, names: Names) -> Section | None:
    p = view.pending
    if p is None:
        return None
    asked = QUESTIONS.get(p.kind, words(p.kind))
    facts = []
    if view.act is not None:
        a = view.act
        facts.append(
            f"{seat_name(names, a.seat)}'s {_named(a.action)}, value {a.value}"
        )
        if a.dice:
            facts.append("dice: " + listing(list(a.dice)))
    if p.shapes:
        facts.append("tile shapes: " + listing(list(p.shapes)))
    answers = tuple(
        Piece(_option_words(o, names), _option_words(o, names), targets=_pairs_of(o))
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
            f"{_named(d.name)} {d.size}",
            f"{_named(d.name)} deck: {d.size} cards"
            + (f", discard {listing(list(d.discard))}" if d.discard else ""),
        )
        for d in view.decks
    )
    table = Section(
        "Journey, Items and decks",
        (),
        (
            _journey(view, c),
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

    placing = view.pending is not None and view.pending.kind == "place_combat"
    covered = {cell for tile in fight.placed for cell in tile.cells}
    rows = []
    for r, line in enumerate(fight.rows):
        cells = []
        for col, icon in enumerate(line):
            corner = ",".join((pair("row", r), pair("col", col))) if placing else ""
            if icon == "#":
                cells.append(Cell(blank=True, targets=corner))
            elif r * WIDTH + col in covered:
                cells.append(Cell("T", "sky", "covered by a Combat tile", corner))
            else:
                said = ICONS.get(icon, icon)
                text = "" if icon == "." else icon
                colour = "red" if icon == "h" else ICON_GOOD.get(icon)
                cells.append(Cell(text, colour, said, corner))
        rows.append(tuple(cells))
    grid = Grid(
        tuple(rows),
        "h Enemy heart (cover every heart to win), T Combat tile,"
        " r/y red/yellow penalty, X Experience",
    )
    return Section(
        f"Combat at the {_named(fight.location)}",
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
