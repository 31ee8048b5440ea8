"""The WebSocket protocol's client messages, validated one by one (see docs/protocol.md).

Every refusal is a :class:`ProtocolError` with a stable code and an English and a German
message, in the same shape as the engine's errors, so the client shows both the same way.
No input raises anything else: a message that is too long is refused before it is read,
nesting too deep for the parser is ``too_deep``, numbers are bounded (room ids and
versions are 32-bit), and a client's ``id`` is carried back only when it is a valid one.
"""

from __future__ import annotations

import json
import re
from typing import Annotated, Any, Literal

import orjson
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StringConstraints,
    TypeAdapter,
    ValidationError,
)

from server.engine.errors import EngineError

MAX_MESSAGE = 4096  # characters of one client message
#: The largest WebSocket message the server accepts at all, in bytes. The WebSocket layer
#: closes the connection (1009) on a bigger one before reading it (``python -m server``
#: passes it to uvicorn as ``--ws-max-size``). A message of MAX_MESSAGE characters has at
#: most 16 KiB in UTF-8; up to this size a longer one is refused with ``message_too_large``
#: and the connection stays open.
MAX_FRAME_BYTES = 32 * 1024
#: The deepest nesting of arrays and objects a message may have (a valid one has 1).
MAX_DEPTH = 20
#: The largest room id and version (the database's ids are 32-bit integers).
MAX_INT = 2**31 - 1
#: The largest numeric ``id`` a client may use (the integers JavaScript holds exactly).
MAX_MSG_ID = 2**53 - 1


class ProtocolError(EngineError):
    """A message the server refuses before the rules are even asked."""


MsgId = str | int | None
#: A client's ``id`` as the messages accept it: up to 64 printable ASCII characters other
#: than ``"`` and ``\`` (so that its JSON text is at most 66 characters, as stored with
#: an action), or an integer JavaScript holds exactly. Anything else is refused and never
#: echoed back.
ClientId = (
    Annotated[str, StringConstraints(max_length=64, pattern=r"^[ !#-\[\]-~]*$")]
    | Annotated[StrictInt, Field(ge=-MAX_MSG_ID, le=MAX_MSG_ID)]
    | None
)
Room = Annotated[StrictInt, Field(ge=1, le=MAX_INT)]
Version = Annotated[StrictInt, Field(ge=-1, le=MAX_INT)]
Seat = Annotated[StrictInt, Field(ge=0, le=15)]


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Hello(_Message):
    """Join a room's table; ``last_version`` is the last version the client saw."""

    type: Literal["hello"]
    room: Room
    last_version: Version | None = None
    id: ClientId = None


class Action(_Message):
    """An action in canonical text at table version ``v`` (``seat`` is optional: if given it
    must be the sender's own)."""

    type: Literal["action"]
    action: Annotated[str, Field(min_length=1, max_length=64)]
    v: Version | None = None
    seat: Seat | None = None
    id: ClientId = None


class Chat(_Message):
    """A chat line."""

    type: Literal["chat"]
    text: Annotated[str, Field(max_length=1000)]
    id: ClientId = None


class Ping(_Message):
    """Keep-alive; answered with ``pong``."""

    type: Literal["ping"]
    id: ClientId = None


class Next(_Message):
    """ "Weiter": the sender has read the result of the finished deal (between deals only)."""

    type: Literal["next"]
    id: ClientId = None


class Pause(_Message):
    """A player asks for a pause (``pause: true``) or to go on (``pause: false``); the
    table pauses, or goes on, once every player of the deal has asked the same."""

    type: Literal["pause"]
    pause: StrictBool
    id: ClientId = None


class StandIn(_Message):
    """A player asks for a stand-in ("Vertretung für 5 Minuten", ``on: true``) or ends
    the one he asked for (``on: false``)."""

    type: Literal["standin"]
    on: StrictBool
    id: ClientId = None


ClientMessage = Hello | Action | Chat | Ping | Next | Pause | StandIn
TYPES = {"hello", "action", "chat", "ping", "next", "pause", "standin"}
_ADAPTER: TypeAdapter[ClientMessage] = TypeAdapter(
    Annotated[ClientMessage, Field(discriminator="type")]
)
_ID: TypeAdapter[MsgId] = TypeAdapter(ClientId)
#: What a chat line may not contain: control characters and unpaired surrogates.
_NOT_CHAT = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")


def encode(message: Any) -> str:
    """A server message as JSON text (UTF-8 characters as they are, not ``\\u`` escapes).

    orjson writes the same JSON as ``json.dumps(message, ensure_ascii=False)`` without the
    blanks after ``,`` and ``:``, about four times faster: encoding the events was the
    largest single cost per action (see docs/benchmarks.md). Whatever orjson refuses (a
    lone surrogate in a string, an integer beyond 64 bits) goes through ``json`` with
    ``\\u`` escapes, so that the text can always be sent (a lone surrogate has no UTF-8).
    """
    try:
        return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        return json.dumps(message, ensure_ascii=True, separators=(",", ":"))


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


def event_prefix(
    version: int, seat: int, auto: bool, turn: Any = None, standin: bool = False
) -> str:
    """What the ``event`` messages of one action share, for :func:`event_text` (``turn``:
    the seat to move next and the seconds left on its timer, alike for every seat;
    ``standin``: a stand-in made the move for the person at ``seat``, said only then)."""
    mark = ',"standin":true' if standin else ""
    return (
        f'{{"type":"event","v":{encode(version)},"seat":{encode(seat)},"auto":{encode(auto)}'
        f'{mark},"turn":{encode(turn)},'
    )


def event_text(prefix: str, action: str, view: str) -> str:
    """One seat's ``event`` message: the action as it sees it and its view, encoded already
    (the shared part of the view once for all seats, joined with :func:`join_objects`)."""
    return f'{prefix}"action":{encode(action)},"view":{view}}}'


def event_changes_text(prefix: str, action: str, changed: str, gone: str) -> str:
    """One seat's ``event`` message that carries only what changed in its view since the
    version before: ``changed`` (an encoded object of the top-level keys whose values
    changed) and ``gone`` (an encoded array of the keys no longer there). The client
    applies them to the view it has (``docs/protocol.md``)."""
    return f'{prefix}"action":{encode(action)},"changed":{changed},"gone":{gone}}}'


def join_arrays(first: str, second: str) -> str:
    """Two encoded JSON arrays as one.

    >>> join_arrays('["a"]', "[]"), join_arrays('["a"]', '["b"]')
    ('["a"]', '["a","b"]')
    """
    if first == "[]":
        return second
    if second == "[]":
        return first
    return f"{first[:-1]},{second[1:]}"


def with_id(text: str, msg_id: MsgId) -> str:
    """An encoded message object with ``"id": msg_id`` added at the end."""
    return join_objects(text, encode({"id": msg_id}))


def parse_message(text: str | None) -> ClientMessage:
    """Read one client message or raise :class:`ProtocolError` saying what is wrong."""
    _, message = read_message(text)
    if isinstance(message, ProtocolError):
        raise message
    return message


def read_message(text: str | None) -> tuple[MsgId, ClientMessage | ProtocolError]:
    """The client's ``id`` and the message, or the refusal that :func:`parse_message` would
    raise, reading the JSON text only once (``None`` stands for a binary frame).

    The length is checked before anything is read, and the ``id`` is only carried back
    when it is a valid one. Nothing raises: whatever the text holds, the answer is a
    message or a refusal.
    """
    if text is None:
        return None, ProtocolError(
            "bad_message",
            "messages are JSON text frames, not binary ones",
            "Nachrichten sind JSON-Textframes, keine binären",
        )
    if len(text) > MAX_MESSAGE:
        return None, ProtocolError(
            "message_too_large",
            f"a message may have at most {MAX_MESSAGE} characters, this one has {len(text)}",
            f"eine Nachricht darf höchstens {MAX_MESSAGE} Zeichen haben, diese hat {len(text)}",
        )
    try:  # the usual case, a valid message: parsed and validated in one pass (pydantic-core)
        message = _ADAPTER.validate_json(text)
    except ValidationError:
        pass  # read it again, slowly, to say exactly what is wrong
    else:
        return message.id, _refusal(message) or message
    too_deep = ProtocolError(
        "too_deep",
        f"a message is nested at most {MAX_DEPTH} levels deep",
        f"eine Nachricht ist höchstens {MAX_DEPTH} Ebenen tief verschachtelt",
    )
    if _too_deep(text):
        return None, too_deep
    try:
        data = json.loads(text)
    except RecursionError:  # the parser's own limit (not reached after _too_deep)
        return None, too_deep
    except ValueError as exc:
        return None, ProtocolError(
            "malformed_json", f"not valid JSON: {exc}", f"kein gültiges JSON: {exc}"
        )
    except Exception:  # nothing a client sends may raise
        return None, ProtocolError("malformed_json", "not valid JSON", "kein gültiges JSON")
    msg_id = _valid_id(data.get("id")) if isinstance(data, dict) else None
    try:
        message = _validate(data)
    except ProtocolError as exc:
        return msg_id, exc
    except Exception:  # the last line of defence: nothing a client sends may raise
        return msg_id, _bad_message("message", "cannot be read")
    return msg_id, _refusal(message) or message


def _too_deep(text: str) -> bool:
    """Whether arrays and objects in ``text`` nest more than :data:`MAX_DEPTH` levels (read
    before the JSON parser, whose own limit depends on the interpreter's stack)."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return False
    depth = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return True
        elif char in "]}":
            depth -= 1
    return False


def _valid_id(value: Any) -> MsgId:
    """``value`` if it is a valid client ``id``, else None (an invalid one is not echoed)."""
    try:
        return _ID.validate_python(value)
    except ValidationError:
        return None


def _refusal(message: ClientMessage) -> ProtocolError | None:
    """What is wrong with the text of a valid message (None: nothing)."""
    if isinstance(message, Action):
        if message.action.isascii() and message.action.isprintable():
            return None
        return ProtocolError(
            "malformed_action",
            "an action is plain text as in legal_actions, such as 'play HK'",
            "eine Aktion ist einfacher Text wie in legal_actions, etwa 'play HK'",
        )
    if isinstance(message, Chat):
        return _chat_refusal(message.text)
    return None


def _chat_refusal(text: str) -> ProtocolError | None:
    if _NOT_CHAT.search(text) is None:
        return None
    return ProtocolError(
        "bad_chat",
        "a chat message may not contain control characters or unpaired surrogates",
        "eine Chatnachricht darf keine Steuerzeichen und keine einzelnen Surrogate enthalten",
    )


def _shown(value: object) -> str:
    """A name from the client's message as the refusal quotes it: short and printable."""
    text = str(value)
    if len(text) <= 40 and text.isascii() and text.isprintable():
        return text
    return ascii(text[:40])[1:-1]  # escapes, without the quotes


def _bad_message(where: str, problem: str) -> ProtocolError:
    return ProtocolError("bad_message", f"{where}: {problem}", f"{where}: {problem}")


def _validate(data: Any) -> ClientMessage:
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise ProtocolError(
            "bad_message",
            'a message is a JSON object with a "type"',
            'eine Nachricht ist ein JSON-Objekt mit einem "type"',
        )
    kind = data["type"]
    if kind not in TYPES:
        kinds = ", ".join(sorted(TYPES))
        shown = _shown(kind)
        raise ProtocolError(
            "unknown_type",
            f"unknown message type '{shown}' (known: {kinds})",
            f"unbekannter Nachrichtentyp '{shown}' (bekannt: {kinds})",
        )
    if kind == "chat" and isinstance(data.get("text"), str):
        refusal = _chat_refusal(data["text"])
        if refusal is not None:
            raise refusal
    try:
        return _ADAPTER.validate_python(data)
    except ValidationError as exc:
        problem = exc.errors(include_url=False, include_input=False)[0]
        where = _shown(problem["loc"][1]) if len(problem["loc"]) > 1 else "message"
        raise _bad_message(f"{kind}: {where}", problem["msg"]) from None
