"""What every game's rules need and would otherwise each write: seat updates, card removal,
view builders, the evolve dispatch table and the wiring of a game's ``GAME``.

Each helper has exactly one behaviour, stated in its docstring, because
copies per game disagree (one ``_without`` that raises on a missing card,
two that silently ignore it).  Pure functions on pydantic models and tuples; no I/O.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Generic, TypeVar

from pydantic import BaseModel

from domain.contract.core import Ruleset, Viewer
from domain.contract.setup_options import PackOptions, SetupChoice, pack_names

M = TypeVar("M", bound=BaseModel)
S = TypeVar("S", bound=BaseModel)
T = TypeVar("T")

_SIZE = "_size"
"""The suffix of a view field that counts a pile of its source (:func:`mirror`)."""


def with_seat(state: S, seat: int, field: str = "players", **changes: Any) -> S:
    """``state`` with ``state.<field>[seat]`` updated by ``changes``.

    The per-seat tuple is rebuilt and the other seats are the same objects,
    so an unchanged seat costs nothing on replay.
    """
    seats = list(getattr(state, field))
    seats[seat] = seats[seat].model_copy(update=changes)
    return state.model_copy(update={field: tuple(seats)})


def replace_where(
    items: Sequence[M], is_it: Callable[[M], bool], **changes: Any
) -> tuple[M, ...]:
    """``items`` with every item for which ``is_it`` holds updated by ``changes``."""
    return tuple(i.model_copy(update=changes) if is_it(i) else i for i in items)


def without_one(items: Sequence[T], item: T) -> tuple[T, ...]:
    """``items`` minus the first occurrence of ``item``.

    :raises ValueError: if ``item`` is not there; a rule that removes a card
        it has not checked for is a bug, and replay must not hide it.
    """
    i = list(items).index(item)
    return (*items[:i], *items[i + 1 :])


def without_each(items: Sequence[T], gone: Iterable[T]) -> tuple[T, ...]:
    """``items`` minus one occurrence per element of ``gone`` (a multiset difference).

    :raises ValueError: if some element of ``gone`` is not there (see :func:`without_one`).
    """
    out = tuple(items)
    for item in gone:
        out = without_one(out, item)
    return out


def without_all(items: Sequence[T], gone: Iterable[T]) -> tuple[T, ...]:
    """``items`` minus every copy of each element of ``gone``; absent ones are ignored.

    For zones whose entries are unique ids, where "remove these if present"
    is the rule (a discard that may already be empty).
    """
    drop = set(gone)
    return tuple(i for i in items if i not in drop)


def mirror(view_model: type[M], source: BaseModel, **overrides: Any) -> M:
    """A ``view_model`` built from ``source``'s fields of the same name, then ``overrides``.

    View models mirror state models field for field except where something is
    hidden or derived; listing only those in ``overrides`` keeps a new state
    field from silently going missing from (or leaking into) the view: a field
    the view does not declare is never copied.  A view's ``<pile>_size`` that
    ``source`` lacks is the length of ``source``'s ``<pile>``: a hidden hand
    or deck is shown as its count, whoever looks.

    >>> class Seat(BaseModel):
    ...     hand: tuple[str, ...]
    >>> class SeatView(BaseModel):
    ...     hand: tuple[str, ...]
    ...     hand_size: int
    >>> mirror(SeatView, Seat(hand=("imp", "hound")), hand=())
    SeatView(hand=(), hand_size=2)
    """
    source_fields = type(source).model_fields.keys()
    names = view_model.model_fields.keys() & source_fields
    values = {name: getattr(source, name) for name in names}
    for name in view_model.model_fields.keys() - source_fields:
        pile = name.removesuffix(_SIZE)
        if pile != name and pile in source_fields:
            values[name] = len(getattr(source, pile))
    values.update(overrides)
    return view_model(**values)


def seat_mirror(
    view_model: type[M], viewer: Viewer, seat: int, source: BaseModel, **overrides: Any
) -> M:
    """One seat's part of a view: ``source`` mirrored (:func:`mirror`) with its
    ``seat``, its ``hand`` empty for a viewer who may not see that seat (its
    ``hand_size`` still counts it), then ``overrides``.

    Why here: every game hides a seat's hand the same way, from everyone the
    seat's :class:`~domain.contract.core.Viewer` grant does not cover.
    """
    shown = viewer.can_see(seat)
    hand = getattr(source, "hand") if shown else ()  # noqa: B009  # any game's seat model
    return mirror(view_model, source, seat=seat, hand=hand, **overrides)


def seat_views(seats: Sequence[T], build: Callable[[int, T], M]) -> tuple[M, ...]:
    """``build(seat, item)`` for each seat, in seat order: the per-seat half of a view."""
    return tuple(build(seat, item) for seat, item in enumerate(seats))


class Evolver(Generic[S]):
    """The one evolve idiom: a table from event class to ``handler(state, event)``.

    A dict lookup per event (replay applies thousands), the same argument order
    in every game, and :class:`TypeError` for an event the game does not know::

        evolve = Evolver[MyState]("mygame")

        @evolve.on(CardPlayed)
        def _(state: MyState, e: CardPlayed) -> MyState: ...

    A game split over modules combines their tables with :meth:`include`.
    """

    def __init__(self, game: str) -> None:
        self.game = game
        self.handlers: dict[type, Callable[[S, Any], S]] = {}

    def on(
        self, *event_types: type
    ) -> Callable[[Callable[[S, Any], S]], Callable[[S, Any], S]]:
        def register(handler: Callable[[S, Any], S]) -> Callable[[S, Any], S]:
            for event_type in event_types:
                if event_type in self.handlers:
                    raise ValueError(
                        f"{self.game}: two handlers for {event_type.__name__}"
                    )
                self.handlers[event_type] = handler
            return handler

        return register

    def records(
        self,
        event_type: type[BaseModel],
        sets: Mapping[str, Any] | None = None,
        /,
        **fields: str,
    ) -> None:
        """Register the handler of an event that only records some of its
        fields in the state: ``records(Shuffled, deck="order")`` sets
        ``state.deck`` to the event's ``order``; ``sets`` are state fields the
        event sets to a constant, ``records(GameEnded, {"phase": OVER},
        scores="scores")``.

        Many events are no more than that (a shuffle's order, who starts, the
        end of a phase); naming the fields keeps them one line each, so a
        handler that does more stands out as one.

        :raises ValueError: if ``event_type`` has no field of that name, at
            import rather than at the first replay that meets the event.
        """
        read = _reader(event_type, fields)
        constants = dict(sets or {})
        self.on(event_type)(
            lambda state, e: state.model_copy(update={**read(e), **constants})
        )

    def records_at_seat(
        self,
        event_type: type[BaseModel],
        seats: str = "players",
        sets: Mapping[str, Any] | None = None,
        /,
        **fields: str,
    ) -> None:
        """As :meth:`records`, into the entry of ``state.<seats>`` for the
        event's ``seat`` (through :func:`with_seat`):
        ``records_at_seat(SupplyShuffled, supply="order")``."""
        read = _reader(event_type, fields, also=("seat",))
        constants = dict(sets or {})
        self.on(event_type)(
            lambda state, e: with_seat(state, e.seat, seats, **read(e), **constants)
        )

    def include(self, other: Evolver[S]) -> Evolver[S]:
        """Add every handler of ``other`` to this table; returns ``self``.

        For a game whose handlers are too many for one module: each module
        fills its own ``Evolver`` and the game's table is built from them
        explicitly, in one visible place, instead of by the side effect of an
        import.  Copied now, so ``other`` must be complete when included.

        :raises ValueError: if both tables handle the same event class.
        """
        for event_type, handler in other.handlers.items():
            self.on(event_type)(handler)
        return self

    def __call__(self, state: S, event: Any) -> S:
        """The state after ``event``.

        :raises TypeError: if no handler is registered for ``type(event)``.
        """
        handler = self.handlers.get(type(event))
        if handler is None:
            raise TypeError(f"{self.game} cannot apply {type(event).__name__}")
        return handler(state, event)


def _reader(
    event_type: type[BaseModel], fields: dict[str, str], also: tuple[str, ...] = ()
) -> Callable[[Any], dict[str, Any]]:
    """``event -> {state field: event value}`` for ``fields`` (state field ->
    event field), once every event field named (and ``also``) is known to exist.

    :raises ValueError: for a field ``event_type`` does not declare.
    """
    unknown = sorted({*fields.values(), *also} - event_type.model_fields.keys())
    if unknown:
        raise ValueError(f"{event_type.__name__} has no field {', '.join(unknown)}")
    pairs = tuple(fields.items())
    return lambda e: {to: getattr(e, of) for to, of in pairs}


WIRING: dict[str, tuple[str, str]] = {
    "command_types": ("commands", "COMMAND_TYPES"),
    "event_types": ("events", "EVENT_TYPES"),
    "content_packs": ("content", "content_packs"),
    "initial_state": ("setup", "initial_state"),
    "start": ("rules", "start"),
    "decide": ("rules", "decide"),
    "legal_commands": ("rules", "legal_commands"),
    "to_act": ("rules", "to_act"),
    "is_over": ("rules", "is_over"),
    "outcome": ("rules", "outcome"),
    "evolve": ("evolve", "evolve"),
    "view": ("view", "view"),
    "redact": ("view", "redact"),
    "facts": ("stats", "facts"),
    "event_facets": ("stats", "event_facets"),
    "chance_outcomes": ("stats", "chance_outcomes"),
    "chance_events": ("stats", "CHANCE_EVENTS"),
    "describe": ("describe", "describe"),
    "describe_move": ("describe", "describe_move"),
    "board": ("board", "board"),
    "sampler": ("rules", "random_command"),
    "legal_sequence": ("rules", "legal_sequence"),
    "player_seats": ("setup", "player_seats"),
    "consequence": ("rules.leaving", "consequence"),
    "autoplay": ("rules.leaving", "automatic_command"),
}
"""``Ruleset`` field -> (module of a game package, name in it): the layout
every game here shares (``docs/adding-a-game.md``)."""

OPTIONAL = frozenset(
    {
        "is_over",
        "sampler",
        "legal_sequence",
        "player_seats",
        "consequence",
        "autoplay",
        "describe_move",
    }
)
"""The hooks of :data:`WIRING` a game may leave out (module or name absent):
it then keeps the default (:func:`phase_is_over`; the contract's: a uniform
random pick, one seat per player, the seat that leaves loses)."""


def phase_is_over(state: Any) -> bool:
    """Over once the state's ``phase`` is ``"over"``: how every game here ends
    (its end event's handler sets that phase), so none writes ``is_over``."""
    return bool(state.phase == "over")


MODELS: dict[str, tuple[str, str]] = {
    "setup_model": ("setup", "Setup"),
    "view_model": ("view", "View"),
    "state_model": ("state", "State"),
}
"""``Ruleset`` model field -> (module, class name after the game's capitalised
name): ``thalara``'s view model is ``view.ThalaraView``."""


def ruleset(package: str, **fields: Any) -> Ruleset[Any]:
    """A game's ``GAME``: its name (the last part of ``package``, the game's
    ``__name__``), its functions and message types taken from the modules of
    ``package`` as :data:`WIRING` says (an :data:`OPTIONAL` hook only where
    the game's module defines it), and its models as :data:`MODELS` says;
    ``fields`` gives the rest of the :class:`~domain.contract.core.Ruleset`
    (title, players, examples).

    One wiring, so no game maps a module's function to the wrong field or
    forgets one its modules define; each game's ``__init__.py`` says only
    what is its own.

    :raises ModuleNotFoundError: for a module of the layout ``package`` lacks.
    :raises AttributeError: for a module without a name the layout gives it,
        or a game without ``rules.is_over`` whose state has no ``phase``.
    :raises TypeError: for a field in ``fields`` that the layout also wires.
    """
    name = package.rpartition(".")[2]

    def layout(module: str, attribute: str) -> Any:
        return getattr(importlib.import_module(f"{package}.{module}"), attribute)

    wired: dict[str, Any] = {"is_over": phase_is_over}
    for field, (module, attr) in WIRING.items():
        if field not in OPTIONAL:
            wired[field] = layout(module, attr)
        elif (hook := _defined(f"{package}.{module}", attr)) is not None:
            wired[field] = hook
    models = {
        field: layout(module, name.capitalize() + suffix)
        for field, (module, suffix) in MODELS.items()
    }
    phased = "phase" in models["state_model"].model_fields
    if wired["is_over"] is phase_is_over and not phased:
        raise AttributeError(f"{package}: no rules.is_over and no phase in its state")
    return Ruleset(name=name, **wired, **models, **fields)


def _defined(module: str, attribute: str) -> Any:
    """``module.attribute``, or ``None`` where the module or the name is absent.

    Only the absence of ``module`` itself counts: an import error inside a
    module that exists still raises.
    """
    try:
        found = importlib.import_module(module)
    except ModuleNotFoundError as missing:
        absent = missing.name or ""
        if not (module == absent or module.startswith(absent + ".")):
            raise
        return None
    return getattr(found, attribute, None)


# Tuples by position.


def replaced_at(items: Sequence[T], index: int, item: T) -> tuple[T, ...]:
    """``items`` with the one at ``index`` replaced by ``item`` (a die, a chip).

    :raises IndexError: if ``index`` is not a position of ``items``; a rule
        that names a die the table does not have is a bug, and replay must
        not hide it by appending.
    """
    out = list(items)
    out[index] = item
    return tuple(out)


# Content packs whose setup choice is a character per seat.


def character_packs(
    directory: Path,
    load: Callable[[str], Any],
    *,
    min_players: int,
    max_players: int,
    copies: int = 1,
) -> tuple[PackOptions, ...]:
    """Every pack shipped in ``directory``, offering its characters per seat.

    ``load(name)`` is the game's pack loader; a pack lists its
    ``characters``, each with an ``id``.  A character may sit at ``copies``
    seats of one table, so a pack seats at most
    ``min(max_players, copies * characters)`` players.
    """
    out = []
    for name in pack_names(directory):
        pack = load(name)
        ids = tuple(c.id for c in pack.characters)
        out.append(
            PackOptions(
                name=name,
                label=pack.label,
                min_players=min_players,
                max_players=min(max_players, copies * len(ids)),
                choices=(SetupChoice(field="characters", values=ids, per_seat=True),),
            )
        )
    return tuple(out)


# A decision in progress.


class Decision(Generic[S]):
    """A decision in progress: the events decided so far, and the state they lead to.

    Every game's ``decide`` builds its events against a running state, so a
    later rule of the same decision reads what an earlier event did (who draws
    how many after a refill, which effect sees a destroyed creature).  Each
    event is applied as it is decided, then recorded: an event the state
    refuses (``evolve`` raises) is never in :attr:`events`.
    """

    def __init__(self, state: S, evolve: Callable[[S, Any], S]) -> None:
        self.state = state
        self.events: list[Any] = []
        self._evolve = evolve

    def emit(self, event: Any) -> None:
        """Apply ``event`` to :attr:`state` and record it."""
        self.state = self._evolve(self.state, event)
        self.events.append(event)
