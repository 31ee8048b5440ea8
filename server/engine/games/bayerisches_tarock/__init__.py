"""Bayerisches Tarock (Haferltarock): rules, deal state machine, scoring, session.

Layout: :mod:`.contracts` (the contract table, the ladders, the trick rules),
:mod:`.deal` (the rules value and the deal, its phases and the decisions where the text
is silent), :mod:`.scoring` (units, with the rules text's 82/71 example), :mod:`.outcome`,
:mod:`.errors`, :mod:`.match` (the session with the Haferl).

Done (tested): the deal (36 German cards, 4-3-Stock-4, V leads); the Reizen with holding
(BT-A1), Selbststeigern (BT-A2), the Bettel on the ladder as an option (BT-A8); the
variant without Reizen with its order of requests and values (BT-A14); the Berliner
(BT-A17, also in Herz); the Stock game with any three discards and the trump named
after the exchange, Frage nur in Herz (BT-A3); Hand with the Stock unseen but counting
(BT-A4); Durch; the Bettel (ten between Unter and Neuner, Stichzwang as an option,
BT-A7); Kontra/Re before the first card, Supp … Hirsch and the literal role switch as
options (BT-A13); Farbzwang, Trumpfzwang, Stichzwang (BT-A6); scoring with and without
Reizen (BT-A9 … BT-A11, BT-A14); all pass → thrown in (BT-A16); the session: clockwise
dealer, the sitting-out fourth (BT-A15), pocket mode and the Haferl (BT-A12) with its pot
movements per deal, the sheet and the settlement including what is left in the Haferl.

The game is offered by the registry; its golden records lie in
``tests/golden/bayerisches-tarock/`` where the shared record and oracle tests find them.
"""

from server.engine.games.bayerisches_tarock.deal import BayerischesTarock, BayerischesTarockDeal

__all__ = ["BayerischesTarock", "BayerischesTarockDeal"]
