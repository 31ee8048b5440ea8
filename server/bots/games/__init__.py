"""Per-game knowledge of the computer players: one module per game, named after the
game's id (``-`` written ``_``), each with its rule-based player ``einsteiger(info, rng)``."""
