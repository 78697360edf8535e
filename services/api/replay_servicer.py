"""``ReplayService``: a game's stored history, as frames, a stream or an export.

Parses the request, asks the service layer's read path
(:class:`~services.ledger.reading.game_reads.GameReads`: the event store,
never the views, as far as the disclosure policy lets this caller see, so a
delayed spectator replays no further than the delay allows) and presents
the frames.
"""

from __future__ import annotations

from typing import Any

from ledger.v1 import read_service_pb2 as pb
from ledger.v1 import read_service_pb2_grpc as pb_grpc
from services.api.auth import current_principal
from services.api.read_rpc import parse_page_size
from services.api.rpc import check_after_version, guarded, parse_game_id
from services.ledger.reading.game_reads import Frames, GameReads
from services.proto import game_messages


class ReplayServicer(pb_grpc.ReplayServiceServicer):
    def __init__(self, reads: GameReads) -> None:
        self._reads = reads

    async def _frames(self, game_id: Any, after: int, limit: int) -> Frames:
        return await self._reads.frames(current_principal.get(), game_id, after, limit)

    @staticmethod
    def _messages(page: Frames) -> list[pb.Frame]:
        return game_messages.frames(
            page.frames, page.sight.viewer, page.sight.show_hashes
        )

    @guarded
    async def ListFrames(
        self, request: pb.ListFramesRequest, context: Any
    ) -> pb.ListFramesResponse:
        game_id = parse_game_id(request.game_id)
        after = check_after_version(request.after_version)
        size = parse_page_size(request.page_size, 50, 500)
        page = await self._frames(game_id, after, size)
        return pb.ListFramesResponse(
            frames=self._messages(page), next_after_version=page.next_after
        )

    @guarded
    async def StreamReplay(self, request: pb.StreamReplayRequest, context: Any) -> Any:
        game_id = parse_game_id(request.game_id)
        after = check_after_version(request.after_version)
        while True:
            page = await self._frames(game_id, after, 200)
            for frame in self._messages(page):
                yield frame
                after = frame.event.version
            if not page.frames or not page.next_after:
                return

    @guarded
    async def ExportGame(self, request: pb.ExportGameRequest, context: Any) -> Any:
        game_id = parse_game_id(request.game_id)
        for line in await self._reads.export(current_principal.get(), game_id):
            yield pb.ExportChunk(line=line)
