"""Tarock zu dritt's own rules of play, as hooks of the trick core
(:class:`~server.engine.tricks.TrickPlay`): the Kaiserstich, the Pagat as the last tarock,
announced birds kept for their trick, the Trischaken talon and the early end of a
negative game. :func:`trick_play` puts them together for a contract row.

The Kaiserstich in any order (TZ-A17): Sküs, Mond and Pagat in one trick, the Pagat wins.

>>> from server.engine.cards import TAROCK
>>> t = TAROCK.parse
>>> kaiserstich(farben=False)([t("T1"), t("T21"), t("SK")], 2)
0
>>> kaiserstich(farben=False)([t("SK"), t("T1"), t("T21")], 0)
1
>>> kaiserstich(farben=False)([t("SK"), t("T2"), t("T21")], 0)
0
>>> kaiserstich(farben=True)([t("T1"), t("T21"), t("SK")], 2)
0
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from server.engine.games.tarock_zu_dritt.contracts import (
    BIRD_CARDS,
    BIRD_TRICKS,
    BIT_PAGAT,
    CONTRACTS,
    SKUS,
    TAROCKS,
    TzdContract,
)
from server.engine.tarock.premiums import MOND, PAGAT, bird_play_mask
from server.engine.tricks import Restriction, TrickPlay


def kaiserstich(*, farben: bool) -> Callable[[Sequence[int], int], int]:
    """The winner override: the Pagat takes a trick holding Sküs and Mond, in any order;
    in a Farbenspiel only when tarock was led."""

    def winner(cards: Sequence[int], best: int) -> int:
        # asked after every trick: the three cards looked for in the (short) trick
        if PAGAT not in cards or MOND not in cards or SKUS not in cards:
            return best
        if farben and not (TAROCKS >> cards[0]) & 1:
            return best
        return list(cards).index(PAGAT)

    return winner


def pagat_last(play: TrickPlay, seat: int, legal: int) -> int:
    """Negative games and Trischaken (TZ-A19): the Pagat is the last tarock, unless it
    makes the Kaiserstich — then Stichzwang forces it."""
    if not legal & BIT_PAGAT:
        return legal
    trick = play.trick
    if MOND in trick and SKUS in trick:
        return BIT_PAGAT if play.rules.stichzwang else legal
    if play.hands[seat] & TAROCKS & ~BIT_PAGAT:
        return legal & ~BIT_PAGAT
    return legal


def birds_kept(announced: Mapping[str, int]) -> Restriction | None:
    """Announced birds are kept for their trick; forced out, the highest first; in its
    trick a bird must be played when it may (TZ-A13, TZ-A14). None when no bird is
    announced (the announcements are closed once play begins)."""
    birds_of: tuple[list[tuple[int, int]], ...] = tuple(
        [
            (BIRD_CARDS[code], BIRD_TRICKS[code])
            for code, who in announced.items()
            if who == seat and code in BIRD_CARDS
        ]
        for seat in range(3)
    )
    if not any(birds_of):
        return None
    bird_masks = tuple(sum(1 << card for card, _trick in birds) for birds in birds_of)

    def rule(play: TrickPlay, seat: int, legal: int) -> int:
        # no announced bird among the legal cards: nothing to keep back or to force (this
        # runs for every card of the announcer)
        if not legal & bird_masks[seat]:
            return legal
        hand = play.hands[seat]
        birds = [bird for bird in birds_of[seat] if (hand >> bird[0]) & 1]
        return bird_play_mask(legal, birds, play.number, must_play_due=True, highest_first=True)

    return ("bird_kept", rule)


def talon_to_tricks(talon: Sequence[int]) -> Callable[[TrickPlay], None]:
    """Trischaken: the talon card of each of the first six tricks, in talon order, goes
    to its winner (TZ-A23)."""

    def after(play: TrickPlay) -> None:
        number = len(play.tricks)
        if number <= len(talon):
            play.won[play.tricks[-1][2]] |= 1 << talon[number - 1]

    return after


def result_fixed(declarers: Sequence[int], need: int) -> Callable[[TrickPlay], bool]:
    """A negative game ends once every declarer has won or lost (TZ-A21)."""

    def fixed(play: TrickPlay) -> bool:
        left = play.total - len(play.tricks)
        won = play.tricks_won
        return all(won[d] > need or won[d] + left < need for d in declarers)

    return fixed


def trick_play(
    row: TzdContract,
    hands: list[int],
    leader: int,
    *,
    declarers: Sequence[int],
    announced: Mapping[str, int],
    talon: Sequence[int],
    trischaken_stichzwang: bool = True,
) -> TrickPlay:
    """The tricks of a deal of contract ``row`` with the game's hooks."""
    rules = row.trick_rules
    if row.trischaken and not trischaken_stichzwang:
        rules = CONTRACTS["dreier"].trick_rules
    restrictions: list[Restriction] = []
    if row.kind != "positive":
        restrictions.append(("pagat_last", pagat_last))
    birds = birds_kept(announced)
    if birds is not None:
        restrictions.append(birds)
    return TrickPlay(
        rules,
        hands,
        leader=leader,
        tricks=16,
        restrictions=restrictions,
        winner_of=kaiserstich(farben=row.farben),
        after_trick=talon_to_tricks(talon) if row.trischaken else None,
        ends_early=result_fixed(declarers, row.tricks) if row.negative else None,
    )
