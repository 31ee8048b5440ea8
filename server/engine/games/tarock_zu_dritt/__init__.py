"""Tarock zu dritt (Austrian three-handed Tarock, house rules "Speisezettel de luxe"): the
contract table, the deal state machine with the Lizitation, talon, discards, premium
announcements, Kontra rounds and play, the scoring and the Partie.
"""

from server.engine.games.tarock_zu_dritt.deal import TarockZuDritt, TarockZuDrittDeal

__all__ = ["TarockZuDritt", "TarockZuDrittDeal"]
