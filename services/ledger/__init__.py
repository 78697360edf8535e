"""The application: the use cases that create, extend and read a game's log.

Why one role: a move, an ending and a read each pass through here, whatever
the entrypoint (gRPC, the dashboard, the CLI, a tournament desk), so the
rules of recording (:mod:`services.ledger.log_tail`) and of disclosure
(:mod:`services.ledger.reading`) are written once.
"""
