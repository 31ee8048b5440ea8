"""Doppelkopf's explanations of an illegal card, as data: the error code and the English and
German text for every rule code the trick core gives (on top of the shared ones of
:data:`~server.engine.errors.COMMON_PLAY_ERRORS`: ``card_not_in_hand``, ``farbzwang``).

A card is named by its kind (``H10``, not ``H10.2``): which copy a player holds is the
engine's bookkeeping, not the table's (see :mod:`.deal`).

>>> error = play_error("follow_suit", suit="H", card="H10.2")
>>> error.code, error.message
('farbzwang', 'Farbzwang: Herz was led and you hold Herz')
>>> play_error("same_kind", suit=None, card="SQ.2").message
'play SQ by its kind: the two copies are one move'
"""

from __future__ import annotations

from server.engine.errors import IllegalActionError, PlayErrors

SUIT_NAMES = {"C": "Kreuz", "S": "Pik", "H": "Herz", "D": "Karo"}

#: rule code → (error code, English text, German text) of the game's own rules, on top of
#: the shared ones; ``{suit}`` is the led suit's name, ``{card}`` the card's kind.
PLAY_ERRORS: dict[str, tuple[str, str, str]] = {
    "follow_trump": (
        "trumpf_bedienen",
        "Trumpf was led and you hold trumps",
        "Trumpf ist ausgespielt und du hast Trumpf",
    ),
    # the trick core's restriction: of a kind held twice only the lower copy is a move
    "same_kind": (
        "same_kind",
        "play {card} by its kind: the two copies are one move",
        "spiele {card} mit seinem Namen: beide Exemplare sind ein Zug",
    ),
}


class KindPlayErrors(PlayErrors):
    """:class:`PlayErrors` that name a card by its kind (``H10.2`` → ``H10``)."""

    def __call__(self, rule: str, *, suit: str | None, card: str) -> IllegalActionError:
        """The error for rule code ``rule``, the card named by its kind."""
        return super().__call__(rule, suit=suit, card=card.partition(".")[0])


play_error = KindPlayErrors(SUIT_NAMES, PLAY_ERRORS)
