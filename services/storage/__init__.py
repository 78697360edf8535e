"""The persistence adapter: every SQL statement of ``services`` lives in this package.

Callers name the effect (``LedgerStore.append``, ``TournamentStore.begin_round``,
``tournament_store.tournament_of(curs, game_id)``) and the statements are
here, beside the tables and record formats they depend on, so a change of
schema is a change in one package.  One owner per table: the ledger's in
:mod:`services.storage.store` and :mod:`services.storage.recorder`, the
tournaments' in :mod:`services.storage.tournament_store`, the roles and
grants in :mod:`services.storage.roles`.

What is not here, on purpose: a projection (``projections/``) owns its view
tables, writes them in its tracking transaction and holds the reads of them
(``projections.stats_queries``, ``projections.ratings``), which services
call by name; and the live hub's ``LISTEN`` (:mod:`services.live.listen_hub`)
is a session command on its own connection, not a read or a write.
"""
