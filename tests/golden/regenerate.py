"""Write the golden corpus: ``python -m tests.golden.regenerate [--force]``.

In the spirit of python-chess's perft files: complete games, exported in
``ledger-export/v1`` exactly as the ledger stores them, one folder per game
type and rules version (``tests/golden/<game>/v<version>/<setup>.ndjson.gz``, gzipped to keep
the repository small: ``zcat`` shows the lines).
``tests/unit/test_golden.py`` replays and audits every file with today's
code, so a rules change that alters an old game's decisions fails CI unless
it comes behind a new version.

Files of a version that already exist are history and are kept (``--force``
rewrites them, which is only right for the newest version while it is being
developed); missing versions of every registered ruleset are generated with
that version's rules.  ``legacy/`` holds games recorded before rules were
versioned (no ``ruleset_version``, hash algorithm v1); it was written once
by the code of that time and is never regenerated.

Games are played by seeded random legal moves without a database: the
aggregate decides, the ledger's own mapper encodes the records.
"""

from __future__ import annotations

import gzip
import random
import sys
import uuid
from pathlib import Path
from typing import Any

from domain.aggregate import Game
from domain.export import export_lines
from domain.games import all_games, rules_versions
from services.storage.mapper import LedgerMapper

HERE = Path(__file__).parent
SETUPS: dict[str, dict[str, tuple[dict[str, Any], int]]] = {
    "thalara": {
        "2p-standard": (
            {"players": 2, "mode": "standard", "characters": ["myrja", "canto"]},
            2026,
        ),
        "3p-casual-chaos": (
            {
                "players": 3,
                "mode": "casual_chaos",
                "characters": ["myrja", "canto", "accaina"],
            },
            2026,
        ),
    },
    "terralore": {"2p": ({"players": 2}, 2026), "2p-b": ({"players": 2}, 2027)},
    "thorgal": {"solo": ({"players": 1}, 2026), "2p": ({"players": 2}, 2027)},
    "vaalbara": {
        "2p": ({"players": 2}, 2026),
        # seeds where seats tie below the winner: rules v1 and v2 rank them differently
        "4p-tie": ({"players": 4}, 2028),
        "5p-tie": ({"players": 5}, 2033),
    },
}
"""A few setups per game type, each with its seed (a new game type adds its line)."""


def play_game(ruleset: Any, setup: dict[str, Any], seed: int) -> list[str]:
    """One complete random game under ``ruleset``, as export lines."""
    rnd = random.Random(seed)
    secret = rnd.randbytes(32)
    game_id = uuid.UUID(int=rnd.getrandbits(128), version=4)
    game = Game.create(
        ruleset,
        ruleset.setup_model.model_validate(setup),
        secret,
        (f"golden:{seed}",),
        game_id=game_id,
    )
    moves = 0
    while not game.is_over:
        seat = rnd.choice(game.to_act())
        command = ruleset.pick_random_command(game.state, seat, rnd)
        game.act(command, seat, secret, f"move-{moves}")
        moves += 1
    mapper = LedgerMapper()
    stored = [mapper.to_stored_event(e) for e in game.collect_events()]
    rows = [(s.originator_version, s.topic, s.state) for s in stored]
    return list(export_lines(str(game_id), rows))


def regenerate(force: bool = False) -> list[Path]:
    written = []
    for game in all_games():
        for ruleset in rules_versions(game.name):
            folder = HERE / game.name / f"v{ruleset.version}"
            for name, (setup, seed) in SETUPS[game.name].items():
                path = folder / f"{name}.ndjson.gz"
                if path.exists() and not force:
                    continue
                folder.mkdir(parents=True, exist_ok=True)
                text = "".join(line + "\n" for line in play_game(ruleset, setup, seed))
                # gzip without a timestamp: the same game gives the same bytes
                path.write_bytes(gzip.compress(text.encode(), mtime=0))
                written.append(path)
    return written


if __name__ == "__main__":
    for path in regenerate(force="--force" in sys.argv[1:]):
        print(
            f"wrote {path.relative_to(HERE.parent.parent)} ({path.stat().st_size} bytes)"
        )
