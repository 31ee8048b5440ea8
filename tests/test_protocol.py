"""The client messages as the table reads them: the one-pass path for valid messages and
the slow path that says exactly what is wrong, with the id carried back where there is one."""

from __future__ import annotations

import json

import pytest

from server.tables.protocol import (
    MAX_MESSAGE,
    Action,
    Chat,
    Hello,
    Ping,
    ProtocolError,
    read_message,
)


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ({"type": "action", "action": "play T21", "v": 12, "id": "a1"},
         Action(type="action", action="play T21", v=12, id="a1")),
        ({"type": "action", "action": "pass"}, Action(type="action", action="pass")),
        ({"type": "action", "action": "pass", "seat": 2, "id": 7},
         Action(type="action", action="pass", seat=2, id=7)),
        ({"type": "hello", "room": 3, "last_version": None},
         Hello(type="hello", room=3, last_version=None)),
        ({"type": "chat", "text": "Servus ä", "id": "c"},
         Chat(type="chat", text="Servus ä", id="c")),
        ({"type": "ping", "id": 1}, Ping(type="ping", id=1)),
    ],
)  # fmt: skip
def test_valid_messages_are_read_with_their_id(
    message: dict[str, object], expected: object
) -> None:
    msg_id, read = read_message(json.dumps(message, ensure_ascii=False))
    assert read == expected
    assert msg_id == message.get("id")


@pytest.mark.parametrize(
    ("text", "code", "msg_id"),
    [
        ("{not json", "malformed_json", None),
        ("[1, 2]", "bad_message", None),
        ('{"id": "x"}', "bad_message", "x"),
        ('{"type": "teleport", "id": "t"}', "unknown_type", "t"),
        ('{"type": "action", "id": 5}', "bad_message", 5),
        ('{"type": "action", "action": "pass", "extra": 1, "id": "e"}', "bad_message", "e"),
        ('{"type": "action", "action": "' + "x" * 65 + '", "id": "long"}', "bad_message", "long"),
        ('{"type": "hello", "room": "drei", "id": "h"}', "bad_message", "h"),
        ('{"type": "chat", "text": "' + "x" * MAX_MESSAGE + '", "id": "big"}',
         "message_too_large", "big"),
    ],
)  # fmt: skip
def test_bad_messages_are_refused_with_the_reason(text: str, code: str, msg_id: object) -> None:
    read_id, read = read_message(text)
    assert isinstance(read, ProtocolError)
    assert read.code == code
    assert read_id == msg_id
    body = read.to_json()
    assert body["message"] and body["message_de"]


def test_a_bad_field_is_named_in_the_message() -> None:
    _, read = read_message('{"type": "hello", "room": "drei"}')
    assert isinstance(read, ProtocolError)
    assert read.to_json()["message"].startswith("hello: room: ")


def test_encoded_parts_are_joined_into_valid_json() -> None:
    from server.tables.protocol import encode, encoded_object, join_objects, with_id

    shared, own = {"phase": "tricks", "trick": {"cards": ["T21"]}}, {"seat": 0, "hand": ["SK"]}
    joined = join_objects(encode(shared), encode(own))
    assert json.loads(joined) == {**shared, **own}
    assert join_objects("{}", encode(own)) == encode(own)
    assert join_objects(encode(own), "{}") == encode(own)
    message = encoded_object({"type": '"event"', "v": encode(3), "view": joined})
    assert json.loads(message) == {"type": "event", "v": 3, "view": {**shared, **own}}
    assert json.loads(with_id(message, "a1"))["id"] == "a1"
    assert json.loads(with_id(message, None))["id"] is None
    # whatever orjson refuses (a lone surrogate) is still encoded, and joins the same way
    odd = {"name": "\ud800"}
    assert json.loads(join_objects(encode(odd), encode(own))) == {**odd, **own}
