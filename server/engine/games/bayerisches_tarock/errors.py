"""Bayerisches Tarock's explanations of a refused action, as data: the error code and the
English and German text for every rule code the trick core, the auction or the game gives.

>>> error = play_error("must_beat", suit="E", card="E7")
>>> error.code, error.message
('stichzwang', 'Stichzwang: you must take the trick if you can')
>>> play_error("follow_suit", suit="G", card="H7").message_de
'Farbzwang: Gras ist ausgespielt und du hast Gras'
"""

from __future__ import annotations

from server.engine.errors import IllegalActionError, PlayErrors

SUIT_NAMES = {"E": "Eichel", "G": "Gras", "H": "Herz", "S": "Schellen"}

#: rule code → (error code, English text, German text) of the game's own rules, on top of
#: the shared ones; ``{suit}`` is the led suit's name, ``{card}`` the card.
PLAY_ERRORS: dict[str, tuple[str, str, str]] = {
    "follow_trump": (
        "farbzwang",
        "Farbzwang: trump ({suit}) was led and you hold a trump",
        "Farbzwang: Trumpf ({suit}) ist ausgespielt und du hast Trumpf",
    ),
    "must_trump": (
        "trumpfzwang",
        "Trumpfzwang: you cannot follow {suit} and must play a trump",
        "Trumpfzwang: du kannst {suit} nicht bedienen und musst Trumpf spielen",
    ),
    "must_beat": (
        "stichzwang",
        "Stichzwang: you must take the trick if you can",
        "Stichzwang: du musst den Stich nehmen, wenn du kannst",
    ),
}
#: auction refusal code → (error code, English text, German text)
AUCTION_ERRORS: dict[str, tuple[str, str, str]] = {
    "bid_too_low": (
        "bid_too_low",
        "you must name a higher level (or hold, if you sit before the high bidder)",
        "du musst höher reizen (oder halten, wenn du vor dem Höchstbietenden sitzt)",
    ),
    "no_holding": (
        "no_holding",
        "only a player seated before the high bidder may hold",
        "halten darf nur, wer vor dem Höchstbietenden sitzt",
    ),
    # without the Reizen everybody names one wish (BT-A2): there is no holding
    "wish_too_low": (
        "bid_too_low",
        "you must wish a higher game than the one wished before you",
        "du musst dir ein höheres Spiel wünschen als das vor dir gewünschte",
    ),
    "no_holding_in_wishes": (
        "no_holding",
        "without the Reizen nobody holds: wish a higher game or pass",
        "ohne Reizen hält niemand: wünsch dir ein höheres Spiel oder passe",
    ),
    "not_first": (
        "open_with_ich_spiele",
        "the Reizen opens with 'Ich spiele'",
        "das Reizen beginnt mit »Ich spiele«",
    ),
    "unknown_bid": (
        "not_in_this_auction",
        "this game cannot be named in this auction",
        "dieses Spiel kann hier nicht angesagt werden",
    ),
    "stock_dealer_only": (
        "stock_dealer_only",
        "Berliner: only the dealer may play with the Stock",
        "Berliner: nur der Geber darf mit dem Stock spielen",
    ),
    "stock_herz_only": (
        "stock_herz_only",
        "a game with the Stock is played only in Herz here",
        "mit Stock wird hier nur in Herz gespielt",
    ),
}


play_error = PlayErrors(SUIT_NAMES, PLAY_ERRORS)


def auction_error(code: str) -> IllegalActionError:
    """The error for an auction refusal ``code`` (:meth:`Auction.explain` or our own)."""
    error, en, de = AUCTION_ERRORS.get(code, AUCTION_ERRORS["bid_too_low"])
    return IllegalActionError(error, en, de)
