"""Read models built from the ledger's event log: one module per view.

Every view is a set of PostgreSQL tables plus a row in ``projection_tracking``;
the runner (:mod:`projections.runner`) applies events in batches and commits
the view's rows and its tracking position in the same transaction, so an
event is never applied twice nor skipped, and any view can be rebuilt from
scratch by replaying the log.
"""
