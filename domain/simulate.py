"""Random legal playthroughs of any ruleset, with the ledger's exact chance labels.

Property tests, bots, the load generator and the benchmark all need "play a
random legal game to the end".  Keeping one implementation here, driven only
by the :class:`~domain.core.Ruleset` contract, means a new game gets all of
them for free, and that a simulated game draws exactly the chance the ledger
would draw (event 1 is the ledger's ``GameCreated``; the opening decision is
labelled ``v1``; each later decision is labelled by the version it follows).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from domain.chance import HmacRng
from domain.core import Command, Event, Ruleset, Seat, State

SIM_GAME_ID = "simulation"


@dataclass
class Playthrough:
    """Everything a property test wants to check after a random game."""

    ruleset: Ruleset[Any]
    setup: Any
    state: State
    events: list[Event] = field(default_factory=list)
    decisions: list[tuple[Seat | None, Command | None, tuple[Event, ...]]] = field(
        default_factory=list
    )
    states: list[State] = field(default_factory=list)

    @property
    def version(self) -> int:
        """The ledger version of the last event (``GameCreated`` is 1)."""
        return 1 + len(self.events)

    def replayed(self) -> State:
        return self.ruleset.replay(self.ruleset.initial_state(self.setup), self.events)


def rng_for(seed: bytes, version: int, entropy: tuple[str, ...] = ()) -> HmacRng:
    return HmacRng.for_decision(seed, SIM_GAME_ID, entropy, version)


def begin(ruleset: Ruleset[Any], setup: Any, seed: bytes) -> Playthrough:
    """Set the table and record the opening decision."""
    state = ruleset.initial_state(setup)
    play = Playthrough(ruleset=ruleset, setup=setup, state=state)
    play.states.append(state)
    apply(play, None, None, tuple(ruleset.start(state, rng_for(seed, 1))))
    return play


def apply(
    play: Playthrough, seat: Seat | None, command: Command | None, events: tuple[Event, ...]
) -> None:
    for event in events:
        play.state = play.ruleset.evolve(play.state, event)
        play.events.append(event)
        play.states.append(play.state)
    play.decisions.append((seat, command, events))


def step(play: Playthrough, seed: bytes, rnd: random.Random) -> bool:
    """Make one random legal decision; ``False`` when nobody can act."""
    ruleset = play.ruleset
    if ruleset.is_over(play.state):
        return False
    seats = ruleset.to_act(play.state)
    if not seats:
        return False
    seat = rnd.choice(seats)
    command = ruleset.pick_random_command(play.state, seat, rnd)
    if command is None:
        raise AssertionError(f"seat {seat} must act but has no legal command")
    events = tuple(ruleset.decide(play.state, command, seat, rng_for(seed, play.version)))
    apply(play, seat, command, events)
    return True


def play_random_game(
    ruleset: Ruleset[Any], setup: Any, seed: int | bytes, max_decisions: int = 20_000
) -> Playthrough:
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
        raise AssertionError(f"{ruleset.name} did not end within {max_decisions} decisions")
    return play
