"""``ReplayService``: a game's stored history, as frames, a stream or an export.

Reads the event store through the ledger (never the views), and shows each
caller only what the spectator window lets them see, so a delayed spectator
replays no further than the delay allows.
"""

from __future__ import annotations

from typing import Any

from domain.audit.export import export_lines
from domain.contract.core import InvalidCommandError
from domain.ledger.clocks import millis
from ledger.v1 import read_service_pb2 as pb
from ledger.v1 import read_service_pb2_grpc as pb_grpc
from services.api import presenters
from services.api.auth import current_principal
from services.api.clock_messages import seat_clocks
from services.api.disclosure import SpectatorWindow
from services.api.errors import PermissionDeniedError
from services.api.read_rpc import parse_page_size
from services.api.rpc import guarded, guarded_stream, parse_game_id
from services.ledger.io_pool import IoPool


class ReplayServicer(pb_grpc.ReplayServiceServicer):
    def __init__(self, ledger: Any, executor: Any) -> None:
        self._ledger = ledger
        self._run = IoPool(executor)
        self._window = SpectatorWindow(ledger)

    async def _frames(
        self, game_id: Any, after: int, limit: int
    ) -> tuple[list[pb.Frame], int]:
        principal = current_principal.get()
        head = await self._run(self._ledger.load, game_id)
        sight = await self._run(self._window.disclose, principal, head)
        limit = max(0, min(limit, sight.upto - after))  # a delayed spectator's head
        frames = (
            await self._run(self._ledger.frames, game_id, after, limit) if limit else []
        )
        return [
            pb.Frame(
                event=presenters.event_message(
                    game, event, sight.viewer, show_hashes=sight.show_hashes
                ),
                view=presenters.view(game, sight.viewer),
                clocks=seat_clocks(game, millis(event.timestamp)),
            )
            for event, game in frames
        ], sight.upto

    @guarded
    async def ListFrames(
        self, request: pb.ListFramesRequest, context: Any
    ) -> pb.ListFramesResponse:
        game_id = parse_game_id(request.game_id)
        if request.after_version < 0:
            raise InvalidCommandError(
                "after_version must be >= 0",
                violations=(("after_version", "0 replays from the first event"),),
            )
        size = parse_page_size(request.page_size, 50, 500)
        frames, head = await self._frames(game_id, request.after_version, size)
        last = frames[-1].event.version if frames else request.after_version
        return pb.ListFramesResponse(
            frames=frames, next_after_version=last if last < head else 0
        )

    @guarded_stream
    async def StreamReplay(self, request: pb.StreamReplayRequest, context: Any) -> Any:
        game_id = parse_game_id(request.game_id)
        after = request.after_version
        if after < 0:
            raise InvalidCommandError(
                "after_version must be >= 0",
                violations=(("after_version", "0 replays from the first event"),),
            )
        while True:
            frames, head = await self._frames(game_id, after, 200)
            for frame in frames:
                yield frame
                after = frame.event.version
            if not frames or after >= head:
                return

    @guarded_stream
    async def ExportGame(self, request: pb.ExportGameRequest, context: Any) -> Any:
        principal = current_principal.get()
        game_id = parse_game_id(request.game_id)
        head = await self._run(self._ledger.load, game_id)
        sight = await self._run(self._window.disclose, principal, head)
        if not sight.viewer.admin:
            raise PermissionDeniedError(
                "a running game can only be exported by the admin"
            )
        rows = await self._run(self._ledger.read_records, game_id)
        receipts = await self._run(self._ledger.stored_receipts, game_id)
        keys = self._ledger.keyring
        for line in export_lines(str(game_id), rows, receipts, keys):
            yield pb.ExportChunk(line=line)
