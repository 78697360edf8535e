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

from services.storage.recorder import hash_token

DDL = """
CREATE TABLE IF NOT EXISTS organiser_tokens (
    token_hash text PRIMARY KEY, label text NOT NULL,
    issued_at timestamptz NOT NULL DEFAULT now()
);
"""


def issue(datastore: Any, label: str) -> str:
    """A new organiser token for ``label`` (returned once, stored hashed)."""
    token = secrets.token_urlsafe(32)
    with datastore.transaction(commit=True) as curs:
        curs.execute(
            "INSERT INTO organiser_tokens (token_hash, label) VALUES (%s, %s)",
            (hash_token(token), label),
        )
    return token


def is_organiser(datastore: Any, token: str) -> bool:
    with datastore.transaction(commit=False) as curs:
        curs.execute(
            "SELECT 1 FROM organiser_tokens WHERE token_hash = %s", (hash_token(token),)
        )
        return curs.fetchone() is not None
