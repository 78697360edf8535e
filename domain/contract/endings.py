"""Endings beyond the rulebook: resignation, abort, adjudication, timeout, forfeit.

The convention for absent players, aborts and forfeits is written in
docs/endings.md; this module computes the outcomes it gives.

Why at the ledger level: every game can be conceded, called off, decided by
an arbiter or lost on time, whatever its rules, so the ledger records these
endings itself (``ledger.*`` events in the game's hash chain) and a ruleset
only says what running out of time costs (:class:`Consequence`, the
``consequence`` of :class:`~domain.contract.core.Ruleset`).

The outcome of each ending is decided here, purely, so the aggregate that
records it and the audit that re-checks it compute the same value.
"""

from __future__ import annotations

import enum

from domain.contract.errors import IllegalCommandError, InvalidCommandError
from domain.contract.messages import Seat
from domain.contract.outcomes import (
    RANKING_RULE,
    Outcome,
    Termination,
    competition_ranking,
    is_competition_ranking,
)


class EndingKind(str, enum.Enum):
    """The ledger's own endings; each is recorded under its own type name."""

    RESIGNED = "resigned"
    ABORTED = "aborted"
    ADJUDICATED = "adjudicated"
    TIMED_OUT = "timed_out"
    AGREED = "agreed"
    """The two players agreed a draw (a standing offer, accepted)."""


class Consequence(str, enum.Enum):
    """What a seat leaving the game (time out, resignation) costs, per ruleset."""

    SEAT_LOSES = "seat_loses"
    """The seat is placed last and every other seat shares the win (two
    players: the other seat wins)."""
    TEAM_LOSES = "team_loses"
    """A cooperative game: the whole team loses."""
    DROPS_OUT = "drops_out"
    """A competitive game of three or more: the seat drops out and the others
    play on.  The ledger makes every decision it is asked for with the
    ruleset's automatic command (a "zombie", as on Board Game Arena), its
    clock stops, and it ranks below every seat still playing; when one seat
    is left playing, the game ends with that seat the winner."""


def seat_loses(state: object, seat: Seat) -> Consequence:
    """The default ``Ruleset.consequence``: at any competitive table the
    leaver is placed last, whatever the state.

    >>> seat_loses(None, 0).value
    'seat_loses'
    """
    del state, seat
    return Consequence.SEAT_LOSES


def seat_leaves(
    termination: Termination,
    seat: Seat,
    seat_count: int,
    consequence: Consequence,
    reason: str,
) -> Outcome:
    """The outcome when ``seat`` resigns, times out or forfeits.

    >>> seat_leaves(Termination.RESIGNED, 0, 2, Consequence.SEAT_LOSES, "").winners
    (1,)
    >>> o = seat_leaves(Termination.TIMED_OUT, 1, 3, Consequence.TEAM_LOSES, "")
    >>> o.winners, o.ranks
    ((), (1, 1, 1))
    """
    seats = range(seat_count)
    if consequence is Consequence.TEAM_LOSES:
        return Outcome(
            termination=termination,
            ranks=tuple(1 for _ in seats),
            scores=tuple(0 for _ in seats),
            winners=(),
            reason=reason,
        )
    return Outcome(
        termination=termination,
        ranks=tuple(2 if s == seat else 1 for s in seats),
        scores=tuple(0 for _ in seats),
        winners=tuple(s for s in seats if s != seat),
        reason=reason,
    )


def drops_out(seat_count: int, dropped: tuple[Seat, ...]) -> bool:
    """Whether the game plays on after the seats in ``dropped`` left
    (in the order they left): more than one seat is still playing.

    >>> drops_out(3, (1,)), drops_out(3, (1, 0))
    (True, False)
    """
    return seat_count - len(set(dropped)) > 1


def last_standing(
    termination: Termination, seat_count: int, dropped: tuple[Seat, ...], reason: str
) -> Outcome:
    """The outcome when every seat but one dropped out (``dropped`` in the
    order they left): the one still playing wins, and the later a seat left
    the better it ranks.

    >>> o = last_standing(Termination.RESIGNED, 3, (2, 0), "")
    >>> o.ranks, o.winners
    ((2, 1, 3), (1,))
    """
    return with_dropouts(
        Outcome(
            termination=termination,
            ranks=(1,) * seat_count,
            scores=(0,) * seat_count,
            winners=tuple(range(seat_count)),
            reason=reason,
        ),
        dropped,
    )


def leaving_reason(termination: Termination, seat: Seat) -> str:
    """The outcome's reason when ``seat`` leaves by ``termination``.

    >>> leaving_reason(Termination.FORFEITED, 1)
    'seat 1 did not show up'
    """
    if termination is Termination.RESIGNED:
        return f"seat {seat} resigned"
    if termination is Termination.FORFEITED:
        return f"seat {seat} did not show up"
    return f"seat {seat} ran out of time"


def seat_left(
    termination: Termination,
    seat: Seat,
    seat_count: int,
    consequence: Consequence,
    dropped: tuple[Seat, ...],
) -> Outcome | None:
    """The outcome when ``seat`` resigns or runs out of time, the ruleset's
    ``consequence`` for it; ``None`` when it drops out and the others play on.

    ``dropped``: the seats that dropped out, in the order they left, ``seat``
    among them when it drops out now.

    >>> seat_left(Termination.RESIGNED, 1, 3, Consequence.DROPS_OUT, (1,)) is None
    True
    >>> o = seat_left(Termination.RESIGNED, 1, 3, Consequence.DROPS_OUT, (0, 1))
    >>> o.winners, o.reason
    ((2,), 'seat 1 resigned')
    """
    reason = leaving_reason(termination, seat)
    if consequence is Consequence.DROPS_OUT:
        if drops_out(seat_count, dropped):
            return None
        return last_standing(termination, seat_count, dropped, reason)
    return seat_leaves(termination, seat, seat_count, consequence, reason)


def with_dropouts(outcome: Outcome, dropped: tuple[Seat, ...]) -> Outcome:
    """``outcome`` with the seats that dropped out ranked below every seat
    still playing (the first to leave last), the others keeping their order.

    Scores stay as the rules counted them; only places move.  With nobody
    dropped out the outcome is returned unchanged.

    >>> from domain.contract.outcomes import ranks_from_scores
    >>> o = Outcome(termination=Termination.COMPLETED, ranks=ranks_from_scores(
    ...     [9, 4, 7, 4]), scores=(9, 4, 7, 4), winners=(0,))
    >>> d = with_dropouts(o, (0,))
    >>> d.ranks, d.winners
    ((4, 2, 1, 2), (2,))
    """
    if not dropped:
        return outcome
    playing = [s for s in range(len(outcome.ranks)) if s not in dropped]
    ranks = list(outcome.ranks)
    for seat in playing:
        ranks[seat] = 1 + sum(
            1 for other in playing if outcome.ranks[other] < outcome.ranks[seat]
        )
    for place, seat in enumerate(reversed(dropped)):
        ranks[seat] = len(playing) + 1 + place
    return outcome.model_copy(
        update={
            "ranks": tuple(ranks),
            "winners": tuple(s for s in playing if ranks[s] == 1),
        }
    )


def aborted(seat_count: int, reason: str) -> Outcome:
    """Nobody won or lost: every seat shares rank 1 and there is no winner."""
    return Outcome(
        termination=Termination.ABORTED,
        ranks=(1,) * seat_count,
        scores=(0,) * seat_count,
        winners=(),
        reason=reason,
    )


def double_forfeit(
    seat_count: int, dropped: tuple[Seat, ...], absent: tuple[Seat, ...]
) -> Outcome:
    """Every seat still playing is absent: nobody wins, and every seat scores
    a loss (the absent ones, ``absent``, no point and no rating).  The seats
    that left before (``dropped``) keep their places below the others.

    >>> o = double_forfeit(2, (), (0, 1))
    >>> o.termination.value, o.winners, o.ranks, o.absent, o.reason
    ('forfeited', (), (1, 1), (0, 1), 'no seat showed up (seats 0, 1)')
    """
    reason = f"no seat showed up (seats {', '.join(map(str, absent))})"
    everyone = Outcome(
        termination=Termination.FORFEITED,
        ranks=(1,) * seat_count,
        scores=(0,) * seat_count,
        winners=(),
        reason=reason,
    )
    return with_dropouts(everyone, dropped).model_copy(
        update={"winners": (), "absent": tuple(sorted(absent))}
    )


def with_absent(outcome: Outcome, absent: tuple[Seat, ...]) -> Outcome:
    """``outcome`` naming the seats that forfeited by never moving (unchanged
    when there are none, so outcomes without absent seats stay as they were).

    An absent seat never wins: a game whose only first places were absent
    seats has no winner.
    """
    if not absent:
        return outcome
    return outcome.model_copy(
        update={
            "absent": tuple(sorted(absent)),
            "winners": tuple(s for s in outcome.winners if s not in absent),
        }
    )


def adjudicated(ranks: tuple[int, ...], reason: str) -> Outcome:
    """The result an arbiter recorded: ``ranks[seat]``, 1 the best.

    :raises InvalidCommandError: for ranks without a first place or out of
        range, or no reason.
    """
    if not ranks or min(ranks) != 1 or max(ranks) > len(ranks):
        raise InvalidCommandError(
            f"ranks: one per seat, 1-{len(ranks)}, with a first place",
            violations=(("ranks", "one rank per seat, 1 the best"),),
        )
    if not is_competition_ranking(ranks):
        meant = competition_ranking(ranks)
        text = (
            f"{RANKING_RULE}: ranks {list(ranks)} are not a competition ranking; "
            "a seat's rank is 1 + the number of seats ranked better, so tied "
            f"seats leave the next places empty (perhaps {list(meant)})"
        )
        raise InvalidCommandError(text, violations=(("ranks", text),))
    if not reason.strip():
        raise InvalidCommandError(
            "an adjudication needs a reason", violations=(("reason", "required"),)
        )
    return adjudication_outcome(ranks, reason)


def adjudication_outcome(ranks: tuple[int, ...], reason: str) -> Outcome:
    """The outcome an adjudication of ``ranks`` records, without the checks
    of :func:`adjudicated` (the audit re-derives outcomes recorded before
    the ranking rule existed with it).

    >>> adjudication_outcome((1, 1, 3), "tied").winners
    (0, 1)
    """
    return Outcome(
        termination=Termination.ADJUDICATED,
        ranks=ranks,
        scores=(0,) * len(ranks),
        winners=tuple(s for s, r in enumerate(ranks) if r == 1),
        reason=reason,
    )


def agreed_draw(seat_count: int) -> Outcome:
    """A draw by agreement: both seats share rank 1, and nobody wins.

    >>> agreed_draw(2).ranks, agreed_draw(2).winners
    ((1, 1), ())
    """
    return Outcome(
        termination=Termination.AGREED,
        ranks=(1,) * seat_count,
        scores=(0,) * seat_count,
        winners=(),
        reason="draw agreed",
    )


class ClockFlaggedError(IllegalCommandError):
    """Raised when a move arrives after a seat's deadline: the clock fell.

    The ledger records the timeout before refusing the move, so the game ends
    the same way whoever notices first (the mover or the timekeeper).
    """

    def __init__(self, seat: Seat, deadline_ms: int) -> None:
        super().__init__("clock.flagged", f"seat {seat} ran out of time")
        self.seat = seat
        self.deadline_ms = deadline_ms


class ClockRunningError(IllegalCommandError):
    """Raised when a timeout is claimed while every clock still has time."""

    def __init__(self) -> None:
        super().__init__("clock.running", "no seat has run out of time")


class DroppedOutError(IllegalCommandError):
    """Raised when a seat that dropped out tries to act: the ledger plays
    its automatic moves, and it cannot resign twice."""

    def __init__(self, seat: Seat) -> None:
        super().__init__("seat.dropped-out", f"seat {seat} has dropped out")
        self.seat = seat


class AbortAfterLeavingError(IllegalCommandError):
    """Raised when an abort comes after a seat has left the game (resigned,
    ran out of time or forfeited): its result stands, and aborting would
    erase it.  An arbiter can still adjudicate."""

    def __init__(self, seats: tuple[Seat, ...]) -> None:
        super().__init__(
            "referee.abort-after-leaving",
            f"seat {seats[0]} has left this game; it can no longer be aborted",
        )
        self.seats = seats


class AbortTooLateError(IllegalCommandError):
    """Raised when an abort comes after the moves a game may be aborted within."""

    def __init__(self, limit: int) -> None:
        super().__init__(
            "referee.abort-too-late",
            f"a game can be aborted only before {limit} moves were made",
        )
