"""Tarock zu dritt's refusals as data: the error code and the English and German text for
every rule code the trick core, the auction, the talon or a play rule gives.

>>> error = play_error("must_beat", suit="H", card="H4")
>>> error.code, error.message
('stichzwang', 'Stichzwang: you must take the trick if you can')
>>> auction_error("no_join", high="dreier").code
'no_join'
"""

from __future__ import annotations

from server.engine.errors import IllegalActionError, PlayErrors

SUIT_NAMES = {"T": "Tarock", "H": "Herz", "Ka": "Karo", "P": "Pik", "Kr": "Kreuz"}

#: rule code → (error code, English text, German text) of the game's own rules, on top of
#: the shared ones; ``{suit}`` is the led suit's name, ``{card}`` the card.
PLAY_ERRORS: dict[str, tuple[str, str, str]] = {
    "follow_trump": (
        "tarockzwang",
        "Tarockzwang: Tarock was led and you hold Tarock",
        "Tarockzwang: Tarock ist ausgespielt und du hast Tarock",
    ),
    "must_trump": (
        "tarockzwang",
        "Tarockzwang: you cannot follow {suit} and must play a Tarock",
        "Tarockzwang: du kannst {suit} nicht bedienen und musst Tarock spielen",
    ),
    "must_beat": (
        "stichzwang",
        "Stichzwang: you must take the trick if you can",
        "Stichzwang: du musst stechen, wenn du kannst",
    ),
    "lead_first": (
        "farbausspielzwang",
        "Farbausspielzwang: no Tarock lead while you hold suit cards",
        "Farbausspielzwang: kein Tarock ausspielen, solange du Farbkarten hast",
    ),
    "pagat_last": (
        "pagat_last",
        "the Pagat (T1) is your last Tarock, unless it makes the Kaiserstich",
        "der Pagat (T1) ist dein letztes Tarock, außer er macht den Kaiserstich",
    ),
    "kaiserstich": (
        "stichzwang",
        "Stichzwang: the Pagat (T1) takes this trick with the Kaiserstich",
        "Stichzwang: der Pagat (T1) macht hier den Kaiserstich",
    ),
    "bird_kept": (
        "bird_kept",
        "an announced bird is kept for its trick; forced out, the highest goes first",
        "ein angesagter Vogel bleibt für seinen Stich; erzwungen, dann der höchste zuerst",
    ),
}
play_error = PlayErrors(SUIT_NAMES, PLAY_ERRORS)


#: auction refusal code → (English, German); ``{high}`` is the bid to beat.
AUCTION_ERRORS: dict[str, tuple[str, str]] = {
    "bid_too_low": (
        "only a higher game overbids {high}; nobody holds",
        "nur ein höheres Spiel überbietet {high}; es gibt kein Halten",
    ),
    "no_join": (
        "'bei' joins only the same negative game, once",
        "'-bei' geht nur zum gleichen Negativspiel, einmal",
    ),
    "no_holding": ("nobody holds in Tarock zu dritt", "im Tarock zu dritt gibt es kein Halten"),
    "vorhand_must_speak": (
        "Vorhand opens with 'Vorhand!' or names a game",
        "Die Vorhand sagt 'Vorhand!' oder gleich ein Spiel an",
    ),
    "vorhandspiel_only": (
        "a Vorhandspiel is chosen only by Vorhand after both others passed",
        "Ein Vorhandspiel wählt nur die Vorhand, wenn beide anderen weiter gesagt haben",
    ),
    "not_vorhand": ("only Vorhand opens with 'Vorhand!'", "Nur die Vorhand sagt 'Vorhand!'"),
    "vorhand_first_call": (
        "'Vorhand!' is only your first call; now name a higher game or pass",
        "'Vorhand!' sagst du nur als erstes; jetzt ein höheres Spiel oder weiter",
    ),
    "choose_vorhandspiel": (
        "after 'Vorhand!' and two passes Vorhand chooses Trischaken or the Sechserdreier",
        "Nach 'Vorhand!' und zweimal weiter wählt die Vorhand Trischaken oder den Sechserdreier",
    ),
    "unknown_bid": ("that is not a game to bid", "das ist kein Spiel zum Lizitieren"),
}


def auction_error(code: str, *, high: str) -> IllegalActionError:
    """The error for an auction refusal ``code``."""
    en, de = AUCTION_ERRORS.get(code, AUCTION_ERRORS["unknown_bid"])
    return IllegalActionError(code, en.format(high=high), de.format(high=high))


#: Refusals of the talon, discard and announcement phases: code → (English, German).
OTHER_ERRORS: dict[str, tuple[str, str]] = {
    "discard_honour": (
        "Könige and the Trull may never be laid away",
        "Könige und Trullstücke dürfen nie abgelegt werden",
    ),
    "discard_tarock": (
        "Tarock may be laid away only when nothing else is left (then face up)",
        "Tarock darf nur verlegt werden, wenn es nicht anders geht (dann offen)",
    ),
    "discard_suit": (
        "in a Farbenspiel Tarock is laid away; suit cards only when forced (face up)",
        "im Farbenspiel wird Tarock verlegt; Farbkarten nur wenn erzwungen (offen)",
    ),
    "not_held": ("you do not hold that card", "diese Karte hast du nicht"),
    "bad_talon_choice": (
        "that part of the talon cannot be taken in this game",
        "diesen Teil des Talons darf man in diesem Spiel nicht nehmen",
    ),
    "bird_not_held": (
        "a bird is announced only by its holder",
        "Vögel muss man selbst im Blatt haben",
    ),
    "premium_not_allowed": (
        "this premium cannot be announced in this game",
        "dieser Zusatz kann in diesem Spiel nicht angesagt werden",
    ),
    "premium_twice": ("this premium is already announced", "dieser Zusatz ist schon angesagt"),
    "sack_first": (
        "the Doppelsack follows the own side's Sack",
        "der Doppelsack folgt dem Sack der eigenen Partei",
    ),
}


def other_error(code: str) -> IllegalActionError:
    """The error for a refusal of the talon, discard or announcement phases."""
    en, de = OTHER_ERRORS[code]
    return IllegalActionError(code, en, de)
