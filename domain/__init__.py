"""Pure domain: the decider contract, chance, the game aggregate and the rulesets.

Nothing here imports from ``services`` or ``projections``; the rulesets under
``domain/games`` import only the standard library, pydantic and ``domain.core``
/ ``domain.chance``.
"""
