"""Random legal playthroughs of any ruleset, with the ledger's exact chance labels.

Property tests, bots, the load generator and the benchmark all need "play a
random legal game to the end".  Keeping one implementation here, driven only
by the :class:`~domain.contract.core.Ruleset` contract, means a new game gets all of
them for free, and that a simulated game draws exactly the chance the ledger
would draw (event 1 is the ledger's ``GameCreated``; the opening decision is
labelled ``v1``; each later decision is labelled by the version it follows).

Live and replayed states are built differently on purpose.  The live state is
``evolve`` over the event objects the decider returned, as the ledger keeps it
in memory; :meth:`Playthrough.replayed` rebuilds from each event's *stored
record* (the aggregate's ``decided_body``, canonical JSON bytes, decoded by type
name as the ledger's mapper and the auditor do).  So "replay equals live" fails
when an event does not survive storage (a field excluded from the dump, an
``Any`` that comes back as a list, a union that decodes as another member),
which re-running the same evolve over the same objects could never show.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Generic

from domain.contract.chance import HmacRng
from domain.contract.core import Command, Event, Ruleset, S, Seat
from domain.ledger.aggregate import record_type
from domain.ledger.records import canonical_json, decided_body, decode_payload, load

SIM_GAME_ID = "simulation"


@dataclass
class Playthrough(Generic[S]):
    """Everything a property test wants to check after a random game."""

    ruleset: Ruleset[S]
    setup: Any
    state: S
    events: list[Event] = field(default_factory=list)
    decisions: list[tuple[Seat | None, Command | None, tuple[Event, ...]]] = field(
        default_factory=list
    )
    states: list[S] = field(default_factory=list)
    _replayed: tuple[tuple[Any, ...], S] | None = field(
        default=None, repr=False, compare=False
    )

    @property
    def version(self) -> int:
        """The ledger version of the last event (``GameCreated`` is 1)."""
        return 1 + len(self.events)

    def stored_records(self) -> list[tuple[str, bytes]]:
        """Each event as the ledger would store it: ``(type name, canonical JSON)``.

        The ``decided_body`` around each payload, with placeholder decision,
        actor and command (they, the timestamp and the hashes never reach
        ``evolve``).
        """
        return [
            (record_type(self.ruleset.name, event), canonical_json(_body(event)))
            for event in self.events
        ]

    def stored_setup(self) -> Any:
        """The setup as it comes back from ``GameCreated``'s stored record."""
        dumped = load(canonical_json(self.setup.model_dump(mode="json")))
        return self.ruleset.setup_model.model_validate(dumped)

    def replayed(self) -> S:
        """The state rebuilt from :meth:`stored_records`, never from the live objects.

        Cached while the setup and the list of event objects stay the same
        (callers ask once per viewer).
        """
        key = (self.setup, *self.events)  # held, so compared by identity safely
        cached = self._replayed
        if (
            cached is None
            or len(cached[0]) != len(key)
            or any(a is not b for a, b in zip(cached[0], key))
        ):
            events = [
                decode_event(self.ruleset, t, data) for t, data in self.stored_records()
            ]
            state = self.ruleset.replay(
                self.ruleset.initial_state(self.stored_setup()), events
            )
            cached = self._replayed = (key, state)
        return cached[1]


def _body(event: Event) -> dict[str, Any]:
    fields = {
        "payload": event,
        "decision": 0,
        "actor": None,
        "command_id": None,
        "command": None,
    }
    return decided_body(fields)


def decode_event(ruleset: Ruleset[Any], type_: str, data: bytes) -> Event:
    """A game event from its stored ``(type name, record body)``, as the mapper reads it.

    :raises KeyError: if the type name is not one of ``ruleset``'s events.
    """
    if type_.partition(".")[0] != ruleset.name:
        raise KeyError(f"{type_} is not a {ruleset.name} event")
    return decode_payload(type_, load(data), ruleset)


def rng_for(seed: bytes, version: int, entropy: tuple[str, ...] = ()) -> HmacRng:
    return HmacRng.for_decision(seed, SIM_GAME_ID, entropy, version)


def begin(ruleset: Ruleset[S], setup: Any, seed: bytes) -> Playthrough[S]:
    """Set the table and record the opening decision."""
    state = ruleset.initial_state(setup)
    play = Playthrough(ruleset=ruleset, setup=setup, state=state)
    play.states.append(state)
    apply(play, None, None, tuple(ruleset.start(state, rng_for(seed, 1))))
    return play


def apply(
    play: Playthrough[Any],
    seat: Seat | None,
    command: Command | None,
    events: tuple[Event, ...],
) -> None:
    for event in events:
        play.state = play.ruleset.evolve(play.state, event)
        play.events.append(event)
        play.states.append(play.state)
    play.decisions.append((seat, command, events))


def step(play: Playthrough[Any], seed: bytes, rnd: random.Random) -> bool:
    """Make one random legal decision; ``False`` when nobody can act."""
    ruleset = play.ruleset
    if ruleset.is_over(play.state):
        return False
    seats = ruleset.to_act(play.state)
    if not seats:
        return False
    seat = rnd.choice(seats)
    command = ruleset.random_command(play.state, seat, rnd)
    if command is None:
        raise AssertionError(f"seat {seat} must act but has no legal command")
    events = tuple(
        ruleset.decide(play.state, command, seat, rng_for(seed, play.version))
    )
    if not events:
        raise AssertionError(f"seat {seat}'s legal {command!r} recorded no event")
    apply(play, seat, command, events)
    return True


def play_random_game(
    ruleset: Ruleset[S], setup: Any, seed: int | bytes, max_decisions: int = 20_000
) -> Playthrough[S]:
    """Play random legal moves until the game ends.

    :raises AssertionError: if the game does not end within ``max_decisions``
        or a seat that must act has no legal move (both are ruleset bugs).
    """
    seed_bytes = seed if isinstance(seed, bytes) else seed.to_bytes(32, "big")
    rnd = random.Random(seed_bytes)
    play = begin(ruleset, setup, seed_bytes)
    for _ in range(max_decisions):
        if not step(play, seed_bytes, rnd):
            break
    if not ruleset.is_over(play.state):
        raise AssertionError(
            f"{ruleset.name} did not end within {max_decisions} decisions"
        )
    return play
