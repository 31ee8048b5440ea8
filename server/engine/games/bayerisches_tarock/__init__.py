"""Bayerisches Tarock (Haferltarock): rules, deal state machine, scoring, match.

Done: the deal (36 German cards, 4-3-Stock-4), the Reizen with holding and Selbststeigern,
the variant without Reizen, the Berliner, the Stock game (Frage) with discards and trump
choice, Hand, Durch, Bettel (with its Stichzwang option), Kontra/Re (Supp … Hirsch as an
option), play with Farbzwang, Trumpfzwang and Stichzwang, scoring with and without Reizen,
the match with the Haferl (pot or pocket mode).

Next: the literal Kontra role switch of the rules text (BT-A13, an option), registration
(``implemented=True``) once the table client for the German pack is ready.
"""

from server.engine.games.bayerisches_tarock.deal import BayerischesTarock, BayerischesTarockDeal

__all__ = ["BayerischesTarock", "BayerischesTarockDeal"]
