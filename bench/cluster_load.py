"""WebSocket load with several server processes: what forwarding a table's traffic through
Redis costs, one process against two, on the same tables and clients in one run.

It reuses ``bench/load.py``'s client machinery (its table set-up over HTTP, the scripted
tables that play whole matches with deal ends and Revanches, its latency definition, its
phases and its report helpers) and measures, one after the other, these *layouts* of the
server, all on one throw-away PostgreSQL database (created and migrated on the server of
``--database-url``, dropped afterwards) and the machine's Redis (``--redis-url``):

- ``one``: **one process** with ``STAMMTISCH_REDIS_URL`` set (the cluster's code path:
  leases, advisory locks, fenced writes), every socket at that process;
- ``two``: **two processes**, each owning half of the tables (table *i* is greeted first
  at process *i* mod 2, which claims it); of each table's three sockets one or two are at
  the owner and the others at the other process, alternately, so that half of all sockets
  are held by the process that does not own their table: their messages are forwarded to
  the owner and every frame for them is published back through Redis;
- ``single``: one process **without Redis** (the default path of ``make run``), the
  baseline of the baseline (``--layouts`` to leave it out).

The tables are set up once over HTTP, at a process of their own that stops before the
layouts run (a match is owned by the process that started it; here each layout's owners
are to claim them). Each layout starts its processes afresh, so that the tables' owners
are the ones named above (a table nobody owns is claimed on its first greeting); the
client processes connect the same tables' sockets to them, greeting at the owner first and
at the others once the owner's snapshot is there, and the same phases as ``bench/load.py``
run (``saturation`` and ``offered``); then the sockets close and the processes stop. A
Revanche is asked at the table's owner, which starts (and owns) the new match. The tables
are warmed up once (in the first layout), so that their deals and matches do not end all
at once; ``--repeats`` runs every layout again, and the summary gives medians.

Per phase, besides ``bench/load.py``'s figures (actions/s, latency p50/p95/p99 from sending
an action to the last seat having its event), it reads:

- the **server CPU** (user + system, ``/proc/<pid>/stat``) of every server process, summed,
  per action;
- **Redis's CPU** (``INFO cpu``: ``used_cpu_sys + used_cpu_user``) over the phase, per
  action (Redis is the machine's, shared with anybody else who uses it);
- the **PostgreSQL backends' CPU** of the benchmark's database (the backends listed in
  ``pg_stat_activity`` at the start and the end of the phase), per action;
- every process's ``GET /metrics``: stored actions and **forwarded commands**
  (``stammtisch_forwarded_commands_total``); the clients count the messages they sent and
  the frames they received, and which of them went through a process that does not own
  the table (**forwarded frames**).

The summary then gives **the cost of forwarding**: the extra CPU per action of ``two``
over ``one`` (servers; servers and Redis), divided by the share of the messages and frames
that were forwarded, i.e. what an action costs more when *all* of its traffic goes through
Redis, and that extra CPU per forwarded message or frame.

**Throughput is not the point.** The machine has two cores and the load generator runs on
it: the server processes are pinned together to the first CPU and the clients to the
second (as ``bench/load.py`` does; ``--no-pin`` turns it off), so two processes share the
one core that one process had, and PostgreSQL and Redis share both with everybody. Two
processes here cannot show a gain in throughput; they show what forwarding costs.

Run ``python bench/cluster_load.py --help`` for the knobs; ``--json`` prints only the JSON
report (``tests/test_cluster_load_bench.py`` runs a short one). Results go into
docs/benchmarks.md ("Several processes").
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import multiprocessing
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, cast

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx
import redis
from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.pool import NullPool
from websockets.asyncio.client import ClientConnection, connect

from bench.load import (
    ACTIONS_PER_DEAL,
    QUIET,
    BenchTable,
    Seat,
    TableSpec,
    cpu_seconds,
    database,
    drive,
    pin,
    pinning,
    run_client,
    set_up_rooms,
    summarise,
)
from bench.run import machine
from server.store.db import make_engine
from tests.support import REDIS_URL, server_process
from tests.table_client import COOKIE

#: The layouts in the order they run: one process with Redis, two with Redis, one without.
LAYOUTS = ("one", "two", "single")
#: How many processes each layout starts, and whether they use Redis.
PROCESSES = {"one": (1, True), "two": (2, True), "single": (1, False), "setup": (1, True)}
DEFAULT_POSTGRES = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"


# --------------------------------------------------------------------------- the clients


class CountingSocket:
    """A client socket that counts the messages sent on it while its table is counting
    (``bench/load.py``'s table sends both through ``Seat.send`` and on ``seat.ws``)."""

    def __init__(self, ws: ClientConnection, table: ClusterTable, forwarded: bool) -> None:
        self._ws = ws
        self._table = table
        self.forwarded = forwarded

    async def send(self, message: Any) -> None:
        """Send ``message``; count it (and whether it goes through a non-owner)."""
        if self._table.counting:
            self._table.traffic["sent"] += 1
            self._table.traffic["sent_forwarded"] += self.forwarded
        await self._ws.send(message)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._ws, name)


@dataclass(eq=False)
class ClusterTable(BenchTable):
    """``bench/load.py``'s table, whose three sockets may be at different processes: the
    owner's seats greet first, and the client counts the messages and frames that went
    through a process that does not own the table."""

    urls: tuple[str, str, str] = ("", "", "")
    #: which of the seats are at a process that does not own the table
    remote: tuple[bool, bool, bool] = (False, False, False)
    traffic: dict[str, int] = field(
        default_factory=lambda: dict.fromkeys(
            ("sent", "sent_forwarded", "frames", "frames_forwarded"), 0
        )
    )

    async def connect(self, url: str = "") -> None:
        """Open the three sockets (seat *k* at ``urls[k]``), greet at the owner first and
        wait for its snapshot (so that the owner claims the table), then the others."""
        for cookie, where, forwarded in zip(self.spec.cookies, self.urls, self.remote,
                                            strict=True):  # fmt: skip
            ws = await connect(where, additional_headers={"Cookie": f"{COOKIE}={cookie}"},
                               compression=None, max_queue=None)  # fmt: skip
            counting = CountingSocket(ws, self, forwarded)
            self.seats.append(Seat(cast(ClientConnection, counting), cookie))
        self.readers = [asyncio.create_task(self._read(seat)) for seat in self.seats]
        local = [s for s, r in zip(self.seats, self.remote, strict=True) if not r]
        others = [s for s, r in zip(self.seats, self.remote, strict=True) if r]
        for seat in local:
            await self.hello(seat, None)
        async with asyncio.timeout(60):
            while any(s.resyncing for s in local):
                self.wake.clear()
                await self.wait(1.0)
        for seat in others:
            await self.hello(seat, None)
        await self.wait_while("wait")

    async def on_frame(self, seat: Seat, raw: bytes) -> None:
        """Count the frame (and whether it came through a non-owner), then as ever."""
        if self.counting:
            self.traffic["frames"] += 1
            self.traffic["frames_forwarded"] += cast(CountingSocket, seat.ws).forwarded
        await super().on_frame(seat, raw)


@dataclass(frozen=True)
class Placement:
    """Where one table's sockets go in a layout: a WebSocket URL per seat, whether each
    is at a non-owner, and the owner's base URL (the Revanche is asked there)."""

    urls: tuple[str, str, str]
    remote: tuple[bool, bool, bool]
    owner: str


def placements(bases: list[str], specs: list[TableSpec]) -> dict[int, Placement]:
    """The sockets of every table in a layout of ``bases`` (one or two processes): table
    *i* is owned by process *i* mod n; with two processes, of tables *i* = 0, 1, 2, 3, …
    two, two, one, one, … sockets are at the owner (half of all), the others elsewhere."""
    out = {}
    for spec in specs:
        i = spec.index
        owner = bases[i % len(bases)]
        other = bases[(i + 1) % len(bases)]
        remote = (False, True, (i // 2) % 2 == 1) if len(bases) > 1 else (False, False, False)
        urls = tuple((other if r else owner).replace("http://", "ws://") + "/ws" for r in remote)
        out[i] = Placement((urls[0], urls[1], urls[2]), remote, owner)
    return out


def client_process(pipe: Connection, specs: list[TableSpec], cpus: set[int] | None,
                   options: dict[str, Any]) -> None:  # fmt: skip
    """A client process: for each layout the benchmark names, connect its tables' sockets,
    run the phases it sends, close the sockets; until it says stop (on ``cpus``)."""
    run_client(pipe, cpus, lambda: _client_main(pipe, specs, options))


async def _client_main(pipe: Connection, specs: list[TableSpec], options: dict[str, Any]) -> None:
    loop = asyncio.get_running_loop()
    rngs = {spec.index: random.Random(1000 + spec.index) for spec in specs}
    tables: list[ClusterTable] = []
    clients: dict[str, httpx.AsyncClient] = {}
    warmed = False
    gate = asyncio.Semaphore(10)

    async def close_all() -> None:
        for table in tables:
            await table.aclose()
        for http in clients.values():
            await http.aclose()
        tables.clear()
        clients.clear()

    async def one(spec: TableSpec, where: Placement) -> ClusterTable:
        async with gate:
            if where.owner not in clients:
                clients[where.owner] = httpx.AsyncClient(base_url=where.owner, timeout=30)
            table = ClusterTable(spec, clients[where.owner], rngs[spec.index],
                                 urls=where.urls, remote=where.remote)  # fmt: skip
            await table.connect()
            await table.settle()
            return table

    try:
        while True:
            order = await loop.run_in_executor(None, pipe.recv)
            if order is None:
                break
            if order[0] == "connect":
                plan: dict[int, Placement] = order[1]
                tables.extend(await asyncio.gather(*(one(s, plan[s.index]) for s in specs)))
                if not warmed:
                    warm = options["warm_up"]
                    await asyncio.gather(*(t.warm_up(t.rng.randrange(warm + 1)) for t in tables))
                    warmed = True
                pipe.send("ready")
            elif order[0] == "drive":
                _, total, t0, seconds, rate = order
                for table in tables:
                    table.traffic = dict.fromkeys(table.traffic, 0)
                result = await drive(list(tables), total, t0, seconds, rate)
                traffic = dict.fromkeys(tables[0].traffic if tables else (), 0)
                for table in tables:
                    for key, value in table.traffic.items():
                        traffic[key] += value
                result["traffic"] = traffic
                pipe.send(result)
            elif order[0] == "close":
                await close_all()
                pipe.send("closed")
    finally:
        await close_all()


# --------------------------------------------------------------------------- servers


def metric_values(base: str) -> dict[str, float]:
    """A process's metrics without labels (``GET /metrics``)."""
    response = httpx.get(f"{base}/metrics", timeout=10)
    response.raise_for_status()
    found = {}
    for row in response.text.splitlines():
        if row and not row.startswith("#") and "{" not in row:
            name, value = row.rsplit(" ", 1)
            found[name] = float(value)
    return found


def redis_cpu(url: str) -> float:
    """Redis's CPU seconds so far (``INFO cpu``: system + user), NaN if it cannot say."""
    try:
        with redis.Redis.from_url(url, socket_connect_timeout=2) as client:
            info = cast(dict[str, Any], client.info("cpu"))
        return float(info["used_cpu_sys"]) + float(info["used_cpu_user"])
    except (redis.RedisError, KeyError, ValueError):
        return float("nan")


def postgres_backends(url: str) -> list[int]:
    """The PostgreSQL backends connected to the benchmark's database (other than ours)."""

    async def query() -> list[int]:
        engine = make_engine(url, poolclass=NullPool)
        try:
            async with engine.connect() as db:
                rows = await db.execute(text(
                    "SELECT pid FROM pg_stat_activity "
                    "WHERE datname = current_database() AND pid <> pg_backend_pid()"
                ))  # fmt: skip
                return [int(pid) for pid in rows.scalars()]
        finally:
            await engine.dispose()

    try:
        return asyncio.run(query())
    except Exception:
        return []


def unreachable(database_url: str, redis_url: str) -> str | None:
    """Why the benchmark cannot run here (PostgreSQL or Redis does not answer), or None."""
    try:
        with redis.Redis.from_url(redis_url, socket_connect_timeout=2) as client:
            client.ping()
    except redis.RedisError as exc:
        return f"Redis not reachable at {redis_url} ({type(exc).__name__}: {exc})"

    async def probe() -> None:
        engine = make_engine(database_url, poolclass=NullPool)
        try:
            async with asyncio.timeout(5), engine.connect() as db:
                await db.execute(text("SELECT 1"))
        finally:
            await engine.dispose()

    try:
        asyncio.run(probe())
    except Exception as exc:
        shown = make_url(database_url).render_as_string(hide_password=True)
        return f"PostgreSQL not reachable at {shown} ({type(exc).__name__}: {exc})"
    return None


@contextlib.contextmanager
def layout(name: str, database_url: str, redis_url: str, workdir: Path,
           cpus: tuple[set[int], set[int]] | None) -> Iterator[list[tuple[str, int]]]:  # fmt: skip
    """Start the processes of layout ``name`` (as ``make run`` does, with
    :data:`bench.load.QUIET`); yield their base URLs and pids; stop them afterwards."""
    count, clustered = PROCESSES[name]
    # The set-up registers hundreds of accounts from one address (see bench/load.py).
    os.environ["STAMMTISCH_AUTH_LIMITS"] = "off"
    with contextlib.ExitStack() as stack:
        out = []
        for i in range(count):
            env = {"STAMMTISCH_NODE_NAME": f"{name}{i}"}
            if clustered:
                env["STAMMTISCH_REDIS_URL"] = redis_url
            else:
                os.environ.pop("STAMMTISCH_REDIS_URL", None)
            log = workdir / f"{name}{i}.log"
            base, process = stack.enter_context(server_process(database_url, log, *QUIET, env=env))
            if cpus:
                pin(process.pid, cpus[0])
            out.append((base, process.pid))
        yield out
        for i, (_, _) in enumerate(out):
            log = workdir / f"{name}{i}.log"
            if "Traceback" in log.read_text(errors="replace"):
                print(f"{name}{i}: the log has a traceback:\n"
                      f"{log.read_text(errors='replace')[-3000:]}", file=sys.stderr)  # fmt: skip


# --------------------------------------------------------------------------- the phases


class Clients:
    """The client processes (the same for every layout) and the orders sent to them."""

    def __init__(self, specs: list[TableSpec], procs: int, cpus: set[int] | None,
                 options: dict[str, Any]) -> None:  # fmt: skip
        context = multiprocessing.get_context("spawn")
        self.procs = max(1, procs)
        self.workers = []
        for k in range(self.procs):
            parent, child = context.Pipe()
            process = context.Process(
                target=client_process, args=(child, specs[k :: self.procs], cpus, options),
                daemon=True,
            )  # fmt: skip
            process.start()
            self.workers.append((parent, process))

    @property
    def pids(self) -> list[int]:
        """The client processes' pids."""
        return [process.pid or 0 for _, process in self.workers]

    def ask(self, order: Any, timeout: float = 300) -> list[Any]:
        """Send ``order`` to every client process; return their answers."""
        for parent, _ in self.workers:
            parent.send(order)
        answers = []
        for parent, _ in self.workers:
            if not parent.poll(timeout):
                raise RuntimeError(f"a client process did not answer {order[0]!r} in time")
            answer = parent.recv()
            if isinstance(answer, str) and answer.startswith("failed"):
                raise RuntimeError(f"a client process {answer}")
            answers.append(answer)
        return answers

    def stop(self) -> None:
        """Tell the client processes to stop; kill those that do not."""
        for parent, _ in self.workers:
            with contextlib.suppress(Exception):
                parent.send(None)
        for _, process in self.workers:
            process.join(timeout=10)
            if process.is_alive():
                process.kill()


def measure(args: argparse.Namespace, clients: Clients, servers: list[tuple[str, int]],
            database_url: str, phase: dict[str, Any]) -> dict[str, Any]:  # fmt: skip
    """Run one phase on the connected tables; return its figures."""
    rate = None if phase["mode"] == "saturation" else args.rate
    pids = [pid for _, pid in servers]
    backends = postgres_backends(database_url)
    metrics_before = [metric_values(base) for base, _ in servers]
    t0 = time.perf_counter() + 0.5
    before = [cpu_seconds(pid) for pid in pids]
    clients_before = [cpu_seconds(pid) for pid in clients.pids]
    pg_before = {pid: cpu_seconds(pid) for pid in backends}
    redis_before = redis_cpu(args.redis_url)
    samples = clients.ask(("drive", args.tables, t0, args.seconds, rate))
    redis_after = redis_cpu(args.redis_url)
    after = [cpu_seconds(pid) for pid in pids]
    clients_after = [cpu_seconds(pid) for pid in clients.pids]
    pg_after = {pid: cpu_seconds(pid) for pid in backends}
    wall = time.perf_counter() - t0
    metrics_after = [metric_values(base) for base, _ in servers]

    result = summarise(samples, {**phase, "offered_per_second": rate}, args.tables)
    actions = max(1, result["actions"])
    used = [a - b for a, b in zip(after, before, strict=True)]
    pg_used = sum(pg_after[p] - pg_before[p] for p in backends
                  if not math.isnan(pg_after[p] - pg_before[p]))  # fmt: skip
    redis_used = redis_after - redis_before

    def delta(name: str) -> float:
        return sum(a.get(name, 0.0) - b.get(name, 0.0)
                   for a, b in zip(metrics_after, metrics_before, strict=True))  # fmt: skip

    traffic = {key: sum(s["traffic"][key] for s in samples) for key in samples[0]["traffic"]}
    forwarded = delta("stammtisch_forwarded_commands_total")
    moved = traffic["sent"] + traffic["frames"]
    result.update({
        "processes": len(servers),
        "server_cpu": round(sum(used) / wall, 2),
        "server_cpu_each": [round(u / wall, 2) for u in used],
        "clients_cpu": round(sum(b - a for a, b in zip(clients_before, clients_after,
                                                           strict=True)) / wall, 2),
        "server_us_per_action": round(1e6 * sum(used) / actions),
        "redis_us_per_action": round(1e6 * redis_used / actions),
        "postgres_us_per_action": round(1e6 * pg_used / actions),
        "stored_actions": delta("stammtisch_actions_total"),
        "tables_owned_each": [m.get("stammtisch_tables_owned", 0.0) for m in metrics_after],
        "forwarded_commands": forwarded,
        "messages_sent": traffic["sent"],
        "forwarded_messages_seen": traffic["sent_forwarded"],
        "forwarded_frames": traffic["frames_forwarded"],
        "forwarded_share": round(
            (forwarded + traffic["frames_forwarded"]) / max(1, moved), 3
        ),
        "forwarded_per_action": round(
            (forwarded + traffic["frames_forwarded"]) / actions, 2
        ),
    })  # fmt: skip
    return result


def run_layouts(args: argparse.Namespace, database_url: str, workdir: Path,
                say: Any) -> list[dict[str, Any]]:  # fmt: skip
    """Set the tables up, then run every layout's phases ``--repeats`` times."""
    cpus = pinning(args.pin)
    results = []
    modes = ["saturation", "offered"] if args.mode == "both" else [args.mode]
    # The rooms are set up at a process of their own, which stops before the layouts run:
    # a match is owned by the process that started it, and in every layout each table is
    # to be claimed by the process that its first greeting reaches.
    with layout("setup", database_url, args.redis_url, workdir, cpus) as servers:
        started = time.perf_counter()
        specs = asyncio.run(set_up_rooms(servers[0][0], args.tables, args.rounds))
        say(f"set up {len(specs)} tables in {time.perf_counter() - started:.1f} s")
    options = {"drop_events": 0.0, "warm_up": args.warm_up}
    clients = Clients(specs, args.client_procs, cpus[1] if cpus else None, options)
    try:
        for repeat in range(args.repeats):
            for name in args.layouts:
                with layout(name, database_url, args.redis_url, workdir, cpus) as servers:
                    bases = [base for base, _ in servers]
                    started = time.perf_counter()
                    clients.ask(("connect", placements(bases, specs)))
                    say(f"{name}: {len(servers)} process(es), tables connected in "
                        f"{time.perf_counter() - started:.1f} s")  # fmt: skip
                    for mode in modes:
                        phase = {"layout": name, "repeat": repeat + 1, "mode": mode}
                        result = measure(args, clients, servers, database_url, phase)
                        results.append(result)
                        say(line(result))
                        time.sleep(0.5)
                    clients.ask(("close",))
    finally:
        clients.stop()
    return results


# --------------------------------------------------------------------------- report

COLUMNS = [
    ("actions/s", 10), ("p50 ms", 8), ("p95 ms", 8), ("p99 ms", 8), ("cpu", 6),
    ("µs/act", 7), ("redis", 6), ("pg", 5), ("fwd/act", 8), ("fwd %", 6), ("errors", 7),
]  # fmt: skip


def head() -> str:
    """The header of the results table."""
    return f"{'layout':8}{'mode':11}" + "".join(f"{h:>{w}}" for h, w in COLUMNS)


def line(r: dict[str, Any]) -> str:
    """One row of the results table."""
    values = [
        f"{r['actions_per_second']:,.0f}", r["p50_ms"], r["p95_ms"], r["p99_ms"],
        f"{r['server_cpu']:.2f}", f"{r['server_us_per_action']:.0f}",
        f"{r['redis_us_per_action']:.0f}", f"{r['postgres_us_per_action']:.0f}",
        f"{r['forwarded_per_action']:.2f}", f"{100 * r['forwarded_share']:.0f}",
        f"{r['errors'] + r['stalls']:.0f}",
    ]  # fmt: skip
    cells = "".join(f"{v!s:>{w}}" for v, (_, w) in zip(values, COLUMNS, strict=True))
    return f"{r['layout']:8}{r['mode']:11}{cells}"


MEDIAN_KEYS = [
    "actions_per_second", "p50_ms", "p95_ms", "p99_ms", "max_ms", "server_cpu",
    "clients_cpu", "server_us_per_action", "redis_us_per_action", "postgres_us_per_action",
    "frames_per_action", "forwarded_commands", "forwarded_frames", "forwarded_share",
    "forwarded_per_action", "errors", "stalls", "resyncs", "deal_ends", "rematches",
]  # fmt: skip


def medians(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per layout and mode: the median of every figure over the repeats."""
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for r in results:
        groups.setdefault((r["layout"], r["mode"]), []).append(r)
    out = []
    for (name, mode), rows in groups.items():
        row: dict[str, Any] = {"layout": name, "mode": mode, "runs": len(rows),
                               "processes": rows[0]["processes"],
                               "offered_per_second": rows[0]["offered_per_second"]}  # fmt: skip
        for key in MEDIAN_KEYS:
            row[key] = round(float(statistics.median(r[key] for r in rows)), 3)
        out.append(row)
    return out


def forwarding_cost(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per mode, from each repeat's ``two`` against its ``one`` (then the median): the
    extra CPU per action (servers; servers + Redis), the share of messages and frames
    forwarded, the extra CPU per action if all of its traffic were forwarded (extra ÷
    share), and per forwarded message or frame (extra ÷ forwarded per action)."""
    by = {(r["layout"], r["mode"], r["repeat"]): r for r in results}
    out = []
    for mode in dict.fromkeys(r["mode"] for r in results):
        rows = []
        for (name, m, repeat), two in by.items():
            one = by.get(("one", mode, repeat))
            if name != "two" or m != mode or one is None:
                continue
            extra = two["server_us_per_action"] - one["server_us_per_action"]
            extra_all = extra + two["redis_us_per_action"] - one["redis_us_per_action"]
            share = two["forwarded_share"]
            per = two["forwarded_per_action"]
            rows.append({
                "extra_server_us_per_action": extra,
                "extra_server_and_redis_us_per_action": extra_all,
                "forwarded_share": share,
                "forwarded_per_action": per,
                "us_per_fully_forwarded_action": extra_all / share if share else float("nan"),
                "us_per_forwarded_message": extra_all / per if per else float("nan"),
                "throughput_two_over_one": two["actions_per_second"]
                / max(1, one["actions_per_second"]),
            })  # fmt: skip
        if rows:
            row: dict[str, Any] = {"mode": mode, "runs": len(rows)}
            for key in rows[0]:
                row[key] = round(float(statistics.median(r[key] for r in rows)), 2)
            out.append(row)
    return out


def main() -> int:
    """Run the several-processes load benchmark and print a table and the JSON figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=40, help="tables of 3 clients (40)")
    parser.add_argument("--seconds", type=float, default=8.0, help="length of each phase (8)")
    parser.add_argument(
        "--mode", choices=["saturation", "offered", "both"], default="both", help="(both)"
    )
    parser.add_argument(
        "--rate", type=float, default=200.0,
        help="offered actions/s (200: below every layout's saturation on a 2-core machine)",
    )  # fmt: skip
    parser.add_argument(
        "--rounds", type=int, default=2, help="rounds per match, three deals each (2)"
    )
    parser.add_argument("--repeats", type=int, default=1, help="runs of every layout (1)")
    parser.add_argument(
        "--layouts", default=",".join(LAYOUTS),
        help=f"comma-separated, in this order (default {','.join(LAYOUTS)}); "
        "'one' and 'two' are needed for the cost of forwarding",
    )  # fmt: skip
    parser.add_argument("--client-procs", type=int, default=2, help="client processes (2)")
    parser.add_argument(
        "--warm-up", type=int,
        help="each table first plays a random number of actions up to this, unmeasured "
        f"(default: about a match, {ACTIONS_PER_DEAL * 3} per round)",
    )  # fmt: skip
    parser.add_argument(
        "--database-url", default=DEFAULT_POSTGRES,
        help="a throw-away database is created (and migrated) on this PostgreSQL server "
        f"(default {DEFAULT_POSTGRES})",
    )  # fmt: skip
    parser.add_argument("--redis-url", default=REDIS_URL, help=f"Redis ({REDIS_URL})")
    parser.add_argument(
        "--no-pin", dest="pin", action="store_false",
        help="do not pin the server processes to the first CPU and the clients to the others",
    )  # fmt: skip
    parser.add_argument(
        "--require", action="store_true",
        help="fail when PostgreSQL or Redis does not answer (default: say so and skip)",
    )  # fmt: skip
    parser.add_argument("--logs", type=Path, help="keep the server processes' logs here")
    parser.add_argument("--json", action="store_true", help="print only JSON")
    args = parser.parse_args()
    args.layouts = [name.strip() for name in args.layouts.split(",") if name.strip()]
    if unknown := set(args.layouts) - set(LAYOUTS):
        parser.error(f"unknown layouts: {sorted(unknown)}")
    if not args.database_url.startswith("postgresql"):
        parser.error("several processes need PostgreSQL (--database-url postgresql+asyncpg://…)")
    if args.warm_up is None:
        args.warm_up = ACTIONS_PER_DEAL * 3 * args.rounds
    if reason := unreachable(args.database_url, args.redis_url):
        print(f"cluster_load: skipped: {reason}", file=sys.stderr)
        if args.json:
            print(json.dumps({"skipped": reason}))
        return 1 if args.require else 0
    cpus = pinning(args.pin)
    if cpus:
        os.sched_setaffinity(0, cpus[1])  # this process only waits; keep it off the servers'

    def say(message: str) -> None:
        if not args.json:
            print(message, file=sys.stderr, flush=True)

    workdir = Path(tempfile.mkdtemp(prefix="stammtisch-cluster-load-"))
    load_before = os.getloadavg()
    try:
        with database(args.database_url, workdir, False) as database_url:
            say(head())
            results = run_layouts(args, database_url, workdir, say)
    except BaseException:
        for log in sorted(workdir.glob("*.log")):
            print(f"--- {log.name}\n{log.read_text(errors='replace')[-3000:]}", file=sys.stderr)
        raise
    finally:
        if args.logs:
            args.logs.mkdir(parents=True, exist_ok=True)
            for log in workdir.glob("*.log"):
                shutil.copy(log, args.logs / log.name)
        shutil.rmtree(workdir, ignore_errors=True)
    load_after = os.getloadavg()

    summary = medians(results)
    cost = forwarding_cost(results)
    report = {
        "machine": machine(),
        "database": "postgresql",
        "tables": args.tables,
        "rounds": args.rounds,
        "seconds": args.seconds,
        "repeats": args.repeats,
        "client_procs": args.client_procs,
        "pinned": None
        if cpus is None
        else {"servers": sorted(cpus[0]), "clients": sorted(cpus[1])},
        "load_average": {
            "before": [round(x, 2) for x in load_before],
            "after": [round(x, 2) for x in load_after],
        },
        "note": "two cores, the load generator on the same machine, the server processes "
        "pinned together to one CPU: two processes cannot gain throughput here; read the "
        "CPU per action and the cost of forwarding",
        "medians": summary,
        "forwarding_cost": cost,
        "results": results,
    }
    if not args.json:
        print(f"machine: {report['machine']}   {args.tables} tables, matches of "
              f"{args.rounds} round(s), medians of {args.repeats} run(s), load average "
              f"{load_before[0]:.1f} → {load_after[0]:.1f}")  # fmt: skip
        print("cpu = cores used by all server processes; µs/act = their CPU per action; "
              "redis, pg = Redis's and the database backends' CPU per action (µs); "
              "fwd/act = forwarded commands + frames per action; fwd % = their share")  # fmt: skip
        print(head())
        for row in summary:
            print(line(row))
        for row in cost:
            extra = row["extra_server_and_redis_us_per_action"]
            print(
                f"{row['mode']}: two processes cost {row['extra_server_us_per_action']:.0f} "
                f"µs more server CPU per action ({extra:.0f} with Redis) at "
                f"{100 * row['forwarded_share']:.0f} % forwarded: "
                f"{row['us_per_fully_forwarded_action']:.0f} µs per fully forwarded action, "
                f"{row['us_per_forwarded_message']:.0f} µs per forwarded message or frame; "
                f"throughput two/one {row['throughput_two_over_one']:.2f}"
            )
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
