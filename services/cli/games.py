"""Inspect stored games: list, show, audit, export, verify.

These read the database the server writes (``services/cli/locate.py``), so an
operator or auditor can verify games even when the gRPC server is down.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from uuid import UUID

import typer

from services.cli import clock_options, locate
from services.cli.failures import FAILED, USAGE, UserError
from services.cli.locate import open_ledger
from services.cli.root import app, console, games_app, listing

if TYPE_CHECKING:
    from domain.ledger.receipts import Keyring
    from services.ledger.application import GameLedger

GAME_ID = typer.Argument(
    ..., metavar="GAME_ID", help="The game's id (a UUID, see `ledger games list`)."
)


def public_keys_option(when: str) -> Any:
    """``--public-key HEX``, repeatable: the receipt keys a check trusts;
    ``when`` says what they replace."""
    return typer.Option(
        None,
        "--public-key",
        metavar="HEX",
        help="A receipt key of the deployment, hex (GetLedgerKey lists them); repeat "
        f"for each. {when}",
    )


def parse_game_id(raw: str) -> UUID:
    """:raises UserError: when ``raw`` is not a UUID."""
    try:
        return UUID(raw)
    except ValueError:
        raise UserError(
            f"{raw!r} is not a game id (a UUID; see `ledger games list`)", USAGE
        ) from None


def stored_records(ledger: GameLedger, gid: UUID) -> list[tuple[int, str, bytes]]:
    """:raises UserError: for a game that is not in this database."""
    rows = ledger.read_records(gid)
    if not rows:
        raise UserError(f"game {gid} not found", FAILED)
    return rows


@app.command()
def audit(
    game_id: str | None = typer.Argument(
        None,
        metavar="[GAME_ID]",
        help="The game's id (a UUID, see `ledger games list`); optional with "
        "--against, which then checks every game the checkpoint pinned.",
    ),
    against: list[str] | None = typer.Option(  # noqa: B008 - a repeatable option
        None,
        "--against",
        metavar="CHECKPOINT_FILE",
        help="A checkpoint kept earlier (`ledger checkpoint -o FILE`, GetCheckpoint's "
        "json): fail for any game rolled back or rewritten since, naming it and the "
        "version. Repeat it with each server's checkpoint: each server signs only "
        "what it wrote.",
    ),
    receipts: str | None = typer.Option(
        None,
        "--receipts",
        metavar="FILE",
        help="Receipts a player kept (JSON lines or a JSON list): prove no rewrite "
        "or truncation behind them.",
    ),
    public_key: list[str] | None = public_keys_option(  # noqa: B008 - repeatable
        "Default: the configured keyring (LEDGER_KEYRING and the signing key)."
    ),
) -> None:
    """Verify a game's chain, seed, decisions, signatures, listing row and receipts."""
    from domain.ledger.receipts import load_receipts
    from services.ledger.audit import absent_game, audit_game

    if against:
        failed = False
        for path in against:
            failed = _audit_against(path, game_id, _keyring(public_key)) or failed
        if failed:
            raise typer.Exit(1)
        if game_id is None:
            return
    if game_id is None:
        raise UserError(
            "ledger audit needs a GAME_ID (or --against CHECKPOINT_FILE)", USAGE
        )
    gid = parse_game_id(game_id)
    held = []
    if receipts is not None:
        try:
            with open(receipts, encoding="utf-8") as fh:
                held = load_receipts(fh.read())
        except ValueError as exc:
            raise UserError(
                f"cannot read receipts from {receipts}: {exc}", USAGE
            ) from None
    keys = _keyring(public_key)
    ledger = open_ledger()
    if not ledger.read_records(gid):
        # receipts for a game the database lacks: restored to an earlier point?
        explained = absent_game(ledger, gid, held, keys)
        if explained is not None:
            raise UserError(explained, FAILED)
    stored_records(ledger, gid)
    report = audit_game(ledger, gid, held, keys)
    console.print(
        f"game {gid} ({report.game_type}, rules v{report.ruleset_version}): "
        f"{report.events} events, {report.decisions_rederived} decisions re-derived, "
        f"seed: {report.seed_source}, {report.signatures_verified} player signatures, "
        f"{report.receipts_verified} receipts checked"
    )
    _conclude(
        report,
        "hash chain intact, seed matches its commitment, every decision re-derived, "
        "listing and receipts agree",
    )


def _audit_against(path: str, game_id: str | None, keys: Keyring | None) -> bool:
    """Whether a game head the checkpoint in ``path`` pinned is no longer in
    its log (each one named)."""
    import json

    from domain.ledger.checkpoints import Checkpoint
    from services.ledger.audit import CHECKPOINT_ITSELF, audit_against

    gid = parse_game_id(game_id) if game_id is not None else None
    try:
        with open(path, encoding="utf-8") as fh:
            checkpoint = Checkpoint.from_json(json.load(fh))
    except OSError as exc:
        raise UserError(f"cannot read {path}: {exc.strerror}", USAGE) from None
    except ValueError as exc:
        raise UserError(f"{path} is not a checkpoint: {exc}", USAGE) from None
    ledger = open_ledger()
    found = audit_against(ledger, checkpoint, keys, gid)
    console.print(
        f"checkpoint of {checkpoint.tree_size} heads at {checkpoint.timestamp}: "
        f"{found.games} games checked"
    )
    if not found.problems:
        console.print(
            "[bold green]OK[/]: every head the checkpoint pinned is still in its log"
        )
        return False
    for problem in found.problems:
        where = (
            "checkpoint"
            if problem.game_id == CHECKPOINT_ITSELF
            else f"game {problem.game_id} version {problem.version}"
        )
        console.print(f"[bold red]FAIL[/] {where}: {problem.detail}", highlight=False)
    return True


def _keyring(public_keys: list[str] | None) -> Keyring | None:
    """:raises UserError: when a ``--public-key`` is not a 32-byte key in hex."""
    from domain.ledger.receipts import Keyring

    keys = [_hex_key(k) for k in public_keys or ()]
    if any(k is None or len(k) != 32 for k in keys):
        raise UserError(
            "--public-key must be a 32-byte Ed25519 public key in hex", USAGE
        )
    return Keyring.of(*(k for k in keys if k is not None)) if keys else None


def _hex_key(public_key: str | None) -> bytes | None:
    """:raises UserError: when ``--public-key`` is not hex."""
    if public_key is None:
        return None
    try:
        return bytes.fromhex(public_key)
    except ValueError:
        raise UserError("--public-key must be hex", USAGE) from None


def _conclude(report: Any, ok_message: str) -> None:
    """OK, or every failure with the event it names (exit 1)."""
    if report.ok:
        console.print(f"[bold green]OK[/]: {ok_message}")
        return
    for failure in report.failures:
        console.print(f"[bold red]FAIL[/] {failure}")
    raise typer.Exit(1)


@app.command()
def checkpoint(
    out: str | None = typer.Option(
        None, "--out", "-o", metavar="FILE", help="File (default: stdout)."
    ),
    sign: bool = typer.Option(
        False,
        "--sign",
        help="Sign a checkpoint over every game's head now (else the latest one).",
    ),
) -> None:
    """The ledger's latest signed checkpoint (a Merkle root over every game's
    head), as a file to keep for `ledger audit --against`."""
    import json
    import sys

    ledger = open_ledger()
    signer = ledger.head_signer
    if signer.checkpoints is None:
        raise UserError("this ledger keeps no checkpoints", FAILED)
    found = signer.checkpoint() if sign else signer.checkpoints.latest()
    if found is None:
        raise UserError(
            "no checkpoint yet: the ledger signs one at every game end and "
            "periodically (or run `ledger checkpoint --sign`)",
            FAILED,
        )
    text = json.dumps(found.to_json(), sort_keys=True) + "\n"
    if out:
        with open(out, "w", encoding="utf-8") as fh:
            fh.write(text)
    else:
        sys.stdout.write(text)


@games_app.command("list")
def games_list(
    limit: int = typer.Option(20, min=1, max=500, help="How many games, newest first."),
    game_type: str | None = typer.Option(
        None, "--type", metavar="GAME_TYPE", help="Only games of this type."
    ),
    ids: bool = typer.Option(
        False, "--ids", help="Print only the game ids, one a line (for scripts)."
    ),
) -> None:
    """The newest games."""
    if game_type is not None:
        from domain.games import UnknownGameError, find_game

        try:
            game_type = find_game(game_type).name
        except UnknownGameError as exc:
            raise UserError(f"--type: {exc}", USAGE) from None
    rows = open_ledger().store.list_games(limit, None, game_type)
    if ids:
        for row in rows:
            print(row["game_id"])
        return
    games = (
        (
            str(row["game_id"]),
            row["game_type"],
            str(row["players"]),
            str(row["version"]),
            row["status"],
            row["created_at"].strftime("%Y-%m-%d %H:%M"),
        )
        for row in rows
    )
    columns = ("game id", "type", "players", "events", "status", "created")
    console.print(listing(columns, games))
    if not rows:
        what = f"{game_type} games" if game_type else "games"
        console.print(f"no {what} yet: `ledger demo` plays one")


@games_app.command("create")
def games_create(
    game_type: str = typer.Argument(
        ..., metavar="GAME_TYPE", help="e.g. thalara (`ledger demo --help` lists them)."
    ),
    player: list[str] = typer.Option(  # noqa: B008 - a repeatable option
        ...,
        "--player",
        metavar="PLAYER_ID",
        help="A player, in seat order; repeat for each (their ids rate the game).",
    ),
    setup: str = typer.Option(
        "{}", metavar="JSON", help="Other setup fields, as a JSON object."
    ),
    clock: str | None = clock_options.CLOCK,
    no_show: int = clock_options.NO_SHOW,
    plain: bool = typer.Option(
        False,
        "--plain",
        help="For scripts: the game id on the first line, then one"
        " `PLAYER TOKEN` line each.",
    ),
    target: str | None = locate.TARGET,
) -> None:
    """Create one game on a running server and print each player's seat token
    (shown once: hand each player theirs)."""
    from pydantic import ValidationError

    from domain.games import find_game
    from ledger.v1 import game_service_pb2 as pb
    from services.cli.demo import parse_setup
    from services.proto import convert

    ruleset = find_game(locate.canonical_game(game_type))
    players = [p.strip() for p in player]
    if not all(players) or len(set(players)) != len(players):
        raise UserError("--player: each player needs its own non-empty id", USAGE)
    if not ruleset.min_players <= len(players) <= ruleset.max_players:
        raise UserError(
            f"{ruleset.name} is played by {ruleset.min_players}-"
            f"{ruleset.max_players} players, not {len(players)} (--player)",
            USAGE,
        )
    fields = {**parse_setup(setup), "players": len(players)}
    try:
        model = ruleset.setup_model.model_validate(fields)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise UserError(f"--setup: {where}: {first['msg']}", USAGE) from None
    request = pb.CreateGameRequest(
        game_type=ruleset.name,
        setup=convert.model_to_any(ruleset, model),
        player_ids=players,
        time_control=clock_options.time_control(clock, no_show),
    )
    created = locate.connect(target).call("CreateGame", request)
    rows = [
        (
            players[t.player],
            ", ".join(str(s + 1) for s in t.seats),
            t.token,
        )
        for t in created.tokens
    ]
    if plain:
        print(created.game.game_id)
        for name, _, token in rows:
            print(name, token)
        return
    console.print(
        f"created {ruleset.name} game [bold]{created.game.game_id}[/]", highlight=False
    )
    console.print(listing(("player", "seats", "seat token (shown once)"), rows))
    console.print(f"each player: ledger play {created.game.game_id} --token SEAT_TOKEN")


@games_app.command("show")
def games_show(
    game_id: str = GAME_ID,
    at_version: int | None = typer.Option(
        None,
        "--at",
        metavar="EVENT",
        help="Show the game as it was right after this event (1 = created).",
    ),
) -> None:
    """One game's admin view (everything), its clocks and how it ended,
    optionally as it was at an event."""
    from domain.contract.core import ADMIN
    from domain.words.narration import concluded_sentence, outcome_reason, seat_names
    from domain.words.sentences import listing as listing_words
    from domain.words.sentences import seat_name
    from services.cli.clock_lines import clock_line

    gid = parse_game_id(game_id)
    ledger = open_ledger()
    game = head = ledger.load(gid)  # GameNotFoundError: "game ... not found"
    if at_version is not None:
        if not 1 <= at_version <= game.version:
            raise UserError(
                f"--at {at_version} is out of range: game {gid} has events "
                f"1-{game.version}",
                USAGE,
            )
        game = ledger.load(gid, at_version)
    console.print(
        f"[bold]{game.game_type}[/] {gid} version {game.version} "
        f"({'ended' if game.is_over else 'active'})"
    )
    # for people: names, else seats from 1 (the API's numbers count from 0)
    names = seat_names(game.ruleset, game.setup, tuple(game.player_ids or ()))
    if game.outcome:
        ended = f" ({game.ending})" if game.ending else ""
        console.print(
            f"ended by {game.outcome.termination.value}{ended}: "
            f"{outcome_reason(game.outcome, names) or 'the rules'}",
            markup=False,
            highlight=False,
        )
        # prose: no markup, and no number highlighting splitting "seat 2 wins"
        console.print(
            concluded_sentence(game.outcome, names), markup=False, highlight=False
        )
        ranks = ", ".join(
            f"{seat_name(names, seat)} {rank}"
            for seat, rank in enumerate(game.outcome.ranks)
        )
        console.print(f"ranks: {ranks}", markup=False, highlight=False)
    if game.dropped:
        many = len(game.dropped) > 1
        console.print(
            f"dropped out: {listing_words([seat_name(names, s) for s in game.dropped])} "
            f"(the ledger moves for {'them' if many else 'it'})",
            markup=False,
            highlight=False,
        )
    if not game.is_over and game.paused:
        console.print("paused by the arbiter: no seat may move until it resumes")
    if not game.is_over and game.draw_offer is not None:
        console.print(
            f"draw offered by {seat_name(names, game.draw_offer)}",
            markup=False,
            highlight=False,
        )
    live = game is head and not game.is_over
    clocks = clock_line(game, ledger.clock() if live else game.modified_on)
    if clocks:
        console.print(clocks)
    console.print("the admin view, as the API gives it (seats counted from 0):")
    console.print_json(
        data=game.ruleset.view(game.state, ADMIN).model_dump(mode="json")
    )


@app.command()
def export(
    game_id: str = GAME_ID,
    out: str | None = typer.Option(
        None, "--out", "-o", metavar="FILE", help="File (default: stdout)."
    ),
) -> None:
    """Write a game as NDJSON (ledger-export/v1): enough to verify it offline."""
    import sys

    from domain.audit.export import export_lines

    gid = parse_game_id(game_id)
    ledger = open_ledger()
    rows = stored_records(ledger, gid)
    checkpoint, inclusion = ledger.head_signer.pinned(str(gid))
    lines = export_lines(
        str(gid),
        rows,
        ledger.stored_receipts(gid),
        ledger.keyring,
        checkpoint,
        inclusion,
    )
    text = "".join(line + "\n" for line in lines)
    if out:
        with open(out, "w", encoding="utf-8") as fh:
            fh.write(text)
    else:
        sys.stdout.write(text)


@app.command()
def verify(
    file: str = typer.Argument(
        ..., metavar="FILE", help="An NDJSON export (`ledger export GAME_ID -o FILE`)."
    ),
    public_key: list[str] | None = public_keys_option(  # noqa: B008 - repeatable
        "Pinned instead of the keys the export names: a finished game must then "
        "end with a head one of them signed."
    ),
) -> None:
    """Verify an export offline: hash chain, seed, every decision, trailer lines,
    receipts, a finished game's ledger-signed final head, and its head in the
    ledger's checkpoint."""
    from domain.audit.export import verify_lines
    from services.ledger.audit import decode_signed_move

    key = _keyring(public_key)
    with open(file, encoding="utf-8") as fh:
        report = verify_lines(fh, key, decode_signed_move)
    console.print(
        f"{report.game_type} game {report.game_id}: {report.events} events, "
        f"{report.decisions_rederived} decisions re-derived, seed: {report.seed_source}, "
        f"{report.receipts_verified} receipts checked"
    )
    _conclude(report, "the export verifies")
