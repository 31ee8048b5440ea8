"""The live match behind a table: the engine's match object, the current deal and its ids.

The runtime does not know any game's rules: it gets the engine's match object
(:class:`server.engine.match.Match`) from :func:`server.engine.registry.new_match`, asks it
for the next deal's seats and options, deals with a system random generator, hands
finished deals back and takes the ledger it writes for each (points, money, pots). Recovery
rebuilds the same object by replaying the stored records, which the engine checks action
by action.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from server.engine.base import JSON, Deal
from server.engine.fair import FairMatch
from server.engine.ledger import DealLedger
from server.engine.match import Match
from server.engine.record import dump_record, load_record
from server.engine.registry import get_rules, new_match
from server.store.names import name_key


def unique_names(names: Sequence[str]) -> list[str]:
    """The players' display names made unique within a match: a name alike an earlier
    one (:func:`server.store.names.name_key`: ``Anna``, ``anna``, ``Anna`` with a
    Cyrillic A) gets a number, ``Anna (2)``, chosen so that it is alike no other name of
    the match either. The engine refuses a match whose names are not distinct; this never
    hands it one."""
    taken: set[str] = set()
    out = []
    for index, name in enumerate(names):
        key = name_key(name)
        if key in taken:
            others = {name_key(n) for n in names[index + 1 :]}
            number = 2
            while name_key(candidate := f"{name} ({number})") in taken | others:
                number += 1
            name, key = candidate, name_key(candidate)
        taken.add(key)
        out.append(name)
    return out


@dataclass
class LiveMatch:
    """A running match: engine match, players (names and user ids) and the current deal."""

    match_id: int
    game: str
    players: list[str]
    player_ids: list[int]
    config: dict[str, Any]
    engine: Match[Any]
    deal: Deal | None = None
    deal_id: int = 0
    deal_number: int = 0
    #: the match's fair shuffling (``None``: dealt with the table's random generator)
    fair: FairMatch | None = None
    #: :meth:`fair_json` for a number of finished deals (a few hundred hashes: made once)
    _fair_shown: tuple[int, JSON] | None = field(default=None, repr=False, compare=False)
    _seats: tuple[Deal, dict[int, int]] | None = field(default=None, repr=False, compare=False)

    @property
    def stake_cents(self) -> int:
        """Money per point."""
        return int(self.config["stake_cents"])

    def seat_of(self, user_id: int) -> int | None:
        """The current deal's seat of ``user_id`` (``None``: sits out or is not a player)."""
        deal = self.deal
        if deal is None:
            return None
        cached = self._seats
        if cached is None or cached[0] is not deal:  # asked for every message: once a deal
            names = deal.seat_names
            seats = {user: names.index(name) for user, name in zip(self.player_ids, self.players,
                     strict=True) if name in names}  # fmt: skip
            cached = self._seats = (deal, seats)
        return cached[1].get(user_id)

    def setup(self) -> JSON:
        """How the current deal was set up, as the table announces it: the engine's note
        code and its parameters (``{"note": "replay", "params": {"player": "Bernd",
        "contract": "herz"}}``; ``{"note": None, "params": {}}`` for an ordinary deal)."""
        if self.deal is None or self.engine.finished:
            return {"note": None, "params": {}}
        setup = self.engine.next_setup()  # the deal the engine has not recorded yet
        return {"note": setup.note, "params": dict(setup.note_params)}

    def next_deal(
        self, rng: random.Random, engine: Match[Any] | None = None
    ) -> tuple[Deal, dict[str, Any]]:
        """Shuffle and create the next deal (of ``engine``, by default the match's own);
        return it with its record (no actions yet). With fair shuffling, deal ``n`` is
        dealt from the chain's seed ``n`` and the players' seeds (``rng`` is not used)."""
        rules = get_rules(self.game)
        fair = self.fair
        seed = None if fair is None else fair.seed(self.deal_number + 1)
        if fair is not None and seed is not None:
            dealt = rules.fair_deal(seed, fair.player_seeds)
        else:
            dealt = rules.shuffle_and_deal(rng)
        deal: Deal = (engine or self.engine).start_deal(dealt)
        record = dump_record(deal, stake_cents=self.stake_cents, with_outcome=False)
        del record["actions"]
        return deal, record

    def close_deal(self, deal: Deal, rng: random.Random) -> ClosedDeal:
        """What the end of the finished ``deal`` changes, worked out on a copy of the
        engine's match, which the table takes over (:meth:`take`) only once all of it is
        stored: the sheet with the deal written on it, the points, the pots and the next
        deal (or none: the match is over)."""
        engine = copy.deepcopy(self.engine)
        engine.record(deal)
        following = None if engine.finished else self.next_deal(rng, engine)
        settlement = engine.final_settlement() if engine.finished else None
        return ClosedDeal(engine, engine.last_ledger(), settlement, following)

    def take(self, closed: ClosedDeal, next_id: int | None) -> None:
        """Take over a deal's end once it is stored (``next_id``: the next deal's row)."""
        self.engine = closed.engine
        if closed.following is not None:
            assert next_id is not None
            self.deal_id, self.deal, self.deal_number = (
                next_id, closed.following[0], self.deal_number + 1)  # fmt: skip

    def fair_json(self) -> JSON | None:
        """The fair shuffling as the table shows it: the commitment, the players' seeds and
        ``revealed``, the seed of the last deal whose end is stored (``{"deal", "seed"}``,
        or ``None``); never the seed of a deal that is still on."""
        fair = self.fair
        if fair is None:
            return None
        finished = len(self.engine.ledger.deals)  # deals 1 … finished are over and stored
        shown = self._fair_shown
        if shown is None or shown[0] != finished:
            seed = fair.seed(finished) if finished else None
            revealed = None if seed is None else {"deal": finished, "seed": seed.hex()}
            shown = self._fair_shown = (finished, {**fair.public(), "revealed": revealed})
        return shown[1]

    def ledger(self) -> JSON | None:
        """The ledger of the deal written last (the table shows it with the deal's
        result), or ``None`` before the first deal ends."""
        deals = self.engine.ledger.deals
        return deals[-1].to_json() if deals else None


@dataclass
class ClosedDeal:
    """A finished deal's consequences (see :meth:`LiveMatch.close_deal`)."""

    engine: Match[Any]
    #: the deal's ledger, as the match wrote it
    ledger: DealLedger
    #: the final settlement when the deal ends the match
    settlement: JSON | None
    following: tuple[Deal, dict[str, Any]] | None


def undo_last(deal: Deal) -> Deal:
    """``deal`` as it was before its last action (replayed from its record): what the
    table goes back to when that action could not be stored."""
    record = dump_record(deal, with_outcome=False)
    return load_record({**record, "actions": record["actions"][:-1]})


def rebuild(
    match_id: int,
    game: str,
    players: list[str],
    player_ids: list[int],
    config: dict[str, Any],
    deals: Sequence[tuple[int, int, dict[str, Any], list[tuple[int, str]]]],
    *,
    record_last: bool = True,
    fair: FairMatch | None = None,
) -> LiveMatch:
    """Replay stored deals (id, number, record, actions) into a live match.

    Every finished deal is written on the engine's sheet again (the last one only with
    ``record_last``: recovery closes a finished deal whose end was not stored with
    :meth:`LiveMatch.close_deal`); the last deal becomes the current deal. The engine
    re-checks every action on the way.
    """
    live = LiveMatch(match_id, game, players, player_ids, config,
                     new_match(game, players, config), fair=fair)  # fmt: skip
    for index, (deal_id, number, record, actions) in enumerate(deals):
        deal = load_record({**record, "actions": [list(a) for a in actions]})
        live.deal, live.deal_id, live.deal_number = deal, deal_id, number
        if deal.finished and (record_last or index < len(deals) - 1):
            live.engine.record(deal)
    return live
