"""The rules contract: what every ruleset implements and what it may use.

Why apart: a game is written against this package and :mod:`domain.words`
alone, so a ruleset can be read, tested and replaced without the log around it.
Nothing here imports another part of :mod:`domain`.
"""
