"""The one table from exceptions to gRPC status codes, with ``google.rpc`` details.

Why one table: every servicer method maps errors the same way, and a client
can rely on it: malformed input is ``INVALID_ARGUMENT``, a move the rules
refuse is ``FAILED_PRECONDITION`` with the rule's id in ``ErrorInfo.reason``,
a lost race is ``ABORTED``.  Anything not in the table is a bug of ours and
becomes ``INTERNAL`` with a generic message (details go to the log only, so
no hidden state can leak through an error).
"""

from __future__ import annotations

import logging
from typing import NoReturn

import grpc
from eventsourcing.persistence import IntegrityError
from google.protobuf import any_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

from domain.core import IllegalCommandError, InvalidCommandError
from domain.games import UnknownGameError
from services.application import CommandIdReusedError, ConcurrencyConflictError, GameNotFoundError

log = logging.getLogger(__name__)
DOMAIN = "ledger.v1"


class UnauthenticatedError(Exception):
    """Raised when a bearer token is missing where required, or unknown."""


class PermissionDeniedError(Exception):
    """Raised when a valid token does not allow the requested action."""


_FIXED_MESSAGES: dict[type[BaseException], str] = {
    IntegrityError: "another request changed this first; reload and retry",
}
"""Messages for errors whose own text names tables, keys or ids (logged instead)."""

_TABLE: list[tuple[type[BaseException], grpc.StatusCode, str]] = [
    (IllegalCommandError, grpc.StatusCode.FAILED_PRECONDITION, "ILLEGAL_MOVE"),
    (InvalidCommandError, grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED"),
    (UnknownGameError, grpc.StatusCode.INVALID_ARGUMENT, "UNKNOWN_GAME_TYPE"),
    (CommandIdReusedError, grpc.StatusCode.ALREADY_EXISTS, "COMMAND_ID_REUSED"),
    (GameNotFoundError, grpc.StatusCode.NOT_FOUND, "GAME_NOT_FOUND"),
    (ConcurrencyConflictError, grpc.StatusCode.ABORTED, "CONCURRENT_MOVE"),
    # A save that lost an optimistic-concurrency race (another process recorded
    # the same aggregate version first, e.g. two servers starting one round):
    # the client's request was fine, retrying against the new state is right.
    (IntegrityError, grpc.StatusCode.ABORTED, "CONCURRENT_WRITE"),
    (UnauthenticatedError, grpc.StatusCode.UNAUTHENTICATED, "UNAUTHENTICATED"),
    (PermissionDeniedError, grpc.StatusCode.PERMISSION_DENIED, "PERMISSION_DENIED"),
]


def status_for(exc: BaseException) -> status_pb2.Status:
    """The rich status for ``exc`` (INTERNAL for anything unexpected)."""
    for cls, code, reason in _TABLE:
        if isinstance(exc, cls):
            message = exc.message if isinstance(exc, IllegalCommandError) else str(exc).strip("'\"")
            if cls in _FIXED_MESSAGES:
                log.info("%s: %s", reason, exc)
                message = _FIXED_MESSAGES[cls]
            info = error_details_pb2.ErrorInfo(domain=DOMAIN, reason=reason)
            if isinstance(exc, IllegalCommandError):
                info.reason = "ILLEGAL_MOVE"
                info.metadata["rule"] = exc.rule
                message = f"illegal move ({exc.rule}): {exc.message}"
            details = [info]
            if code is grpc.StatusCode.INVALID_ARGUMENT:
                details.append(
                    error_details_pb2.BadRequest(
                        field_violations=[
                            error_details_pb2.BadRequest.FieldViolation(field="request", description=message)
                        ]
                    )
                )
            return _status(code, message, details)
    log.exception("unexpected error", exc_info=exc)
    return _status(grpc.StatusCode.INTERNAL, "internal error; the incident was logged", [])


def _status(code: grpc.StatusCode, message: str, details: list) -> status_pb2.Status:
    packed = []
    for d in details:
        a = any_pb2.Any()
        a.Pack(d)
        packed.append(a)
    return status_pb2.Status(code=getattr(code_pb2, code.name), message=message, details=packed)


async def abort(context: grpc.aio.ServicerContext, exc: BaseException) -> NoReturn:
    await context.abort_with_status(rpc_status.to_status(status_for(exc)))
    raise AssertionError("unreachable")  # abort_with_status always raises
