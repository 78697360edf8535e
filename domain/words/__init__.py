"""Words: sentences, narration, and boards laid out once and drawn as SVG or text.

Why apart from the games: every game describes its events and boards through
the same small vocabulary, so a reader of any game (the CLI, the dashboard, an
export) gets the same sentences.  It imports only :mod:`domain.contract`.
"""
