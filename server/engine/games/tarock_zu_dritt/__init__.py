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

Our choice where the text and DECISIONS.md are silent: the optional rule "Honneurs
(5 Fünferzähler)" (room option ``honneurs``, off by default). The text names the Honneurs
elsewhere as "Könige und Trullstücke" — seven cards, each a Fünferzähler. Five of them in
one hand at the first lead (the declarer's after the talon) are a silent premium of 1
for that hand's party, as a held premium is counted at an Austrian table: never
announced, so never kontriert; doubled in the Solospiele like every premium but Valat;
not counted in negative games, the Trischaken and the Farbenspiele (TZ-A10), nor beside
a Valat, where only birds count (``tests/engine/test_tarock_zu_dritt_honneurs.py``).

Not done yet: Renonce (TZ-A27) needs a manual-entry mode; the engine refuses illegal
actions.
"""

from server.engine.games.tarock_zu_dritt.deal import TarockZuDritt, TarockZuDrittDeal

__all__ = ["TarockZuDritt", "TarockZuDrittDeal"]
