"""The read use cases of a game: what a caller may see of it, as of which version.

Why here and not at the gRPC edge: the gRPC servicers and the dashboard (and
any later entrypoint, such as a web page people play from) call these, so
each page or RPC presents a game, its legal moves, its replay frames or its
export exactly as the one disclosure policy
(:mod:`services.ledger.reading.disclosure`) allows, without building another
entrypoint to borrow its rules.  Callers are plain
:class:`~services.ledger.callers.Principal` values; results are domain
values, and refusals are service-layer errors the edges map (gRPC statuses,
HTTP statuses).

Every method is async: reads answer from the game cache where it vouches for
the game and hop to the ledger's executor only for the store.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from uuid import UUID

from domain.audit.export import export_lines
from domain.contract.core import Command, InvalidCommandError, Seat
from services.ledger.callers import PermissionDeniedError, Principal, acting_seat
from services.ledger.reading.disclosure import Disclosure, SpectatorWindow
from services.ledger.reading.min_version import head_seen_at

if TYPE_CHECKING:
    from domain.ledger.aggregate import Game
    from services.ledger.application import GameLedger


@dataclass(frozen=True)
class SeenGame:
    """A game as one caller may see it."""

    game: Game
    """The version shown: the head, the one asked for, or a delayed spectator's."""
    head: Game
    """The game now (whether it has ended decides what is public)."""
    sight: Disclosure
    """How to present it to this caller."""


@dataclass(frozen=True)
class Frames:
    """A page of a game's history: each event with the game right after it."""

    frames: list[tuple[Any, Game]]
    sight: Disclosure
    """How to present them; ``sight.upto`` is the last version this caller may
    replay (below the head for a delayed spectator)."""
    after: int
    """The version the page starts after."""

    @property
    def next_after(self) -> int:
        """Where the next page starts (0: none, this one reaches ``sight.upto``)."""
        last = self.frames[-1][0].originator_version if self.frames else self.after
        return int(last) if last < self.sight.upto else 0


class GameReads:
    """The one read path of games, shared by every entrypoint."""

    def __init__(self, ledger: GameLedger) -> None:
        self._ledger = ledger
        self._window = SpectatorWindow(ledger)

    async def sight(self, principal: Principal, head: Game) -> Disclosure:
        """How ``principal`` sees the game whose newest state is ``head``."""
        return await self._window.sight(principal, head)

    async def head(
        self,
        principal: Principal,
        game_id: UUID,
        min_version: int = 0,
        time_left: float | None = None,
    ) -> tuple[Game, Disclosure]:
        """The game now, once ``principal`` may see ``min_version`` of it, and
        how they see it (:func:`~services.ledger.reading.min_version.head_seen_at`).
        """
        return await head_seen_at(
            self._ledger, self._window, principal, game_id, min_version, time_left
        )

    async def game(
        self,
        principal: Principal,
        game_id: UUID,
        at: int | None = None,
        min_version: int = 0,
        time_left: float | None = None,
    ) -> SeenGame:
        """The game at version ``at`` (default: the newest this caller may see).

        :raises InvalidCommandError: ``at`` beyond what the caller may see.
        :raises VersionNotVisibleError, GameNotFoundError:
        """
        head, sight = await self.head(principal, game_id, min_version, time_left)
        if at is not None and not 1 <= at <= sight.upto:
            raise InvalidCommandError(f"at_version must be between 1 and {sight.upto}")
        if at is None and sight.upto < head.version:
            at = sight.upto  # a spectator of a delayed game: that far behind
        game = head if at is None else await self._ledger.game(game_id, at)
        return SeenGame(game, head, sight)

    def game_now(self, principal: Principal, game_id: UUID) -> Game:
        """The game as ``principal`` may see it now: the head, or a delayed
        spectator's version (blocking: it may read the store)."""
        return self._window.game_for(principal, game_id)[0]

    async def legal_moves(
        self,
        principal: Principal,
        game_id: UUID,
        requested: Seat | None,
        min_version: int = 0,
        time_left: float | None = None,
    ) -> tuple[Game, Seat, Sequence[Command]]:
        """The game now, the seat the caller acts for and that seat's legal moves.

        :raises UnauthenticatedError, PermissionDeniedError: as
            :func:`~services.ledger.callers.acting_seat`.
        """
        game, _ = await self.head(principal, game_id, min_version, time_left)
        seat = acting_seat(principal, game, requested)
        return game, seat, self._ledger.cache.legal_moves(game, seat)

    async def frames(
        self, principal: Principal, game_id: UUID, after: int, limit: int
    ) -> Frames:
        """Up to ``limit`` frames after version ``after``, no further than the
        caller may see (a delayed spectator replays no further than the delay)."""
        head = await self._ledger.io(self._ledger.load, game_id)
        sight = await self.sight(principal, head)
        limit = max(0, min(limit, sight.upto - after))
        frames = (
            await self._ledger.io(self._ledger.frames, game_id, after, limit)
            if limit
            else []
        )
        return Frames(frames, sight, after)

    async def export(self, principal: Principal, game_id: UUID) -> Iterator[str]:
        """The game's export, line by line (``domain.audit.export``).

        :raises PermissionDeniedError: a running game, unless the admin asks.
        """
        await self.check_exportable(principal, game_id)
        rows = await self._ledger.io(self._ledger.read_records, game_id)
        receipts = await self._ledger.io(self._ledger.stored_receipts, game_id)
        checkpoint, inclusion = await self._ledger.io(
            self._ledger.head_signer.pinned, str(game_id)
        )
        return export_lines(
            str(game_id),
            rows,
            receipts,
            self._ledger.keyring,
            checkpoint,
            inclusion,
        )

    async def check_exportable(self, principal: Principal, game_id: UUID) -> None:
        """Whether ``principal`` may take the game's whole record (its export,
        its head's inclusion proof): the admin always, everyone once it ended.

        :raises PermissionDeniedError: a running game, unless the admin asks.
        :raises GameNotFoundError:
        """
        head = await self._ledger.io(self._ledger.load, game_id)
        sight = await self.sight(principal, head)
        if not sight.viewer.admin:
            raise PermissionDeniedError(
                "a running game can only be exported by the admin"
            )

    def listing(
        self, principal: Principal, limit: int, before: Any, game_type: str
    ) -> list[dict[str, Any]]:
        """A page of the game listing, each running delayed game at the version
        this caller may see (a live version would tell when a move was made).
        Blocking: run it in the ledger's executor."""
        rows = self._ledger.store.list_games(limit, before, game_type or None)
        for row in rows:
            if row["spectator_delay"] and row["status"] == "active":
                game, _ = self._window.game_for(principal, row["game_id"])
                row["version"] = game.version
                row["status"] = "ended" if game.is_over else "active"
        return rows
