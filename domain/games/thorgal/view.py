"""Views and redaction: Thorgal is cooperative, so nearly everything is public.

Hidden from everyone but admins: the order and identity of undrawn cards of
every deck (Event, Terrain, Discovery, Item, Enemy).  Entries' texts appear only
once read (they are only in ``EntryRead`` events and ``entries``).
"""

from __future__ import annotations

from domain.contract.core import Event, Model, Viewer
from domain.games.kit import mirror

from . import events as ev
from .content import load
from .state import (
    Act,
    Chip,
    Combat,
    Deck,
    Hero,
    Pending,
    Site,
    Task,
    ThorgalState,
    Tile,
)


class DeckView(Model):
    name: str
    size: int
    discard: tuple[str, ...] = ()


class EntryView(Model):
    id: str
    title: str
    text: str


class ThorgalView(Model):
    players: int
    seats: int
    phase: str
    round: int
    rounds: int
    turn: int
    first: int
    heroes: tuple[Hero, ...]
    sites: tuple[Site, ...]
    row: tuple[str, ...]
    specials: tuple[str, ...]
    chips: tuple[Chip, ...]
    terrain: tuple[str, ...]
    path: tuple[Tile, ...]
    collect_tokens: tuple[int, ...]
    decks: tuple[DeckView, ...]
    display: tuple[str, ...]
    active_event: str
    entries: tuple[EntryView, ...]
    tasks: tuple[Task, ...]
    pending: Pending | None = None
    act: Act | None = None
    combat: Combat | None = None
    result: str
    reason: str
    deck_orders: tuple[Deck, ...] = ()
    """Admins only."""


def view(state: ThorgalState, viewer: Viewer) -> ThorgalView:
    """The table as ``viewer`` sees it: the state's own fields, except decks.

    Fields the view shares with the state are copied by
    :func:`~domain.games.kit.mirror`; only the decks (contents hidden), the
    adventure's length and the read Entries' texts are built here.
    """
    c = load(state.content)
    return mirror(
        ThorgalView,
        state,
        rounds=c.adventure.rounds,
        decks=tuple(
            DeckView(name=d.name, size=len(d.cards), discard=d.discard)
            for d in state.decks
        ),
        entries=tuple(
            EntryView(id=e, title=c.entry(e).title, text=c.entry(e).text)
            for e in state.entries_read
        ),
        deck_orders=state.decks if viewer.admin else (),
    )


def redact(event: Event, viewer: Viewer) -> Event:
    if isinstance(event, ev.DeckShuffled) and not viewer.admin:
        return event.model_copy(update={"cards": (), "hidden": True})
    return event
