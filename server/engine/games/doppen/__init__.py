"""Doppen, the Tarock game of Kirchberg am Wechsel: rules, deal state machine, scoring,
the Pagatkasse and the Partie.

Done: the contract table (:mod:`.contracts`), the deal (:mod:`.deal`: auction with
holding, talon choices, discards, announcements and doublings, play with the bird rules,
the early end of a lost announced Valat, the table signal), the outcome and scoring
(:mod:`.outcome`, :mod:`.scoring`), the Pagatkasse (:mod:`.kasse`) and the Partie with
its sheet (:mod:`.match`).

Next, in order:

1. The table client (``web/static/js/games/doppen.js``: the turned-up talon, the
   face-down card of the table signal, the Kasse column of the sheet).
2. The button labels ``action.<move text>`` for the moves Doppen adds to the shared
   table catalogue (``hold``, ``bid unterer``, ``take upper|middle|lower``,
   ``announce pagat|uhu|valat``, ``gut``, ``kontra …``, ``re …``); ``take <card>`` (the
   Einer) and ``cover <card>`` are card moves like ``play`` and ``discard``.
3. Registering the game (``_implemented()`` and ``implemented=True`` in
   ``server/engine/registry.py``), then moving the golden records from
   ``tests/golden/doppen/records/`` up into ``tests/golden/doppen/`` so that the shared
   record, replay and information-set tests pick them up, and writing the view digests.
4. A manual-entry mode's revoke penalty (half the base into the Kasse, DP-A23): the
   engine refuses illegal cards, so there is nothing to record yet.
"""

from server.engine.games.doppen.deal import Doppen, DoppenDeal

__all__ = ["Doppen", "DoppenDeal"]
