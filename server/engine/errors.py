"""Engine errors: every one carries a stable code and a message in English and German.

As in python-chess, malformed input and illegal input are different errors:

* :class:`MalformedError`: the text cannot be read at all (an unknown card, an unknown
  action word, a broken record).
* :class:`IllegalActionError`: the text is understood, but the rules forbid it now
  (out of turn, Farbzwang, a bid too low …). The message names the rule.
* :class:`RecordError`: a deal record cannot be loaded; ``where`` names the position in
  the record (``"hands[1][4]"``, ``"actions[17]"``) and the cause is kept.

A refused card is explained from the rule code the trick core gives (:class:`PlayErrors`:
each game's table of codes and texts on top of the ones every trick game shares).
"""

from __future__ import annotations

from collections.abc import Mapping


class EngineError(ValueError):
    """Base class: a stable machine-readable ``code`` plus an English and a German text."""

    def __init__(self, code: str, message: str, message_de: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.message_de = message_de if message_de is not None else message

    def to_json(self) -> dict[str, str]:
        """Return the error as a JSON-ready mapping (code, English and German message)."""
        return {"code": self.code, "message": self.message, "message_de": self.message_de}


class MalformedError(EngineError):
    """The input could not be parsed."""


class IllegalActionError(EngineError):
    """The input is well-formed but the rules do not allow it in this position."""


class RecordError(EngineError):
    """A deal record is invalid; ``where`` points at the offending part of the record."""

    def __init__(self, where: str, cause: EngineError) -> None:
        super().__init__(
            cause.code,
            f"{where}: {cause.message}",
            f"{where}: {cause.message_de}",
        )
        self.where = where
        self.cause = cause


#: rule code → (error code, English text, German text) shared by every trick game;
#: ``{suit}`` is the led suit's name, ``{card}`` the card.
COMMON_PLAY_ERRORS: dict[str, tuple[str, str, str]] = {
    "not_held": ("card_not_in_hand", "you do not hold {card}", "du hast {card} nicht"),
    "follow_suit": (
        "farbzwang",
        "Farbzwang: {suit} was led and you hold {suit}",
        "Farbzwang: {suit} ist ausgespielt und du hast {suit}",
    ),
}
#: Why a card cannot be taken back (see :mod:`server.engine.tricks`, "Taking back a
#: card"): rule code → (error code, English text, German text); a game adds its own.
TAKE_BACK_ERRORS: dict[str, tuple[str, str, str]] = {
    "off": (
        "take_back_off",
        "taking back a card is not allowed in this room",
        "Karten zurücknehmen ist in diesem Raum nicht erlaubt",
    ),
    "no_open_trick": (
        "take_back_not_now",
        "there is no card to take back now",
        "jetzt gibt es keine Karte zurückzunehmen",
    ),
    "trick_complete": (
        "take_back_trick_complete",
        "the trick is complete: its cards stay where they are",
        "der Stich ist vollständig: seine Karten bleiben liegen",
    ),
    "not_last_card": (
        "take_back_not_last",
        "only the last card played may be taken back, by its player, before anyone acts after it",
        "nur die zuletzt gespielte Karte kann zurückgenommen werden, von dem, der sie "
        "gespielt hat, bevor danach jemand etwas tut",
    ),
}


def take_back_error(
    rule: str, own: Mapping[str, tuple[str, str, str]] | None = None
) -> IllegalActionError:
    """The error for a refused take-back (``rule``: a key of :data:`TAKE_BACK_ERRORS` or of
    the game's ``own`` table).

    >>> take_back_error("off").code
    'take_back_off'
    """
    code, en, de = {**TAKE_BACK_ERRORS, **(own or {})}[rule]
    return IllegalActionError(code, en, de)


#: A rule code nobody named (the card is simply not among the legal ones).
ILLEGAL_CARD = (
    "illegal_card",
    "{card} may not be played now",
    "{card} darf jetzt nicht gespielt werden",
)


class PlayErrors:
    """A game's explanations of a refused card, as data: its suits' names and its table of
    rule codes (on top of :data:`COMMON_PLAY_ERRORS`); called with a rule code it gives the
    error, its texts filled in with the led suit and the card.

    >>> explain = PlayErrors({"H": "Herz"}, {"must_beat": ("stichzwang", "beat it", "stich")})
    >>> error = explain("follow_suit", suit="H", card="T5")
    >>> error.code, error.message_de
    ('farbzwang', 'Farbzwang: Herz ist ausgespielt und du hast Herz')
    >>> explain("must_beat", suit=None, card="H4").code, explain("what", suit=None, card="H4").code
    ('stichzwang', 'illegal_card')
    """

    def __init__(
        self, suit_names: Mapping[str, str], own: Mapping[str, tuple[str, str, str]]
    ) -> None:
        self.suit_names = dict(suit_names)
        self.table: dict[str, tuple[str, str, str]] = {**COMMON_PLAY_ERRORS, **own}

    def __call__(self, rule: str, *, suit: str | None, card: str) -> IllegalActionError:
        """The error for rule code ``rule`` (``suit``: the led suit's code, if any)."""
        code, en, de = self.table.get(rule, ILLEGAL_CARD)
        name = self.suit_names[suit] if suit is not None else ""
        return IllegalActionError(
            code, en.format(suit=name, card=card), de.format(suit=name, card=card)
        )
