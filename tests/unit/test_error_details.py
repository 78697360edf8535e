"""Every status the error table builds carries ErrorInfo; malformed input, BadRequest."""

from __future__ import annotations

from google.protobuf import any_pb2
from google.rpc import code_pb2, error_details_pb2

from domain.contract.core import IllegalCommandError, InvalidCommandError
from domain.games import UnknownGameError
from services.api.errors import status_for
from services.ledger.callers import PermissionDeniedError, UnauthenticatedError


def _unpacked(details: list[any_pb2.Any]):
    info, bad = error_details_pb2.ErrorInfo(), error_details_pb2.BadRequest()
    kinds = []
    for d in details:
        if d.Unpack(info):
            kinds.append("info")
        elif d.Unpack(bad):
            kinds.append("bad")
    return kinds, info, bad


def test_an_unexpected_error_is_internal_with_error_info_and_no_text_of_its_own():
    status = status_for(RuntimeError("hand of seat 1: r01 r02"))
    kinds, info, _ = _unpacked(status.details)
    assert status.code == code_pb2.INTERNAL and kinds == ["info"]
    assert info.reason == "INTERNAL" and "r01" not in status.message


def test_each_refusal_has_its_stable_reason():
    reasons = {
        "TOKEN_REQUIRED": UnauthenticatedError("x"),
        "UNKNOWN_TOKEN": UnauthenticatedError("x", "UNKNOWN_TOKEN"),
        "PERMISSION_DENIED": PermissionDeniedError("x"),
        "ADMIN_ONLY": PermissionDeniedError("x", "ADMIN_ONLY"),
        "ILLEGAL_MOVE": IllegalCommandError("thalara.hand-size", "x"),
    }
    for reason, exc in reasons.items():
        kinds, info, _ = _unpacked(status_for(exc).details)
        assert (kinds, info.domain, info.reason) == (["info"], "ledger.v1", reason)


def test_malformed_input_lists_each_violated_field():
    exc = InvalidCommandError("bad", violations=(("mode", "no"), ("players", "no")))
    kinds, info, bad = _unpacked(status_for(exc).details)
    assert kinds == ["info", "bad"] and info.reason == "MALFORMED"
    assert [v.field for v in bad.field_violations] == ["mode", "players"]
    kinds, _, bad = _unpacked(status_for(UnknownGameError("chess")).details)
    assert [v.field for v in bad.field_violations] == ["game_type"]


def test_database_errors_answer_a_fixed_message_never_their_own_text():
    import psycopg
    from eventsourcing.persistence import IntegrityError, OperationalError

    down = "the database is unreachable; retry (a command_id is never applied twice)"
    for exc in (
        psycopg.OperationalError("could not connect to ledger_events"),
        psycopg.InterfaceError("connection to ledger_events closed"),
        OperationalError("pool timeout on ledger_events"),
    ):
        status = status_for(exc)
        _, info, _ = _unpacked(status.details)
        retry = [
            d for d in status.details if d.Is(error_details_pb2.RetryInfo.DESCRIPTOR)
        ]
        assert (status.code, status.message) == (code_pb2.UNAVAILABLE, down)
        assert info.reason == "DATABASE_UNAVAILABLE" and len(retry) == 1
    status = status_for(IntegrityError("duplicate key in ledger_events_pkey"))
    _, info, _ = _unpacked(status.details)
    assert status.code == code_pb2.ABORTED and info.reason == "CONCURRENT_WRITE"
    assert status.message == "another request changed this first; reload and retry"
