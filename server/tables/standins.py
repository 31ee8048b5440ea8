"""The stand-in ("Vertretung") of a table: who is away, who asked, whose seat is marked.

A room with the stand-in on (the match config's ``standin``: ``{"level",
"delay_seconds"}``) lets a computer player of that level play for a person

* whose connections have all been offline for ``delay_seconds`` (he is *away*),
* whose turn timer ran out (that one move, instead of the passive move), or
* who asked for it himself ("Vertretung für 5 Minuten", :data:`ASKED_SECONDS`).

The seat is *marked* ("vertreten") from then on until the person's next own move (or
until the time he asked for is over and he is not away); the moves made for him since
his last own move are kept for him (``you.standin_moves`` of his snapshot).

A table whose people have **all left for good** (every person of the match without a
connection for :data:`GONE_FACTOR` times the delay: ten minutes with the default minute)
ends by itself after the deal in play, as if everybody had agreed to end it: a practice
table whose player closed the browser does not play on for ever. This module
holds that state only; :class:`server.tables.table.Table` plays the moves (through the
same path as anybody's) and owns the tasks.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from server.engine.base import JSON

#: Seconds a stand-in a person asked for plays for him ("Vertretung für 5 Minuten").
ASKED_SECONDS = 300.0

#: A person has left for good when he has had no connection for this many times the delay.
GONE_FACTOR = 10.0


@dataclass
class StandIns:
    """The stand-in state of one table (changed under the table's lock)."""

    level: str
    delay: float
    #: People whose connections have all been offline for :attr:`delay` seconds.
    away: set[int] = field(default_factory=set)
    #: People who asked for a stand-in: user id -> the loop's time when it ends.
    asked: dict[int, float] = field(default_factory=dict)
    #: People whose seat is marked "vertreten" (until their next own move).
    marked: set[int] = field(default_factory=set)
    #: The moves made for each person since his last own move (``{"deal", "index",
    #: "seat", "action"}``), shown to him when he is back.
    played: dict[int, list[JSON]] = field(default_factory=dict)
    #: The loop's time since when each person without a connection has had none.
    offline_since: dict[int, float] = field(default_factory=dict)
    #: The table's version at which the turn timer ran out and the stand-in moves.
    timed_out_at: int | None = None
    #: Offline watches (user id -> task that makes him away after the delay) and the
    #: tasks that end an asked stand-in.
    watches: dict[int, asyncio.Task[None]] = field(default_factory=dict, repr=False)
    endings: dict[int, asyncio.Task[None]] = field(default_factory=dict, repr=False)

    @classmethod
    def from_config(cls, config: JSON) -> StandIns | None:
        """The stand-in of a match config (None: the room has it off)."""
        standin = config.get("standin")
        if not standin:
            return None
        return cls(str(standin["level"]), float(standin["delay_seconds"]))

    def plays_for(self, user: int, version: int) -> bool:
        """Whether the stand-in makes ``user``'s move at ``version`` (his turn)."""
        return user in self.away or user in self.asked or self.timed_out_at == version

    @property
    def gone_after(self) -> float:
        """Seconds without a connection after which a person has left for good."""
        return GONE_FACTOR * self.delay

    def everybody_gone(self, people: list[int], now: float) -> bool:
        """Whether all of ``people`` (the match's persons; at least one) have left for good.

        >>> standins = StandIns("einsteiger", 60.0, offline_since={1: 0.0, 2: 100.0})
        >>> standins.everybody_gone([1, 2], 650.0), standins.everybody_gone([1, 2], 700.0)
        (False, True)
        >>> standins.everybody_gone([1, 3], 10_000.0), standins.everybody_gone([], 10_000.0)
        (False, False)
        """
        return bool(people) and all(
            user in self.offline_since and now - self.offline_since[user] >= self.gone_after
            for user in people
        )

    def returned(self, user: int) -> None:
        """``user`` has a connection again: he is not away (his seat stays marked until
        his next own move)."""
        self.offline_since.pop(user, None)
        self.away.discard(user)
        task = self.watches.pop(user, None)
        if task is not None:
            task.cancel()

    def moved_himself(self, user: int) -> bool:
        """``user`` made a move of his own: the seat is his again; return whether that
        changed the marks."""
        changed = user in self.marked or user in self.asked
        self.marked.discard(user)
        self.played.pop(user, None)
        self.end_asked(user)
        return changed

    def end_asked(self, user: int) -> None:
        """The stand-in ``user`` asked for is over (or ended early)."""
        self.asked.pop(user, None)
        task = self.endings.pop(user, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    def record(self, user: int, move: JSON) -> None:
        """The stand-in made ``move`` for ``user``."""
        self.marked.add(user)
        self.played.setdefault(user, []).append(move)

    def state(self, now: float) -> JSON:
        """What every connection is told: whose seat is marked (user ids) and the seconds
        left of each stand-in a person asked for."""
        return {
            "users": sorted(self.marked | self.away | set(self.asked)),
            "asked": {
                str(user): round(max(0.0, end - now), 3) for user, end in sorted(self.asked.items())
            },
        }

    def cancel(self) -> None:
        """Stop every task (the table closes)."""
        for task in [*self.watches.values(), *self.endings.values()]:
            task.cancel()
        self.watches.clear()
        self.endings.clear()
