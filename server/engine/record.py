"""The deal record: a versioned JSON document from which a deal replays exactly.

See ``docs/record-format.md`` for the format. Loading is strict: every problem is reported
as a :class:`RecordError` whose ``where`` names the position in the record (``"hands[1][4]"``,
``"actions[17]"``) and whose message names the rule that was broken.

>>> import random
>>> from server.engine.registry import get_rules
>>> rules = get_rules("dreierles")
>>> deal = rules.new_deal(rules.shuffle_and_deal(random.Random(7)), seats=["A", "B", "C"])
>>> moves = [deal.act(seat, text) for seat, text in [(0, "pass"), (1, "bid dreier"), (2, "pass")]]
>>> deal.actions()
[(0, 'pass'), (1, 'bid dreier'), (2, 'pass')]
>>> again = load_record(dump_record(deal))
>>> again.actions() == deal.actions(), again.phase, again.to_move
(True, 'discard', 1)
"""

from __future__ import annotations

import itertools
import json
import re
from typing import Any

from server.engine.base import JSON, Deal, Dealt
from server.engine.errors import EngineError, MalformedError, RecordError
from server.engine.registry import get_rules

FORMAT = "stammtisch-deal"
VERSION = 1
KEYS = {
    "format",
    "version",
    "game",
    "options",
    "seats",
    "dealer",
    "stake_cents",
    "hands",
    "talon",
    "actions",
    "outcome",
    "stood_in",
}
REQUIRED = ("format", "version", "game", "seats", "dealer", "hands", "talon", "actions")


def _bad(where: str, code: str, en: str, de: str) -> RecordError:
    return RecordError(where, MalformedError(code, en, de))


def dump_record(deal: Deal, *, stake_cents: int = 0, with_outcome: bool = True) -> JSON:
    """Return the record of ``deal`` (finished or not) as a JSON-ready dict."""
    pack = deal.rules.pack
    record: JSON = {
        "format": FORMAT,
        "version": VERSION,
        "game": deal.rules.name,
        "options": dict(deal.options),
        "seats": list(deal.seat_names),
        "dealer": deal.dealer,
        "stake_cents": stake_cents,
        "hands": [pack.codes(h) for h in deal.dealt.hands],
        "talon": [pack.code(c) for c in deal.dealt.talon],
        "actions": [[seat, text] for seat, text in deal.actions()],
    }
    outcome = deal.outcome()
    if with_outcome and outcome is not None:
        record["outcome"] = outcome
    return record


def parse_record_text(text: str) -> JSON:
    """Parse JSON text into a record dict (only JSON syntax is checked here)."""
    try:
        data: Any = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _bad(
            f"line {exc.lineno} column {exc.colno}",
            "malformed_json",
            f"not valid JSON: {exc.msg}",
            f"kein gültiges JSON: {exc.msg}",
        ) from None
    if not isinstance(data, dict):
        raise _bad(
            "record",
            "malformed_record",
            "a record is a JSON object",
            "ein Datensatz ist ein JSON-Objekt",
        )
    where = _unpaired_surrogate(data)
    if where is not None:
        raise _bad(
            where,
            "bad_text",
            "the text holds an unpaired surrogate (\\ud800-\\udfff), which is no character",
            "der Text enthält ein einzelnes Surrogat (\\ud800-\\udfff), das kein Zeichen ist",
        )
    return data


_SURROGATE = re.compile("[\ud800-\udfff]")


def _unpaired_surrogate(data: Any) -> str | None:
    """The position of a text (a key or a string) in ``data`` that holds an unpaired
    surrogate, which JSON's ``\\u`` escapes can express but no text can carry (a key: the
    object that has it); else None. Read without recursion, however deep ``data`` is."""
    stack: list[tuple[str, Any]] = [("", data)]
    while stack:
        where, value = stack.pop()
        if isinstance(value, str):
            if _SURROGATE.search(value):
                return where or "record"
        elif isinstance(value, list):
            stack.extend((f"{where}[{i}]", item) for i, item in reversed(list(enumerate(value))))
        elif isinstance(value, dict):
            if any(_SURROGATE.search(key) for key in value):
                return where or "record"
            for key, item in reversed(value.items()):
                name = key if len(key) <= 40 else f"{key[:40]}…"
                stack.append((f"{where}.{name}" if where else name, item))
    return None


def load_record(record: JSON, *, check_outcome: bool = True) -> Deal:
    """Rebuild and replay the deal of ``record``; raise :class:`RecordError` on any problem.

    When the record carries an ``outcome`` and ``check_outcome`` is true, the replayed
    outcome must be identical to it, read in today's form (:meth:`Rules.stored_outcome`:
    a record stored before a game's outcome changed form still loads).
    """
    for key in record:
        if key not in KEYS:
            raise _bad(key, "unknown_field", f"unknown field '{key}'", f"unbekanntes Feld '{key}'")
    for key in REQUIRED:
        if key not in record:
            raise _bad(
                key, "missing_field", f"the field '{key}' is missing", f"das Feld '{key}' fehlt"
            )
    if record["format"] != FORMAT:
        raise _bad(
            "format", "wrong_format", f"format must be '{FORMAT}'", f"format muss '{FORMAT}' sein"
        )
    if record["version"] != VERSION:
        raise _bad(
            "version",
            "unsupported_version",
            f"version {record['version']!r} is not supported (this engine reads {VERSION})",
            f"Version {record['version']!r} wird nicht unterstützt (lesbar: {VERSION})",
        )
    try:
        rules = get_rules(_expect(record, "game", str))
    except MalformedError as exc:
        raise RecordError("game", exc) from None
    seats = _expect(record, "seats", list)
    if len(seats) != rules.seats or not all(isinstance(s, str) and s.strip() for s in seats):
        raise _bad(
            "seats",
            "bad_seats",
            f"{rules.title} needs {rules.seats} seat names",
            f"{rules.title} braucht {rules.seats} Sitznamen",
        )
    dealer = _expect(record, "dealer", str)
    stake = record.get("stake_cents", 0)
    if type(stake) is not int or stake < 0:
        raise _bad(
            "stake_cents",
            "bad_stake",
            "stake_cents must be a whole number ≥ 0",
            "stake_cents muss eine ganze Zahl ≥ 0 sein",
        )
    options = record.get("options", {})
    if not isinstance(options, dict):
        raise _bad(
            "options",
            "malformed_record",
            "options must be an object",
            "options muss ein Objekt sein",
        )
    dealt = _read_cards(rules.pack, record, rules.seats, rules.hand_size, rules.talon_size)
    try:
        deal: Deal = rules.new_deal(dealt, options, seats, dealer)
    except MalformedError as exc:
        where = "options" if exc.code in ("unknown_option", "bad_option") else "dealer"
        raise RecordError(where, exc) from None
    actions = _expect(record, "actions", list)
    for i, entry in enumerate(actions):
        where = f"actions[{i}]"
        if (
            not isinstance(entry, list)
            or len(entry) != 2
            or type(entry[0]) is not int
            or not isinstance(entry[1], str)
        ):
            raise _bad(
                where,
                "malformed_action",
                'an action is [seat, "text"]',
                'eine Aktion ist [Sitz, "Text"]',
            )
        seat, text = entry
        if not 0 <= seat < rules.seats:
            raise _bad(where, "bad_seat", f"there is no seat {seat}", f"es gibt keinen Sitz {seat}")
        try:
            deal.act(seat, text)
        except EngineError as exc:
            raise RecordError(f"{where} ({seat}, '{text}')", exc) from None
    stood_in(record)
    if check_outcome and "outcome" in record:
        replayed = deal.outcome()
        if replayed is None:
            raise _bad(
                "outcome",
                "outcome_mismatch",
                "the record has an outcome but its actions do not finish the deal",
                "der Datensatz hat ein Ergebnis, aber die Aktionen beenden das Spiel nicht",
            )
        stored = rules.stored_outcome(record["outcome"])
        if json.loads(json.dumps(replayed)) != stored:
            raise _bad(
                "outcome",
                "outcome_mismatch",
                "the stored outcome differs from the replayed one",
                "das gespeicherte Ergebnis weicht vom nachgespielten ab",
            )
    return deal


def stood_in(record: JSON) -> list[int]:
    """The indexes into ``actions`` of the moves a stand-in ("Vertretung") made for an
    absent person (the optional ``stood_in``: ascending, each an action of the record);
    ``[]`` when the record has none. Raises :class:`RecordError` (``bad_stood_in``).

    >>> stood_in({"actions": [[0, "pass"], [1, "pass"]], "stood_in": [1]})
    [1]
    >>> stood_in({"actions": [[0, "pass"]], "stood_in": [1]})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    server.engine.errors.RecordError: stood_in: ...
    """
    indexes = record.get("stood_in", [])
    count = len(record.get("actions", []))
    if (
        not isinstance(indexes, list)
        or not all(type(i) is int and 0 <= i < count for i in indexes)
        or any(a >= b for a, b in itertools.pairwise(indexes))
    ):
        raise _bad(
            "stood_in",
            "bad_stood_in",
            "stood_in lists the indexes of actions in ascending order",
            "stood_in nennt Nummern von Aktionen in aufsteigender Folge",
        )
    return list(indexes)


def _expect(record: JSON, key: str, kind: type) -> Any:
    value = record[key]
    if not isinstance(value, kind):
        raise _bad(
            key,
            "malformed_record",
            f"'{key}' must be a {kind.__name__}",
            f"'{key}' muss vom Typ {kind.__name__} sein",
        )
    return value


def _read_cards(pack: Any, record: JSON, seats: int, hand_size: int, talon_size: int) -> Dealt:
    """Read hands and talon, naming the exact position of any bad, duplicated or missing card."""
    seen: dict[int, str] = {}

    def read(where: str, codes: object, size: int) -> list[int]:
        if not isinstance(codes, list):
            raise _bad(
                where,
                "malformed_record",
                "a card list must be a JSON array",
                "eine Kartenliste muss ein JSON-Array sein",
            )
        if len(codes) != size:
            raise _bad(
                where,
                "wrong_card_count",
                f"{len(codes)} cards, the game deals {size}",
                f"{len(codes)} Karten, das Spiel gibt {size}",
            )
        cards = []
        for j, code in enumerate(codes):
            pos = f"{where}[{j}]"
            if not isinstance(code, str):
                raise _bad(
                    pos,
                    "unknown_card",
                    "a card is written as a string",
                    "eine Karte wird als Text geschrieben",
                )
            try:
                card = pack.parse(code)
            except MalformedError as exc:
                raise RecordError(pos, exc) from None
            if card in seen:
                raise _bad(
                    pos,
                    "duplicate_card",
                    f"{pack.code(card)} was already dealt at {seen[card]}",
                    f"{pack.code(card)} wurde schon bei {seen[card]} gegeben",
                )
            seen[card] = pos
            cards.append(card)
        return cards

    hands_raw = _expect(record, "hands", list)
    if len(hands_raw) != seats:
        raise _bad(
            "hands",
            "wrong_card_count",
            f"{len(hands_raw)} hands, the game has {seats}",
            f"{len(hands_raw)} Blätter, das Spiel hat {seats}",
        )
    hands = []
    for i, codes in enumerate(hands_raw):
        mask = 0
        for c in read(f"hands[{i}]", codes, hand_size):
            mask |= 1 << c
        hands.append(mask)
    talon = read("talon", record["talon"], talon_size)
    missing = [pack.code(c) for c in range(len(pack)) if c not in seen]
    if missing:
        raise _bad(
            "hands",
            "missing_card",
            f"cards missing from the deal: {' '.join(missing)}",
            f"im Spiel fehlen Karten: {' '.join(missing)}",
        )
    return Dealt(tuple(hands), tuple(talon))
