"""Builders of small hand-made Vaalbara positions, shared by the test modules.

Positions are built directly as states (the "given" of given -> decide ->
expected events); ``forced`` runs the rules' automatic follow-ups, which is
how a turn begins when nobody has a decision to take.
"""

from __future__ import annotations

from typing import Any

from domain.contract.chance import HmacRng
from domain.contract.core import Event
from domain.games.vaalbara import GAME
from domain.games.vaalbara.content import CHARACTERS, CLANS, PACK
from domain.games.vaalbara.rules.flow import advance
from domain.games.vaalbara.state import (
    CHARACTER_STEP,
    RESOLUTION,
    PlayerState,
    VaalbaraState,
)


def rng() -> HmacRng:
    return HmacRng(b"vaalbara-tests", "v1")


class Lands:
    """Hands out distinct land ids of the sample pack by type (and value)."""

    def __init__(self) -> None:
        self.used: set[str] = set()

    def __call__(self, land_type: str, value: int | None = None) -> str:
        for land in PACK.lands:
            if land.id in self.used or land.type != land_type:
                continue
            if value is not None and land.value != value:
                continue
            self.used.add(land.id)
            return land.id
        raise LookupError(f"no unused {land_type} {value or ''}")

    def many(self, land_type: str, n: int) -> tuple[str, ...]:
        return tuple(self(land_type) for _ in range(n))

    def ranking(self, *clans: str) -> str:
        """An unused land whose Omens rank ``clans`` in the given order."""
        for land in PACK.lands:
            if land.id in self.used:
                continue
            positions = [land.omens.index(c) for c in clans]
            if positions == sorted(positions):
                self.used.add(land.id)
                return land.id
        raise LookupError(f"no unused land ranking {clans}")


def position(
    revealed: tuple[str, ...],
    *,
    realms: dict[int, tuple[str, ...]] | None = None,
    vps: dict[int, int] | None = None,
    discards: dict[int, tuple[str, ...]] | None = None,
    hands: dict[int, tuple[str, ...]] | None = None,
    first_row: tuple[str, ...] = (),
    second_row: tuple[str, ...] = (),
    land_deck: tuple[str, ...] = (),
    done: tuple[int, ...] = (),
    current: int | None = None,
    step: str = "",
    round: int = 2,
    clans: tuple[str, ...] | None = None,
) -> VaalbaraState:
    """A Resolution-phase table where seat ``i`` revealed ``revealed[i]``.

    Seats that already finished their turn have their character discarded;
    the others still have it face up (``played``).
    """
    n = len(revealed)
    realms, vps, discards, hands = realms or {}, vps or {}, discards or {}, hands or {}
    clans = clans or CLANS[:n]
    players = []
    for seat, character in enumerate(revealed):
        discard = discards.get(seat, ())
        if seat in done:
            discard = discard + (character,)
        rest = [c for c in CHARACTERS if c != character and c not in discard]
        hand = hands.get(seat, tuple(rest[:4]))
        players.append(
            PlayerState(
                clan=clans[seat],
                deck=tuple(c for c in rest if c not in hand),
                hand=hand,
                discard=discard,
                played=None if seat in done else character,
                realm=realms.get(seat, ()),
                vp=vps.get(seat, 2),
            )
        )
    return VaalbaraState(
        players=tuple(players),
        phase=RESOLUTION,
        round=round,
        land_deck=land_deck,
        first_row=first_row,
        second_row=second_row,
        revealed=revealed,
        done=done,
        current=current,
        step=step,
    )


def at_character_step(state: VaalbaraState, seat: int) -> VaalbaraState:
    return state.model_copy(update={"current": seat, "step": CHARACTER_STEP})


def forced(state: VaalbaraState) -> tuple[list[Event], VaalbaraState]:
    """The events the rules force from ``state`` until a decision, and the result."""
    out: list[Event] = []
    return out, advance(state, out)


def decide(
    state: VaalbaraState, command: Any, seat: int
) -> tuple[list[Event], VaalbaraState]:
    events = list(GAME.decide(state, command, seat, rng()))
    return events, GAME.replay(state, events)


def of_type(events: list[Event], cls: type[Event]) -> list[Any]:
    return [e for e in events if isinstance(e, cls)]


def scored(
    events: list[Event], seat: int | None = None
) -> list[tuple[int, str, int | None]]:
    from domain.games.vaalbara.events import PointsScored

    return [
        (e.seat, e.reason, e.points)
        for e in events
        if isinstance(e, PointsScored) and (seat is None or e.seat == seat)
    ]
