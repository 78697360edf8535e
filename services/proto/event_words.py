"""A ledger event as the API sent it, in words: every reader's one entry point.

``ledger replay`` and the dashboard's replay both word the frames
``ListFrames`` gave them with :func:`sentence`, so the two say the same thing
of the same event: the ledger's own events (created, ended, concluded) and
each game's, with the game's words (:mod:`domain.words.narration`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from domain.contract.core import Ruleset
    from domain.contract.outcomes import Outcome


def sentence(
    ruleset: Ruleset[Any], names: dict[int, str], type_: str, payload: Any
) -> str:
    """One event as the server sent it, in words.

    The server has already redacted the event for the caller, so it is worded
    as sent (the admin's viewer redacts nothing more): a game that ended shows
    a player everything, as the API does.
    """
    from domain.contract.core import ADMIN
    from domain.ledger.records.names import (
        CONCLUDED_TYPE,
        CONTROL_KINDS,
        CREATED_TYPE,
        ENDING_KINDS,
    )
    from domain.words.narration import (
        concluded_sentence,
        created_sentence,
        describe,
        ledger_sentence,
    )
    from ledger.v1 import game_service_pb2 as pb
    from services.proto import convert

    if type_ in ENDING_KINDS:
        ended = pb.GameEnded()
        payload.Unpack(ended)
        seat = ended.seat if ended.HasField("seat") else None
        return ledger_sentence(ended.kind, seat, ended.by, names, reason=ended.reason)
    if type_ in CONTROL_KINDS:
        control = pb.GameControl()
        payload.Unpack(control)
        seat = control.seat if control.HasField("seat") else None
        return ledger_sentence(
            control.kind, seat, control.by, names, added_ms=control.added_ms
        )
    if type_ == CREATED_TYPE:
        created = pb.GameCreated()
        payload.Unpack(created)
        return created_sentence(ruleset, created.seats, names)
    if type_ == CONCLUDED_TYPE:
        concluded = pb.GameConcluded()
        payload.Unpack(concluded)
        return concluded_sentence(outcome_of(concluded.outcome), names)
    return describe(ruleset, convert.event_from_any(ruleset, payload), ADMIN, names)


def outcome_of(message: Any) -> Outcome:
    """A game's ``Outcome`` message (a concluded event's, a summary's) as the
    domain's, so it is worded as the server words it."""
    from domain.contract.outcomes import Outcome

    return Outcome.model_validate(
        {
            "termination": message.termination,
            "ranks": tuple(message.ranks),
            "scores": tuple(message.scores),
            "winners": tuple(message.winners),
            "reason": message.reason,
        }
    )
