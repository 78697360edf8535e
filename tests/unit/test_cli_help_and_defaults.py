"""The CLI's help and defaults, checked without a server (quick).

``--help`` never shows ``<bool>`` for a flag and every parameter says what it
is for; ``ledger demo --help`` lists each game with its player range and setup
fields; every game can be created with every player count from the defaults
``ledger demo`` uses; the pools and addresses come out as documented.
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from typer.main import get_command
from typer.testing import CliRunner

from domain.games import all_games
from services.cli import app, locate
from services.cli.failures import UserError


def walk(command: Any, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], Any]]:
    found = [(path, command)]
    for name, sub in getattr(command, "commands", {}).items():
        found += walk(sub, (*path, name))
    return found


COMMANDS = walk(get_command(app))


@pytest.mark.parametrize("path", [p for p, _ in COMMANDS], ids=" ".join)
def test_help_shows_no_bool_placeholder(path: tuple[str, ...]) -> None:
    result = CliRunner().invoke(app, [*path, "--help"], terminal_width=200)
    assert result.exit_code == 0, result.output
    assert "<bool>" not in result.output
    assert "Usage: " in result.output


def test_every_parameter_and_command_has_help_text() -> None:
    missing = [
        f"ledger {' '.join(path)} {param.name}"
        for path, command in COMMANDS
        for param in command.params
        if not getattr(param, "help", None)
    ]
    assert missing == []
    assert all(command.help for path, command in COMMANDS if path), (
        "a command has no help"
    )


def test_demo_help_lists_every_game_with_players_and_setup_fields() -> None:
    result = CliRunner().invoke(app, ["demo", "--help"], terminal_width=200)
    text = " ".join(result.output.split())
    for game in all_games():
        players = (
            f"{game.min_players}-{game.max_players}"
            if game.min_players < game.max_players
            else f"{game.min_players}"
        )
        assert f"{game.name}: {players} players" in text
        for field in game.setup_model.model_fields:
            if field != "players":
                assert f"{field}=" in text or f" {field}" in text, (game.name, field)
        assert all(e.name in text for e in game.examples), game.name


@pytest.mark.parametrize(
    ("game", "players"),
    [(g.name, n) for g in all_games() for n in range(g.min_players, g.max_players + 1)],
)
def test_the_demo_defaults_make_a_valid_game_for_every_player_count(
    game: str, players: int
) -> None:
    """``ledger demo --game G --players N`` sends just ``players``: that must do."""
    ruleset = next(g for g in all_games() if g.name == game)
    setup = ruleset.setup_model.model_validate({"players": players})
    ruleset.initial_state(setup)  # raised for Thalara 3-4p before
    assert len(ruleset.player_seats(setup)) == players


def test_the_demo_takes_its_table_from_the_games_declared_examples() -> None:
    from services.cli.demo import example_setup
    from services.cli.failures import UserError

    thalara = next(g for g in all_games() if g.name == "thalara")
    assert example_setup(thalara, None, 4) == dict(thalara.example("thalara-4p").setup)
    chaos = example_setup(thalara, "thalara-2p-casual-chaos", 2)
    assert chaos["mode"] == "casual_chaos"
    with pytest.raises(UserError, match="thalara-2p-casual-chaos"):
        example_setup(thalara, "thalara-9p", 2)


def test_thalara_without_characters_takes_the_packs_first_ones_in_seat_order() -> None:
    thalara = next(g for g in all_games() if g.name == "thalara")
    state = thalara.initial_state(thalara.setup_model.model_validate({"players": 3}))
    assert [p.character for p in state.players] == ["myrja", "canto", "accaina"]


def test_pools_open_no_idle_connection_and_grow_to_pool_size() -> None:
    from services.runtime.settings import Settings
    from services.storage.database_env import eventsourcing_env

    env = eventsourcing_env("postgresql://u@h:5/d", 16)
    assert (env["POSTGRES_POOL_SIZE"], env["POSTGRES_MAX_OVERFLOW"]) == ("0", "16")
    env = eventsourcing_env("postgresql://u@h:5/d", 4, pool_min=2)
    assert (env["POSTGRES_POOL_SIZE"], env["POSTGRES_MAX_OVERFLOW"]) == ("2", "2")
    assert Settings(database_url="postgresql://x").pool_min == 0


def test_the_data_dir_is_per_user_unless_ledger_data_dir_says_otherwise(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    from services.runtime.settings import Settings

    monkeypatch.delenv("LEDGER_DATA_DIR", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.chdir(tmp_path)
    assert Settings().data_dir == tmp_path / "xdg" / "game-ledger"
    monkeypatch.setenv("LEDGER_DATA_DIR", str(tmp_path / "mine"))
    assert Settings().data_dir == tmp_path / "mine"


def test_a_server_announces_its_address_and_a_stale_one_is_ignored(
    tmp_path: Any,
) -> None:
    assert locate.announced_address(tmp_path) is None
    locate.write_address(tmp_path, "0.0.0.0:50077")
    assert locate.announced_address(tmp_path) == "127.0.0.1:50077"
    (tmp_path / "server.json").write_text(
        json.dumps({"address": "127.0.0.1:50078", "pid": 2**22 + 12345})
    )  # beyond pid_max: that server is gone
    assert locate.announced_address(tmp_path) is None
    locate.write_address(tmp_path, "127.0.0.1:50079")
    locate.clear_address(tmp_path)
    assert not (tmp_path / "server.json").exists()
    assert os.getpid()  # clear_address only removed our own announcement


@pytest.mark.parametrize(
    "address", ["nonsense", "127.0.0.1", "host:port", ":50051", "127.0.0.1:70000"]
)
def test_a_malformed_address_is_a_usage_error(address: str) -> None:
    with pytest.raises(UserError, match="is not HOST:PORT") as raised:
        locate.parse_address(address)
    assert raised.value.code == 2


NOWHERE = ["--target", "127.0.0.1:1"]
"""No server: a command line that parses gets as far as connecting."""


def test_an_example_names_its_game_without_game() -> None:
    result = CliRunner().invoke(app, ["demo", "--example", "terralore-2p", *NOWHERE])
    assert result.exit_code == 1, result.output
    assert result.output.startswith("error: no ledger server answers at 127.0.0.1:1")


def test_an_example_and_a_game_that_disagree_are_refused() -> None:
    result = CliRunner().invoke(
        app, ["demo", "--game", "thalara", "--example", "terralore-2p", *NOWHERE]
    )
    assert result.exit_code == 2
    assert "terralore-2p is a terralore example, not thalara's" in result.output


def test_players_that_contradict_the_example_are_refused() -> None:
    result = CliRunner().invoke(
        app, ["demo", "--example", "thalara-3p", "--players", "2", *NOWHERE]
    )
    assert result.exit_code == 2
    assert result.output == (
        "error: --players 2 contradicts --example thalara-3p (3 players); "
        "leave --players out\n"
    )
    same = CliRunner().invoke(
        app, ["demo", "--example", "thalara-3p", "--players", "3", *NOWHERE]
    )
    assert same.exit_code == 1 and "no ledger server" in same.output


def test_demo_help_lists_the_example_setups_list_game_types_declares() -> None:
    from services.api.game_types import game_type
    from services.proto import convert

    for game in all_games():
        offered = {
            (s.players, getattr(s, "mode", None))
            for pack in game_type(game).content_packs[:1]
            for s in (convert.setup_from_any(game, e) for e in pack.example_setups)
        }
        named = {(e.players, e.setup.get("mode", None)) for e in game.examples}
        assert offered <= named, (game.name, offered - named)


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (
            ["--bogus"],
            (
                "error: No such option: --bogus (Possible options: --verbose)"
                " (see `ledger --help`)"
            ),
        ),
        (["nosuch"], "error: No such command 'nosuch'. (see `ledger --help`)"),
        (
            ["demo", "--bogus"],
            "error: No such option: --bogus (see `ledger demo --help`)",
        ),
        (
            ["demo", "--players", "x"],
            (
                "error: Invalid value for '--players': Input should be a valid integer,"
                " unable to parse string as an integer (see `ledger demo --help`)"
            ),
        ),
        (
            ["games", "show"],
            "error: Missing argument 'GAME_ID'. (see `ledger games show --help`)",
        ),
        (
            ["tournament", "start", "not-a-uuid"],
            (
                "error: 'not-a-uuid' is not a tournament id (a UUID, as `ledger "
                "tournament create` prints it)"
            ),
        ),
        (
            ["tournament", "standings", "not-a-uuid", *NOWHERE],
            (
                "error: 'not-a-uuid' is not a tournament id (a UUID, as `ledger "
                "tournament create` prints it)"
            ),
        ),
        (
            ["games", "show", "not-a-uuid"],
            "error: 'not-a-uuid' is not a game id (a UUID; see `ledger games list`)",
        ),
    ],
)
def test_a_wrong_command_line_is_one_line_and_exit_2(args, line) -> None:
    result = CliRunner().invoke(app, args, terminal_width=200, prog_name="ledger")
    assert result.exit_code == 2, result.output
    assert result.output.splitlines() == [line]


def test_the_generated_admin_token_goes_only_to_a_server_on_this_machine(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    from services.runtime.settings import Settings

    monkeypatch.delenv("LEDGER_ADMIN_TOKEN", raising=False)
    monkeypatch.setenv("LEDGER_DATA_DIR", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "admin-token").write_text("generated-here\n")
    sent = {
        target: locate.admin_token(Settings(), target=target)
        for target in (
            None,
            "127.0.0.1:50051",
            "localhost:50051",
            "[::1]:50051",
            "10.0.0.5:50051",
            "ledger.example.org:443",
        )
    }
    assert sent == {
        None: "generated-here",
        "127.0.0.1:50051": "generated-here",
        "localhost:50051": "generated-here",
        "[::1]:50051": "generated-here",
        "10.0.0.5:50051": None,
        "ledger.example.org:443": None,
    }
    monkeypatch.setenv("LEDGER_ADMIN_TOKEN", "chosen-by-the-user")
    assert locate.admin_token(Settings(), target="127.0.0.1:50051") == (
        "chosen-by-the-user"
    )
    # the user's own token goes elsewhere too, but only over TLS
    with pytest.raises(UserError, match="in plaintext: set LEDGER_GRPC_TLS_CA"):
        locate.admin_token(Settings(), target="ledger.example.org:443")
    (tmp_path / "ca.pem").write_text("-----BEGIN CERTIFICATE-----\n")
    monkeypatch.setenv("LEDGER_GRPC_TLS_CA", str(tmp_path / "ca.pem"))
    assert locate.admin_token(Settings(), target="ledger.example.org:443") == (
        "chosen-by-the-user"
    )


@pytest.mark.parametrize(
    "source",
    ["LEDGER_LISTEN", ".env", "server.json", "LEDGER_LISTEN v6"],
)
def test_without_target_the_generated_token_goes_only_where_loopback_is_dialled(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any, source: str
) -> None:
    """The server a command finds itself may be elsewhere too: the address
    comes from LEDGER_LISTEN, a .env file or server.json, and the generated
    token must follow the address dialled, not where it came from."""
    import json
    import os

    from services.runtime.settings import Settings

    monkeypatch.delenv("LEDGER_ADMIN_TOKEN", raising=False)
    monkeypatch.delenv("LEDGER_LISTEN", raising=False)
    monkeypatch.setenv("LEDGER_DATA_DIR", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "admin-token").write_text("generated-here\n")
    if source == "LEDGER_LISTEN":
        monkeypatch.setenv("LEDGER_LISTEN", "10.0.0.5:50051")
    elif source == "LEDGER_LISTEN v6":
        monkeypatch.setenv("LEDGER_LISTEN", "[2001:db8::1]:50051")
    elif source == ".env":
        (tmp_path / ".env").write_text("LEDGER_LISTEN=192.0.2.7:50051\n")
    else:
        (tmp_path / "server.json").write_text(
            json.dumps({"address": "198.51.100.3:50051", "pid": os.getpid()})
        )
    assert not locate.server_target(None).startswith(("127.", "[::1]", "localhost"))
    assert locate.admin_token(Settings(), target=None) is None
    # a wildcard listen address is dialled on loopback: the token goes
    monkeypatch.setenv("LEDGER_LISTEN", "0.0.0.0:50051")
    (tmp_path / "server.json").unlink(missing_ok=True)
    assert locate.admin_token(Settings(), target=None) == "generated-here"


@pytest.mark.parametrize(
    "variable", ["LEDGER_GRPC_TLS_CERT", "LEDGER_GRPC_TLS_KEY", "LEDGER_HTTP_TLS_CERT"]
)
def test_an_empty_tls_setting_is_one_clear_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any, variable: str
) -> None:
    monkeypatch.setenv("LEDGER_DATA_DIR", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(
        app, ["serve", "--listen", "127.0.0.1:1"], env={variable: ""}
    )
    assert result.exit_code != 0
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert f"{variable} is empty: unset it, or name a PEM file" in lines[0]
    assert "Is a directory" not in result.output


@pytest.mark.parametrize(
    ("listen", "warned"),
    [
        ("0.0.0.0:50051", True),
        ("10.0.0.5:50051", True),
        ("[::]:50051", True),
        ("127.0.0.1:50051", False),
        ("[::1]:50051", False),
        ("localhost:50051", False),
    ],
)
def test_the_server_warns_when_it_listens_beyond_loopback_without_tls(
    capsys: pytest.CaptureFixture[str], listen: str, warned: bool
) -> None:
    from services.cli.serve import warn_if_plaintext
    from services.runtime.settings import Settings

    assert warn_if_plaintext(Settings(listen=listen)) is warned
    err = capsys.readouterr().err
    assert (f"warning: gRPC listens on {listen} without TLS" in err) is warned


@pytest.mark.parametrize("token", ["abc\x00def", "jeton-\u00e9t\u00e9", "tab\there"])
def test_a_token_no_header_can_carry_is_one_line_not_invalid_metadata(
    token: str,
) -> None:
    with pytest.raises(UserError, match="printable ASCII"):
        locate.bearer(token)
    assert locate.bearer("plain-token") == (("authorization", "Bearer plain-token"),)
