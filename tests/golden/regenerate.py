"""Write the golden corpus: ``python -m tests.golden.regenerate [--force|--check]``.

In the spirit of python-chess's perft files: complete games, exported in
``ledger-export/v1`` exactly as the ledger stores them, one folder per game
type and rules version (``tests/golden/<game>/v<version>/<name>.ndjson.gz``,
gzipped to keep the repository small: ``zcat`` shows the lines).
``tests/unit/test_golden.py`` replays and audits every file with today's
code, so a rules change that alters an old game's decisions fails CI unless
it comes behind a new version.

Where the games come from: a rules version with no games yet (a new game, or
a new version of one) gets one game per example the ruleset declares
(``Ruleset.examples``), named after the example and played from a seed
derived from its name (:func:`seed_of`).  Nothing here lists the games: a
new game's folder needs only this command.  A file, once written, records
its own setup and seed (the ``GameCreated`` setup and its ``golden:<seed>``
entropy), so the corpus written before examples existed (``2p-standard``,
the chosen Vaalbara tie seeds) stays as it is and is replayed from itself.

Files of a version that already exist are history and are kept.  ``--force``
replays every file again from what it records and rewrites it, which is
only right for the newest version while it is being developed.  ``--check``
writes nothing: it replays every file and reports any game that differs.
Only the game can be compared, not the bytes: each record's timestamp (the
clock) and nonce (fresh secret bytes) and the hashes chained over them
differ on every run, and the audit checks those.  ``legacy/`` holds games
recorded before rules were versioned (no ``ruleset_version``, hash algorithm
v1); it was written once by the code of that time and is never regenerated.

Games are played by seeded random legal moves without a database: the
aggregate decides, the ledger's own mapper encodes the records.

The ledger's own endings have games too: ``ending-<kind>.ndjson.gz`` in the
newest Thalara version's folder, one game per kind (resigned, aborted,
adjudicated, timed out, and a double forfeit: neither seat ever moves within
its no-show window), played under a Fischer clock on a clock that starts
at a fixed time and moves five seconds per move, so the clocks, the ending
and the deadline a timeout names are part of what ``--check`` compares.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import random
import sys
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from domain.audit.export import export_lines
from domain.games import all_games, rules_versions
from domain.ledger.aggregate import Game
from domain.ledger.clocks import ClockKind, TimeControl
from services.storage.mapper import LedgerMapper

HERE = Path(__file__).parent
ENTROPY = "golden:"
"""Prefix of the seed in a golden game's recorded entropy (``golden:2026``)."""

Golden = tuple[dict[str, Any], int]
"""A golden game to play: (setup fields, seed)."""


def seed_of(example: str) -> int:
    """The seed of the golden game of the example called ``example``: from its
    name alone, so adding or reordering examples changes no other game."""
    return int.from_bytes(hashlib.sha256(example.encode()).digest()[:4], "big")


def example_games(ruleset: Any) -> dict[str, Golden]:
    """The games a rules version starts its corpus with: one per declared example."""
    return {e.name: (dict(e.setup), seed_of(e.name)) for e in ruleset.examples}


def read_lines(path: Path) -> list[str]:
    return gzip.decompress(path.read_bytes()).decode().splitlines()


def recorded_game(path: Path) -> Golden:
    """The setup and seed a golden file was played from, read back from it."""
    created = next(
        json.loads(line)["record"]["body"]
        for line in read_lines(path)
        if json.loads(line)["kind"] == "event"
    )
    [entropy] = created["entropy"]
    return created["setup"], int(entropy.removeprefix(ENTROPY))


def golden_games(ruleset: Any, root: Path = HERE) -> dict[Path, Golden]:
    """path -> game of one rules version: the files it has, or, for a version
    with none yet, its examples'; plus the ending games it should have."""
    folder = root / ruleset.name / f"v{ruleset.version}"
    recorded = sorted(folder.glob("*.ndjson.gz"))
    endings = ending_games(ruleset, folder)
    if recorded:
        return {**endings, **{path: recorded_game(path) for path in recorded}}
    return {
        **{
            folder / f"{name}.ndjson.gz": game
            for name, game in example_games(ruleset).items()
        },
        **endings,
    }


ENDINGS = ("resigned", "aborted", "adjudicated", "timed_out", "double_forfeit")
ENDINGS_GAME = "thalara"
ENDINGS_CLOCK = TimeControl(
    kind=ClockKind.FISCHER, base_seconds=60, increment_seconds=2
)
ENDINGS_START = datetime(2026, 1, 1, tzinfo=UTC)
ENDINGS_NO_SHOW = TimeControl(
    kind=ClockKind.FISCHER, base_seconds=60, increment_seconds=2, no_show_seconds=30
)
"""The double forfeit's clock: neither seat moves within its no-show window."""


def ending_games(ruleset: Any, folder: Path) -> dict[Path, Golden]:
    """The ledger's endings games a rules version should have (see the
    module docstring): only the newest Thalara version's."""
    if ruleset.name != ENDINGS_GAME or ruleset.version != max(
        r.version for r in rules_versions(ruleset.name)
    ):
        return {}
    example = next(e for e in ruleset.examples if e.players == 2)
    return {
        folder / f"ending-{kind}.ndjson.gz": (
            dict(example.setup),
            seed_of(f"ending-{kind}"),
        )
        for kind in ENDINGS
    }


def ending_of(path: Path) -> str | None:
    """``timed_out`` for ``ending-timed_out.ndjson.gz``; ``None`` for a game
    played to its rulebook's end."""
    name = path.name.removesuffix(".ndjson.gz")
    return name.removeprefix("ending-") if name.startswith("ending-") else None


def play_game(
    ruleset: Any,
    setup: dict[str, Any],
    seed: int,
    ending: str | None = None,
    referee_rules: int | None = None,
) -> list[str]:
    """One complete random game under ``ruleset``, as export lines; with an
    ``ending``, a few moves on a clock and then that ending, under the
    referee's ``referee_rules`` (default: today's)."""
    if ending is not None:
        return play_ending(ruleset, setup, seed, ending, referee_rules)
    rnd = random.Random(seed)
    secret = rnd.randbytes(32)
    game_id = uuid.UUID(int=rnd.getrandbits(128), version=4)
    game = Game.create(
        ruleset,
        ruleset.setup_model.model_validate(setup),
        secret,
        (f"{ENTROPY}{seed}",),
        game_id=game_id,
    )
    moves = 0
    while not game.is_over:
        seat = rnd.choice(game.to_act())
        command = ruleset.random_command(game.state, seat, rnd)
        game.act(command, seat, secret, f"move-{moves}")
        moves += 1
    mapper = LedgerMapper()
    stored = [mapper.to_stored_event(e) for e in game.collect_events()]
    rows = [(s.originator_version, s.topic, s.state) for s in stored]
    return list(export_lines(str(game_id), rows))


def play_ending(
    ruleset: Any,
    setup: dict[str, Any],
    seed: int,
    ending: str,
    referee_rules: int | None = None,
) -> list[str]:
    """A game ended by the ledger: ``ending`` after one move (an abort) or six."""
    rnd = random.Random(seed)
    secret = rnd.randbytes(32)
    game_id = uuid.UUID(int=rnd.getrandbits(128), version=4)
    at = ENDINGS_START
    game = Game.create(
        ruleset,
        ruleset.setup_model.model_validate(setup),
        secret,
        (f"{ENTROPY}{seed}",),
        game_id=game_id,
        time_control=ENDINGS_NO_SHOW if ending == "double_forfeit" else ENDINGS_CLOCK,
        now=at,
        referee_rules=referee_rules,
    )
    moves = {"aborted": 1, "double_forfeit": 0}.get(ending, 6)
    for move in range(moves):
        seat = rnd.choice(game.to_act())
        command = ruleset.random_command(game.state, seat, rnd)
        at += timedelta(seconds=5)
        game.act(command, seat, secret, f"move-{move}", now=at)
    at += timedelta(seconds=5)
    if ending == "resigned":
        game.resign(0, secret, "seat:0", now=at)
    elif ending == "aborted":
        game.abort("admin", "golden abort", secret, now=at)
    elif ending == "adjudicated":
        game.adjudicate((2, 1), "golden adjudication", "admin", secret, now=at)
    else:
        due = game.next_deadline()
        assert due is not None
        at = datetime.fromtimestamp(due[1] / 1000, UTC) + timedelta(seconds=1)
        game.time_out(secret, at, "timekeeper")
    mapper = LedgerMapper()
    stored = [mapper.to_stored_event(e) for e in game.collect_events()]
    rows = [(s.originator_version, s.topic, s.state) for s in stored]
    return list(export_lines(str(game_id), rows))


def every_rules_version() -> list[Any]:
    return [r for game in all_games() for r in rules_versions(game.name)]


def regenerate(force: bool = False, root: Path = HERE) -> list[Path]:
    """Write the games missing under ``root`` (every game with ``force``)."""
    written = []
    for ruleset in every_rules_version():
        for path, (setup, seed) in golden_games(ruleset, root).items():
            if path.exists() and not force:
                continue
            path.parent.mkdir(parents=True, exist_ok=True)
            lines = play_game(ruleset, setup, seed, ending_of(path))
            text = "".join(line + "\n" for line in lines)
            # gzip without a timestamp: the same lines give the same bytes
            path.write_bytes(gzip.compress(text.encode(), mtime=0))
            written.append(path)
    return written


def comparable(line: str, ruleset: Any = None) -> dict[str, Any]:
    """An export line without what the clock and fresh secrets put in it.

    With ``ruleset``: a ``GameCreated`` content name it has since renamed
    (``Ruleset.content_label_aliases``) reads as today's name.
    """
    item = json.loads(line)
    if item["kind"] == "event":
        for key in ("timestamp", "nonce", "hash", "prev_hash"):
            item["record"].pop(key, None)
        body = item["record"].get("body")
        if ruleset is not None and isinstance(body, dict) and "content" in body:
            body["content"] = ruleset.content_name(body["content"])
    elif item["kind"] == "result":
        item.pop("head_hash", None)
    return item


def referee_rules_of(path: Path) -> int:
    """The referee's rules a recorded game was played under: its stored time
    control's ``rules`` (1 when it has none: recorded before they existed)."""
    created = next(
        json.loads(line)
        for line in read_lines(path)
        if json.loads(line)["kind"] == "event"
    )
    control = created["record"]["body"].get("time_control") or {}
    return int(control.get("rules", 1))


def check(root: Path = HERE) -> list[str]:
    """Every recorded game of every rules version, replayed from the setup and
    seed it records: one message per file whose game differs (or is missing)."""
    problems = []
    for ruleset in every_rules_version():
        for path, (setup, seed) in golden_games(ruleset, root).items():
            name = path.relative_to(root)
            if not path.exists():
                problems.append(
                    f"{name}: missing (run python -m tests.golden.regenerate)"
                )
                continue
            rules = referee_rules_of(path)
            replayed = [
                comparable(x)
                for x in play_game(ruleset, setup, seed, ending_of(path), rules)
            ]
            if replayed != [comparable(x, ruleset) for x in read_lines(path)]:
                problems.append(
                    f"{name}: replaying its setup and seed gives another game"
                )
    return problems


if __name__ == "__main__":
    if "--check" in sys.argv[1:]:
        problems = check()
        print("\n".join(problems) or "every golden game replays to its file")
        sys.exit(1 if problems else 0)
    for path in regenerate(force="--force" in sys.argv[1:]):
        print(
            f"wrote {path.relative_to(HERE.parent.parent)} ({path.stat().st_size} bytes)"
        )
