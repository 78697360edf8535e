"""The one table from exceptions to gRPC status codes, with ``google.rpc`` details.

Why one table: every servicer method maps errors the same way, and a client
can rely on it: malformed input is ``INVALID_ARGUMENT``, a move the rules
refuse is ``FAILED_PRECONDITION`` with the rule's id in ``ErrorInfo.reason``,
a lost race is ``ABORTED``, a database that cannot be reached is
``UNAVAILABLE`` (with ``RetryInfo``; a retried ``command_id`` is never
applied twice, so retrying is always safe).  Anything not in the table is a
bug of ours and becomes ``INTERNAL`` with a generic message (details go to the log only, so
no hidden state can leak through an error).
"""

from __future__ import annotations

import logging
from typing import NoReturn

import grpc
import psycopg
from eventsourcing.persistence import IntegrityError, InterfaceError, OperationalError
from google.protobuf import any_pb2, duration_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

from domain.contract.core import IllegalCommandError, InvalidCommandError
from domain.games import UnknownGameError
from domain.ledger.signatures import BadSignatureError, MissingSignatureError
from services.ledger.application import (
    CommandIdReusedError,
    ConcurrencyConflictError,
    GameNotFoundError,
)
from services.ledger.callers import (
    PermissionDeniedError,
    Refusal,
    UnauthenticatedError,
)
from services.ledger.reading.min_version import VersionNotVisibleError
from services.observability.metrics import DATABASE_ERRORS

log = logging.getLogger(__name__)
DOMAIN = "ledger.v1"
RETRY_DELAY = duration_pb2.Duration(seconds=1)
"""What ``UNAVAILABLE`` suggests waiting (the health probe's default interval)."""


_UNREACHABLE = (
    "the database is unreachable; retry (a command_id is never applied twice)"
)


class StreamLimitError(Exception):
    """Raised when a connection already holds the most concurrent streams allowed."""


_FIXED_MESSAGES: dict[type[BaseException], str] = {
    IntegrityError: "another request changed this first; reload and retry",
    OperationalError: _UNREACHABLE,
    InterfaceError: _UNREACHABLE,
    psycopg.OperationalError: _UNREACHABLE,
    psycopg.InterfaceError: _UNREACHABLE,
}
"""Messages for errors whose own text names tables, keys or ids (logged instead)."""

_FIELDS: dict[type[BaseException], str] = {UnknownGameError: "game_type"}
"""The request field an error without its own ``violations`` is about."""

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
    # The database is down, restarting, or dropped the connection mid-call
    # (eventsourcing's wrappers and psycopg's own, e.g. a pool timeout).
    (OperationalError, grpc.StatusCode.UNAVAILABLE, "DATABASE_UNAVAILABLE"),
    (InterfaceError, grpc.StatusCode.UNAVAILABLE, "DATABASE_UNAVAILABLE"),
    (psycopg.OperationalError, grpc.StatusCode.UNAVAILABLE, "DATABASE_UNAVAILABLE"),
    (psycopg.InterfaceError, grpc.StatusCode.UNAVAILABLE, "DATABASE_UNAVAILABLE"),
    (UnauthenticatedError, grpc.StatusCode.UNAUTHENTICATED, "UNAUTHENTICATED"),
    (PermissionDeniedError, grpc.StatusCode.PERMISSION_DENIED, "PERMISSION_DENIED"),
    (MissingSignatureError, grpc.StatusCode.UNAUTHENTICATED, "MOVE_NOT_SIGNED"),
    (BadSignatureError, grpc.StatusCode.PERMISSION_DENIED, "BAD_MOVE_SIGNATURE"),
    (StreamLimitError, grpc.StatusCode.RESOURCE_EXHAUSTED, "TOO_MANY_STREAMS"),
    (VersionNotVisibleError, grpc.StatusCode.DEADLINE_EXCEEDED, "VERSION_NOT_VISIBLE"),
]
MAX_MESSAGE = 300
"""Characters of a status message: whatever an error quotes of the input, the
answer's metadata stays far below gRPC's header limit (8 KiB by default)."""


TOURNAMENT_RULES = "tournament."
"""A tournament's refusals (registration closed, already registered...) are
not moves: their message is the rule's own sentence, for the person who
registered; the rule stays in ``ErrorInfo.metadata["rule"]`` for programs."""


def status_for(exc: BaseException) -> status_pb2.Status:
    """The rich status for ``exc`` (INTERNAL for anything unexpected)."""
    for cls, code, reason in _TABLE:
        if isinstance(exc, cls):
            message = (
                exc.message
                if isinstance(exc, IllegalCommandError)
                else str(exc).strip("'\"")
            )
            if cls in _FIXED_MESSAGES:
                log.info("%s: %s", reason, exc)
                message = _FIXED_MESSAGES[cls]
            info = error_details_pb2.ErrorInfo(domain=DOMAIN, reason=reason)
            if isinstance(exc, Refusal):
                info.reason = exc.reason
            if isinstance(exc, IllegalCommandError):
                info.reason = "ILLEGAL_MOVE"
                info.metadata["rule"] = exc.rule
                if not exc.rule.startswith(TOURNAMENT_RULES):
                    message = f"illegal move ({exc.rule}): {exc.message}"
            message = _truncated(message)
            details: list = [info]
            if code is grpc.StatusCode.UNAVAILABLE:
                DATABASE_ERRORS.labels("rpc").inc()
                details.append(error_details_pb2.RetryInfo(retry_delay=RETRY_DELAY))
            if code is grpc.StatusCode.INVALID_ARGUMENT:
                violations = getattr(exc, "violations", ()) or (
                    (
                        getattr(exc, "field", None)
                        or _FIELDS.get(type(exc), "request"),
                        message,
                    ),
                )
                details.append(
                    error_details_pb2.BadRequest(
                        field_violations=[
                            error_details_pb2.BadRequest.FieldViolation(
                                field=_truncated(field), description=_truncated(text)
                            )
                            for field, text in violations
                        ]
                    )
                )
            return _status(code, message, details)
    log.exception("unexpected error", exc_info=exc)
    return _status(
        grpc.StatusCode.INTERNAL,
        "internal error; the incident was logged",
        [error_details_pb2.ErrorInfo(domain=DOMAIN, reason="INTERNAL")],
    )


def _truncated(text: str) -> str:
    return text if len(text) <= MAX_MESSAGE else text[: MAX_MESSAGE - 1] + "…"


def _status(code: grpc.StatusCode, message: str, details: list) -> status_pb2.Status:
    packed = []
    for d in details:
        a = any_pb2.Any()
        a.Pack(d)
        packed.append(a)
    return status_pb2.Status(
        code=getattr(code_pb2, code.name), message=message, details=packed
    )


async def abort(context: grpc.aio.ServicerContext, exc: BaseException) -> NoReturn:
    await context.abort_with_status(rpc_status.to_status(status_for(exc)))
    raise AssertionError("unreachable")  # abort_with_status always raises
