"""Paging and sampling ``ListLegalMoves`` over a ruleset's legal-move sequence.

Rule-blind: a ruleset hands over its legal moves as a sized, indexable
sequence (:meth:`domain.contract.core.Ruleset.legal_moves`), so a page at any offset
is a slice (no rebuilding the list from the start), ``total_size`` is its
length and a uniform sample is a draw of indices.

The page token is the one place that knows the cursor's form: game,
version, seat and offset; it is signed by :mod:`services.api.page_tokens`.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Sequence
from typing import Any

from google.protobuf import any_pb2

from domain.contract.core import Command, InvalidCommandError, Ruleset, Seat, Viewer
from domain.words.move_words import move_sentence, plain_move
from domain.words.narration import seat_names
from services.api import page_tokens
from services.proto import convert

MAX_PAGE = 1000
log = logging.getLogger(__name__)
_random = random.SystemRandom()


KIND = "ListLegalMoves"


def encode(kind: str, payload: dict[str, Any]) -> str:
    """A signed token for RPC ``kind`` (:mod:`services.api.page_tokens`)."""
    return page_tokens.encode(kind, payload)


def decode(kind: str, token: str) -> dict[str, Any]:
    """:raises InvalidCommandError: a token this server did not issue for ``kind``."""
    return page_tokens.decode(kind, token)


def _foreign() -> InvalidCommandError:
    return InvalidCommandError(
        "page_token is not one this server issued for this call",
        violations=(("page_token", "not issued by this server for this call"),),
    )


def page_token(game_id: Any, version: int, seat: Seat, offset: int) -> str:
    """The token of the page starting at ``offset`` of this seat's list."""
    return encode(KIND, {"g": str(game_id), "v": version, "s": seat, "o": offset})


def page_offset(token: str, game_id: Any, version: int, seat: Seat) -> int:
    """Where the page of ``token`` starts (0 without a token).

    :raises InvalidCommandError: a foreign token or one for another game or
        seat; or one issued at another version (the list it paged through no
        longer exists: start again).
    """
    if not token:
        return 0
    data = decode(KIND, token)
    offset = data.get("o")
    if data.get("g") != str(game_id) or data.get("s") != seat:
        raise _foreign()
    if not isinstance(offset, int) or isinstance(offset, bool) or offset < 0:
        raise _foreign()
    if data.get("v") != version:
        raise InvalidCommandError(
            "page_token is stale: the game has moved on; start again",
            violations=(("page_token", "issued for another version"),),
        )
    return offset


def check_size(name: str, value: int) -> int:
    if not 1 <= value <= MAX_PAGE:
        raise InvalidCommandError(
            f"{name} must be between 1 and {MAX_PAGE}",
            violations=((name, f"must be between 1 and {MAX_PAGE}"),),
        )
    return value


def page(
    moves: Sequence[Command], offset: int, size: int
) -> tuple[Sequence[Command], bool]:
    """The moves in ``[offset, offset + size)`` and whether more follow."""
    return moves[offset : offset + size], offset + size < len(moves)


def sample(moves: Sequence[Command], n: int) -> list[Command]:
    """``n`` distinct moves drawn uniformly (all of them if there are fewer)."""
    picks = _random.sample(range(len(moves)), min(n, len(moves)))
    return [moves[i] for i in picks]


def packed(ruleset: Ruleset[Any], commands: Sequence[Command]) -> list[any_pb2.Any]:
    """The commands as ``SubmitMove`` takes them."""
    return [convert.command_to_any(ruleset, c) for c in commands]


def sentences(game: Any, seat: Seat, commands: Sequence[Command]) -> list[str]:
    """Each command in ``seat``'s words (``with_sentences``).

    Worded from ``seat``'s own view, never the state: the caller acts for
    ``seat`` (or is the admin), and a sentence can then name only what that
    seat may see.  Seats are the players' names, else counted from 1.
    """
    ruleset = game.ruleset
    view = ruleset.view(game.state, Viewer.player(seat))
    names = seat_names(ruleset, game.setup, tuple(game.player_ids or ()))
    return [_sentence(ruleset, c, seat, view, names) for c in commands]


def _sentence(
    ruleset: Ruleset[Any], command: Command, seat: Seat, view: Any, names: Any
) -> str:
    """A game's words for the move; should they fail, the plain ones (logged):
    a wording bug must not cost the caller the list of moves."""
    try:
        return move_sentence(ruleset, command, seat, view, names)
    except Exception:
        log.exception("%s: no words for %r", ruleset.name, command)
        return plain_move(command, seat, names)
