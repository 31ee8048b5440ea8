"""Dreierles, the Tarock game of Mittelbaden: rules, deal state machine, scoring, match."""

from server.engine.games.dreierles.deal import Dreierles, DreierlesDeal

__all__ = ["Dreierles", "DreierlesDeal"]
