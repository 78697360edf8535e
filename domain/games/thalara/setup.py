"""Thalara setup: the creation options and the empty table they lead to."""

from __future__ import annotations

from domain.contract.content_packs import pack_name
from domain.contract.core import InvalidCommandError, Model

from .content import (
    CONTENT_DIR,
    artifact_sets,
    characters,
    load_pack,
    remnant_id,
)
from .state import MODES, STANDARD, Mode, PlayerState, ThalaraState


class ThalaraSetup(Model):
    """Creation options: one character per seat, in seat order."""

    players: int = 2
    mode: Mode = STANDARD
    """The rulebook's two modes (a closed set: the API offers it as an enum)."""
    characters: tuple[str, ...] = ()
    """One character id or name per seat; empty: the pack's first ``players``."""
    content: str = "sample"
    """Name of the content pack (``content/<name>.json``)."""


def _character_id(pack: str, name: str) -> str:
    table = characters(pack)
    key = name.strip().lower()
    for cid, character in table.items():
        if key in (cid, character.name.lower()):
            return cid
    raise InvalidCommandError(f"unknown character {name!r}; known: {sorted(table)}")


def initial_state(setup: ThalaraSetup | dict[str, object]) -> ThalaraState:
    """The empty table: characters chosen, full supplies, no Artifacts drawn yet.

    :raises InvalidCommandError: on a player count outside 2-4, an unknown
        mode, content pack or character, or the wrong number of characters.
    """
    if not isinstance(setup, ThalaraSetup):
        setup = ThalaraSetup.model_validate(setup)
    if not 2 <= setup.players <= 4:
        raise InvalidCommandError("Thalara is played by 2 to 4 players")
    if setup.mode not in MODES:
        raise InvalidCommandError(f"mode must be one of {MODES}")
    names = setup.characters or tuple(characters(setup.content))[: setup.players]
    if len(names) != setup.players:
        raise InvalidCommandError("choose exactly one character per seat")
    content = pack_name(CONTENT_DIR, setup.content)
    pack = load_pack(content)
    chosen = [_character_id(content, c) for c in names]
    if any(chosen.count(c) > artifact_sets(setup.players) for c in chosen):
        raise InvalidCommandError("each set has one copy of each character")
    players = tuple(
        PlayerState(
            character=cid,
            supply=tuple(sorted(remnant_id(r.id, seat) for r in pack.remnants)),
        )
        for seat, cid in enumerate(chosen)
    )
    return ThalaraState(players=players, mode=setup.mode, content=content)
