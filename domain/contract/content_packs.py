"""Content packs are chosen by name from an allow-list, never opened by path.

Why: a setup's ``content`` field comes from the client.  Joining it to a
directory let ``../../thalara/content/sample`` load another game's file and
an absolute path open any file the server can read.  The allow-list is the
set of ``*.json`` files shipped beside a ruleset (``content/``): dropping in
the published card lists as another file adds a pack, with no code change,
and nothing else can ever be opened.  An empty name means the default pack,
since proto3 cannot tell "unset" from "".
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from domain.contract.core import InvalidCommandError

DEFAULT_PACK = "sample"
"""The pack every ruleset ships, used when a setup names none."""


@cache
def shipped_packs(directory: Path) -> dict[str, Path]:
    """Pack name -> file, for every ``*.json`` in ``directory`` (read once)."""
    return {p.stem: p for p in sorted(directory.glob("*.json")) if p.is_file()}


def pack_name(directory: Path, name: str) -> str:
    """The allowed pack ``name`` (empty: :data:`DEFAULT_PACK`).

    :raises InvalidCommandError: for any name not shipped in ``directory``.
    """
    name = name or DEFAULT_PACK
    packs = shipped_packs(directory)
    if name not in packs:
        shown = name if len(name) <= 40 else name[:39] + "…"
        raise InvalidCommandError(
            f"unknown content pack {shown!r}; this game ships {sorted(packs)}"
        )
    return name


def pack_file(directory: Path, name: str) -> Path:
    """The file of the allowed pack ``name``; see :func:`pack_name`.

    :raises InvalidCommandError: for any name not shipped in ``directory``.
    """
    return shipped_packs(directory)[pack_name(directory, name)]
