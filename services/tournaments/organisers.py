"""Organiser credentials: who may create tournaments.

Why a credential at all: ``CreateTournament`` used to need no token, so anyone
could fill the ledger with tournaments (one stored a 3.9 MB name).  Creating
one now needs the admin token or an organiser token that the admin issued
(``TournamentService.IssueOrganiserToken``).  As for seat tokens, only the
SHA-256 of a token is stored, with a label saying whom it was issued to;
revoking one is deleting its row (as the owner role: the service role may
only read and append).
"""

from __future__ import annotations

import secrets
from typing import Any

from services.storage.tournament_store import TournamentStore


def issue(datastore: Any, label: str) -> str:
    """A new organiser token for ``label`` (returned once, stored hashed)."""
    token = secrets.token_urlsafe(32)
    TournamentStore(datastore).add_organiser(token, label)
    return token


def is_organiser(datastore: Any, token: str) -> bool:
    return TournamentStore(datastore).is_organiser(token)
