"""Kontra/Re/Sub chains: doubling the game and each announced premium, round by round.

Every item that may be doubled (the game, an announced Pagat, Uhu, Valat …) belongs to a
side, its *owner*: the declarer's side for the game, the announcer's side for a premium.
Its chain climbs one level per call, each level doubling the item's value:

* odd levels (Kontra ×2, Subkontra ×8, …) are called by a player of the *other* side,
* even levels (Re/Rekontra ×4, …) by a player of the owner's side.

The words of the levels and the cap are data (:class:`DoublingRules`, each game's own in its
``contracts.py``):

* Doppen (DP-A14): ``kontra``, ``re``, then again ``kontra``, ``re`` … without limit
  ("theoretisch keine Begrenzung"); game, Valat, Pagat and Uhu may be doubled.
* Tarock zu dritt (TZ-A9): ``kontra`` ×2, ``rekontra`` ×4, ``subkontra`` ×8, no more; game and
  every announced premium separately. In negative games each opponent doubles for himself:
  one chain per opponent (``per_opponent``), the declarer answers each on its own.
  The "Skoty-Trophy" option: ``kontra`` only (cap 1).
* Dreierles' Klopfen (DL-A8): the game only, one knock by an opponent who bid (``barred``
  names the others), one knock back by the declarer (cap 2); nobody has to say "gut":
  ``skip_idle`` passes over seats that have nothing to call.
* Bayerisches Tarock (BT-A13): ``kontra``, ``re`` (optionally ``supp``, ``resupp``,
  ``hirsch``), the game only.

A round (:class:`Doubling`) lets the seats speak in turn from a first seat; each calls
the next level of a chain, or says ``gut``. The round ends when every seat in a row has
said ``gut`` after the last call ("3 × gut nach letzter Ansage", TZ Phase III; "a full
round without new calls", DP-A14). Announcing a premium is the game's move; the game
adds it with :meth:`Doubling.announce`, which counts as a call (the others may answer it).

A call's canonical text is ``"<word> <item>"`` (``"kontra game"``, ``"re pagat"``); in a
per-opponent chain the opponent's seat follows the item (``"rekontra game@2"``), so that
every call is a verb and one argument: :func:`codec_verbs` lists them for a
:class:`~server.engine.moves.MoveCodec`.

Decisions where the texts leave a point open (tested in ``tests/engine/test_doubling.py``):

* "Gut" after the last call is counted over the whole table, the caller included: a call
  is answered by a full turn of "gut" (TZ "3 × gut nach letzter Ansage", DP-A14).
* An unlimited chain goes on with the last odd and even words: Doppen's Kontra, Re,
  Kontra, Re …; the other side always says the odd word.
* Per opponent, an opponent may leave out his own seat (``"kontra game"``); the declarer
  names the opponent when two chains are open to him (``"rekontra game@2"``).
* A premium announced inside the round restarts the count of "gut" (the others may
  answer it), as any call does.
* Dreierles' Klopfen is the same chain (words ``knock``, cap 2, the non-bidders barred,
  idle seats skipped); the test compares it with the Dreierles deal move by move.

>>> rules = DoublingRules(words=("kontra", "re"), cap=None)
>>> d = Doubling(rules, parties=(0, 1, 1), first=0, items={"game": 0})
>>> d.legal_texts()   # the declarer cannot double his own game
['gut']
>>> d.act(0, "gut"); d.legal_texts()
['gut', 'kontra game']
>>> d.act(1, "kontra game"); d.act(2, "gut"); d.act(0, "re game"); d.factor("game")
4
>>> for seat, text in ((1, "gut"), (2, "gut"), (0, "gut")): d.act(seat, text)
>>> d.finished, d.factor("game")
(True, 4)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from server.engine.errors import IllegalActionError, MalformedError
from server.engine.moves import Verb

JSON = dict[str, object]

GUT = "gut"


@dataclass(frozen=True, slots=True)
class DoublingRules:
    """How a game doubles: the words per level, the cap, per-opponent chains, what may be
    doubled (``None``: every item), and whether idle seats are skipped.

    ``words[k - 1]`` names level ``k``; beyond the list (an unlimited chain) the last two
    words alternate, so that the other side always says the odd word and the owner's side
    the even one.

    >>> DoublingRules(words=("kontra", "re"), cap=None).word(5)
    'kontra'
    >>> DoublingRules(words=("kontra", "rekontra", "subkontra"), cap=3).word(3)
    'subkontra'
    """

    words: tuple[str, ...] = ("kontra", "rekontra", "subkontra")
    cap: int | None = 3
    per_opponent: bool = False
    doublable: frozenset[str] | None = None
    skip_idle: bool = False

    def __post_init__(self) -> None:
        if not self.words or (self.cap is None and len(self.words) < 2):
            raise ValueError("an unlimited chain needs at least two words")
        if self.cap is not None and self.cap < 1:
            raise ValueError("the cap is at least one level")
        if GUT in self.words:
            raise ValueError("'gut' ends a round; it cannot name a level")

    def word(self, level: int) -> str:
        """The word that calls ``level`` (1 = the first Kontra)."""
        words = self.words
        if level <= len(words):
            return words[level - 1]
        # Keep the parity: odd levels belong to the other side, even ones to the owner.
        n = len(words)
        last_odd, last_even = (n, n - 1) if n % 2 else (n - 1, n)
        return words[last_even - 1] if level % 2 == 0 else words[last_odd - 1]

    def allows(self, level: int) -> bool:
        """Whether a chain may reach ``level``."""
        return self.cap is None or level <= self.cap


def token(item: str, against: int | None = None) -> str:
    """The argument word of a call: the item, with ``@seat`` for a per-opponent chain.

    >>> token("game"), token("game", 2)
    ('game', 'game@2')
    """
    return item if against is None else f"{item}@{against}"


def codec_verbs(
    rules: DoublingRules, items: Sequence[str], opponents: Sequence[int] = ()
) -> list[Verb]:
    """The verbs of the doubling calls for a game's :class:`~server.engine.moves.MoveCodec`:
    ``gut`` and one verb per level word, each taking every item (per opponent when the
    chains run per opponent; ``opponents`` lists their seats).

    >>> from server.engine.moves import MoveCodec
    >>> codec = MoveCodec(codec_verbs(DoublingRules(per_opponent=True), ["game"], [1, 2]))
    >>> codec.texts
    ('gut', 'kontra game@1', 'kontra game@2', 'rekontra game@1', 'rekontra game@2', \
'subkontra game@1', 'subkontra game@2')
    """
    if rules.per_opponent:
        args = tuple(token(item, seat) for item in items for seat in opponents)
    else:
        args = tuple(items)
    words = list(dict.fromkeys(rules.words))
    return [Verb(GUT), *(Verb(word, args, what="item") for word in words)]


@dataclass(slots=True)
class Chain:
    """One chain: an item, its owner side, the opponent it runs against (per-opponent
    chains only), its level and who called each level."""

    item: str
    owner: int
    against: int | None = None
    level: int = 0
    callers: list[int] = field(default_factory=list)

    @property
    def factor(self) -> int:
        """The multiplier the chain puts on its item: ``2 ** level``."""
        return 1 << self.level

    @property
    def key(self) -> tuple[str, int | None]:
        """The chain's name: its item and, per opponent, that opponent's seat."""
        return (self.item, self.against)


def _illegal(code: str, en: str, de: str) -> IllegalActionError:
    return IllegalActionError(code, en, de)


def word_not_played(word: str, words: Sequence[str]) -> IllegalActionError:
    """The refusal of a doubling word the game knows but this table does not play (Supp
    where only Kontra and Re are played, Rekontra at a Skoty-Trophy table).

    >>> word_not_played("supp", ("kontra", "re")).message
    "'supp' is not played at this table (here: kontra, re)"
    """
    said = ", ".join(words)
    return _illegal(
        "not_played_here",
        f"'{word}' is not played at this table (here: {said})",
        f"»{word}« wird an diesem Tisch nicht gespielt (hier: {said})",
    )


class Doubling:
    """One round of doubling calls (see the module text).

    ``parties`` gives each seat's side; ``first`` the seat that speaks first; ``items``
    the items at the start (the game and premiums announced earlier) with their owner
    side; ``barred`` the seats that may not double in this deal (Dreierles: the opponents
    who did not bid). The order of speaking is ``first, first + 1, …`` (seats in playing
    order).
    """

    def __init__(
        self,
        rules: DoublingRules,
        parties: Sequence[int],
        first: int,
        items: Mapping[str, int],
        barred: frozenset[int] = frozenset(),
    ) -> None:
        self.rules = rules
        self.barred = barred
        self.parties = tuple(parties)
        self.seats = len(self.parties)
        self.chains: dict[tuple[str, int | None], Chain] = {}
        self._items: set[str] = set()  # the items of the chains
        self.calls: list[tuple[int, str]] = []
        self.quiet = 0  # "gut" in a row since the last call
        self.to_move: int | None = first % self.seats
        for item, owner in items.items():
            self._add(item, owner)
        self._settle()

    # ------------------------------------------------------------------ items

    def _add(self, item: str, owner: int) -> None:
        if owner not in self.parties:
            raise ValueError(f"no seat belongs to side {owner}")
        if not item or item != item.lower() or "@" in item or len(item.split()) != 1:
            raise ValueError(f"'{item}' cannot name an item: one lower-case word without '@'")
        if item in self._items:
            raise _illegal(
                "item_twice",
                f"'{item}' has already been announced",
                f"'{item}' ist schon angesagt",
            )
        self._items.add(item)
        if self.rules.per_opponent:
            for seat, party in enumerate(self.parties):
                if party != owner:
                    self.chains[(item, seat)] = Chain(item, owner, seat)
        else:
            self.chains[(item, None)] = Chain(item, owner)

    def announce(self, seat: int, item: str) -> None:
        """Record that ``seat`` announced ``item`` (a premium) on his turn: a new chain
        owned by his side; the others may answer it, so the count of "gut" restarts.

        Whether ``seat`` may announce ``item`` at all is the game's rule.
        """
        self._check_turn(seat)
        self._add(item, self.parties[seat])
        self.calls.append((seat, f"announce {item}"))
        self.quiet = 0
        self._advance()

    # ------------------------------------------------------------------ calls

    def _doublable(self, chain: Chain) -> bool:
        allowed = self.rules.doublable
        return allowed is None or chain.item in allowed

    def may_call(self, seat: int, chain: Chain) -> bool:
        """Whether ``seat`` may call the next level of ``chain`` now (turn aside)."""
        level = chain.level + 1
        rules = self.rules  # _doublable and rules.allows, written out: asked every call
        if (rules.cap is not None and level > rules.cap) or seat in self.barred:
            return False
        if rules.doublable is not None and chain.item not in rules.doublable:
            return False
        if level % 2:  # the other side doubles ...
            return self.parties[seat] != chain.owner and chain.against in (None, seat)
        return self.parties[seat] == chain.owner  # ... the owner's side redoubles

    def text(self, chain: Chain) -> str:
        """The canonical text of the call that raises ``chain`` by one level."""
        return f"{self.rules.word(chain.level + 1)} {token(chain.item, chain.against)}"

    def legal_texts(self) -> list[str]:
        """The calls the seat to move may make, ``"gut"`` first, then sorted."""
        if self.to_move is None:
            return []
        seat = self.to_move
        may_call = self.may_call
        calls = sorted([self.text(c) for c in self.chains.values() if may_call(seat, c)])
        return [GUT, *calls]

    def parse(self, text: str) -> tuple[str, str | None, int | None]:
        """Read a call: ``("gut", None, None)`` or ``(word, item, against)``.

        >>> d = Doubling(DoublingRules(per_opponent=True), (0, 1, 1), 1, {"game": 0})
        >>> d.parse(" Kontra  GAME@1"), d.parse("kontra game"), d.parse("gut")
        (('kontra', 'game', 1), ('kontra', 'game', None), ('gut', None, None))
        >>> d.parse("hopp game")
        Traceback (most recent call last):
        ...
        server.engine.errors.MalformedError: 'hopp game' is not a doubling call (gut, kontra …)
        """
        words = text.lower().split()
        if words == [GUT]:
            return (GUT, None, None)
        if len(words) == 2 and words[0] in self.rules.words:
            item, at, seat = words[1].partition("@")
            if not item or (at and not seat.isdigit()):
                raise self._malformed(text)
            return (words[0], item, int(seat) if at else None)
        raise self._malformed(text)

    def _malformed(self, text: str) -> MalformedError:
        examples = ", ".join((GUT, self.rules.words[0]))
        return MalformedError(
            "malformed_doubling",
            f"'{text}' is not a doubling call ({examples} …)",
            f"'{text}' ist keine Kontra-Ansage ({examples} …)",
        )

    def _check_turn(self, seat: int) -> None:
        if self.to_move is None:
            raise _illegal(
                "doubling_over",
                "the doubling round is over",
                "Die Runde der Kontra-Ansagen ist vorbei",
            )
        if seat != self.to_move:
            raise _illegal(
                "not_your_turn",
                f"it is seat {self.to_move}'s turn, not seat {seat}'s",
                f"Sitz {self.to_move} ist an der Reihe, nicht Sitz {seat}",
            )

    def act(self, seat: int, text: str) -> None:
        """Apply one call by ``seat``: ``"gut"`` or the next level of a chain.

        Raises :class:`MalformedError` for unreadable text and :class:`IllegalActionError`
        (out of turn, an unknown item, the wrong side, the wrong word, beyond the cap).
        """
        self.call(seat, *self.parse(text))

    def call(self, seat: int, word: str, item: str | None, against: int | None) -> None:
        """Apply one call already read by :meth:`parse` (a game that keeps its moves read
        skips the text); the checks and errors are those of :meth:`act`."""
        chain = self._checked(seat, word, item, against)
        if chain is None:
            self.calls.append((seat, GUT))
            self.quiet += 1
            self._advance()
            return
        chain.level += 1
        chain.callers.append(seat)
        self.calls.append((seat, self.text_of(chain)))
        self.quiet = 0
        self._advance()

    def _checked(self, seat: int, word: str, item: str | None, against: int | None) -> Chain | None:
        """Check a read call by ``seat``; return the chain it raises (``None`` for "gut")."""
        self._check_turn(seat)
        if word == GUT:
            return None
        assert item is not None
        chain = self._chain(seat, item, against)
        self._check_call(seat, chain, word)
        return chain

    def refusal(self, seat: int, text: str) -> IllegalActionError | None:
        """The error :meth:`act` would raise for ``seat``'s call ``text`` (``None`` if it is
        legal), changing nothing; unreadable text still raises :class:`MalformedError`.

        >>> d = Doubling(DoublingRules(), (0, 1, 1), 0, {"game": 0})
        >>> d.refusal(0, "kontra game").code, d.refusal(1, "kontra game").code
        ('own_side_doubles', 'not_your_turn')
        >>> d.act(0, "gut"); d.refusal(1, "kontra game") is None
        True
        """
        try:
            self._checked(seat, *self.parse(text))
        except IllegalActionError as error:
            return error
        return None

    def text_of(self, chain: Chain) -> str:
        """The canonical text of the call that raised ``chain`` to its present level."""
        return f"{self.rules.word(chain.level)} {token(chain.item, chain.against)}"

    def _chain(self, seat: int, item: str, against: int | None) -> Chain:
        if self.rules.per_opponent and against is None:
            # Without a seat: the one chain of ``item`` this seat may raise, if unique.
            named = [c for c in self.chains.values() if c.item == item]
            open_ = [c for c in named if self.may_call(seat, c)]
            if len(open_) > 1:
                raise _illegal(
                    "name_the_opponent",
                    f"'{item}' is doubled per opponent: name the seat ('{self.text(open_[0])}')",
                    f"'{item}' wird je Gegenspieler kontriert: nenne den Sitz "
                    f"('{self.text(open_[0])}')",
                )
            chosen = open_ or named
            if chosen:
                return chosen[0]
        chain = self.chains.get((item, against))
        if chain is None:
            raise _illegal(
                "no_such_item",
                f"there is nothing called '{item}' to double"
                + ("" if against is None else f" against seat {against}"),
                f"'{item}' ist nicht angesagt und kann nicht kontriert werden"
                + ("" if against is None else f" (gegen Sitz {against})"),
            )
        return chain

    def _check_call(self, seat: int, chain: Chain, word: str) -> None:
        level = chain.level + 1
        if not self._doublable(chain):
            raise _illegal(
                "not_doublable",
                f"'{chain.item}' cannot be doubled in this game",
                f"'{chain.item}' kann in diesem Spiel nicht kontriert werden",
            )
        if not self.rules.allows(level):
            raise _illegal(
                "chain_capped",
                f"'{chain.item}' is doubled as far as it goes ({self.rules.word(chain.level)})",
                f"'{chain.item}' ist schon höchstmöglich kontriert "
                f"({self.rules.word(chain.level)})",
            )
        if seat in self.barred:
            raise _illegal(
                "barred_from_doubling",
                f"seat {seat} may not double in this game",
                f"Sitz {seat} darf in diesem Spiel nicht kontrieren",
            )
        own = self.parties[seat] == chain.owner
        if level % 2 == 1 and own and word != self.rules.word(level) and word in self.rules.words:
            # the owner's side answering a doubling that nobody has called ("re" first)
            raise _illegal(
                "nothing_to_answer",
                f"'{word}' answers a '{self.rules.word(level)}' on '{chain.item}', "
                "and none is open",
                f"'{word}' antwortet auf ein '{self.rules.word(level)}' auf '{chain.item}', "
                "und keines ist offen",
            )
        if level % 2 == 1 and own:
            raise _illegal(
                "own_side_doubles",
                f"'{chain.item}' is your side's: only the other side says "
                f"'{self.rules.word(level)}'",
                f"'{chain.item}' gehört deiner Partei: nur die Gegenpartei sagt "
                f"'{self.rules.word(level)}'",
            )
        if level % 2 == 1 and chain.against is not None and chain.against != seat:
            raise _illegal(
                "doubles_for_himself",
                "in this game each opponent doubles only for himself",
                "In diesem Spiel kontriert jeder Gegenspieler nur für sich",
            )
        if level % 2 == 0 and not own:
            raise _illegal(
                "other_side_redoubles",
                f"only the side that owns '{chain.item}' answers a Kontra",
                f"Nur die Partei, der '{chain.item}' gehört, antwortet auf ein Kontra",
            )
        if word != self.rules.word(level):
            raise _illegal(
                "wrong_doubling_word",
                f"the next call on '{chain.item}' is '{self.rules.word(level)}', not '{word}'",
                f"Die nächste Ansage auf '{chain.item}' ist '{self.rules.word(level)}', "
                f"nicht '{word}'",
            )

    # ------------------------------------------------------------------ turns

    def _idle(self, seat: int) -> bool:
        return not any(self.may_call(seat, c) for c in self.chains.values())

    def _advance(self) -> None:
        assert self.to_move is not None
        self.to_move = (self.to_move + 1) % self.seats
        self._settle()

    def _settle(self) -> None:
        """End the round after a full turn of "gut"; skip idle seats if the rules say so."""
        while self.to_move is not None:
            if self.quiet >= self.seats:
                self.to_move = None
                return
            if not (self.rules.skip_idle and self._idle(self.to_move)):
                return
            if all(self._idle(s) for s in range(self.seats)):
                self.to_move = None
                return
            self.quiet += 1  # an idle seat's silent "gut"
            self.to_move = (self.to_move + 1) % self.seats

    @property
    def finished(self) -> bool:
        """Whether the round is over."""
        return self.to_move is None

    # ------------------------------------------------------------------ results

    def level(self, item: str, against: int | None = None) -> int:
        """The level reached by ``item`` (0: not doubled; unknown items are 0). Per-opponent
        chains need ``against``, the opponent's seat (``ValueError`` without it)."""
        if self.rules.per_opponent and against is None:
            raise ValueError("chains run per opponent here: name the opponent's seat")
        chain = self.chains.get((item, against if self.rules.per_opponent else None))
        return chain.level if chain is not None else 0

    def levels(self) -> dict[str, int]:
        """The level of every item of a round whose chains do not run per opponent.

        >>> d = Doubling(DoublingRules(), (0, 1, 1), 1, {"game": 0})
        >>> d.act(1, "kontra game"); d.levels()
        {'game': 1}
        """
        if self.rules.per_opponent:
            raise ValueError("chains run per opponent here: ask level() per opponent")
        return {item: chain.level for (item, _against), chain in self.chains.items()}

    def factor(self, item: str, against: int | None = None) -> int:
        """The multiplier on ``item``; in per-opponent chains the one against ``against``."""
        return 1 << self.level(item, against)

    def view(self) -> JSON:
        """The state of the round for every seat and spectators (all calls are public)."""
        return {
            "to_move": self.to_move,
            "quiet": self.quiet,
            "chains": [
                {
                    "item": c.item,
                    "owner": c.owner,
                    "against": c.against,
                    "level": c.level,
                    "word": self.rules.word(c.level) if c.level else None,
                    "factor": c.factor,
                    "callers": list(c.callers),
                }
                for c in self.chains.values()
            ],
            "calls": [[seat, text] for seat, text in self.calls],
        }
