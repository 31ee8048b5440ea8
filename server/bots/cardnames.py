"""Card names as an information set writes them: codes (``H10.2``) and kinds (``H10``).

Views number the copies of a kind in the order the table saw them, not as the engine
keeps them, so a player reasons about kinds: :func:`kind_of_word` reads any word of a
view or an action as a kind, and :func:`kinds_named` counts the kinds a text names.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from server.engine.cards import Pack

_WORDS: dict[str, dict[str, str]] = {}


def word_kinds(pack: Pack) -> dict[str, str]:
    """Every card code and kind of ``pack``, upper-cased, with the kind it stands for."""
    names = _WORDS.get(pack.name)
    if names is None:
        names = {kind.upper(): kind for kind in pack.kind_mask}
        names.update({card.code.upper(): card.kind for card in pack.cards})
        _WORDS[pack.name] = names
    return names


def kind_of_word(pack: Pack, word: str) -> str | None:
    """The kind a word names (``"H10.2"`` → ``"H10"``), or ``None`` for a word that is no
    card."""
    return word_kinds(pack).get(word.upper())


def kinds_named(pack: Pack, text: str) -> Counter[str]:
    """The kinds named in a text such as ``"play T21"`` or ``"discard HK"``, with counts."""
    names = word_kinds(pack)
    return Counter(names[w.upper()] for w in text.split() if w.upper() in names)


def kinds_of(pack: Pack, codes: Iterable[str]) -> Counter[str]:
    """The kinds of a list of card codes (a hand in a view), with counts."""
    names = word_kinds(pack)
    return Counter(names[code.upper()] for code in codes)


def kinds_in(pack: Pack, value: object) -> Counter[str]:
    """Every kind named anywhere in a JSON value, each as often as it is written."""
    found: Counter[str] = Counter()
    stack = [value]
    names = word_kinds(pack)
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.update(names[w.upper()] for w in item.split() if w.upper() in names)
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return found
