"""The WebSocket protocol's client messages, validated one by one (see docs/protocol.md).

Every refusal is a :class:`ProtocolError` with a stable code and an English and a German
message, in the same shape as the engine's errors, so the client shows both the same way.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

import orjson
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from server.engine.errors import EngineError

MAX_MESSAGE = 4096  # characters of one client message


class ProtocolError(EngineError):
    """A message the server refuses before the rules are even asked."""


MsgId = str | int | None


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Hello(_Message):
    """Join a room's table; ``last_version`` is the last version the client saw."""

    type: Literal["hello"]
    room: int
    last_version: int | None = None
    id: MsgId = None


class Action(_Message):
    """An action in canonical text at table version ``v`` (``seat`` is optional: if given it
    must be the sender's own)."""

    type: Literal["action"]
    action: Annotated[str, Field(min_length=1, max_length=64)]
    v: int | None = None
    seat: int | None = None
    id: MsgId = None


class Chat(_Message):
    """A chat line."""

    type: Literal["chat"]
    text: Annotated[str, Field(max_length=1000)]
    id: MsgId = None


class Ping(_Message):
    """Keep-alive; answered with ``pong``."""

    type: Literal["ping"]
    id: MsgId = None


ClientMessage = Hello | Action | Chat | Ping
TYPES = {"hello", "action", "chat", "ping"}
_ADAPTER: TypeAdapter[ClientMessage] = TypeAdapter(
    Annotated[ClientMessage, Field(discriminator="type")]
)


def encode(message: Any) -> str:
    """A server message as JSON text (UTF-8 characters as they are, not ``\\u`` escapes).

    orjson writes the same JSON as ``json.dumps(message, ensure_ascii=False)`` without the
    blanks after ``,`` and ``:``, about four times faster: encoding the events was the
    largest single cost per action (see docs/benchmarks.md). Whatever orjson refuses (a
    lone surrogate in a string, an integer beyond 64 bits) goes through ``json`` as before.
    """
    try:
        return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        return json.dumps(message, ensure_ascii=False)


def join_objects(first: str, second: str) -> str:
    """Two encoded JSON objects whose keys do not overlap, as one object: what the server
    encodes once per action (the shared part of the view) is joined, not encoded again,
    with what it encodes per seat."""
    if first == "{}":
        return second
    if second == "{}":
        return first
    return f"{first[:-1]},{second[1:]}"


def encoded_object(fields: dict[str, str]) -> str:
    """A JSON object from keys (plain ASCII names) and values that are encoded already."""
    return "{" + ",".join(f'"{key}":{value}' for key, value in fields.items()) + "}"


def event_prefix(version: int, seat: int, auto: bool) -> str:
    """What the ``event`` messages of one action share, for :func:`event_text`."""
    return f'{{"type":"event","v":{encode(version)},"seat":{encode(seat)},"auto":{encode(auto)},'


def event_text(prefix: str, action: str, view: str) -> str:
    """One seat's ``event`` message: the action as it sees it and its view, encoded already
    (the shared part of the view once for all seats, joined with :func:`join_objects`)."""
    return f'{prefix}"action":{encode(action)},"view":{view}}}'


def with_id(text: str, msg_id: MsgId) -> str:
    """An encoded message object with ``"id": msg_id`` added at the end."""
    return join_objects(text, encode({"id": msg_id}))


def message_id(text: str) -> MsgId:
    """The client's ``id`` of a message, if one can be read (to tie an error to it)."""
    try:
        data = json.loads(text)
    except ValueError:
        return None
    value = data.get("id") if isinstance(data, dict) else None
    return value if isinstance(value, str | int) else None


def parse_message(text: str) -> ClientMessage:
    """Read one client message or raise :class:`ProtocolError` saying what is wrong."""
    _, message = read_message(text)
    if isinstance(message, ProtocolError):
        raise message
    return message


def read_message(text: str) -> tuple[MsgId, ClientMessage | ProtocolError]:
    """The client's ``id`` (as :func:`message_id`) and the message, or the refusal that
    :func:`parse_message` would raise, reading the JSON text only once."""
    if len(text) > MAX_MESSAGE:
        return message_id(text), ProtocolError(
            "message_too_large",
            f"a message may have at most {MAX_MESSAGE} characters, this one has {len(text)}",
            f"eine Nachricht darf höchstens {MAX_MESSAGE} Zeichen haben, diese hat {len(text)}",
        )
    try:  # the usual case, a valid message: parsed and validated in one pass (pydantic-core)
        message = _ADAPTER.validate_json(text)
    except ValidationError:
        pass  # read it again, slowly, to say exactly what is wrong
    else:
        return message.id, message
    try:
        data = json.loads(text)
    except ValueError as exc:
        return None, ProtocolError(
            "malformed_json", f"not valid JSON: {exc}", f"kein gültiges JSON: {exc}"
        )
    value = data.get("id") if isinstance(data, dict) else None
    msg_id = value if isinstance(value, str | int) else None
    try:
        return msg_id, _validate(data)
    except ProtocolError as exc:
        return msg_id, exc


def _validate(data: Any) -> ClientMessage:
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise ProtocolError(
            "bad_message",
            'a message is a JSON object with a "type"',
            'eine Nachricht ist ein JSON-Objekt mit einem "type"',
        )
    if data["type"] not in TYPES:
        kinds = ", ".join(sorted(TYPES))
        raise ProtocolError(
            "unknown_type",
            f"unknown message type '{data['type']}' (known: {kinds})",
            f"unbekannter Nachrichtentyp '{data['type']}' (bekannt: {kinds})",
        )
    try:
        return _ADAPTER.validate_python(data)
    except ValidationError as exc:
        problem = exc.errors()[0]
        where = ".".join(str(p) for p in problem["loc"][1:]) or "message"
        raise ProtocolError(
            "bad_message",
            f"{data['type']}: {where}: {problem['msg']}",
            f"{data['type']}: {where}: {problem['msg']}",
        ) from None
