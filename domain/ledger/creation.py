"""The checked fields a new game records in its ``GameCreated`` event.

Why apart from the aggregate: these checks and defaults (who plays, which
seat keys, the rules version and content pack, the seed commitment) read only
the ruleset and the setup, while the aggregate only seals and records the
result.
"""

from __future__ import annotations

from typing import Any

from domain.contract.chance import SCHEME, seed_commitment
from domain.contract.core import InvalidCommandError, Model, Ruleset
from domain.games import content_hash
from domain.ledger.spectator import SpectatorDelay


def creation_fields(
    ruleset: Ruleset[Any],
    setup: Model,
    seed: bytes,
    entropy: tuple[str, ...],
    player_ids: tuple[str, ...],
    spectator_delay: SpectatorDelay | None,
    seat_keys: tuple[str, ...],
    receipt_key: str | None,
) -> dict[str, Any]:
    """``GameCreated``'s fields for a new game of ``ruleset``.

    :raises InvalidCommandError: when ``setup`` is not this ruleset's setup,
        or the player ids or seat keys do not match its seats.
    """
    if not isinstance(setup, ruleset.setup_model):
        raise InvalidCommandError(f"setup must be a {ruleset.setup_model.__name__}")
    players = len(ruleset.player_seats(setup))
    if player_ids and (
        len(player_ids) != players
        or len(set(player_ids)) != players
        or not all(player_ids)
    ):
        raise InvalidCommandError(
            f"player_ids must name each of the {players} players once"
        )
    fields: dict[str, Any] = {
        "game_type": ruleset.name,
        "setup": setup,
        "seat_count": sum(len(g) for g in ruleset.player_seats(setup)),
        "seed_commitment": seed_commitment(seed),
        "rng_scheme": SCHEME,
        "entropy": tuple(entropy),
        "content": ruleset.content_label,
        "player_ids": tuple(player_ids),
        "spectator_delay": spectator_delay.to_record() if spectator_delay else None,
        "ruleset_version": ruleset.version,
        "content_hash": content_hash(ruleset.name, getattr(setup, "content", None)),
        "seat_keys": tuple(seat_keys),
        "receipt_key": receipt_key,
    }
    if seat_keys and len(seat_keys) != fields["seat_count"]:
        raise InvalidCommandError(
            f"seat keys: one per seat ({fields['seat_count']}), got {len(seat_keys)}"
        )
    return fields
