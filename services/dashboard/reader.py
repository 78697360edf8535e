"""``Reader``: everything the pages may read, each through an existing read path.

* Statistics, ratings, fairness and game lists: the views' tables, through the
  query helpers the gRPC Stats and Rating services use
  (``projections.stats_queries``, ``projections.ratings``,
  ``projections.fairness``) and :mod:`services.dashboard.queries`.  With
  ``LEDGER_READ_DATABASE_URL`` these read the replica, as the gRPC Stats and
  Rating services do (:mod:`services.storage.read_replica`); a page asked with
  ``?min_log_position=N`` first waits for those views to pass N.
* Tournaments: :meth:`TournamentDesk.load`, the read path of
  ``TournamentService.GetStandings`` (standings are a pure function of the
  tournament's recorded results), so the page equals ``GetStandings``.
* Games, replays, exports and audits: the service layer's read path
  (:class:`~services.ledger.reading.game_reads.GameReads`, the one the gRPC
  ``GameService`` and ``ReplayService`` call) as an anonymous caller, so the
  pages follow the one disclosure policy, whatever it becomes: a running
  game's public view only (at the spectator delay), everything once it has
  ended.  Frames are presented as ``ListFrames`` presents them
  (:mod:`services.proto.game_messages`).  The audit verifies the export
  exactly as ``ledger verify`` does, so it is available exactly when the
  export is (ended games).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any
from uuid import UUID

from domain.audit.export import verify_lines
from domain.audit.report import AuditReport
from ledger.v1 import read_service_pb2 as rpb
from services.ledger.audit import cross_checks
from services.ledger.callers import ANONYMOUS
from services.ledger.reading.game_reads import GameReads
from services.proto import game_messages


class ViewsBehindError(Exception):
    """Raised when the views did not reach a page's ``min_log_position`` in time."""

    def __init__(self, position: int) -> None:
        super().__init__(f"views have not reached log position {position} yet")


class Reader:
    #: How long a page with ``min_log_position`` waits for the views (gRPC
    #: reads wait until their deadline; a browser has none).
    wait_s = 10.0

    def __init__(
        self, ledger: Any, desk: Any, owns_desk: bool = True, views: Any = None
    ) -> None:
        from services.storage.read_replica import views_for

        self.ledger = ledger
        self.views = views if views is not None else views_for(ledger.datastore, None)
        """The views' datastore: the replica's with ``LEDGER_READ_DATABASE_URL``."""
        self.desk = desk
        self._owns_desk = owns_desk
        """Beside ``ledger serve`` the server's desk is shared (one pool, not two)."""
        self.reads = GameReads(ledger)

    def query(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """``fn(cursor, *args)`` in a read-only transaction on the views."""
        with self.views.datastore.transaction(commit=False) as curs:
            return fn(curs, *args, **kwargs)

    def catch_up_to(self, position: int) -> None:
        """Wait until the views have applied ``position`` (read-your-writes).

        :raises ViewsBehindError: when they have not within :attr:`wait_s`.
        """
        if not self.views.wait_for(position, self.wait_s):
            raise ViewsBehindError(position)

    def tournament(self, tournament_id: UUID) -> Any:
        return self.desk.load(tournament_id)

    def game(self, game_id: UUID) -> Any:
        """The game as a spectator may see it now (for its header: type,
        players, status, outcome, event count): with a spectator delay, the
        delayed version, so the header never tells how far the game has gone."""
        return self.reads.game_now(ANONYMOUS, game_id)

    async def frames(
        self, game_id: UUID, after: int, limit: int, views: bool = True
    ) -> rpb.ListFramesResponse:
        """The page ``ListFrames`` answers an anonymous caller (without the
        game's view in each frame when ``views`` is false)."""
        page = await self.reads.frames(ANONYMOUS, game_id, after, limit)
        return rpb.ListFramesResponse(
            frames=game_messages.frames(
                page.frames, page.sight.viewer, page.sight.show_hashes, views
            ),
            next_after_version=page.next_after,
        )

    async def export(self, game_id: UUID) -> list[str]:
        """The export an anonymous caller may take: the NDJSON lines (ended games).

        :raises PermissionDeniedError: a running game.
        """
        return list(await self.reads.export(ANONYMOUS, game_id))

    async def audit(self, game_id: UUID) -> AuditReport:
        """The public export verified offline, as ``ledger verify --public-key``
        does with this server's key: a finished game's final head must be
        signed by it."""
        lines = await self.export(game_id)
        key = self.ledger.signer.public_key
        report = await asyncio.to_thread(verify_lines, lines, key)
        if not report.concluded:  # exported to anyone: the game is over
            report.fail(
                report.events,
                "signed head",
                "the game is over but its log has no ending the ledger signed",
            )
        # what the export cannot show: the listing row and the signer's
        # record of the heads it signed must agree with the log
        await asyncio.to_thread(cross_checks, self.ledger, game_id, report)
        report.failures.sort(key=lambda f: f.version)
        return report

    def checkpoint(self) -> dict[str, Any] | None:
        """The ledger's latest signed checkpoint, as a file (None before the first)."""
        log = self.ledger.head_signer.checkpoints
        latest = None if log is None else log.latest()
        return None if latest is None else latest.to_json()

    def close(self) -> None:
        self.views.close()
        if self._owns_desk:
            self.desk.close()


def reader_for(ledger: Any, desk: Any = None, read_url: str | None = None) -> Reader:
    """A reader on ``ledger``'s database (views on ``read_url`` if set), with
    ``desk`` or, without one, a tournament desk of its own."""
    from services.storage.read_replica import views_for
    from services.tournaments.desk import TournamentDesk

    views = views_for(ledger.datastore, read_url)
    if desk is not None:  # the server's own desk: no second connection pool
        return Reader(ledger, desk, owns_desk=False, views=views)
    return Reader(ledger, TournamentDesk(ledger.env_for_peers, ledger), views=views)
