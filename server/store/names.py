"""The names people go by (display names of accounts and guests): what a new name may be,
and when two names count as the same.

A new name is normalised with NFKC (fullwidth and mathematical letters become plain ones),
stripped, and runs of spaces become one space. It is refused (``bad_name``) when it

* is empty or longer than :data:`MAX_NAME` characters (counted after normalising);
* contains a control, format (zero-width characters, bidirectional overrides, soft
  hyphen …), private-use, surrogate or unassigned character, a line or paragraph
  separator, or a space other than the plain one;
* contains a character that renders blank (:data:`INVISIBLE`: the Hangul fillers U+3164,
  U+115F, U+1160, U+FFA0, the blank Braille pattern U+2800, the combining grapheme
  joiner …);
* starts with a combining mark, has one right after a space, or stacks more than
  :data:`MAX_MARKS` of them on one character;
* mixes letters of different scripts (a Cyrillic A, U+0410, among Latin letters), except the
  combinations in which Chinese, Japanese and Korean are written, also with Latin.

Names stored before these rules stay as they are. Two names are *alike*
(:func:`name_key`) when they are equal after NFKC, case folding and replacing the Cyrillic
and Greek letters that look like Latin ones: ``Anna``, ``ANNA``, ``Anna`` in fullwidth
letters and ``Anna`` with a Cyrillic A are alike. Within a room no two members are alike
(:func:`server.store.rooms.join_room`), and a match's player names never are
(:func:`server.tables.matches.unique_names`).
"""

from __future__ import annotations

import re
import unicodedata

from server.store.errors import InvalidError

MAX_NAME = 40
#: The most combining marks on one character (Zalgo text stacks dozens).
MAX_MARKS = 4

#: Characters that render as nothing (or as blank space) although Unicode does not class
#: them as spaces or format characters.
INVISIBLE = frozenset(
    "\u115f\u1160\u3164\uffa0"  # Hangul fillers (NFKC turns U+3164 and U+FFA0 into U+1160)
    "\u2800"  # BRAILLE PATTERN BLANK
    "\u034f"  # COMBINING GRAPHEME JOINER
    "\u17b4\u17b5"  # Khmer inherent vowels
    "\U00016fe4"  # KHITAN SMALL SCRIPT FILLER
    "\U0001d159"  # MUSICAL SYMBOL NULL NOTEHEAD
)

#: Unicode categories never allowed: control, format, surrogate, private use, unassigned,
#: line and paragraph separators.
_FORBIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})

#: Sets of scripts that are written together (UTS #39 "highly restrictive").
_SCRIPT_MIXES = (
    frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}),
    frozenset({"LATIN", "HAN", "BOPOMOFO"}),
    frozenset({"LATIN", "HAN", "HANGUL"}),
)
#: The script of a letter is the first word of its Unicode name, with these exceptions.
_SCRIPT_ALIASES = {"CJK": "HAN", "IDEOGRAPHIC": "HAN", "KATAKANA-HIRAGANA": "KATAKANA"}
#: Letters named like this belong to no particular script.
_NEUTRAL = frozenset({"MODIFIER"})
_SCRIPT_NAMES = {
    "LATIN": ("Latin", "lateinisch"),
    "CYRILLIC": ("Cyrillic", "kyrillisch"),
    "GREEK": ("Greek", "griechisch"),
    "ARMENIAN": ("Armenian", "armenisch"),
    "HEBREW": ("Hebrew", "hebräisch"),
    "ARABIC": ("Arabic", "arabisch"),
    "HAN": ("Chinese", "chinesisch"),
    "HANGUL": ("Korean", "koreanisch"),
    "HIRAGANA": ("Hiragana", "Hiragana"),
    "KATAKANA": ("Katakana", "Katakana"),
    "CHEROKEE": ("Cherokee", "Cherokee"),
    "COPTIC": ("Coptic", "koptisch"),
}

#: Cyrillic and Greek letters that look like Latin ones, for :func:`name_key` (applied
#: before case folding, so both cases are listed where both look alike).
_LOOK_ALIKES = str.maketrans(
    # Cyrillic capitals, Cyrillic small letters, Greek capitals, Greek small letters
    "\u0410\u0412\u0415\u041a\u041c\u041d\u041e\u0420\u0421\u0422\u0425\u0423\u0405"
    "\u0406\u0408\u051a\u051c\u04ae\u04c0"
    "\u0430\u0435\u043e\u0440\u0441\u0443\u0445\u0455\u0456\u0458\u0501\u04bb\u051b"
    "\u051d\u04cf\u04af"
    "\u0391\u0392\u0395\u0396\u0397\u0399\u039a\u039c\u039d\u039f\u03a1\u03a4\u03a5"
    "\u03a7"
    "\u03bf\u03b9\u03ba\u03bd\u03c1\u03c5\u03c7\u03b3\u03b1",
    "ABEKMHOPCTXYSIJQWYl"
    "aeopcyxsijdhqwly"
    "ABEZHIKMNOPTYX"
    "oikvpuxya",
)  # fmt: skip

_SPACES = re.compile(r" {2,}")

#: The zero-width joiner, kept in a chat line only between two visible characters (emoji
#: sequences such as a family or a flag use it).
_ZWJ = "\u200d"


def clean_chat_text(text: str) -> str:
    """A chat line without the characters a display name may not contain but text can do
    without: format characters (bidi overrides and isolates, zero-width spaces, the BOM,
    soft hyphens …), private-use and unassigned code points, line and paragraph separators
    and :data:`INVISIBLE` ones are taken out, other spaces (no-break, em …) become plain
    spaces; a zero-width joiner stays only between two visible characters. The caller
    strips the result and refuses it if nothing is left. Control characters and lone
    surrogates are refused before (``server/tables/protocol.py``)."""
    kept: list[str] = []
    for index, char in enumerate(text):
        category = unicodedata.category(char)
        if char == _ZWJ:
            after = text[index + 1 : index + 2]
            if kept and _visible(kept[-1]) and after and _visible(after):
                kept.append(char)
        elif category in _FORBIDDEN_CATEGORIES or char in INVISIBLE:
            continue
        elif category == "Zs":
            kept.append(" ")
        else:
            kept.append(char)
    return "".join(kept)


def _visible(char: str) -> bool:
    category = unicodedata.category(char)
    return not (category in _FORBIDDEN_CATEGORIES or category == "Zs" or char in INVISIBLE)


def _bad_name(message: str, message_de: str) -> InvalidError:
    return InvalidError("bad_name", message, message_de)


def _script(char: str) -> str | None:
    """The script of the letter ``char`` (``LATIN``, ``CYRILLIC``, ``HAN`` …), or None."""
    words = unicodedata.name(char, "").split()
    if not words or words[0] in _NEUTRAL:
        return None
    return _SCRIPT_ALIASES.get(words[0], words[0])


def _scripts_text(scripts: set[str]) -> tuple[str, str]:
    names = [_SCRIPT_NAMES.get(s, (s.title(), s.title())) for s in sorted(scripts, key=str.lower)]
    return ", ".join(en for en, _de in names), ", ".join(de for _en, de in names)


def clean_person_name(value: object, limit: int = MAX_NAME) -> str:
    """``value`` as a new display name (NFKC, stripped, single spaces); raise ``bad_name``
    naming the rule it breaks (see the module's docstring)."""
    if not isinstance(value, str):
        raise _bad_name("A display name is text.", "Ein Anzeigename ist ein Text.")
    name = _SPACES.sub(" ", unicodedata.normalize("NFKC", value).strip())
    scripts: set[str] = set()
    marks = 0
    previous = " "
    for char in name:
        category = unicodedata.category(char)
        if category in _FORBIDDEN_CATEGORIES or (category == "Zs" and char != " "):
            raise _bad_name(
                "A display name may not contain control, formatting or invisible "
                f"characters (found U+{ord(char):04X}).",
                "Ein Anzeigename darf keine Steuer-, Formatierungs- oder unsichtbaren "
                f"Zeichen enthalten (gefunden: U+{ord(char):04X}).",
            )
        if char in INVISIBLE:
            raise _bad_name(
                f"A display name may not contain invisible characters (found U+{ord(char):04X}).",
                "Ein Anzeigename darf keine unsichtbaren Zeichen enthalten "
                f"(gefunden: U+{ord(char):04X}).",
            )
        if category[0] == "M":
            marks += 1
            if previous == " " or marks > MAX_MARKS:
                raise _bad_name(
                    "A display name may not start with an accent or combining mark, or "
                    "stack many of them on one character.",
                    "Ein Anzeigename darf nicht mit einem Akzent oder kombinierenden Zeichen "
                    "beginnen oder viele davon auf ein Zeichen stapeln.",
                )
            continue
        marks = 0
        previous = char
        if category[0] == "L":
            script = _script(char)
            if script is not None:
                scripts.add(script)
    if not name:
        raise _bad_name(
            "A display name needs at least one visible character.",
            "Ein Anzeigename braucht mindestens ein sichtbares Zeichen.",
        )
    if len(name) > limit:
        raise _bad_name(
            f"A display name has at most {limit} characters.",
            f"Ein Anzeigename hat höchstens {limit} Zeichen.",
        )
    if len(scripts) > 1 and not any(scripts <= mix for mix in _SCRIPT_MIXES):
        english, german = _scripts_text(scripts)
        raise _bad_name(
            f"A display name may not mix letters of different scripts ({english}).",
            f"Ein Anzeigename darf keine Buchstaben verschiedener Schriften mischen ({german}).",
        )
    return name


def name_key(name: str) -> str:
    """What two names must differ in to be told apart: NFKC, without format and invisible
    characters, Cyrillic and Greek look-alikes read as Latin, case folded, single spaces."""
    text = unicodedata.normalize("NFKC", name)
    text = "".join(
        " " if c.isspace() else c
        for c in text
        if c.isspace()
        or (unicodedata.category(c) not in _FORBIDDEN_CATEGORIES and c not in INVISIBLE)
    )
    text = text.translate(_LOOK_ALIKES).casefold()
    return " ".join(text.split())
