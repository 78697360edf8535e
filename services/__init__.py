"""Adapters around the domain: the ledger application, gRPC server, auth and CLI.

Nothing here knows any game's rules: games are reached only through
``domain.games.find_game`` and the generic protobuf mapping.
"""
