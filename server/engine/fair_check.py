"""Checking a downloaded match record's fair shuffling offline (``stammtisch verify``).

A match record (``docs/record-format.md``, "The match record" and "Fair shuffling")
carries the commitment, the players' seeds and the revealed seed of each finished deal.
:func:`verify_match` checks that every seed hashes back to the commitment at its place and
that shuffling each deal again with it and the players' seeds gives exactly the deal's
hands and talon; then that each deal record replays. The first failure is raised as
:class:`FairCheckError`, naming the deal.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from server.engine.errors import EngineError
from server.engine.fair import VERSION, parse_player_seed, parse_seed, sha256
from server.engine.record import load_record
from server.engine.registry import get_rules

MATCH_FORMAT = "stammtisch-match"


class FairCheckError(ValueError):
    """The record fails the check; the message says where (``deal 3: …``)."""


@dataclass(frozen=True, slots=True)
class FairReport:
    """What a passed check covered: the game, the deals checked against the chain and the
    players' seeds, and the deals after the chain's end (dealt without it)."""

    game: str
    checked: int
    uncovered: int
    players_with_seeds: int
    players: int


def verify_match(record: Mapping[str, Any]) -> FairReport:
    """Check the fair shuffling of a match record; raise :class:`FairCheckError`.

    >>> verify_match({"format": "stammtisch-match", "version": 1, "game": "dreierles",
    ...               "players": [], "deals": []})
    Traceback (most recent call last):
    ...
    server.engine.fair_check.FairCheckError: the record has no fair shuffling (field 'fair')
    """
    if record.get("format") != MATCH_FORMAT or record.get("version") != 1:
        raise FairCheckError(f"not a match record ('{MATCH_FORMAT}', version 1)")
    fair = record.get("fair")
    if not isinstance(fair, Mapping):
        raise FairCheckError("the record has no fair shuffling (field 'fair')")
    if fair.get("version") != VERSION:
        raise FairCheckError(f"fair shuffling version {fair.get('version')!r} is unknown")
    players = record.get("players")
    deals = record.get("deals")
    seeds = fair.get("seeds")
    length = fair.get("length")
    player_seeds_raw = fair.get("player_seeds")
    if not isinstance(players, list) or not isinstance(deals, list):
        raise FairCheckError("the record needs 'players' and 'deals'")
    if not isinstance(seeds, list) or not isinstance(length, int) or length < 1:
        raise FairCheckError("'fair' needs 'seeds' (a list) and 'length' (a number from 1)")
    try:
        commitment = parse_seed(fair.get("commitment"))
    except ValueError:
        raise FairCheckError("fair.commitment is not 64 lowercase hex digits") from None
    if not isinstance(player_seeds_raw, list) or len(player_seeds_raw) != len(players):
        raise FairCheckError("fair.player_seeds needs one entry per player")
    try:
        player_seeds = [parse_player_seed(seed) for seed in player_seeds_raw]
    except ValueError:
        raise FairCheckError("fair.player_seeds: each is 64 lowercase hex digits or ''") from None
    if len(seeds) != min(len(deals), length):
        raise FairCheckError(
            f"fair.seeds has {len(seeds)} seeds for {len(deals)} deals (chain length {length})"
        )
    game = record.get("game")
    before = commitment  # s_{i-1}
    for index, deal in enumerate(deals):
        number = index + 1
        where = f"deal {number}"
        if not isinstance(deal, Mapping) or deal.get("game") != game:
            raise FairCheckError(f"{where}: not a deal record of {game}")
        if index >= len(seeds):
            break  # after the chain's end: dealt without it
        try:
            seed = parse_seed(seeds[index])
        except ValueError:
            raise FairCheckError(f"{where}: its seed is not 64 lowercase hex digits") from None
        if sha256(seed) != before:
            above = "the commitment" if number == 1 else f"the seed of deal {number - 1}"
            raise FairCheckError(f"{where}: its seed does not hash to {above}")
        before = seed
        _check_cards(where, deal, seed, player_seeds)
    return FairReport(
        game=str(game),
        checked=len(seeds),
        uncovered=len(deals) - len(seeds),
        players_with_seeds=sum(1 for seed in player_seeds if seed),
        players=len(players),
    )


def _check_cards(where: str, deal: Mapping[str, Any], seed: bytes, players: list[bytes]) -> None:
    """The deal's hands and talon must be exactly the shuffle's, and the record replay."""
    try:
        rules = get_rules(str(deal.get("game")))
        hands, talon = deal.get("hands"), deal.get("talon")
        if not isinstance(hands, list) or not isinstance(talon, list):
            raise FairCheckError(f"{where}: the record needs 'hands' and 'talon'")
        pack = rules.pack
        shuffled = rules.fair_deal(seed, players)
        names = deal.get("seats") if isinstance(deal.get("seats"), list) else None
        if len(hands) != len(shuffled.hands):
            raise FairCheckError(f"{where}: {len(hands)} hands, the shuffle deals "
                                 f"{len(shuffled.hands)}")  # fmt: skip
        for seat, (codes, mask) in enumerate(zip(hands, shuffled.hands, strict=True)):
            got = sorted(pack.parse(code) for code in codes)
            if got != sorted(c for c in range(len(pack)) if mask >> c & 1):
                name = f" ({names[seat]})" if names and seat < len(names) else ""
                raise FairCheckError(
                    f"{where}: the hand of seat {seat}{name} is not the one the seeds deal "
                    f"(the shuffle gives {' '.join(pack.codes(mask))})"
                )
        if [pack.parse(code) for code in talon] != list(shuffled.talon):
            raise FairCheckError(
                f"{where}: the talon is not the one the seeds deal (the shuffle gives "
                f"{' '.join(pack.code(c) for c in shuffled.talon)})"
            )
        load_record(dict(deal))
    except EngineError as exc:
        raise FairCheckError(f"{where}: {exc.message}") from None
    except (TypeError, AttributeError):
        raise FairCheckError(f"{where}: a card is not written as a text") from None
