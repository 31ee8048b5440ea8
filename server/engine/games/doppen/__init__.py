"""Doppen, the Tarock game of Kirchberg am Wechsel: rules, deal state machine, scoring,
the Pagatkasse and the Partie.

Done: the contract table (:mod:`.contracts`), the deal (:mod:`.deal`: auction with
holding, talon choices, discards, announcements and doublings, play with the bird rules,
the early end of a lost announced Valat, the table signal), the outcome and scoring
(:mod:`.outcome`, :mod:`.scoring`), the Pagatkasse (:mod:`.kasse`) and the Partie with
its sheet (:mod:`.match`).

At the table: registered in ``server/engine/registry.py``; the client module
``web/static/js/games/doppen.js`` (the turned-up talon with its choices, the discard
restriction, the announcement round with each item's Kontra/Re level, the face-down card
of the table signal) and the catalogues ``web/locale/{de,en}/game-doppen.po``; the golden
records in ``tests/golden/doppen/``.

Next: a manual-entry mode's revoke penalty (half the base into the Kasse, DP-A23): the
engine refuses illegal cards, so there is nothing to record yet.
"""

from server.engine.games.doppen.deal import Doppen, DoppenDeal

__all__ = ["Doppen", "DoppenDeal"]
