"""Who is calling, and which seat a caller acts for: one value every entrypoint maps to.

Why in the service layer: the rules of who sees what (:mod:`services.ledger.reading`)
and who may act for a seat take the caller as a plain value, so the gRPC edge
(which resolves a bearer token to a :class:`Principal`) and the dashboard
(an anonymous reader) ask the same rules without either building the other.
The refusals are service-layer errors; the gRPC edge maps them to statuses
(``services/api/errors.py``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from domain.contract.core import ADMIN, SPECTATOR, InvalidCommandError, Seat, Viewer
from domain.contract.viewers import SeatGrant


@dataclass(frozen=True)
class Principal:
    """Who is calling: the admin, the holder of one game's seat token, or anyone."""

    admin: bool = False
    grant: SeatGrant | None = None
    tournament: Any = None
    """A ``TournamentGrant`` (organiser or player of one tournament)."""
    organiser: bool = False
    """Holds an organiser credential: may create tournaments."""

    def viewer_for(self, game_id: UUID) -> Viewer:
        if self.admin:
            return ADMIN
        if self.grant is not None and self.grant.game_id == game_id:
            return Viewer.player(*self.grant.seats)
        return SPECTATOR

    def seats_in(self, game_id: UUID) -> tuple[Seat, ...]:
        if self.grant is not None and self.grant.game_id == game_id:
            return self.grant.seats
        return ()

    @property
    def role(self) -> str:
        if self.admin:
            return "admin"
        if self.grant:
            return "player"
        if self.organiser:
            return "organiser"
        return self.tournament.role if self.tournament else "spectator"


ANONYMOUS = Principal()
"""A caller with no credential: a spectator of every game."""


class Refusal(Exception):
    """A refusal of the caller with a stable reason more precise than its kind."""

    default_reason = ""

    def __init__(self, message: str, reason: str = "") -> None:
        super().__init__(message)
        self.reason = reason or self.default_reason


class UnauthenticatedError(Refusal):
    """Raised when a credential is missing where required, or unknown.

    Reasons: ``TOKEN_REQUIRED`` (no token), ``UNKNOWN_TOKEN``,
    ``MALFORMED_AUTHORIZATION`` (not ``Bearer <token>``).
    """

    default_reason = "TOKEN_REQUIRED"


class PermissionDeniedError(Refusal):
    """Raised when a valid credential does not allow the requested action.

    Reasons: ``TOKEN_FOR_ANOTHER_GAME``, ``ADMIN_CANNOT_MOVE``, ``ADMIN_ONLY``,
    else ``PERMISSION_DENIED``.
    """

    default_reason = "PERMISSION_DENIED"


def acting_seat(principal: Principal, game: Any, requested: Seat | None) -> Seat:
    """The seat the caller acts for: the one rule a move and a legal-move list share,
    so both answer the same caller with the same seat or the same refusal.

    :raises UnauthenticatedError: spectators cannot act.
    :raises PermissionDeniedError: a seat the token does not control.
    """
    if principal.admin:
        if requested is None:
            raise InvalidCommandError(
                "admins must name the seat",
                violations=(("seat", "required for the admin token"),),
            )
        if not 0 <= requested < game.seat_count:
            raise InvalidCommandError(
                f"seat must be between 0 and {game.seat_count - 1}",
                violations=(("seat", f"this game has {game.seat_count} seats"),),
            )
        return requested
    if principal.grant is None:
        raise UnauthenticatedError(
            "this call needs a seat token (authorization: Bearer <token>)"
        )
    seats = principal.seats_in(game.id)
    if not seats:
        raise PermissionDeniedError(
            "this token is for another game", "TOKEN_FOR_ANOTHER_GAME"
        )
    if requested is not None:
        if requested not in seats:
            raise PermissionDeniedError(f"this token does not control seat {requested}")
        return requested
    if len(seats) == 1:
        return seats[0]
    acting = [s for s in seats if s in game.to_act()]
    if len(acting) == 1:
        return acting[0]
    raise InvalidCommandError(
        f"this token controls seats {list(seats)}: name the seat",
        violations=(("seat", f"one of {list(seats)}"),),
    )


async def decider(
    principal: Principal,
    game_id: UUID,
    tournament_of: Callable[[UUID], Awaitable[UUID | None]],
    *,
    seats_may: bool = False,
) -> str:
    """The ``by`` a decision over a game records for ``principal``: ``admin``,
    ``organiser:<tournament>`` for the organiser of the game's tournament, or
    (where ``seats_may``: an abort) ``seat:<n>`` for a seat of the game.

    Why one rule: an ending by decision and an arbiter's control (time, pause)
    are the same authority over a game, so both answer the same caller alike.
    ``tournament_of`` names the game's tournament (``None``: none); it is
    asked only for an organiser.

    :raises UnauthenticatedError: no credential that could decide.
    :raises PermissionDeniedError: another tournament's organiser, or a
        credential that never decides (a player's tournament token).
    """
    if principal.admin:
        return "admin"
    seats = principal.seats_in(game_id)
    if seats_may and seats:
        return f"seat:{min(seats)}"
    grant = principal.tournament
    if grant is not None and grant.role == "organiser":
        owner = await tournament_of(game_id)
        if owner == grant.tournament_id:
            return f"organiser:{owner}"
        raise PermissionDeniedError(
            "an organiser decides only games of its own tournament",
            "NOT_YOUR_TOURNAMENT",
        )
    if principal.grant is None and grant is None and not principal.organiser:
        raise UnauthenticatedError(
            "this call needs the admin token or the tournament organiser's token"
        )
    raise PermissionDeniedError(
        "only the admin or the game's tournament organiser may do this",
        "ARBITER_ONLY",
    )
