"""``ledger replay``: a game's log in sentences, as the caller may see it.

Read through the API (``ReplayService.ListFrames``), not the database, so
what a line says is exactly what the server discloses to the token's holder:
a seat's own cards to its player, counts to a spectator, everything once the
game has ended or to the admin.  The words are the game's own
(``domain/words/narration.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import typer

from services.cli import locate
from services.cli.failures import FAILED, USAGE, UserError
from services.cli.games import GAME_ID, parse_game_id
from services.cli.root import app, console
from services.proto.event_words import sentence

if TYPE_CHECKING:
    from domain.contract.core import Ruleset


@app.command()
def replay(
    game_id: str = GAME_ID,
    at: int = typer.Option(1, min=1, metavar="EVENT", help="Start at this event."),
    limit: int = typer.Option(
        100_000, min=1, metavar="N", help="Show at most this many events."
    ),
    token: str | None = typer.Option(
        None,
        "--token",
        metavar="TOKEN",
        help="Read as this seat, player or organiser token (default: the admin "
        "token from the data dir, to a server on this machine; a running game "
        "then shows everything).",
    ),
    target: str | None = locate.TARGET,
) -> None:
    """The game's log in sentences: each event's number, time and what happened."""
    import grpc

    from ledger.v1 import game_service_pb2 as pb
    from ledger.v1 import read_service_pb2 as rpb
    from ledger.v1 import read_service_pb2_grpc as rpc

    gid = parse_game_id(game_id)
    conn = locate.connect(target)
    frames_stub = rpc.ReplayServiceStub(conn.channel)
    metadata = locate.bearer(token or locate.admin_token(target=target))
    try:
        got = conn.stub.GetGame(
            pb.GetGameRequest(game_id=str(gid)), metadata=metadata, timeout=30
        )
    except grpc.RpcError as exc:
        if exc.code() == grpc.StatusCode.NOT_FOUND:
            raise UserError(exc.details() or f"game {gid} not found", FAILED) from None
        raise
    head = got.game.version
    if at > head:
        raise UserError(
            f"--at {at} is past the last event ({head}) of game {gid}", USAGE
        )
    ruleset, names = rules_and_names(got.game)
    after, shown = at - 1, 0
    while shown < limit:
        page = frames_stub.ListFrames(
            rpb.ListFramesRequest(
                game_id=str(gid), after_version=after, page_size=min(500, limit - shown)
            ),
            metadata=metadata,
            timeout=60,
        )
        for frame in page.frames[: limit - shown]:
            event = frame.event
            when = event.timestamp.ToDatetime().strftime("%Y-%m-%d %H:%M:%S")
            line = sentence(ruleset, names, event.type, event.payload)
            if frame.clocks:
                line += "  [" + clocks_text(frame.clocks, names) + "]"
            console.print(
                f"{event.version:>5}  {when}  {line}",
                highlight=False,
                soft_wrap=True,
                markup=False,
            )
            shown += 1
        if not page.next_after_version or not page.frames:
            return
        after = page.next_after_version


def clocks_text(clocks: Any, names: dict[int, str]) -> str:
    """``clocks: rita 4:53.0 (to move), seat 2 5:00.0`` from a frame's clocks
    (seats as people read them: the player's name, else "seat N" from 1)."""
    from domain.words.sentences import seat_name
    from services.cli.clock_lines import duration

    return "clocks: " + ", ".join(
        f"{seat_name(names, c.seat)} {duration(c.remaining_ms)}"
        + (" (to move)" if c.running else "")
        for c in clocks
    )


def rules_and_names(summary: Any) -> tuple[Ruleset[Any], dict[int, str]]:
    """The game's rules and its seats' names, from ``GetGame``'s summary."""
    from domain.games import find_ruleset
    from domain.words.narration import seat_names
    from services.proto import convert

    ruleset = find_ruleset(summary.game_type, summary.ruleset_version or None)
    setup = convert.setup_from_any(ruleset, summary.setup)
    return ruleset, seat_names(ruleset, setup, tuple(summary.player_ids))
