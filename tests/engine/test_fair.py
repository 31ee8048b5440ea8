"""The fair shuffle (``server.engine.fair``): the known-answer vectors of
``docs/record-format.md`` ("Fair shuffling"), the commitment and the players' part.

The vectors were checked against the browser's own implementation
(``web/static/js/fair-core.js``, Web Crypto), which the browser test runs on them too.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from server.engine import fair
from server.engine.fair import FairChain, check_reveal, deal_order, parse_player_seed, parse_seed
from server.engine.registry import get_rules

ROOT = Path(__file__).resolve().parents[2]

SECRET = bytes(range(32))
COMMITMENT = "d06ab04a60c2b9012245fdd6cf457b53552569491a7dad7cae305650b6483328"
CHAIN = {
    1: "cefc1232dee44cc53fccf8cc078f657f4db4f1d0303725375a0694f7d395e2ea",
    2: "4e05063392f42b5180353ef82da86c714042155044d91ab3253f1bab08120a0a",
    3: "2f287b4d3d4910f6cada9e1bd1b4648099e8c52c81aa4a6aebfa6fc86f19834e",
    4: "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd",
    5: "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
}

#: (deal number, player seeds, pack size, order) with the chain above (N = 5).
VECTORS: list[tuple[int, list[str], int, list[int]]] = [
    (2, ["11" * 32, "22" * 32, ""], 54,
     [37, 46, 40, 6, 20, 38, 15, 41, 2, 47, 11, 27, 18, 29, 19, 22, 0, 42, 23, 33, 31, 3, 17,
      49, 21, 50, 10, 25, 28, 26, 36, 1, 44, 32, 16, 45, 5, 12, 52, 13, 39, 24, 35, 8, 43, 30,
      48, 7, 51, 34, 9, 14, 53, 4]),
    (1, ["aa" * 32] * 4, 48,
     [5, 19, 35, 39, 13, 38, 47, 26, 11, 4, 10, 34, 8, 36, 2, 16, 42, 43, 40, 41, 3, 9, 29, 21,
      20, 1, 46, 30, 25, 17, 32, 15, 27, 6, 18, 14, 0, 22, 44, 31, 28, 33, 37, 12, 45, 7, 24,
      23]),
    (5, [], 36,
     [28, 3, 19, 35, 17, 18, 10, 27, 1, 31, 23, 30, 0, 25, 33, 21, 24, 6, 4, 15, 29, 7, 9, 8,
      14, 11, 2, 26, 13, 32, 34, 12, 22, 20, 16, 5]),
]  # fmt: skip


def test_the_chain_of_the_known_answer() -> None:
    chain = FairChain(SECRET, 5)
    assert chain.commitment().hex() == COMMITMENT
    assert {n: chain.seed(n).hex() for n in range(1, 6)} == CHAIN


@pytest.mark.parametrize(("number", "seeds", "size", "order"), VECTORS)
def test_known_answer_orders(number: int, seeds: list[str], size: int, order: list[int]) -> None:
    players = [parse_player_seed(seed) for seed in seeds]
    assert deal_order(size, bytes.fromhex(CHAIN[number]), players) == order
    assert sorted(order) == list(range(size))


def test_known_answer_deal_of_dreierles() -> None:
    """Vector 1 dealt as Dreierles deals (talon first, then packets of eight)."""
    rules = get_rules("dreierles")
    players = [parse_player_seed(s) for s in VECTORS[0][1]]
    dealt = rules.fair_deal(bytes.fromhex(CHAIN[2]), players)
    talon = [rules.pack.code(card) for card in dealt.talon]
    assert talon == ["Ka4", "KrK", "PC", "T7", "T21", "PK"]
    assert rules.pack.codes(dealt.hands[0]) == [
        "T2", "T3", "T6", "T12", "T13", "T16", "T17", "T19",
        "H2", "H4", "KaC", "Ka3", "PB", "P8", "P7", "KrD",
    ]  # fmt: skip
    assert dealt == rules.deal_cards(VECTORS[0][3])


def test_the_vectors_are_the_documented_ones() -> None:
    """docs/record-format.md states the same vectors, so other implementations can check."""
    text = (ROOT / "docs" / "record-format.md").read_text(encoding="utf-8")
    assert COMMITMENT in text and all(seed in text for seed in CHAIN.values())
    for _number, _seeds, _size, order in VECTORS:
        assert ", ".join(map(str, order)) in re.sub(r"\s+", " ", text)


def test_the_published_hash_binds_the_seed() -> None:
    chain = FairChain(SECRET, 5)
    top = chain.commitment()
    for number in range(1, 6):
        seed = chain.seed(number)
        assert check_reveal(seed, number, top)
        assert not check_reveal(seed, number + 1, top)  # at its own place only
        if number > 1:
            assert not check_reveal(seed, number - 1, top)
        for bit in (0, 7, 128, 255):  # any other seed fails
            flipped = bytearray(seed)
            flipped[bit // 8] ^= 1 << (bit % 8)
            assert not check_reveal(bytes(flipped), number, top)
    assert not check_reveal(chain.seed(1), 0, top)
    assert not check_reveal(chain.seed(1)[:31], 1, top)
    # another secret: another commitment
    assert FairChain(bytes(31) + b"\x01", 5).commitment() != top


def test_the_deal_depends_on_every_players_seed() -> None:
    seed = bytes.fromhex(CHAIN[1])
    players = [bytes([n]) * 32 for n in (1, 2, 3, 4)]
    base = deal_order(48, seed, players)
    for index in range(len(players)):
        changed = list(players)
        changed[index] = bytes([9]) * 32
        assert deal_order(48, seed, changed) != base, index
        missing = list(players)
        missing[index] = b""
        assert deal_order(48, seed, missing) != base, index
    assert deal_order(48, seed, players[:3]) != base  # a seed left out
    assert deal_order(48, seed, players[::-1]) != base  # the seats' order counts
    assert deal_order(48, bytes.fromhex(CHAIN[2]), players) != base  # and the deal's seed


def test_every_card_reaches_every_place() -> None:
    """A coarse check of the shuffle (deterministic: fixed seeds): over 3,000 deals of four
    cards each card lies first about a quarter of the time."""
    counts = [0] * 4
    chain = FairChain(SECRET, 3000)
    seed = chain.secret
    for _ in range(3000):
        counts[deal_order(4, seed, [b"x"])[0]] += 1
        seed = fair.sha256(seed)
    assert all(650 < count < 850 for count in counts), counts


@pytest.mark.parametrize("text", ["", "ab", "A" * 64, "g" * 64, "0" * 63, "0" * 65, 5, None])
def test_seeds_are_64_lowercase_hex_digits(text: Any) -> None:
    with pytest.raises(ValueError):
        parse_seed(text)
    assert parse_seed("0f" * 32) == bytes([15]) * 32


def test_the_chain_has_limits() -> None:
    with pytest.raises(ValueError):
        FairChain(b"short", 5)
    with pytest.raises(ValueError):
        FairChain(SECRET, 0)
    assert not FairChain(SECRET, 5).covers(6)
