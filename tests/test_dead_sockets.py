"""A phone that loses its network is offline for the others within seconds (issue 28): the
server pings every socket (``server.api.limits.WS_PING_SECONDS``) and closes one that does
not answer, over a real server and real sockets. A socket that is quiet but answers the
pings stays.
"""

from __future__ import annotations

import asyncio
import time

from server.api.limits import WS_PING_SECONDS
from tests.table_client import Client, make_room, start


def test_a_socket_that_stops_answering_goes_offline(live_server: str) -> None:
    async def run() -> None:
        clients, room, _ = await make_room(live_server, "dreierles", ["Anna", "Bernd", "Clara"])
        await start(clients[0], room)
        for client in clients:
            await client.connect(room)
        anna, bernd = clients[0], clients[1]
        everybody = sorted(c.user_id for c in clients)
        async with asyncio.timeout(10):
            while bernd.snapshot is None or sorted(_online(bernd)) != everybody:
                await asyncio.sleep(0.05)
        # Anna's network is gone: her side reads nothing more and answers no ping
        assert anna.ws is not None
        anna.ws.transport.pause_reading()
        went = time.monotonic()
        async with asyncio.timeout(4 * WS_PING_SECONDS):
            while anna.user_id in _online(bernd):
                await asyncio.sleep(0.1)
        assert time.monotonic() - went <= 2 * WS_PING_SECONDS + 2
        # Clara said nothing all along, but her socket answers the pings: still online
        assert clients[2].user_id in _online(bernd)
        for client in clients:
            await client.aclose()

    asyncio.run(run())


def _online(client: Client) -> list[int]:
    """Who ``client`` was last told is online (a presence message, else its snapshot)."""
    for message in reversed(client.messages):
        if message["type"] in ("presence", "snapshot"):
            return list(message["online"])
    return []
