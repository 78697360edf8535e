"""Pure domain: no I/O, no adapters; one subpackage per concept.

- :mod:`domain.contract`: what every ruleset implements and may use (the
  decider contract, messages, errors, outcomes, viewers, setup options,
  content packs, chance, the ledger's own endings).
- :mod:`domain.words`: sentences, narration and drawn boards.
- :mod:`domain.games`: the rulesets; each imports only the contract and the words.
- :mod:`domain.ledger`: a game's log (the aggregate, creation, stored events
  and their bytes, clocks, spectator delay, signatures and receipts).
- :mod:`domain.audit`: re-deriving a game from its log alone, and its export.
- :mod:`domain.tournament`: pairings, standings and the tournament aggregate.

Why the order matters: a ruleset that reached into the log's format, or an
audit that the log imported, would tie the rules to how they are stored.  The
rules between the subpackages live in ``tests/unit/test_layers.py``.
"""
