"""Ledger objects -> API messages, always through the caller's eyes.

Every event and view leaves the server through here, so this is the single
place where redaction is applied: game payloads go through the ruleset's
``redact``/``view`` for the caller's :class:`~domain.contract.core.Viewer`, recorded
commands never leave, and chain hashes are shown only to admins or after the
game has ended (an unsalted hash over a record containing a hidden hand could
be brute-forced by a player who knows everything else in the record).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, TypeVar, cast

from google.protobuf import timestamp_pb2

from domain.contract.core import Outcome, Viewer
from domain.games import find_ruleset
from domain.ledger.aggregate import Game, record_type
from domain.ledger.receipts import Keyring
from domain.ledger.records import CONCLUDED_TYPE, CREATED_TYPE
from ledger.v1 import game_service_pb2 as pb
from services.api.auth import Principal
from services.api.clock_messages import (
    add_clocks,
    ended_message,
    system_now,
    time_control_message,
)
from services.proto import convert


def timestamp(value: Any) -> timestamp_pb2.Timestamp:
    ts = timestamp_pb2.Timestamp()
    ts.FromDatetime(value)
    return ts


K = TypeVar("K", bound=int)


def kind(enum: type[K], value: str) -> K:
    """A closed-set string as its enum twin: ``("ended", GameStatus)`` -> 2.

    Enum values are ``<ENUM_NAME>_<VALUE>`` (proto style); an unknown value
    is 0, unspecified, so a new string never breaks an old enum reader.

    Typed as the enum's class because the generated stubs type enum fields
    that way; at run time an enum is an ``EnumTypeWrapper`` and its values
    plain ints, hence the casts.
    """
    wrapper: Any = enum
    prefix = convert.snake(wrapper.DESCRIPTOR.name).upper() + "_"
    try:
        return cast(K, int(wrapper.Value(prefix + value.upper())))
    except ValueError:
        return cast(K, 0)


def outcome_message(outcome: Outcome) -> pb.Outcome:
    return pb.Outcome(
        termination=outcome.termination.value,
        termination_kind=kind(pb.Termination, outcome.termination.value),
        ranks=outcome.ranks,
        scores=outcome.scores,
        winners=outcome.winners,
        reason=outcome.reason,
    )


def receipt_message(receipt: Any) -> pb.Receipt:
    """A :class:`domain.ledger.receipts.Receipt` for the wire."""
    return pb.Receipt(
        game_id=receipt.game_id,
        version=receipt.version,
        head_hash=receipt.head_hash,
        timestamp=receipt.timestamp,
        signature=receipt.signature,
        key_id=receipt.key_id,
    )


def receipt_keys(keyring: Keyring, signing: str) -> list[pb.ReceiptKey]:
    """The deployment's keyring for ``GetLedgerKey``, the ``signing`` key marked."""
    return [
        pb.ReceiptKey(
            public_key=key.public_key,
            key_id=key.key_id,
            algorithm="Ed25519",
            signing=key.key_id == signing,
            **({"not_before": timestamp(key.not_before)} if key.not_before else {}),
            **({"not_after": timestamp(key.not_after)} if key.not_after else {}),
        )
        for key in keyring.keys
    ]


def _players(setup: Any) -> int:
    """A ruleset's setup model has an int ``players`` (the Ruleset contract)."""
    players: int = setup.players
    return players


def summary(
    game: Game, principal: Principal, *, ended: bool, now: datetime | None = None
) -> pb.GameSummary:
    """``ended``: whether the game has ended *now* (a past version may not show it).

    ``now``: the ledger's clock, to read a running game's clocks at (default:
    the system clock); a finished game or a past version shows its clocks as
    they stood at its last event.
    """
    msg = pb.GameSummary(
        game_id=str(game.id),
        game_type=game.game_type,
        players=_players(game.setup),
        seats=game.seat_count,
        version=game.version,
        status="ended" if game.is_over else "active",
        status_kind=kind(pb.GameStatus, "ended" if game.is_over else "active"),
        to_act=game.to_act(),
        content=find_ruleset(game.game_type, None).content_name(game.content),
        seed_commitment=game.seed_commitment,
        created_at=timestamp(game.created_on),
        your_seats=sorted(principal.seats_in(game.id)),
        role=principal.role,
        role_kind=kind(pb.Role, principal.role),
        setup=_setup_any(game),
        revealed_seed=game.revealed_seed or "",
        head_hash=game.head_hash if (ended or principal.admin) else "",
        player_ids=game.player_ids,
        ruleset_version=game.ruleset.version,
    )
    if game.outcome is not None:
        msg.outcome.CopyFrom(outcome_message(game.outcome))
    if game.spectator_delay:
        msg.spectator_delay.CopyFrom(delay_message(game.spectator_delay))
    add_clocks(msg, game, now or system_now(), live=not ended)
    msg.dropped_seats.extend(game.dropped)
    return msg


def delay_message(record: dict[str, int]) -> pb.SpectatorDelay:
    """A stored spectator delay (``{"moves": n}`` or ``{"seconds": s}``)."""
    return pb.SpectatorDelay(**record)


_setups: dict[Any, Any] = {}


def _setup_any(game: Game) -> Any:
    """A game's setup never changes: encode it once per game."""
    packed = _setups.get(game.id)
    if packed is None:
        if len(_setups) >= 50_000:
            _setups.pop(next(iter(_setups)))
        packed = _setups[game.id] = convert.model_to_any(game.ruleset, game.setup)
    return packed


def view(game: Game, viewer: Viewer) -> Any:
    ruleset = game.ruleset
    return convert.model_to_any(ruleset, ruleset.view(game.state, viewer))


def event_message(
    game: Game, event: Any, viewer: Viewer, *, show_hashes: bool
) -> pb.GameEvent:
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
                setup=convert.model_to_any(ruleset, event.setup),
                seats=event.seat_count,
                seed_commitment=event.seed_commitment,
                rng_scheme=event.rng_scheme,
                entropy=event.entropy,
                content=event.content,
                player_ids=event.player_ids,
                spectator_delay=delay_message(event.spectator_delay)
                if event.spectator_delay
                else None,
                ruleset_version=event.ruleset_version,
                content_hash=event.content_hash,
                seat_public_keys=[bytes.fromhex(k) for k in event.seat_keys],
                time_control=time_control_message(event.time_control)
                if event.time_control
                else None,
            )
        )
    elif isinstance(event, Game.Concluded):
        msg.type = CONCLUDED_TYPE
        msg.decision = event.decision
        msg.payload.Pack(
            pb.GameConcluded(outcome=outcome_message(event.outcome), seed=event.seed)
        )
    elif isinstance(event, Game.Ended):
        msg.decision = event.decision
        if event.seat is not None and event.kind == "resigned":
            msg.actor = event.seat
        msg.payload.Pack(ended_message(event))
    else:
        msg.decision = event.decision
        if event.actor is not None:
            msg.actor = event.actor
        msg.payload.CopyFrom(
            convert.event_to_any(ruleset, ruleset.redact(event.payload, viewer))
        )
    return msg


def listed(row: dict[str, Any], principal: Principal) -> pb.GameSummary:
    """A ``ledger_games`` listing row as a summary (``ListGames``)."""
    return pb.GameSummary(
        game_id=str(row["game_id"]),
        game_type=row["game_type"],
        players=row["players"],
        seats=row["seats"],
        version=row["version"],
        status=row["status"],
        status_kind=kind(pb.GameStatus, row["status"]),
        content=find_ruleset(row["game_type"], None).content_name(row["content"]),
        created_at=timestamp(row["created_at"]),
        role=principal.role,
        role_kind=kind(pb.Role, principal.role),
        player_ids=row["player_ids"] or [],
        spectator_delay=delay_message(row["spectator_delay"])
        if row["spectator_delay"]
        else None,
    )
