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

**Computer tables** (``--computer-tables N``, 0 by default; ``--mode computers`` runs only
them): N rooms set up as a practice room is (one person on the first seat, computer
players of ``--computer-level`` on the others, by default Doppelkopf with its default rules
and match length, the computer players at the room's default pace of 800-1500 ms, or
``--computer-pause``), each followed by its person's socket in the client processes, as his
browser would. Two more modes then run on the server, in turns that alternate from repeat
to repeat, with the people's tables offered ``--people-rate`` actions/s: ``people`` (the
computer tables rest: their person does not play, and each waits for him) and
``computers`` (the persons play their moves after a human pause, ``--person-pause``, tap
"Weiter" between deals and Revanche after a match; the computer players make theirs).
After a ``computers`` phase the benchmark waits until every computer table rests again.
The person's socket counts the computer players' moves (every move of another seat that
the table did not force); a ``computers`` phase without one fails the run. Reported per
phase besides the people's latencies: computer moves per second, at how many tables, the
server's CPU over the phase per move of all tables, and the CPU of the processes the server
started (``pool_cpu``: the pool of the searching level, which the benchmark lets run on
every CPU, unpinned, as it would on a server of its own; it inherits the server's CPU).

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
from collections.abc import Callable, Coroutine, Iterator
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
from tests.table_client import COOKIE, Client, make_room, start

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
#: The modes with computer tables: ``people`` (the people's tables at ``--people-rate``,
#: the computer tables resting, waiting for their person) and ``computers`` (the same while
#: the computer tables play), and the aim for the people's p99 while they play.
COMPUTER_MODES = ["people", "computers"]
COMPUTER_P99_AIM_MS = 50.0
#: The computer players of each computer table, per ``--computer-level`` (for a game of
#: four, a person and three computer players; fewer seats take the first levels).
COMPUTER_LEVELS = {
    "einsteiger": ["einsteiger"] * 3,
    "stark": ["stark"] * 3,
    "mix": ["einsteiger", "stark", "einsteiger"],
}


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
    """What a client process needs to play one table: the room and the session cookies of
    its people (three at a Dreierles table of people, one at a computer table)."""

    index: int
    room: int
    cookies: tuple[str, ...]


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
        self.observe(seat, kind, message)
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

    def observe(self, seat: Seat, kind: str, message: dict[str, Any]) -> None:
        """A message arrived on ``seat`` (before the table follows it): nothing to do here."""

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


@dataclass(eq=False)
class ComputerTable(BenchTable):
    """A table of computer players with one person, as in a practice room: the person's
    socket follows every move (as his browser would), and while the table is *active* he
    makes his own moves after a human pause (``person_pause``, seconds) and taps "Weiter"
    and Revanche; the computer players make theirs at the room's pace. Inactive, he
    stops, and the table comes to rest within a few of the computers' moves, waiting for
    him. Every move of another seat that the table did not force is a computer player's:
    they are counted once each, by their version."""

    person_pause: tuple[float, float] = (1.0, 3.0)
    active: bool = False
    activated: asyncio.Event = field(default_factory=asyncio.Event)
    #: the last event's ``turn.forced``: the table plays the seat's only move itself
    forced: bool = False
    computer_moves: int = 0
    person_moves: int = 0
    counted_version: int = -1
    player: asyncio.Task[None] | None = None

    def observe(self, seat: Seat, kind: str, message: dict[str, Any]) -> None:
        """Count the computer players' moves; note whether the next move is forced."""
        if kind in ("event", "snapshot"):
            self.forced = bool((message.get("turn") or {}).get("forced"))
        if kind != "event" or message["v"] <= self.counted_version:
            return
        self.counted_version = message["v"]
        if message.get("auto"):
            return
        if message.get("seat") == seat.seat:
            self.person_moves += 1
        else:
            self.computer_moves += 1

    def choose(self, actor: Seat) -> str:
        """A random legal action, "gesund" for most Doppelkopf hands (as people play)."""
        assert actor.view is not None
        if "gesund" in actor.view["legal_actions"] and self.rng.random() < 0.9:
            return "gesund"
        return super().choose(actor)

    def at_rest(self) -> bool:
        """Whether nothing happens at the table until the person acts."""
        seat = self.seats[0]
        state = self.state()
        if state == "play":
            return seat.my_turn() and not self.forced
        if state == "between":
            return seat.between is not None and seat.user_id in seat.between["waiting"]
        return state == "finished"

    def start(self) -> None:
        """Let the person play (his task is started on the first call)."""
        self.active = True
        self.activated.set()
        if self.player is None:
            self.player = asyncio.create_task(self.play())
            self.readers.append(self.player)

    def stop(self) -> None:
        """The person stops making moves."""
        self.active = False
        self.activated.clear()

    async def listen(self, seconds: float) -> None:
        """Wait for the next message, at most ``seconds``."""
        self.wake.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.wake.wait(), seconds)

    async def play(self) -> None:
        """The person's part while the table is active, for as long as the table lives."""
        seat = self.seats[0]
        try:
            while True:
                if not self.active:
                    await self.activated.wait()
                    continue
                state = self.state()
                if state == "play" and seat.my_turn() and not self.forced:
                    version = seat.version
                    await asyncio.sleep(self.rng.uniform(*self.person_pause))
                    if (self.active and seat.version == version and self.state() == "play"
                            and seat.my_turn() and not self.forced):  # fmt: skip
                        text = self.choose(seat)
                        message = {"type": "action", "action": text, "v": version,
                                   "id": f"p{version}"}  # fmt: skip
                        await seat.send(message)
                        while seat.version == version and not self.error_seen:
                            await self.listen(1.0)
                        self.error_seen = False
                    continue
                if state == "between":
                    waiting = seat.between["waiting"] if seat.between else ()
                    sent = seat.next_sent
                    if seat.user_id in waiting and (
                        sent is None or time.perf_counter() - sent > NEXT_AGAIN_SECONDS
                    ):
                        if sent is None:  # a look at the deal's result first
                            await asyncio.sleep(self.rng.uniform(*self.person_pause))
                        seat.next_sent = time.perf_counter()
                        await seat.send({"type": "next", "id": f"next-{seat.version}"})
                elif state == "finished" and not self.rematch_asked:
                    await self.rematch()
                    continue
                await self.listen(1.0)
        except Exception:  # the person's client cannot go on: say so, the table rests
            traceback.print_exc()
            self.errors["person_failed"] = self.errors.get("person_failed", 0) + 1


async def computers_at_rest(tables: list[ComputerTable], timeout: float = 120.0) -> None:
    """Wait until every computer table waits for its person (for half a second on end)."""
    async with asyncio.timeout(timeout):
        calm_since = None
        while True:
            if all(t.at_rest() for t in tables):
                calm_since = calm_since or time.perf_counter()
                if time.perf_counter() - calm_since >= 0.5:
                    return
            else:
                calm_since = None
            await asyncio.sleep(0.05)


async def drive(
    tables: list[BenchTable],
    total: int,
    t0: float,
    seconds: float,
    rate: float | None,
    computers: list[ComputerTable] | None = None,
    computers_play: bool = False,
) -> dict[str, Any]:
    """Drive ``tables`` from ``t0`` for ``seconds``; ``rate`` None = saturation, else the
    offered actions/s over all ``total`` tables (of every client process). The moves at
    the ``computers`` tables are counted from ``t0`` for ``seconds``; if
    ``computers_play``, their people play meanwhile, and afterwards the tables are waited
    for until they rest again."""
    computers = computers or []
    counted = asyncio.create_task(count_computers(computers, t0, seconds, computers_play))
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
    elapsed = time.perf_counter() - t0
    computer_counts = await counted
    if computers_play:
        await computers_at_rest(computers)
    errors: dict[str, int] = {}
    counts = Counts()
    for table in tables:
        counts.add(table.counts)
        for code, n in table.errors.items():
            errors[code] = errors.get(code, 0) + n
    return {
        "latencies": [x for t in tables for x in t.latencies],
        "elapsed": elapsed,
        "errors": errors,
        "counts": vars(counts),
        "computers": computer_counts,
    }


async def count_computers(
    tables: list[ComputerTable], t0: float, seconds: float, play: bool
) -> dict[str, int]:
    """The moves made at ``tables`` from ``t0`` for ``seconds`` (their people playing
    meanwhile if ``play``): the computer players', the people's, and at how many tables
    a computer player moved."""
    await asyncio.sleep(max(0.0, t0 - time.perf_counter()))
    before = [(t.computer_moves, t.person_moves, sum(t.errors.values())) for t in tables]
    if play:
        for table in tables:
            table.start()
    await asyncio.sleep(max(0.0, t0 + seconds - time.perf_counter()))
    after = [(t.computer_moves, t.person_moves, sum(t.errors.values())) for t in tables]
    for table in tables:
        table.stop()
    moved = [(a[0] - b[0], a[1] - b[1], a[2] - b[2]) for a, b in zip(after, before, strict=True)]
    return {
        "computer_tables": len(tables),
        "computer_moves": sum(m[0] for m in moved),
        "person_moves": sum(m[1] for m in moved),
        "tables_moved": sum(1 for m in moved if m[0] > 0),
        "computer_table_errors": sum(m[2] for m in moved),
    }


def client_process(
    pipe: Connection,
    targets: dict[str, tuple[str, list[TableSpec]]],
    cpus: set[int] | None,
    options: dict[str, Any],
) -> None:
    """A client process: connect the given tables of every target, then run the phases the
    benchmark sends through ``pipe`` until it says stop (on ``cpus`` if given)."""
    run_client(pipe, cpus, lambda: _client_main(pipe, targets, options))


def run_client(
    pipe: Connection, cpus: set[int] | None, main: Callable[[], Coroutine[Any, Any, None]]
) -> None:
    """Run a client process's ``main`` on ``cpus`` (if given) with uvloop where it is
    installed; a failure is told to the benchmark through ``pipe``, then raised."""
    if cpus:
        os.sched_setaffinity(0, cpus)
    with contextlib.suppress(ImportError):
        import uvloop  # the client's own event loop; it does not change the server

        uvloop.install()
    try:
        asyncio.run(main())
    except Exception as exc:
        pipe.send(f"failed: {type(exc).__name__}: {exc}")
        raise


async def _client_main(
    pipe: Connection, targets: dict[str, tuple[str, list[TableSpec]]], options: dict[str, Any]
) -> None:
    loop = asyncio.get_running_loop()
    tables: dict[str, list[BenchTable]] = {}
    computers: list[ComputerTable] = []
    clients: list[httpx.AsyncClient] = []
    http: httpx.AsyncClient | None = None
    warming = 0.0
    gate = asyncio.Semaphore(10)

    async def one(url: str, http: httpx.AsyncClient | None, spec: TableSpec) -> BenchTable:
        async with gate:
            rng = random.Random(1000 + spec.index)
            table = BenchTable(spec, http, rng, options["drop_events"])
            await table.connect(url.replace("http://", "ws://") + "/ws")
            return table

    async def computer(url: str, spec: TableSpec) -> ComputerTable:
        async with gate:
            rng = random.Random(5000 + spec.index)
            table = ComputerTable(spec, http, rng, person_pause=options["person_pause"])
            await table.connect(url.replace("http://", "ws://") + "/ws")
            return table

    try:
        for name, (url, specs) in targets.items():
            http = None
            if name != "baseline":
                http = httpx.AsyncClient(base_url=url, timeout=30)
                clients.append(http)
            tables[name] = list(await asyncio.gather(*(one(url, http, s) for s in specs)))
            if name == "server" and options["computers"]:
                # the computer tables play while the people's tables warm up (the pool of
                # the searching level starts meanwhile), then rest until a phase
                computers = list(
                    await asyncio.gather(*(computer(url, s) for s in options["computers"]))
                )
                for busy in computers:
                    busy.start()
                warming = time.perf_counter() + options["computer_warm_up"]
            warm = options["warm_up"]
            await asyncio.gather(*(t.warm_up(t.rng.randrange(warm + 1)) for t in tables[name]))
            if name == "server" and computers:
                await asyncio.sleep(max(0.0, warming - time.perf_counter()))
                if not any(t.computer_moves for t in computers):
                    raise RuntimeError("the computer tables made no move while warming up")
                for busy in computers:
                    busy.stop()
                await computers_at_rest(computers)
        pipe.send("ready")
        while True:
            order = await loop.run_in_executor(None, pipe.recv)
            if order is None:
                break
            name, total, t0, seconds, rate, play = order
            mine = computers if name == "server" else []
            pipe.send(await drive(tables[name], total, t0, seconds, rate, mine, play))
    finally:
        for table in [t for group in tables.values() for t in group] + computers:
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
            return TableSpec(index, room, cookies)

    return list(await asyncio.gather(*(one(i) for i in range(tables))))


async def set_up_computer_tables(
    base_url: str, tables: int, game: str, levels: list[str], pause: tuple[float, float] | None
) -> list[TableSpec]:
    """Create ``tables`` started rooms of ``game`` like a practice room (one person on the
    first seat, computer players of ``levels`` on the others, the game's default rules
    and match length), with the computer players' pace ``pause`` (seconds; None: the
    room's default); five at a time."""
    gate = asyncio.Semaphore(5)
    async with httpx.AsyncClient(base_url=base_url, timeout=30) as http:
        description = (await http.get(f"/api/games/{game}")).raise_for_status().json()
    seats = min(description["players"])

    async def one(index: int) -> TableSpec:
        async with gate:
            person = Client(base_url, f"Paula{index}")
            await person.register()
            body: dict[str, Any] = {"name": f"Übung {index}", "game": game}
            if pause is not None:
                body["computer_pause_ms"] = [round(1000 * x) for x in pause]
            response = await person.http.post("/api/rooms", json=body)
            response.raise_for_status()
            room = response.json()["id"]
            for k in range(seats - 1):
                level = levels[k % len(levels)]
                added = await person.http.post(
                    f"/api/rooms/{room}/computers", json={"level": level}
                )
                added.raise_for_status()
            await start(person, room)
            cookie = person.cookie
            await person.aclose()
            return TableSpec(index, room, (cookie,))

    return list(await asyncio.gather(*(one(i) for i in range(tables))))


def milliseconds(text: str) -> tuple[float, float]:
    """``"least,most"`` in milliseconds as seconds."""
    least, most = (float(x) / 1000 for x in text.split(","))
    if not 0 <= least <= most:
        raise argparse.ArgumentTypeError(f"not least,most in ms: {text!r}")
    return least, most


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
    computer_specs: list[TableSpec] | None = None,
) -> list[dict[str, Any]]:
    """Start the client processes, run every phase on every target, return the results.

    In every mode the servers go first and the baseline last, padded to the frame size
    the server (the first target) just sent. The computer modes (``people``: the
    computer tables rest; ``computers``: they play) run on the server only, in turns
    that alternate from repeat to repeat."""
    context = multiprocessing.get_context("spawn")
    procs = max(1, args.client_procs)
    computer_specs = computer_specs or []
    workers = []
    for k in range(procs):
        mine = {name: (url, specs[k::procs]) for name, (url, _, specs) in targets.items()}
        options = {
            "drop_events": args.drop_events, "warm_up": args.warm_up,
            "computers": computer_specs[k::procs], "person_pause": args.person_pause,
            "computer_warm_up": args.computer_warm_up,
        }  # fmt: skip
        parent, child = context.Pipe()
        process = context.Process(
            target=client_process, args=(child, mine, args.client_cpus, options), daemon=True
        )
        process.start()
        workers.append((parent, process))
    try:
        for parent, _ in workers:
            if not parent.poll(300):
                raise RuntimeError("a client process did not connect its tables in time")
            answer = parent.recv()
            if answer != "ready":
                raise RuntimeError(f"a client process {answer}")
        modes = {"both": ["saturation", "offered"], "computers": []}.get(args.mode, [args.mode])
        order = sorted(targets, key=lambda name: name == "baseline")
        results = []
        for repeat in range(args.repeats):
            turns = list(modes)
            if computer_specs:
                turns += COMPUTER_MODES[:: 1 if repeat % 2 == 0 else -1]
            for mode in turns:
                frame_bytes = args.frame_bytes
                for name in order:
                    if mode in COMPUTER_MODES and name != "server":
                        continue
                    url, server, _ = targets[name]
                    if name == "baseline":
                        httpx.put(f"{url}/frame_bytes/{frame_bytes or 0}").raise_for_status()
                    rate = {"saturation": None, "offered": args.rate}.get(mode, args.people_rate)
                    if args.client_cpus:
                        unpin_children(server.pid)
                    if args.pool_nice is not None:
                        renice_children(server.pid, args.pool_nice)
                    t0 = time.perf_counter() + 0.5
                    pool = children(server.pid)
                    pids = [server.pid, *(p.pid or 0 for _, p in workers)]
                    before = [cpu_seconds(pid) for pid in pids]
                    pool_before = sum(cpu_seconds(pid) for pid in pool)
                    for parent, _ in workers:
                        play = mode == "computers"
                        parent.send((name, args.tables, t0, args.seconds, rate, play))
                    if mode in COMPUTER_MODES:  # the CPU of the phase, not of the rest after it
                        time.sleep(max(0.0, t0 + args.seconds - time.perf_counter()))
                        after = [cpu_seconds(pid) for pid in pids]
                        pool_after = sum(cpu_seconds(pid) for pid in pool)
                    samples = []
                    for parent, _ in workers:
                        sample = parent.recv()
                        if isinstance(sample, str):
                            raise RuntimeError(f"a client process {sample}")
                        samples.append(sample)
                    wall = args.seconds
                    if mode not in COMPUTER_MODES:
                        after = [cpu_seconds(pid) for pid in pids]
                        pool_after = 0.0
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
                    if mode in COMPUTER_MODES:
                        computer_figures(result, samples, args, used[0], pool_after - pool_before,
                                         wall)  # fmt: skip
                    results.append(result)
                    if not args.json:
                        print(line(result), file=sys.stderr, flush=True)
                        if mode in COMPUTER_MODES:
                            print(computer_line(result), file=sys.stderr, flush=True)
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


def computer_figures(
    result: dict[str, Any],
    samples: list[dict[str, Any]],
    args: argparse.Namespace,
    server_cpu: float,
    pool_cpu: float,
    wall: float,
) -> None:
    """Add the computer tables' figures of a phase to ``result``; raise if the computer
    tables were to play and did not."""
    counts: dict[str, int] = {}
    for sample in samples:
        for key, value in sample["computers"].items():
            counts[key] = counts.get(key, 0) + value
    result.update(counts)
    result["computer_level"] = args.computer_level
    result["computer_game"] = args.computer_game
    result["computer_moves_per_second"] = round(counts["computer_moves"] / args.seconds, 1)
    result["person_moves_per_second"] = round(counts["person_moves"] / args.seconds, 1)
    moves = result["actions"] + counts["computer_moves"] + counts["person_moves"]
    result["server_us_per_move"] = round(1e6 * server_cpu / max(1, moves))
    result["pool_cpu"] = round(pool_cpu / wall, 2)
    if result["mode"] == "computers" and counts["computer_moves"] == 0:
        raise RuntimeError(
            f"the {counts['computer_tables']} computer tables made no move in the phase "
            "in which they were to play"
        )


def children(pid: int) -> list[int]:
    """The processes ``pid`` started and theirs (the computer players' pool), from
    ``/proc``."""
    found: list[int] = []
    with contextlib.suppress(OSError):
        for task in Path(f"/proc/{pid}/task").iterdir():
            with contextlib.suppress(OSError):
                for child in (task / "children").read_text().split():
                    found += [int(child), *children(int(child))]
    return found


def renice_children(pid: int, nice: int) -> None:
    """Run the processes the server started (every thread) at ``nice`` (a measurement of
    what a pool of lower priority would do; the server does not do it)."""
    for child in children(pid):
        with contextlib.suppress(OSError):
            for task in Path(f"/proc/{child}/task").iterdir():
                os.setpriority(os.PRIO_PROCESS, int(task.name), nice)


def unpin_children(pid: int) -> None:
    """Let the processes the server started (the pool of the searching computer players,
    which inherit the server's CPU) run on every CPU, as the server's would unpinned: on
    a machine of its own the server and its pool share all CPUs."""
    everything = os.sched_getaffinity(0) | set(range(os.cpu_count() or 1))
    for child in children(pid):
        with contextlib.suppress(OSError):
            pin(child, everything)


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


COMPUTER_KEYS = [
    "computer_moves", "computer_moves_per_second", "person_moves_per_second", "tables_moved",
    "computer_table_errors", "server_us_per_move", "pool_cpu",
]  # fmt: skip


def computer_line(r: dict[str, Any]) -> str:
    """The computer tables' figures of a computer mode's row."""
    return (
        f"{'':20}computer tables: {r.get('computer_tables', '?')} ({r.get('computer_level')}), "
        f"computer moves {r['computer_moves_per_second']}/s at {r['tables_moved']:.0f} tables, "
        f"person moves {r['person_moves_per_second']}/s, server {r['server_us_per_move']:.0f} "
        f"µs per move of all tables, pool cpu {r['pool_cpu']:.2f}"
    )


def medians(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per target and mode: the median of every figure over the repeats."""
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for r in results:
        groups.setdefault((r["target"], r["mode"]), []).append(r)
    out = []
    for (target, mode), rows in groups.items():
        row: dict[str, Any] = {"target": target, "mode": mode, "runs": len(rows),
                               "offered_per_second": rows[0]["offered_per_second"]}  # fmt: skip
        for key in MEDIAN_KEYS + COMPUTER_KEYS:
            if all(key in r for r in rows):
                row[key] = round(float(statistics.median(r[key] for r in rows)), 2)
        row["actions_per_second"] = round(row["actions_per_second"])
        for key in ("computer_tables", "computer_level", "computer_game"):
            if key in rows[0]:
                row[key] = rows[0][key]
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
    people, playing = by.get(("server", "people")), by.get(("server", "computers"))
    if people and playing:
        p99 = playing["p99_ms"]
        met = "met" if p99 <= COMPUTER_P99_AIM_MS else "NOT met"
        lines.append(
            f"people's tables at {playing['offered_per_second']:,.0f}/s with "
            f"{playing['computer_tables']} computer tables ({playing['computer_level']}) "
            f"playing {playing['computer_moves_per_second']} computer moves/s: p99 {p99} ms, "
            f"without them {people['p99_ms']} ms (aim: at most {COMPUTER_P99_AIM_MS:.0f} ms "
            f"with them: {met})"
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
        "--mode",
        choices=["saturation", "offered", "both", "computers"],
        default="both",
        help="(both); computers: only the computer modes (needs --computer-tables)",
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
    parser.add_argument(
        "--computer-tables",
        type=int,
        default=0,
        help="also run the computer modes: this many tables of one person and computer "
        "players (0: none)",
    )
    parser.add_argument(
        "--computer-level", choices=sorted(COMPUTER_LEVELS), default="einsteiger",
        help="the computer players' level (mix: one stark, two einsteiger) (einsteiger)",
    )  # fmt: skip
    parser.add_argument(
        "--computer-game", default="doppelkopf", help="the computer tables' game (doppelkopf)"
    )
    parser.add_argument(
        "--computer-pause", type=milliseconds, metavar="LEAST,MOST",
        help="the computer players' pace in ms (default: the room's default, 800,1500)",
    )  # fmt: skip
    parser.add_argument(
        "--person-pause", type=milliseconds, default=(1.0, 3.0), metavar="LEAST,MOST",
        help="the computer tables' person: ms before each of his moves (1000,3000)",
    )  # fmt: skip
    parser.add_argument(
        "--people-rate", type=float, default=100.0,
        help="actions/s of the people's tables in the computer modes (100)",
    )  # fmt: skip
    parser.add_argument(
        "--computer-warm-up", type=float, default=10.0,
        help="seconds the computer tables play, unmeasured, before the first phase (10)",
    )  # fmt: skip
    parser.add_argument(
        "--pool-nice", type=int, metavar="N",
        help="run the processes the server starts (the pool of the searching computer "
        "players) at this nice value, to measure what a pool of lower priority would do",
    )  # fmt: skip
    parser.add_argument("--json", action="store_true", help="print only JSON")
    args = parser.parse_args()
    if args.mode == "computers" and args.computer_tables <= 0:
        parser.error("--mode computers needs --computer-tables")
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
            computer_specs: list[TableSpec] = []
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
                if name == "server" and args.computer_tables > 0:
                    started = time.perf_counter()
                    computer_specs = asyncio.run(
                        set_up_computer_tables(
                            url, args.computer_tables, args.computer_game,
                            COMPUTER_LEVELS[args.computer_level], args.computer_pause,
                        )
                    )  # fmt: skip
                    say(f"{name}: set up {len(computer_specs)} computer tables "
                        f"({args.computer_game}, {args.computer_level}) in "
                        f"{time.perf_counter() - started:.1f} s")  # fmt: skip
            if args.baseline or args.baseline_only:
                url, process = stack.enter_context(
                    uvicorn_process("bench.baseline_app:app", workdir / "baseline.log")
                )
                specs = [TableSpec(i, i, ("-", "-", "-")) for i in range(args.tables)]
                targets["baseline"] = (url, process, specs)
                if cpus:
                    pin(process.pid, cpus[0])
            say(head())
            results = run_phases(args, targets, computer_specs)
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
        "computer_tables": args.computer_tables,
        "computer_level": args.computer_level if args.computer_tables else None,
        "computer_game": args.computer_game if args.computer_tables else None,
        "computer_pause_ms": (
            [round(1000 * x) for x in args.computer_pause] if args.computer_pause else None
        ),
        "person_pause_ms": [round(1000 * x) for x in args.person_pause],
        "people_rate": args.people_rate,
        "computer_processes": os.environ.get("STAMMTISCH_COMPUTER_PROCESSES"),
        "pool_nice": args.pool_nice,
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
            if row["mode"] in COMPUTER_MODES:
                print(computer_line(row))
        for key, value in report["ratios_to_baseline"].items():
            print(f"/ baseline: {key}: {value}")
        for verdict in report["aims"]:
            print(verdict)
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
