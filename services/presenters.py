"""Ledger objects -> API messages, always through the caller's eyes.

Every event and view leaves the server through here, so this is the single
place where redaction is applied: game payloads go through the ruleset's
``redact``/``view`` for the caller's :class:`~domain.core.Viewer`, recorded
commands never leave, and chain hashes are shown only to admins or after the
game has ended (an unsalted hash over a record containing a hidden hand could
be brute-forced by a player who knows everything else in the record).
"""

from __future__ import annotations

from typing import Any

from google.protobuf import timestamp_pb2

from domain.aggregate import CONCLUDED_TYPE, CREATED_TYPE, Game, record_type
from domain.core import Outcome, Viewer
from ledger.v1 import game_service_pb2 as pb
from services import mapping
from services.auth import Principal


def timestamp(value: Any) -> timestamp_pb2.Timestamp:
    ts = timestamp_pb2.Timestamp()
    ts.FromDatetime(value)
    return ts


def outcome_message(outcome: Outcome) -> pb.Outcome:
    return pb.Outcome(
        termination=outcome.termination.value,
        ranks=outcome.ranks,
        scores=outcome.scores,
        winners=outcome.winners,
        reason=outcome.reason,
    )


def summary(game: Game, principal: Principal, *, ended: bool) -> pb.GameSummary:
    """``ended``: whether the game has ended *now* (a past version may not show it)."""
    msg = pb.GameSummary(
        game_id=str(game.id),
        game_type=game.game_type,
        players=game.setup.players,
        seats=game.seat_count,
        version=game.version,
        status="ended" if game.is_over else "active",
        to_act=game.to_act(),
        content=game.content,
        seed_commitment=game.seed_commitment,
        created_at=timestamp(game.created_on),
        your_seats=sorted(principal.seats_in(game.id)),
        role=principal.role,
        setup=_setup_any(game),
        revealed_seed=game.revealed_seed or "",
        head_hash=game.head_hash if (ended or principal.admin) else "",
        player_ids=game.player_ids,
    )
    if game.outcome is not None:
        msg.outcome.CopyFrom(outcome_message(game.outcome))
    return msg


_setups: dict[Any, Any] = {}


def _setup_any(game: Game) -> Any:
    """A game's setup never changes: encode it once per game."""
    packed = _setups.get(game.id)
    if packed is None:
        if len(_setups) >= 50_000:
            _setups.pop(next(iter(_setups)))
        packed = _setups[game.id] = mapping.model_to_any(game.ruleset, game.setup)
    return packed


def view(game: Game, viewer: Viewer) -> Any:
    ruleset = game.ruleset
    return mapping.model_to_any(ruleset, ruleset.view(game.state, viewer))


def event_message(game: Game, event: Any, viewer: Viewer, *, show_hashes: bool) -> pb.GameEvent:
    """One stored ledger event as ``viewer`` may see it."""
    ruleset = game.ruleset
    msg = pb.GameEvent(
        game_id=str(event.originator_id),
        version=event.originator_version,
        type=record_type(game.game_type, event),
        timestamp=timestamp(event.timestamp),
        hash=event.hash if show_hashes else "",
        prev_hash=event.prev_hash if show_hashes else "",
    )
    if isinstance(event, Game.Created):
        msg.type = CREATED_TYPE
        msg.payload.Pack(
            pb.GameCreated(
                game_type=event.game_type,
                setup=mapping.model_to_any(ruleset, event.setup),
                seats=event.seat_count,
                seed_commitment=event.seed_commitment,
                rng_scheme=event.rng_scheme,
                entropy=event.entropy,
                content=event.content,
                player_ids=event.player_ids,
            )
        )
    elif isinstance(event, Game.Concluded):
        msg.type = CONCLUDED_TYPE
        msg.decision = event.decision
        msg.payload.Pack(pb.GameConcluded(outcome=outcome_message(event.outcome), seed=event.seed))
    else:
        msg.decision = event.decision
        if event.actor is not None:
            msg.actor = event.actor
        msg.payload.CopyFrom(mapping.event_to_any(ruleset, ruleset.redact(event.payload, viewer)))
    return msg
