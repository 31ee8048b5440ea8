"""Doppen's refusals as data: the error code and the English and German text for every
rule code the trick core, a play restriction, the auction, the talon or the discards give.

>>> error = play_error("follow_suit", suit="H", card="T5")
>>> error.code, error.message
('farbzwang', 'Farbzwang: Herz was led and you hold Herz')
>>> refusal("discard", "never", card="HK").code
'discard_honour'
"""

from __future__ import annotations

from server.engine.errors import IllegalActionError, PlayErrors

#: The rules text's words: "Wenn Trumpf angespielt wurde, muss Trumpf bedient werden".
SUIT_NAMES = {"T": "Trumpf", "H": "Herz", "Ka": "Karo", "P": "Pik", "Kr": "Kreuz"}

#: rule code → (error code, English text, German text) of the game's own rules, on top of
#: the shared ones; ``{suit}``: the led suit's name, ``{card}``: the card.
PLAY_ERRORS: dict[str, tuple[str, str, str]] = {
    "follow_trump": (
        "tarockzwang",
        "Trumpfzwang: a trump was led and you hold a trump",
        "Trumpfzwang: {suit} ist ausgespielt und du hast {suit}",
    ),
    "must_trump": (
        "trumpfzwang",
        "Trumpfzwang: you cannot follow {suit} and must play a trump",
        "Trumpfzwang: du kannst {suit} nicht bedienen und musst stechen",
    ),
    "bird_announced": (
        "bird_announced",
        "An announced Pagat (Uhu) may leave the hand before the last (second-last) trick "
        "only when nothing else is legal, and the Uhu must go to the second-last trick",
        "Ein angesagter Pagat (Uhu) darf vor dem letzten (vorletzten) Stich nur gespielt "
        "werden, wenn nichts anderes erlaubt ist, und der Uhu muss in den vorletzten Stich",
    ),
    "covered": (
        "covered_card",
        "you have put {card} face down: it is played when your turn comes",
        "du hast {card} verdeckt hingelegt: sie wird gespielt, wenn du dran bist",
    ),
}
#: (phase, reason) → (error code, English, German) for the auction, talon and discards.
REFUSALS: dict[tuple[str, str], tuple[str, str, str]] = {
    ("auction", "no_holding"): (
        "no_holding",
        "only a player earlier in order than the high bidder may hold",
        "halten darf nur, wer in der Reihe vor dem Höchstbietenden sitzt",
    ),
    ("auction", "bid_too_low"): (
        "bid_too_low",
        "a bid must be higher than the last one",
        "ein Gebot muss höher sein als das letzte",
    ),
    ("auction", "not_after"): (
        "unterer_only_over_dreier",
        "the Unterer may only raise a Dreier",
        "der Unterer ist nur als Steigerung eines Dreiers erlaubt",
    ),
    ("talon", "choice"): (
        "bad_talon_choice",
        "{card} is not a choice of this game's talon",
        "{card} ist keine Wahl aus dem Talon dieses Spiels",
    ),
    ("discard", "never"): (
        "discard_honour",
        "Könige and Trull cards may never be discarded",
        "Könige und Trullstücke dürfen nie gedrückt werden",
    ),
    ("discard", "forced_only"): (
        "discard_trump",
        "trumps may be discarded only when nothing else is left",
        "Trümpfe dürfen nur gedrückt werden, wenn keine andere Möglichkeit besteht",
    ),
    ("discard", "not_held"): ("card_not_in_hand", "you do not hold {card}", "du hast {card} nicht"),
    ("announce", "pagat"): (
        "no_pagat",
        "only the holder of the Pagat (T1) may announce it",
        "den Pagat (T1) darf nur ansagen, wer ihn hält",
    ),
    ("announce", "uhu"): (
        "no_uhu",
        "only the holder of the Uhu (T2) may announce it",
        "den Uhu (T2) darf nur ansagen, wer ihn hält",
    ),
    ("announce", "valat"): (
        "valat_declarer_only",
        "only the declarer may announce a Valat",
        "Valat darf nur der Alleinspieler ansagen",
    ),
    ("announce", "twice"): (
        "announced_twice",
        "that has been announced already",
        "das ist schon angesagt",
    ),
    ("play", "cover"): (
        "no_cover",
        "a card may be put face down only by the second opponent, on the declarer's lead, "
        "with a card that beats it",
        "verdeckt hinlegen darf nur der zweite Gegenspieler, wenn der Alleinspieler "
        "angespielt hat, mit einer Karte, die den Stich gewinnt",
    ),
}


play_error = PlayErrors(SUIT_NAMES, PLAY_ERRORS)


def refusal(phase: str, reason: str, *, card: str = "") -> IllegalActionError:
    """The error for ``reason`` in ``phase`` (see :data:`REFUSALS`)."""
    code, en, de = REFUSALS[(phase, reason)]
    return IllegalActionError(code, en.format(card=card), de.format(card=card))
