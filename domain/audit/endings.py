"""Audit of a game's clocks and of the ledger's own endings.

Why apart from :mod:`domain.audit.game_audit`: the decision checks re-run the rules;
these re-derive what the referee did from the same rows: every seat's clock
from the recorded timestamps (the same :mod:`domain.ledger.clocks` functions the
aggregate uses), that no move was stored after a deadline had passed, that a
timeout names the seat whose deadline passed and was recorded after it, that
an abort came early enough, that each ending names someone who may end a
game that way (:func:`ended_by_fault`), and that each ending's conclusion is
the outcome :mod:`domain.contract.endings` gives (an adjudication's too: its
winners, scores and reason follow from its ranks and the ending).

Why the audit checks who ended a game itself: a superuser who rewrites
``by`` and recomputes the chain is otherwise caught only by the missing
receipt, and an export audited offline has no receipts to miss.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from domain.audit.chain import AuditRow
from domain.audit.report import AuditReport
from domain.contract.core import Outcome, Ruleset, Termination
from domain.contract.endings import (
    Consequence,
    EndingKind,
    aborted,
    adjudication_outcome,
    agreed_draw,
    double_forfeit,
    drops_out,
    seat_left,
    with_absent,
)
from domain.ledger import clocks
from domain.ledger.clocks import Clock, TimeControl
from domain.ledger.records import ENDING_KINDS

ARBITERS = ("admin", "organiser:")
"""Who decides a game (:meth:`GameService.Abort`/``Adjudicate``): the admin,
or the organiser of the game's tournament (``organiser:<tournament id>``)."""
TIMEKEEPERS = ("timekeeper", "claim:")
"""Who records a timeout besides a seat's own late move: the ledger's
timekeeper, or a caller's claim (``claim:<role>``)."""


def ended_by_fault(
    kind: str, body: dict[str, Any], seat_count: int, dropped: tuple[int, ...]
) -> str | None:
    """Why ``body`` (an ending of ``kind``) names someone who may not end a
    game that way, or ``None``.

    A resignation is its seat's own; an adjudication an arbiter's; an abort
    an arbiter's or a seat's still playing; a timeout the timekeeper's, a
    claim's, or that of the seat or arbiter whose late call found the flag.

    >>> ended_by_fault("resigned", {"seat": 1, "by": "seat:0"}, 2, ())
    'seat 1 resigned, but the ending says seat:0'
    """
    by, seat = body.get("by"), body.get("seat")
    seats = {f"seat:{s}" for s in range(seat_count)}
    playing = {f"seat:{s}" for s in range(seat_count) if s not in dropped}
    arbiter = isinstance(by, str) and (
        by == ARBITERS[0] or (by.startswith(ARBITERS[1]) and len(by) > len(ARBITERS[1]))
    )
    if kind == EndingKind.RESIGNED.value:
        if not isinstance(seat, int) or not 0 <= seat < seat_count:
            return "a resignation names no seat of the game"
        if by != f"seat:{seat}":
            return f"seat {seat} resigned, but the ending says {by}"
    elif kind == EndingKind.ADJUDICATED.value:
        if seat is not None or not arbiter:
            return f"an adjudication is the admin's or the organiser's, not {by}'s"
    elif kind == EndingKind.ABORTED.value:
        if seat is not None or not (arbiter or by in playing):
            return f"{by} may not abort this game"
    elif kind == EndingKind.TIMED_OUT.value:
        keeper = isinstance(by, str) and (
            by == TIMEKEEPERS[0]
            or (by.startswith(TIMEKEEPERS[1]) and len(by) > len(TIMEKEEPERS[1]))
        )
        if not (keeper or arbiter or by in seats):
            return (
                "a timeout is recorded by the timekeeper, a claim, a seat or an"
                f" arbiter, not {by}"
            )
    return None


def is_ending(row: AuditRow) -> bool:
    return row.type in ENDING_KINDS


def _at(row: AuditRow) -> int:
    return clocks.millis(datetime.fromisoformat(row.record["timestamp"]))


class ClockTrail:
    """Every seat's clock, followed event by event through the audit."""

    def __init__(self, created: dict[str, Any], seat_count: int) -> None:
        self.control = clocks.control_of(created.get("time_control"))
        self.clock: Clock | None = (
            Clock.start(self.control, seat_count) if self.control.is_timed else None
        )
        self.moves = 0
        self.seat_count = seat_count
        self.dropped: tuple[int, ...] = ()
        """The seats that dropped out, in the order they left."""
        self.absent: tuple[int, ...] = ()
        """The seats found absent at a no-show (the referee's rules 2)."""

    def absent_at(self, at_ms: int) -> tuple[int, ...]:
        """The seats absent at ``at_ms``: those found before, and those past
        their no-show window now (:func:`domain.ledger.clocks.absent_seats`)."""
        if self.clock is None:
            return self.absent
        found = clocks.absent_seats(self.clock, self.control, at_ms)
        return tuple(sorted({*self.absent, *found})) if found else self.absent

    def all_absent(self, absent: tuple[int, ...]) -> bool:
        """Every seat still playing is absent: a double forfeit."""
        return bool(absent) and all(
            s in absent for s in range(self.seat_count) if s not in self.dropped
        )

    def check_move(self, row: AuditRow, report: AuditReport) -> None:
        """A move stored after a deadline had passed is a failure.  The
        ledger's moves for a dropped seat are neither checked nor counted
        (an abort's limit counts the players' moves)."""
        if self.is_automatic(row):
            return
        self.moves += 1
        if self.clock is None:
            return
        due = clocks.next_deadline(self.clock, self.control)
        if due is not None and due[1] <= _at(row):
            report.fail(
                row.version,
                "clock",
                f"a move was stored after seat {due[0]}'s deadline",
            )

    def follow(
        self, ruleset: Ruleset[Any], state: Any, row: AuditRow, payload: Any
    ) -> Any:
        """``state`` after ``payload``, moving the clocks with it."""
        if self.clock is None:
            return ruleset.evolve(state, payload)
        before = self.playing(ruleset.to_act(state))
        state = ruleset.evolve(state, payload)
        self.clock = clocks.tick(
            self.clock,
            self.control,
            _at(row),
            before,
            self.playing(ruleset.to_act(state)),
            row.body["actor"],
            row.body["command"] is not None,
        )
        return state

    def playing(self, seats: tuple[int, ...]) -> tuple[int, ...]:
        """``seats`` without those that dropped out (their clocks never run)."""
        return tuple(s for s in seats if s not in self.dropped)

    def is_automatic(self, row: AuditRow) -> bool:
        """A decision the ledger made for a seat that dropped out."""
        return row.body.get("actor") in self.dropped

    def check_automatic(
        self, ruleset: Ruleset[Any], state: Any, row: AuditRow, report: AuditReport
    ) -> None:
        """A dropped seat's move must be the ruleset's automatic command, made
        while the game waited on that seat and on no seat dropped before it."""
        seat = row.body["actor"]
        waiting = [s for s in ruleset.to_act(state) if s in self.dropped]
        command = row.body.get("command") or {}
        expected = ruleset.automatic_command(state, seat) if waiting else None
        if (
            not waiting
            or waiting[0] != seat
            or expected is None
            or command.get("type") != type(expected).__name__
            or command.get("fields") != expected.model_dump(mode="json")
        ):
            report.fail(
                row.version,
                "dropped-out",
                f"seat {seat} dropped out, and this is not its automatic move",
            )

    def stop(self, row: AuditRow) -> None:
        if self.clock is not None:
            self.clock = clocks.stop(self.clock, _at(row))


def check_ending(
    trail: ClockTrail,
    ruleset: Ruleset[Any],
    state: Any,
    group: list[AuditRow],
    report: AuditReport,
) -> None:
    """Check one ending decision: the ending row, then its conclusion."""
    ending, rest = group[0], group[1:]
    body = ending.body
    kind = ENDING_KINDS[ending.type]
    if body.get("kind") != kind:
        report.fail(ending.version, "ending", "the ending's kind differs from its type")
        return
    fault = ended_by_fault(kind, body, trail.seat_count, trail.dropped)
    if fault is not None:
        report.fail(ending.version, "ended-by", fault)
        return
    expected: Outcome | None = None
    seat: int = body.get("seat") or 0
    if kind == EndingKind.TIMED_OUT.value:
        due = clocks.next_deadline(trail.clock, trail.control) if trail.clock else None
        if due is None or due[0] != seat or due[1] != body.get("deadline_ms"):
            report.fail(ending.version, "clock", "the timeout names no passed deadline")
            return
        if due[1] > _at(ending):
            report.fail(
                ending.version, "clock", "a timeout recorded before its deadline"
            )
            return
        assert trail.clock is not None
        no_show = trail.control.no_show_seconds > 0 and not trail.clock.moved[seat]
        termination = Termination.FORFEITED if no_show else Termination.TIMED_OUT
        absent = trail.absent_at(_at(ending))
        if trail.all_absent(absent):
            trail.absent = absent
            expected = double_forfeit(trail.seat_count, trail.dropped, absent)
        trail.absent = absent
    elif kind == EndingKind.RESIGNED.value:
        termination = Termination.RESIGNED
    if expected is None and kind in (
        EndingKind.TIMED_OUT.value,
        EndingKind.RESIGNED.value,
    ):
        consequence = ruleset.consequence(state, seat)
        if consequence is Consequence.DROPS_OUT:
            if seat in trail.dropped:
                report.fail(ending.version, "dropped-out", "a seat left twice")
                return
            trail.dropped = (*trail.dropped, seat)
            if drops_out(trail.seat_count, trail.dropped) and len(group) == 1:
                if trail.clock is not None:  # only the leaver's clock stops
                    trail.clock = clocks.tick(
                        trail.clock,
                        TimeControl(),
                        _at(ending),
                        (seat,),
                        (),
                        None,
                        False,
                    )
                report.decisions_rederived += 1
                return
            if drops_out(trail.seat_count, trail.dropped):
                # recorded before seats could drop out: the leaver placed last
                consequence = Consequence.SEAT_LOSES
        expected = seat_left(
            termination, seat, trail.seat_count, consequence, trail.dropped
        )
    elif kind == EndingKind.ABORTED.value:
        if trail.moves >= trail.control.abort_before_moves:
            report.fail(ending.version, "ending", "aborted after too many moves")
        if trail.control.rules >= clocks.ABSENT_PLAYER_RULES:
            check_abort(trail, ending, report)
        expected = aborted(trail.seat_count, body["reason"] or "aborted")
    elif kind == EndingKind.AGREED.value:
        expected = agreed_draw(trail.seat_count)
    trail.stop(ending)
    concluded = [r for r in rest if r.type not in ENDING_KINDS]
    if len(rest) != 1 or not concluded:
        report.fail(ending.version, "conclusion", "an ending must be concluded")
        return
    outcome = Outcome.model_validate(concluded[0].body["outcome"])
    if expected is not None:
        expected = with_absent(expected, trail.absent)
    ranks = outcome.ranks
    if (
        kind == EndingKind.ADJUDICATED.value
        and len(ranks) == trail.seat_count
        and ranks
        and min(ranks) == 1
        and max(ranks) <= trail.seat_count
    ):
        expected = adjudication_outcome(ranks, body.get("reason", ""))
    if expected is not None and outcome != expected:
        report.fail(
            concluded[0].version,
            "conclusion",
            "recorded outcome differs from the ending",
        )
    elif expected is None and (
        outcome.termination is not Termination.ADJUDICATED
        or len(outcome.ranks) != trail.seat_count
    ):
        report.fail(
            concluded[0].version, "conclusion", "an adjudication's outcome is malformed"
        )
    else:
        report.decisions_rederived += 1  # the ending's outcome, re-derived


def check_abort(trail: ClockTrail, ending: AuditRow, report: AuditReport) -> None:
    """An abort (under the referee's rules 2) came while no deadline had
    passed, and not from a seat once a seat had left."""
    due = clocks.next_deadline(trail.clock, trail.control) if trail.clock else None
    if due is not None and due[1] <= _at(ending):
        report.fail(ending.version, "ending", "aborted after a deadline had passed")
    if trail.dropped and str(ending.body.get("by", "")).startswith("seat:"):
        report.fail(ending.version, "ending", "a seat aborted after a seat had left")
