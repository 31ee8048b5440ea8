"""Doppen, the Tarock game of Kirchberg am Wechsel: rules, deal state machine, scoring,
the Pagatkasse and the Partie.

Done: the contract table (:mod:`.contracts`), the deal (:mod:`.deal`: auction with
holding, talon choices, discards, announcements and doublings, play with the bird rules,
the early end of a lost announced Valat, the table signal), the outcome and scoring
(:mod:`.outcome`, :mod:`.scoring`), the Pagatkasse (:mod:`.kasse`) and the Partie with
its sheet (:mod:`.match`).

Next: the table client (``web/static/js/games/doppen.js``), then registering the game
(``_implemented()`` and ``implemented=True`` in ``server/engine/registry.py``), moving the
golden records from ``tests/golden/doppen/records/`` up into ``tests/golden/doppen/`` so
that the shared record, replay and information-set tests pick them up, and the view
digests.
"""

from server.engine.games.doppen.deal import Doppen, DoppenDeal

__all__ = ["Doppen", "DoppenDeal"]
