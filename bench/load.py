"""WebSocket load benchmark: one real server process, many Dreierles tables of scripted clients.

Starts ``python -m uvicorn server.api.app:app`` (one process, access log off, log level
warning) against a fresh migrated SQLite database in a temporary directory — or, with
``--database-url``, against a database the caller provides and has migrated (e.g.
``postgresql+asyncpg://...``; run ``make migrate`` on it first). Then it sets up ``--tables``
Dreierles tables with three scripted clients each (``tests.table_client``: register, room,
invite, start, WebSocket hello) and drives every table from its own asyncio task: the seat
to move sends a random legal action, and the task waits until all three seats have
received the event of that version. Latency is the time from sending the action to the
*last* seat of the table receiving its event; every action is committed to the database
before it is broadcast.

Modes: ``saturation`` (every table acts as fast as it can) and ``offered`` (a global rate
``--rate`` spread over the tables by a pacing schedule). By default both run, saturation
first, on the same tables. All clients run in this process on one asyncio loop and share
the machine with the server, so the figures are a lower bound for the server alone.

Run ``python bench/load.py --help`` for the knobs. Results go into docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.run import machine
from tests.support import server_process, sqlite_url, upgrade
from tests.table_client import Client, make_room, start

GAME = "dreierles"
NAMES = ["Anna", "Bernd", "Catrin"]


@dataclass(eq=False)
class BenchTable:
    """One table under load: its three clients and what was measured there."""

    index: int
    clients: list[Client]
    rng: random.Random
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    target: int | None = None
    sent_at: float = 0.0
    latencies: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    error_seen: bool = False
    finished: bool = False
    consumers: list[asyncio.Task[None]] = field(default_factory=list)

    def start_consumers(self) -> None:
        """Start one task per client that drains its inbox and notices versions and errors."""
        self.consumers = [asyncio.create_task(self._consume(c)) for c in self.clients]

    async def _consume(self, client: Client) -> None:
        while True:
            message = await client.inbox.get()
            client.messages.clear()  # the client keeps every message; not needed here
            kind = message["type"]
            if kind == "error":
                code = str(message.get("code"))
                self.errors[code] = self.errors.get(code, 0) + 1
                self.error_seen = True
            elif kind in ("event", "snapshot"):
                target = self.target
                if target is not None and all(c.version >= target for c in self.clients):
                    self.latencies.append(time.perf_counter() - self.sent_at)
                    self.target = None
                if kind == "snapshot" and message.get("match", {}).get("finished"):
                    self.finished = True
            self.wake.set()

    def actor(self) -> Client | None:
        """The client whose turn it is, if any."""
        return next((c for c in self.clients if c.my_turn()), None)

    def choose(self, actor: Client) -> str:
        """A random legal action of ``actor`` (no knocks or announcements if avoidable)."""
        assert actor.view is not None
        every: list[str] = actor.view["legal_actions"]
        legal = [a for a in every if not a.startswith(("knock", "announce"))]
        return self.rng.choice(legal or every)

    async def act_once(self) -> bool:
        """Send one action and wait until all seats saw it; ``False`` if nobody is to move."""
        actor = self.actor()
        if actor is None:
            self.wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), 1.0)
            return False
        text = self.choose(actor)
        self.target = actor.version + 1
        self.error_seen = False
        self.wake.clear()
        self.sent_at = time.perf_counter()
        await actor.send({"type": "action", "action": text, "v": actor.version, "id": text})
        async with asyncio.timeout(30):
            while self.target is not None and not self.error_seen:
                await self.wake.wait()
                self.wake.clear()
        if self.error_seen:  # the action was refused: forget it and look again
            self.target = None
            await asyncio.sleep(0.01)
        return True

    async def aclose(self) -> None:
        """Stop the consumers and close the clients."""
        for task in self.consumers:
            task.cancel()
        for client in self.clients:
            with contextlib.suppress(Exception):
                await client.aclose()


async def set_up(base_url: str, tables: int, rounds: int, seed: int) -> list[BenchTable]:
    """Create ``tables`` Dreierles rooms of three connected clients each (five at a time)."""
    gate = asyncio.Semaphore(5)

    async def one(index: int) -> BenchTable:
        async with gate:
            names = [f"{n}{index}" for n in NAMES]
            clients, room, _ = await make_room(base_url, GAME, names, rounds=rounds)
            await start(clients[0], room)
            for client in clients:
                await client.connect(room)
            table = BenchTable(index, clients, random.Random(seed + index))
            table.start_consumers()
            return table

    return list(await asyncio.gather(*(one(i) for i in range(tables))))


async def drive(tables: list[BenchTable], seconds: float, rate: float | None) -> dict[str, Any]:
    """Drive every table for ``seconds``; ``rate`` None = saturation, else actions/s overall."""
    for table in tables:
        table.latencies = []
        table.errors = {}
    t0 = time.perf_counter()
    deadline = t0 + seconds

    async def run(table: BenchTable) -> None:
        interval = len(tables) / rate if rate else 0.0
        due = t0 + table.index / rate if rate else t0
        while time.perf_counter() < deadline and not table.finished:
            if rate:
                delay = due - time.perf_counter()
                if delay > 0:
                    await asyncio.sleep(delay)
                due += interval
            if not await table.act_once() and rate:
                due = time.perf_counter()  # between deals: do not bank the missed slots

    await asyncio.gather(*(run(t) for t in tables))
    elapsed = time.perf_counter() - t0
    latencies = sorted(x for t in tables for x in t.latencies)
    errors: dict[str, int] = {}
    for table in tables:
        for code, n in table.errors.items():
            errors[code] = errors.get(code, 0) + n

    def pct(q: float) -> float:
        if not latencies:
            return float("nan")
        return round(1000 * latencies[min(len(latencies) - 1, int(q * len(latencies)))], 2)

    return {
        "mode": "saturation" if rate is None else "offered",
        "offered_per_second": rate,
        "actions": len(latencies),
        "actions_per_second": round(len(latencies) / elapsed),
        "p50_ms": pct(0.50),
        "p90_ms": pct(0.90),
        "p99_ms": pct(0.99),
        "max_ms": round(1000 * latencies[-1], 2) if latencies else float("nan"),
        "seconds": round(elapsed, 1),
        "tables": len(tables),
        "clients": 3 * len(tables),
        "tables_finished": sum(t.finished for t in tables),
        "errors": sum(errors.values()),
        "error_codes": errors,
    }


async def bench(base_url: str, args: argparse.Namespace) -> list[dict[str, Any]]:
    """Set up the tables and run the requested modes one after the other."""
    started = time.perf_counter()
    tables = await set_up(base_url, args.tables, args.rounds, args.seed)
    setup = round(time.perf_counter() - started, 1)
    print(f"set up {len(tables)} tables in {setup} s", file=sys.stderr)
    results = []
    try:
        modes = ["saturation", "offered"] if args.mode == "both" else [args.mode]
        for mode in modes:
            rate = None if mode == "saturation" else args.rate
            result = await drive(tables, args.seconds, rate)
            result["setup_seconds"] = setup
            results.append(result)
    finally:
        for table in tables:
            await table.aclose()
    return results


def main() -> int:
    """Run the load benchmark and print a table and the JSON figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=20, help="tables of 3 clients (20)")
    parser.add_argument("--seconds", type=float, default=20.0, help="length of each mode (20)")
    parser.add_argument(
        "--mode", choices=["saturation", "offered", "both"], default="both", help="(both)"
    )
    parser.add_argument("--rate", type=float, default=2000.0, help="offered actions/s (2000)")
    parser.add_argument("--rounds", type=int, default=50, help="rounds per match (50)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--database-url",
        help="use this already migrated database (e.g. PostgreSQL) instead of a fresh SQLite",
    )
    parser.add_argument("--json", action="store_true", help="print only JSON")
    args = parser.parse_args()

    workdir = Path(tempfile.mkdtemp(prefix="stammtisch-load-"))
    log_path = workdir / "server.log"
    quiet = ("--no-access-log", "--log-level", "warning")
    try:
        database_url = args.database_url
        if database_url is None:
            database_url = sqlite_url(workdir / "load.sqlite3")
            upgrade(database_url)
        with server_process(database_url, log_path, *quiet) as (base_url, process):
            results = asyncio.run(bench(base_url, args))
            if process.poll() is not None:
                raise RuntimeError(f"the server died (exit code {process.returncode})")
    except BaseException:
        if log_path.exists():
            print(log_path.read_text()[-4000:], file=sys.stderr)
        raise
    finally:
        shutil.rmtree(workdir, ignore_errors=True)

    backend = database_url.split("+", 1)[0].split(":", 1)[0]
    summary = {
        "machine": machine(),
        "database": backend,
        "note": "clients run in the benchmark process on the same machine: a lower bound",
        "results": results,
    }
    if not args.json:
        print(f"machine: {summary['machine']}   database: {backend}")
        print(f"note: {summary['note']}")
        head = ["mode", "offered/s", "actions/s", "p50 ms", "p90 ms", "p99 ms", "max ms"]
        columns = "".join(f"{h:>11}" for h in head[1:])
        print(f"{head[0]:11}{columns}   tables clients    s errors")
        for r in results:
            offered = "-" if r["offered_per_second"] is None else f"{r['offered_per_second']:,.0f}"
            print(
                f"{r['mode']:11}{offered:>11}{r['actions_per_second']:>11,}"
                f"{r['p50_ms']:>11}{r['p90_ms']:>11}{r['p99_ms']:>11}{r['max_ms']:>11}"
                f"   {r['tables']:>6} {r['clients']:>7} {r['seconds']:>4} {r['errors']:>6}"
            )
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
