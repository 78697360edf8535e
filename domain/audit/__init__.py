"""The audit: re-deriving a game from its stored log alone, and its export.

Why apart from the log: an auditor trusts nothing the server computed, so the
audit reads bytes and re-runs the rules; the log that records them never calls
the audit.
"""
