"""What a client may put in a game's setup, per content pack.

Closed sets fixed by a rulebook are ``Literal`` types on the setup model
(and proto enums); sets that *content* defines (characters, clans, decks,
card ids) are only known once a pack is loaded, so a ruleset describes them
here.  ``ListGameTypes`` joins both with the setup model's own fields and
defaults, so a client in any language can build a valid setup without
reading error messages.
"""

from __future__ import annotations

from pathlib import Path

from domain.contract.core import Model


class SetupChoice(Model):
    """The allowed values of one setup field in one content pack."""

    field: str
    """Field path in the setup model: ``characters``, or ``decks.name``."""
    values: tuple[str, ...]
    """Allowed values of the field (of each entry, if it is a list)."""
    per_seat: bool = False
    """A list with one entry per seat, in seat order."""


class PackOptions(Model):
    """One content pack: its name, label, player range and content-defined choices."""

    name: str
    label: str
    min_players: int
    max_players: int
    choices: tuple[SetupChoice, ...] = ()


def pack_names(directory: Path) -> tuple[str, ...]:
    """The content packs shipped in ``directory`` (``<name>.json``), sorted."""
    return tuple(sorted(p.stem for p in directory.glob("*.json")))
