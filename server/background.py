"""Stopping the server's own background tasks (pollers, renewals, the commit batcher)."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any


async def stop_task(task: asyncio.Task[Any] | None) -> None:
    """Cancel ``task`` (if any) and wait until it has ended; its cancellation is not an
    error of the caller's.

    >>> async def forever() -> None:
    ...     await asyncio.sleep(3600)
    >>> async def main() -> bool:
    ...     task = asyncio.create_task(forever())
    ...     await asyncio.sleep(0)
    ...     await stop_task(task)
    ...     await stop_task(None)
    ...     return task.cancelled()
    >>> asyncio.run(main())
    True
    """
    if task is None:
        return
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
