"""``ledger demo``: a rule-blind client playing a game to the end over gRPC."""

from __future__ import annotations

import json
from typing import Any

import typer
from typer.core import TyperCommand

from services.cli import locate
from services.cli.failures import USAGE, UserError
from services.cli.root import app, console


def games_help() -> str:
    """One line per registered game: player range and setup fields with defaults."""
    from domain.games import all_games

    lines = ["Games (--game), player range (--players) and setup fields (--setup):", ""]
    for game in all_games():
        fields = ", ".join(
            f"{name}={json.dumps(info.get_default(call_default_factory=True), default=list)}"
            if not info.is_required()
            else name
            for name, info in game.setup_model.model_fields.items()
            if name != "players"
        )
        players = (
            f"{game.min_players}-{game.max_players}"
            if game.min_players != game.max_players
            else str(game.min_players)
        )
        lines.append(f"{game.name}: {players} players; setup {fields or '(none)'}")
        lines.append(
            f"  examples (--example): {', '.join(e.name for e in game.examples)}"
        )
        lines.append("")
    return "\n".join(lines)


class _DemoCommand(TyperCommand):
    """Builds the games list only when --help is shown (importing every game is slow)."""

    @property
    def epilog(self) -> str:
        return games_help()

    @epilog.setter
    def epilog(self, _: Any) -> None:
        pass


def parse_setup(raw: str) -> dict[str, Any]:
    """``--setup`` as a JSON object.

    :raises UserError: when it is not JSON, or not an object.
    """
    try:
        setup = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise UserError(
            f"--setup is not JSON ({exc.msg} at char {exc.pos}): {raw!r}", USAGE
        ) from None
    if not isinstance(setup, dict):
        raise UserError(
            f'--setup must be a JSON object, e.g. \'{{"mode": "standard"}}\', not {raw!r}',
            USAGE,
        )
    return setup


def example_game(name: str | None) -> str | None:
    """The game that declares example ``name`` (names are unique across games)."""
    from domain.games import all_games

    if name is None:
        return None
    for game in all_games():
        if any(e.name == name for e in game.examples):
            return game.name
    return None


def example_setup(ruleset: Any, name: str | None, players: int) -> dict[str, Any]:
    """The setup fields of ``--example``, or of the game's first example for
    ``players`` (the ruleset's own known-good table), or none.

    :raises UserError: for an example the game does not declare.
    """
    if name is not None:
        try:
            return dict(ruleset.example(name).setup)
        except KeyError as exc:
            raise UserError(f"--example: {exc.args[0]}", USAGE) from None
    for candidate in ruleset.examples:
        if candidate.players == players:
            return dict(candidate.setup)
    return {}


@app.command(cls=_DemoCommand)
def demo(
    game: str | None = typer.Option(
        None,
        help="Game type (listed below). Default: the game of --example, else thalara.",
    ),
    players: int | None = typer.Option(
        None,
        help="Number of players (each game's range is listed below). Default: "
        "the example's, else 2.",
    ),
    player_ids: str | None = typer.Option(
        None,
        "--player-ids",
        metavar="ID,ID,...",
        help="Player identities in seat order, comma-separated, so the game is rated "
        "(see `ledger ratings`).",
    ),
    target: str | None = locate.TARGET,
    seed: int = typer.Option(0, help="Seed of the random move choice (client side)."),
    example: str | None = typer.Option(
        None,
        metavar="NAME",
        help="One of the game's example setups (listed below), e.g. thalara-2p-casual-chaos; "
        "it sets --players, and --setup fields override it.",
    ),
    setup: str = typer.Option(
        "{}",
        metavar="JSON",
        help='Setup fields as a JSON object, e.g. \'{"characters": ["myrja", "canto", "accaina"]}\'.',
    ),
    as_json: bool = typer.Option(
        False, "--json", help="Also print the first seat's final view as JSON."
    ),
) -> None:
    """Create a game on a running server and play it to the end with random legal moves.

    Uses only the public API (ListLegalMoves -> SubmitMove with each seat's token), like any rule-blind client in any language would.
    """
    import random

    from domain.games import UnknownGameError, find_game
    from ledger.v1 import game_service_pb2 as pb
    from services.api import client
    from services.proto import convert

    try:
        ruleset = find_game(game or example_game(example) or "thalara")
    except UnknownGameError as exc:
        raise UserError(str(exc), USAGE) from None
    if example is not None and game is not None:
        owner = example_game(example)
        if owner is not None and owner != ruleset.name:
            raise UserError(
                f"--example: {example} is a {owner} example, not {ruleset.name}'s "
                "(leave --game out)",
                USAGE,
            )
    base = example_setup(ruleset, example, players or 2)
    if example is not None and players is not None and players != base["players"]:
        raise UserError(
            f"--players {players} contradicts --example {example} "
            f"({base['players']} players); leave --players out",
            USAGE,
        )
    players = int(base.get("players", players or 2))
    if not ruleset.min_players <= players <= ruleset.max_players:
        raise UserError(
            f"{ruleset.name} is played by {ruleset.min_players}-{ruleset.max_players} "
            f"players, not {players} (--players)",
            USAGE,
        )
    ids = tuple(p.strip() for p in player_ids.split(",")) if player_ids else ()
    if ids and (len(ids) != players or not all(ids)):
        raise UserError(
            f"--player-ids needs {players} non-empty ids (one per player), got {len(ids)}",
            USAGE,
        )
    fields = {**base, "players": players, **parse_setup(setup)}
    ruleset.setup_model.model_validate(fields)  # a bad setup fails before connecting
    conn = locate.connect(target)
    table = client.create(
        conn, ruleset.name, entropy=(f"demo-{seed}",), player_ids=ids, **fields
    )
    console.print(
        f"created {ruleset.name} game [bold]{table.game_id}[/] with {len(table.tokens)} seat tokens"
        + (f" for {', '.join(ids)}" if ids else "")
    )
    rnd = random.Random(seed)
    while client.play_one(conn, table, rnd) is not None:
        pass
    first_seat = min(table.tokens)
    got = conn.call(
        "GetGame", pb.GetGameRequest(game_id=table.game_id), table.tokens[first_seat]
    )
    console.print(
        f"game over after {table.moves} moves, {got.game.version} events: "
        f"{winners_line(ruleset, got.game, fields)}",
        highlight=False,
    )
    if as_json:
        from domain.words.narration import seat_names
        from domain.words.sentences import seat_name

        names = seat_names(
            ruleset,
            ruleset.setup_model.model_validate(fields),
            tuple(got.game.player_ids),
        )
        view = convert.model_from_any(ruleset, got.view, ruleset.view_model)
        console.print(
            f"{seat_name(names, first_seat)}'s final view"
            " (as the API gives it: seats counted from 0):",
            highlight=False,
        )
        console.print_json(data=view.model_dump(mode="json"))
    console.print(f"read it:   [bold]ledger replay {table.game_id}[/]")
    console.print(f"verify it: [bold]ledger audit {table.game_id}[/]")


def winners_line(ruleset: Any, game: Any, fields: dict[str, Any]) -> str:
    """Who won, in the words ``ledger replay`` uses (names, else "seat 1")."""
    from domain.words.narration import seat_names
    from domain.words.sentences import listing, seat_name

    setup = ruleset.setup_model.model_validate(fields)
    names = seat_names(ruleset, setup, tuple(game.player_ids))
    winners = list(dict.fromkeys(seat_name(names, s) for s in game.outcome.winners))
    scores = ", ".join(
        f"{seat_name(names, s)} {score}" for s, score in enumerate(game.outcome.scores)
    )
    if not winners:
        return f"nobody wins (scores: {scores})"
    verb = "wins" if len(winners) == 1 else "share the win"
    return f"{listing(winners)} {verb} (scores: {scores})"
