"""The pure rules engine: standard library only, deterministic, no I/O and no clock.

Layout (see ``shared/design/ARCHITECTURE.md``):

* :mod:`server.engine.cards` — the three packs and their notation;
* :mod:`server.engine.bits` — card sets as int bitmasks;
* :mod:`server.engine.tricks` — the one trick core (winner, Farb-/Trumpfzwang, Stichzwang);
* :mod:`server.engine.counting` — Augen and the Tarock count in threes;
* :mod:`server.engine.base` — the :class:`Rules` / :class:`Deal` interface of every game;
* :mod:`server.engine.moves` — moves by a codec built from verbs, one canonical text each;
* :mod:`server.engine.tarock` — the Tarock family layer: auctions, talon choices, discards;
* :mod:`server.engine.games` — one package per game;
* :mod:`server.engine.record` — the deal record (replay, strict loading);
* :mod:`server.engine.playout` — random playouts with invariant checks;
* :mod:`server.engine.infoset` — the information-set oracle: a view depends only on what
  its viewer may know;
* :mod:`server.engine.registry` — game names to rules;
* :mod:`server.engine.match` — who pays whom at the end of a match.
"""
