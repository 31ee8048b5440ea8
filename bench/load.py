"""WebSocket load benchmark: one real server process, many Dreierles tables of scripted clients
playing whole matches, against a bare broadcast that sends the same frames.

Starts the server as ``make run`` does (``python -m server``: uvicorn, one process, no
per-message compression; here with the access log off and log level warning) against a
fresh migrated SQLite database in a temporary directory, or with ``--database-url`` against
a throw-away database created and migrated on that PostgreSQL server (``--as-is``: the
database named, already migrated, as it is). Then it sets up ``--tables`` Dreierles rooms of
three players each over HTTP (``tests.table_client``: register, room, invite, start), with
short matches (``--rounds``, three deals a round), and hands them to ``--client-procs``
client processes, which open the three WebSockets of every table and drive it from one
asyncio task per table (messages read with orjson, to keep the load generator's share of
the machine small) through whole matches:

- the seat to move sends a random legal action, and the task waits until all three seats
  have received the event of that version;
- an ``event`` carries the seat's whole ``view`` or only ``changed`` and ``gone`` (applied
  to the view of the version before); an event whose version does not follow the seat's
  is not applied: the seat says ``hello`` again and waits for the snapshot (a *resync*);
- at a deal's end (``deal_end``, which names the players waited for) every waited-for
  player sends ``next``, and the table goes on with the next deal's snapshot;
- at the match's end (a snapshot whose ``match.finished`` is true) the three players tap
  Revanche over HTTP (``POST /api/rooms/{id}/rematch``); the table tells the sockets
  (``new_match``), they say ``hello`` again and play the new match.

**Latency** is the time from sending an action to the *last* seat of the table receiving
the event of that version; every action is committed to the database before it is
broadcast. **Server CPU per action** is the user + system CPU time of the server process
(all threads, ``/proc/<pid>/stat``) over a phase, divided by the actions completed in it:
what the game, the database, the deal ends, the Revanches and the protocol cost, however
busy the machine is otherwise.

The same client code also drives ``bench/baseline_app.py`` (a bare FastAPI/uvicorn
broadcast: no game, no database; ``--no-baseline`` leaves it out) with the same number of
groups of three, the same uvicorn command line and the same latency definition. The
clients count the frames and bytes they receive; before each baseline phase the baseline
is told (``PUT /frame_bytes/{n}``) to pad its frames to the mean frame size the server sent
in its phase of the same mode just before, so the two send the same sockets and the same
frames of the same size (the server sends more frames per action: its deal ends and
Revanches; both are reported). The summary gives the ratio of the two CPU figures.

Modes: ``saturation`` (every table acts as fast as it can, one action in flight per table)
and ``offered`` (a global rate ``--rate`` spread over the tables by a pacing schedule). By
default both run, saturation first, on the same tables; ``--repeats`` runs the whole
sequence several times and the summary reports medians. The client processes share the
machine with the server (on a machine with two CPUs or more the server is pinned to the
first and the clients to the others), so throughput and latency are a lower bound for the
server alone.

Run ``python bench/load.py --help`` for the knobs; ``--json`` prints only the JSON report
(``tests/test_load_bench.py`` runs a short one). Results go into docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Iterator
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx
import orjson
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from bench.run import machine
from tests.support import (
    REPO_ROOT,
    postgres_database,
    server_process,
    sqlite_url,
    upgrade,
)
from tests.table_client import COOKIE, make_room, start

GAME = "dreierles"
NAMES = ["Anna", "Bernd", "Catrin"]
#: About how many actions a Dreierles deal of random play takes (a round has three deals).
ACTIONS_PER_DEAL = 53
#: On top of the flags every server process gets (no WebSocket compression, as ``make run``).
QUIET = ("--no-access-log", "--log-level", "warning")
#: What a client sends on one socket: a little under the server's limit of 50 messages a
#: second with bursts of 100 (``server.tables.table.RateLimit``).
SEND_RATE, SEND_BURST = 45.0, 90.0
#: Seconds after which a player still waited for between deals sends ``next`` again.
NEXT_AGAIN_SECONDS = 2.0
#: Seconds without any message after which a table counts as stalled (and resyncs).
STALL_SECONDS = 15.0
#: The issue's aims: server CPU per action over the bare broadcast's, per database, and
#: the p99 latency at the offered rate.
CPU_RATIO_AIM = {"sqlite": 2.0, "postgresql": 2.5}
P99_AIM_MS = 10.0


# --------------------------------------------------------------------------- servers


def uvicorn_process(
    app: str, log_path: Path, cwd: Path = REPO_ROOT, database_url: str | None = None
) -> contextlib.AbstractContextManager[tuple[str, subprocess.Popen[bytes]]]:
    """Serve ``app`` as ``make run`` does (``python -m server`` for the server, uvicorn with
    the same options for anything else) with :data:`QUIET`, from ``cwd``.

    The set-up registers hundreds of accounts from one address at once, which the login
    limits would refuse: they are switched off for the benchmark's servers."""
    os.environ["STAMMTISCH_AUTH_LIMITS"] = "off"
    return server_process(database_url, log_path, *QUIET, app=app, cwd=cwd)


def pin(pid: int, cpus: set[int]) -> None:
    """Run every thread of process ``pid`` (and the threads it starts later) on ``cpus``."""
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(ProcessLookupError):
            os.sched_setaffinity(int(task.name), cpus)


def pinning(enabled: bool) -> tuple[set[int], set[int]] | None:
    """The CPUs of the server and of the clients when pinned: the server gets the first
    CPU to itself, the load generator the others (``None``: not pinned)."""
    cpus = sorted(os.sched_getaffinity(0))
    if not enabled or len(cpus) < 2:
        return None
    return {cpus[0]}, set(cpus[1:])


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of process ``pid`` so far (all threads), from ``/proc``."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@contextlib.contextmanager
def database(url: str | None, workdir: Path, as_is: bool) -> Iterator[str]:
    """The server's database: a fresh migrated SQLite file in ``workdir`` (no ``url``); a
    throw-away database on the PostgreSQL server of ``url``, migrated, dropped afterwards;
    ``url`` itself migrated (SQLite); or ``url`` as it is (``as_is``)."""
    if url is None:
        url = sqlite_url(workdir / "load.sqlite3")
    if as_is:
        yield url
    elif url.startswith("postgresql"):
        with postgres_database(url) as fresh:
            upgrade(fresh)
            yield fresh
    else:
        upgrade(url)
        yield url


# --------------------------------------------------------------------------- the clients


@dataclass(frozen=True)
class TableSpec:
    """What a client process needs to play one table: room and the three session cookies."""

    index: int
    room: int
    cookies: tuple[str, str, str]


@dataclass(eq=False)
class Seat:
    """One WebSocket of a table and what its messages said."""

    ws: ClientConnection
    cookie: str
    #: the version of the last event, ``deal_end`` or snapshot (-1: none yet)
    version: int = -1
    seat: int | None = None
    user_id: int | None = None
    view: dict[str, Any] | None = None
    #: the latest ``deal_end`` (or the pause snapshot's ``between_deals``) while the table
    #: waits between deals, else ``None``
    between: dict[str, Any] | None = None
    #: the last snapshot said the match is over
    finished: bool = False
    deal_number: int | None = None
    #: a ``hello`` is out and events are ignored until its snapshot
    resyncing: bool = False
    #: when this seat last sent ``next`` in the current pause (``None``: not yet)
    next_sent: float | None = None
    tokens: float = SEND_BURST
    stamp: float = field(default_factory=time.monotonic)

    async def pace(self) -> None:
        """Wait until a message may go out within the server's per-connection rate limit
        (a seat that acts several times in a row at a fast table would be refused)."""
        now = time.monotonic()
        self.tokens = min(SEND_BURST, self.tokens + (now - self.stamp) * SEND_RATE)
        self.stamp = now
        if self.tokens < 1:
            await asyncio.sleep((1 - self.tokens) / SEND_RATE)
            self.tokens, self.stamp = 1.0, time.monotonic()
        self.tokens -= 1

    async def send(self, message: dict[str, Any]) -> None:
        """Send ``message`` (paced)."""
        await self.pace()
        await self.ws.send(orjson.dumps(message).decode())

    def my_turn(self) -> bool:
        """Whether the view says it is this seat's turn (and it may act)."""
        view = self.view
        return bool(
            view and view.get("to_move") is not None and view["to_move"] == self.seat
            and view.get("legal_actions")
        )  # fmt: skip


@dataclass
class Counts:
    """What a table did in a phase, besides its actions."""

    frames: int = 0
    bytes: int = 0
    deal_ends: int = 0
    deals_started: int = 0
    #: deals started after a ``deal_end`` pause (the next deal of the same match)
    next_deals: int = 0
    matches_finished: int = 0
    #: Revanches whose new match's snapshot every seat has
    rematches: int = 0
    resyncs: int = 0
    stalls: int = 0
    #: a deal that started before the one before it ended, or ended twice
    out_of_order: int = 0

    def add(self, other: Counts) -> None:
        """Add ``other``'s counts to these."""
        for name, value in vars(other).items():
            setattr(self, name, getattr(self, name) + value)


@dataclass(eq=False)
class BenchTable:
    """One table under load: its three seats, its state and what was measured there."""

    spec: TableSpec
    http: httpx.AsyncClient | None
    rng: random.Random
    drop_events: float = 0.0
    seats: list[Seat] = field(default_factory=list)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    target: int | None = None
    sent_at: float = 0.0
    sent: int = 0
    latencies: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    error_seen: bool = False
    counts: Counts = field(default_factory=Counts)
    counting: bool = False
    #: a deal of the current match is on (shown and not yet ended)
    deal_open: bool = False
    last_deal_end: int | None = None
    rematch_asked: bool = False
    last_message: float = field(default_factory=time.perf_counter)
    readers: list[asyncio.Task[None]] = field(default_factory=list)

    @property
    def room(self) -> int:
        """The room of this table."""
        return self.spec.room

    async def connect(self, url: str) -> None:
        """Open the three sockets, say hello and wait for the three snapshots."""
        for cookie in self.spec.cookies:
            ws = await connect(url, additional_headers={"Cookie": f"{COOKIE}={cookie}"},
                               compression=None, max_queue=None)  # fmt: skip
            self.seats.append(Seat(ws, cookie))
        self.readers = [asyncio.create_task(self._read(seat)) for seat in self.seats]
        for seat in self.seats:
            await self.hello(seat, None)
        await self.wait_while("wait")

    async def hello(self, seat: Seat, last_version: int | None) -> None:
        """Greet the room on ``seat``'s socket: events are ignored until the snapshot."""
        seat.resyncing = True
        await seat.send({"type": "hello", "room": self.room, "last_version": last_version})

    async def _read(self, seat: Seat) -> None:
        try:
            while True:
                raw = await seat.ws.recv(decode=False)
                await self.on_frame(seat, raw)
        except ConnectionClosed:
            pass
        except Exception:  # a message the client cannot follow: say so, the table stalls
            traceback.print_exc()
            self.errors["client_failed"] = self.errors.get("client_failed", 0) + 1

    async def on_frame(self, seat: Seat, raw: bytes) -> None:
        """Count the frame; follow the seat's version, view and the table's state."""
        if self.counting:
            self.counts.frames += 1
            self.counts.bytes += len(raw)
        self.last_message = time.perf_counter()
        message = orjson.loads(raw)
        kind = message["type"]
        if kind == "event":
            if seat.resyncing:
                return
            if self.drop_events and self.rng.random() < self.drop_events:
                seat.version -= 1  # as if the event before had been lost: a gap
            if "view" in message:
                seat.view = message["view"]
            elif seat.view is not None and message["v"] == seat.version + 1:
                view = {**seat.view, **message["changed"]}
                for key in message.get("gone", ()):
                    view.pop(key, None)
                seat.view = view
            else:
                self.counts.resyncs += 1
                await self.hello(seat, seat.version)
                return
            seat.version = message["v"]
        elif kind == "snapshot":
            self.on_snapshot(seat, message)
        elif kind == "deal_end":
            if seat.resyncing:
                return
            seat.version = message["v"]
            seat.between = message
            if message["v"] != self.last_deal_end:
                self.deal_ended(message["v"])
        elif kind == "new_match":
            seat.finished = False
            seat.between = None
            seat.view = None
            seat.version = -1
            await self.hello(seat, None)
        elif kind == "error":
            code = str(message.get("code"))
            self.errors[code] = self.errors.get(code, 0) + 1
            self.error_seen = True
        else:
            return
        target = self.target
        if target is not None and all(s.version >= target for s in self.seats):
            self.latencies.append(time.perf_counter() - self.sent_at)
            self.target = None
        self.wake.set()

    def on_snapshot(self, seat: Seat, message: dict[str, Any]) -> None:
        """A snapshot: the seat's whole state; the table notes a deal shown or ended."""
        seat.resyncing = False
        seat.version = message["v"]
        view = seat.view = message["view"]
        you = message.get("you") or {}
        seat.user_id = you.get("user_id", seat.user_id)
        seat.seat = view.get("seat", you.get("seat"))
        match = message.get("match") or {}
        seat.between = message.get("between_deals")
        finished = bool(match.get("finished"))
        if finished and not seat.finished and not any(s.finished for s in self.seats):
            self.counts.matches_finished += 1
            self.deal_ended(message["v"])  # the match's last deal has no pause
        seat.finished = finished
        number = match.get("deal_number")
        if seat.between is None and not finished and number != seat.deal_number:
            seat.next_sent = None
            if all(s.deal_number != number or s is seat for s in self.seats):
                self.deal_started(paused=number is not None and number > 1)
        seat.deal_number = number

    def deal_ended(self, version: int) -> None:
        """The first seat heard that the deal in play ended at ``version``."""
        if version == self.last_deal_end:
            return
        self.last_deal_end = version
        self.counts.deal_ends += 1
        if not self.deal_open:
            self.counts.out_of_order += 1
        self.deal_open = False

    def deal_started(self, paused: bool) -> None:
        """The first seat was shown a new deal (after the pause if ``paused``)."""
        self.counts.deals_started += 1
        self.counts.next_deals += paused
        if self.deal_open:
            self.counts.out_of_order += 1
        self.deal_open = True

    def state(self) -> str:
        """``play``, ``between`` (deals), ``finished`` (the match) or ``wait`` (for a
        snapshot)."""
        if any(s.resyncing or s.view is None for s in self.seats):
            return "wait"
        if all(s.finished for s in self.seats):
            return "finished"
        if any(s.between is not None for s in self.seats):
            return "between"
        return "play"

    def resting(self) -> bool:
        """Whether the table is in a deal and somebody may act: where a phase begins and
        ends (so that a phase counts every deal end it sees and the next deal's start)."""
        return self.state() == "play" and any(s.my_turn() for s in self.seats)

    async def settle(self) -> None:
        """Without acting, see the table through a deal's end or a Revanche to the point
        where somebody may act (at most a minute)."""
        async with asyncio.timeout(60):
            while not self.resting():
                await self.step()

    async def wait(self, timeout: float) -> None:
        """Wait for the next message (or ``timeout`` seconds); a table that hears nothing
        for :data:`STALL_SECONDS` while it waits is stalled: its seats say hello again."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.wake.wait(), timeout)
        if time.perf_counter() - self.last_message > STALL_SECONDS:
            self.counts.stalls += 1
            self.last_message = time.perf_counter()
            self.target = None
            for seat in self.seats:
                await self.hello(seat, seat.version)

    async def wait_while(self, *states: str) -> None:
        """Wait (at most a minute) until the table's state is none of ``states``."""
        async with asyncio.timeout(60):
            while True:
                self.wake.clear()
                if self.state() not in states:
                    return
                await self.wait(1.0)

    async def step(self) -> bool:
        """Do what the table needs next: an action (``True``), or the taps between deals,
        the Revanche, or waiting for a message (``False``)."""
        self.wake.clear()
        state = self.state()
        if state == "play":
            return await self.act_once()
        if state == "between":
            for seat in self.seats:
                waiting = seat.between["waiting"] if seat.between else ()
                sent = seat.next_sent
                if seat.user_id in waiting and (
                    sent is None or time.perf_counter() - sent > NEXT_AGAIN_SECONDS
                ):
                    seat.next_sent = time.perf_counter()
                    await seat.send({"type": "next", "id": f"next-{seat.version}"})
        elif state == "finished" and not self.rematch_asked:
            await self.rematch()
            return False
        await self.wait(1.0)
        return False

    async def rematch(self) -> None:
        """Every player taps Revanche; the new match's snapshots follow on the sockets."""
        assert self.http is not None, "the bare broadcast has no matches to end"
        self.rematch_asked = True
        for cookie in self.spec.cookies:
            for _attempt in range(50):
                response = await self.http.post(
                    f"/api/rooms/{self.room}/rematch", headers={"Cookie": f"{COOKIE}={cookie}"}
                )
                self.http.cookies.clear()  # each request names its player's session
                if response.status_code == 200:
                    break
                code = f"rematch_{response.status_code}"
                self.errors[code] = self.errors.get(code, 0) + 1
                await asyncio.sleep(0.1)
            else:
                response.raise_for_status()
        await self.wait_while("finished", "wait")
        self.rematch_asked = False
        self.counts.rematches += 1

    def choose(self, actor: Seat) -> str:
        """A random legal action of ``actor`` (no knocks or announcements if avoidable)."""
        assert actor.view is not None
        every: list[str] = actor.view["legal_actions"]
        legal = [a for a in every if not a.startswith(("knock", "announce"))]
        return self.rng.choice(legal or every)

    async def act_once(self) -> bool:
        """Send one action and wait until all seats saw it; ``False`` if nobody is to move."""
        actor = next((s for s in self.seats if s.my_turn()), None)
        if actor is None:
            await self.wait(1.0)
            return False
        text = self.choose(actor)
        self.sent += 1
        message = {"type": "action", "action": text, "v": actor.version, "id": self.sent}
        await actor.pace()
        self.target = actor.version + 1
        self.error_seen = False
        self.wake.clear()
        self.sent_at = time.perf_counter()
        await actor.ws.send(orjson.dumps(message).decode())
        while self.target is not None and not self.error_seen:
            self.wake.clear()
            await self.wait(1.0)
        if self.error_seen:  # the action was refused: forget it and look again
            self.target = None
            await asyncio.sleep(0.01)
        return True

    async def warm_up(self, actions: int) -> None:
        """Play ``actions`` actions (through deal ends and Revanches), unmeasured, so that
        the tables' deals and matches do not all end at the same moment: the tables of a
        real server started at different times, and a benchmark whose tables all deal (or
        all start a new match) at once measures that."""
        done = 0
        async with asyncio.timeout(120):
            while done < actions:
                done += await self.step()
        await self.settle()

    async def aclose(self) -> None:
        """Close the sockets and stop the readers."""
        for seat in self.seats:
            with contextlib.suppress(Exception):
                await seat.ws.close()
        for task in self.readers:
            task.cancel()


async def drive(
    tables: list[BenchTable], total: int, t0: float, seconds: float, rate: float | None
) -> dict[str, Any]:
    """Drive ``tables`` from ``t0`` for ``seconds``; ``rate`` None = saturation, else the
    offered actions/s over all ``total`` tables (of every client process)."""
    for table in tables:
        table.latencies = []
        table.errors = {}
        table.counts = Counts()
    deadline = t0 + seconds

    async def run(table: BenchTable) -> None:
        interval = total / rate if rate else 0.0
        due = t0 + table.spec.index / rate if rate else t0
        table.counting = True
        table.last_message = time.perf_counter()
        while time.perf_counter() < deadline:
            if rate and table.state() == "play":
                delay = due - time.perf_counter()
                if delay > 0:
                    await asyncio.sleep(delay)
                    if time.perf_counter() >= deadline:
                        break
                due += interval
            if not await table.step() and rate:
                due = max(due, time.perf_counter())  # between deals: no banked slots
        await table.settle()
        table.counting = False

    await asyncio.sleep(max(0.0, t0 - time.perf_counter()))
    await asyncio.gather(*(run(t) for t in tables))
    errors: dict[str, int] = {}
    counts = Counts()
    for table in tables:
        counts.add(table.counts)
        for code, n in table.errors.items():
            errors[code] = errors.get(code, 0) + n
    return {
        "latencies": [x for t in tables for x in t.latencies],
        "elapsed": time.perf_counter() - t0,
        "errors": errors,
        "counts": vars(counts),
    }


def client_process(
    pipe: Connection,
    targets: dict[str, tuple[str, list[TableSpec]]],
    cpus: set[int] | None,
    options: dict[str, Any],
) -> None:
    """A client process: connect the given tables of every target, then run the phases the
    benchmark sends through ``pipe`` until it says stop (on ``cpus`` if given)."""
    if cpus:
        os.sched_setaffinity(0, cpus)
    with contextlib.suppress(ImportError):
        import uvloop  # the client's own event loop; it does not change the server

        uvloop.install()
    try:
        asyncio.run(_client_main(pipe, targets, options))
    except Exception as exc:
        pipe.send(f"failed: {type(exc).__name__}: {exc}")
        raise


async def _client_main(
    pipe: Connection, targets: dict[str, tuple[str, list[TableSpec]]], options: dict[str, Any]
) -> None:
    loop = asyncio.get_running_loop()
    tables: dict[str, list[BenchTable]] = {}
    clients: list[httpx.AsyncClient] = []
    gate = asyncio.Semaphore(10)

    async def one(url: str, http: httpx.AsyncClient | None, spec: TableSpec) -> BenchTable:
        async with gate:
            rng = random.Random(1000 + spec.index)
            table = BenchTable(spec, http, rng, options["drop_events"])
            await table.connect(url.replace("http://", "ws://") + "/ws")
            return table

    try:
        for name, (url, specs) in targets.items():
            http = None
            if name != "baseline":
                http = httpx.AsyncClient(base_url=url, timeout=30)
                clients.append(http)
            tables[name] = list(await asyncio.gather(*(one(url, http, s) for s in specs)))
            warm = options["warm_up"]
            await asyncio.gather(*(t.warm_up(t.rng.randrange(warm + 1)) for t in tables[name]))
        pipe.send("ready")
        while True:
            order = await loop.run_in_executor(None, pipe.recv)
            if order is None:
                break
            name, total, t0, seconds, rate = order
            pipe.send(await drive(tables[name], total, t0, seconds, rate))
    finally:
        for group in tables.values():
            for table in group:
                await table.aclose()
        for http in clients:
            await http.aclose()


# --------------------------------------------------------------------------- set-up


async def set_up_rooms(base_url: str, tables: int, rounds: int) -> list[TableSpec]:
    """Create ``tables`` started Dreierles rooms of three players (five at a time)."""
    gate = asyncio.Semaphore(5)

    async def one(index: int) -> TableSpec:
        async with gate:
            names = [f"{n}{index}" for n in NAMES]
            clients, room, _ = await make_room(base_url, GAME, names, rounds=rounds)
            await start(clients[0], room)
            cookies = tuple(c.cookie for c in clients)
            for client in clients:
                await client.aclose()
            assert len(cookies) == 3
            return TableSpec(index, room, (cookies[0], cookies[1], cookies[2]))

    return list(await asyncio.gather(*(one(i) for i in range(tables))))


def summarise(samples: list[dict[str, Any]], phase: dict[str, Any], tables: int) -> dict[str, Any]:
    """One phase's figures from the reports of every client process."""
    latencies: list[float] = sorted(x for s in samples for x in s["latencies"])
    elapsed = max(s["elapsed"] for s in samples)
    errors: dict[str, int] = {}
    counts = Counts()
    for sample in samples:
        counts.add(Counts(**sample["counts"]))
        for code, n in sample["errors"].items():
            errors[code] = errors.get(code, 0) + n

    def pct(q: float) -> float:
        if not latencies:
            return float("nan")
        return round(1000 * latencies[min(len(latencies) - 1, int(q * len(latencies)))], 2)

    actions = len(latencies)
    return {
        **phase,
        "actions": actions,
        "actions_per_second": round(actions / elapsed),
        "p50_ms": pct(0.50),
        "p95_ms": pct(0.95),
        "p99_ms": pct(0.99),
        "max_ms": round(1000 * latencies[-1], 2) if latencies else float("nan"),
        "seconds": round(elapsed, 1),
        "tables": tables,
        "clients": 3 * tables,
        "frames_per_action": round(counts.frames / max(1, actions), 2),
        "bytes_per_frame": round(counts.bytes / max(1, counts.frames)),
        "errors": sum(errors.values()),
        "error_codes": errors,
        **vars(counts),
    }


def run_phases(
    args: argparse.Namespace,
    targets: dict[str, tuple[str, subprocess.Popen[bytes], list[TableSpec]]],
) -> list[dict[str, Any]]:
    """Start the client processes, run every phase on every target, return the results.

    In every mode the servers go first and the baseline last, padded to the frame size
    the server (the first target) just sent."""
    context = multiprocessing.get_context("spawn")
    procs = max(1, args.client_procs)
    options = {"drop_events": args.drop_events, "warm_up": args.warm_up}
    workers = []
    for k in range(procs):
        mine = {name: (url, specs[k::procs]) for name, (url, _, specs) in targets.items()}
        parent, child = context.Pipe()
        process = context.Process(
            target=client_process, args=(child, mine, args.client_cpus, options), daemon=True
        )
        process.start()
        workers.append((parent, process))
    try:
        for parent, _ in workers:
            if not parent.poll(180):
                raise RuntimeError("a client process did not connect its tables in time")
            answer = parent.recv()
            if answer != "ready":
                raise RuntimeError(f"a client process {answer}")
        modes = ["saturation", "offered"] if args.mode == "both" else [args.mode]
        order = sorted(targets, key=lambda name: name == "baseline")
        results = []
        for repeat in range(args.repeats):
            for mode in modes:
                frame_bytes = args.frame_bytes
                for name in order:
                    url, server, _ = targets[name]
                    if name == "baseline":
                        httpx.put(f"{url}/frame_bytes/{frame_bytes or 0}").raise_for_status()
                    rate = None if mode == "saturation" else args.rate
                    t0 = time.perf_counter() + 0.5
                    pids = [server.pid, *(p.pid or 0 for _, p in workers)]
                    before = [cpu_seconds(pid) for pid in pids]
                    for parent, _ in workers:
                        parent.send((name, args.tables, t0, args.seconds, rate))
                    samples = []
                    for parent, _ in workers:
                        sample = parent.recv()
                        if isinstance(sample, str):
                            raise RuntimeError(f"a client process {sample}")
                        samples.append(sample)
                    after = [cpu_seconds(pid) for pid in pids]
                    wall = time.perf_counter() - t0
                    used = [a - b for a, b in zip(after, before, strict=True)]
                    phase = {"target": name, "repeat": repeat + 1, "mode": mode,
                             "offered_per_second": rate}  # fmt: skip
                    result = summarise(samples, phase, args.tables)
                    if name == "baseline":
                        result["padded_to"] = frame_bytes or 0
                    elif frame_bytes is None:
                        frame_bytes = result["bytes_per_frame"]
                    result["server_cpu"] = round(used[0] / wall, 2)
                    result["clients_cpu"] = round(sum(used[1:]) / wall, 2)
                    per_action = used[0] / max(1, result["actions"])
                    result["server_us_per_action"] = round(1e6 * per_action)
                    results.append(result)
                    if not args.json:
                        print(line(result), file=sys.stderr, flush=True)
                    time.sleep(0.5)
        return results
    finally:
        for parent, _ in workers:
            with contextlib.suppress(Exception):
                parent.send(None)
        for _, process in workers:
            process.join(timeout=10)
            if process.is_alive():
                process.kill()


# --------------------------------------------------------------------------- report

COLUMNS = [
    ("offered/s", 10), ("actions/s", 10), ("p50 ms", 8), ("p95 ms", 8), ("p99 ms", 8),
    ("max ms", 8), ("cpu", 6), ("µs/act", 7), ("fr/act", 7), ("B/fr", 6), ("deals", 6),
    ("revan.", 7), ("errors", 7),
]  # fmt: skip


def head() -> str:
    """The header of the results table."""
    return f"{'target':9}{'mode':11}" + "".join(f"{h:>{w}}" for h, w in COLUMNS)


def line(r: dict[str, Any]) -> str:
    """One row of the results table."""
    offered = "-" if r["offered_per_second"] is None else f"{r['offered_per_second']:,.0f}"
    values = [
        offered, f"{r['actions_per_second']:,}", r["p50_ms"], r["p95_ms"], r["p99_ms"],
        r["max_ms"], f"{r.get('server_cpu', float('nan')):.2f}",
        f"{r.get('server_us_per_action', float('nan')):.0f}", r["frames_per_action"],
        f"{r['bytes_per_frame']:.0f}", f"{r['deal_ends']:.0f}", f"{r['rematches']:.0f}",
        f"{r['errors'] + r['stalls']:.0f}",
    ]  # fmt: skip
    cells = "".join(f"{v!s:>{w}}" for v, (_, w) in zip(values, COLUMNS, strict=True))
    return f"{r['target']:9.9}{r['mode']:11}{cells}"


MEDIAN_KEYS = [
    "actions_per_second", "p50_ms", "p95_ms", "p99_ms", "max_ms", "server_cpu", "clients_cpu",
    "server_us_per_action", "frames_per_action", "bytes_per_frame", "errors", "deal_ends",
    "next_deals", "matches_finished", "rematches", "resyncs", "stalls", "out_of_order",
]  # fmt: skip


def medians(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per target and mode: the median of every figure over the repeats."""
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for r in results:
        groups.setdefault((r["target"], r["mode"]), []).append(r)
    out = []
    for (target, mode), rows in groups.items():
        row: dict[str, Any] = {"target": target, "mode": mode, "runs": len(rows),
                               "offered_per_second": rows[0]["offered_per_second"]}  # fmt: skip
        for key in MEDIAN_KEYS:
            row[key] = round(float(statistics.median(r[key] for r in rows)), 2)
        row["actions_per_second"] = round(row["actions_per_second"])
        out.append(row)
    return out


def ratios(summary: list[dict[str, Any]]) -> dict[str, float]:
    """Each target / the baseline, for the medians of each mode: server CPU per action,
    throughput and latencies."""
    by = {(r["target"], r["mode"]): r for r in summary}
    out: dict[str, float] = {}
    for (target, mode), row in by.items():
        base = by.get(("baseline", mode))
        if target == "baseline" or base is None:
            continue
        for key in ("server_us_per_action", "actions_per_second", "p50_ms", "p99_ms"):
            if base[key]:
                out[f"{target}_{mode}_{key}"] = round(row[key] / base[key], 2)
    return out


def verdicts(summary: list[dict[str, Any]], backend: str) -> list[str]:
    """The server's figures against the issue's aims, one line each."""
    by = {(r["target"], r["mode"]): r for r in summary}
    aim = CPU_RATIO_AIM.get(backend)
    lines = []
    for mode in ("saturation", "offered"):
        server, base = by.get(("server", mode)), by.get(("baseline", mode))
        if server and base and aim and base["server_us_per_action"]:
            ratio = server["server_us_per_action"] / base["server_us_per_action"]
            lines.append(
                f"{mode}: server CPU per action {server['server_us_per_action']:.0f} µs, "
                f"bare broadcast {base['server_us_per_action']:.0f} µs: {ratio:.2f}× "
                f"(aim on {backend}: at most {aim}×: {'met' if ratio <= aim else 'NOT met'})"
            )
    offered = by.get(("server", "offered"))
    if offered:
        p99 = offered["p99_ms"]
        lines.append(
            f"offered {offered['offered_per_second']:,.0f}/s: achieved "
            f"{offered['actions_per_second']:,}/s, p99 {p99} ms (aim at 2,000/s on a quiet "
            f"machine: at most {P99_AIM_MS:.0f} ms: {'met' if p99 <= P99_AIM_MS else 'NOT met'})"
        )
    return lines


def main() -> int:
    """Run the load benchmark and print a table and the JSON figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=60, help="tables of 3 clients (60)")
    parser.add_argument("--seconds", type=float, default=15.0, help="length of each phase (15)")
    parser.add_argument(
        "--mode", choices=["saturation", "offered", "both"], default="both", help="(both)"
    )
    parser.add_argument("--rate", type=float, default=2000.0, help="offered actions/s (2000)")
    parser.add_argument(
        "--rounds", type=int, default=2, help="rounds per match, three deals each (2)"
    )
    parser.add_argument("--repeats", type=int, default=1, help="runs of every phase (1)")
    parser.add_argument(
        "--no-baseline", dest="baseline", action="store_false",
        help="do not drive the bare broadcast (no ratios)",
    )  # fmt: skip
    parser.add_argument(
        "--baseline-only", action="store_true", help="drive only the bare broadcast app"
    )
    parser.add_argument(
        "--frame-bytes",
        type=int,
        help="pad the baseline's frames to this size instead of the server's mean frame size",
    )
    parser.add_argument("--client-procs", type=int, default=2, help="client processes (2)")
    parser.add_argument(
        "--warm-up",
        type=int,
        help="each table first plays a random number of actions up to this, unmeasured "
        f"(default: about a match, {ACTIONS_PER_DEAL * 3} per round)",
    )
    parser.add_argument(
        "--compare",
        metavar="CHECKOUT",
        action="append",
        default=[],
        help="also drive the server of another checkout (e.g. `git archive` of an older "
        "commit), named after its directory, on a fresh SQLite database; repeatable",
    )
    parser.add_argument(
        "--database-url",
        help="PostgreSQL: a throw-away database is created (and migrated) on this URL's "
        "server; SQLite: this file, migrated (default: a fresh SQLite file)",
    )
    parser.add_argument(
        "--as-is", action="store_true", help="use --database-url as it is (already migrated)"
    )
    parser.add_argument(
        "--drop-events",
        type=float,
        default=0.0,
        help="the clients take this share of events for ones that do not follow the event "
        "before, as if that had been lost, and resync (a test of the client; 0)",
    )
    parser.add_argument(
        "--no-pin",
        dest="pin",
        action="store_false",
        help="do not pin the server to the first CPU and the clients to the others",
    )
    parser.add_argument("--json", action="store_true", help="print only JSON")
    args = parser.parse_args()
    if args.warm_up is None:
        args.warm_up = ACTIONS_PER_DEAL * 3 * args.rounds
    if args.baseline_only and args.frame_bytes is None:
        parser.error("--baseline-only needs --frame-bytes (there is no server to measure)")
    cpus = pinning(args.pin)
    args.client_cpus = cpus[1] if cpus else None
    if cpus:
        os.sched_setaffinity(0, cpus[1])  # this process only waits; keep it off the server's

    def say(text: str) -> None:
        if not args.json:
            print(text, file=sys.stderr, flush=True)

    workdir = Path(tempfile.mkdtemp(prefix="stammtisch-load-"))
    log_path = workdir / "server.log"
    try:
        with contextlib.ExitStack() as stack:
            database_url = stack.enter_context(database(args.database_url, workdir, args.as_is))
            targets: dict[str, tuple[str, subprocess.Popen[bytes], list[TableSpec]]] = {}
            servers: list[tuple[str, Path, str]] = []
            if not args.baseline_only:
                servers.append(("server", REPO_ROOT, database_url))
            for checkout in map(Path, args.compare):
                name = checkout.resolve().name
                servers.append((name, checkout.resolve(), sqlite_url(workdir / f"{name}.sqlite3")))
            for name, checkout, url_of_db in servers:
                if name != "server":
                    upgrade(url_of_db)
                log = log_path if name == "server" else workdir / f"{name}.log"
                url, process = stack.enter_context(
                    uvicorn_process("server.api.app:app", log, checkout, url_of_db)
                )
                if cpus:
                    pin(process.pid, cpus[0])
                started = time.perf_counter()
                specs = asyncio.run(set_up_rooms(url, args.tables, args.rounds))
                say(f"{name}: set up {len(specs)} tables in {time.perf_counter() - started:.1f} s")
                targets[name] = (url, process, specs)
            if args.baseline or args.baseline_only:
                url, process = stack.enter_context(
                    uvicorn_process("bench.baseline_app:app", workdir / "baseline.log")
                )
                specs = [TableSpec(i, i, ("-", "-", "-")) for i in range(args.tables)]
                targets["baseline"] = (url, process, specs)
                if cpus:
                    pin(process.pid, cpus[0])
            say(head())
            results = run_phases(args, targets)
            for name, (_, process, _) in targets.items():
                if process.poll() is not None:
                    raise RuntimeError(f"the {name} died (exit code {process.returncode})")
    except BaseException:
        for log in sorted(workdir.glob("*.log")):
            if log.exists():
                print(log.read_text()[-4000:], file=sys.stderr)
        raise
    finally:
        shutil.rmtree(workdir, ignore_errors=True)

    backend = database_url.split("+", 1)[0].split(":", 1)[0]
    pinned = None if cpus is None else {"server": sorted(cpus[0]), "clients": sorted(cpus[1])}
    summary = medians(results)
    report = {
        "machine": machine(),
        "database": backend,
        "tables": args.tables,
        "rounds": args.rounds,
        "seconds": args.seconds,
        "client_procs": args.client_procs,
        "pinned": pinned,
        "note": "clients run on the same machine as the server: a lower bound",
        "medians": summary,
        "ratios_to_baseline": ratios(summary),
        "aims": verdicts(summary, backend),
        "results": results,
    }
    if not args.json:
        where = (
            "not pinned"
            if cpus is None
            else (f"server on CPU {sorted(cpus[0])}, clients on CPU {sorted(cpus[1])}")
        )
        print(f"machine: {report['machine']}   database: {backend}   "
              f"client processes: {args.client_procs}   {where}")  # fmt: skip
        print(f"{args.tables} tables, matches of {args.rounds} round(s); medians of "
              f"{args.repeats} run(s); cpu = cores used by the server; µs/act = server CPU "
              "per action; fr/act, B/fr = frames per action, bytes per frame received; "
              "deals = deal ends; revan. = Revanches; errors include stalls")  # fmt: skip
        print(head())
        for row in summary:
            print(line(row))
        for key, value in report["ratios_to_baseline"].items():
            print(f"/ baseline: {key}: {value}")
        for verdict in report["aims"]:
            print(verdict)
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
