"""The decider contract every ruleset implements, and the vocabulary it shares.

A ruleset is a *pure decider* (boardgame.io's ``setup``/``moves``/``playerView``
in functional form): it never touches a clock, a database or a global random
generator.  Everything it needs comes in as data, so the ledger can replay any
game byte-for-byte and an auditor can re-run every decision offline.

One deliberate split from the textbook ``initial_state(setup, rng)``: the random
part of setting up a table (shuffles, first player) is a *decision* whose
outcome must be recorded in events, so it lives in ``start(state, rng)`` and
``initial_state(setup)`` stays a deterministic, empty table.  Replaying the
recorded opening events over ``initial_state`` rebuilds the same table without
the seed.

Why the vocabulary lives in small modules and is re-exported here: a game
imports only this module (the dependency rule that ``tests/unit/test_layers.py``
enforces and ``docs/architecture.md`` states), while each
part stays small: :mod:`domain.contract.messages`, :mod:`domain.contract.errors`,
:mod:`domain.contract.viewers`, :mod:`domain.contract.outcomes` and :mod:`domain.contract.facts`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from domain.contract.endings import Consequence, seat_loses
from domain.contract.errors import (
    GameOverError,
    IllegalCommandError,
    InvalidCommandError,
    NotYourTurnError,
    RuleError,
)
from domain.contract.facts import (
    ChanceOutcome,
    EventFacet,
    GameFacts,
    SeatFacet,
    shuffle_outcomes,
)
from domain.contract.messages import Command, Event, Model, Seat, State
from domain.contract.outcomes import Outcome, Termination, ranks_from_scores
from domain.contract.viewers import ADMIN, SPECTATOR, Viewer

__all__ = [
    "ADMIN",
    "SPECTATOR",
    "ChanceOutcome",
    "Command",
    "Consequence",
    "Event",
    "EventFacet",
    "Example",
    "GameFacts",
    "GameOverError",
    "IllegalCommandError",
    "InvalidCommandError",
    "Model",
    "NotYourTurnError",
    "Outcome",
    "Rng",
    "RuleError",
    "Ruleset",
    "Seat",
    "SeatFacet",
    "State",
    "Termination",
    "Viewer",
    "ranks_from_scores",
    "shuffle_outcomes",
]


# --------------------------------------------------------------------- chance


class Rng(Protocol):
    """The only source of chance a decider may use (see :mod:`domain.contract.chance`)."""

    def randbelow(self, n: int) -> int:
        """A uniform integer in ``[0, n)``."""

    def shuffle(self, items: Sequence[Any]) -> tuple[Any, ...]:
        """A uniformly shuffled copy of ``items`` (Fisher-Yates)."""

    def roll(self, sides: int) -> int:
        """A fair die roll in ``[1, sides]``."""

    def token(self, nbytes: int = 16) -> bytes:
        """Fresh bytes, e.g. the nonce of a commitment."""


# --------------------------------------------------------------------- ruleset

S = TypeVar("S", bound=State)


def one_seat_each(setup: Any) -> tuple[tuple[Seat, ...], ...]:
    """The default ``Ruleset.player_seats``: player ``i`` holds seat ``i``."""
    return tuple((s,) for s in range(setup.players))


@dataclass(frozen=True)
class Example:
    """A named, known-good setup a ruleset declares (``thalara-2p-casual-chaos``).

    Why in the ruleset: the bench, the demo, the end-to-end tests, the fuzzer
    and the docs all need tables to play, and copies of them per reader
    would drift apart.  A game's examples cover every player count and every value of
    each closed-set setup field (``mode``); ``tests/unit/test_game_examples.py``
    checks that and that each one validates.  ``setup`` is the JSON-shaped
    field dict a client would send (``setup_model(**setup)``).
    """

    name: str
    setup: Mapping[str, Any]

    @property
    def players(self) -> int:
        return int(self.setup["players"])


@dataclass(frozen=True)
class Ruleset(Generic[S]):
    """One game: its name, its messages and its pure decider functions.

    Each game package exports exactly one frozen ``GAME`` of this type, and
    :mod:`domain.games` registers it by name.  The ledger and the gRPC layer
    know nothing else about a game.

    Message naming contract with the game's ``.proto`` (package
    ``ledger.v1.<name>``; written from these models by ``python -m
    services.proto.generate``): each command class ``Foo`` is a message ``Foo`` and a
    field ``foo`` of the ``oneof kind`` in message ``Move``; each event class
    likewise in message ``Event``; ``setup_model`` and ``view_model`` are
    messages of the same class name.  Fields keep their pydantic names; tuples
    are ``repeated``; ``X | None`` is ``optional``; str enums are ``string``.
    """

    name: str
    title: str
    min_players: int
    max_players: int
    setup_model: type[Model]
    """Validated creation options; must have an int field ``players``."""
    command_types: tuple[type[Command], ...]
    event_types: tuple[type[Event], ...]
    view_model: type[Model]
    state_model: type[State]

    initial_state: Callable[[Any], S]
    """``initial_state(setup) -> state``: the empty table, no chance involved."""
    start: Callable[[S, Rng], Sequence[Event]]
    """``start(state, rng) -> events``: the opening shuffles and draws, recorded."""
    decide: Callable[[S, Command, Seat, Rng], Sequence[Event]]
    """``decide(state, command, actor, rng) -> events``; raises :class:`RuleError`."""
    evolve: Callable[[S, Event], S]
    """``evolve(state, event) -> state``; raises ``TypeError`` on unknown events."""
    view: Callable[[S, Viewer], Model]
    """``view(state, viewer)``: only what that viewer may see, as ``view_model``."""
    redact: Callable[[Event, Viewer], Event]
    """``redact(event, viewer)``: the event as that viewer may see it (same class)."""
    legal_commands: Callable[[S, Seat], Iterable[Command]]
    """Every command ``actor`` may submit now, lazily (lists can be combinatorial)."""
    to_act: Callable[[S], tuple[Seat, ...]]
    """Seats that have a decision to make now (several during simultaneous phases)."""
    is_over: Callable[[S], bool]
    outcome: Callable[[S], Outcome | None]

    aliases: tuple[str, ...] = ()
    player_seats: Callable[[Any], tuple[tuple[Seat, ...], ...]] = one_seat_each
    """``player_seats(setup)``: which seats each player controls; default one
    seat each (Thorgal solo: two)."""
    sampler: Callable[[S, Seat, random.Random], Command | None] | None = None
    """The game's own way to draw a uniformly-ish random legal command, for
    rulesets whose ``legal_commands`` is too large to materialise (e.g. choose
    7 of 20).  ``None``: :meth:`random_command` picks from the list."""
    legal_sequence: Callable[[S, Seat], Sequence[Command]] | None = None
    """The same commands as ``legal_commands``, in the same order, as a sized,
    indexable sequence (:mod:`domain.contract.sequences`): for rulesets whose lists are
    combinatorial, so a pager can seek and a sampler can pick by index."""
    content_packs: Callable[[], tuple[Any, ...]] | None = None
    """``content_packs() -> (PackOptions, ...)`` (:mod:`domain.contract.setup_options`):
    the packs a setup may name and the values content defines for its fields."""
    content_label: str = "sample"
    """What a game's ``GameCreated`` names its content: "sample" for every
    shipped pack (the pack's own file says what it holds)."""
    content_label_aliases: tuple[str, ...] = ()
    """Earlier values of ``content_label`` that stored games still hold: the
    same content under an older name.  Records are never rewritten, so
    readers show :meth:`content_name` instead."""
    version: int = 1
    """The rules' version: bumped by any change that alters what ``start``,
    ``decide`` or ``outcome`` produce.  A game records the version it was
    created under and is replayed and audited with exactly that version, so
    older versions stay registered (``VERSIONS`` in the game's package)."""
    facts: Callable[[Any, S], GameFacts] | None = None
    """``facts(setup, final_state)``: rounds, first player, per-seat labels."""
    event_facets: Callable[[Event], tuple[EventFacet, ...]] | None = None
    chance_outcomes: Callable[[Event], tuple[ChanceOutcome, ...]] | None = None
    """Every die roll / shuffle position recorded in an event (fairness view)."""
    chance_events: tuple[type[Event], ...] = ()
    """The event types ``chance_outcomes`` can find anything in (empty: any).
    The fairness view reads only these from the log; most events carry no chance."""
    commands_by_name: dict[str, type[Command]] = field(
        default_factory=dict, compare=False
    )
    events_by_name: dict[str, type[Event]] = field(default_factory=dict, compare=False)
    examples: tuple[Example, ...] = field(default=(), compare=False)
    """Named example setups: every player count and mode (see :class:`Example`)."""
    consequence: Callable[[S, Seat], Consequence] = seat_loses
    """``consequence(state, seat)``: what a seat running out of time (or
    resigning) costs (:mod:`domain.contract.endings`); default: the seat loses."""
    autoplay: Callable[[S, Seat], Command] | None = None
    """The game's own rule for the move the ledger makes for a seat that
    dropped out (:attr:`~domain.contract.endings.Consequence.DROPS_OUT`);
    pure and deterministic, so the audit re-derives it.  ``None``:
    :meth:`automatic_command` takes the first legal command."""
    proto_module: str | None = None
    """The generated ``*_pb2`` module holding ``proto_package``'s messages.
    ``None``: ``ledger.v1.<name>_pb2`` (games in this repository, whose
    ``.proto`` lives in ``protos/ledger/v1/``); a game registered from
    elsewhere names its own (``tests.games.tictactoe.tictactoe_pb2``)."""
    describe: Callable[[Event, Viewer, Mapping[int, str]], str] | None = None
    """``describe(event, viewer, names) -> sentence``: one sentence for a person,
    in ``viewer``'s redaction, seats named by ``names`` (:mod:`domain.words.sentences`).
    ``None``: a plain sentence from the event's name and fields
    (:func:`domain.words.narration.describe`)."""
    describe_move: Callable[[Command, Seat, Model, Mapping[int, str]], str] | None = (
        None
    )
    """``describe_move(command, seat, view, names) -> sentence``: one legal move
    of ``seat`` as a person reads it before choosing it ("play r05 (strength 5,
    red) in the conflict over a13"), worded from ``view``, that seat's own view
    (so it can name only what that seat may see), seats named by ``names``.
    ``None``: the command's name and fields in words
    (:func:`domain.words.move_words.move_sentence`)."""
    board: Callable[[Model, Mapping[int, str]], str] | None = None
    """``board(view, names) -> fragment``: the table drawn from a ``view``
    (so it shows only what that view's viewer may see), as a well-formed
    HTML fragment (:mod:`domain.words.board_html`).  ``None``: the view in words."""

    def __post_init__(self) -> None:
        self.commands_by_name.update({c.__name__: c for c in self.command_types})
        self.events_by_name.update({e.__name__: e for e in self.event_types})

    @property
    def proto_package(self) -> str:
        return f"ledger.v1.{self.name}"

    @property
    def stubs_module(self) -> str:
        """The importable module of the generated messages (see ``proto_module``)."""
        return self.proto_module or f"ledger.v1.{self.name}_pb2"

    def example(self, name: str) -> Example:
        """The declared example called ``name``.

        :raises KeyError: naming the examples there are, for a typo.
        """
        for example in self.examples:
            if example.name == name:
                return example
        raise KeyError(
            f"{self.name} has no example {name!r}; known: "
            f"{[e.name for e in self.examples]}"
        )

    def content_name(self, stored: str) -> str:
        """The content name to show for a stored game's ``content``."""
        return self.content_label if stored in self.content_label_aliases else stored

    def random_command(
        self, state: S, seat: Seat, rnd: random.Random
    ) -> Command | None:
        """A random legal command for ``seat`` (bots, tests, the bench): the
        game's ``sampler``, or a uniform pick; ``None`` when it has none."""
        if self.sampler is not None:
            return self.sampler(state, seat, rnd)
        options = list(self.legal_commands(state, seat))
        return rnd.choice(options) if options else None

    def legal_moves(self, state: S, seat: Seat) -> Sequence[Command]:
        """Every legal command as a sized, indexable sequence.

        Small lists are simply materialised; combinatorial ones come from
        ``legal_sequence`` without being built.
        """
        if self.legal_sequence is not None:
            return self.legal_sequence(state, seat)
        return tuple(self.legal_commands(state, seat))

    def automatic_command(self, state: S, seat: Seat) -> Command:
        """The move the ledger makes for ``seat``, which dropped out: the
        game's ``autoplay``, or the first legal command."""
        if self.autoplay is not None:
            return self.autoplay(state, seat)
        return self.legal_moves(state, seat)[0]

    def replay(self, state: S, events: Iterable[Event]) -> S:
        for event in events:
            state = self.evolve(state, event)
        return state
