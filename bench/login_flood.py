"""Login flood benchmark: what a flood of logins from many addresses does to everybody else.

Starts the server as it is deployed (``python -m server``, trusting ``X-Forwarded-For``
from 127.0.0.1 only, access log off) on a fresh migrated SQLite database (or on
``--database-url``), registers

* a user who stays logged in (``stammgast``), whose ``GET /api/me`` is asked every 20 ms
  in an open loop (new requests keep arriving whether or not the earlier ones were
  answered, as other users do);
* a known user (``bekannt``, a new one each round) who registered in his browser and
  logged out: that browser keeps its device cookie and logs in with the right password
  every 2 seconds;
* a Dreierles table of three, one of whose seats reconnects again and again (WebSocket
  opened, ``hello``, snapshot received).

Each round has two phases of the same length, measured the same way: the **baseline**
(nothing else happens) and the **flood**: ``--workers`` parallel workers (default 40; a
process of their own, so that the measuring client is not slowed by them) send ``POST
/api/login`` with unknown names one after the other as fast as they are answered, each
request from another client address (``X-Forwarded-For``: an attacker with many addresses,
so that the per-client limits do not help). During both phases the known user's login
from a browser without any cookie (a new browser) is tried every 2 seconds as well.

Reported per phase: ``/api/me`` median, p95 and max; the known user's logins with the
device cookie (statuses, median time) and from a new browser (statuses); the reconnects'
median; the flood's requests, statuses and rate. The goal (issue 26): during the flood
the ``/api/me`` median at most 50 ms and every login with the device cookie succeeds.

``--compare REV`` (repeatable) also serves git revision ``REV`` (``git archive``, its own
database migrated by its own migrations; older revisions know no device cookie) and
interleaves the rounds, so that all see the same machine; the load average is printed.
Results go into docs/benchmarks.md ("Login flood").
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import secrets
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from io import BytesIO
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx
from websockets.asyncio.client import connect

from bench.run import machine
from tests.support import REPO_ROOT, free_port, sqlite_url, wait_until_up
from tests.table_client import COOKIE, make_room, start

#: Accepted by the password policy of every version.
PASSWORD = "kartenspiel-42"
DEVICE_COOKIE = "stammtisch_device"
#: The addresses the known user's browsers come from.
HOME = "203.0.113.5"
NEW_BROWSER = "203.0.113.77"
GOAL_ME_P50_MS = 50.0
ME_INTERVAL = 0.02
#: A person logs in now and then: one login every 2 s keeps within the small bucket of a
#: known browser's logins (10 at once, then 10 a minute) for a round of two phases.
LOGIN_INTERVAL = 2.0


@dataclass
class Target:
    """A server under test and the people set up on it."""

    name: str
    base_url: str
    regular_cookie: str
    known_login: str
    #: The known user's browser's cookies (the device cookie among them).
    known_cookies: httpx.Cookies
    seat_cookie: str
    room: int
    rows: list[dict[str, Any]] = field(default_factory=list)


def percentile(values: list[float], fraction: float) -> float:
    """The ``fraction`` quantile of ``values`` (nearest rank), or NaN for none."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


# --------------------------------------------------------------------------- the server


def migrate(checkout: Path, database_url: str) -> None:
    """Bring ``database_url`` to the head revision of ``checkout``'s own migrations."""
    env = {**os.environ, "DATABASE_URL": database_url}
    subprocess.run([sys.executable, "-m", "alembic", "upgrade", "head"], cwd=checkout, env=env,
                   check=True, capture_output=True)  # fmt: skip


@contextlib.contextmanager
def serve(
    workdir: Path, checkout: Path = REPO_ROOT, database_url: str | None = None
) -> Iterator[str]:
    """Run ``python -m server`` of ``checkout`` on ``database_url`` (default: a fresh
    migrated SQLite file in ``workdir``); yield its URL. Its output goes to a log in
    ``workdir``, printed if the server does not come up."""
    workdir.mkdir(parents=True, exist_ok=True)
    if database_url is None:
        database_url = sqlite_url(workdir / "flood.sqlite3")
        migrate(checkout, database_url)
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "STAMMTISCH_PUBLIC_ORIGINS": f"http://127.0.0.1:{port}",
        "STAMMTISCH_SECRET_KEY": secrets.token_urlsafe(32),
        "PYTHONPATH": str(checkout),
    }
    command = [sys.executable, "-m", "server", "--host", "127.0.0.1", "--port", str(port),
               "--proxy-headers", "--forwarded-allow-ips", "127.0.0.1",
               "--no-access-log", "--log-level", "warning"]  # fmt: skip
    log_path = workdir / "server.log"
    with log_path.open("ab") as log:
        process = subprocess.Popen(command, cwd=checkout, env=env, stdout=log,
                                   stderr=subprocess.STDOUT)  # fmt: skip
        try:
            try:
                wait_until_up(f"http://127.0.0.1:{port}", process, 60)
            except (RuntimeError, TimeoutError):
                print(log_path.read_text()[-4000:], file=sys.stderr)
                raise
            yield f"http://127.0.0.1:{port}"
        finally:
            process.terminate()
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


async def register(base_url: str, prefix: str) -> tuple[str, httpx.Cookies]:
    """Register a new account; return its login and the browser's cookies."""
    login = f"{prefix}_{secrets.token_hex(4)}"
    async with httpx.AsyncClient(base_url=base_url, timeout=60,
                                 headers={"X-Forwarded-For": HOME}) as client:  # fmt: skip
        response = await client.post(
            "/api/register", json={"login": login, "password": PASSWORD, "display_name": "Hans"}
        )
        response.raise_for_status()
        return login, client.cookies


async def known_user(base_url: str) -> tuple[str, httpx.Cookies]:
    """A new known user, registered in his browser and logged out: his login and the
    browser's cookies (the device cookie)."""
    known, cookies = await register(base_url, "bekannt")
    async with httpx.AsyncClient(base_url=base_url, timeout=60, cookies=cookies) as client:
        (await client.post("/api/logout")).raise_for_status()
        return known, client.cookies


async def set_up(name: str, base_url: str) -> Target:
    """The logged-in user, the known user (logged out, his device cookie kept) and a
    running Dreierles table of three."""
    _regular, regular_cookies = await register(base_url, "stammgast")
    known, known_cookies = await known_user(base_url)
    clients, room, _token = await make_room(base_url, "dreierles", ["Anna", "Bernd", "Catrin"])
    await start(clients[0], room)
    seat_cookie = clients[1].cookie
    for player in clients:
        await player.aclose()
    regular = regular_cookies.get(COOKIE)
    assert regular is not None
    return Target(name, base_url, regular, known, known_cookies, seat_cookie, room)


# --------------------------------------------------------------------------- the flood


async def flood(base_url: str, workers: int, seconds: float) -> dict[str, Any]:
    """``workers`` workers logging in with unknown names, each request from another
    address, one request after the other, for ``seconds``."""
    statuses: Counter[int] = Counter()
    limits = httpx.Limits(max_connections=workers, max_keepalive_connections=workers)
    deadline = time.monotonic() + seconds
    async with httpx.AsyncClient(base_url=base_url, timeout=60, limits=limits) as client:

        async def worker() -> None:
            while time.monotonic() < deadline:
                address = ".".join(["10", *(str(secrets.randbelow(256)) for _ in range(3))])
                body = {"login": f"spray_{secrets.token_hex(5)}", "password": "rate-mal-123"}
                try:
                    response = await client.post(
                        "/api/login", json=body, headers={"X-Forwarded-For": address}
                    )
                    statuses[response.status_code] += 1
                except httpx.HTTPError:
                    statuses[0] += 1

        started = time.monotonic()
        await asyncio.gather(*(worker() for _ in range(workers)))
        took = time.monotonic() - started
    total = sum(statuses.values())
    counts = dict(sorted(statuses.items()))
    return {"requests": total, "per_second": total / took, "statuses": counts}


def start_flood(base_url: str, workers: int, seconds: float) -> subprocess.Popen[str]:
    """The flood in a process of its own (it prints its figures as JSON at the end)."""
    command = [sys.executable, str(Path(__file__).resolve()), "--flood-only", base_url,
               "--workers", str(workers), "--seconds", str(seconds)]  # fmt: skip
    return subprocess.Popen(command, stdout=subprocess.PIPE, text=True)


# --------------------------------------------------------------------------- measuring


async def sample_me(target: Target, stop: asyncio.Event) -> list[float]:
    """``/api/me`` latencies of the logged-in user: a request every 20 ms until ``stop``,
    whether the earlier ones were answered or not."""
    latencies: list[float] = []
    async with httpx.AsyncClient(base_url=target.base_url, timeout=120,
                                 cookies={COOKIE: target.regular_cookie},
                                 limits=httpx.Limits(max_connections=None)) as client:  # fmt: skip

        async def one() -> None:
            started = time.perf_counter()
            response = await client.get("/api/me")
            latencies.append(time.perf_counter() - started)
            if response.status_code != 200:
                raise RuntimeError(f"/api/me answered {response.status_code}: {response.text}")

        requests = []
        while not stop.is_set():
            requests.append(asyncio.create_task(one()))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), ME_INTERVAL)
        await asyncio.gather(*requests)
    return latencies


async def known_logins(
    target: Target, stop: asyncio.Event, with_device: bool
) -> list[tuple[int, float]]:
    """The known user's logins with the right password, once a second until ``stop``:
    from his own browser (``with_device``: its device cookie) or from a new one."""
    results: list[tuple[int, float]] = []
    address = HOME if with_device else NEW_BROWSER
    while not stop.is_set():
        # a new browser each time has no cookie at all; his own keeps its device cookie
        cookies = target.known_cookies if with_device else None
        async with httpx.AsyncClient(base_url=target.base_url, timeout=120, cookies=cookies,
                                     headers={"X-Forwarded-For": address}) as client:  # fmt: skip
            started = time.perf_counter()
            response = await client.post(
                "/api/login", json={"login": target.known_login, "password": PASSWORD}
            )
            results.append((response.status_code, time.perf_counter() - started))
            if with_device:
                target.known_cookies = client.cookies  # renewed
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), LOGIN_INTERVAL)
    return results


async def reconnects(target: Target, stop: asyncio.Event) -> list[float]:
    """Seconds from opening a seat's WebSocket to its snapshot, one after the other."""
    url = target.base_url.replace("http://", "ws://") + "/ws"
    times: list[float] = []
    while not stop.is_set():
        started = time.perf_counter()
        async with connect(url, additional_headers={"Cookie": f"{COOKIE}={target.seat_cookie}"},
                           compression=None) as ws:  # fmt: skip
            hello = {"type": "hello", "room": target.room, "last_version": None}
            await ws.send(json.dumps(hello))
            async with asyncio.timeout(120):
                while json.loads(await ws.recv())["type"] != "snapshot":
                    pass
        times.append(time.perf_counter() - started)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), 0.2)
    return times


async def phase(target: Target, seconds: float, workers: int) -> dict[str, Any]:
    """Measure for ``seconds``, with a flood of ``workers`` (0: the baseline)."""
    flooding = None
    if workers:
        flooding = start_flood(target.base_url, workers, seconds + 1.5)
        await asyncio.sleep(1.0)  # the flood has arrived and drained what it can
    stop = asyncio.Event()
    sampling = asyncio.create_task(sample_me(target, stop))
    device_logging_in = asyncio.create_task(known_logins(target, stop, with_device=True))
    new_logging_in = asyncio.create_task(known_logins(target, stop, with_device=False))
    reconnecting = asyncio.create_task(reconnects(target, stop))
    await asyncio.sleep(seconds)
    stop.set()
    me, device_logins = await sampling, await device_logging_in
    new_logins, reconnect = await new_logging_in, await reconnecting
    flood_figures: dict[str, Any] = {}
    if flooding is not None:
        out, _ = await asyncio.to_thread(flooding.communicate)
        flood_figures = json.loads(out)
    return {
        "target": target.name,
        "phase": "flood" if workers else "baseline",
        "me_p50_ms": 1000 * percentile(me, 0.5),
        "me_p95_ms": 1000 * percentile(me, 0.95),
        "me_max_ms": 1000 * max(me),
        "me_requests": len(me),
        "device_logins": dict(sorted(Counter(s for s, _ in device_logins).items())),
        "device_login_p50_ms": 1000 * statistics.median(t for _, t in device_logins),
        "new_browser_logins": dict(sorted(Counter(s for s, _ in new_logins).items())),
        "reconnect_p50_ms": 1000 * statistics.median(reconnect) if reconnect else float("nan"),
        "reconnects": len(reconnect),
        "flood": flood_figures,
        "load": os.getloadavg()[0],
    }


async def run_round(target: Target, seconds: float, workers: int) -> list[dict[str, Any]]:
    """The baseline, then the flood, on ``target`` (with a new known user)."""
    target.known_login, target.known_cookies = await known_user(target.base_url)
    baseline = await phase(target, seconds, 0)
    await asyncio.sleep(1.0)
    flooded = await phase(target, seconds, workers)
    await asyncio.sleep(1.0)  # the flood's last answers
    return [baseline, flooded]


# --------------------------------------------------------------------------- reporting


def line(row: dict[str, Any]) -> str:
    """One row of the printed report."""
    text = (f"{row['target']:>8} {row['phase']:>8}: /api/me p50 {row['me_p50_ms']:7.1f} ms"
            f"  p95 {row['me_p95_ms']:7.1f} ms  max {row['me_max_ms']:7.1f} ms"
            f" ({row['me_requests']})  device login {row['device_logins']}"
            f" {row['device_login_p50_ms']:.0f} ms  new browser {row['new_browser_logins']}"
            f"  reconnect p50 {row['reconnect_p50_ms']:.1f} ms")  # fmt: skip
    if row["flood"]:
        flood = row["flood"]
        text += f"  flood {flood['requests']} ({flood['per_second']:.0f}/s) {flood['statuses']}"
    return text + f"  load {row['load']:.1f}"


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Medians over rounds of one target's phase, and the logins' statuses summed."""
    numbers = ["me_p50_ms", "me_p95_ms", "me_max_ms", "device_login_p50_ms", "reconnect_p50_ms"]
    result: dict[str, Any] = {k: statistics.median(r[k] for r in rows) for k in numbers}
    for key in ("device_logins", "new_browser_logins"):
        total: Counter[int] = Counter()
        for row in rows:
            total.update({int(k): v for k, v in row[key].items()})
        result[key] = dict(sorted(total.items()))
    if rows[0]["flood"]:
        result["flood_per_second"] = statistics.median(r["flood"]["per_second"] for r in rows)
    return result


@contextlib.contextmanager
def checkout_of(revision: str, workdir: Path) -> Iterator[Path]:
    """The tree of git ``revision`` of this repository, unpacked under ``workdir``."""
    archive = subprocess.run(["git", "-C", str(REPO_ROOT), "archive", revision],
                             check=True, capture_output=True).stdout  # fmt: skip
    directory = workdir / f"rev-{revision.replace('/', '-')}"
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(directory, filter="data")
    yield directory


def main() -> int:
    """Run the benchmark; print the report and the figures as one JSON line."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--workers", type=int, default=40, help="parallel flood workers (40)")
    parser.add_argument("--seconds", type=float, default=10, help="length of a phase (10)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per server (3)")
    parser.add_argument("--compare", metavar="REV", action="append", default=[],
                        help="also serve git revision REV (repeatable)")  # fmt: skip
    parser.add_argument("--database-url", help="serve this migrated database instead")
    parser.add_argument("--flood-only", metavar="URL", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.flood_only:
        print(json.dumps(asyncio.run(flood(args.flood_only, args.workers, args.seconds))))
        return 0

    workdir = Path(tempfile.mkdtemp(prefix="stammtisch-flood-"))
    rows: list[dict[str, Any]] = []
    try:
        with contextlib.ExitStack() as stack:
            sources = [(rev, stack.enter_context(checkout_of(rev, workdir)))
                       for rev in args.compare] + [("this", REPO_ROOT)]  # fmt: skip
            targets = []
            for number, (name, checkout) in enumerate(sources):
                base_url = stack.enter_context(
                    serve(workdir / str(number), checkout, args.database_url)
                )
                targets.append(asyncio.run(set_up(name, base_url)))
            print(f"machine: {machine()}; {args.workers} flood workers, phases of "
                  f"{args.seconds:g} s, load {os.getloadavg()[0]:.1f}")  # fmt: skip
            for number in range(args.rounds):
                for target in targets if number % 2 == 0 else targets[::-1]:
                    for row in asyncio.run(run_round(target, args.seconds, args.workers)):
                        rows.append(row)
                        print(line(row), flush=True)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    medians = {}
    print(f"medians of {args.rounds} round(s):")
    for name, _checkout in sources:
        for kind in ("baseline", "flood"):
            found = [r for r in rows if r["target"] == name and r["phase"] == kind]
            medians[f"{name} {kind}"] = figures = summary(found)
            print(f"  {name:>8} {kind:>8}: /api/me p50 {figures['me_p50_ms']:.1f} ms, p95 "
                  f"{figures['me_p95_ms']:.1f} ms; device logins {figures['device_logins']}, "
                  f"new browser {figures['new_browser_logins']}")  # fmt: skip
        flooded = medians[f"{name} flood"]
        met = flooded["me_p50_ms"] <= GOAL_ME_P50_MS and set(flooded["device_logins"]) == {200}
        print(f"  {name:>8} goal (flood: /api/me p50 <= {GOAL_ME_P50_MS:g} ms, every device "
              f"login 200): {'met' if met else 'NOT met'}")  # fmt: skip
    print(json.dumps({"machine": machine(), "workers": args.workers, "seconds": args.seconds,
                      "medians": medians, "rows": rows}))  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
