"""The CLI as a new user meets it: ``ledger`` run as a command, from another directory.

Every user mistake prints one line (``error: ...``) and exits non-zero, never a
traceback; client commands find the running server through the data dir;
``ledger serve`` starts quietly; an idle server holds few connections.
Subprocess runs are started together so the module stays quick.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import psycopg
import pytest

from tests.support.database import scratch_database
from tests.support.server import ledger_serve, wait_until

pytestmark = pytest.mark.e2e

GAME_ID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
NO_GAME = "00000000-0000-0000-0000-000000000000"


def command() -> list[str]:
    script = Path(sys.executable).with_name("ledger")
    return [str(script)] if script.exists() else [sys.executable, "-m", "services.cli"]


def start(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [*command(), *args],
        env={**os.environ, "COLUMNS": "200", **env},
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def ledger(
    args: list[str], env: dict[str, str], cwd: Path, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    proc = start(args, env, cwd)
    out, err = proc.communicate(timeout=timeout)
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


@dataclass
class Served:
    env: dict[str, str]
    target: str
    database: str
    data_dir: Path
    elsewhere: Path
    idle_connections: list[tuple[str, str]]
    pid: int
    """The ``ledger serve`` process."""
    head: int = 0
    """Events in the game ``played`` (filled in by that fixture)."""


def connections(server_url: str, database: str) -> list[tuple[str, str]]:
    with psycopg.connect(server_url, autocommit=True) as conn:
        return conn.execute(
            "SELECT application_name, state FROM pg_stat_activity WHERE datname = %s",
            (database,),
        ).fetchall()


@pytest.fixture(scope="module")
def served(
    server_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Served]:
    """``ledger serve`` on a database of its own; clients run from another dir."""
    data_dir = tmp_path_factory.mktemp("ledger-user-data")
    elsewhere = tmp_path_factory.mktemp("somewhere-else")
    with scratch_database(server_url, "ledger_cli") as url:
        env = {"LEDGER_DATABASE_URL": url, "LEDGER_DATA_DIR": str(data_dir)}
        database = psycopg.conninfo.conninfo_to_dict(url)["dbname"]
        with ledger_serve(env) as server:
            wait_until(
                lambda: (data_dir / "server.json").exists(), "server.json written"
            )
            wait_until(  # idle means the views' child process is up too
                lambda: (
                    ("ledger serve: views", "idle")
                    in connections(server_url, str(database))
                ),
                "the views' process connected",
            )
            idle = connections(server_url, str(database))
            yield Served(
                env,
                server.target,
                str(database),
                data_dir,
                elsewhere,
                idle,
                server.proc.pid,
            )


@pytest.fixture(scope="module")
def played(served: Served) -> str:
    """A rated game played by ``ledger demo``, which found the server by itself."""
    result = ledger(
        ["demo", "--game", "terralore", "--player-ids", "ann,bob"],
        served.env,
        served.elsewhere,
    )
    assert result.returncode == 0, result.stderr
    assert "created terralore game" in result.stdout
    served.head = int(
        re.findall(r"game over after \d+ moves, (\d+) events", result.stdout)[0]
    )
    return GAME_ID.findall(result.stdout)[0]


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


KNOWN = "known: ['terralore', 'thalara', 'thorgal', 'vaalbara']"


def mistakes(
    served: Served, game: str, tmp: Path
) -> list[tuple[list[str], dict[str, str], int, str]]:
    """``(args, extra env, exit code, the one line)`` for every mistake a newcomer made in their first hour."""
    empty = {"LEDGER_DATA_DIR": str(tmp / "nothing-here"), "LEDGER_DATABASE_URL": ""}
    nobody = f"127.0.0.1:{free_port()}"
    return [
        (
            ["demo", "--game", "nosuchgame"],
            {},
            2,
            f"unknown game type 'nosuchgame'; {KNOWN}",
        ),
        (
            ["demo", "--setup", "not json"],
            {},
            2,
            "--setup is not JSON (Expecting value at char 0): 'not json'",
        ),
        (
            ["demo", "--setup", "[1]"],
            {},
            2,
            "--setup must be a JSON object, e.g. '{\"mode\": \"standard\"}', not '[1]'",
        ),
        (
            ["demo", "--game", "vaalbara", "--players", "9"],
            {},
            2,
            "vaalbara is played by 2-5 players, not 9 (--players)",
        ),
        (
            ["demo", "--setup", '{"bogus": 1}'],
            {},
            2,
            "invalid ThalaraSetup: bogus: Extra inputs are not permitted",
        ),
        (
            ["demo", "--player-ids", "ann"],
            {},
            2,
            "--player-ids needs 2 non-empty ids (one per player), got 1",
        ),
        (
            ["demo"],
            {**empty, "LEDGER_LISTEN": nobody},
            1,
            (
                f"no ledger server answers at {nobody}: start one with `ledger serve` "
                "(or pass --target HOST:PORT)"
            ),
        ),
        (["games", "show", NO_GAME], {}, 1, f"game {NO_GAME} not found"),
        (
            ["games", "show", "nonsense"],
            {},
            2,
            "'nonsense' is not a game id (a UUID; see `ledger games list`)",
        ),
        *(
            (
                ["games", "show", game, "--at", at],
                {},
                2,
                f"--at {at} is out of range: game {game} has events 1-{served.head}",
            )
            for at in ("0", "-3", "9999")
        ),
        (
            ["games", "list", "--type", "nosuchgame"],
            {},
            2,
            f"--type: unknown game type 'nosuchgame'; {KNOWN}",
        ),
        (
            ["games", "list"],
            empty,
            1,
            (
                f"no ledger data in {tmp / 'nothing-here'} yet: start the server with "
                "`ledger serve` (or set LEDGER_DATA_DIR or LEDGER_DATABASE_URL)"
            ),
        ),
        (
            ["verify", str(tmp / "missing.ndjson")],
            {},
            1,
            f"{tmp / 'missing.ndjson'}: No such file or directory",
        ),
        (["replay", NO_GAME], {}, 1, f"game {NO_GAME} not found"),
        (
            ["replay", game, "--at", "9999"],
            {},
            2,
            f"--at 9999 is past the last event ({served.head}) of game {game}",
        ),
        (
            ["serve", "--listen", served.target],
            {},
            1,
            (
                f"cannot listen on {served.target}: the port is in use (another "
                "`ledger serve`?); stop it or pass --listen HOST:PORT"
            ),
        ),
        (
            ["serve", "--listen", "nonsense"],
            {},
            2,
            "--listen 'nonsense' is not HOST:PORT (e.g. 127.0.0.1:50051)",
        ),
        (
            ["stats", "nosuchgame"],
            {},
            2,
            f"GAME_TYPE: unknown game type 'nosuchgame'; {KNOWN}",
        ),
        (
            ["projections", "rebuild", "nope"],
            {},
            2,
            "unknown view 'nope'; known: fairness, ratings, stats, tournament_results",
        ),
        (
            ["tournament", "standings", "nope"],
            {},
            2,
            (
                "'nope' is not a tournament id (a UUID, as `ledger tournament create` "
                "prints it)"
            ),
        ),
    ]


def test_each_user_mistake_prints_one_line_and_exits_non_zero(
    served: Served, played: str, tmp_path: Path
) -> None:
    """In-process (quick): the same root handler a real run goes through."""
    from typer.testing import CliRunner

    from services.cli import app

    for args, env, code, line in mistakes(served, played, tmp_path):
        result = CliRunner().invoke(app, args, env={**served.env, **env})
        shown = f"ledger {' '.join(args)}: {result.output!r} {result.exception!r}"
        assert result.exit_code == code, shown
        assert result.stderr.splitlines() == [f"error: {line}"], shown
        assert result.stdout == "", shown


def test_an_unreachable_database_is_one_line_with_postgresqls_reason(
    served: Served,
) -> None:
    from psycopg.conninfo import conninfo_to_dict, make_conninfo
    from typer.testing import CliRunner

    from services.cli import app

    params = conninfo_to_dict(served.env["LEDGER_DATABASE_URL"])
    missing = make_conninfo("", **{**params, "dbname": "ledger_no_such_db"})
    for args in (["games", "list"], ["serve", "--listen", "127.0.0.1:0"]):
        result = CliRunner().invoke(
            app, args, env={**served.env, "LEDGER_DATABASE_URL": missing}
        )
        assert result.exit_code == 1, result.output
        (line,) = result.stderr.splitlines()
        assert line.startswith(
            f"error: cannot reach PostgreSQL at {params.get('host')}:{params.get('port', 5432)}"
            "/ledger_no_such_db (LEDGER_DATABASE_URL): "
        ), line
        assert line.endswith('database "ledger_no_such_db" does not exist'), line


def test_as_a_real_process_a_mistake_is_one_line_on_stderr(
    served: Served, played: str, tmp_path: Path
) -> None:
    """A few of them as the user runs them: no traceback anywhere, the exit code."""
    picked = [
        case
        for case in mistakes(served, played, tmp_path)
        if case[0][:2]
        in (
            ["demo"],
            ["serve", "--listen"],
            ["verify", str(tmp_path / "missing.ndjson")],
        )
        or case[0][-1] == "0"
    ]
    assert len(picked) == 5
    procs = [
        (start(args, {**served.env, **env}, served.elsewhere), code, line)
        for args, env, code, line in picked
    ]
    for proc, code, line in procs:
        out, err = proc.communicate(timeout=120)
        shown = f"{proc.args!r}: {out}{err}"  # args is a list: repr is its str
        assert "Traceback" not in out + err, shown
        assert proc.returncode == code, shown
        assert err.splitlines() == [f"error: {line}"], shown


def test_an_unexpected_error_is_one_line_unless_debug(monkeypatch) -> None:
    from typer.testing import CliRunner

    from services.cli import app, locate

    def broken(explicit: str | None) -> str:
        raise RuntimeError("boom")

    monkeypatch.setattr(locate, "server_target", broken)
    plain = CliRunner().invoke(app, ["ratings", "thalara"])
    assert plain.exit_code == 1
    assert plain.stderr == (
        "error: internal error: RuntimeError: boom "
        "(run `ledger --debug ...` for the traceback)\n"
    )
    debug = CliRunner().invoke(app, ["--debug", "ratings", "thalara"])
    assert isinstance(debug.exception, RuntimeError)


def test_clients_find_the_running_server_and_read_its_games(
    served: Served, played: str
) -> None:
    """``played`` ran ``ledger demo`` with no --target from another directory;
    reading the games and the ratings works the same way."""
    listed = ledger(["games", "list"], served.env, served.elsewhere)
    assert listed.returncode == 0 and played in listed.stdout  # the full id, uncut

    def rated() -> bool:
        board = ledger(["ratings", "terralore"], served.env, served.elsewhere)
        assert board.returncode == 0, board.stderr
        return sorted(table_column(board.stdout, 2, 7)) == ["ann", "bob"]

    wait_until(rated, "ann and bob on the terralore leaderboard", timeout=60)


def table_column(output: str, index: int, bars: int) -> list[str]:
    """Cells of one column of a rich table (rows are lines with ``bars`` bars)."""
    return [
        line.split("│")[index].strip()
        for line in output.splitlines()
        if line.count("│") == bars
    ]


def test_stats_show_and_a_tournament_from_the_command_line(
    served: Served, played: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In-process (quick), with the same environment as the user's shell."""
    from typer.testing import CliRunner

    from services.cli import app

    monkeypatch.chdir(served.elsewhere)
    for key, value in served.env.items():
        monkeypatch.setenv(key, value)

    def run(*args: str) -> str:
        result = CliRunner().invoke(app, list(args))
        assert result.exit_code == 0, result.output
        return result.stdout

    assert run("games", "show", played, "--at", "1").startswith(
        f"terralore {played} version 1 (active)"
    )
    stats = run("stats", "terralore")
    assert stats.startswith("terralore: 1 games started, 1 finished"), stats
    created = run("tournament", "create", "cup", "--game", "terralore", "--rounds", "1")
    tid = GAME_ID.findall(created)[0]
    # organiser actions default to the admin token the server left in the data dir
    assert table_column(run("tournament", "register", tid, "ann", "bob"), 1, 3) == [
        "ann",
        "bob",
    ]
    assert "ann, bob" in run("tournament", "start", tid)
    standings = run("tournament", "standings", tid)
    assert sorted(table_column(standings, 2, 10)) == ["ann", "bob"]


def test_an_idle_server_holds_at_most_five_connections(served: Served) -> None:
    assert 1 <= len(served.idle_connections) <= 5, served.idle_connections
    names = {name for name, _ in served.idle_connections}
    assert names == {"ledger serve", "ledger serve: views"}


def test_the_views_run_in_a_child_process_of_ledger_serve(served: Served) -> None:
    children = Path(f"/proc/{served.pid}/task/{served.pid}/children").read_text()
    commands = [
        Path(f"/proc/{child}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        for child in children.split()
    ]
    assert [c for c in commands if "multiprocessing.spawn" in c], commands
    # and its connection is the views': the serving process opened none for them
    views = [n for n, _ in served.idle_connections if n == "ledger serve: views"]
    assert len(views) == 1


def test_first_start_is_quiet_and_says_what_it_is_doing(tmp_path: Path) -> None:
    """Embedded PostgreSQL from nothing: a few lines, no engine logs, no warnings."""
    import shutil
    import tempfile

    # Not under pytest's 0700 tmp tree: the embedded PostgreSQL runs as its own
    # "pgserver" user when the tests run as root, and must reach its data dir.
    home = Path(tempfile.mkdtemp(prefix="ledger-first-start-"))
    home.chmod(0o755)
    data_dir = home / "data"
    env = {"LEDGER_DATA_DIR": str(data_dir), "LEDGER_DATABASE_URL": ""}  # embedded
    try:
        with ledger_serve(env, timeout=120) as server:
            assert (data_dir / "server.json").exists()
        assert not (data_dir / "server.json").exists()  # removed on stop
    finally:
        shutil.rmtree(home, ignore_errors=True)
    lines = server.output.splitlines()
    assert lines[:2] == [
        f"data dir: {data_dir}",
        "first start: creating the embedded PostgreSQL database (initdb takes a few seconds)…",
    ], server.output
    assert f"ledger serving on {server.target}" in lines
    assert f"  admin token  {data_dir / 'admin-token'}" in lines
    assert "  next         ledger demo --game thalara   (in another terminal)" in lines
    assert len(lines) <= 10, server.output
    assert not re.search(r"pgserver|initdb:|Warning|INFO|Traceback", server.output), (
        server.output
    )
