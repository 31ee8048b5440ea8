"""WebSocket load benchmark: one real server process, many Dreierles tables of scripted clients.

Starts ``python -m uvicorn server.api.app:app`` (one process, access log off, log level
warning, no per-message compression) against a fresh migrated SQLite database in a temporary
directory — or, with ``--database-url``, against a database the caller provides and has
migrated (e.g. ``postgresql+asyncpg://...``; run ``make migrate`` on it first). Then it sets
up ``--tables`` Dreierles tables with three players each over HTTP (``tests.table_client``:
register, room, invite, start) and hands them to ``--client-procs`` client processes, which
open the three WebSockets of every table and drive it from one asyncio task per table
(messages read with orjson, to keep the load generator's share of the machine small): the
seat to move sends a random legal action, and the task waits until all three seats have
received the event of that version. Latency is the time from sending the action to the
*last* seat of the table receiving its event; every action is committed to the database
before it is broadcast.

With ``--baseline`` the same client code also drives ``bench/baseline_app.py`` (a bare
FastAPI/uvicorn broadcast: no game, no database), served by the same uvicorn command line,
with the same number of groups of three and the same latency definition. The phases of the
two targets alternate, so both see the same machine, and the summary gives the ratios.

Modes: ``saturation`` (every table acts as fast as it can, one action in flight per table)
and ``offered`` (a global rate ``--rate`` spread over the tables by a pacing schedule). By
default both run, saturation first, on the same tables; ``--repeats`` runs the whole
sequence several times and the summary reports medians. The client processes share the
machine with the server, so the figures are a lower bound for the server alone; the CPU used
by the server and by the clients during each phase is reported too (from ``/proc``).

Run ``python bench/load.py --help`` for the knobs. Results go into docs/benchmarks.md.
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
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import orjson
from websockets.asyncio.client import ClientConnection, connect

from bench.run import machine
from tests.support import REPO_ROOT, server_process, sqlite_url, upgrade
from tests.table_client import COOKIE, make_room, start

GAME = "dreierles"
NAMES = ["Anna", "Bernd", "Catrin"]
#: On top of the flags every server process gets (no WebSocket compression, as ``make run``).
QUIET = ("--no-access-log", "--log-level", "warning")


# --------------------------------------------------------------------------- servers


def uvicorn_process(
    app: str, log_path: Path, cwd: Path = REPO_ROOT, database_url: str | None = None
) -> contextlib.AbstractContextManager[tuple[str, subprocess.Popen[bytes]]]:
    """Serve ``app`` with ``python -m uvicorn`` and :data:`QUIET` from ``cwd`` (the
    same command line for the server, an older checkout of it and the baseline).

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


# --------------------------------------------------------------------------- the clients


@dataclass(frozen=True)
class TableSpec:
    """What a client process needs to play one table: room and the three session cookies."""

    index: int
    room: int
    cookies: tuple[str, str, str]


@dataclass(eq=False)
class Seat:
    """One WebSocket of a table; ``version``, ``seat`` and ``view`` follow its messages."""

    ws: ClientConnection
    version: int = -1
    seat: int | None = None
    view: dict[str, Any] | None = None

    def my_turn(self) -> bool:
        """Whether the last view says it is this seat's turn."""
        view = self.view
        return bool(view and view["to_move"] is not None and view["to_move"] == self.seat)


@dataclass(eq=False)
class BenchTable:
    """One table under load: its three seats and what was measured there."""

    index: int
    rng: random.Random
    seats: list[Seat] = field(default_factory=list)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    target: int | None = None
    sent_at: float = 0.0
    latencies: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    error_seen: bool = False
    finished: bool = False
    readers: list[asyncio.Task[None]] = field(default_factory=list)

    async def connect(self, url: str, spec: TableSpec) -> None:
        """Open the three sockets, say hello and wait for the three snapshots."""
        for cookie in spec.cookies:
            ws = await connect(url, additional_headers={"Cookie": f"{COOKIE}={cookie}"},
                               compression=None, max_queue=None)  # fmt: skip
            seat = Seat(ws)
            self.seats.append(seat)
            await ws.send(json.dumps({"type": "hello", "room": spec.room, "last_version": None}))
            snapshot = json.loads(await ws.recv())
            if snapshot["type"] != "snapshot":
                raise RuntimeError(f"expected a snapshot, got {snapshot}")
            self.on_message(seat, snapshot)
        self.readers = [asyncio.create_task(self._read(seat)) for seat in self.seats]

    async def _read(self, seat: Seat) -> None:
        with contextlib.suppress(Exception):
            async for raw in seat.ws:
                self.on_message(seat, orjson.loads(raw))

    def on_message(self, seat: Seat, message: dict[str, Any]) -> None:
        """Note versions, views and errors; record the latency once every seat has the event."""
        kind = message["type"]
        if kind == "error":
            code = str(message.get("code"))
            self.errors[code] = self.errors.get(code, 0) + 1
            self.error_seen = True
        elif kind in ("event", "snapshot"):
            seat.version = message["v"]
            view = seat.view = message["view"]
            seat.seat = view.get("seat", seat.seat)
            target = self.target
            if target is not None and all(s.version >= target for s in self.seats):
                self.latencies.append(time.perf_counter() - self.sent_at)
                self.target = None
            if kind == "snapshot" and message.get("match", {}).get("finished"):
                self.finished = True
        else:
            return
        self.wake.set()

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
            self.wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), 1.0)
            return False
        text = self.choose(actor)
        self.target = actor.version + 1
        self.error_seen = False
        self.wake.clear()
        self.sent_at = time.perf_counter()
        await actor.ws.send(
            orjson.dumps(
                {"type": "action", "action": text, "v": actor.version, "id": text}
            ).decode()
        )
        async with asyncio.timeout(30):
            while self.target is not None and not self.error_seen:
                await self.wake.wait()
                self.wake.clear()
        if self.error_seen:  # the action was refused: forget it and look again
            self.target = None
            await asyncio.sleep(0.01)
        return True

    async def warm_up(self) -> None:
        """Play a random part of a deal (0 to 59 actions), unmeasured, so that the tables'
        deals do not all end at the same moment: the tables of a real server started at
        different times, and a benchmark whose tables all deal at once measures that."""
        for _ in range(self.rng.randrange(60)):
            await self.act_once()

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
    deadline = t0 + seconds

    async def run(table: BenchTable) -> None:
        interval = total / rate if rate else 0.0
        due = t0 + table.index / rate if rate else t0
        while time.perf_counter() < deadline and not table.finished:
            delay = due - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            due += interval
            if not await table.act_once() and rate:
                due = time.perf_counter()  # between deals: do not bank the missed slots

    await asyncio.sleep(max(0.0, t0 - time.perf_counter()))
    await asyncio.gather(*(run(t) for t in tables))
    errors: dict[str, int] = {}
    for table in tables:
        for code, n in table.errors.items():
            errors[code] = errors.get(code, 0) + n
    return {
        "latencies": [x for t in tables for x in t.latencies],
        "elapsed": time.perf_counter() - t0,
        "errors": errors,
        "finished": sum(t.finished for t in tables),
    }


def client_process(
    pipe: Connection, targets: dict[str, tuple[str, list[TableSpec]]], cpus: set[int] | None
) -> None:
    """A client process: connect the given tables of every target, then run the phases the
    benchmark sends through ``pipe`` until it says stop (on ``cpus`` if given)."""
    if cpus:
        os.sched_setaffinity(0, cpus)
    with contextlib.suppress(ImportError):
        import uvloop  # the client's own event loop; it does not change the server

        uvloop.install()
    asyncio.run(_client_main(pipe, targets))


async def _client_main(pipe: Connection, targets: dict[str, tuple[str, list[TableSpec]]]) -> None:
    loop = asyncio.get_running_loop()
    tables: dict[str, list[BenchTable]] = {}
    gate = asyncio.Semaphore(10)

    async def one(url: str, spec: TableSpec) -> BenchTable:
        async with gate:
            table = BenchTable(spec.index, random.Random(1000 + spec.index))
            await table.connect(url, spec)
            return table

    for name, (url, specs) in targets.items():
        tables[name] = list(await asyncio.gather(*(one(url, s) for s in specs)))
        await asyncio.gather(*(table.warm_up() for table in tables[name]))
    pipe.send("ready")
    try:
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
    for sample in samples:
        for code, n in sample["errors"].items():
            errors[code] = errors.get(code, 0) + n

    def pct(q: float) -> float:
        if not latencies:
            return float("nan")
        return round(1000 * latencies[min(len(latencies) - 1, int(q * len(latencies)))], 2)

    return {
        **phase,
        "actions": len(latencies),
        "actions_per_second": round(len(latencies) / elapsed),
        "p50_ms": pct(0.50),
        "p90_ms": pct(0.90),
        "p99_ms": pct(0.99),
        "max_ms": round(1000 * latencies[-1], 2) if latencies else float("nan"),
        "seconds": round(elapsed, 1),
        "tables": tables,
        "clients": 3 * tables,
        "tables_finished": sum(s["finished"] for s in samples),
        "errors": sum(errors.values()),
        "error_codes": errors,
    }


def run_phases(
    args: argparse.Namespace,
    targets: dict[str, tuple[str, subprocess.Popen[bytes], list[TableSpec]]],
) -> list[dict[str, Any]]:
    """Start the client processes, run every phase on every target, return the results."""
    context = multiprocessing.get_context("spawn")
    procs = max(1, args.client_procs)
    workers = []
    for k in range(procs):
        mine = {
            name: (url.replace("http://", "ws://") + "/ws", specs[k::procs])
            for name, (url, _, specs) in targets.items()
        }
        parent, child = context.Pipe()
        process = context.Process(
            target=client_process, args=(child, mine, args.client_cpus), daemon=True
        )
        process.start()
        workers.append((parent, process))
    try:
        for parent, _ in workers:
            if not parent.poll(120):
                raise RuntimeError("a client process did not connect its tables in time")
            if parent.recv() != "ready":
                raise RuntimeError("a client process failed")
        modes = ["saturation", "offered"] if args.mode == "both" else [args.mode]
        results = []
        for repeat in range(args.repeats):
            for mode in modes:
                for name, (_, server, _) in targets.items():
                    rate = None if mode == "saturation" else args.rate
                    t0 = time.perf_counter() + 0.5
                    pids = [server.pid, *(p.pid or 0 for _, p in workers)]
                    before = [cpu_seconds(pid) for pid in pids]
                    for parent, _ in workers:
                        parent.send((name, args.tables, t0, args.seconds, rate))
                    samples = [parent.recv() for parent, _ in workers]
                    after = [cpu_seconds(pid) for pid in pids]
                    wall = time.perf_counter() - t0
                    used = [(a - b) / wall for a, b in zip(after, before, strict=True)]
                    phase = {"target": name, "repeat": repeat + 1, "mode": mode,
                             "offered_per_second": rate}  # fmt: skip
                    result = summarise(samples, phase, args.tables)
                    result["server_cpu"] = round(used[0], 2)
                    result["clients_cpu"] = round(sum(used[1:]), 2)
                    per_action = used[0] * wall / max(1, result["actions"])
                    result["server_us_per_action"] = round(1e6 * per_action)
                    results.append(result)
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

HEAD = ["target", "mode", "offered/s", "actions/s", "p50 ms", "p90 ms", "p99 ms", "max ms"]


def line(r: dict[str, Any]) -> str:
    """One row of the results table."""
    offered = "-" if r["offered_per_second"] is None else f"{r['offered_per_second']:,.0f}"
    return (
        f"{r['target']:9.9}{r['mode']:11}{offered:>10}{r['actions_per_second']:>10,}"
        f"{r['p50_ms']:>9}{r['p90_ms']:>9}{r['p99_ms']:>9}{r['max_ms']:>9}"
        f"{r.get('server_cpu', float('nan')):>7.2f}{r.get('clients_cpu', float('nan')):>7.2f}"
        f"{r.get('server_us_per_action', float('nan')):>7.0f}{r['errors']:>7}"
    )


def medians(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per target and mode: the median of every figure over the repeats."""
    keys = ["actions_per_second", "p50_ms", "p90_ms", "p99_ms", "max_ms", "server_cpu",
            "clients_cpu", "server_us_per_action", "errors"]  # fmt: skip
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for r in results:
        groups.setdefault((r["target"], r["mode"]), []).append(r)
    out = []
    for (target, mode), rows in groups.items():
        row: dict[str, Any] = {"target": target, "mode": mode, "runs": len(rows),
                               "offered_per_second": rows[0]["offered_per_second"]}  # fmt: skip
        for key in keys:
            row[key] = round(float(statistics.median(r[key] for r in rows)), 2)
        row["actions_per_second"] = round(row["actions_per_second"])
        out.append(row)
    return out


def ratios(summary: list[dict[str, Any]]) -> dict[str, float]:
    """Each target / the baseline, for the medians of each mode (throughput, latencies)."""
    by = {(r["target"], r["mode"]): r for r in summary}
    out: dict[str, float] = {}
    for (target, mode), row in by.items():
        base = by.get(("baseline", mode))
        if target == "baseline" or base is None:
            continue
        for key in ("actions_per_second", "p50_ms", "p99_ms"):
            if base[key]:
                out[f"{target}_{mode}_{key}"] = round(row[key] / base[key], 2)
    return out


def main() -> int:
    """Run the load benchmark and print a table and the JSON figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=60, help="tables of 3 clients (60)")
    parser.add_argument("--seconds", type=float, default=20.0, help="length of each phase (20)")
    parser.add_argument(
        "--mode", choices=["saturation", "offered", "both"], default="both", help="(both)"
    )
    parser.add_argument("--rate", type=float, default=2000.0, help="offered actions/s (2000)")
    parser.add_argument("--rounds", type=int, default=50, help="rounds per match (50)")
    parser.add_argument("--repeats", type=int, default=1, help="runs of every phase (1)")
    parser.add_argument(
        "--baseline", action="store_true", help="also drive the bare broadcast app (ratios)"
    )
    parser.add_argument(
        "--baseline-only", action="store_true", help="drive only the bare broadcast app"
    )
    parser.add_argument("--client-procs", type=int, default=2, help="client processes (2)")
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
        help="use this already migrated database (e.g. PostgreSQL) instead of a fresh SQLite",
    )
    parser.add_argument(
        "--no-pin",
        dest="pin",
        action="store_false",
        help="do not pin the server to the first CPU and the clients to the others",
    )
    parser.add_argument("--json", action="store_true", help="print only JSON")
    args = parser.parse_args()
    cpus = pinning(args.pin)
    args.client_cpus = cpus[1] if cpus else None
    if cpus:
        os.sched_setaffinity(0, cpus[1])  # this process only waits; keep it off the server's

    workdir = Path(tempfile.mkdtemp(prefix="stammtisch-load-"))
    log_path = workdir / "server.log"
    database_url = args.database_url or sqlite_url(workdir / "load.sqlite3")
    try:
        with contextlib.ExitStack() as stack:
            targets: dict[str, tuple[str, subprocess.Popen[bytes], list[TableSpec]]] = {}
            if args.baseline or args.baseline_only:
                url, process = stack.enter_context(
                    uvicorn_process("bench.baseline_app:app", workdir / "baseline.log")
                )
                specs = [TableSpec(i, i, ("-", "-", "-")) for i in range(args.tables)]
                targets["baseline"] = (url, process, specs)
                if cpus:
                    pin(process.pid, cpus[0])
            servers: list[tuple[str, Path, str]] = []
            for checkout in map(Path, args.compare):
                name = checkout.resolve().name
                servers.append((name, checkout.resolve(), sqlite_url(workdir / f"{name}.sqlite3")))
            if not args.baseline_only:
                servers.append(("server", REPO_ROOT, database_url))
            for name, checkout, url_of_db in servers:
                if name != "server" or args.database_url is None:
                    upgrade(url_of_db)
                log = log_path if name == "server" else workdir / f"{name}.log"
                url, process = stack.enter_context(
                    uvicorn_process("server.api.app:app", log, checkout, url_of_db)
                )
                if cpus:
                    pin(process.pid, cpus[0])
                started = time.perf_counter()
                specs = asyncio.run(set_up_rooms(url, args.tables, args.rounds))
                print(f"{name}: set up {len(specs)} tables in "
                      f"{time.perf_counter() - started:.1f} s", file=sys.stderr)  # fmt: skip
                targets[name] = (url, process, specs)
            print(f"{'':20}{''.join(f'{h:>10}' for h in HEAD[2:4])}"
                  f"{''.join(f'{h:>9}' for h in HEAD[4:])}  cpu: server clients µs/act errors",
                  file=sys.stderr)  # fmt: skip
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
        "client_procs": args.client_procs,
        "pinned": pinned,
        "note": "clients run on the same machine as the server: a lower bound",
        "medians": summary,
        "ratios_to_baseline": ratios(summary),
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
        print(f"medians of {args.repeats} run(s); cpu = cores used by the server / the clients")
        for row in summary:
            print(line(row))
        for key, value in report["ratios_to_baseline"].items():
            print(f"/ baseline: {key}: {value}")
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
