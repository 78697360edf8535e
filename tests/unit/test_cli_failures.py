"""The CLI's one line for a failure says who failed: the address, the server
or its database.

A server that failed its start on a deadlock used to say "cannot reach
PostgreSQL", which sends an operator to check addresses and networks; a
running server whose database was down used to be reported as no server at
all, with the advice to start one.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import grpc
import psycopg
from eventsourcing.persistence import OperationalError
from grpc_status import rpc_status
from psycopg import errors

from services.api.drain import _draining_status
from services.api.errors import status_for
from services.cli.failures import FAILED, describe
from services.storage.datastore import DatabaseUnavailableError


def _wrapped(error: Exception) -> OperationalError:
    """As eventsourcing's datastore raises it: its own class, psycopg's as the cause."""
    try:
        raise OperationalError(str(error)) from error
    except OperationalError as wrapped:
        return wrapped


def test_an_answer_from_postgresql_is_not_called_unreachable() -> None:
    line, code = describe(_wrapped(errors.DeadlockDetected("deadlock detected")))
    assert (line, code) == ("PostgreSQL refused it: deadlock detected", FAILED)


def test_a_connection_that_failed_is_unreachable() -> None:
    refused = psycopg.OperationalError("connection refused")  # no SQLSTATE
    assert describe(refused) == ("cannot reach PostgreSQL: connection refused", FAILED)
    starting = _wrapped(errors.CannotConnectNow("the database system is starting up"))
    assert describe(starting)[0] == (
        "cannot reach PostgreSQL: the database system is starting up"
    )


def _answered_by_a_server(status: Any) -> grpc.RpcError:
    """The error a real call gets from a real server that aborts with ``status``."""

    def abort(request: bytes, context: grpc.ServicerContext) -> bytes:
        context.abort_with_status(status)
        raise AssertionError("abort_with_status returns only by raising")

    handler = grpc.method_handlers_generic_handler(
        "t.T", {"Call": grpc.unary_unary_rpc_method_handler(abort)}
    )
    server = grpc.server(ThreadPoolExecutor(max_workers=1), handlers=[handler])
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        return _error_of_a_call(f"127.0.0.1:{port}")
    finally:
        server.stop(None)


def _error_of_a_call(target: str) -> grpc.RpcError:
    with grpc.insecure_channel(target) as channel:
        call: Any = channel.unary_unary("/t.T/Call")  # raw bytes both ways
        try:
            call(b"", timeout=10)
        except grpc.RpcError as exc:
            return exc
    raise AssertionError("the call was answered")


def test_a_server_whose_database_is_down_is_not_called_absent() -> None:
    """``UNAVAILABLE`` from a running server is not "start one with ledger serve"."""
    down = rpc_status.to_status(
        status_for(DatabaseUnavailableError("the database is unreachable"))
    )
    line, code = describe(_answered_by_a_server(down))
    assert code == FAILED
    assert line is not None and line.startswith("the ledger server at ")
    assert "cannot reach its database" in line
    assert "ledger serve`" in line and "start one" not in line


def test_a_draining_server_says_so() -> None:
    line, _ = describe(_answered_by_a_server(_draining_status()))
    assert line is not None and "is shutting down" in line


def test_no_server_at_all_is_still_called_absent() -> None:
    line, _ = describe(_error_of_a_call("127.0.0.1:1"))
    assert line is not None and line.startswith("no ledger server answers at ")
