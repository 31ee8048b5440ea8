"""This process's metrics, in the Prometheus text format (``GET /metrics``).

One :class:`Metrics` object holds the metrics of one server process in a registry of its
own (never ``prometheus_client``'s global default registry: several apps in one process,
as in the tests, would otherwise register the same names twice). :data:`PROCESS` is the
one the running server fills and serves; the module-level functions below are what the
rest of the code calls, one line each:

``stammtisch_tables_owned`` (gauge)
    Live tables this process owns (:func:`set_tables`, or read at every scrape from what
    :meth:`Metrics.follow_tables` was given: the app passes its table manager's count).
``stammtisch_sockets`` (gauge)
    Open WebSockets (:func:`socket_opened`, :func:`socket_closed`).
``stammtisch_actions_total`` (counter)
    Moves stored and published by this process's tables (:func:`action_done`); its rate
    is the actions per second.
``stammtisch_write_seconds`` (histogram)
    How long a committed batch of the table writer took (:func:`write_committed`, called
    by :class:`server.tables.writer.Writer`).
``stammtisch_takeovers_total`` (counter)
    Tables this process took over from another one (:func:`takeover`).
``stammtisch_forwarded_commands_total`` (counter)
    Table commands this process forwarded to the owner of a table elsewhere
    (:func:`forwarded`).
``stammtisch_node_info`` (info)
    Always 1, labelled with the process's ``node`` name and the server's ``version``.

The module sits beside :mod:`server.settings`, below every layer that reports to it: it
imports nothing of the server.
"""

from __future__ import annotations

from collections.abc import Callable

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    Info,
    generate_latest,
)

#: The media type of :meth:`Metrics.render` (Prometheus text format 0.0.4).
CONTENT_TYPE = CONTENT_TYPE_LATEST

#: Upper bounds (seconds) of the write-latency buckets: a batch on a local SQLite file or
#: a nearby PostgreSQL takes well under a millisecond to a few; a second is trouble.
WRITE_BUCKETS = (
    0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.5, 5.0,
)  # fmt: skip


class Metrics:
    """The metrics of one server process, in a registry of their own."""

    def __init__(self, node: str = "", version: str = "") -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        registry = self.registry
        self.tables_owned = Gauge(
            "stammtisch_tables_owned", "Live tables this process owns.", registry=registry
        )
        self.sockets = Gauge(
            "stammtisch_sockets", "WebSockets open at this process.", registry=registry
        )
        self.actions = Counter(
            "stammtisch_actions",
            "Moves stored and published by this process's tables (rate: actions per second).",
            registry=registry,
        )
        self.write_seconds = Histogram(
            "stammtisch_write_seconds",
            "Seconds a committed batch of the table writer took.",
            buckets=WRITE_BUCKETS,
            registry=registry,
        )
        self.takeovers = Counter(
            "stammtisch_takeovers",
            "Tables this process took over from another process.",
            registry=registry,
        )
        self.forwarded_commands = Counter(
            "stammtisch_forwarded_commands",
            "Table commands forwarded to the process that owns the table.",
            registry=registry,
        )
        self.node = Info(
            "stammtisch_node", "This process: its node name and version.", registry=registry
        )
        self.set_node(node, version)
        self._tables_source: Callable[[], int] | None = None

    def set_node(self, node: str, version: str) -> None:
        """Name this process in ``stammtisch_node_info`` (replaces an earlier name)."""
        self.node.info({"node": node, "version": version})

    def action_done(self, count: int = 1) -> None:
        """Count ``count`` moves stored and published."""
        self.actions.inc(count)

    def takeover(self) -> None:
        """Count one table taken over from another process."""
        self.takeovers.inc()

    def forwarded(self, count: int = 1) -> None:
        """Count ``count`` table commands forwarded to another process."""
        self.forwarded_commands.inc(count)

    def set_tables(self, count: int) -> None:
        """Set the number of live tables this process owns (and stop following a source
        given to :meth:`follow_tables`)."""
        self._tables_source = None
        self.tables_owned.set(count)

    def follow_tables(self, source: Callable[[], int] | None) -> None:
        """Read the number of owned tables from ``source`` at every :meth:`render`
        (``None``: stop, and count none)."""
        self._tables_source = source
        if source is None:
            self.tables_owned.set(0)

    def socket_opened(self) -> None:
        """Count one WebSocket opened."""
        self.sockets.inc()

    def socket_closed(self) -> None:
        """Count one WebSocket closed."""
        self.sockets.dec()

    def write_committed(self, seconds: float) -> None:
        """Record how long one committed batch of the table writer took."""
        self.write_seconds.observe(seconds)

    def render(self) -> bytes:
        """All metrics in the Prometheus text format (media type :data:`CONTENT_TYPE`)."""
        source = self._tables_source
        if source is not None:
            self.tables_owned.set(source())
        return generate_latest(self.registry)


#: The metrics of this process: what the running server fills and ``GET /metrics`` serves.
PROCESS = Metrics()


def action_done(count: int = 1) -> None:
    """Count ``count`` moves stored and published by this process."""
    PROCESS.action_done(count)


def takeover() -> None:
    """Count one table this process took over from another process."""
    PROCESS.takeover()


def forwarded(count: int = 1) -> None:
    """Count ``count`` table commands this process forwarded to another process."""
    PROCESS.forwarded(count)


def set_tables(count: int) -> None:
    """Set the number of live tables this process owns."""
    PROCESS.set_tables(count)


def socket_opened() -> None:
    """Count one WebSocket opened at this process."""
    PROCESS.socket_opened()


def socket_closed() -> None:
    """Count one WebSocket of this process closed."""
    PROCESS.socket_closed()
