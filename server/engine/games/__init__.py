"""One package per game: its rules, deal state machine, scoring and match."""
