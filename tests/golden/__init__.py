"""Golden corpus: complete exported games per game type and rules version."""
