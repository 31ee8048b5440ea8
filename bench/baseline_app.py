"""The bare broadcast the load benchmark compares the server with: FastAPI + uvicorn, no game,
no database, no authentication.

``bench/load.py`` serves this app with the same uvicorn command line as the real server and
drives it with the same client code, so the ratio of the two measurements (same run, same
machine) says what the game, the database and the protocol cost on top of the bare
WebSocket round trip. It speaks just enough of docs/protocol.md for that client:

- ``{"type": "hello", "room": n}`` joins group ``n`` (seats are given in joining order; a
  second ``hello`` on the same socket keeps its seat: a resync) and is answered with a
  ``snapshot`` whose ``view`` names the seat and whose turn it is;
- ``{"type": "action", ...}`` from any member is broadcast to the whole group as one
  ``event`` carrying what changed (``changed``: the next seat to move; ``gone``), encoded
  once; the sender's copy carries the message's ``id`` as its acknowledgement (encoded a
  second time): three frames per action, as on the real server.

**Frame size.** ``PUT /frame_bytes/{n}`` makes every event frame from then on ``n`` bytes
long (a ``pad`` field of spaces; a frame that is longer without it stays as it is; 0, the
start value: no padding). The benchmark sets it to the real server's mean frame size,
measured by the clients in the server's phase of the same run, so that both send the same
number of sockets, frames per action and bytes per frame.

Every send is awaited in the receiving connection's own handler, as in FastAPI's broadcast
example: no queues, no tasks, no locks.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from fastapi import FastAPI, WebSocket, WebSocketDisconnect

GROUP = 3
#: ``,"pad":""`` — what the pad field costs besides its spaces.
PAD_OVERHEAD = len(',"pad":""')

app = FastAPI()


@dataclass
class Settings:
    """What the benchmark sets: the length of every event frame (0: as it comes)."""

    frame_bytes: int = 0


settings = Settings()


@dataclass(eq=False)
class Group:
    """The sockets of one group (a "table"), its version counter and whose turn it is."""

    members: list[WebSocket] = field(default_factory=list)
    version: int = 0
    to_move: int = 0


groups: dict[int, Group] = {}


def padded(message: dict[str, Any]) -> str:
    """``message`` as JSON text of :attr:`Settings.frame_bytes` bytes (ASCII), if it fits."""
    text = json.dumps(message, separators=(",", ":"))
    room = settings.frame_bytes - len(text) - PAD_OVERHEAD
    if room < 0:
        return text
    return f'{text[:-1]},"pad":"{" " * room}"}}'


@app.get("/healthz")
async def healthz() -> dict[str, str]:
    """Answered as soon as the server is up (the benchmark polls it)."""
    return {"status": "ok"}


@app.put("/frame_bytes/{size}")
async def set_frame_bytes(size: int) -> dict[str, int]:
    """Pad every event frame from now on to ``size`` bytes (0: no padding)."""
    settings.frame_bytes = max(0, size)
    return {"frame_bytes": settings.frame_bytes}


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
                if group is None:
                    group = groups.setdefault(int(message["room"]), Group())
                    seat = len(group.members)
                    group.members.append(websocket)
                view = {"seat": seat, "to_move": group.to_move, "legal_actions": ["play"]}
                snapshot = {"type": "snapshot", "v": group.version, "view": view,
                            "you": {"user_id": seat + 1, "seat": seat},
                            "match": {"finished": False, "deal_number": 1},
                            "between_deals": None}  # fmt: skip
                await websocket.send_text(json.dumps(snapshot))
            elif message["type"] == "action" and group is not None:
                group.version += 1
                to_move = group.to_move = (seat + 1) % GROUP
                changed = {"to_move": to_move, "legal_actions": ["play"]}
                event = {"type": "event", "v": group.version, "seat": seat,
                         "action": message["action"], "auto": False,
                         "turn": {"seat": to_move, "ends_in": None},
                         "changed": changed, "gone": []}  # fmt: skip
                text = padded(event)
                for member in group.members:
                    if member is websocket:
                        await member.send_text(padded({**event, "id": message.get("id")}))
                    else:
                        await member.send_text(text)
    except WebSocketDisconnect:
        pass
    finally:
        if group is not None and websocket in group.members:
            group.members.remove(websocket)
