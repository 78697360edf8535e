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
from typing import NamedTuple, NoReturn

import grpc
import psycopg
from eventsourcing.persistence import IntegrityError, InterfaceError, OperationalError
from google.protobuf import any_pb2, duration_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

from domain.contract.core import IllegalCommandError, InvalidCommandError
from domain.games import UnknownGameError
from domain.ledger.checkpoints import CheckpointError
from domain.ledger.signatures import BadSignatureError, MissingSignatureError
from domain.ledger.signed_heads import EquivocationError
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
_LOST_RACE = "another request changed this first; reload and retry"
_ROLLED_BACK = (
    "the ledger refuses to sign this game's new head: it already signed another "
    "history of the game (rolled back in the database); the operator is alerted"
)


class StreamLimitError(Exception):
    """Raised when a connection already holds the most concurrent streams allowed."""


_DATABASE_DOWN = (
    OperationalError,
    InterfaceError,
    psycopg.OperationalError,
    psycopg.InterfaceError,
)
"""The database is down, restarting, or dropped the connection mid-call
(eventsourcing's wrappers and psycopg's own, e.g. a pool timeout)."""

_FIELDS: dict[type[BaseException], str] = {UnknownGameError: "game_type"}
"""The request field an error without its own ``violations`` is about."""


class _Row(NamedTuple):
    """Exceptions of ``cls`` answer ``code`` with ``ErrorInfo.reason`` ``reason``;
    ``fixed`` is the message said instead of the error's own text where that
    names tables, keys or ids (the text is logged)."""

    cls: type[BaseException] | tuple[type[BaseException], ...]
    code: grpc.StatusCode
    reason: str
    fixed: str | None = None


_Code = grpc.StatusCode
_TABLE: list[_Row] = [
    _Row(IllegalCommandError, _Code.FAILED_PRECONDITION, "ILLEGAL_MOVE"),
    _Row(InvalidCommandError, _Code.INVALID_ARGUMENT, "MALFORMED"),
    _Row(UnknownGameError, _Code.INVALID_ARGUMENT, "UNKNOWN_GAME_TYPE"),
    _Row(CommandIdReusedError, _Code.ALREADY_EXISTS, "COMMAND_ID_REUSED"),
    _Row(GameNotFoundError, _Code.NOT_FOUND, "GAME_NOT_FOUND"),
    _Row(CheckpointError, _Code.NOT_FOUND, "CHECKPOINT_NOT_FOUND"),
    _Row(ConcurrencyConflictError, _Code.ABORTED, "CONCURRENT_MOVE"),
    # A save that lost an optimistic-concurrency race (another process recorded
    # the same aggregate version first, e.g. two servers starting one round):
    # the client's request was fine, retrying against the new state is right.
    _Row(IntegrityError, _Code.ABORTED, "CONCURRENT_WRITE", _LOST_RACE),
    _Row(_DATABASE_DOWN, _Code.UNAVAILABLE, "DATABASE_UNAVAILABLE", _UNREACHABLE),
    _Row(UnauthenticatedError, _Code.UNAUTHENTICATED, "UNAUTHENTICATED"),
    _Row(PermissionDeniedError, _Code.PERMISSION_DENIED, "PERMISSION_DENIED"),
    _Row(MissingSignatureError, _Code.UNAUTHENTICATED, "MOVE_NOT_SIGNED"),
    _Row(BadSignatureError, _Code.PERMISSION_DENIED, "BAD_MOVE_SIGNATURE"),
    # The database holds a history the signer never signed (a rollback): no
    # retry helps, and the write is not stored.
    _Row(EquivocationError, _Code.DATA_LOSS, "HISTORY_ROLLED_BACK", _ROLLED_BACK),
    _Row(StreamLimitError, _Code.RESOURCE_EXHAUSTED, "TOO_MANY_STREAMS"),
    _Row(VersionNotVisibleError, _Code.DEADLINE_EXCEEDED, "VERSION_NOT_VISIBLE"),
]
"""The first row whose ``cls`` matches decides."""
MAX_MESSAGE = 300
"""Characters of a status message: whatever an error quotes of the input, the
answer's metadata stays far below gRPC's header limit (8 KiB by default)."""


TOURNAMENT_RULES = "tournament."
"""A tournament's refusals (registration closed, already registered...) are
not moves: their message is the rule's own sentence, for the person who
registered; the rule stays in ``ErrorInfo.metadata["rule"]`` for programs."""


def _primary_moved(exc: BaseException) -> bool:
    """Whether ``exc`` (or what caused it) is a write refused by a standby.

    During a failover or switchover a connection can reach a node that is a
    standby now (the demoted primary, before HAProxy's next health check
    marks it down and cuts its sessions): PostgreSQL refuses the write with
    ``read-only transaction`` (SQLSTATE 25006), which psycopg and
    eventsourcing raise as an *internal* error.  Nothing was stored, and the
    primary is elsewhere: the client should retry, as in any outage.
    """
    seen: BaseException | None = exc
    for _ in range(8):  # a chain of causes, bounded
        if seen is None:
            return False
        if isinstance(seen, psycopg.errors.ReadOnlySqlTransaction):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def status_for(exc: BaseException) -> status_pb2.Status:
    """The rich status for ``exc`` (INTERNAL for anything unexpected)."""
    if _primary_moved(exc):
        exc = psycopg.OperationalError(str(exc))  # answered as an outage
    for cls, code, reason, fixed in _TABLE:
        if isinstance(exc, cls):
            message = (
                exc.message
                if isinstance(exc, IllegalCommandError)
                else str(exc).strip("'\"")
            )
            if fixed is not None:
                log.info("%s: %s", reason, exc)
                message = fixed
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
