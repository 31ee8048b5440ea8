"""The limits on logging in and creating accounts, and the password hashing pool, without a
server: token buckets, the lockout per (name, client), memory bounds, the busy answer."""

from __future__ import annotations

import asyncio
import threading
from types import SimpleNamespace
from typing import Any, cast

import pytest
from argon2 import PasswordHasher
from starlette.requests import HTTPConnection

from server.api.errors import ApiError
from server.api.throttle import AuthLimits, Buckets, LoginThrottle, Rate, client_key
from server.store.passwords import KNOWN_PER_WORKER, PasswordPool, PasswordsBusy


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_bucket_allows_a_burst_then_the_rate() -> None:
    clock = Clock()
    buckets = Buckets(Rate(burst=3, per_minute=6), clock)  # a token every 10 s
    assert [buckets.take("a") for _ in range(3)] == [None, None, None]
    wait = buckets.take("a")
    assert wait is not None and 9.9 < wait <= 10
    assert buckets.take("b") is None  # another key has its own bucket
    clock.now += 5
    wait = buckets.take("a")  # a refused attempt takes nothing
    assert wait is not None and 4.9 < wait <= 5
    clock.now += 5
    assert buckets.take("a") is None
    assert buckets.take("a") is not None


def test_buckets_stay_bounded() -> None:
    clock = Clock()
    buckets = Buckets(Rate(burst=2, per_minute=60), clock, max_keys=100)
    for i in range(1000):
        buckets.take(f"client{i}")
        assert len(buckets) <= 100
    # buckets that have filled up again go first: a limited client keeps its state
    buckets = Buckets(Rate(burst=2, per_minute=60), clock, max_keys=100)  # 1 token a second
    buckets.take("busy")
    buckets.take("busy")
    for i in range(99):
        buckets.take(f"quiet{i}")
    assert len(buckets) == 100
    clock.now += 1.5  # the quiet ones are full again, "busy" has 1.5 tokens
    assert buckets.take("newcomer") is None
    assert len(buckets) == 2
    assert buckets.take("busy") is None
    assert buckets.take("busy") is not None


def test_lockout_is_per_name_and_client() -> None:
    clock = Clock()
    throttle = LoginThrottle(limit=3, window=60, clock=clock)
    for _ in range(3):
        assert throttle.retry_after("Hans", "10.0.0.66") is None
        throttle.failed("hans", "10.0.0.66")
        clock.now += 1
    wait = throttle.retry_after("HANS", "10.0.0.66")
    assert wait is not None and 57 <= wait <= 58
    assert throttle.retry_after("hans", "10.0.0.1") is None  # the owner, elsewhere
    assert throttle.retry_after("sepp", "10.0.0.66") is None  # another name
    clock.now += 57  # 60 s after the first failure
    assert throttle.retry_after("hans", "10.0.0.66") is None
    throttle.failed("hans", "10.0.0.66")
    throttle.succeeded("hans", "10.0.0.1")  # the owner's success does not clear the attacker
    assert throttle.retry_after("hans", "10.0.0.66") is not None
    throttle.succeeded("hans", "10.0.0.66")
    assert throttle.retry_after("hans", "10.0.0.66") is None


def test_lockout_stays_bounded() -> None:
    clock = Clock()
    throttle = LoginThrottle(limit=3, window=60, clock=clock, max_keys=50)
    for i in range(500):
        for _ in range(5):
            throttle.failed(f"name{i}", "10.0.0.66")
        assert len(throttle) <= 50
    assert throttle.retry_after("name499", "10.0.0.66") is not None


def connection(host: str | None) -> HTTPConnection:
    return cast(HTTPConnection, SimpleNamespace(client=None if host is None else
                                                 SimpleNamespace(host=host)))  # fmt: skip


def test_client_keys() -> None:
    assert client_key(connection("192.0.2.7")) == "192.0.2.7"
    assert client_key(connection("::ffff:192.0.2.7")) == "192.0.2.7"
    first = client_key(connection("2001:db8:1:2:aaaa::1"))
    assert first == "2001:db8:1:2::/64"
    assert client_key(connection("2001:db8:1:2:bbbb::99")) == first  # one household
    assert client_key(connection("2001:db8:1:3::1")) != first
    assert client_key(connection("testclient")) == "testclient"
    assert client_key(connection(None)) == "unknown"


def test_limits_answer_in_both_languages() -> None:
    clock = Clock()
    limits = AuthLimits(
        per_client={"guest": Rate(burst=1, per_minute=1)},
        global_={"guest": Rate(burst=2, per_minute=1)},
        clock=clock,
    )
    limits.check("guest", "a")
    with pytest.raises(ApiError) as mine:
        limits.check("guest", "a")
    assert (mine.value.status, mine.value.code) == (429, "too_many_requests")
    assert mine.value.headers["Retry-After"] == "60"
    assert mine.value.message_de and mine.value.message_de != mine.value.message
    limits.check("guest", "b")
    with pytest.raises(ApiError) as everyone:
        limits.check("guest", "c")
    assert (everyone.value.status, everyone.value.code) == (503, "busy")
    assert int(everyone.value.headers["Retry-After"]) >= 1
    limits.check("login", "c")  # other kinds are counted apart
    for _ in range(10):
        limits.lockout.failed("hans", "a")
    with pytest.raises(ApiError) as locked:
        limits.check_lockout("Hans", "a")
    assert (locked.value.status, locked.value.code) == (429, "too_many_attempts")
    limits.check_lockout("hans", "b")

    off = AuthLimits(enabled=False, per_client={"guest": Rate(burst=1, per_minute=1)})
    for _ in range(5):
        off.check("guest", "a")
    assert off.passwords.bounded is False


class GatedHasher(PasswordHasher):
    """A hasher whose work waits until the test opens the gate."""

    def __init__(self) -> None:
        super().__init__(time_cost=1, memory_cost=8, parallelism=1)
        self.gate = threading.Event()
        self.started = threading.Semaphore(0)

    def hash(self, password: str | bytes, *, salt: bytes | None = None) -> str:
        self.started.release()
        self.gate.wait(10)
        return super().hash(password, salt=salt)


def test_the_pool_refuses_at_once_when_full() -> None:
    async def scenario() -> None:
        hasher = GatedHasher()
        pool = PasswordPool(workers=1, waiting=2, hasher=hasher)
        jobs = [asyncio.create_task(pool.hash(f"pw{i}")) for i in range(3)]
        await asyncio.sleep(0.05)
        assert pool.in_flight == 3
        with pytest.raises(PasswordsBusy) as busy:
            await pool.hash("one too many")
        assert busy.value.retry_after >= 1
        # a waiting request that goes away still counts until its job is done or dropped
        jobs[2].cancel()
        await asyncio.sleep(0.05)
        assert pool.in_flight == 2
        hasher.gate.set()
        hashes = await asyncio.gather(*jobs[:2])
        assert all(h.startswith("$argon2id$") for h in hashes)
        assert pool.in_flight == 0
        assert await pool.verify(hashes[0], "pw0") is True
        assert await pool.verify(hashes[0], "pw1") is False
        assert await pool.verify(None, "pw0") is False  # the dummy hash, same work
        pool.shutdown()

    asyncio.run(scenario())


def test_a_known_browser_has_places_of_its_own_in_a_full_pool() -> None:
    """A flood of logins fills the places everybody may take; a login from a known browser
    (its device cookie) still gets one of the places kept for it, and only those."""
    pool = PasswordPool(workers=1, waiting=2, hasher=GatedHasher())
    taken = [pool.reserve() for _ in range(3)]
    with pytest.raises(PasswordsBusy):
        pool.reserve()
    known = [pool.reserve(known=True) for _ in range(KNOWN_PER_WORKER)]
    with pytest.raises(PasswordsBusy):
        pool.reserve(known=True)
    with pytest.raises(PasswordsBusy):
        pool.reserve()
    for place in taken + known:
        place.release()
    assert pool.in_flight == 0
    pool.shutdown()


def test_an_unbounded_pool_queues() -> None:
    async def scenario() -> None:
        hasher = GatedHasher()
        pool = PasswordPool(workers=1, waiting=0, bounded=False, hasher=hasher)
        jobs = [asyncio.create_task(pool.hash("pw")) for _ in range(5)]
        await asyncio.sleep(0.05)
        assert pool.in_flight == 5
        hasher.gate.set()
        await asyncio.gather(*jobs)
        pool.shutdown()

    asyncio.run(scenario())


def test_hashing_runs_on_the_pool_threads() -> None:
    names: list[str] = []

    class Recording(PasswordHasher):
        def hash(self, password: str | bytes, *, salt: bytes | None = None) -> Any:
            names.append(threading.current_thread().name)
            return "x"

    async def scenario() -> None:
        pool = PasswordPool(workers=1, hasher=Recording())
        await pool.hash("pw")
        pool.shutdown()

    asyncio.run(scenario())
    assert names and names[0].startswith("argon2")


def test_a_place_is_taken_before_any_work_and_kept_while_its_job_runs() -> None:
    async def scenario() -> None:
        hasher = GatedHasher()
        pool = PasswordPool(workers=1, waiting=0, hasher=hasher)
        with pool.reserve() as place:
            assert pool.in_flight == 1
            with pytest.raises(PasswordsBusy):
                pool.reserve()  # refused before the request touched anything
            job = asyncio.create_task(place.hash("pw"))
            await asyncio.to_thread(hasher.started.acquire, True, 10)
            job.cancel()  # the request goes away while its hash runs
            with pytest.raises(asyncio.CancelledError):
                await job
        assert pool.in_flight == 1  # still counted: the thread is busy
        hasher.gate.set()
        for _ in range(100):
            if pool.in_flight == 0:
                break
            await asyncio.sleep(0.01)
        assert pool.in_flight == 0
        with pool.reserve() as place:
            assert (await place.hash("pw")).startswith("$argon2id$")
        pool.shutdown()

    asyncio.run(scenario())
