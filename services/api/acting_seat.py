"""Which seat a caller acts for: the one rule ``SubmitMove`` and ``ListLegalMoves`` share.

Kept out of the servicer so the servicer stays a parse-call-present adapter,
and so both RPCs answer the same token with the same seat or the same refusal.
"""

from __future__ import annotations

from typing import Any

from domain.contract.core import InvalidCommandError, Seat
from services.api.auth import Principal
from services.api.errors import PermissionDeniedError, UnauthenticatedError


def acting_seat(principal: Principal, game: Any, requested: Seat | None) -> Seat:
    """The seat the caller acts for.

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
