"""The long-lived heap is frozen: at start-up in the app's lifespan (unless switched off),
and again by the heap keeper once enough has survived, always after a collection, so that
garbage is never frozen; a thaw finds a cycle that died while frozen. No timings."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Iterator

import pytest

from server.api import heap
from server.api.app import create_app
from server.api.heap import HeapKeeper
from server.settings import Settings


class Node:
    """An object that can be in a reference cycle and be watched by a weak reference."""

    def __init__(self) -> None:
        self.other: Node | None = None


def cycle() -> tuple[weakref.ref[Node], Node]:
    """Two nodes referring to each other: a weak reference to one, and one of them."""
    one, two = Node(), Node()
    one.other, two.other = two, one
    return weakref.ref(one), two


@pytest.fixture(autouse=True)
def collector() -> Iterator[None]:
    """Every test starts with nothing frozen, and leaves the collector as it found it."""
    threshold = gc.get_threshold()
    gc.collect()
    gc.unfreeze()
    try:
        yield
    finally:
        gc.unfreeze()
        gc.set_threshold(*threshold)


def test_the_heap_is_frozen_once_the_server_is_up_and_given_back_at_its_end(
    migrated_db_url: str,
) -> None:
    app = create_app(Settings(database_url=migrated_db_url))

    async def lifespan() -> None:
        async with app.router.lifespan_context(app):
            assert gc.get_freeze_count() > 1000  # the frameworks and the tables
            await asyncio.sleep(0)
        assert gc.get_freeze_count() == 0

    asyncio.run(lifespan())


def test_switched_off_nothing_is_frozen(migrated_db_url: str) -> None:
    gc.set_threshold(700, 10, 10)
    app = create_app(Settings(database_url=migrated_db_url, gc_freeze=False))

    async def lifespan() -> None:
        async with app.router.lifespan_context(app):
            assert gc.get_freeze_count() == 0
            assert gc.get_threshold() == (700, 10, 10)

    asyncio.run(lifespan())


def test_the_setting_is_read_from_the_environment() -> None:
    assert Settings.from_env({}).gc_freeze is True
    assert Settings.from_env({"STAMMTISCH_GC_FREEZE": "off"}).gc_freeze is False


def test_what_survived_is_frozen_once_enough_has_grown_and_garbage_is_not() -> None:
    keeper = HeapKeeper(refreeze_objects=5_000)
    heap.refreeze()  # as after start-up
    frozen = gc.get_freeze_count()
    kept = [[n] for n in range(2_000)]
    gc.collect(1)  # they survived a young collection: old now
    keeper.check()
    assert keeper.freezes == 0  # not enough has grown
    grown = [[n] for n in range(6_000)]
    gone, two = cycle()
    gc.collect(1)  # the cycle is old too, and alive
    del two  # now it is garbage (in the old generation, not yet collected)
    keeper.check()
    assert keeper.freezes == 1
    assert gc.get_freeze_count() >= frozen + len(kept) + len(grown)
    assert gone() is None  # collected first, so it was not frozen
    assert heap.unfrozen_old_objects() < 100


def test_the_keeper_counts_only_after_a_young_collection(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    counted: list[int] = []

    def count() -> int:
        counted.append(1)
        return 0

    monkeypatch.setattr(heap, "unfrozen_old_objects", count)
    keeper = HeapKeeper()
    gc.disable()  # no automatic collection in between
    try:
        keeper.check()
        keeper.check()  # no collection in between: nothing can have become old
        assert len(counted) == 1
        gc.collect(0)
        keeper.check()
        assert len(counted) == 2
    finally:
        gc.enable()


def test_a_frozen_object_is_still_freed_when_nothing_refers_to_it() -> None:
    node = Node()
    watched = weakref.ref(node)
    gc.freeze()
    del node
    assert watched() is None  # by its reference count, no collection needed


def test_a_thaw_finds_a_cycle_that_died_while_frozen() -> None:
    watched, two = cycle()
    gc.freeze()
    del two  # now garbage, but frozen: no collection sees it
    gc.collect()
    assert watched() is not None
    keeper = HeapKeeper(thaw_seconds=0.0)
    keeper.check()
    assert keeper.thaws == 1
    assert watched() is None
    assert gc.get_freeze_count() > 0  # what lives is frozen again


def test_the_keeper_runs_in_the_loop_and_unfreezes_when_stopped() -> None:
    async def scenario() -> None:
        keeper = HeapKeeper(check_seconds=0.01, refreeze_objects=0)
        keeper.start()
        async with asyncio.timeout(10):
            while keeper.freezes == 0:
                await asyncio.sleep(0.01)
        assert gc.get_freeze_count() > 0
        await keeper.stop()
        assert gc.get_freeze_count() == 0

    asyncio.run(scenario())
