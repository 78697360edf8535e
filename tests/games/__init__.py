"""Games that live only in the tests: they prove a game can be added from outside ``domain/games``."""
