"""The e2e tests drive the server through the shipped rule-blind client."""

from __future__ import annotations

from services.client import Table, create, legal_moves, play_one, play_to_end

__all__ = ["Table", "create", "legal_moves", "play_one", "play_to_end"]
