"""What one game held by the game cache costs, part by part, in-process.

``python -m bench.held_game [games]`` creates ``games`` games of the bench mix
through ``GameLedger.create_game`` and asks each for its seat's legal moves
(the path of scenario 6, without gRPC), then walks what the cache holds with
``sys.getsizeof``.  Why a walk and not only RSS: RSS says how much, the walk
says where (state, event tails, legal moves, views).  Each object is counted
once, by the first part that reaches it, so content shared between games
(rulesets, content packs, interned strings) adds nothing per game.
"""

from __future__ import annotations

import shutil
import sys
import types
from collections import Counter
from typing import Any

from pydantic import BaseModel, SecretStr

from bench import db, procs
from bench.setups import game_mix

_NOT_DATA = (type, types.ModuleType, types.FunctionType, types.MethodType)


def deep_size(root: Any, seen: set[int]) -> int:
    """Bytes of ``root`` and everything it reaches that ``seen`` has not counted."""
    total = 0
    todo = [root]
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, _NOT_DATA):
            continue
        seen.add(id(obj))
        total += sys.getsizeof(obj)
        if isinstance(obj, dict):
            todo.extend(obj.keys())
            todo.extend(obj.values())
        elif isinstance(obj, list | tuple | set | frozenset):
            todo.extend(obj)
        if isinstance(obj, BaseModel):  # its own fields-set is per instance
            todo.append(obj.__pydantic_fields_set__)
        if hasattr(obj, "__dict__"):
            todo.append(obj.__dict__)
    return total


def breakdown(cache: Any, game_ids: list[Any]) -> dict[str, float]:
    """Bytes per game, by part of what the cache holds."""
    seen: set[int] = set()
    parts: Counter[str] = Counter()
    for game_id in game_ids:
        game = cache._entries.get(game_id).game
        parts["decided state"] += deep_size(game.state, seen)
        parts["setup"] += deep_size(game.setup, seen)
        parts["rest of the game"] += deep_size(game, seen)
    for name, lru in (
        ("event tails", cache._tails),
        ("views, legal moves", cache._derived),
    ):
        parts[name] += deep_size(lru._items, seen)
    return {k: v / len(game_ids) for k, v in parts.most_common()}


def main(games: int) -> None:
    from services.runtime.bootstrap import build_ledger
    from services.runtime.settings import Settings

    workdir = procs.make_workdir()
    mix = game_mix()
    try:
        with db.bench_database() as url:
            settings = Settings(
                database_url=url,
                data_dir=workdir,
                admin_token=SecretStr("held-game-" + "x" * 16),
                cache_size=games + 100,
            )
            ledger = build_ledger(settings)
            try:
                ids = []
                for i in range(games):
                    game_type, setup = mix[i % len(mix)]
                    game_id = ledger.create_game(game_type, setup).game_id
                    game = ledger.cache.load(game_id)
                    acting = game.to_act()
                    ledger.cache.legal_moves(game, acting[0] if acting else 0)
                    ids.append(game_id)
                parts = breakdown(ledger.cache, ids)
            finally:
                ledger.close()
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    print(f"{games} games: {sum(parts.values()) / 1024:.1f} KiB per held game")
    for name, size in parts.items():
        print(f"  {name:20} {size / 1024:6.2f} KiB")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000)
