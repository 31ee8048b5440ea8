"""Dreierles' explanations of an illegal card, as data: the error code and the English and
German text for every rule code the trick core or a contract's play rule gives.

The codes are the stable ones Dreierles has always used (``farbzwang``, ``trumpfzwang``,
``pfeife_third_trick`` …); the texts name the rule, filled in with the led suit and card,
in the rules text's words: the trumps are Trümpfe, the highest the Stieß, Trumpf 1 the
Pfeife (not Tarock, Sküs, Pagat, Mond).

>>> error = play_error("follow_suit", suit="H", card="T5")
>>> error.code, error.message
('farbzwang', 'Farbzwang: Herz was led and you hold Herz')
>>> play_error("pfeife_before_third_trick", suit=None, card="T1").code
'pfeife_before_third_trick'
"""

from __future__ import annotations

from server.engine.errors import PlayErrors

SUIT_NAMES = {"T": "Trumpf", "H": "Herz", "Ka": "Karo", "P": "Pik", "Kr": "Kreuz"}

#: rule code → (error code, English text, German text) of the game's own rules, on top of
#: the shared ones; ``{suit}`` is the led suit's name, ``{card}`` the card.
PLAY_ERRORS: dict[str, tuple[str, str, str]] = {
    "follow_trump": (
        "tarockzwang",
        "Trumpfzwang: a trump was led and you hold a trump",
        "Trumpfzwang: Trumpf ist ausgespielt und du hast Trumpf",
    ),
    "must_trump": (
        "trumpfzwang",
        "Trumpfzwang: you cannot follow {suit} and must play a trump",
        "Trumpfzwang: du kannst {suit} nicht bedienen und musst stechen",
    ),
    "pfeife_third_trick": (
        "pfeife_third_trick",
        "Räuber: the Pfeife (trump 1) must be played to the third trick",
        "Räuber: die Pfeife (Trumpf 1) muss zum dritten Stich gespielt werden",
    ),
    "pfeife_before_third_trick": (
        "pfeife_before_third_trick",
        "Räuber: the Pfeife (trump 1) belongs to the third trick; before it, only when "
        "it is your only legal card",
        "Räuber: die Pfeife (Trumpf 1) gehört in den dritten Stich; vorher nur, wenn "
        "keine andere Karte erlaubt ist",
    ),
    "mond_on_skus": (
        "mond_on_skus",
        "Räuber: trump 21 may not go onto the Stieß while you hold another trump",
        "Räuber: Trumpf 21 darf nicht auf den Stieß, solange du anderen Trumpf hast",
    ),
    "pfeife_announced": (
        "pfeife_announced",
        "the announced Pfeife may be played before the last trick "
        "only when it is your only legal card",
        "die angesagte Pfeife darf vor dem letzten Stich nur gespielt werden, "
        "wenn keine andere Karte erlaubt ist",
    ),
}
play_error = PlayErrors(SUIT_NAMES, PLAY_ERRORS)
