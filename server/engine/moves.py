"""Moves as data: a codec that numbers a game's moves and reads and writes their text.

A game lists its verbs once (:class:`Verb`): a word (``"bid"``), the words of its
argument (``("dreier", "zweier", …)``, the codes of the pack's cards, or none), and the
other words players use for it (``"weiter"`` for ``"pass"``). :class:`MoveCodec` numbers
the moves in that order, so the first verb with the cards as its argument (``play``)
makes move ``c`` the play of card ``c``; every move has one canonical text.

>>> codec = MoveCodec([Verb("play", ("HK", "T1")), Verb("pass", aliases=("weiter",)),
...                    Verb("bid", ("dreier", "zweier"), what="game")])
>>> codec.text(1), codec.text(2), codec.move("bid", "zweier"), codec.parse(" Bid  ZWEIER")
('play T1', 'pass', 4, 4)
>>> codec.parse("weiter"), codec.verb_of(3), codec.is_verb(3, "bid")
(2, ('bid', 0), True)
>>> codec.parse("bid ramsch")
Traceback (most recent call last):
...
server.engine.errors.MalformedError: 'ramsch' is not a game here (dreier, zweier)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from server.engine.errors import MalformedError

Move = int


@dataclass(frozen=True, slots=True)
class Verb:
    """One kind of move: its word, the words of its argument (none: a bare word), other
    words for it, and how to name a bad argument (``what``: "game", "card" …).

    ``read`` replaces the argument lookup where the argument has its own parser (a card
    written in any accepted notation): it returns the index into ``args``. ``shown``
    writes an argument differently from ``args`` (a Doppelkopf card by its kind, the same
    text for both copies). ``bad`` makes the error for an unknown argument."""

    word: str
    args: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    what: str = "argument"
    read: Callable[[str], int] | None = None
    shown: tuple[str, ...] = ()
    bad: Callable[[str], MalformedError] | None = None


def malformed_action(text: str) -> MalformedError:
    """The error for an action text no game understands."""
    return MalformedError(
        "malformed_action",
        f"'{text}' is not an action (examples: 'pass', 'bid dreier', 'play HK')",
        f"'{text}' ist keine gültige Aktion (Beispiele: 'pass', 'bid dreier', 'play HK')",
    )


class MoveCodec:
    """Numbers the moves of a list of verbs; canonical text both ways (see the module)."""

    def __init__(self, verbs: Sequence[Verb]) -> None:
        self.verbs = tuple(verbs)
        self.base: dict[str, int] = {}
        self._verb_at: list[tuple[Verb, int]] = []
        texts: list[str] = []
        for verb in self.verbs:
            if verb.word in self.base:
                raise ValueError(f"verb {verb.word} listed twice")
            self.base[verb.word] = len(texts)
            shown = verb.shown or verb.args
            if verb.args:
                for i, arg in enumerate(shown):
                    texts.append(f"{verb.word} {arg}")
                    self._verb_at.append((verb, i))
            else:
                texts.append(verb.word)
                self._verb_at.append((verb, 0))
        self.texts = tuple(texts)
        #: The move of every canonical text (the first, where two moves share a text).
        self.by_text: dict[str, Move] = {}
        for move, text in enumerate(texts):
            self.by_text.setdefault(text, move)
        self._words: dict[str, Verb] = {}
        for verb in self.verbs:
            for word in (verb.word, *verb.aliases):
                self._words[word] = verb
        self._arg_index = {v.word: {a.lower(): i for i, a in enumerate(v.args)} for v in verbs}

    def __len__(self) -> int:
        return len(self.texts)

    def text(self, move: Move) -> str:
        """The canonical text of ``move``."""
        if not 0 <= move < len(self.texts):
            raise ValueError(f"no such move {move}")
        return self.texts[move]

    def move(self, word: str, arg: str | int | None = None) -> Move:
        """The move of verb ``word`` with argument ``arg`` (its word or its index)."""
        base = self.base[word]
        if arg is None:
            return base
        if isinstance(arg, int):
            return base + arg
        return base + self._arg_index[word][arg.lower()]

    def verb_of(self, move: Move) -> tuple[str, int]:
        """The verb word of ``move`` and the index of its argument (0 for bare words)."""
        verb, index = self._verb_at[move]
        return verb.word, index

    def is_verb(self, move: Move, word: str) -> bool:
        """Whether ``move`` is a move of verb ``word``."""
        return 0 <= move < len(self._verb_at) and self._verb_at[move][0].word == word

    def arg_of(self, move: Move) -> str:
        """The argument word of ``move`` (as in the verb's ``args``)."""
        verb, index = self._verb_at[move]
        return verb.args[index]

    def range_of(self, word: str) -> range:
        """All moves of verb ``word``."""
        base = self.base[word]
        verb = self._words[word]
        return range(base, base + max(1, len(verb.args)))

    def parse(self, text: str) -> Move:
        """Read a move; case, spacing and the verbs' other words are forgiven. Raises
        :class:`MalformedError` (``malformed_action``, or ``unknown_<what>`` for a verb
        with an argument it does not know)."""
        move = self.by_text.get(text)
        if move is not None:
            return move
        words = text.strip().lower().split()
        if not words or len(words) > 2 or words[0] not in self._words:
            raise malformed_action(text)
        verb = self._words[words[0]]
        if not verb.args:
            if len(words) != 1:
                raise malformed_action(text)
            return self.base[verb.word]
        if len(words) != 2:
            raise malformed_action(text)
        arg = words[1]
        if verb.read is not None:
            return self.base[verb.word] + verb.read(arg)
        index = self._arg_index[verb.word].get(arg)
        if index is None:
            if verb.bad is not None:
                raise verb.bad(arg)
            known = ", ".join(verb.args)
            raise MalformedError(
                f"unknown_{verb.what.replace(' ', '_')}",
                f"'{arg}' is not a {verb.what} here ({known})",
                f"'{arg}' gibt es hier nicht ({known})",
            )
        return self.base[verb.word] + index
