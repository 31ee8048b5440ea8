"""Oversized request heads: what ten parallel 32 MiB header lines do to the server.

Starts the server as ``make run`` does (``python -m server``, one process, access log off)
on a fresh migrated SQLite database, once per variant of its HTTP protocol (a later
``--http`` flag wins over the one :data:`server.api.limits.UVICORN_OPTIONS` passes):

* ``httptools``: uvicorn's own httptools protocol, without a limit on the head (before);
* ``bounded``: :class:`server.api.http_protocol.BoundedHttpToolsProtocol` (the server);
* ``h11``: uvicorn's h11 protocol with ``--h11-max-incomplete-event-size 16384`` (the
  other way to bound the head, for its cost).

Per variant: a logged-in user's ``GET /api/me`` latency while quiet (``--quiet`` requests,
one after the other), then during the flood: ``--clients`` connections each send
``GET /api/me`` with one header line of ``--mib`` MiB as fast as they can, while the
user asks ``/api/me`` every 20 ms; each flood connection that is cut off opens the next,
for ``--seconds``. Reported: the server's RSS before, at its peak
(``VmHWM``) and after; the user's p50/max latency quiet and during the flood; how each
flood connection ended (the status line it got, or how it was closed) and how much it
had sent; and the requests a second of ``GET /healthz`` from 8 clients (the protocol's
cost for ordinary requests).

    .venv/bin/python bench/header_flood.py [--variants httptools,bounded,h11]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx

from bench.run import machine
from tests.support import server_process, sqlite_url, upgrade

VARIANTS: dict[str, tuple[str, ...]] = {
    "httptools": ("--http", "httptools"),
    "bounded": (),
    "h11": ("--http", "h11", "--h11-max-incomplete-event-size", "16384"),
}
QUIET = ("--no-access-log", "--log-level", "warning")
PASSWORD = "kein-gutes-Passwort-7"


def rss_mb(pid: int, field: str = "VmRSS") -> float:
    """``field`` of ``/proc/PID/status`` in MB."""
    for row in Path(f"/proc/{pid}/status").read_text().splitlines():
        if row.startswith(field + ":"):
            return int(row.split()[1]) / 1024
    raise KeyError(field)


def percentile(values: list[float], fraction: float) -> float:
    """The ``fraction`` percentile of ``values`` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def big_head(host: str, port: int, mib: int) -> dict[str, Any]:
    """Send ``GET /api/me`` with one header of ``mib`` MiB; report how it ended."""
    started = time.perf_counter()
    reader, writer = await asyncio.open_connection(host, port)
    sent = 0
    outcome = "sent whole"
    try:
        writer.write(b"GET /api/me HTTP/1.1\r\nHost: x\r\nX-Filler: ")
        chunk = b"a" * (1 << 20)
        for _ in range(mib):
            writer.write(chunk)
            await writer.drain()
            sent += len(chunk)
        writer.write(b"\r\n\r\n")
        await writer.drain()
    except (ConnectionError, OSError) as exc:
        outcome = f"closed while sending ({type(exc).__name__})"
    try:
        status = await asyncio.wait_for(reader.readline(), 60)
        answer = status.decode("latin-1").strip() or "closed without answer"
    except (ConnectionError, OSError, TimeoutError) as exc:
        answer = f"no answer ({type(exc).__name__})"
    with contextlib.suppress(Exception):
        writer.close()
    return {
        "outcome": outcome,
        "answer": answer,
        "sent_mib": round(sent / (1 << 20), 2),
        "seconds": round(time.perf_counter() - started, 2),
    }


async def sample_me(
    client: httpx.AsyncClient, stop: asyncio.Event, interval: float = 0.02
) -> list[float]:
    """``/api/me`` every ``interval`` s (open loop) until ``stop``; the latencies in ms."""
    latencies: list[float] = []

    async def one() -> None:
        started = time.perf_counter()
        response = await client.get("/api/me")
        assert response.status_code == 200, response.text
        latencies.append((time.perf_counter() - started) * 1000)

    tasks = []
    while not stop.is_set():
        tasks.append(asyncio.create_task(one()))
        await asyncio.sleep(interval)
    await asyncio.gather(*tasks)
    return latencies


async def requests_per_second(
    base_url: str, path: str = "/static/favicon.svg", seconds: float = 3.0, clients: int = 8
) -> float:
    """``GET path`` one after the other on ``clients`` keep-alive connections for
    ``seconds`` (a plain socket client, so that the client costs little)."""
    host, port = base_url.removeprefix("http://").split(":")
    done = 0
    deadline = time.perf_counter() + seconds
    request = f"GET {path} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode()

    async def worker() -> None:
        nonlocal done
        reader, writer = await asyncio.open_connection(host, int(port))
        while time.perf_counter() < deadline:
            writer.write(request)
            head = await reader.readuntil(b"\r\n\r\n")
            length = next(
                int(row.split(b":")[1])
                for row in head.lower().split(b"\r\n")
                if row.startswith(b"content-length:")
            )
            await reader.readexactly(length)
            done += 1
        writer.close()

    await asyncio.gather(*(worker() for _ in range(clients)))
    return done / seconds


async def sample_rss(pid: int, stop: asyncio.Event) -> float:
    """The largest RSS of ``pid`` (MB), read every 5 ms until ``stop``."""
    peak = 0.0
    while not stop.is_set():
        peak = max(peak, rss_mb(pid))
        await asyncio.sleep(0.005)
    return peak


async def attacker(host: str, port: int, mib: int, seconds: float) -> list[dict[str, Any]]:
    """Send big heads one after the other until ``seconds`` have passed (at least one)."""
    deadline = time.perf_counter() + seconds
    ends = [await big_head(host, port, mib)]
    while time.perf_counter() < deadline:
        ends.append(await big_head(host, port, mib))
    return ends


async def measure(
    base_url: str, pid: int, clients: int, mib: int, quiet: int, seconds: float
) -> dict[str, Any]:
    """Register a user, time its ``/api/me`` quietly and during the flood."""
    host, port = base_url.removeprefix("http://").split(":")
    async with httpx.AsyncClient(base_url=base_url, timeout=60) as user:
        response = await user.post(
            "/api/register",
            json={"login": "messer", "password": PASSWORD, "display_name": "Messer"},
        )
        assert response.status_code in (200, 201), response.text
        quiet_ms = []
        for _ in range(quiet):
            started = time.perf_counter()
            assert (await user.get("/api/me")).status_code == 200
            quiet_ms.append((time.perf_counter() - started) * 1000)
        rss_before = rss_mb(pid)
        stop = asyncio.Event()
        sampler = asyncio.create_task(sample_me(user, stop))
        rss_sampler = asyncio.create_task(sample_rss(pid, stop))
        started = time.perf_counter()
        per_client = await asyncio.gather(
            *(attacker(host, int(port), mib, seconds) for _ in range(clients))
        )
        ends = [end for client_ends in per_client for end in client_ends]
        flood_seconds = time.perf_counter() - started
        stop.set()
        during = await sampler
        rss_peak = await rss_sampler
        await asyncio.sleep(1)
    return {
        "rss_before_mb": round(rss_before, 1),
        "rss_flood_peak_mb": round(rss_peak, 1),
        "rss_after_mb": round(rss_mb(pid), 1),
        "me_quiet_p50_ms": round(statistics.median(quiet_ms), 2),
        "me_quiet_max_ms": round(max(quiet_ms), 2),
        "me_flood_p50_ms": round(statistics.median(during), 2),
        "me_flood_p99_ms": round(percentile(during, 0.99), 2),
        "me_flood_max_ms": round(max(during), 2),
        "me_flood_requests": len(during),
        "flood_seconds": round(flood_seconds, 2),
        "flood_heads": len(ends),
        "flood_ends": dict(Counter(f"{e['outcome']}; {e['answer']}" for e in ends)),
        "flood_sent_mib_max": max(e["sent_mib"] for e in ends),
    }


def main() -> int:
    """Measure every variant; print the results as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variants", default="httptools,bounded,h11")
    parser.add_argument("--clients", type=int, default=10)
    parser.add_argument("--mib", type=int, default=32)
    parser.add_argument("--quiet", type=int, default=50)
    parser.add_argument(
        "--seconds",
        type=float,
        default=5.0,
        help="each client repeats its big head until then (at least once)",
    )
    parser.add_argument("--rate-rounds", type=int, default=5)
    args = parser.parse_args()
    print(f"machine: {machine()}", file=sys.stderr)
    variants = args.variants.split(",")
    results: dict[str, dict[str, Any]] = {}
    with (
        tempfile.TemporaryDirectory(prefix="stammtisch-heads-") as workdir,
        contextlib.ExitStack() as stack,
    ):
        urls = {}
        for number, variant in enumerate(variants):
            database_url = sqlite_url(Path(workdir) / f"{number}.sqlite3")
            upgrade(database_url)
            log = Path(workdir) / f"{variant}.log"
            url, process = stack.enter_context(
                server_process(database_url, log, *QUIET, *VARIANTS[variant])
            )
            urls[variant] = url
            row = asyncio.run(
                measure(url, process.pid, args.clients, args.mib, args.quiet, args.seconds)
            )
            results[variant] = row
            print(variant, json.dumps(row), file=sys.stderr)
        # the protocols' cost for ordinary requests, interleaved on the same machine
        rates: dict[str, list[float]] = {variant: [] for variant in variants}
        for round_number in range(args.rate_rounds):
            order = variants if round_number % 2 == 0 else variants[::-1]
            for variant in order:
                rates[variant].append(asyncio.run(requests_per_second(urls[variant])))
        for variant in variants:
            results[variant]["small_get_per_second_median"] = round(
                statistics.median(rates[variant])
            )
            results[variant]["small_get_per_second"] = [round(r) for r in rates[variant]]
    print(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
