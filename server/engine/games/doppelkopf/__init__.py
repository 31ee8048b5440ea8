"""Doppelkopf with the house rules of doppelkopf.txt: contracts, deal, scoring, evening."""

from server.engine.games.doppelkopf.deal import Doppelkopf, DoppelkopfDeal

__all__ = ["Doppelkopf", "DoppelkopfDeal"]
