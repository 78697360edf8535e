"""``python -m services.cli`` is ``ledger``."""

from __future__ import annotations

from services.cli import main

main()
