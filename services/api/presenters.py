"""A game's summary and the ledger's receipts as API messages, through the caller's eyes.

The summary says who is asking (``role``, ``your_seats``) and shows the head
hash only to the admin or once the game has ended.  Events, views and frames
are presented by :mod:`services.proto.game_messages`, which the dashboard
shares; ``event_message`` is named here too for the write RPCs' answers.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from domain.games import find_ruleset
from domain.ledger.aggregate import Game
from domain.ledger.receipts import Keyring
from ledger.v1 import game_service_pb2 as pb
from services.api.read_rpc import from_row
from services.ledger.callers import Principal
from services.ledger.reading.disclosure import disclose
from services.proto import convert
from services.proto.clock_messages import add_clocks, system_now
from services.proto.game_messages import (
    delay_message,
    event_message,
    kind,
    outcome_message,
    timestamp,
)


def receipt_message(receipt: Any) -> pb.Receipt:
    """A :class:`domain.ledger.receipts.Receipt` for the wire."""
    return from_row(pb.Receipt, receipt)


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
    msg.paused = bool(getattr(game, "paused", False)) and not game.is_over
    offer = getattr(game, "draw_offer", None)
    if offer is not None and not game.is_over:
        msg.draw_offered_by = offer
    return msg


_setups: dict[Any, Any] = {}


def _setup_any(game: Game) -> Any:
    """A game's setup never changes: encode it once per game."""
    packed = _setups.get(game.id)
    if packed is None:
        if len(_setups) >= 50_000:
            _setups.pop(next(iter(_setups)))
        packed = _setups[game.id] = convert.model_to_any(game.ruleset, game.setup)
    return packed


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


def control_response(principal: Principal, result: Any) -> pb.GameControlResponse:
    """A control's answer (a draw offer or decline, a pause, resume or added
    time): its one event and the game right after it, as the caller sees them.

    The event holds no hidden information (who did what, to which seat), but
    the summary's clocks and hashes still follow the caller's role.
    """
    head = result.game
    sight = disclose(principal, head)
    out = pb.GameControlResponse(
        version=result.last_version,
        game=summary(head, principal, ended=head.is_over),
        log_position=result.log_position,
    )
    if result.events:
        out.event.CopyFrom(
            event_message(
                head, result.events[-1], sight.viewer, show_hashes=sight.show_hashes
            )
        )
    if result.receipt is not None:
        out.receipt.CopyFrom(receipt_message(result.receipt))
    return out
