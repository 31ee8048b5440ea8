"""Login flood benchmark: what a burst of parallel logins does to everybody else.

Starts ``python -m uvicorn server.api.app:app`` (one process, access log off, as
``bench/load.py`` does) on a fresh migrated SQLite database, registers a user who stays
logged in and sets up a running Dreierles table (three players, ``tests.table_client``).
Then, per round:

* **quiet**: that user's ``GET /api/me`` latency (a request every 20 ms) and the time a
  table seat needs to reconnect (WebSocket opened, ``hello`` sent, snapshot received);
* **flood**: ``--logins`` parallel ``POST /api/login``, each from another client address
  (``X-Forwarded-For``, which uvicorn trusts from 127.0.0.1: an attacker with many
  addresses, so that per-client limits do not help; ``--one-client`` floods from one
  address), either with unknown names (``unknown``: every login a new name, as when
  names are sprayed) or with a known login and wrong passwords (``wrong``), while
  the user asks ``/api/me`` every 20 ms (open loop: whether or not the earlier requests
  were answered, as other users keep arriving) and a seat reconnects again and again, one
  reconnect after the other. Reported: ``/api/me`` p50/p99/max during the flood, the
  median and the longest reconnect, how the flood was answered
  (status counts) and how long it took, and whether the user can still log in with the
  right password from elsewhere afterwards (``owner``: the flooded account for ``wrong``).

``--compare REV`` (repeatable) also serves the server of git revision ``REV`` (``git
archive`` into a temporary directory; its own database, migrated by its own migrations)
and interleaves the rounds of all, so they see the same machine; the load average is
printed with every round, since the machine may be shared. Results go into
docs/benchmarks.md ("Login flood").
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
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx
from websockets.asyncio.client import connect

from bench.run import machine
from tests.support import REPO_ROOT, server_process, sqlite_url
from tests.table_client import COOKIE, make_room, start

#: The user's password (accepted by the policy of every version).
PASSWORD = "kartenspiel-42"
QUIET = ("--no-access-log", "--log-level", "warning")
#: The client the flood comes from with ``--one-client``, and the one the owner logs in
#: from afterwards.
ATTACKER = "198.51.100.66"
OWNER = "203.0.113.5"


@dataclass
class Target:
    """A server under test: its URL, the logged-in user and a seat of a running table."""

    name: str
    base_url: str
    login: str
    cookie: str
    seat_cookie: str
    room: int


def percentile(values: list[float], fraction: float) -> float:
    """The ``fraction`` quantile of ``values`` (nearest rank), or NaN for none."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


async def register_user(base_url: str, prefix: str) -> tuple[str, str]:
    """Register a new account; return its login and session cookie."""
    login = f"{prefix}_{secrets.token_hex(4)}"
    async with httpx.AsyncClient(base_url=base_url, timeout=60) as client:
        response = await client.post(
            "/api/register", json={"login": login, "password": PASSWORD, "display_name": "Opfer"}
        )
        response.raise_for_status()
        return login, client.cookies[COOKIE]


async def set_up(name: str, base_url: str) -> Target:
    """Register the user (logged in) and start a Dreierles table of three."""
    login, cookie = await register_user(base_url, "opfer")
    clients, room, _token = await make_room(base_url, "dreierles", ["Anna", "Bernd", "Catrin"])
    await start(clients[0], room)
    seat_cookie = clients[1].cookie
    for player in clients:
        await player.aclose()
    return Target(name, base_url, login, cookie, seat_cookie, room)


async def reconnect(target: Target) -> float:
    """Seconds from opening a seat's WebSocket to its snapshot."""
    url = target.base_url.replace("http://", "ws://") + "/ws"
    started = time.perf_counter()
    async with connect(url, additional_headers={"Cookie": f"{COOKIE}={target.seat_cookie}"},
                       compression=None) as ws:  # fmt: skip
        await ws.send(json.dumps({"type": "hello", "room": target.room, "last_version": None}))
        async with asyncio.timeout(120):
            while json.loads(await ws.recv())["type"] != "snapshot":
                pass
        return time.perf_counter() - started


async def sample_me(target: Target, stop: asyncio.Event, interval: float) -> list[float]:
    """The user's ``/api/me`` latencies: a request every ``interval`` s until ``stop``,
    whether the earlier ones were answered or not (as other users keep arriving)."""
    latencies: list[float] = []
    async with httpx.AsyncClient(base_url=target.base_url, timeout=120,
                                 cookies={COOKIE: target.cookie},
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
                await asyncio.wait_for(stop.wait(), interval)
        await asyncio.gather(*requests)
    return latencies


def address(one_client: bool) -> str:
    """The address a flood login comes from."""
    if one_client:
        return ATTACKER
    return f"10.{secrets.randbelow(256)}.{secrets.randbelow(256)}.{1 + secrets.randbelow(254)}"


async def flood(
    target: Target, logins: int, variant: str, victim: str, one_client: bool = False
) -> tuple[Counter[int], float]:
    """Fire ``logins`` parallel logins; return the status counts and the seconds taken."""
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=0)
    async with httpx.AsyncClient(base_url=target.base_url, timeout=300, limits=limits) as client:

        async def one(i: int) -> int:
            if variant == "unknown":
                body = {"login": f"spray_{secrets.token_hex(5)}", "password": f"rate-{i}-mal"}
            else:
                body = {"login": victim, "password": f"falsch-{i}-{secrets.token_hex(3)}"}
            headers = {"X-Forwarded-For": address(one_client)}
            return (await client.post("/api/login", json=body, headers=headers)).status_code

        started = time.perf_counter()
        statuses = await asyncio.gather(*(one(i) for i in range(logins)))
        return Counter(statuses), time.perf_counter() - started


async def owner_logs_in(target: Target, login: str) -> int:
    """The status of ``login``'s login with the right password, from another client."""
    async with httpx.AsyncClient(base_url=target.base_url, timeout=120,
                                 headers={"X-Forwarded-For": OWNER}) as client:  # fmt: skip
        response = await client.post("/api/login", json={"login": login, "password": PASSWORD})
        return response.status_code


async def quiet_round(target: Target, samples: int = 30) -> dict[str, Any]:
    """``/api/me`` and a reconnect without a flood."""
    stop = asyncio.Event()
    task = asyncio.create_task(sample_me(target, stop, 0.02))
    await asyncio.sleep(samples * 0.022)
    stop.set()
    latencies = await task
    return {
        "me_p50_ms": 1000 * percentile(latencies, 0.5),
        "me_p99_ms": 1000 * percentile(latencies, 0.99),
        "reconnect_ms": 1000 * await reconnect(target),
    }


async def flood_round(
    target: Target, logins: int, variant: str, one_client: bool = False
) -> dict[str, Any]:
    """``/api/me`` and a reconnect while ``logins`` parallel logins of ``variant`` run (the
    wrong passwords go to a fresh account each round: the old lockout would otherwise
    refuse them all unhashed)."""
    victim = target.login
    if variant == "wrong":
        victim, _cookie = await register_user(target.base_url, "besitzer")
    stop = asyncio.Event()
    sampler = asyncio.create_task(sample_me(target, stop, 0.02))
    flooding = asyncio.create_task(flood(target, logins, variant, victim, one_client))
    await asyncio.sleep(0.05)  # the flood has arrived
    reconnects = [await reconnect(target)]
    while not flooding.done():
        reconnects.append(await reconnect(target))
    statuses, seconds = await flooding
    stop.set()
    latencies = await sampler
    return {
        "variant": variant,
        "me_p50_ms": 1000 * percentile(latencies, 0.5),
        "me_p99_ms": 1000 * percentile(latencies, 0.99),
        "me_max_ms": 1000 * max(latencies),
        "me_requests": len(latencies),
        "reconnect_ms": 1000 * statistics.median(reconnects),
        "reconnect_max_ms": 1000 * max(reconnects),
        "reconnects": len(reconnects),
        "flood_s": seconds,
        "statuses": dict(sorted(statuses.items())),
        "owner_login": await owner_logs_in(target, victim),
        "load": os.getloadavg()[0],
    }


def migrate(checkout: Path, database_url: str) -> None:
    """Bring ``database_url`` to the head revision of ``checkout``'s own migrations."""
    env = {**os.environ, "DATABASE_URL": database_url}
    subprocess.run([sys.executable, "-m", "alembic", "upgrade", "head"], cwd=checkout, env=env,
                   check=True, capture_output=True)  # fmt: skip


@contextlib.contextmanager
def checkout_of(revision: str, workdir: Path) -> Iterator[Path]:
    """The tree of git ``revision`` of this repository, unpacked under ``workdir``."""
    archive = subprocess.run(["git", "-C", str(REPO_ROOT), "archive", revision],
                             check=True, capture_output=True).stdout  # fmt: skip
    directory = workdir / f"rev-{revision.replace('/', '-')}"
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(directory, filter="data")
    yield directory


def line(name: str, kind: str, row: dict[str, Any]) -> str:
    """One row of the printed table."""
    head = f"{name:>10} {kind:>8} me p50 {row['me_p50_ms']:8.1f} ms  p99 {row['me_p99_ms']:8.1f} ms"
    tail = f"  reconnect {row['reconnect_ms']:8.1f} ms"
    if "reconnect_max_ms" in row:
        tail += f" (max {row['reconnect_max_ms']:7.1f} ms of {row['reconnects']})"
    if "statuses" in row:
        tail += (f"  flood {row['flood_s']:5.1f} s {row['statuses']}  owner {row['owner_login']}"
                 f"  load {row['load']:.2f}")  # fmt: skip
    return head + tail


def summarize(rows: list[dict[str, Any]]) -> dict[str, float]:
    """Medians over rounds of the numeric figures."""
    keys = [k for k, v in rows[0].items() if isinstance(v, float | int)]
    return {k: statistics.median(r[k] for r in rows) for k in keys}


def main() -> int:
    """Run the benchmark and print a table and the JSON figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--logins", type=int, default=30, help="parallel logins (30)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per variant (3)")
    parser.add_argument("--variant", choices=["unknown", "wrong", "both"], default="both")
    parser.add_argument("--one-client", action="store_true", help="flood from one address")
    parser.add_argument("--compare", metavar="REV", action="append", default=[],
                        help="also serve git revision REV (repeatable)")  # fmt: skip
    args = parser.parse_args()
    variants = ["unknown", "wrong"] if args.variant == "both" else [args.variant]

    workdir = Path(tempfile.mkdtemp(prefix="stammtisch-flood-"))
    rows: dict[tuple[str, str], list[dict[str, Any]]] = {}
    try:
        with contextlib.ExitStack() as stack:
            checkouts = [(rev, stack.enter_context(checkout_of(rev, workdir)))
                         for rev in args.compare] + [("this", REPO_ROOT)]  # fmt: skip
            targets: list[Target] = []
            for name, checkout in checkouts:
                url_of_db = sqlite_url(workdir / f"{len(targets)}.sqlite3")
                migrate(checkout, url_of_db)
                base_url, _process = stack.enter_context(server_process(
                    url_of_db, workdir / f"{len(targets)}.log", *QUIET, cwd=checkout))  # fmt: skip
                targets.append(asyncio.run(set_up(name, base_url)))
            print(f"machine: {machine()}; {args.logins} parallel logins per flood",
                  file=sys.stderr)  # fmt: skip
            for round_number in range(args.rounds):
                for variant in variants:
                    for target in targets if round_number % 2 == 0 else targets[::-1]:
                        quiet = asyncio.run(quiet_round(target))
                        rows.setdefault((target.name, "quiet"), []).append(quiet)
                        print(line(target.name, "quiet", quiet), file=sys.stderr)
                        result = asyncio.run(
                            flood_round(target, args.logins, variant, args.one_client)
                        )
                        rows.setdefault((target.name, variant), []).append(result)
                        print(line(target.name, variant, result), file=sys.stderr)
    except BaseException:
        for log in sorted(workdir.glob("*.log")):
            print(log.read_text()[-4000:], file=sys.stderr)
        raise
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    summary = {f"{name} {kind}": summarize(found) for (name, kind), found in rows.items()}
    print(f"medians of {args.rounds} round(s):")
    for key, figures in summary.items():
        print(f"  {key}: " + ", ".join(f"{k} {v:.1f}" for k, v in figures.items()))
    print(json.dumps({"machine": machine(), "logins": args.logins, "medians": summary,
                      "rounds": {f"{n} {k}": r for (n, k), r in rows.items()}}))  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
