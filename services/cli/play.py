"""``ledger play``: one seat's terminal client, in words, through the public API.

A seat plays on one seat session (``SeatSessionService.Play``): the events
as they happen (the waiting seat sees every one, to the conclusion, however
the game ended: a move, the timekeeper, a resignation, an arbiter), the
clocks, and at each turn the board and the first page of the legal moves;
moves, further pages and searches go up the same stream.  Only ``GetGame``
(once, to greet the player) and ``TournamentService.GetMyGames`` (for a
tournament token) are unary calls, so it plays against a remote server as
well as a local one and sees only what the token may.

The board is the caller's own view in words (:mod:`domain.words.board_text`),
the log is the game's sentences (:mod:`domain.words.narration`, worded as in
``ledger replay``), and each legal move is numbered and worded.  Large lists
(a Thalara hand selection has 77,520) are paged and searched by the server:
``/r05 r07`` lists the hands holding both cards.  The same loop runs without
a person: ``--move N`` submits move N once, ``--auto`` plays random legal
moves to the end, and choices can be piped on stdin.

On a terminal the clock line above the prompt ticks once a second while the
player thinks; elsewhere (a pipe, a test) each clock reading is printed once,
as it arrives, so the output is a plain log.
"""

from __future__ import annotations

import queue
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import grpc
import typer

from services.cli import locate
from services.cli.failures import FAILED, USAGE, UserError
from services.cli.root import app, console
from services.cli.seat_option import seat_option

#: Moves fetched per page of the session's legal-move list.
FETCH = 500
#: Seconds between two readings of the ticking clock line.
TICK = 1.0

HELP_LINE = (
    "choose: a move's number; n / p: next / previous page; /WORDS: the moves "
    "holding every word (e.g. /r05 r07); b: the board; q: quit"
)


def say(text: str) -> None:
    console.print(text, highlight=False, soft_wrap=True, markup=False)


class GameOver(Exception):
    """The session ended: the game is over (its last events were printed)."""


@dataclass
class Seat:
    """One game as the token's holder plays it, on one seat session."""

    conn: Any
    game_id: str
    token: str
    only_seat: int | None  # --seat, 0-based; None: whichever of ours must act
    ruleset: Any = None
    names: dict[int, str] = field(default_factory=dict)
    seen: int = 0  # the last version whose sentence was printed (or skipped)
    said: str = ""  # the last event's sentence
    state: Any = None  # the session's latest GameSummary
    state_at: float = 0.0  # time.monotonic() when it arrived
    pages: dict[int, Any] = field(default_factory=dict)  # seat -> its turn's page
    handled: set[tuple[int, int]] = field(default_factory=set)  # (version, seat)
    inbox: queue.Queue[tuple[str, Any]] = field(default_factory=queue.Queue)
    session: Any = None
    tty: bool = False
    clock_shown: bool = False  # the last line on screen is a ticking clock line
    at_prompt: bool = False  # the last line on screen is the prompt
    _stdin: threading.Thread | None = None
    typed: deque[tuple[str, Any]] = field(default_factory=deque)
    """Lines read while the session was being waited on, in order."""

    def call(self, method: str, request: Any, **kw: Any) -> Any:
        return self.conn.call(method, request, self.token, **kw)

    def game(self) -> Any:
        from ledger.v1 import game_service_pb2 as pb

        return self.call("GetGame", pb.GetGameRequest(game_id=self.game_id))

    def open(self, after: int) -> None:
        """Open the seat's session after event ``after``; a thread reads it."""
        from services.api.session_client import SeatSessionClient

        self.session = SeatSessionClient(
            self.conn.channel,
            self.game_id,
            self.token,
            after_version=after,
            seat=self.only_seat,
            page_size=FETCH,
            with_view=True,
        )
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        try:
            for message in self.session:
                self.inbox.put(("message", message))
            self.inbox.put(("end", None))
        except grpc.RpcError as exc:
            self.inbox.put(("end", exc))

    def close(self) -> None:
        if self.session is not None:
            self.session.close()

    def read_lines(self) -> None:
        """Read the player's lines from stdin into the inbox (once)."""
        if self._stdin is not None:
            return

        def read() -> None:
            while True:
                line = sys.stdin.readline()
                if not line:
                    self.inbox.put(("eof", None))
                    return
                self.inbox.put(("line", line.strip()))

        self._stdin = threading.Thread(target=read, daemon=True)
        self._stdin.start()

    def ours_to_act(self) -> int | None:
        """The first of our seats that must act now and has its page (``None``: none)."""
        state = self.state
        if state is None or state.status == "ended":
            return None
        for seat in state.to_act:
            if seat in state.your_seats and self.only_seat in (None, seat):
                page = self.pages.get(int(seat))
                if (
                    page is not None
                    and page.version == state.version
                    and (page.version, int(seat)) not in self.handled
                ):
                    return int(seat)
        return None

    # ------------------------------------------------------------ the session

    def next(self, timeout: float | None = None) -> tuple[str, Any] | None:
        """The next item of the inbox, a session message already handled
        (events printed, state and pages kept); ``None`` after ``timeout``.

        :raises GameOver: the session ended after the game's conclusion.
        """
        if self.typed:
            return self.typed.popleft()
        try:
            kind, item = self.inbox.get(timeout=timeout)
        except queue.Empty:
            return None
        if kind == "end":
            if item is not None:
                raise item
            raise GameOver
        if kind == "message":
            self._handle(item)
        return kind, item

    def _handle(self, message: Any) -> None:
        kind = message.WhichOneof("kind")
        if kind == "event" and message.event.version > self.seen:
            from services.cli.replay import sentence

            event = message.event
            self.seen = int(event.version)
            self.said = sentence(self.ruleset, self.names, event.type, event.payload)
            self.print(f"{event.version:>5}  {self.said}")
        elif kind == "moves" and not message.ref:
            self.pages[int(message.moves.seat)] = message.moves
        elif kind == "state":
            changed = self.state is None or _clocks(self.state) != _clocks(
                message.state
            )
            self.state, self.state_at = message.state, time.monotonic()
            line = self.clock_line()
            if line and changed and not self.tty:
                self.print(line)

    def answer(self, ref: str) -> Any:
        """The session's answer to our message ``ref`` (meanwhile, the game
        goes on being printed).

        :raises GameOver:
        """
        kept = self.typed
        self.typed = deque()  # what the player typed meanwhile waits its turn
        try:
            while True:
                got = self.next()
                if got is None:
                    continue
                if got[0] in ("line", "eof"):
                    kept.append(got)
                elif got[1].ref == ref:
                    return got[1]
        finally:
            self.typed = kept

    # ------------------------------------------------------------ the screen

    def print(self, text: str) -> None:
        if self.clock_shown or (self.tty and self.at_prompt):
            sys.stdout.write("\r\x1b[K")  # the clock or prompt line, redrawn after
            self.clock_shown = self.at_prompt = False
        say(text)

    def clock_line(self) -> str | None:
        """Each seat's clock now (a running one counted down since the state
        arrived, so the server's and our clocks need not agree)."""
        from services.cli.clock_lines import duration

        state = self.state
        if state is None or not state.clocks:
            return None
        spent = int((time.monotonic() - self.state_at) * 1000)
        parts = []
        for clock in state.clocks:
            running = clock.running and state.status != "ended"
            left = max(0, clock.remaining_ms - spent) if running else clock.remaining_ms
            mark = " (running)" if running else ""
            parts.append(f"{_who(self, clock.seat)} {duration(left)}{mark}")
        line = f"clocks ({state.time_control.kind}): " + ", ".join(parts)
        if state.paused:
            line += "; paused by the arbiter"
        return line

    def tick(self, above_prompt: bool) -> None:
        """On a terminal: the clock line drawn again, in place."""
        line = self.clock_line()
        if not self.tty or line is None:
            return
        if above_prompt:  # the line above the prompt; the typing stays as it is
            sys.stdout.write(f"\x1b7\x1b[1A\r\x1b[K{line}\x1b8")
        else:
            sys.stdout.write(f"\r\x1b[K{line}")
            self.clock_shown = True
        sys.stdout.flush()

    def prompt(self) -> None:
        if self.clock_shown:
            sys.stdout.write("\r\x1b[K")
            self.clock_shown = False
        line = self.clock_line()
        if self.tty and line is not None:
            sys.stdout.write(line + "\n")
        sys.stdout.write("move> ")
        sys.stdout.flush()
        self.at_prompt = True


def _clocks(state: Any) -> tuple[Any, ...]:
    return (
        state.version,
        state.status,
        state.paused,
        tuple((c.seat, c.remaining_ms, c.running) for c in state.clocks),
    )


class MoveList:
    """The legal moves of one seat at one version, a page at a time, from
    the session: the turn's first page, then pages asked for on the stream."""

    def __init__(self, seat: Seat, page: Any, words: Callable[[Any], str]) -> None:
        self._seat, self.words = seat, words
        self.at, self.version = int(page.seat), int(page.version)
        self.moves: list[Any] = list(page.moves)
        self.total = int(page.total_size)
        self._next = page.next_page_token
        self.view = page.view

    def _fetch(self) -> bool:
        """One more page; False once every move is here (or the list is stale)."""
        if not self._next or self._seat.session is None:
            return False
        ref = self._seat.session.query(
            seat=self.at, page_token=self._next, page_size=FETCH
        )
        got = self._seat.answer(ref)
        if got.HasField("refused"):  # the game moved on: a new page comes
            self._next = ""
            return False
        self.moves.extend(got.moves.moves)
        self._next = got.moves.next_page_token
        return True

    def upto(self, count: int) -> int:
        """Fetch until ``count`` moves are here (or all are); how many are."""
        while len(self.moves) < count and self._fetch():
            pass
        return len(self.moves)

    def line(self, index: int, move: Any = None) -> str:
        chosen = self.moves[index] if move is None else move
        return f"{index + 1:>6}. {self.words(chosen)}"

    def search(self, text: str, size: int) -> tuple[list[tuple[int, Any]], int]:
        """The first ``size`` moves holding every word of ``text`` (the
        server filters), each with its index in the list; and how many match."""
        ref = self._seat.session.query(seat=self.at, filter=text, page_size=size)
        got = self._seat.answer(ref)
        if got.HasField("refused"):
            raise UserError(got.refused.message, USAGE)
        page = got.moves
        return list(zip((int(i) for i in page.indexes), page.moves)), int(
            page.total_size
        )


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
    seat: int | None = seat_option(
        "Play only seat N (counted from 1), when the token holds several."
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

    summary = seat.game().game
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
    if summary.status == "ended":
        _over(summary, move)
        say(_result(seat, summary))
        return
    seat.tty = sys.stdout.isatty() and sys.stdin.isatty() and move is None and not auto
    seat.open(after=seat.seen)
    try:
        _session(seat, move, auto, page_size)
    except GameOver:
        if seat.state is not None:  # the closing line, after the last clocks
            say(_result(seat, seat.state))
        _over(seat.state, move)
    finally:
        seat.close()


def _over(summary: Any, move: int | None) -> None:
    """:raises UserError: ``--move N`` asked for a move in a finished game."""
    if move is not None:
        raise UserError(
            f"game {summary.game_id} is over: move {move} was not submitted", FAILED
        )


def _session(seat: Seat, move: int | None, auto: bool, page_size: int) -> None:
    """Follow the session; at each of our turns choose and submit.

    :raises GameOver: when the game ends (its last events printed).
    """
    waiting_said = -1
    while True:
        acting = seat.ours_to_act()
        if acting is None:
            state = seat.state
            if state is not None and state.version != waiting_said:
                waiting_said = int(state.version)
                mine = set(state.your_seats)
                others = [s for s in state.to_act if s not in mine]
                if others:
                    who = ", ".join(_who(seat, s) for s in others)
                    seat.print(f"waiting for {who}...")
            if seat.next(timeout=TICK) is None:
                seat.tick(above_prompt=False)
            continue
        page = seat.pages[acting]
        seat.handled.add((int(page.version), acting))
        _show_board(seat, page.view, page.version)
        moves = MoveList(seat, page, _sentences(seat, acting, page.view))
        chosen = _choose(seat, acting, moves, move, auto, page_size)
        if chosen is None:
            return
        if chosen is _MOVED_ON:
            continue
        said = moves.words(chosen)
        if (
            _submit(seat, acting, chosen, said, strict=move is not None)
            and move is not None
        ):
            return


_MOVED_ON = object()
"""What :func:`_choose` answers when the game moved on under the prompt."""


def _who(seat: Seat, number: int) -> str:
    from domain.words.sentences import seat_name

    name = seat_name(seat.names, number)
    return name if name.startswith("seat ") else f"{name} (seat {number + 1})"


def _sentences(seat: Seat, acting: int, view: Any) -> Callable[[Any], str]:
    """How ``acting`` reads each of its legal moves: the game's sentence,
    worded from the seat's own view (the page's), as ListLegalMoves and the
    play page word it; should a game's words fail, the plain ones."""
    from domain.words.move_words import move_sentence, plain_move
    from services.proto import convert

    model = convert.model_from_any(seat.ruleset, view, seat.ruleset.view_model)

    def words(packed: Any) -> str:
        command = convert.command_from_any(seat.ruleset, packed)
        try:
            return move_sentence(seat.ruleset, command, acting, model, seat.names)
        except Exception:  # noqa: BLE001 - the plain words; the move still plays
            return plain_move(command, acting, seat.names)

    return words


def _show_board(seat: Seat, view: Any, version: int) -> None:
    from domain.words.board_text import board_lines
    from services.proto import convert

    model = convert.model_from_any(seat.ruleset, view, seat.ruleset.view_model)
    seat.print(f"--- the table after event {version} ---")
    for line in board_lines(model, seat.names):
        seat.print(line)


def _choose(
    seat: Seat,
    acting: int,
    moves: MoveList,
    move: int | None,
    auto: bool,
    page_size: int,
) -> Any:
    """The move to submit for ``acting``; ``None`` to stop playing;
    :data:`_MOVED_ON` when the game moved on under the prompt."""
    from ledger.v1 import game_service_pb2 as pb

    if auto:
        got = seat.call(
            "ListLegalMoves",
            pb.ListLegalMovesRequest(game_id=seat.game_id, seat=acting, sample=1),
        )
        return got.moves[0] if got.moves else _MOVED_ON
    if move is not None:
        if moves.upto(move) < move:
            raise UserError(
                f"--move {move}: there are only {moves.total} legal moves now", USAGE
            )
        return moves.moves[move - 1]
    first = 0
    _page(moves, first, page_size, acting, seat)
    seat.read_lines()
    seat.prompt()
    while True:
        got = seat.next(timeout=TICK)
        if got is None:
            seat.tick(above_prompt=True)
            continue
        kind, item = got
        if kind == "message":
            state = seat.state
            if state.status != "ended" and acting not in state.to_act:
                seat.print("(the game moved on: it is no longer your turn)")
                return _MOVED_ON
            fresh = seat.pages.get(acting)
            if fresh is not None and fresh.version > moves.version:
                if fresh.total_size != moves.total:
                    seat.print(f"(the game moved on: event {fresh.version})")
                    return _MOVED_ON
                seat.handled.add((int(fresh.version), acting))
                moves = MoveList(seat, fresh, _sentences(seat, acting, fresh.view))
            if item.WhichOneof("kind") == "event" and seat.tty:
                seat.prompt()
            continue
        if kind == "eof":
            seat.print("no more input: stopping (the game waits for your move)")
            return None
        answer = item
        if answer.isdigit():
            number = int(answer)
            if 1 <= number <= moves.upto(number):
                return moves.moves[number - 1]
            seat.print(f"no move {number}: the moves are 1-{moves.total}")
        elif answer in ("n", "p"):
            step = page_size if answer == "n" else -page_size
            if 0 <= first + step < moves.upto(first + step + 1):
                first += step
            _page(moves, first, page_size, acting, seat)
        elif answer.startswith("/") and answer[1:].strip():
            _found(seat, moves, answer[1:].strip(), page_size)
        elif answer == "b":
            _show_board(seat, moves.view, moves.version)
        elif answer == "q":
            return None
        else:
            seat.print(HELP_LINE)
        seat.prompt()


def _page(moves: MoveList, first: int, size: int, acting: int, seat: Seat) -> None:
    shown = min(moves.upto(first + size), first + size)
    seat.print(
        f"--- your move, {_who(seat, acting)}: moves {first + 1}-{shown} of "
        f"{moves.total} ---"
    )
    for index in range(first, shown):
        seat.print(moves.line(index))
    seat.print(HELP_LINE)


def _found(seat: Seat, moves: MoveList, text: str, size: int) -> None:
    hits, total = moves.search(text, size)
    for index, packed in hits:
        seat.print(moves.line(index, packed))
    if not hits:
        seat.print(f"no move matches {text!r}")
    elif total > len(hits):
        seat.print(
            f"(the first {len(hits)} of {total} matches; search for more words "
            "to narrow it)"
        )


def _submit(seat: Seat, acting: int, chosen: Any, said: str, strict: bool) -> bool:
    """Submit ``chosen`` on the session; whether it was recorded.

    :raises UserError: refused, when ``strict`` (``--move``); otherwise the
        refusal is printed and the turn goes on.
    """
    seat.print(f"you play: {said}")
    ref = seat.session.move(chosen, seat=acting)
    answer = seat.answer(ref)
    if answer.HasField("refused"):
        if strict:
            raise UserError(f"refused: {answer.refused.message}", FAILED)
        seat.print(f"refused: {answer.refused.message}")
        return False
    last = int(answer.accepted.last_version)
    while seat.seen < last or seat.state.version < last:  # the move's own events
        seat.next()
    return True


def _result(seat: Seat, summary: Any) -> str:
    from domain.words.narration import concluded_sentence
    from services.proto.event_words import outcome_of

    if not summary.HasField("outcome"):
        return "The game is over."
    return concluded_sentence(outcome_of(summary.outcome), seat.names)
