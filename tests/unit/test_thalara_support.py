"""Helpers for the Thalara tests: tables built from given events, a fixed Rng.

(No tests here; the name keeps the file inside the Thalara test namespace.)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.contract.core import Event
from domain.games.thalara import GAME
from domain.games.thalara import events as ev
from domain.games.thalara.setup import ThalaraSetup
from domain.games.thalara.state import Mode, ThalaraState

ARTIFACTS = tuple(f"a{i:02d}" for i in range(1, 16))
CHARACTERS = ("myrja", "canto", "accaina", "kandhran")


class FixedRng:
    """Deterministic chance for hand-made positions: no shuffling, zero nonces."""

    def randbelow(self, n: int) -> int:
        return 0

    def shuffle(self, items: Sequence[Any]) -> tuple[Any, ...]:
        return tuple(items)

    def roll(self, sides: int) -> int:
        return 1

    def token(self, nbytes: int = 16) -> bytes:
        return bytes(nbytes)


RNG = FixedRng()


def r(number: int, seat: int) -> str:
    """Remnant ``r<number>`` of ``seat``: 1-5 red, 6-10 blue, 11-15 green, 16-20 gold (strength 1-5)."""
    return f"r{number:02d}@{seat}"


def given(state: ThalaraState, *events: Event) -> ThalaraState:
    return GAME.replay(state, events)


def new_table(
    players: int = 2,
    mode: Mode = "standard",
    characters: Sequence[str] | None = None,
    stack: Sequence[str] | None = None,
    first: int = 0,
) -> ThalaraState:
    """A table at the start of round 1, conflicts = top of ``stack``."""
    chars = tuple(characters or CHARACTERS[:players])
    state = GAME.initial_state(
        ThalaraSetup(players=players, mode=mode, characters=chars)
    )
    if stack is None:
        stack = (
            ARTIFACTS
            if players == 2
            else ARTIFACTS + tuple(f"{a}#2" for a in ARTIFACTS)
        )
    state = given(
        state,
        ev.ArtifactsShuffled(order=tuple(stack), size=len(stack)),
        ev.FirstPlayerChosen(seat=first),
        ev.ArtifactsRefilled(artifacts=tuple(stack)[: players + 1]),
        ev.RoundStarted(round=1, starter=first),
    )
    return state


def selected(state: ThalaraState, seat: int, cards: Sequence[str]) -> ev.HandSelected:
    return ev.HandSelected(
        seat=seat, cards=tuple(sorted(cards)), count=len(cards), commitment="c"
    )


def in_play(
    players: int = 2,
    hands: dict[int, Sequence[str]] | None = None,
    characters: Sequence[str] | None = None,
    first: int = 0,
    stack: Sequence[str] | None = None,
) -> ThalaraState:
    """Round 1 in the play phase; each seat selected ``hands[seat]`` (default r01-r07)."""
    state = new_table(players, characters=characters, first=first, stack=stack)
    hands = hands or {}
    for seat in range(players):
        cards = hands.get(seat, [r(n, seat) for n in range(1, 8)])
        state = given(state, selected(state, seat, cards))
    return state


def act(
    state: ThalaraState, seat: int, command: Any
) -> tuple[ThalaraState, list[Event]]:
    """Decide ``command`` for ``seat`` and apply the events."""
    events = list(GAME.decide(state, command, seat, RNG))
    return given(state, *events), events
