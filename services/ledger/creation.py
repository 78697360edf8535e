"""A new game: its setup checked, its seed drawn, its tokens and listing rows.

Why apart from the application: creating a game is a decision with its own
validation (setup, entropy, player ids, spectator delay, seat keys) and its
own side rows; the application only stores what this returns and holds it.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, TypedDict, Unpack
from uuid import UUID

from pydantic import ValidationError

from domain.contract.core import InvalidCommandError, Model, Seat
from domain.games import find_game
from domain.ledger.aggregate import Game
from domain.ledger.clocks import TimeControl
from domain.ledger.receipts import Receipt
from domain.ledger.signatures import parse_seat_keys
from domain.ledger.spectator import parse_delay
from services.ledger.head_signer import NewHead
from services.storage.recorder import NewGameRows

if TYPE_CHECKING:
    from services.ledger.head_signer import HeadSigner

MAX_ENTROPY = 8
MAX_ENTROPY_LEN = 256


@dataclass(frozen=True)
class SeatToken:
    player: int
    seats: tuple[Seat, ...]
    token: str


@dataclass(frozen=True)
class CreatedGame:
    game_id: UUID
    version: int
    tokens: tuple[SeatToken, ...]
    receipt: Receipt | None = None
    game: Game | None = field(default=None, compare=False, repr=False)
    """The new game as stored (a private copy), so answering the creator
    needs no read after the commit: a read that failed in an outage turned
    a stored game into an ``UNAVAILABLE`` answer, and the client's retry
    into a second game."""


class GameOptions(TypedDict, total=False):
    """What a creator may ask of a new game besides its type and setup
    (each optional, as ``CreateGameRequest`` has it)."""

    entropy: tuple[str, ...]
    """Strings mixed into the seed by the players (at most 8)."""
    player_ids: tuple[str, ...]
    spectator_delay: Any
    """``None``, ``{"moves": n}`` or ``{"seconds": s}``."""
    seat_keys: tuple[bytes, ...]
    time_control: TimeControl | None


def new_game(
    signer: HeadSigner,
    game_type: str,
    setup: dict[str, Any] | Model,
    now: datetime | None = None,
    **options: Unpack[GameOptions],
) -> tuple[Game, bytes, CreatedGame, NewGameRows]:
    """The new game (events pending), its secret seed, what its creator is
    told and the rows stored with it.

    :raises UnknownGameError: for an unregistered game type.
    :raises InvalidCommandError: for a malformed setup, entropy, player ids
        or ``spectator_delay``.
    """
    entropy = options.get("entropy", ())
    player_ids = options.get("player_ids", ())
    ruleset = find_game(game_type)
    # an instance of ruleset.setup_model, whose int ``players`` the Ruleset
    # contract promises (mypy cannot narrow on a class known only at run time)
    parsed: Any = (
        setup
        if isinstance(setup, ruleset.setup_model)
        else _parse_setup(ruleset, setup)
    )
    if not ruleset.min_players <= parsed.players <= ruleset.max_players:
        takes = (
            f"{ruleset.name} takes {ruleset.min_players}-{ruleset.max_players} players"
        )
        raise InvalidCommandError(
            takes, violations=(("players", f"{takes}, not {parsed.players}"),)
        )
    if len(entropy) > MAX_ENTROPY or any(len(e) > MAX_ENTROPY_LEN for e in entropy):
        most = f"at most {MAX_ENTROPY} entropy strings of {MAX_ENTROPY_LEN} characters"
        raise InvalidCommandError(most, violations=(("entropy", most),))
    if any(len(p) > MAX_ENTROPY_LEN for p in player_ids):
        most = f"player ids are at most {MAX_ENTROPY_LEN} characters"
        raise InvalidCommandError(most, violations=(("player_ids", most),))
    seed = secrets.token_bytes(32)
    seats = sum(len(g) for g in ruleset.player_seats(parsed))
    game = Game.create(
        ruleset,
        parsed,
        seed,
        tuple(entropy),
        player_ids=tuple(player_ids),
        spectator_delay=parse_delay(options.get("spectator_delay")),
        seat_keys=parse_seat_keys(options.get("seat_keys", ()), seats),
        receipt_key=signer.key_id,
        time_control=options.get("time_control"),
        now=now,
    )
    created = game.pending_events[-1]
    receipt = signer.sign(NewHead.of(game.id, [created]))
    tokens = tuple(
        SeatToken(player=i, seats=group, token=secrets.token_urlsafe(32))
        for i, group in enumerate(ruleset.player_seats(parsed))
    )
    rows = NewGameRows(
        seed=seed,
        receipt=receipt,
        game_type=ruleset.name,
        players=parsed.players,
        seats=game.seat_count,
        content=game.content,
        version=game.version,
        player_ids=tuple(game.player_ids),
        spectator_delay=game.spectator_delay,
        head_hash=game.head_hash,
        tokens=tuple((t.token, t.player, t.seats) for t in tokens),
        next_deadline=deadline_of(game),
    )
    answer = CreatedGame(game.id, game.version, tokens, receipt)
    return game, seed, answer, rows


def deadline_of(game: Game) -> datetime | None:
    """The game's next deadline as a timestamp, for the timekeeper's index."""
    due = game.next_deadline()
    return None if due is None else datetime.fromtimestamp(due[1] / 1000, UTC)


def _parse_setup(ruleset: Any, raw: Any) -> Any:
    try:
        return ruleset.setup_model.model_validate(raw)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or '(root)'}: {e['msg']}"
            for e in exc.errors()
        )
        raise InvalidCommandError(
            f"malformed {ruleset.name} setup: {problems}"
        ) from None
