"""``ledger play`` and ``ledger tournament my-games``: a seat played in words.

Driven three ways: scripted (``--move``, stdin through ``CliRunner``), as a
person would through a pseudo-terminal, and as two bots (``--auto``) playing
a tournament round to the standings in two processes.
"""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from domain.games import find_game
from ledger.v1 import game_service_pb2 as pb
from ledger.v1 import tournament_service_pb2 as tpb
from ledger.v1 import tournament_service_pb2_grpc as trpc
from services.api.client import create, legal_moves
from services.proto import convert

pytestmark = pytest.mark.e2e
THALARA = find_game("thalara")


def cli(server, *args: str, input: str | None = None):
    from services.cli import app

    return CliRunner().invoke(
        app,
        [*args, "--target", f"127.0.0.1:{server.port}"],
        input=input,
        terminal_width=300,
    )


def thalara(server):
    return create(
        server,
        "thalara",
        players=2,
        characters=["myrja", "canto"],
        player_ids=("rita", "sam"),
    )


def admin_game(server, game_id):
    return server.call(
        "GetGame", pb.GetGameRequest(game_id=game_id), server.admin_token
    )


def words_of(server, table, move) -> str:
    """``move`` of seat 0 as that seat reads it, from its own view."""
    from domain.words.move_words import move_sentence

    seen = server.call(
        "GetGame", pb.GetGameRequest(game_id=table.game_id), table.tokens[0]
    )
    view = convert.model_from_any(THALARA, seen.view, THALARA.view_model)
    command = convert.command_from_any(THALARA, move)
    return move_sentence(THALARA, command, 0, view, {0: "rita", 1: "sam"})


def sentences_of(server, table, seat: int) -> list[str]:
    """The seat's legal moves as ListLegalMoves words them (its own view)."""
    return list(
        server.call(
            "ListLegalMoves",
            pb.ListLegalMovesRequest(
                game_id=table.game_id, seat=seat, page_size=1000, with_sentences=True
            ),
            table.tokens[seat],
        ).sentences
    )


def test_move_n_submits_the_nth_listed_move_and_stops(grpc_server):
    table = thalara(grpc_server)
    listed = legal_moves(grpc_server, table, 0, limit=1000)
    said = sentences_of(grpc_server, table, 0)
    before = admin_game(grpc_server, table.game_id).game.version
    got = cli(
        grpc_server, "play", table.game_id, "--token", table.tokens[0], "--move", "3"
    )
    assert got.exit_code == 0, got.output
    assert "you play rita (seat 1)" in got.output
    # the game's own sentence, as ListLegalMoves words it for the seat
    assert f"you play: {said[2]}" in got.output
    assert "--- the table after event" in got.output
    after = admin_game(grpc_server, table.game_id)
    assert after.game.version > before and 0 not in after.game.to_act
    view = convert.model_from_any(THALARA, after.view, THALARA.view_model)
    chosen = convert.command_from_any(THALARA, listed[2])
    assert set(view.players[0].hand) == set(chosen.cards)


def test_choices_read_from_stdin_page_search_and_quit(grpc_server):
    table = thalara(grpc_server)
    got = cli(
        grpc_server,
        "play",
        table.game_id,
        "--token",
        table.tokens[0],
        "--page-size",
        "5",
        input="n\n/r20@0\n/no-such-card\nq\n",
    )
    assert got.exit_code == 0, got.output
    total = legal_moves(grpc_server, table, 0, limit=100_000)
    assert f"moves 1-5 of {len(total)}" in got.output
    assert f"moves 6-10 of {len(total)}" in got.output
    searched = got.output.split("no move matches")[0].rsplit("choose:", 1)[1]
    found = re.findall(r"^(?:move> )? +(\d+)\. (.*)$", searched, re.MULTILINE)
    # the search is on the moves (r20@0); the sentences name a seat's own
    # Remnants without the seat (r20)
    assert len(found) == 5 and all("r20 (" in line for _, line in found)
    for n, line in found:
        assert words_of(grpc_server, table, total[int(n) - 1]) == line
    assert "no move matches 'no-such-card'" in got.output
    # quitting submitted nothing
    assert 0 in admin_game(grpc_server, table.game_id).game.to_act


@pytest.mark.parametrize(
    "args, code, says",
    [
        (["not-a-uuid", "--token", "x"], 2, "is not a game id"),
        (["--tournament", "nope", "--token", "x"], 2, "is not a tournament id"),
        (["GID", "--token", "x", "--move", "1", "--auto"], 2, "exclude each other"),
        (["GID", "--token", "ADMIN", "--move", "1"], 1, "holds no seat"),
        (["GID", "--token", "SEAT", "--move", "999999"], 2, "only"),
        (["GID", "--token", "bad-token"], 1, "UNAUTHENTICATED"),
    ],
)
def test_mistakes_get_one_line_and_the_right_exit_code(grpc_server, args, code, says):
    table = thalara(grpc_server)
    known = {
        "GID": table.game_id,
        "SEAT": table.tokens[0],
        "ADMIN": grpc_server.admin_token,
    }
    args = [known.get(a, a) for a in args]
    got = cli(grpc_server, "play", *args)
    assert got.exit_code == code, got.output
    # (a move past the list's end is found at the player's turn, after the board)
    lines = got.output.strip().splitlines()
    assert says in lines[-1] and "Traceback" not in got.output
    assert len(lines) == 1 or "the table after event" in got.output


class Terminal:
    """A ``ledger play`` process on a pseudo-terminal, read up to a text."""

    def __init__(self, argv: list[str]) -> None:
        self.master, slave = pty.openpty()
        self.proc = subprocess.Popen(
            argv,
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env={**os.environ, "COLUMNS": "200"},
            close_fds=True,
        )
        os.close(slave)
        self.seen = ""

    def read_until(self, text: str, limit: float = 60.0) -> str:
        """Everything printed up to and including ``text`` (the limit only
        bounds a failure: a run that never prints it)."""
        while text not in self.seen:
            ready, _, _ = select.select([self.master], [], [], limit)
            assert ready, f"no {text!r} in:\n{self.seen}"
            try:
                chunk = os.read(self.master, 65536).decode(errors="replace")
            except OSError:
                chunk = ""
            assert chunk, f"process ended without {text!r}:\n{self.seen}"
            self.seen += chunk.replace("\r\n", "\n")
        upto, self.seen = self.seen.split(text, 1)
        return upto + text

    def send(self, line: str) -> None:
        os.write(self.master, (line + "\n").encode())

    def close(self) -> int:
        code = self.proc.wait(timeout=60)
        os.close(self.master)
        return code


def test_a_person_plays_through_a_terminal_and_sees_the_opponent_move(grpc_server):
    table = thalara(grpc_server)
    term = Terminal(
        [
            sys.executable,
            "-m",
            "services.cli",
            "play",
            table.game_id,
            "--token",
            table.tokens[0],
            "--target",
            f"127.0.0.1:{grpc_server.port}",
        ]
    )
    try:
        first = term.read_until("move> ")
        assert "the table after event" in first and "moves 1-20 of" in first
        term.send("2")
        chosen = term.read_until("waiting for sam (seat 2)...")
        assert "you play: " in chosen
        # sam selects through the API; rita's terminal learns it from the stream
        sam_moves = legal_moves(grpc_server, table, 1, limit=1)
        grpc_server.call(
            "SubmitMove",
            pb.SubmitMoveRequest(
                game_id=table.game_id, command_id="sam-1", move=sam_moves[0], seat=1
            ),
            table.tokens[1],
        )
        sams_cards = set(convert.command_from_any(THALARA, sam_moves[0]).cards)
        sam_played = 1
        while 0 not in admin_game(grpc_server, table.game_id).game.to_act:
            # sam starts: he plays on until it is rita's turn
            sam_played += 1
            moves = legal_moves(grpc_server, table, 1, limit=1)
            grpc_server.call(
                "SubmitMove",
                pb.SubmitMoveRequest(
                    game_id=table.game_id,
                    command_id=f"sam-{sam_played}",
                    move=moves[0],
                    seat=1,
                ),
                table.tokens[1],
            )
        later = term.read_until("move> ")
        assert re.search(r"sam selects \d+ cards\.", later)
        shown = set(re.findall(r"r\d\d@1", first + chosen + later))
        assert not shown & sams_cards, "rita's terminal showed sam's hidden hand"
        term.send("q")
        assert term.close() == 0
    finally:
        if term.proc.poll() is None:
            term.proc.kill()


def test_two_bots_play_a_tournament_round_to_the_standings(grpc_server):
    stub = trpc.TournamentServiceStub(grpc_server.channel)
    auth = (("authorization", f"Bearer {grpc_server.admin_token}"),)
    tid = stub.CreateTournament(
        tpb.CreateTournamentRequest(
            name="cup", game_type="terralore", format="swiss", rounds=1, table_size=2
        ),
        metadata=auth,
    ).tournament.tournament_id
    tokens = {
        p: stub.RegisterPlayer(
            tpb.RegisterPlayerRequest(tournament_id=tid, player_id=p), metadata=auth
        ).player_token
        for p in ("ann", "bob")
    }
    (paired,) = stub.StartRound(
        tpb.StartRoundRequest(tournament_id=tid), metadata=auth
    ).tables
    listed = cli(grpc_server, "tournament", "my-games", tid, "--token", tokens["ann"])
    assert listed.exit_code == 0, listed.output
    assert paired.game_id in listed.output
    assert re.search(r"\b1\b.*" + paired.game_id, listed.output)
    bots = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "services.cli",
                "play",
                tid,
                "--tournament",
                "--token",
                tokens[p],
                "--auto",
                "--target",
                f"127.0.0.1:{grpc_server.port}",
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for p in ("ann", "bob")
    ]
    outputs = [bot.communicate(timeout=300)[0] for bot in bots]
    assert [bot.returncode for bot in bots] == [0, 0], outputs
    assert all("The game is over" in out for out in outputs), outputs
    # the standings follow the log: the stream's last update has both results
    updates = list(
        stub.StreamStandings(tpb.GetStandingsRequest(tournament_id=tid), timeout=120)
    )
    assert sorted(r.played for r in updates[-1].rows) == [1, 1], updates[-1]
    after = cli(grpc_server, "tournament", "my-games", tid, "--token", tokens["bob"])
    assert after.exit_code == 0 and "no unfinished games" in after.output


def test_move_n_on_a_finished_game_fails_with_one_line(grpc_server):
    table = thalara(grpc_server)
    grpc_server.call("Resign", pb.ResignRequest(game_id=table.game_id), table.tokens[1])
    got = cli(
        grpc_server, "play", table.game_id, "--token", table.tokens[0], "--move", "1"
    )
    assert got.exit_code == 1, got.output
    last = got.output.strip().splitlines()[-1]
    assert "is over" in last and "move 1" in last and "Traceback" not in got.output


TRANSCRIPT = "/tmp/play_terralore_transcript.txt"


def test_the_waiting_seat_sees_a_terralore_game_to_its_last_event_and_the_clocks(
    grpc_server,
):
    """Two ``ledger play --auto`` processes finish a Terralore game with a
    clock; the seat that did not make the last move was waiting on its
    session, and its output still shows every event to the conclusion, the
    result, and the clocks as they stood."""
    from services.cli.replay import rules_and_names, sentence

    terralore = find_game("terralore")
    request = pb.CreateGameRequest(
        game_type="terralore",
        setup=convert.model_to_any(terralore, terralore.setup_model(players=2)),
        time_control=pb.TimeControl(
            kind="fischer", base_seconds=900, increment_seconds=5
        ),
    )
    created = grpc_server.call("CreateGame", request)
    game_id = created.game.game_id
    tokens = {seat: t.token for t in created.tokens for seat in t.seats}
    target = f"127.0.0.1:{grpc_server.port}"
    procs = {
        seat: subprocess.Popen(
            [sys.executable, "-m", "services.cli", "play", game_id, "--token", token]
            + ["--auto", "--target", target],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env={**os.environ, "COLUMNS": "200"},
        )
        for seat, token in tokens.items()
    }
    outputs = {seat: p.communicate(timeout=600)[0] for seat, p in procs.items()}
    assert all(p.returncode == 0 for p in procs.values()), outputs
    admin = grpc_server.admin_token
    events = list(
        grpc_server.call(
            "StreamGameEvents",
            pb.StreamGameEventsRequest(game_id=game_id, stop_at_head=True),
            admin,
        )
    )
    assert events[-1].type == "ledger.GameConcluded"
    last_mover = [e for e in events if e.HasField("actor")][-1].actor
    waiting = 1 - last_mover
    shown = outputs[waiting]
    with open(TRANSCRIPT, "w") as out:
        out.write(f"$ ledger play {game_id} --token <seat {waiting + 1}> --auto\n")
        out.write(shown)
    summary = grpc_server.call(
        "GetGame", pb.GetGameRequest(game_id=game_id), tokens[waiting]
    ).game
    ruleset, names = rules_and_names(summary)
    lines = shown.splitlines()
    # every event after the greeting, once, in order, to the conclusion
    numbered = [
        int(m.group(1)) for m in map(re.compile(r"^ *(\d+)  ").match, lines) if m
    ]
    first = numbered[0]
    assert numbered == list(range(first, events[-1].version + 1))
    # the final events as the waiting seat may see them (its own castle's fall)
    final = grpc_server.call(
        "StreamGameEvents",
        pb.StreamGameEventsRequest(
            game_id=game_id, after_version=events[-1].version - 3, stop_at_head=True
        ),
        tokens[waiting],
    )
    for event in final:
        said = sentence(ruleset, names, event.type, event.payload)
        assert any(line.endswith(said) for line in lines), said
    assert lines[-1].strip() and "seat" in lines[-1]  # the result, seats from 1
    clock_lines = [line for line in lines if line.startswith("clocks (fischer): ")]
    assert clock_lines and "seat 1 " in clock_lines[0] and "seat 2 " in clock_lines[0]
