"""Tarock zu dritt (Austrian three-handed Tarock, house rules "Speisezettel de luxe",
``shared/rules/tarock-zu-dritt.txt`` with the TZ rows of ``DECISIONS.md``).

Modules: :mod:`.contracts` (the Speisezettel, the ladder, the premiums), :mod:`.deal`
(the rules value and the deal: packets after a knock, Lizitation, talon, discards,
announcements, Kontra, play), :mod:`.outcome` and :mod:`.scoring` (counting and
settlement), :mod:`.errors` (refusal codes with English and German texts),
:mod:`.match` (the Partie with Radl and Schlussradl).

Done and tested (``tests/engine/test_tarock_zu_dritt_*.py``): the contract table; the
deal and the packet choice after a knock; Phase I with every bidding rule; Phase II
(talon choices, discard rules, announcements, "ich liege"); Phase III (Kontra, Rekontra,
Subkontra per item, per opponent in negative games, Skoty-Trophy); the play rules
(Stichzwang, Farbenspiele, Kaiserstich, Pagat last, announced birds, ouvert, Trischaken
talon, early end of negative games); counting and scoring (games, premiums, Valat,
Säcke, Trischaken); the Partie; random playouts with invariants, views against
``hidden_from`` and the information-set oracle; the registry entry and the catalogues.

Registered and playable at the table; golden records (one per contract) in
``tests/golden/tarock-zu-dritt/``; every Kontra call has its button text.

Not done yet:

1. The option "Honneurs (5 Fünferzähler)": the text does not say what scores, so it is
   not offered until it is decided (DECISIONS.md has no row).
2. Renonce (TZ-A27) needs a manual-entry mode; the engine refuses illegal actions.
"""

from server.engine.games.tarock_zu_dritt.deal import TarockZuDritt, TarockZuDrittDeal

__all__ = ["TarockZuDritt", "TarockZuDrittDeal"]
