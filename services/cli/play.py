"""``ledger play``: one seat's terminal client, in words, through the public API.

Everything goes through the calls any token holder has (``GetGame``,
``ListLegalMoves``, ``SubmitMove``, ``StreamGameEvents``, and
``TournamentService.GetMyGames`` for a player token), so it plays against a
remote server as well as a local one and can see only what the token may.

The board is the caller's own view in words (:mod:`domain.words.board_text`), the
log is the game's sentences (:mod:`domain.words.narration`, worded as in ``ledger
replay``), and each legal move is numbered and worded.  Large lists (a
Thalara hand selection has tens of thousands) are paged and searchable.  The
same loop runs without a person: ``--move N`` submits move N once,
``--auto`` plays random legal moves to the end, and choices can be piped on
stdin.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import typer

from services.cli import locate
from services.cli.failures import FAILED, USAGE, UserError
from services.cli.root import app, console

#: Moves fetched per ``ListLegalMoves`` call; shown ``--page-size`` at a time.
FETCH = 500

HELP_LINE = (
    "choose: a move's number; n / p: next / previous page; /TEXT: search the "
    "moves; b: the board; q: quit"
)


def say(text: str) -> None:
    console.print(text, highlight=False, soft_wrap=True, markup=False)


@dataclass
class Seat:
    """One game as the token's holder plays it."""

    conn: Any
    game_id: str
    token: str
    only_seat: int | None  # --seat, 0-based; None: whichever of ours must act
    ruleset: Any = None
    names: dict[int, str] = field(default_factory=dict)
    seen: int = 0  # the last version whose sentence was printed (or skipped)

    def call(self, method: str, request: Any, **kw: Any) -> Any:
        return self.conn.call(method, request, self.token, **kw)

    def game(self) -> Any:
        from ledger.v1 import game_service_pb2 as pb

        return self.call(
            "GetGame", pb.GetGameRequest(game_id=self.game_id, min_version=self.seen)
        )

    def ours_to_act(self, summary: Any) -> int | None:
        """The first of our seats that must act now (``None``: none)."""
        for seat in summary.to_act:
            if seat in summary.your_seats and self.only_seat in (None, seat):
                return int(seat)
        return None


class MoveList:
    """The legal moves of one seat at one version, fetched a page at a time."""

    def __init__(self, seat: Seat, at: int, words: Callable[[Any], str]) -> None:
        self._seat, self._at, self._words = seat, at, words
        self.moves: list[Any] = []
        self.total: int | None = None
        self._next = ""

    def _fetch(self) -> bool:
        """One more page; False once every move is here."""
        from ledger.v1 import game_service_pb2 as pb

        if self.total is not None and not self._next:
            return False
        got = self._seat.call(
            "ListLegalMoves",
            pb.ListLegalMovesRequest(
                game_id=self._seat.game_id,
                seat=self._at,
                page_size=FETCH,
                page_token=self._next,
            ),
        )
        self.moves.extend(got.moves)
        self.total, self._next = int(got.total_size), got.next_page_token
        return True

    def upto(self, count: int) -> int:
        """Fetch until ``count`` moves are here (or all are); how many are."""
        while len(self.moves) < count and self._fetch():
            pass
        if self.total is None:
            self._fetch()
        return len(self.moves)

    def line(self, index: int) -> str:
        return f"{index + 1:>6}. {self._words(self.moves[index])}"

    def search(self, text: str) -> Iterator[int]:
        """Indexes of the moves whose words contain ``text``, in list order."""
        needle, index = text.casefold(), 0
        while index < self.upto(index + 1):
            if needle in self._words(self.moves[index]).casefold():
                yield index
            index += 1


@app.command()
def play(
    game_id: str = typer.Argument(
        ...,
        metavar="GAME_ID",
        help="The game to play; with --tournament, the tournament's id.",
    ),
    token: str = typer.Option(
        ...,
        "--token",
        metavar="TOKEN",
        envvar="LEDGER_PLAYER_TOKEN",
        help="Your seat token (or, with --tournament, your tournament token).",
    ),
    tournament: bool = typer.Option(
        False,
        "--tournament",
        help="GAME_ID is a tournament and TOKEN your player token: play each of "
        "your unfinished games in it, in round order.",
    ),
    seat: int | None = typer.Option(
        None,
        "--seat",
        min=1,
        metavar="N",
        help="Play only seat N (counted from 1), when the token holds several.",
    ),
    move: int | None = typer.Option(
        None,
        "--move",
        min=1,
        metavar="N",
        help="Submit legal move N as listed (waiting for your turn first), then stop.",
    ),
    auto: bool = typer.Option(
        False,
        "--auto",
        help="Submit a random legal move at each of your turns until the game ends.",
    ),
    page_size: int = typer.Option(
        20, "--page-size", min=1, max=1000, help="Moves listed per page."
    ),
    target: str | None = locate.TARGET,
) -> None:
    """Play one seat in words: the board, the log, the legal moves numbered.

    At your turn, type a move's number to submit it; the opponents' moves
    are printed as they are made.  Without a terminal, choices are read from
    stdin one per line; --move and --auto need no input at all.
    """
    if move is not None and auto:
        raise UserError("--move and --auto exclude each other: choose one", USAGE)
    conn = locate.connect(target)
    only = None if seat is None else seat - 1
    if tournament:
        from services.cli.tournament import parse_tournament_id, pending_games

        tid = parse_tournament_id(game_id)
        games = [g for g, _ in pending_games(conn, tid, token)]
        if not games:
            say("no unfinished games for you in this tournament")
            return
        for mine in games:
            _play_game(
                Seat(conn, mine.game_id, mine.seat_token, only), move, auto, page_size
            )
            if move is not None:
                return
        return
    from services.cli.games import parse_game_id

    _play_game(
        Seat(conn, str(parse_game_id(game_id)), token, only), move, auto, page_size
    )


def _play_game(seat: Seat, move: int | None, auto: bool, page_size: int) -> None:
    from services.cli.replay import rules_and_names

    got = seat.game()
    summary = got.game
    if not summary.your_seats:
        raise UserError(
            f"this token holds no seat in game {seat.game_id} (use a seat token, "
            "or --tournament with your tournament token)",
            FAILED,
        )
    seat.ruleset, seat.names = rules_and_names(summary)
    yours = ", ".join(_who(seat, s) for s in summary.your_seats)
    say(
        f"game {summary.game_id} ({seat.ruleset.title}), you play {yours}; "
        f"{summary.version} events so far (`ledger replay` reads them)"
    )
    seat.seen = int(summary.version)
    while True:
        got = seat.game()
        summary = got.game
        if summary.status == "ended":
            say(_result(seat, summary))
            return
        acting = seat.ours_to_act(summary)
        if acting is None:
            waiting = ", ".join(_who(seat, s) for s in summary.to_act) or "the server"
            say(f"waiting for {waiting}...")
            _follow(seat)
            continue
        _show_board(seat, got)
        moves = MoveList(seat, acting, lambda m: _move_words(seat, m))
        chosen = _choose(seat, acting, moves, move, auto, page_size)
        if chosen is None:
            return
        _submit(seat, acting, chosen)
        if move is not None:
            return


def _who(seat: Seat, number: int) -> str:
    from domain.words.sentences import seat_name

    name = seat_name(seat.names, number)
    return name if name.startswith("seat ") else f"{name} (seat {number + 1})"


def _move_words(seat: Seat, packed: Any) -> str:
    from domain.words.sentences import plain_sentence
    from services.proto import convert

    return plain_sentence(convert.command_from_any(seat.ruleset, packed), seat.names)


def _show_board(seat: Seat, got: Any) -> None:
    from domain.words.board_text import board_lines
    from services.proto import convert

    view = convert.model_from_any(seat.ruleset, got.view, seat.ruleset.view_model)
    say(f"--- the table after event {got.game.version} ---")
    for line in board_lines(view, seat.names):
        say(line)


def _choose(
    seat: Seat,
    acting: int,
    moves: MoveList,
    move: int | None,
    auto: bool,
    page_size: int,
) -> Any | None:
    """The move to submit for ``acting``, or ``None`` to stop playing."""
    from ledger.v1 import game_service_pb2 as pb

    if auto:
        got = seat.call(
            "ListLegalMoves",
            pb.ListLegalMovesRequest(game_id=seat.game_id, seat=acting, sample=1),
        )
        return got.moves[0]
    if move is not None:
        if moves.upto(move) < move:
            raise UserError(
                f"--move {move}: there are only {moves.total} legal moves now", USAGE
            )
        return moves.moves[move - 1]
    first = 0
    _page(moves, first, page_size, acting, seat)
    while True:
        try:
            answer = input("move> ").strip()
        except EOFError:
            say("no more input: stopping (the game waits for your move)")
            return None
        if answer.isdigit():
            number = int(answer)
            if 1 <= number <= moves.upto(number):
                return moves.moves[number - 1]
            say(f"no move {number}: the moves are 1-{moves.total}")
        elif answer in ("n", "p"):
            step = page_size if answer == "n" else -page_size
            if 0 <= first + step < moves.upto(first + step + 1):
                first += step
            _page(moves, first, page_size, acting, seat)
        elif answer.startswith("/") and answer[1:].strip():
            _found(moves, answer[1:].strip(), page_size)
        elif answer == "b":
            _show_board(seat, seat.game())
        elif answer == "q":
            return None
        else:
            say(HELP_LINE)


def _page(moves: MoveList, first: int, size: int, acting: int, seat: Seat) -> None:
    shown = min(moves.upto(first + size), first + size)
    say(
        f"--- your move, {_who(seat, acting)}: moves {first + 1}-{shown} of "
        f"{moves.total} ---"
    )
    for index in range(first, shown):
        say(moves.line(index))
    say(HELP_LINE)


def _found(moves: MoveList, text: str, size: int) -> None:
    hits = 0
    for index in moves.search(text):
        say(moves.line(index))
        hits += 1
        if hits == size:
            say(f"(the first {size} matches; search for more words to narrow it)")
            return
    if not hits:
        say(f"no move matches {text!r}")


def _submit(seat: Seat, acting: int, chosen: Any) -> None:
    from ledger.v1 import game_service_pb2 as pb

    say(f"you play: {_move_words(seat, chosen)}")
    done = seat.call(
        "SubmitMove",
        pb.SubmitMoveRequest(
            game_id=seat.game_id,
            command_id=str(uuid.uuid4()),
            move=chosen,
            seat=acting,
        ),
    )
    _follow(seat, until=int(done.last_version))


def _follow(seat: Seat, until: int | None = None) -> None:
    """Print the log's new sentences: up to ``until``, or, live, until it is
    one of our seats' turn or the game is over."""
    from ledger.v1 import game_service_pb2 as pb
    from services.cli.replay import sentence

    stream = seat.call(
        "StreamGameEvents",
        pb.StreamGameEventsRequest(
            game_id=seat.game_id,
            after_version=seat.seen,
            min_version=until or seat.seen,
            stop_at_head=until is not None,
        ),
        timeout=None,
    )
    try:
        for event in stream:
            seat.seen = int(event.version)
            say(
                f"{event.version:>5}  "
                + sentence(seat.ruleset, seat.names, event.type, event.payload)
            )
            if until is not None:
                continue
            summary = seat.game().game
            if summary.status == "ended" or seat.ours_to_act(summary) is not None:
                return
    finally:
        stream.cancel()


def _result(seat: Seat, summary: Any) -> str:
    from domain.words.narration import concluded_sentence
    from services.proto.event_words import outcome_of

    if not summary.HasField("outcome"):
        return "The game is over."
    return concluded_sentence(outcome_of(summary.outcome), seat.names)
