"""Thorgal's events in words, for a person reading the log.

Thorgal is cooperative and almost everything is on the table; only a deck's
shuffled order is hidden (admins only), so most sentences read the same for
everyone.  A choice's options read as the answer's name and fields
(``use item Runic Sword``), as the board names them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from domain.words.sentences import (
    Names,
    counted,
    fields_words,
    listing,
    seat_name,
    words,
)

from . import events as ev
from .view import redact

if TYPE_CHECKING:
    from domain.contract.core import Event, Viewer

    from .commands import Option


def option_words(option: Option | None, names: Names) -> str:
    """The one field an :class:`Option` sets, in words (``pick location fjord``)."""
    if option is None:
        return "a tile"
    for name in type(option).model_fields:
        value = getattr(option, name)
        if value is not None:
            return f"{words(name)} {fields_words(value, names)}".strip()
    return "nothing"


def describe(event: Event, viewer: Viewer, names: Names) -> str:
    """One sentence for ``event`` as ``viewer`` may see it."""
    event = redact(event, viewer)

    def who(seat: int | None) -> str:
        return seat_name(names, seat)

    match event:
        case ev.AdventureStarted(seats=seats, characters=characters, first=first):
            heroes = ", ".join(f"{who(s)} as {c}" for s, c in enumerate(characters))
            return f"The adventure begins with {counted(seats, 'hero')} ({heroes}); {who(first)} goes first."
        case ev.DeckShuffled(deck=deck, cards=cards, from_discard=refill, size=size):
            source = " from its discard" if refill else ""
            shown = f": {listing(cards)}" if cards else ""
            return (
                f"The {deck} deck ({counted(size, 'card')}) is shuffled{source}{shown}."
            )
        case ev.CardsDrawn(deck=deck, cards=cards, to=to):
            return f"{listing(cards)} {'is' if len(cards) == 1 else 'are'} drawn from the {deck} deck to the {to}."
        case ev.CardDiscarded(deck=deck, card=card, source=source):
            where = f" from the {source}" if source else ""
            return f"{card} is discarded{where} ({deck})."
        case ev.TasksDropped(n=n):
            return f"A payment falls through: {counted(n, 'step')} will not resolve."
        case ev.ChoiceOffered(pending=pending):
            return f"{who(pending.seat)} must choose: {words(pending.kind)}."
        case ev.ChoiceMade(seat=seat, kind=kind, option=option):
            return (
                f"{who(seat)} answers {words(kind)} with {option_words(option, names)}."
            )
        case ev.TurnBegan(round=round_, turn=turn, seat=seat):
            return f"Round {round_}, turn {turn}: {who(seat)} plays."
        case ev.ChipPlaced(seat=seat, chip=chip, slot=slot, card=card):
            return f"{who(seat)} places chip {chip} on slot {slot} ({card})."
        case ev.ActionPrepared(act=act):
            return f"{who(act.seat)} prepares {words(act.action)} with strength {act.value}."
        case ev.ActionEnded(seat=seat, action=action):
            return f"{who(seat)} finishes {words(action)}."
        case ev.CharacterMoved(seat=seat, area=area, borders=borders):
            return f"{who(seat)} moves to {area} across {counted(borders, 'border')}."
        case ev.GoodsGained(seat=seat, good=good, n=n):
            return f"{who(seat)} gains {n} {good}."
        case ev.GoodsSpent(seat=seat, good=good, n=n):
            return f"{who(seat)} spends {n} {good}."
        case ev.WoundPlaced(seat=seat, shape=shape, cells=cells):
            return f"{who(seat)} takes a {shape} wound on cells {listing(cells)}."
        case ev.WoundRolled(seat=seat, die=die, shape=shape):
            return f"{who(seat)} rolls the {die} die: a {shape} wound."
        case ev.WoundHealed(seat=seat, index=index):
            return f"{who(seat)} heals wound {index + 1}."
        case ev.ThreatsChanged(seat=seat, threats=threats):
            return f"{who(seat)}'s threat track is now {threats}."
        case ev.ExperienceGained(seat=seat, track=track, level=level):
            return f"{who(seat)} reaches level {level} in {track}."
        case ev.ItemGained(seat=seat, item=item, source=source):
            return f"{who(seat)} gains {item} from the {source}."
        case ev.ItemUsed(seat=seat, item=item):
            return f"{who(seat)} uses {item}."
        case ev.SkillUsed(seat=seat, round=round_):
            return f"{who(seat)} uses their skill (round {round_})."
        case ev.SkillRefreshed(seat=seat):
            return f"{who(seat)} refreshes their skill."
        case ev.JourneyTilePlaced(seat=seat, shape=shape, cells=cells):
            return (
                f"{who(seat)} places a {shape} journey tile on cells {listing(cells)}."
            )
        case ev.CollectTokenPlaced(seat=seat, cell=cell):
            return f"{who(seat)} places a collect token on cell {cell}."
        case ev.CollectTokensDiscarded(cells=cells):
            return f"The collect tokens on cells {listing(cells)} are discarded."
        case ev.GoodsAssigned(location=location, good=good, from_seat=from_seat):
            return f"{who(from_seat)} assigns {good} to {location}."
        case ev.AssignedGoodsDiscarded(location=location, goods=goods):
            return (
                f"{counted(len(goods), 'assigned good')} at {location} are discarded."
            )
        case ev.EnemiesChanged(location=location, enemies=enemies):
            return f"The enemies at {location} are now {listing(enemies, 'gone')}."
        case ev.LocationMarked(location=location, token=token, good=good):
            extra = f" ({good})" if good else ""
            return f"{location} is marked with a {token} token{extra}."
        case ev.CombatBegan(combat=combat):
            return f"{who(combat.seat)} fights at {combat.location}: {listing(combat.cards)}."
        case ev.DiceRolled(faces=faces):
            return f"The dice show {listing(faces)}."
        case ev.DieUpgraded(index=index, colour=colour):
            return f"Die {index + 1} is upgraded to {colour}."
        case ev.DieAdded(colour=colour):
            return f"A {colour} die is added."
        case ev.DieRerolled(index=index, face=face):
            return f"Die {index + 1} is rerolled: {face}."
        case ev.CriticalActivated(index=index):
            return f"Die {index + 1}'s critical is activated."
        case ev.CombatTilePlaced(shape=shape, cells=cells):
            return f"A {shape} combat tile covers cells {listing(cells)}."
        case ev.CombatTileDropped(shapes=shapes):
            return f"No room is left for {listing(shapes)}."
        case ev.CombatEnded(won=won, uncovered=uncovered):
            result = "won" if won else "lost"
            return f"The combat is {result} ({counted(uncovered, 'cell')} uncovered)."
        case ev.EntryRead(entry=entry, title=title):
            return f"Entry {entry} is read: {title}."
        case ev.SidePlotChosen(entry=entry, plot=plot):
            return f"Side plot {plot} is chosen at entry {entry}."
        case ev.ActionCardSwapped(old=old, new=new):
            return f"Action card {old} is swapped for {new}."
        case ev.SpecialCardGained(card=card):
            return f"The special card {card} is gained."
        case ev.RoundAdvanced(round=round_):
            return f"Round {round_} begins."
        case ev.ChipsFlipped():
            return "The action chips are flipped."
        case ev.FirstPlayerPassed(first=first):
            return f"{who(first)} becomes first player."
        case ev.AdventureEnded(won=won, reason=reason):
            result = "The heroes win the adventure" if won else "The adventure is lost"
            return f"{result} ({reason})."
    raise TypeError(f"no words for {type(event).__name__}")
