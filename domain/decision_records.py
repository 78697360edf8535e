"""A decision's events as links of the hash chain, appended to a ``Game``.

Why apart from the aggregate: this is the one place a decided domain event
becomes a ledger event (``Decided``, then ``Concluded`` when the decision
ends the game), sealed as the next link of the chain
(:func:`domain.event_links.link`).  The aggregate decides and replays; how a
decision is recorded is the same for every game and every caller (its own
commands, and the rebuild benchmark, which appends real payloads to build
long games).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from domain.core import Seat
from domain.event_links import link
from domain.records import CONCLUDED_TYPE, concluded_body, decided_body

if TYPE_CHECKING:
    from domain.aggregate import Game


def record_decision(
    game: Game,
    decision: int,
    events: Iterable[Any],
    actor: Seat | None,
    command_id: str | None,
    command: dict[str, Any] | None,
    seed: bytes,
    signed: dict[str, Any] | None = None,
) -> None:
    """Append one ``Decided`` per domain event of ``decision`` (the command and
    its signature on the first only), and ``Concluded`` if the game is over."""
    for index, payload in enumerate(events):
        append_decided(
            game,
            payload,
            decision=decision,
            actor=actor,
            command_id=command_id,
            command=command if index == 0 else None,
            signed=signed if index == 0 else None,
        )
    if game.ruleset.is_over(game.state):
        outcome = game.ruleset.outcome(game.state)
        append_link(
            game,
            game.Concluded,
            CONCLUDED_TYPE,
            concluded_body,
            outcome=outcome,
            seed=seed.hex(),
            decision=decision,
        )


def append_decided(game: Game, payload: Any, **fields: Any) -> None:
    """Append ``payload`` (one of the game's events) as a ``Decided`` event.

    ``fields``: ``decision``, ``actor``, ``command_id``, ``command``, ``signed``.
    """
    append_link(
        game,
        game.Decided,
        game.type_name(payload),
        decided_body,
        payload=payload,
        **fields,
    )


def append_link(
    game: Game,
    cls: type,
    type_: str,
    body: Callable[[dict[str, Any]], dict[str, Any]],
    **fields: Any,
) -> None:
    """Trigger event ``cls`` with ``fields``, sealed as the chain's next link."""
    timestamp: datetime = cls.create_timestamp()  # type: ignore[attr-defined]  # an eventsourcing event class
    chain = link(
        game_id=str(game.id),
        version=game.version + 1,
        type_=type_,
        timestamp=timestamp,
        prev_hash=game.head_hash,
        body=body(fields),
    )
    game.trigger_event(cls, timestamp=timestamp, **chain, **fields)
