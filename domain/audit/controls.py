"""Audit of the referee's controls: pauses, added time and draw offers.

Why apart from :mod:`domain.audit.endings`: those re-derive how a game
ended; these re-derive what an arbiter or a seat did to a running game, with
the same pure checks the aggregate made when it recorded them
(:mod:`domain.ledger.controls`) and the same clock functions
(:mod:`domain.ledger.clocks`), so the clocks the audit follows include every
pause and every added second.  A pause whose effect was changed (its time,
a resume dropped, more time added) moves the deadlines the audit derives, and
the move or timeout after it then fails the clock checks.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from domain.audit.chain import AuditRow
from domain.audit.endings import ClockTrail
from domain.audit.report import AuditReport
from domain.contract.core import IllegalCommandError, RuleError
from domain.ledger import clocks, controls
from domain.ledger.controls import ControlKind
from domain.ledger.records import CONTROL_KINDS, ENDING_KINDS


def is_control(row: AuditRow) -> bool:
    return row.type in CONTROL_KINDS


def event_ms(row: AuditRow) -> int:
    return clocks.millis(datetime.fromisoformat(row.record["timestamp"]))


class ControlTrail:
    """The standing a game's controls leave, followed through the audit."""

    def __init__(self, seat_count: int) -> None:
        self.seat_count = seat_count
        self.paused = False
        self.draw_offer: int | None = None
        self.offered_at: tuple[int, ...] = (controls.NEVER_OFFERED,) * seat_count

    def check_move(self, clock: ClockTrail, row: AuditRow, report: AuditReport) -> None:
        """A seat's move: never while paused; it lapses the opponent's offer."""
        if clock.is_automatic(row):
            return
        if self.paused:
            report.fail(row.version, "pause", "a move was stored while paused")
        self.draw_offer = controls.after_move(self.draw_offer, row.body.get("actor"))

    def check_agreed(self, row: AuditRow, report: AuditReport) -> None:
        """A draw by agreement needs the other seat's standing offer, accepted
        by the seat the ending names, while the game ran."""
        if ENDING_KINDS.get(row.type) != "agreed":
            return
        seat = row.body.get("seat")
        try:
            if not isinstance(seat, int) or row.body.get("by") != f"seat:{seat}":
                raise controls.DrawOfferError(
                    "draw.by", "the draw was not accepted by a seat"
                )
            controls.check_answer(seat, self.draw_offer)
            if self.paused:
                raise controls.GamePausedError()
        except RuleError as exc:
            report.fail(row.version, "draw", f"a draw without a standing offer: {exc}")

    def check(
        self,
        clock: ClockTrail,
        to_act: Sequence[int],
        row: AuditRow,
        report: AuditReport,
    ) -> None:
        """Re-check one control and follow its effect on the clocks."""
        body = row.body
        kind = ControlKind(CONTROL_KINDS[row.type])
        seat, by, at = body.get("seat"), str(body.get("by", "")), event_ms(row)
        if body.get("kind") != kind.value:
            report.fail(
                row.version, "control", "the control's kind differs from its type"
            )
            return
        try:
            if kind in (ControlKind.DRAW_OFFERED, ControlKind.DRAW_DECLINED):
                if not isinstance(seat, int) or by != f"seat:{seat}":
                    raise controls.DrawOfferError(
                        "draw.by", "a draw offer or decline is a seat's own"
                    )
                if self.paused:
                    raise controls.GamePausedError()
            elif not by or by.startswith("seat:"):
                raise IllegalCommandError(
                    "control.by", "an arbiter's control given by no arbiter"
                )
            if kind is ControlKind.PAUSED:
                controls.check_pause(self.paused, pausing=True)
                self._not_flagged(clock, at)
                self.paused = True
                if clock.clock is not None:
                    clock.clock = clocks.pause(clock.clock, at)
            elif kind is ControlKind.RESUMED:
                controls.check_pause(self.paused, pausing=False)
                self.paused = False
                if clock.clock is not None:
                    clock.clock = clocks.resume(clock.clock, at)
            elif kind is ControlKind.TIME_ADDED:
                ms = body.get("ms")
                if not isinstance(seat, int) or not isinstance(ms, int):
                    raise controls.AddTimeError("clock.added", "no seat or time")
                controls.check_added(seat, self.seat_count, ms)
                if clock.clock is None or not clocks.can_add_time(
                    clock.clock, clock.control, seat
                ):
                    raise controls.AddTimeError("clock.added", "the time cannot count")
                self._not_flagged(clock, at)
                clock.clock = clocks.add_time(clock.clock, clock.control, seat, ms)
            elif kind is ControlKind.DRAW_OFFERED:
                assert isinstance(seat, int)
                controls.check_offer(
                    seat,
                    self.seat_count,
                    clock.playing(tuple(to_act)),
                    self.draw_offer,
                    self.offered_at,
                    clock.moves,
                )
                self.draw_offer = seat
                self.offered_at = controls.offered(self.offered_at, seat, clock.moves)
            else:
                assert isinstance(seat, int)
                controls.check_answer(seat, self.draw_offer)
                self.draw_offer = None
        except RuleError as exc:
            report.fail(row.version, "control", f"{kind.value} not allowed: {exc}")
            return
        report.decisions_rederived += 1

    @staticmethod
    def _not_flagged(clock: ClockTrail, at: int) -> None:
        """A control recorded after a deadline had passed hid a timeout."""
        if clock.clock is None:
            return
        due = clocks.next_deadline(clock.clock, clock.control)
        if due is not None and due[1] <= at:
            raise controls.AddTimeError(
                "clock.flagged", f"seat {due[0]}'s deadline had already passed"
            )
