"""The bare broadcast the load benchmark compares the server with: FastAPI + uvicorn, no game,
no database, no authentication.

``bench/load.py --baseline`` serves this app with the same uvicorn command line as the real
server and drives it with the same client code, so the ratio of the two measurements (same
run, same machine) says what the game, the database and the protocol cost on top of the
bare WebSocket round trip. It speaks just enough of docs/protocol.md for that client:

- ``{"type": "hello", "room": n}`` joins group ``n`` (seats are given in joining order) and
  is answered with a ``snapshot`` whose ``view`` names the seat and whose turn it is;
- ``{"type": "action", ...}`` from any member is broadcast to the whole group as one
  ``event`` (encoded once; it names the next seat to move); the sender's copy carries the
  message's ``id`` as its acknowledgement (encoded a second time): three frames per
  action, as on the real server.

Every send is awaited in the receiving connection's own handler, as in FastAPI's broadcast
example: no queues, no tasks, no locks.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from fastapi import FastAPI, WebSocket, WebSocketDisconnect

GROUP = 3

app = FastAPI()


@dataclass(eq=False)
class Group:
    """The sockets of one group (a "table") and its version counter."""

    members: list[WebSocket] = field(default_factory=list)
    version: int = 0


groups: dict[int, Group] = {}


@app.get("/healthz")
async def healthz() -> dict[str, str]:
    """Answered as soon as the server is up (the benchmark polls it)."""
    return {"status": "ok"}


@app.websocket("/ws")
async def broadcast(websocket: WebSocket) -> None:
    """Join a group with ``hello``; every ``action`` goes to every member of the group."""
    await websocket.accept()
    group: Group | None = None
    seat = 0
    try:
        while True:
            message = json.loads(await websocket.receive_text())
            if message["type"] == "hello":
                group = groups.setdefault(int(message["room"]), Group())
                seat = len(group.members)
                group.members.append(websocket)
                view = {"seat": seat, "to_move": 0, "legal_actions": ["play"]}
                snapshot = {"type": "snapshot", "v": group.version, "view": view}
                await websocket.send_text(json.dumps(snapshot))
            elif message["type"] == "action" and group is not None:
                group.version += 1
                view = {"to_move": (seat + 1) % GROUP, "legal_actions": ["play"]}
                event = {"type": "event", "v": group.version, "seat": seat,
                         "action": message["action"], "auto": False, "view": view}  # fmt: skip
                text = json.dumps(event)
                for member in group.members:
                    if member is websocket:
                        await member.send_text(json.dumps({**event, "id": message.get("id")}))
                    else:
                        await member.send_text(text)
    except WebSocketDisconnect:
        pass
    finally:
        if group is not None and websocket in group.members:
            group.members.remove(websocket)
