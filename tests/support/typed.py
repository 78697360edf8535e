"""Typed access to what a ruleset returns through its base-typed contract.

``Ruleset.view`` returns a ``Model`` and ``Ruleset.redact`` an ``Event``: right for
the ledger, which knows no game, but a test reads a game's own fields.  These
helpers check the class at run time (so a wrong class fails the test) and give
mypy the precise type.
"""

from __future__ import annotations

from typing import Any, TypeVar

from domain.contract.core import Event, Ruleset, Viewer

T = TypeVar("T")
E = TypeVar("E", bound=Event)


def of(cls: type[T], value: object) -> T:
    """``value``, checked to be a ``cls``."""
    assert isinstance(value, cls), (
        f"expected {cls.__name__}, got {type(value).__name__}"
    )
    return value


def redacted(ruleset: Ruleset[Any], event: E, viewer: Viewer) -> E:
    """``ruleset.redact(event, viewer)``, which the contract says keeps the class."""
    return of(type(event), ruleset.redact(event, viewer))
