"""Reads of games as one caller may see them: the disclosure policy, the
read-your-writes wait and the read use cases every entrypoint calls."""
