"""A game's clocks and the ledger's own endings, as API messages.

Why apart from :mod:`services.proto.game_messages`: the clocks are read at a time
(the ledger's clock for a running game, the last event's for a finished game
or a past version), and the ending events have their own payload message;
the summary and event presenters call these.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from google.protobuf import timestamp_pb2

from domain.ledger.aggregate import Game
from domain.ledger.clocks import deadlines, millis, remaining
from ledger.v1 import game_service_pb2 as pb


def _stamp(ms: int) -> timestamp_pb2.Timestamp:
    ts = timestamp_pb2.Timestamp()
    ts.FromMilliseconds(ms)
    return ts


def time_control_message(record: dict[str, Any]) -> pb.TimeControl:
    """A stored time control (:meth:`domain.ledger.clocks.TimeControl.to_record`),
    without the referee's ``rules`` version, which is the ledger's, not a
    setting a client chose."""
    return pb.TimeControl(**{k: v for k, v in record.items() if k != "rules"})


def add_clocks(msg: pb.GameSummary, game: Game, now: datetime, *, live: bool) -> None:
    """Fill ``msg``'s time control, per-seat clocks and next deadline.

    ``live``: ``game`` is the head of a running game, read at ``now``;
    otherwise (a finished game, a past version) at its last event's time.
    """
    if game.time_control:
        msg.time_control.CopyFrom(time_control_message(game.time_control))
    if game.clock is None:
        return
    at = millis(now) if live else millis(game.modified_on)
    msg.clocks.extend(seat_clocks(game, at))
    due = game.next_deadline()
    if due is not None:
        msg.next_deadline_seat = due[0]
        msg.next_deadline.CopyFrom(_stamp(due[1]))
    msg.clock_read_at.CopyFrom(_stamp(at))


def seat_clocks(game: Game, at_ms: int) -> list[pb.SeatClock]:
    """Each seat's clock of ``game`` read at ``at_ms`` (none without a clock)."""
    if game.clock is None:
        return []
    ends = deadlines(game.clock, game.control)
    out = []
    for seat, left in enumerate(remaining(game.clock, game.control, at_ms)):
        clock = pb.SeatClock(
            seat=seat,
            remaining_ms=left or 0,
            running=bool(ends[seat]),
            paused=game.clock.paused,
        )
        end = ends[seat]
        if end is not None:
            clock.deadline.CopyFrom(_stamp(end))
        out.append(clock)
    return out


def add_event_clocks(msg: pb.GameEvent, game: Game, at: datetime) -> None:
    """Fill a streamed event's clocks: ``game`` as it stands right after it."""
    if game.clock is None:
        return
    msg.clocks.extend(seat_clocks(game, millis(at)))
    due = game.next_deadline()
    if due is not None:
        msg.next_deadline_seat = due[0]
        msg.next_deadline.CopyFrom(_stamp(due[1]))


def ended_message(event: Any) -> pb.GameEnded:
    """The payload of a ``ledger.SeatResigned``/``GameAborted``/... event."""
    msg = pb.GameEnded(kind=event.kind, by=event.by, reason=event.reason)
    if event.seat is not None:
        msg.seat = event.seat
    if event.deadline_ms is not None:
        msg.deadline.CopyFrom(_stamp(event.deadline_ms))
    return msg


def control_message(event: Any) -> pb.GameControl:
    """The payload of a ``ledger.GamePaused``/``TimeAdded``/``DrawOffered``/... event."""
    msg = pb.GameControl(kind=event.kind, by=event.by, added_ms=event.ms or 0)
    if event.seat is not None:
        msg.seat = event.seat
    return msg


def system_now() -> datetime:
    return datetime.now(UTC)
