"""The names the stored format is spelled with: type names, hash algorithms, genesis.

Why a module of constants: a reader in another process or language matches on
these exact strings, so each is written once here (a test checks no other
product module spells a type name) and everyone imports it.
"""

from __future__ import annotations

CREATED_TYPE = "ledger.GameCreated"
CONCLUDED_TYPE = "ledger.GameConcluded"
SNAPSHOT_TYPE = "ledger.Snapshot"
ENDED_TYPES = {
    "resigned": "ledger.SeatResigned",
    "aborted": "ledger.GameAborted",
    "adjudicated": "ledger.GameAdjudicated",
    "timed_out": "ledger.SeatTimedOut",
    "agreed": "ledger.DrawAgreed",
}
"""The ledger's own endings (:class:`domain.contract.endings.EndingKind` value -> type),
each followed by ``ledger.GameConcluded`` in the same decision."""
ENDING_KINDS = {type_: kind for kind, type_ in ENDED_TYPES.items()}
CONTROL_TYPES = {
    "paused": "ledger.GamePaused",
    "resumed": "ledger.GameResumed",
    "time_added": "ledger.TimeAdded",
    "draw_offered": "ledger.DrawOffered",
    "draw_declined": "ledger.DrawDeclined",
}
"""The referee's controls that do not end the game (an arbiter's pause,
resume and added time; a seat's draw offer and its decline), each a decision
of its own (:class:`domain.ledger.controls.ControlKind` value -> type)."""
CONTROL_KINDS = {type_: kind for kind, type_ in CONTROL_TYPES.items()}
LEDGER_TYPES = frozenset(
    (
        CREATED_TYPE,
        CONCLUDED_TYPE,
        SNAPSHOT_TYPE,
        *ENDED_TYPES.values(),
        *CONTROL_TYPES.values(),
    )
)
"""Every type name the ledger writes itself; any other is a game's own event."""
LEDGER_TYPE_PREFIX = "ledger."
"""The prefix of the ledger's own type names; a game's are ``<game>.<EventClass>``."""

ALG_V1 = "sha256-canonical-json/v1"
ALG = "sha256-canonical-json/v2"
ALGORITHMS = (ALG_V1, ALG)
GENESIS = "0" * 64
