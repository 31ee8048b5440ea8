"""The information set a computer player is given: plain JSON, built from what a seat saw.

``info`` is what the table sends one seat, and nothing more (``docs/bots.md``):

* ``game``, ``options``, ``seats``, ``dealer``: the deal's public frame;
* ``seat``: the seat the player sits at;
* ``hand_dealt``: the seat's hand as its first view showing cards showed it (where the
  seats choose packets after the deal: the packet it took);
* ``view``: the seat's view now (:meth:`Deal.view`);
* ``actions``: every action of the deal so far as the seat saw it
  (:meth:`Deal.action_seen_by`), as ``[seat, text]`` pairs;
* ``match``: the match state the table shows every player (sheet, pots…), or ``{}``.

:func:`info_for` builds it on the table's side (this module and the duel harness,
:mod:`server.bots.duel`, are the only ones of the package that hold the real deal); the
players (:mod:`server.bots.players`, :mod:`server.bots.games`) receive the JSON only.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from server.bots.infoformat import FORMAT, VERSION
from server.engine.base import JSON, Deal


def info_for(
    deal: Deal,
    seat: int,
    match: Mapping[str, Any] | None = None,
    hand_dealt: list[str] | None = None,
) -> JSON:
    """The information set of ``seat`` in ``deal`` as plain JSON (a deep copy: nothing in
    it is shared with the deal). Only the seat's views and the actions as it saw them go
    in: its first view showing cards (for ``hand_dealt``: :func:`first_hand`, unless the
    caller kept it) and its view now."""
    if not hand_dealt:
        hand_dealt = first_hand(deal, seat)
    info: JSON = {
        "format": FORMAT,
        "version": VERSION,
        "game": deal.rules.name,
        "options": dict(deal.options),
        "seats": list(deal.seat_names),
        "dealer": deal.dealer,
        "seat": seat,
        "hand_dealt": list(hand_dealt),
        "view": deal.view(seat),
        "actions": [
            [actor, deal.action_seen_by(index, seat)]
            for index, (actor, _) in enumerate(deal.history)
        ],
        "match": dict(match or {}),
    }
    copied: JSON = json.loads(json.dumps(info))
    return copied


def first_hand(deal: Deal, seat: int) -> list[str]:
    """The seat's hand as its first view showing cards showed it: at position 0, or (a
    deal whose seats choose their packets after the deal) once it held cards."""
    first = deal.rules.new_deal(deal.dealt, deal.options, deal.seat_names, deal.dealer)
    hand = list(first.view(seat)["hand"])
    for actor, text in deal.actions():
        if hand:
            break
        first.act(actor, text)
        hand = list(first.view(seat)["hand"])
    return hand
