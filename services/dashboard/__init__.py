"""The web dashboard: read-only pages over the projections, served beside gRPC.

Pages read the views (``projections/``) through their query helpers, the
tournaments through the same read path as ``TournamentService.GetStandings``,
and replays and audits through the same functions as ``ReplayService``, so
the browser never sees more than an anonymous gRPC caller would.  The one
exception is the play pages (:mod:`services.dashboard.play`): a browser that
opened a seat's one-time link acts as that seat, as its token would over
gRPC, and as nobody else.
"""
