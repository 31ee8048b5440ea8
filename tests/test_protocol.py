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
    Next,
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
        ({"type": "next", "id": "w1"}, Next(type="next", id="w1")),
        ({"type": "next"}, Next(type="next")),
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
        ('{"type": "next", "deal": 2, "id": "n"}', "bad_message", "n"),
        ('{"type": "chat", "text": "' + "x" * MAX_MESSAGE + '", "id": "big"}',
         "message_too_large", None),  # refused before it is read: no id
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
    from server.tables.protocol import (
        encode,
        encoded_object,
        event_prefix,
        event_text,
        join_objects,
        with_id,
    )

    shared, own = {"phase": "tricks", "trick": {"cards": ["T21"]}}, {"seat": 0, "hand": ["SK"]}
    joined = join_objects(encode(shared), encode(own))
    assert json.loads(joined) == {**shared, **own}
    assert join_objects("{}", encode(own)) == encode(own)
    assert join_objects(encode(own), "{}") == encode(own)
    message = encoded_object({"type": '"event"', "v": encode(3), "view": joined})
    assert json.loads(message) == {"type": "event", "v": 3, "view": {**shared, **own}}
    assert json.loads(with_id(message, "a1"))["id"] == "a1"
    assert json.loads(with_id(message, None))["id"] is None
    turn = {"seat": 1, "ends_in": 12.5}
    event = event_text(event_prefix(4, 0, True, turn), "play HK", joined)
    assert json.loads(event) == {
        "type": "event",
        "v": 4,
        "seat": 0,
        "auto": True,
        "turn": turn,
        "action": "play HK",
        "view": {**shared, **own},
    }
    # whatever orjson refuses (a lone surrogate) is still encoded, and joins the same way
    odd = {"name": "\ud800"}
    assert json.loads(join_objects(encode(odd), encode(own))) == {**odd, **own}


# ---------------------------------------------------------------- limits before work


@pytest.mark.parametrize(
    ("message", "field"),
    [
        ({"type": "hello", "room": 2**63}, "room"),
        ({"type": "hello", "room": 2**31}, "room"),
        ({"type": "hello", "room": 0}, "room"),
        ({"type": "hello", "room": True}, "room"),
        ({"type": "hello", "room": 3.0}, "room"),
        ({"type": "hello", "room": "3"}, "room"),
        ({"type": "hello", "room": 3, "last_version": 2**64}, "last_version"),
        ({"type": "hello", "room": 3, "last_version": -2}, "last_version"),
        ({"type": "action", "action": "pass", "v": 2**31}, "v"),
        ({"type": "action", "action": "pass", "v": 1.5}, "v"),
        ({"type": "action", "action": "pass", "seat": 2**63}, "seat"),
        ({"type": "action", "action": "pass", "seat": -1}, "seat"),
        ({"type": "ping", "id": 2**53}, "id"),
        ({"type": "ping", "id": "\ud800"}, "id"),
        ({"type": "ping", "id": "a\x00b"}, "id"),
        ({"type": "ping", "id": "x" * 65}, "id"),
        ({"type": "ping", "id": '"' * 64}, "id"),
        ({"type": "ping", "id": "\\"}, "id"),
        ({"type": "ping", "id": True}, "id"),
        ({"type": "ping", "id": [1]}, "id"),
    ],
)  # fmt: skip
def test_numbers_and_ids_are_bounded(message: dict[str, object], field: str) -> None:
    msg_id, read = read_message(json.dumps(message))
    assert isinstance(read, ProtocolError) and read.code == "bad_message", read
    assert read.message.startswith(f"{message['type']}: {field}: ")
    assert msg_id is None  # an invalid id is never carried back


def test_the_edges_of_what_is_allowed_are_read() -> None:
    _, hello = read_message(json.dumps({"type": "hello", "room": 2**31 - 1, "last_version": -1}))
    assert hello == Hello(type="hello", room=2**31 - 1, last_version=-1)
    for msg_id in ["", "x" * 64, "play HK", " ~", 2**53 - 1, -(2**53) + 1]:
        assert read_message(json.dumps({"type": "ping", "id": msg_id}))[0] == msg_id


def test_too_long_is_refused_before_it_is_read() -> None:
    text = '{"type": "ping", "id": "x", "pad": "' + "[" * MAX_MESSAGE + '"}'
    msg_id, read = read_message(text)
    assert isinstance(read, ProtocolError) and read.code == "message_too_large"
    assert msg_id is None  # not even the id was read


@pytest.mark.parametrize(
    ("text", "codes"),
    [
        ("[" * 4000, {"too_deep"}),
        ('{"a":' * 800, {"too_deep"}),
        ("[" * 2000 + "]" * 2000, {"too_deep"}),
        ("[" * 21 + "]" * 21, {"too_deep"}),
        ("[" * 20 + "]" * 20, {"bad_message"}),
        ('{"type": "chat", "text": "' + "[" * 1000 + '", "x": [[]]}', {"bad_message"}),
        ('{"type": "chat", "text": "\\"' + "[" * 1000 + '", "x": [[]]}', {"bad_message"}),
        ('{"type": "ping", "id": NaN}', {"bad_message"}),
        ("\ufeff{}", {"malformed_json"}),
        ("", {"malformed_json"}),
    ],
)  # fmt: skip
def test_nothing_a_client_sends_raises(text: str, codes: set[str]) -> None:
    msg_id, read = read_message(text)
    assert isinstance(read, ProtocolError) and read.code in codes, read
    assert msg_id is None


def test_brackets_in_text_are_no_nesting() -> None:
    text = "[{" * 500
    assert read_message(json.dumps({"type": "chat", "text": text}))[1] == Chat(
        type="chat", text=text
    )


def test_a_binary_frame_is_refused() -> None:
    msg_id, read = read_message(None)
    assert isinstance(read, ProtocolError) and read.code == "bad_message"
    assert msg_id is None


@pytest.mark.parametrize(
    "text", ["\ud800", "Servus \udfff", "a\x00b", "\x1b[31mrot", "a\nb", "a\tb", "a\x7f", "a\x85"]
)
def test_chat_with_control_characters_or_surrogates_is_refused(text: str) -> None:
    msg_id, read = read_message(json.dumps({"type": "chat", "text": text, "id": "c"}))
    assert isinstance(read, ProtocolError) and read.code == "bad_chat", read
    assert msg_id == "c"


def test_chat_keeps_every_printable_character() -> None:
    text = "Servus, grüß Gott! 🂡 ♠♥♦♣ «Zehner» – 10 € \u200b"
    assert read_message(json.dumps({"type": "chat", "text": text}))[1] == Chat(
        type="chat", text=text
    )


@pytest.mark.parametrize("action", ["päss", "pass\x00", "\u202epass", "bid ²", "pass\n"])
def test_an_action_is_plain_printable_text(action: str) -> None:
    msg_id, read = read_message(json.dumps({"type": "action", "action": action, "id": 1}))
    assert isinstance(read, ProtocolError) and read.code == "malformed_action", read
    assert msg_id == 1


def test_a_refusal_quotes_the_client_only_briefly_and_printably() -> None:
    _, read = read_message(json.dumps({"type": "\ud800" + "x" * 2000}))
    assert isinstance(read, ProtocolError) and read.code == "unknown_type"
    assert len(read.message) < 200 and read.message.isascii()
    _, read = read_message(json.dumps({"type": "ping", "\udc00" + "k" * 3000: 1}))
    assert isinstance(read, ProtocolError) and read.code == "bad_message"
    assert len(read.message) < 200


def test_encoded_text_can_always_be_sent() -> None:
    from server.tables.protocol import encode

    for message in [{"name": "\ud800"}, {"big": 2**70, "name": "ä"}, {"x": "\udfff\x00"}]:
        text = encode(message)
        text.encode("utf-8")  # no lone surrogate left: it can go out as a text frame
        assert json.loads(text) == message
    assert encode({"name": "ä"}) == '{"name":"ä"}'  # the fast path keeps UTF-8 as it is
