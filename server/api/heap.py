"""What the garbage collector walks: the long-lived heap is frozen, and frozen again as it
grows, so that a full collection does not walk every open socket and table.

CPython frees an object as soon as nothing refers to it any more; its cyclic garbage
collector is only for reference cycles, and a *full* collection walks every object it
tracks. With a thousand sockets open on 300 tables that is 250,000 to 300,000 objects
(about 160 per idle socket: uvicorn's and websockets' protocol objects, the coroutines of
the ASGI stack, the connection), and a full collection took 80–170 ms of CPU, during which
no table moves (docs/benchmarks.md, "Garbage collection and idle sockets").

``gc.freeze()`` moves every object the collector tracks into a permanent generation that
no collection walks. The server freezes

1. at start-up, once the frameworks are imported, the database is checked and the running
   matches are recovered (``settle_garbage_collector`` in ``server/api/app.py``);
2. whenever the heap outside the frozen set has grown by :data:`REFREEZE_OBJECTS` objects
   that survived a young collection (tables started and sockets opened since), looked at
   every :data:`CHECK_SECONDS` by :class:`HeapKeeper`: a full collection, then the freeze.

Why this is safe. A frozen object is still freed when its reference count drops to zero,
as nearly everything is: a socket's objects go when it closes, frozen or not. Measured
(thawing afterwards and collecting with ``gc.DEBUG_SAVEALL``): closing 200 sockets that
were frozen while open, a hundred HTTP keep-alive connections, and tables played on, ended
by agreement and replaced by a Revanche after a freeze left no frozen garbage behind. What
a freeze must not take in is garbage: a reference cycle that is already unreachable, or
one that becomes unreachable later, is never found while it is frozen. Hence

* every freeze follows a full collection in the same step of the event loop, so what is
  frozen has just been found reachable: live state, not garbage (the cycles an HTTP
  request or a WebSocket upgrade leaves behind are collected first; when another thread's
  collection keeps this one from running, nothing is frozen);
* a freeze only happens when that much has survived, so freezes are few: one per hundred
  sockets opened or so, and hardly any while the tables only play (what an action
  allocates dies young);
* should some path still leave a cycle of frozen objects behind, :data:`THAW_SECONDS`
  bounds its life: that often everything is thawed, collected once (one full pause, logged
  with how much it freed) and frozen again.

``STAMMTISCH_GC_FREEZE=false`` switches all of this off (``server/settings.py``).
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time

from server.background import stop_task

logger = logging.getLogger(__name__)

#: Objects in the two older generations, outside the frozen set, at which the heap is
#: collected and frozen again. A full collection then walks these, what grew since the
#: last look and the youngest generation (at most 10,000 allocations): 5–15 ms.
REFREEZE_OBJECTS = 15_000
#: Seconds between two looks at the heap. A look counts the objects above (a fraction of a
#: millisecond while there are fewer than :data:`REFREEZE_OBJECTS`), and only when a young
#: collection ran since the last look: nothing else makes an object old.
CHECK_SECONDS = 0.25
#: Seconds between two thaws: the longest a frozen reference cycle can outlive its use.
THAW_SECONDS = 3600.0


def unfrozen_old_objects() -> int:
    """Objects the collector tracks outside the frozen set that survived a collection."""
    return len(gc.get_objects(generation=1)) + len(gc.get_objects(generation=2))


def collect_all() -> int | None:
    """A full collection: how many unreachable objects it found, or ``None`` when it could
    not run (``gc.collect()`` does nothing while a collection is running already, in
    another thread whose finalizers let this one run)."""
    before = gc.get_stats()[2]["collections"]
    found = gc.collect()
    return found if gc.get_stats()[2]["collections"] != before else None


def refreeze() -> bool:
    """Collect all generations, then freeze what survived (see the module's docstring);
    ``False`` (nothing frozen) when no collection could run."""
    if collect_all() is None:
        return False
    gc.freeze()
    return True


def thaw() -> int | None:
    """Unfreeze everything, collect it all once and freeze what survived; return how many
    unreachable objects the collection found (cycles that had been frozen, or young ones).
    ``None`` when no collection could run: then nothing is frozen until the next look
    freezes it again."""
    gc.unfreeze()
    found = collect_all()
    if found is not None:
        gc.freeze()
    return found


class HeapKeeper:
    """Freezes the heap again whenever it has grown (:data:`REFREEZE_OBJECTS`), and thaws
    it every :data:`THAW_SECONDS`; a task of the server's event loop from :meth:`start` to
    :meth:`stop`, which also unfreezes everything (the app's life is over)."""

    def __init__(
        self,
        *,
        check_seconds: float = CHECK_SECONDS,
        refreeze_objects: int = REFREEZE_OBJECTS,
        thaw_seconds: float = THAW_SECONDS,
    ) -> None:
        self.check_seconds = check_seconds
        self.refreeze_objects = refreeze_objects
        self.thaw_seconds = thaw_seconds
        self.freezes = 0
        self.thaws = 0
        self._thawed = time.monotonic()
        self._young_collections: int | None = None  # as of the last count
        self._task: asyncio.Task[None] | None = None

    def check(self) -> None:
        """Thaw when it is time, else freeze again when the heap has grown enough."""
        now = time.monotonic()
        if now - self._thawed >= self.thaw_seconds:
            started, frozen = time.thread_time(), gc.get_freeze_count()
            found = thaw()
            self._thawed = time.monotonic()
            self.thaws += 1
            logger.info("heap: thawed %s objects; the full collection found %s unreachable "
                        "(%.0f ms of CPU); %s frozen again", frozen, found,
                        1000 * (time.thread_time() - started), gc.get_freeze_count())  # fmt: skip
            return
        stats = gc.get_stats()
        young = stats[0]["collections"] + stats[1]["collections"]
        if young == self._young_collections:
            return  # nothing became old since the last count
        self._young_collections = young
        grown = unfrozen_old_objects()
        if grown >= self.refreeze_objects:
            started = time.thread_time()
            if not refreeze():
                return  # another thread was collecting: at the next look
            self.freezes += 1
            logger.debug("heap: froze %s grown objects (%.1f ms of CPU); %s frozen", grown,
                         1000 * (time.thread_time() - started), gc.get_freeze_count())  # fmt: skip

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.check_seconds)
            try:
                self.check()
            except Exception:  # never let the server's heap care stop for good
                logger.exception("heap: the check failed")

    def start(self) -> None:
        """Start looking at the heap (in the running event loop)."""
        self._thawed = time.monotonic()
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        """Stop looking, and unfreeze everything."""
        task, self._task = self._task, None
        await stop_task(task)
        gc.unfreeze()
