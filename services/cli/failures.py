"""What the CLI says when something goes wrong: one line and an exit code.

A user mistake (an unknown game, a missing file, no server running) is not a
bug, so it never shows a traceback.  Commands raise :class:`UserError` for the
mistakes they detect themselves; everything else is mapped here from the
exception the library raised.  ``describe`` returns ``(None, 1)`` for an
exception it does not know: that one *is* a bug, and the root handler says so.
"""

from __future__ import annotations

from typing import Any

#: Exit codes: 1 = the request failed (not found, refused, unreachable),
#: 2 = the command line itself is wrong (click uses 2 for usage errors too).
FAILED, USAGE = 1, 2

#: The server address the last gRPC call went to, for "no server at ..." lines.
target: str | None = None


class UserError(Exception):
    """Raised by a command for a mistake the user can fix; the message is the line shown."""

    def __init__(self, message: str, code: int = FAILED) -> None:
        super().__init__(message)
        self.code = code


def describe(exc: BaseException) -> tuple[str | None, int]:
    """The one line for ``exc`` and the exit code; ``None`` if it is unexpected."""
    import grpc
    import psycopg
    import pydantic

    if isinstance(exc, UserError):
        return str(exc), exc.code
    if isinstance(exc, grpc.RpcError) and hasattr(exc, "code"):
        return _rpc_line(exc), FAILED
    if isinstance(exc, pydantic.ValidationError):
        return _validation_line(exc), USAGE
    from eventsourcing.persistence import OperationalError

    if isinstance(exc, RuntimeError) and str(exc).startswith("Failed to bind"):
        # gRPC lost a race for the port after the check in ``ledger serve``
        return f"cannot listen: {str(exc).split(';')[0]}", FAILED
    if isinstance(exc, psycopg.OperationalError | OperationalError):
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else "no answer"
        if _answered(exc):
            return f"PostgreSQL refused it: {first}", FAILED
        return f"cannot reach PostgreSQL: {first}", FAILED
    if isinstance(exc, OSError) and exc.strerror:
        where = f"{exc.filename}: " if exc.filename else ""
        return f"{where}{exc.strerror}", FAILED
    if isinstance(exc, LookupError | ValueError) and str(exc):
        # domain errors: unknown game type, game not found, illegal or
        # malformed commands, service-role problems
        return str(exc).splitlines()[0], FAILED
    from projections.runner import SetupRequiredError

    if isinstance(exc, SetupRequiredError):
        return str(exc).splitlines()[0], FAILED
    return None, FAILED


def _answered(exc: BaseException) -> bool:
    """Whether PostgreSQL was reached and said no (a deadlock, a lock timeout).

    Why it matters: "cannot reach" sends a user to check the address and
    the network, which is wrong advice when the server answered.  Errors of
    class 08 (connection) and 57P (shutting down, not yet accepting) are
    about reaching it; a connection that failed has no SQLSTATE at all.
    """
    error = exc if getattr(exc, "sqlstate", None) else exc.__cause__
    state: str | None = getattr(error, "sqlstate", None)
    return state is not None and not state.startswith(("08", "57P"))


def _rpc_line(exc: Any) -> str:
    import grpc

    code = exc.code()
    if code == grpc.StatusCode.UNAVAILABLE:
        where = target or "the server address"
        reason = _reason(exc)
        if reason == "DATABASE_UNAVAILABLE":
            return (
                f"the ledger server at {where} cannot reach its database: "
                "retry once it is back (`ledger serve` logs when it is)"
            )
        if reason == "DRAINING":
            return f"the ledger server at {where} is shutting down: retry on another"
        if reason is not None:
            return f"UNAVAILABLE ({reason}): {exc.details()}"
        return (
            f"no ledger server answers at {where}: start one with `ledger serve` "
            "(or pass --target HOST:PORT)"
        )
    return f"{code.name}: {exc.details()}"


def _reason(exc: Any) -> str | None:
    """The ``google.rpc.ErrorInfo`` reason the server gave, if a server answered.

    Why: ``UNAVAILABLE`` comes both from a channel that reached nobody and
    from a running server whose database is down or which is draining, and
    "start one with `ledger serve`" is wrong advice for the last two.
    """
    from google.rpc import error_details_pb2
    from grpc_status import rpc_status

    try:
        status = rpc_status.from_call(exc)
    except ValueError:  # details that disagree with the call's code: not a server's
        return None
    for detail in status.details if status is not None else ():
        info = error_details_pb2.ErrorInfo()
        if detail.Unpack(info):
            return info.reason or None
    return None


def _validation_line(exc: Any) -> str:
    """``setup: characters: Field required; players: ...`` on one line."""
    problems = [
        f"{'.'.join(str(p) for p in err['loc']) or 'value'}: {err['msg']}"
        for err in exc.errors()
    ]
    return f"invalid {exc.title}: " + "; ".join(problems)
