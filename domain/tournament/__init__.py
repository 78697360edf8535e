"""Tournaments: pairings, standings and the event-sourced ``Tournament`` aggregate.

Pure modules (:mod:`.pairing`, :mod:`.ffa`, :mod:`.standings`) hold every rule;
:mod:`.aggregate` records facts; :mod:`.codec` names them for storage.  Nothing
here imports services, projections, grpc or psycopg.
"""

from __future__ import annotations

from domain.tournament.aggregate import Tournament
from domain.tournament.ffa import ffa_pairing, table_sizes
from domain.tournament.pairing import (
    Pairing,
    PlayerId,
    Table,
    meetings,
    round_robin_schedule,
    seat_order,
    swiss_pairing,
)
from domain.tournament.standings import (
    TIE_BREAKS,
    GameResult,
    StandingRow,
    compute_standings,
)
from domain.tournament.state import FORMATS, TableAssignment, TournamentState

__all__ = [
    "FORMATS",
    "TIE_BREAKS",
    "GameResult",
    "Pairing",
    "PlayerId",
    "StandingRow",
    "Table",
    "TableAssignment",
    "Tournament",
    "TournamentState",
    "compute_standings",
    "ffa_pairing",
    "meetings",
    "round_robin_schedule",
    "seat_order",
    "swiss_pairing",
    "table_sizes",
]
