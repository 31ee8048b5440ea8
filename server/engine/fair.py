"""Provably fair shuffling: a hash chain of deal seeds, committed to before the match,
and a documented Fisher–Yates shuffle over an HMAC-SHA256 stream (version 1).

The server draws a secret ``s_N`` (:data:`SEED_BYTES` random bytes) for a match and
derives the chain ``s_{i-1} = SHA-256(s_i)`` down to ``s_0``, the *commitment*, which it
publishes before the players' own seeds are known. Deal ``i`` (counted from 1) is shuffled
with ``s_i`` and every player's seed; when the deal is over ``s_i`` is revealed, and
anybody can hash it ``i`` times to reach the commitment and shuffle again. The exact bytes
are in ``docs/record-format.md`` ("Fair shuffling"); the known-answer vectors there are
:data:`KNOWN_ANSWER` and are checked by the tests.

Only the standard library; no clock, no unseeded randomness: the secret is given.

>>> secret = bytes(range(32))
>>> chain = FairChain(secret, 3)
>>> chain.commitment().hex()[:16]
'4e05063392f42b51'
>>> check_reveal(chain.seed(2), 2, chain.commitment())
True
>>> deal_order(8, chain.seed(1), [b"", bytes(32)])
[1, 2, 7, 3, 0, 6, 4, 5]
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

#: The version of the algorithm below; records carry it (``"fair": {"version": 1, …}``).
VERSION = 1
#: Bytes of a deal seed (the chain's values) and of a player's seed.
SEED_BYTES = 32
#: Deals a match's chain covers; a deal after the last is shuffled without it.
CHAIN_LENGTH = 1000
#: The text every stream block's message starts with (ASCII).
DOMAIN = b"stammtisch-fair/1"

_HEX = re.compile(r"[0-9a-f]{64}")


def parse_seed(text: object) -> bytes:
    """A seed from its text form: exactly 64 lowercase hexadecimal digits (32 bytes).

    >>> parse_seed("00" * 31 + "ff")[-1]
    255
    >>> parse_seed("ABC")
    Traceback (most recent call last):
    ...
    ValueError: a seed is 64 lowercase hexadecimal digits
    """
    if not isinstance(text, str) or not _HEX.fullmatch(text):
        raise ValueError("a seed is 64 lowercase hexadecimal digits")
    return bytes.fromhex(text)


def parse_player_seed(text: object) -> bytes:
    """A player's seed from its text form: 64 lowercase hex digits, or ``""`` for a player
    who gave none (a computer player, or a person whose browser sent nothing).

    >>> parse_player_seed("")
    b''
    """
    if text == "":
        return b""
    return parse_seed(text)


def sha256(data: bytes) -> bytes:
    """SHA-256 of ``data`` (one link of the chain)."""
    return hashlib.sha256(data).digest()


def hash_back(seed: bytes, times: int) -> bytes:
    """``seed`` hashed ``times`` times with SHA-256.

    >>> hash_back(b"x", 0)
    b'x'
    >>> hash_back(b"x", 2) == sha256(sha256(b"x"))
    True
    """
    value = seed
    for _ in range(times):
        value = sha256(value)
    return value


def check_reveal(seed: bytes, number: int, commitment: bytes) -> bool:
    """Whether ``seed`` is the seed of deal ``number`` (from 1) of the chain whose top
    hash is ``commitment``: hashing it ``number`` times must give the commitment.

    >>> top = sha256(sha256(b"s" * 32))
    >>> check_reveal(b"s" * 32, 2, top), check_reveal(b"s" * 32, 1, top)
    (True, False)
    """
    if number < 1 or len(seed) != SEED_BYTES:
        return False
    return hmac.compare_digest(hash_back(seed, number), commitment)


@dataclass(frozen=True, slots=True)
class FairChain:
    """A match's secret hash chain: ``secret`` is ``s_N`` with ``N = length``.

    >>> chain = FairChain(b"\\x01" * 32, 2)
    >>> sha256(chain.seed(2)) == chain.seed(1) and sha256(chain.seed(1)) == chain.commitment()
    True
    >>> chain.seed(3)
    Traceback (most recent call last):
    ...
    ValueError: the chain has seeds for deals 1 to 2
    """

    secret: bytes
    length: int = CHAIN_LENGTH

    def __post_init__(self) -> None:
        if len(self.secret) != SEED_BYTES or self.length < 1:
            raise ValueError("a chain has a 32-byte secret and a length of at least 1")

    def covers(self, number: int) -> bool:
        """Whether deal ``number`` (from 1) has a seed in this chain."""
        return 1 <= number <= self.length

    def seed(self, number: int) -> bytes:
        """The seed ``s_number`` of deal ``number`` (from 1)."""
        if not self.covers(number):
            raise ValueError(f"the chain has seeds for deals 1 to {self.length}")
        return hash_back(self.secret, self.length - number)

    def commitment(self) -> bytes:
        """``s_0``, the value published before the match."""
        return hash_back(self.secret, self.length)


def stream_message(player_seeds: Sequence[bytes], block: int) -> bytes:
    """The message of stream block ``block``: :data:`DOMAIN`, the number of player seeds
    (one byte), each seed with its length (one byte) first, and the block number (eight
    bytes, big-endian).

    >>> stream_message([b"", b"\\xab"], 1).hex()
    '7374616d6d74697363682d666169722f31020001ab0000000000000001'
    """
    if len(player_seeds) > 255 or any(len(seed) > 255 for seed in player_seeds):
        raise ValueError("at most 255 player seeds of at most 255 bytes each")
    parts = [DOMAIN, bytes([len(player_seeds)])]
    for seed in player_seeds:
        parts += [bytes([len(seed)]), seed]
    parts.append(block.to_bytes(8, "big"))
    return b"".join(parts)


def stream(deal_seed: bytes, player_seeds: Sequence[bytes]) -> Iterator[int]:
    """The shuffle's random numbers: unsigned 32-bit big-endian words read in order from
    the blocks ``HMAC-SHA256(key=deal_seed, msg=stream_message(player_seeds, j))``,
    ``j = 0, 1, 2, …`` (eight words a block)."""
    block = 0
    while True:
        digest = hmac.new(deal_seed, stream_message(player_seeds, block), hashlib.sha256).digest()
        for at in range(0, 32, 4):
            yield int.from_bytes(digest[at : at + 4], "big")
        block += 1


def deal_order(size: int, deal_seed: bytes, player_seeds: Sequence[bytes]) -> list[int]:
    """The shuffled pack: a permutation of ``0 … size-1`` (the pack's card indexes), its
    first element the first card dealt.

    Fisher–Yates from the back: for ``i = size-1`` down to 1 a uniform ``j`` in ``0 … i``
    by rejection sampling (a word ``x`` is used only if ``x < 2^32 - 2^32 mod (i+1)``,
    then ``j = x mod (i+1)``; otherwise the next word is read), and ``order[i]`` and
    ``order[j]`` swap.

    >>> deal_order(4, b"\\x00" * 32, [])
    [3, 1, 0, 2]
    >>> deal_order(1, b"\\x00" * 32, [])
    [0]
    """
    order = list(range(size))
    words = stream(deal_seed, player_seeds)
    for i in range(size - 1, 0, -1):
        bound = i + 1
        limit = (1 << 32) - (1 << 32) % bound
        while True:
            x = next(words)
            if x < limit:
                break
        j = x % bound
        order[i], order[j] = order[j], order[i]
    return order


@dataclass(frozen=True, slots=True)
class FairMatch:
    """A match's fair shuffling: its secret chain and the players' seeds (in the order of
    the match's players; ``b""`` for none), fixed before its first deal.

    >>> fm = FairMatch(FairChain(bytes(range(32)), 5), (b"", bytes([0x11]) * 32))
    >>> fm.public()["commitment"][:8], fm.public()["player_seeds"][0]
    ('d06ab04a', '')
    >>> FairMatch.from_stored(fm.stored()) == fm, "secret" in fm.public()
    (True, False)
    """

    chain: FairChain
    player_seeds: tuple[bytes, ...]

    def public(self) -> dict[str, object]:
        """What everybody may know from the start: version, length, commitment, seeds."""
        return {
            "version": VERSION,
            "length": self.chain.length,
            "commitment": self.chain.commitment().hex(),
            "player_seeds": [seed.hex() for seed in self.player_seeds],
        }

    def stored(self) -> dict[str, object]:
        """What the server keeps: :meth:`public` and the secret (never to be sent)."""
        return {**self.public(), "secret": self.chain.secret.hex()}

    @classmethod
    def from_stored(cls, data: dict[str, object]) -> FairMatch:
        """Read :meth:`stored` back (ValueError if it is not version 1 or malformed)."""
        if data.get("version") != VERSION:
            raise ValueError(f"fair shuffling version {data.get('version')!r} is unknown")
        length = data.get("length")
        seeds = data.get("player_seeds")
        if not isinstance(length, int) or not isinstance(seeds, list):
            raise ValueError("fair shuffling needs a length and the players' seeds")
        chain = FairChain(parse_seed(data.get("secret")), length)
        return cls(chain, tuple(parse_player_seed(seed) for seed in seeds))

    def seed(self, number: int) -> bytes | None:
        """The seed of deal ``number`` (from 1), or ``None`` after the chain's end."""
        return self.chain.seed(number) if self.chain.covers(number) else None

    def record(self, finished: int) -> dict[str, object]:
        """The match record's ``fair``: :meth:`public` and ``seeds``, the seeds of deals
        1 … ``finished`` (all of them over; those the chain covers).

        >>> fm = FairMatch(FairChain(bytes(range(32)), 5), ())
        >>> [seed[:8] for seed in fm.record(2)["seeds"]]
        ['cefc1232', '4e050633']
        """
        seeds = [self.chain.seed(n).hex() for n in range(1, min(finished, self.chain.length) + 1)]
        return {**self.public(), "seeds": seeds}
