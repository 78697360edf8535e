"""A game's log: the aggregate, creation, stored events, clocks and signatures.

Why together: these decide and record what extends a game's hash chain, and
what a reader may see of it (spectator delay), so they change together.  They
use the contract, the words and the games; the audit uses them, never the
reverse.
"""
