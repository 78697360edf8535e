"""Thalara's rules: the entry points ``GAME`` uses, implemented in sub-modules.

``decide`` validates a command and returns its events (:mod:`.decide`);
``start`` makes the opening shuffles and the round lifecycle lives in
:mod:`.rounds`; who acts, the legal commands and the outcome are in
:mod:`.moves`; spell and conflict queries shared by all three in
:mod:`.spells`.
"""

from __future__ import annotations

from .decide import decide
from .moves import (
    legal_commands,
    legal_sequence,
    outcome,
    random_command,
    to_act,
)
from .rounds import start

__all__ = [
    "decide",
    "legal_commands",
    "legal_sequence",
    "outcome",
    "random_command",
    "start",
    "to_act",
]
