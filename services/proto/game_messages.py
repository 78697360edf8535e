"""A game's log as API messages, for one viewer: events, views, replay frames, outcomes.

Why in ``services/proto`` and not at the gRPC edge: the gRPC servicers and
the dashboard both present what the service layer's read path
(:mod:`services.ledger.reading`) disclosed, and the dashboard shows the
very messages ``ListFrames`` sends, so both call these.  Every event and view
leaves the server through here, so this is the single place where redaction
is applied: game payloads go through the ruleset's ``redact``/``view`` for
the :class:`~domain.contract.core.Viewer` the disclosure chose, recorded
commands never leave, and chain hashes are shown only when the disclosure
says so (an unsalted hash over a record containing a hidden hand could be
brute-forced by a player who knows everything else in the record).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar, cast

from google.protobuf import timestamp_pb2

from domain.contract.core import Outcome, Viewer
from domain.ledger.aggregate import Game, record_type
from domain.ledger.clocks import millis
from domain.ledger.records import CONCLUDED_TYPE, CREATED_TYPE
from ledger.v1 import game_service_pb2 as pb
from ledger.v1 import read_service_pb2 as rpb
from services.proto import convert
from services.proto.clock_messages import (
    control_message,
    ended_message,
    seat_clocks,
    time_control_message,
)


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
        absent_seats=outcome.absent,
    )


def delay_message(record: dict[str, int]) -> pb.SpectatorDelay:
    """A stored spectator delay (``{"moves": n}`` or ``{"seconds": s}``)."""
    return pb.SpectatorDelay(**record)


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
    elif isinstance(event, Game.Controlled):
        msg.decision = event.decision
        if event.seat is not None and event.by == f"seat:{event.seat}":
            msg.actor = event.seat
        msg.payload.Pack(control_message(event))
    elif isinstance(event, Game.Ended):
        msg.decision = event.decision
        if event.seat is not None and event.kind == "resigned":
            msg.actor = event.seat
        msg.payload.Pack(ended_message(event))
    else:
        msg.decision = event.decision
        if event.actor is not None:
            msg.actor = event.actor
        shown = ruleset.redact(event.payload, viewer)
        msg.payload.CopyFrom(
            _UNREDACTED.packed(ruleset, event)
            if shown is event.payload
            else convert.event_to_any(ruleset, shown)
        )
    return msg


class _UnredactedPayloads:
    """Each recent event's payload packed once, for every viewer it is not
    redacted for.

    Why: every seat's session and every spectator stream sends each event,
    and encoding a payload field by field costs more than deciding its
    redaction; most events hide nothing, so their encoding is shared. Keyed
    by the event object, held while cached, so its id cannot be reused; the
    game cache hands every stream the same objects. Cleared whole when full:
    one dict, safe under the GIL from the loop and the I/O threads alike.
    """

    SIZE = 4096

    def __init__(self) -> None:
        self._held: dict[int, tuple[Any, Any]] = {}

    def packed(self, ruleset: Any, event: Any) -> Any:
        held = self._held.get(id(event))
        if held is not None and held[0] is event:
            return held[1]
        packed = convert.event_to_any(ruleset, event.payload)
        if len(self._held) >= self.SIZE:
            self._held.clear()
        self._held[id(event)] = (event, packed)
        return packed


_UNREDACTED = _UnredactedPayloads()


def frames(
    history: Sequence[tuple[Any, Game]],
    viewer: Viewer,
    show_hashes: bool,
    views: bool = True,
) -> list[rpb.Frame]:
    """Replay frames: each event with the game right after it, as ``viewer``
    may see them, and the clocks as they stood then.

    ``views=False`` leaves the game out of each frame: the dashboard's page of
    sentences needs the events only, and a view is most of a frame's cost."""
    return [
        rpb.Frame(
            event=event_message(game, event, viewer, show_hashes=show_hashes),
            view=view(game, viewer) if views else None,
            clocks=seat_clocks(game, millis(event.timestamp)),
        )
        for event, game in history
    ]
