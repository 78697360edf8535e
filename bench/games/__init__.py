"""Games that exist only for the bench, registered through ``LEDGER_GAMES``."""
