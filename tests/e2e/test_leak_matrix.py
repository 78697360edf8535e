"""The leak matrix: every read RPC x every role x several points
of every game type.

Roles: each seat's token, a spectator (no token), another game's token, a
garbage token and the admin.  Points: the start, after ``LEDGER_LEAK_MOVES``
moves, just before the move that ends the game (found by deciding the next
move on a copy with the game's own seed), and after the end; with
``LEDGER_LEAK_EVERY=n`` also every ``n`` moves (the full run).

What each role may see is derived from the game itself, not from lists: the
ruleset's ``redact``/``view`` for that role's :class:`~domain.contract.core.Viewer`
against the admin's.  Every path where the two differ is hidden from that
role, and every event and view an RPC gives the role must hold the role's
value there (then equal the role's redaction as a whole).  Hashes follow the
same rule.  After the end every role must see what the admin sees (the
disclosure policy); garbage tokens get ``UNAUTHENTICATED`` everywhere.

Some rows have a spectator delay: spectators (no token, another game's
token) must then be exactly that many moves behind through every RPC while
seats and the admin stay live, and no role can find the log's head (which
moves with every stored move, delayed or not) by a binary search over
``min_log_position``.  The §1 differential runs too: every
Stats/Rating answer is byte-identical at every point while the game runs,
for every role.
"""

from __future__ import annotations

import json
import os
import random
import uuid
from dataclasses import dataclass
from itertools import islice
from typing import Any

import grpc
import pytest

from domain.contract.core import ADMIN, SPECTATOR, Viewer
from domain.games import find_game
from domain.ledger.aggregate import Game
from domain.ledger.spectator import marks_of, parse_delay, visible_version
from ledger.v1 import game_service_pb2 as pb
from ledger.v1 import read_service_pb2 as rpb
from services.api.client import create
from services.api.session_client import SeatSessionClient
from services.proto import convert
from tests.e2e.leak_probe import (
    MOVES,
    SETUP_IDS,
    SETUPS,
    Reader,
    head_probe,
    log_head,
    meta,
    refused,
    spectator_answers,
)
from tests.support.database import ledger_for

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def settings(quiet_settings):
    """A database of this module's own: see ``quiet_settings``."""
    return quiet_settings


@pytest.fixture(scope="module")
def ledger(settings):
    with ledger_for(settings) as app:
        yield app


EVERY = int(os.environ.get("LEDGER_LEAK_EVERY", "0"))
"""Also check every ``EVERY`` moves (0: only the named points)."""
SAMPLES = int(os.environ.get("LEDGER_LEAK_SAMPLES", "3"))
"""Point-in-time views and replay frames checked per point (the stream of
events is always checked whole); 0 checks every version."""
DELAYS = {1: 2, 3: 1, 6: 3}
"""Rows (indexes into ``SETUPS``) created with a spectator delay of n moves."""


@dataclass(frozen=True)
class Role:
    name: str
    token: str | None
    viewer: Viewer | None
    """What the role may see of this game while it runs (None: refused)."""


@dataclass
class Tally:
    hidden: int = 0
    """Hidden paths checked (so the matrix cannot pass vacuously)."""
    delayed: int = 0
    """Points where a spectator was held behind the head."""


# ------------------------------------------------------------------ structure


def hidden_paths(admin: Any, mine: Any, path: tuple = ()) -> list[tuple]:
    """Paths of ``admin`` (a dumped model) whose value the viewer's redaction changes."""
    if isinstance(admin, dict) and isinstance(mine, dict):
        return [
            p
            for key in admin
            for p in hidden_paths(admin[key], mine.get(key), (*path, key))
        ]
    if isinstance(admin, list) and isinstance(mine, list) and len(admin) == len(mine):
        return [
            p
            for i, (a, m) in enumerate(zip(admin, mine))
            for p in hidden_paths(a, m, (*path, i))
        ]
    return [] if admin == mine else [path]


def value_at(data: Any, path: tuple) -> Any:
    for key in path:
        try:
            data = data[key]
        except (KeyError, IndexError, TypeError):
            return "<absent>"
    return data


def check_no_leak(shown: Any, mine: Any, admin: Any, where: str, tally: Tally) -> None:
    """``shown`` (what an RPC gave) holds the viewer's value on every path the
    viewer's redaction hides, and equals that redaction."""
    shown_d, mine_d, admin_d = (m.model_dump(mode="json") for m in (shown, mine, admin))
    hidden = hidden_paths(admin_d, mine_d)
    tally.hidden += len(hidden)
    leaked = [p for p in hidden if value_at(shown_d, p) != value_at(mine_d, p)]
    assert not leaked, f"{where}: hidden fields reached the caller: {leaked[:5]}"
    assert shown == mine, where


# ------------------------------------------------------------------ the game


class Walk:
    """A game's stored log, its state at every version, and how to move it on."""

    def __init__(self, ledger: Any, game_id: uuid.UUID, rnd: random.Random) -> None:
        self.ledger, self.game_id, self.rnd = ledger, game_id, rnd

    def refresh(self) -> None:
        self.head = self.ledger.load(self.game_id)
        self.ruleset = self.head.ruleset
        self.events = self.ledger.store.events(self.game_id)
        self.states: dict[int, Any] = {}
        state = None
        for event in self.events:
            if isinstance(event, Game.Created):
                state = self.ruleset.initial_state(event.setup)
            elif isinstance(event, Game.Decided):
                state = self.ruleset.evolve(state, event.payload)
            self.states[event.originator_version] = state

    def next_move(self) -> tuple[int, Any]:
        game = self.ledger.load(self.game_id)
        seat = self.rnd.choice(game.to_act())
        return seat, self.ruleset.random_command(game.state, seat, self.rnd)

    def would_end(self, seat: int, command: Any) -> bool:
        trial = self.ledger.load(self.game_id)  # a private copy
        trial.act(command, seat, self.ledger.seed_of(self.game_id), None)
        return trial.is_over

    def play(self, seat: int, command: Any) -> None:
        self.ledger.submit(self.game_id, command, seat, str(uuid.uuid4()))


def sample(versions: list[int]) -> list[int]:
    if not SAMPLES or len(versions) <= SAMPLES:
        return versions
    step = (len(versions) - 1) / (SAMPLES - 1)
    return sorted({versions[round(i * step)] for i in range(SAMPLES)})


# ------------------------------------------------------------------ one point


def check_point(
    server: Any, reader: Reader, walk: Walk, roles: list[Role], label: str, tally: Tally
) -> None:
    walk.refresh()
    for role in roles:
        if role.viewer is None:
            check_refused(server, reader, walk, role, f"{label} / {role.name}")
        else:
            check_role(server, reader, walk, role, f"{label} / {role.name}", tally)


def check_refused(
    server: Any, reader: Reader, walk: Walk, role: Role, where: str
) -> None:
    """A token the server does not know is refused by every read RPC."""
    game_id, gt, token = str(walk.game_id), walk.head.game_type, role.token
    for call in (
        lambda: server.call("GetGame", pb.GetGameRequest(game_id=game_id), token),
        lambda: server.call(
            "StreamGameEvents",
            pb.StreamGameEventsRequest(game_id=game_id, stop_at_head=True),
            token,
        ),
        lambda: server.call(
            "ListLegalMoves", pb.ListLegalMovesRequest(game_id=game_id), token
        ),
        lambda: server.call("ListGames", pb.ListGamesRequest(), token),
        lambda: reader.replay.ListFrames(
            rpb.ListFramesRequest(game_id=game_id), metadata=meta(token)
        ),
        lambda: reader.replay.StreamReplay(
            rpb.StreamReplayRequest(game_id=game_id), metadata=meta(token)
        ),
        lambda: reader.replay.ExportGame(
            rpb.ExportGameRequest(game_id=game_id), metadata=meta(token)
        ),
        lambda: reader.stats.GetFairness(
            rpb.GetFairnessRequest(game_type=gt), metadata=meta(token)
        ),
        lambda: reader.ratings.GetLeaderboard(
            rpb.GetLeaderboardRequest(game_type=gt), metadata=meta(token)
        ),
    ):
        assert refused(call) == grpc.StatusCode.UNAUTHENTICATED, where
    assert refused(lambda: session(server, game_id, token)) == (
        grpc.StatusCode.UNAUTHENTICATED
    ), where


def session(server: Any, game_id: str, token: str | None) -> list[Any]:
    """A seat session's messages up to its first state (the head), or to its
    end for a finished game."""
    client = SeatSessionClient(
        server.channel, game_id, token, page_size=50, timeout=60, with_view=True
    )
    seen = []
    try:
        for message in client:
            seen.append(message)
            if message.HasField("state") and message.state.status != "ended":
                break
    finally:
        client.close()
    return seen


def check_role(
    server: Any, reader: Reader, walk: Walk, role: Role, where: str, tally: Tally
) -> None:
    """Every read RPC gives ``role`` exactly what the game's redaction allows."""
    head, ruleset, game_id = walk.head, walk.ruleset, str(walk.game_id)
    ended = head.is_over
    delay = parse_delay(head.spectator_delay)
    stored = {e.originator_version: e for e in walk.events}
    assert role.viewer is not None
    viewer = ADMIN if ended else role.viewer
    upto = head.version
    if delay is not None and not ended and viewer.is_spectator:
        upto = visible_version(delay, marks_of(walk.events), head.modified_on)
        tally.delayed += upto < head.version
    show_hashes = ended or viewer.admin

    def check_event(event: pb.GameEvent, at: str) -> None:
        original = stored[event.version]
        assert (
            bool(event.hash) == show_hashes and bool(event.prev_hash) == show_hashes
        ), at
        if show_hashes:
            assert event.hash == original.hash, at
        if isinstance(original, Game.Decided):
            shown = convert.event_from_any(ruleset, event.payload)
            mine = ruleset.redact(original.payload, viewer)
            check_no_leak(shown, mine, original.payload, at, tally)
        elif isinstance(original, Game.Concluded):
            assert ended, at

    def check_view(packed: Any, version: int, at: str) -> None:
        state = walk.states[version]
        shown = convert.model_from_any(ruleset, packed, ruleset.view_model)
        check_no_leak(
            shown,
            ruleset.view(state, viewer),
            ruleset.view(state, ADMIN),
            at,
            tally,
        )

    # GetGame, now and at past versions
    got = server.call("GetGame", pb.GetGameRequest(game_id=game_id), role.token)
    assert got.game.version == upto, where
    assert bool(got.game.head_hash) == show_hashes, where
    assert bool(got.game.revealed_seed) == ended, where
    check_view(got.view, upto, f"{where} GetGame")
    for version in sample(list(range(1, upto + 1))):
        past = server.call(
            "GetGame",
            pb.GetGameRequest(game_id=game_id, at_version=version),
            role.token,
        )
        check_view(past.view, version, f"{where} GetGame@{version}")
    if upto < head.version:
        assert (
            refused(
                lambda: server.call(
                    "GetGame",
                    pb.GetGameRequest(game_id=game_id, at_version=upto + 1),
                    role.token,
                )
            )
            == grpc.StatusCode.INVALID_ARGUMENT
        )
    # StreamGameEvents: every event, whole
    # whole while the game runs; after the end every role gets the admin's
    # answer, checked whole for the spectator and on the tail for the others
    start = 0 if not ended or role.name == "spectator" else max(0, upto - 5)
    streamed = list(
        server.call(
            "StreamGameEvents",
            pb.StreamGameEventsRequest(
                game_id=game_id, after_version=start, stop_at_head=True
            ),
            role.token,
        )
    )
    assert [e.version for e in streamed] == list(range(start + 1, upto + 1)), where
    for event in streamed:
        check_event(event, f"{where} StreamGameEvents v{event.version}")
    # ListFrames (sampled pages) and StreamReplay (its tail)
    for version in sample(list(range(1, upto + 1))):
        page = reader.replay.ListFrames(
            rpb.ListFramesRequest(
                game_id=game_id, after_version=version - 1, page_size=1
            ),
            metadata=meta(role.token),
        )
        (frame,) = page.frames
        assert frame.event.version == version, where
        check_event(frame.event, f"{where} ListFrames v{version}")
        check_view(frame.view, version, f"{where} ListFrames v{version} view")
    tail = list(
        reader.replay.StreamReplay(
            rpb.StreamReplayRequest(game_id=game_id, after_version=max(0, upto - 2)),
            metadata=meta(role.token),
        )
    )
    assert [f.event.version for f in tail] == list(
        range(max(0, upto - 2) + 1, upto + 1)
    ), where
    for frame in tail:
        check_event(frame.event, f"{where} StreamReplay v{frame.event.version}")
        check_view(frame.view, frame.event.version, f"{where} StreamReplay view")
    # ExportGame: the raw log, to the admin or once the game has ended
    export = lambda: list(
        reader.replay.ExportGame(
            rpb.ExportGameRequest(game_id=game_id), metadata=meta(role.token)
        )
    )
    if not viewer.admin:
        assert refused(export) == grpc.StatusCode.PERMISSION_DENIED, where
    elif not ended or role.token is None:  # after the end, one role is enough
        kinds = [json.loads(chunk.line)["kind"] for chunk in export()]
        assert kinds.count("event") == len(walk.events), where
        assert kinds[:1] == ["header"] and {"seed", "result"} <= set(kinds), where
    # ListGames: a delayed spectator's version is the delayed one
    listed = server.call("ListGames", pb.ListGamesRequest(page_size=500), role.token)
    (row,) = [g for g in listed.games if g.game_id == game_id]
    assert row.version == upto, where
    # SeatSessionService.Play: only a seat opens one; it streams the seat's
    # redaction of every event and the legal moves of its own seats only
    play = lambda: session(server, game_id, role.token)
    if role.viewer.admin:
        assert refused(play) == grpc.StatusCode.PERMISSION_DENIED, where
    elif role.token is None:
        assert refused(play) == grpc.StatusCode.UNAUTHENTICATED, where
    elif role.viewer.is_spectator:  # another game's token
        assert refused(play) == grpc.StatusCode.PERMISSION_DENIED, where
    else:
        messages = play()
        opened = messages[0].opened
        assert opened.game.version == upto and list(opened.game.your_seats), where
        assert bool(opened.game.head_hash) == show_hashes, where
        events = [m.event for m in messages if m.HasField("event")]
        assert [e.version for e in events] == list(range(1, upto + 1)), where
        for event in events:
            check_event(event, f"{where} Play v{event.version}")
        pages = [m.moves for m in messages if m.HasField("moves")]
        expected_pages = (
            [] if ended else [s for s in opened.seats if s in head.to_act()]
        )
        assert [p.seat for p in pages] == expected_pages, where
        for page in pages:
            assert role.viewer.can_see(page.seat), where
            assert page.version == upto, where
            check_view(page.view, upto, f"{where} Play view of seat {page.seat}")
            assert [convert.command_from_any(ruleset, m) for m in page.moves] == list(
                islice(ruleset.legal_commands(head.state, page.seat), 50)
            ), where
    # ListLegalMoves: a seat's options (they show its hand) only to that seat
    for seat in range(head.seat_count):
        ask = lambda s=seat: server.call(
            "ListLegalMoves",
            pb.ListLegalMovesRequest(game_id=game_id, seat=s, page_size=50),
            role.token,
        )
        if role.viewer.can_see(seat):
            expected = (
                []
                if ended or seat not in head.to_act()
                else list(islice(ruleset.legal_commands(head.state, seat), 50))
            )
            assert [
                convert.command_from_any(ruleset, m) for m in ask().moves
            ] == expected, where
        elif role.token is None:
            assert refused(ask) == grpc.StatusCode.UNAUTHENTICATED, where
        else:
            assert refused(ask) == grpc.StatusCode.PERMISSION_DENIED, where


# ------------------------------------------------------------------ the matrix


@pytest.fixture(scope="module")
def other_token(grpc_server) -> str:
    return create(grpc_server, "terralore", players=2).tokens[0]


@pytest.mark.parametrize(
    ("index", "game_type", "setup"),
    [(i, *s) for i, s in enumerate(SETUPS)],
    ids=SETUP_IDS,
)
def test_no_role_reads_what_it_may_not_see(
    grpc_server, ledger, other_token, index, game_type, setup
):
    ruleset = find_game(game_type)
    reader = Reader(grpc_server.channel)
    players = [f"lm-{uuid.uuid4().hex[:8]}" for _ in range(setup["players"])]
    request = pb.CreateGameRequest(
        game_type=game_type,
        setup=convert.model_to_any(ruleset, ruleset.setup_model(**setup)),
        player_ids=players,
    )
    if index in DELAYS:
        request.spectator_delay.moves = DELAYS[index]
    created = grpc_server.call("CreateGame", request)
    game_id = uuid.UUID(created.game.game_id)
    roles = [
        Role(f"seats {list(t.seats)}", t.token, Viewer.player(*t.seats))
        for t in created.tokens
    ] + [
        Role("spectator", None, SPECTATOR),
        Role("other game's token", other_token, SPECTATOR),
        Role("garbage token", "not-a-token-" + uuid.uuid4().hex, None),
        Role("admin", grpc_server.admin_token, ADMIN),
    ]
    walk, tally = Walk(ledger, game_id, random.Random(index)), Tally()
    position = log_head(ledger)
    baseline = spectator_answers(reader, game_type, players, position)

    def differential(label: str, every_role: bool = False) -> None:
        """§1: no Stats/Rating answer moves while the game runs (for every
        role at the last point: the answers do not depend on who asks)."""
        at = log_head(ledger)
        asked = roles if every_role else [r for r in roles if r.token is None]
        for role in asked:
            if role.viewer is not None:
                got = spectator_answers(
                    reader, game_type, players, at, token=role.token
                )
                assert got == baseline, f"{label} / {role.name}"
                # a binary search over min_log_position learns nothing
                probe = head_probe(reader, game_type, at, role.token)
                assert len(set(probe.values())) == 1, (
                    f"{label} / {role.name}: the answer depends on the head: "
                    f"{ {p: code for p, (code, _) in probe.items()} }"
                )

    check_point(grpc_server, reader, walk, roles, "start", tally)
    differential("start")
    moves = 0
    while True:
        seat, command = walk.next_move()
        if walk.would_end(seat, command):
            check_point(
                grpc_server,
                reader,
                walk,
                roles,
                f"before the last move ({moves})",
                tally,
            )
            differential("before the last move", every_role=True)
            walk.play(seat, command)
            break
        walk.play(seat, command)
        moves += 1
        if moves == MOVES or (EVERY and moves % EVERY == 0):
            check_point(grpc_server, reader, walk, roles, f"after {moves} moves", tally)
            differential(f"after {moves} moves")
    check_point(grpc_server, reader, walk, roles, "after the end", tally)
    ended = spectator_answers(reader, game_type, players, log_head(ledger))
    assert ended != baseline, (
        "the finished game was never counted: the differential is blind"
    )
    assert tally.hidden > 0, (
        "no role was ever denied anything: the matrix checked nothing"
    )
    if index in DELAYS:
        assert tally.delayed > 0, "the spectator delay never held anyone back"
