"""Garbage collection and idle sockets (issue 27): what a full collection of the server's
heap costs with many tables and sockets open, and what an idle socket costs in memory.

For every variant it starts the server as ``make run`` does (``python -m server``, one
process, here with the access log off, log level warning and the login limits off, as the
set-up creates a thousand guests from one address) on a fresh SQLite database migrated by
that variant's own migrations. It sets up ``--tables`` running matches over HTTP, two in
three Dreierles (three players), one in three Doppelkopf (four players): guests
(``POST /api/guest``, no password hashing), a room, the invite, the start. It opens and
closes a few sockets (warming up the WebSocket path), then opens one WebSocket per player,
each with the player's session cookie, says ``hello`` to the player's room and waits for
the snapshot: 1,000 sockets on 300 tables by default, then left idle.

**Measured inside the server.** The benchmark does not start uvicorn directly but through
a small launcher (:data:`LAUNCHER`, run with ``python -c``) that installs a handler for
``SIGUSR1`` and a ``gc.callbacks`` hook, then runs the variant's own
``server.__main__.main`` (or uvicorn, for the bare broadcast). On the signal, the handler
runs in the server's main thread, the event loop's (Python runs signal handlers there, at
the next instruction; uvicorn's loop wakes at least every 0.1 s): it runs ``gc.collect()``
:data:`COLLECTIONS` times, each timed with the thread's CPU clock (``time.thread_time``)
and the wall clock, and writes a JSON report to a file: those times, the objects the
collector tracks (by generation) and has frozen (``gc.get_freeze_count``), its thresholds,
the process's RSS (``/proc/self/status``) and the CPU time of every full collection the
server ran by itself since the last report (the hook; the server's own freezes, or
CPython's automatic full collections). Nothing of this is in the server, so it measures any
revision, and no server has a way in for it.

Reported per variant:

- **full collection (CPU ms)**: the median of the collections run with the sockets open
  (the first one may find garbage to free; the median is the pause the heap itself costs);
- **per idle socket (KiB)**: the RSS after the sockets are open minus the RSS before (both
  right after a full collection), divided by the number of sockets;
- the objects tracked and frozen at both moments, and the server's own full collections
  while the sockets opened and idled: how many, and the longest.

Variants, one after the other in the same run: ``freeze off`` (this tree with
``STAMMTISCH_GC_FREEZE=off``: no freezing, CPython's default thresholds), ``this`` (this
tree), ``--compare REV`` (repeatable: git revision REV, e.g. the commit before this change) and,
unless ``--no-baseline``, the bare FastAPI/uvicorn broadcast of ``bench/baseline_app.py``
(the same number of sockets in groups of three; it has no tables and freezes nothing).
The machine may be busy with other work: CPU times are the server thread's own, and the
load average is printed. Results go into docs/benchmarks.md ("Garbage collection and idle
sockets").
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import secrets
import shutil
import signal
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from io import BytesIO
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx
from websockets.asyncio.client import ClientConnection, connect

from bench.run import machine
from server.api.limits import UVICORN_OPTIONS
from tests.support import REPO_ROOT, free_port, sqlite_url, wait_until_up
from tests.table_client import COOKIE

#: Full collections run on each signal (their median is the figure).
COLLECTIONS = 5
#: The issue's aims: a full collection with 1,000 sockets on 300 tables, and an idle socket.
GC_AIM_MS = 20.0
SOCKET_AIM_KIB = 40.0
#: Games of the tables, in turn: two Dreierles tables (three players) for each Doppelkopf
#: table (four players), so 300 tables have 1,000 players.
GAMES = (("dreierles", 3), ("dreierles", 3), ("doppelkopf", 4))
NAMES = ("Anna", "Bernd", "Catrin", "Dieter")
QUIET = ("--no-access-log", "--log-level", "warning")
BASELINE_APP = "bench.baseline_app:app"

#: Run with ``python -c`` in the server's directory: the measuring hook, then the server
#: (``sys.argv[1]``: ``server`` for ``python -m server``, else an app for uvicorn).
LAUNCHER = r"""
import gc, json, os, signal, sys, time

_full = []  # CPU ms of every full collection the server ran itself since the last report
_started = [0.0, False]  # when the running collection started; a report is collecting

def _timed(phase, info):
    if _started[1]:
        return
    if phase == "start":
        _started[0] = time.thread_time()
    elif info["generation"] == 2:
        _full.append(1000 * (time.thread_time() - _started[0]))

def _rss_kib():
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0

def _report(signum, frame):
    _started[1] = True
    before = _rss_kib()
    cpu, wall = [], []
    for _ in range(int(os.environ["GC_PAUSE_COLLECTIONS"])):
        c0, w0 = time.thread_time(), time.perf_counter()
        gc.collect()
        cpu.append(1000 * (time.thread_time() - c0))
        wall.append(1000 * (time.perf_counter() - w0))
    report = {
        "cpu_ms": cpu, "wall_ms": wall, "rss_kib": _rss_kib(), "rss_kib_before": before,
        "tracked": [len(gc.get_objects(g)) for g in range(3)],
        "frozen": gc.get_freeze_count(), "threshold": gc.get_threshold(),
        "server_full_ms": list(_full),
    }
    _full.clear()
    _started[1] = False
    path = os.environ["GC_PAUSE_REPORT"]
    with open(path + ".tmp", "w") as out:
        json.dump(report, out)
    os.replace(path + ".tmp", path)

gc.callbacks.append(_timed)
signal.signal(signal.SIGUSR1, _report)
target, args = sys.argv[1], sys.argv[2:]
if target == "server":
    from server.__main__ import main
    main(args)
else:
    from uvicorn.main import main
    main.main(args=[target, *args], prog_name="uvicorn")
"""


# --------------------------------------------------------------------------- the server


@dataclass
class Server:
    """A running server process of one variant and how to ask it for a report."""

    name: str
    base_url: str
    process: subprocess.Popen[bytes]
    report_path: Path
    log_path: Path

    def report(self, timeout: float = 60.0) -> dict[str, Any]:
        """Signal the server and wait for its report (the handler runs at the loop's next
        step)."""
        self.report_path.unlink(missing_ok=True)
        os.kill(self.process.pid, signal.SIGUSR1)
        deadline = time.monotonic() + timeout
        while not self.report_path.exists():
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"no report from {self.name}; see {self.log_path}")
            time.sleep(0.05)
        report: dict[str, Any] = json.loads(self.report_path.read_text())
        return report


def migrate(checkout: Path, database_url: str) -> None:
    """Bring ``database_url`` to the head revision of ``checkout``'s own migrations."""
    env = {**os.environ, "DATABASE_URL": database_url, "PYTHONPATH": str(checkout)}
    subprocess.run([sys.executable, "-m", "alembic", "upgrade", "head"], cwd=checkout, env=env,
                   check=True, capture_output=True)  # fmt: skip


@contextlib.contextmanager
def serve(
    name: str, workdir: Path, checkout: Path, env_extra: dict[str, str], app: str | None
) -> Iterator[Server]:
    """Run the server of ``checkout`` (or ``app`` with uvicorn) through :data:`LAUNCHER` on
    a fresh migrated SQLite database in ``workdir``; yield it."""
    workdir.mkdir(parents=True, exist_ok=True)
    database_url = sqlite_url(workdir / "gc.sqlite3")
    if app is None:
        migrate(checkout, database_url)
    port = free_port()
    report_path = workdir / "report.json"
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "STAMMTISCH_PUBLIC_ORIGINS": f"http://127.0.0.1:{port}",
        "STAMMTISCH_SECRET_KEY": secrets.token_urlsafe(32),
        "STAMMTISCH_AUTH_LIMITS": "off",
        "PYTHONPATH": str(checkout),
        "GC_PAUSE_REPORT": str(report_path),
        "GC_PAUSE_COLLECTIONS": str(COLLECTIONS),
        **env_extra,
    }
    target = ["server"] if app is None else [app, *UVICORN_OPTIONS]
    command = [sys.executable, "-c", LAUNCHER, *target,
               "--host", "127.0.0.1", "--port", str(port), *QUIET]  # fmt: skip
    log_path = workdir / "server.log"
    with log_path.open("ab") as log:
        process = subprocess.Popen(command, cwd=checkout, env=env, stdout=log,
                                   stderr=subprocess.STDOUT)  # fmt: skip
        try:
            try:
                wait_until_up(f"http://127.0.0.1:{port}", process, 120)
            except (RuntimeError, TimeoutError):
                print(log_path.read_text()[-4000:], file=sys.stderr)
                raise
            yield Server(name, f"http://127.0.0.1:{port}", process, report_path, log_path)
        finally:
            process.terminate()
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


@contextlib.contextmanager
def checkout_of(revision: str, workdir: Path) -> Iterator[Path]:
    """The tree of git ``revision`` of this repository, unpacked under ``workdir``."""
    archive = subprocess.run(["git", "-C", str(REPO_ROOT), "archive", revision],
                             check=True, capture_output=True).stdout  # fmt: skip
    directory = workdir / f"rev-{revision.replace('/', '-')}"
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(directory, filter="data")
    yield directory


# --------------------------------------------------------------------------- the set-up


@dataclass(frozen=True)
class Seat:
    """A player to connect: the room and the session cookie."""

    room: int
    cookie: str


def players(tables: int) -> int:
    """The players of ``tables`` tables (so many sockets are opened)."""
    return sum(GAMES[index % len(GAMES)][1] for index in range(tables))


async def guest(base_url: str, name: str) -> httpx.AsyncClient:
    """A new guest's browser (its session cookie set)."""
    http = httpx.AsyncClient(base_url=base_url, timeout=120)
    response = await http.post("/api/guest", json={"display_name": name})
    response.raise_for_status()
    return http


async def set_up_table(base_url: str, index: int) -> list[Seat]:
    """A started match of ``GAMES[index % len(GAMES)]``: its players' seats."""
    game, players = GAMES[index % len(GAMES)]
    browsers = [await guest(base_url, f"{name} {index}") for name in NAMES[:players]]
    try:
        host = browsers[0]
        body = {"name": f"Tisch {index}", "game": game, "options": {}, "stake_cents": 10,
                "rounds": 1, "allow_spectators": True}  # fmt: skip
        created = await host.post("/api/rooms", json=body)
        created.raise_for_status()
        room = created.json()
        token = room["invite_url"].rsplit("/", 1)[-1]
        for browser in browsers[1:]:
            joined = await browser.post(f"/api/invite/{token}/join", json={"role": "player"})
            joined.raise_for_status()
        (await host.post(f"/api/rooms/{room['id']}/start")).raise_for_status()
        return [Seat(room["id"], b.cookies[COOKIE]) for b in browsers]
    finally:
        for browser in browsers:
            await browser.aclose()


async def set_up_tables(base_url: str, tables: int) -> list[Seat]:
    """``tables`` started matches (eight set up at a time); every player's seat."""
    gate = asyncio.Semaphore(8)

    async def one(index: int) -> list[Seat]:
        async with gate:
            return await set_up_table(base_url, index)

    done = await asyncio.gather(*(one(i) for i in range(tables)))
    return [seat for seats in done for seat in seats]


async def open_socket(base_url: str, seat: Seat | None, room: int) -> ClientConnection:
    """A WebSocket with ``seat``'s cookie (none: the bare broadcast), ``hello`` to its room
    answered by the snapshot."""
    url = base_url.replace("http://", "ws://") + "/ws"
    headers = {"Cookie": f"{COOKIE}={seat.cookie}"} if seat is not None else {}
    ws = await connect(url, additional_headers=headers, max_size=None)
    await ws.send(json.dumps({"type": "hello", "room": room, "last_version": -1}))
    async with asyncio.timeout(60):
        while True:
            message = json.loads(await ws.recv())
            if message["type"] == "snapshot":
                return ws
            if message["type"] == "error":
                raise RuntimeError(f"refused: {message}")


@dataclass
class Sockets:
    """The benchmark's open sockets; each one's reader drains what the server sends."""

    open: list[ClientConnection] = field(default_factory=list)
    readers: list[asyncio.Task[None]] = field(default_factory=list)

    async def add(self, base_url: str, targets: list[tuple[Seat | None, int]]) -> None:
        """Open a socket for every ``(seat, room)`` (twenty handshakes at a time)."""
        gate = asyncio.Semaphore(20)

        async def one(seat: Seat | None, room: int) -> None:
            async with gate:
                ws = await open_socket(base_url, seat, room)
            self.open.append(ws)
            self.readers.append(asyncio.create_task(drain(ws)))

        await asyncio.gather(*(one(seat, room) for seat, room in targets))

    async def close(self) -> None:
        """Close every socket and stop its reader."""
        for ws in self.open:
            await ws.close()
        for reader in self.readers:
            reader.cancel()
        await asyncio.gather(*self.readers, return_exceptions=True)
        self.open.clear()
        self.readers.clear()


async def drain(ws: ClientConnection) -> None:
    """Read (and forget) whatever the server sends, as an idle client does."""
    with contextlib.suppress(Exception):
        async for _message in ws:
            pass


# --------------------------------------------------------------------------- measuring


async def measure(server: Server, tables: int, settle: float, baseline: bool) -> dict[str, Any]:
    """Set up the tables, report, open the sockets, let them idle, report."""
    started = time.monotonic()
    seats = [] if baseline else await set_up_tables(server.base_url, tables)
    targets: list[tuple[Seat | None, int]] = (
        [(None, index // 3) for index in range(players(tables))]
        if baseline
        else [(seat, seat.room) for seat in seats]
    )
    set_up_seconds = time.monotonic() - started
    warm = Sockets()  # the WebSocket path once, so that its imports and caches are there
    await warm.add(server.base_url, targets[:10])
    await warm.close()
    await asyncio.sleep(settle)
    before = await asyncio.to_thread(server.report)
    sockets = Sockets()
    await sockets.add(server.base_url, targets)
    await asyncio.sleep(settle)
    after = await asyncio.to_thread(server.report)
    await sockets.close()
    count = len(targets)
    return {
        "variant": server.name,
        "tables": 0 if baseline else tables,
        "sockets": count,
        "set_up_s": round(set_up_seconds, 1),
        "gc_cpu_ms": statistics.median(after["cpu_ms"]),
        "gc_wall_ms": statistics.median(after["wall_ms"]),
        "gc_cpu_ms_before_sockets": statistics.median(before["cpu_ms"]),
        "kib_per_socket": (after["rss_kib"] - before["rss_kib"]) / count,
        "rss_mib_before": before["rss_kib"] / 1024,
        "rss_mib_after": after["rss_kib"] / 1024,
        "tracked_before": sum(before["tracked"]),
        "tracked_after": sum(after["tracked"]),
        "frozen_before": before["frozen"],
        "frozen_after": after["frozen"],
        "threshold": after["threshold"],
        # the server's own full collections while the sockets opened and idled
        "server_full_collections": len(after["server_full_ms"]),
        "server_full_max_ms": max(after["server_full_ms"], default=0.0),
        "load": os.getloadavg()[0],
        "reports": {"before": before, "after": after},
    }


def line(row: dict[str, Any]) -> str:
    """One row of the printed report."""
    return (f"{row['variant']:>14}: full collection {row['gc_cpu_ms']:7.1f} ms CPU "
            f"({row['gc_wall_ms']:.1f} ms wall; {row['gc_cpu_ms_before_sockets']:.1f} before "
            f"the sockets), {row['kib_per_socket']:5.1f} KiB per idle socket; tracked "
            f"{row['tracked_before']:,} -> {row['tracked_after']:,}, frozen "
            f"{row['frozen_before']:,} -> {row['frozen_after']:,}; the server's own full "
            f"collections meanwhile: {row['server_full_collections']}, the longest "
            f"{row['server_full_max_ms']:.1f} ms; RSS "
            f"{row['rss_mib_before']:.0f} -> {row['rss_mib_after']:.0f} MiB; "
            f"set-up {row['set_up_s']:.0f} s, load {row['load']:.1f}")  # fmt: skip


def main() -> int:
    """Run the benchmark; print the report and the figures as one JSON line."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--tables", type=int, default=300, help="running matches (300)")
    parser.add_argument("--settle", type=float, default=3.0,
                        help="seconds the server is left idle before each report (3)")  # fmt: skip
    parser.add_argument("--compare", metavar="REV", action="append", default=[],
                        help="also serve git revision REV (repeatable)")  # fmt: skip
    parser.add_argument("--no-baseline", action="store_true",
                        help="leave out the bare broadcast")  # fmt: skip
    parser.add_argument("--json", action="store_true", help="print only the JSON report")
    args = parser.parse_args()

    workdir = Path(tempfile.mkdtemp(prefix="stammtisch-gc-"))
    rows: list[dict[str, Any]] = []
    say = (lambda _text: None) if args.json else print
    say(f"machine: {machine()}; {args.tables} tables, load {os.getloadavg()[0]:.1f}")
    try:
        with contextlib.ExitStack() as stack:
            variants: list[tuple[str, Path, dict[str, str], str | None]] = [
                ("freeze off", REPO_ROOT, {"STAMMTISCH_GC_FREEZE": "off"}, None),
                ("this", REPO_ROOT, {}, None),
            ]
            for rev in args.compare:
                variants.append((rev, stack.enter_context(checkout_of(rev, workdir)), {}, None))
            if not args.no_baseline:
                variants.append(("bare broadcast", REPO_ROOT, {}, BASELINE_APP))
            for number, (name, checkout, env, app) in enumerate(variants):
                with serve(name, workdir / str(number), checkout, env, app) as server:
                    row = asyncio.run(measure(server, args.tables, args.settle, app is not None))
                rows.append(row)
                say(line(row))
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    for row in rows:
        if row["tables"]:
            met = row["gc_cpu_ms"] <= GC_AIM_MS and row["kib_per_socket"] <= SOCKET_AIM_KIB
            say(f"{row['variant']:>14}: aims (full collection <= {GC_AIM_MS:g} ms, <= "
                f"{SOCKET_AIM_KIB:g} KiB per socket) {'met' if met else 'NOT met'}")  # fmt: skip
    print(json.dumps({"machine": machine(), "tables": args.tables, "rows": rows}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
