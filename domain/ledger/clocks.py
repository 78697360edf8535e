"""Game clocks: the time controls a game is played under and each seat's time.

Why derived, never stored: a seat's remaining time follows from the
timestamps the ledger itself stamped on the game's events (never a client's
clock), so it is part of the game's state at every version, a replay shows it
and the audit re-derives it from the same rows.  Every function here is pure:
the current time comes in as data (``now_ms``), so deciders stay replayable.

Times are integer milliseconds since the Unix epoch, the same on every
platform and in JSON.  Which seats' clocks run is the ruleset's ``to_act``:
a seat's clock runs while it has a decision to make, and each seat pays for
the time it spent to act when it acts or stops having to (simultaneous
phases charge every seat that was asked).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from pydantic import model_validator

from domain.contract.errors import InvalidCommandError
from domain.contract.messages import Model, Seat

DAY_MS = 86_400_000
MAX_SECONDS = 90 * 86_400
"""The longest period a time control may name (90 days), so deadlines stay
far inside what a timestamp can hold."""
DEFAULT_ABORT_BEFORE_MOVES = 2
"""A game may be aborted while fewer moves than this were made (Lichess: one
move each)."""
ABSENT_PLAYER_RULES = 2
"""The referee's rules a game created now is played under (``rules`` of its
stored control).  Games created before it (``rules`` 1, the default of a
stored control without the field) keep the rules they were played under, so
their logs replay and audit as recorded:

* 1: a seat's first move had the shorter of its clock and the no-show
  window, and a no-show ended the game for the seats still playing, absent
  or not;
* 2: the no-show window alone governs a seat's first move, and every seat
  absent when a no-show is recorded forfeits with it (see
  :func:`absent_seats`; docs/endings.md)."""


class ClockKind(str, enum.Enum):
    """The time systems a game can be played under."""

    NONE = "none"
    """No clock: nobody ever runs out of time."""
    PER_MOVE = "per_move"
    """Each move must come within ``per_move_seconds`` of being asked for."""
    FISCHER = "fischer"
    """Each seat has a bank of ``base_seconds`` and gains ``increment_seconds``
    after each of its moves."""
    CORRESPONDENCE = "correspondence"
    """Each move must come within ``days_per_move`` days."""


class TimeControl(Model):
    """How long seats may think, chosen at creation (and per tournament).

    >>> TimeControl(kind="fischer", base_seconds=300, increment_seconds=2).to_record()
    {'kind': 'fischer', 'base_seconds': 300, 'increment_seconds': 2}
    """

    kind: ClockKind = ClockKind.NONE
    per_move_seconds: int = 0
    base_seconds: int = 0
    increment_seconds: int = 0
    days_per_move: int = 0
    no_show_seconds: int = 0
    """A seat that has not moved yet must move within this many seconds of
    being asked, or it forfeits (0: only the clock above applies)."""
    abort_before_moves: int = DEFAULT_ABORT_BEFORE_MOVES
    """The game may be aborted while fewer moves than this were made (at
    most one move per seat: checked when a game is created)."""
    rules: int = 1
    """The referee's rules the game is played under (:data:`ABSENT_PLAYER_RULES`):
    set by the ledger when it creates a game, never by a client."""

    @model_validator(mode="after")
    def _consistent(self) -> TimeControl:
        for name in (
            "per_move_seconds",
            "base_seconds",
            "increment_seconds",
            "no_show_seconds",
        ):
            if not 0 <= getattr(self, name) <= MAX_SECONDS:
                raise ValueError(f"{name} must be 0-{MAX_SECONDS}")
        if not 0 <= self.days_per_move <= MAX_SECONDS // 86_400:
            raise ValueError(f"days_per_move must be 0-{MAX_SECONDS // 86_400}")
        if not 0 <= self.abort_before_moves <= 100:
            raise ValueError("abort_before_moves must be 0-100")
        needs = {
            ClockKind.PER_MOVE: self.per_move_seconds,
            ClockKind.FISCHER: self.base_seconds,
            ClockKind.CORRESPONDENCE: self.days_per_move,
        }
        if self.kind in needs and not needs[self.kind]:
            raise ValueError(f"a {self.kind.value} clock needs a positive limit")
        return self

    @classmethod
    def checked(cls, fields: dict[str, object]) -> TimeControl:
        """A control a client asked for, refusing what it would ignore.

        Stored controls are read as recorded (:func:`control_of`); a client's
        request is held to more: every field it sets must mean something for
        its kind, so a per-move limit on a Fischer clock, or an increment
        without a Fischer clock, is an error naming the field instead of a
        setting silently dropped.  ``rules`` is the ledger's, not a client's.

        >>> TimeControl.checked({"kind": "fischer", "base_seconds": 60,
        ...                      "per_move_seconds": 5})
        Traceback (most recent call last):
        ...
        domain.contract.errors.InvalidCommandError: time_control.per_move_seconds: a fischer clock does not use per_move_seconds
        """
        unknown = sorted(set(fields) - (set(cls.model_fields) - {"rules"}))
        if unknown:
            raise InvalidCommandError(
                f"time_control.{unknown[0]}: no such time control field",
                violations=((f"time_control.{unknown[0]}", "no such field"),),
            )
        kind = str(fields.get("kind") or ClockKind.NONE.value)
        used = USED_FIELDS.get(kind, CLOCK_FIELDS)  # an unknown kind: refused below
        for name in CLOCK_FIELDS:
            if fields.get(name) and name not in used:
                raise InvalidCommandError(
                    f"time_control.{name}: a {kind} clock does not use {name}",
                    violations=((f"time_control.{name}", f"not used by {kind}"),),
                )
        try:
            return cls.model_validate(fields)
        except ValueError as exc:
            errors = getattr(exc, "errors", None)
            problems = (
                "; ".join(str(e["msg"]) for e in errors()) if errors else str(exc)
            )
            raise InvalidCommandError(
                f"time_control: {problems}",
                violations=(("time_control", problems),),
            ) from None

    @property
    def is_timed(self) -> bool:
        return self.kind is not ClockKind.NONE or self.no_show_seconds > 0

    def to_record(self) -> dict[str, object]:
        """The stored form: the kind and only the fields that are set."""
        out: dict[str, object] = {"kind": self.kind.value}
        out.update(
            self.model_dump(mode="json", exclude_defaults=True, exclude={"kind"})
        )
        return out

    @property
    def move_limit_ms(self) -> int | None:
        """The per-move limit, for the per-move and correspondence kinds."""
        if self.kind is ClockKind.PER_MOVE:
            return self.per_move_seconds * 1000
        if self.kind is ClockKind.CORRESPONDENCE:
            return self.days_per_move * DAY_MS
        return None


CLOCK_FIELDS = (
    "per_move_seconds",
    "base_seconds",
    "increment_seconds",
    "days_per_move",
)
"""The fields that set a clock; which of them a kind uses is :data:`USED_FIELDS`."""
USED_FIELDS: dict[str, tuple[str, ...]] = {
    ClockKind.NONE.value: (),
    ClockKind.PER_MOVE.value: ("per_move_seconds",),
    ClockKind.FISCHER.value: ("base_seconds", "increment_seconds"),
    ClockKind.CORRESPONDENCE.value: ("days_per_move",),
}


UNTIMED = TimeControl()
"""The control of a game created without one.  Shared: most games have no
clock, and a control per open game was a few hundred bytes of every game
the cache holds (the model is frozen, so sharing it is safe)."""


def abort_limit(seat_count: int) -> int:
    """The most ``abort_before_moves`` a game of ``seat_count`` seats may
    allow: one move per seat (at least the default), so an abort calls off a
    game that has not really started and never erases one played for a while.

    >>> abort_limit(2), abort_limit(5)
    (2, 5)
    """
    return max(seat_count, DEFAULT_ABORT_BEFORE_MOVES)


def check_abort_limit(control: TimeControl, seat_count: int) -> None:
    """:raises InvalidCommandError: ``abort_before_moves`` above :func:`abort_limit`."""
    cap = abort_limit(seat_count)
    if control.abort_before_moves > cap:
        raise InvalidCommandError(
            f"time_control.abort_before_moves: at most {cap} for {seat_count} "
            "seats (one move each)",
            violations=(("time_control.abort_before_moves", f"at most {cap}"),),
        )


def control_of(stored: dict[str, object] | None) -> TimeControl:
    """The control a game was created with (its stored form, or none)."""
    return TimeControl.model_validate(stored) if stored else UNTIMED


@dataclass(frozen=True, slots=True)
class Clock:
    """Every seat's clock at one version of a game.

    ``bank_ms`` is what a Fischer seat had left when its clock last stopped;
    ``since_ms`` is when a running clock started (``None``: stopped);
    ``moved`` is whether the seat has made a move yet (the no-show window);
    ``paused_at_ms`` is when an arbiter paused the game (``None``: not
    paused): no clock runs from then on, and on resuming every running clock
    starts again from where it stood (:func:`pause`, :func:`resume`);
    ``extra_ms`` is time an arbiter added to a seat's current move under a
    per-move or correspondence clock (empty: none), spent with that move.
    """

    bank_ms: tuple[int, ...]
    since_ms: tuple[int | None, ...]
    moved: tuple[bool, ...]
    paused_at_ms: int | None = None
    extra_ms: tuple[int, ...] = ()

    @classmethod
    def start(cls, control: TimeControl, seats: int) -> Clock:
        return cls(
            bank_ms=(control.base_seconds * 1000,) * seats,
            since_ms=(None,) * seats,
            moved=(False,) * seats,
        )

    def to_record(self) -> dict[str, Any]:
        """The snapshot form; the arbiter's fields only when set, so a clock
        no arbiter touched is stored as before."""
        out: dict[str, Any] = {
            "bank_ms": list(self.bank_ms),
            "since_ms": list(self.since_ms),
            "moved": list(self.moved),
        }
        if self.paused_at_ms is not None:
            out["paused_at_ms"] = self.paused_at_ms
        if any(self.extra_ms):
            out["extra_ms"] = list(self.extra_ms)
        return out

    @classmethod
    def from_record(cls, data: dict[str, Any]) -> Clock:
        paused = data.get("paused_at_ms")
        return cls(
            bank_ms=tuple(int(v) for v in data["bank_ms"]),
            since_ms=tuple(None if v is None else int(v) for v in data["since_ms"]),
            moved=tuple(bool(v) for v in data["moved"]),
            paused_at_ms=None if paused is None else int(paused),
            extra_ms=tuple(int(v) for v in data.get("extra_ms", ())),
        )

    @property
    def paused(self) -> bool:
        return self.paused_at_ms is not None

    def extra(self, seat: Seat) -> int:
        """The time an arbiter added to ``seat``'s current move (per-move kinds)."""
        return self.extra_ms[seat] if self.extra_ms else 0


def millis(at: datetime) -> int:
    """A ledger timestamp as epoch milliseconds (rounded down)."""
    return int(at.timestamp() * 1000)


def tick(
    clock: Clock,
    control: TimeControl,
    at_ms: int,
    before: tuple[Seat, ...],
    after: tuple[Seat, ...],
    actor: Seat | None,
    moved: bool,
) -> Clock:
    """The clock after one event stamped ``at_ms``.

    ``before``/``after``: the seats to act before and after the event;
    ``actor`` made a move with it when ``moved`` (the first event of a
    decision taken on a seat's command: a Fischer seat gains its increment
    once per move).  Under rules 2 with a no-show window, the time before a
    seat's first move is the window's, not charged to its Fischer bank.

    >>> tc = TimeControl(kind="fischer", base_seconds=10, increment_seconds=1)
    >>> c = tick(Clock.start(tc, 2), tc, 0, (), (0,), None, False)
    >>> c = tick(c, tc, 4_000, (0,), (1,), 0, True)
    >>> c.bank_ms, c.since_ms
    ((7000, 10000), (None, 4000))

    While the game is paused, every event is read at the moment of the pause:
    no time passes for anyone until it resumes.
    """
    if clock.paused_at_ms is not None:
        at_ms = clock.paused_at_ms
    bank, since, has_moved = (
        list(clock.bank_ms),
        list(clock.since_ms),
        list(clock.moved),
    )
    window_first = control.rules >= ABSENT_PLAYER_RULES and control.no_show_seconds
    extra = list(clock.extra_ms)
    for seat in before:
        started = since[seat]
        if started is None or (seat in after and seat != actor):
            continue
        if not (window_first and not has_moved[seat]):  # the window's time is free
            bank[seat] -= at_ms - started
        since[seat] = None
        if extra:
            extra[seat] = 0  # added to that move only
    if moved and actor is not None:
        bank[actor] += control.increment_seconds * 1000
        has_moved[actor] = True
    for seat in after:
        if since[seat] is None:
            since[seat] = at_ms
    return replace(
        clock,
        bank_ms=tuple(bank),
        since_ms=tuple(since),
        moved=tuple(has_moved),
        extra_ms=tuple(extra) if any(extra) else (),
    )


def stop(clock: Clock, at_ms: int) -> Clock:
    """Every running clock stopped at ``at_ms`` (the game ended); a paused
    game's clocks stop where the pause left them."""
    running = tuple(s for s, since in enumerate(clock.since_ms) if since is not None)
    stopped = tick(clock, TimeControl(), at_ms, running, (), None, False)
    return replace(stopped, paused_at_ms=None)


def pause(clock: Clock, at_ms: int) -> Clock:
    """Every clock held at ``at_ms``: no deadline passes while paused.

    >>> tc = TimeControl(kind="per_move", per_move_seconds=30)
    >>> c = pause(Clock((0, 0), (5_000, None), (True, True)), 12_000)
    >>> deadlines(c, tc), remaining(c, tc, 99_000)
    ((None, None), (23000, 30000))
    """
    return replace(clock, paused_at_ms=at_ms)


def resume(clock: Clock, at_ms: int) -> Clock:
    """The clocks running again at ``at_ms`` from where the pause held them:
    each running clock's start moves forward by the length of the pause.

    >>> tc = TimeControl(kind="per_move", per_move_seconds=30)
    >>> c = resume(pause(Clock((0, 0), (5_000, None), (True, True)), 12_000), 40_000)
    >>> deadlines(c, tc)
    (63000, None)
    """
    held = clock.paused_at_ms
    if held is None:
        return clock
    shift = max(0, at_ms - held)
    return replace(
        clock,
        since_ms=tuple(None if s is None else s + shift for s in clock.since_ms),
        paused_at_ms=None,
    )


def add_time(clock: Clock, control: TimeControl, seat: Seat, ms: int) -> Clock:
    """``ms`` more for ``seat``: a Fischer seat's bank grows (for the rest of
    the game); under a per-move or correspondence clock the seat's current
    move gets longer (the next move has the normal limit again).  The no-show
    window is not a clock and is never extended.

    >>> tc = TimeControl(kind="fischer", base_seconds=10)
    >>> add_time(Clock.start(tc, 2), tc, 1, 5_000).bank_ms
    (10000, 15000)
    >>> tc = TimeControl(kind="per_move", per_move_seconds=30)
    >>> deadlines(add_time(Clock((0, 0), (0, None), (True, True)), tc, 0, 9_000), tc)
    (39000, None)
    """
    if control.kind is ClockKind.FISCHER:
        bank = list(clock.bank_ms)
        bank[seat] += ms
        return replace(clock, bank_ms=tuple(bank))
    extra = list(clock.extra_ms) or [0] * len(clock.bank_ms)
    extra[seat] += ms
    return replace(clock, extra_ms=tuple(extra))


def can_add_time(clock: Clock, control: TimeControl, seat: Seat) -> bool:
    """Whether added time would count: a Fischer bank always; a per-move
    limit only while that seat's move is being waited for."""
    if control.kind is ClockKind.FISCHER:
        return True
    return control.move_limit_ms is not None and clock.since_ms[seat] is not None


def deadlines(clock: Clock, control: TimeControl) -> tuple[int | None, ...]:
    """When each running seat's time runs out (``None``: its clock is stopped,
    or the game is paused).

    >>> tc = TimeControl(kind="per_move", per_move_seconds=30, no_show_seconds=10)
    >>> deadlines(Clock((0, 0), (5_000, None), (False, False)), tc)
    (15000, None)
    """
    if clock.paused_at_ms is not None:
        return (None,) * len(clock.since_ms)
    return held_deadlines(clock, control)


def held_deadlines(clock: Clock, control: TimeControl) -> tuple[int | None, ...]:
    """:func:`deadlines` as they would be were the game not paused (a paused
    clock shows the time it holds)."""
    out: list[int | None] = []
    limit = control.move_limit_ms
    for seat, since in enumerate(clock.since_ms):
        if since is None:
            out.append(None)
            continue
        if (
            control.rules >= ABSENT_PLAYER_RULES
            and control.no_show_seconds
            and not clock.moved[seat]
        ):
            out.append(since + control.no_show_seconds * 1000)  # the window alone
            continue
        ends: list[int] = []
        if limit is not None:
            ends.append(since + limit + clock.extra(seat))
        if control.kind is ClockKind.FISCHER:
            ends.append(since + clock.bank_ms[seat])
        if control.no_show_seconds and not clock.moved[seat]:
            ends.append(since + control.no_show_seconds * 1000)
        out.append(min(ends) if ends else None)
    return tuple(out)


def next_deadline(clock: Clock, control: TimeControl) -> tuple[Seat, int] | None:
    """The seat whose time runs out first, and when (ties: the lowest seat)."""
    running = [(at, seat) for seat, at in enumerate(deadlines(clock, control)) if at]
    if not running:
        return None
    at, seat = min(running)
    return seat, at


def remaining(
    clock: Clock, control: TimeControl, now_ms: int
) -> tuple[int | None, ...]:
    """Each seat's time left at ``now_ms`` in milliseconds (never below 0).

    A stopped Fischer clock shows its bank, a stopped per-move clock the full
    limit; ``None`` for a game without a clock.  A paused game's clocks show
    the time they held when it was paused.
    """
    ends = held_deadlines(clock, control)
    if clock.paused_at_ms is not None:
        now_ms = clock.paused_at_ms
    out: list[int | None] = []
    for seat, end in enumerate(ends):
        if end is not None:
            out.append(max(0, end - now_ms))
        elif control.kind is ClockKind.FISCHER:
            out.append(max(0, clock.bank_ms[seat]))  # a fallen flag shows 0
        else:
            out.append(control.move_limit_ms)
    return tuple(out)


def is_no_show(clock: Clock, seat: Seat) -> bool:
    """``seat`` never moved: running out now is a no-show, not a timeout."""
    return not clock.moved[seat]


def absent_seats(clock: Clock, control: TimeControl, at_ms: int) -> tuple[Seat, ...]:
    """The seats absent at ``at_ms``: asked to move, never moved, and past
    their no-show window (none without a window, or under rules 1).

    A seat that was never asked yet is not absent: nothing says it would not
    have moved.

    >>> tc = TimeControl(kind="per_move", per_move_seconds=5, no_show_seconds=30, rules=2)
    >>> absent_seats(Clock((0, 0, 0), (0, 0, None), (False, True, False)), tc, 30_000)
    (0,)
    """
    if control.rules < ABSENT_PLAYER_RULES or not control.no_show_seconds:
        return ()
    window = control.no_show_seconds * 1000
    return tuple(
        seat
        for seat, since in enumerate(clock.since_ms)
        if since is not None and not clock.moved[seat] and since + window <= at_ms
    )
