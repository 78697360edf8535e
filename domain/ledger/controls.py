"""The referee's controls that do not end a game: pause, resume, added time,
and the players' draw offers.

Why at the ledger level, like the endings: every game can be paused by an
arbiter or drawn by agreement whatever its rules, so the ruleset never sees
these; each is a ``ledger.*`` event of its own decision in the game's hash
chain, and the audit re-derives its effect from the same functions.

The checks here are pure and take the game's standing as plain values, so the
aggregate that records a control and the audit that re-checks it (an event in
a log written by someone else) ask exactly the same questions.

A draw offer follows FIDE's rule (9.1.2.1): a seat offers on its own turn
(in chess, after making its move and before pressing the clock; here,
while it has a decision to make).  The offer stands until the opponent
accepts, declines, or moves (moving on declines it), and a seat offers at
most once per move it makes, so a declined offer cannot be repeated until
the offerer has moved again: that is the limit on offering over and over.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence

from domain.contract.errors import IllegalCommandError, InvalidCommandError
from domain.contract.messages import Seat

MAX_ADDED_SECONDS = 7 * 86_400
"""The most time one call may add (a week: enough for a correspondence game)."""
NEVER_OFFERED = -1
"""A seat's ``offered_at`` before its first draw offer."""


class ControlKind(str, enum.Enum):
    """The referee's controls; each is recorded under its own type name."""

    PAUSED = "paused"
    RESUMED = "resumed"
    TIME_ADDED = "time_added"
    DRAW_OFFERED = "draw_offered"
    DRAW_DECLINED = "draw_declined"


class GamePausedError(IllegalCommandError):
    """Raised when a player acts on a paused game: nothing moves until the
    arbiter resumes it."""

    def __init__(self) -> None:
        super().__init__(
            "game.paused", "the game is paused by the arbiter: wait until it resumes"
        )


class PauseStateError(IllegalCommandError):
    """Raised for a pause of a paused game, or a resume of a running one."""

    def __init__(self, paused: bool) -> None:
        if paused:
            super().__init__("game.already-paused", "the game is already paused")
        else:
            super().__init__("game.not-paused", "the game is not paused")


class AddTimeError(IllegalCommandError):
    """Raised when added time could not count (no clock, or a per-move
    seat whose move is not being waited for)."""


class DrawOfferError(IllegalCommandError):
    """Raised when a draw offer, acceptance or decline is not allowed now."""


def check_pause(paused: bool, pausing: bool) -> None:
    """A pause needs a running game, a resume a paused one.

    :raises PauseStateError:
    """
    if paused == pausing:
        raise PauseStateError(paused)


def check_added(seat: Seat, seat_count: int, ms: int) -> None:
    """``ms`` milliseconds for ``seat`` is a well-formed addition.

    :raises InvalidCommandError:
    """
    if not 0 <= seat < seat_count:
        raise InvalidCommandError(
            f"seat {seat} does not exist in this game",
            violations=(("seat", f"this game has {seat_count} seats"),),
        )
    if not 0 < ms <= MAX_ADDED_SECONDS * 1000:
        raise InvalidCommandError(
            f"added time must be 1 ms to {MAX_ADDED_SECONDS} seconds",
            violations=(("seconds", f"1-{MAX_ADDED_SECONDS} seconds"),),
        )


def check_offer(
    seat: Seat,
    seat_count: int,
    to_act: Sequence[Seat],
    offer: Seat | None,
    offered_at: Sequence[int],
    moves_made: int,
) -> None:
    """``seat`` may offer a draw now.

    >>> check_offer(0, 2, (0,), None, (-1, -1), 4)
    >>> check_offer(0, 2, (1,), None, (-1, -1), 4)
    Traceback (most recent call last):
    ...
    domain.ledger.controls.DrawOfferError: [draw.not-your-turn] offer a draw on your own turn

    :raises DrawOfferError:
    """
    if seat_count != 2:
        raise DrawOfferError(
            "draw.two-players-only", "draws are offered only in 2-player games"
        )
    if offer is not None:
        who = "you have" if offer == seat else "your opponent has"
        raise DrawOfferError("draw.offer-standing", f"{who} a draw offer standing")
    if seat not in to_act:
        raise DrawOfferError("draw.not-your-turn", "offer a draw on your own turn")
    if offered_at and offered_at[seat] == moves_made:
        raise DrawOfferError(
            "draw.offer-once-per-move",
            "you already offered a draw since your last move: move first",
        )


def check_answer(seat: Seat, offer: Seat | None) -> None:
    """``seat`` may accept or decline the standing offer: the other seat's.

    :raises DrawOfferError:
    """
    if offer is None:
        raise DrawOfferError("draw.no-offer", "there is no draw offer to answer")
    if offer == seat:
        raise DrawOfferError(
            "draw.own-offer", "a seat cannot answer its own draw offer"
        )


def offered(offered_at: Sequence[int], seat: Seat, moves_made: int) -> tuple[int, ...]:
    """``offered_at`` after ``seat`` offered with ``moves_made`` moves made."""
    out = list(offered_at)
    out[seat] = moves_made
    return tuple(out)


def after_move(offer: Seat | None, actor: Seat | None) -> Seat | None:
    """The standing offer after ``actor`` moved: the opponent's move lapses it.

    >>> after_move(0, 0), after_move(0, 1)
    (0, None)
    """
    return None if offer is not None and actor != offer else offer
