"""Vaalbara's rules: the entry points ``GAME`` uses, implemented in sub-modules.

``decide`` validates one command and returns its events, then lets
:func:`.flow.advance` append whatever the rules force (:mod:`.decide`, which
also holds the legal commands, who acts and the outcome); ``start`` and the
forced flow live in :mod:`.flow`; the character actions in
:mod:`.characters`; the Land rewards in :mod:`.lands`.
"""

from __future__ import annotations

from .decide import (
    decide,
    legal_commands,
    outcome,
    outcome_v2,
    to_act,
)
from .flow import start

__all__ = [
    "decide",
    "legal_commands",
    "outcome",
    "outcome_v2",
    "start",
    "to_act",
]
