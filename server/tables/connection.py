"""One open WebSocket at a table, and how messages get into it without holding anybody up.

A table publishes every event to all its connections from inside the command that caused
it. The socket layer's ``send`` is a coroutine, but it only ever waits when the socket's
write buffer is over its high-water mark (a phone that stopped reading); otherwise it runs
to its end at once. So :meth:`Connection.push` *starts* the send right away, on the
caller's stack, the way an eager task would (``asyncio.eager_task_factory``, new in
Python 3.12): one frame written, no task, no queue, no trip through the event loop. Only
when the send has to wait does the connection finish it in a task of its own, and every
message pushed in the meantime waits behind it in a bounded backlog, in order. A
connection whose backlog overflows is too far behind: the table drops it, and the client
resyncs with a snapshot when it comes back.

Per action this saves a task switch and a queue operation for each of the three events,
which was about a tenth of the server's CPU under load (docs/benchmarks.md, "WebSocket
load").

A server holds a thousand idle connections or more, so an idle one is kept small: its
fields are slots (no ``__dict__``), and the backlog exists only while a send waits (an
empty deque alone is more than 600 bytes); once the backlog is written out it goes again
(docs/benchmarks.md, "Garbage collection and idle sockets").
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

logger = logging.getLogger(__name__)

_OPENED = itertools.count()

#: Messages a connection may fall behind by before the table drops it.
BACKLOG = 256


async def finish(coro: Coroutine[Any, Any, Any], waiting: Any) -> None:
    """Run ``coro`` to its end as a task would, after it already ran on somebody's stack
    up to a suspension where it yielded ``waiting`` (an asyncio future, or ``None`` for a
    bare yield).

    Like :class:`asyncio.Task`: wait until the future is done, then resume the coroutine,
    which reads the future's result (or exception) itself. Cancelled, the coroutine is
    closed and the cancellation goes on.
    """
    try:
        while True:
            if waiting is None:
                await asyncio.sleep(0)
            else:
                await asyncio.wait([waiting])  # never raises the future's own exception
            waiting = coro.send(None)
    except StopIteration:
        return
    except asyncio.CancelledError:
        coro.close()
        raise


@dataclass(eq=False, slots=True)
class Connection:
    """One open WebSocket of a user at a table (several devices may be open at once)."""

    user_id: int
    name: str
    send: Callable[[str], Coroutine[Any, Any, None]]
    close: Callable[[], Awaitable[None]]
    role: str = "player"
    session: str = ""  # the login session's token hash (a logout closes its connections)
    opened: int = field(default_factory=lambda: next(_OPENED))  # which is older
    #: Messages waiting behind a send that had to wait (``None``: none is waiting).
    backlog: deque[str] | None = None
    task: asyncio.Task[None] | None = None  # finishes a send that had to wait, then the backlog
    broken: bool = False  # a send failed: the socket is gone, the endpoint will detach
    _waiting: Coroutine[Any, Any, None] | None = None  # the send the task finishes

    def push(self, message: str) -> bool:
        """Send ``message`` now, or after the ones still waiting; ``False`` when the client
        is too far behind (the caller drops the connection)."""
        if self.broken:
            return True  # nothing more goes out; the endpoint notices and detaches
        if self.task is not None:
            backlog = self.backlog
            if backlog is None:
                backlog = self.backlog = deque()
            elif len(backlog) >= BACKLOG:
                return False
            backlog.append(message)
            return True
        coro = self.send(message)
        try:
            waiting = coro.send(None)
        except StopIteration:
            return True  # the usual case: written at once
        except Exception:
            self._fail()
            return True
        self._waiting = coro
        self.task = asyncio.create_task(self._drain(coro, waiting))
        return True

    async def _drain(self, coro: Coroutine[Any, Any, None], waiting: Any) -> None:
        try:
            await finish(coro, waiting)
            self._waiting = None
            while self.backlog:
                await self.send(self.backlog.popleft())
            self.backlog = None  # caught up: no deque while idle
        except asyncio.CancelledError:
            raise
        except Exception:
            self._fail()
        finally:
            self.task = None

    def _fail(self) -> None:
        logger.debug("send failed for user %s", self.user_id)
        self.broken = True
        self.backlog = None

    async def stop(self) -> None:
        """Stop sending: cancel a send that is waiting and forget the backlog."""
        self.broken = True
        self.backlog = None
        task = self.task
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
            self.task = None
        if self._waiting is not None:  # cancelled before its task ever ran
            self._waiting.close()
            self._waiting = None
