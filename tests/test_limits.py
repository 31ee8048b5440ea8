"""Limits before work, piece by piece: the request-body limit (an ASGI middleware, called
here directly), the one list of uvicorn flags every launcher uses, and the record loader's
refusal of text that no text can carry."""

from __future__ import annotations

import asyncio
import json

import pytest
from starlette.types import Message, Receive, Scope, Send

from server.__main__ import APP, uvicorn_args
from server.api.limits import DEFAULT_BODY_BYTES, UVICORN_OPTIONS, BodyLimit, Limit
from server.engine.errors import RecordError
from server.engine.record import parse_record_text
from server.tables.protocol import MAX_FRAME_BYTES, MAX_MESSAGE
from tests.support import REPO_ROOT, launcher_args


class App:
    """An ASGI app that reads the whole body and answers 200 with its length."""

    def __init__(self) -> None:
        self.calls = 0
        self.body = b""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        self.calls += 1
        more = True
        while more:
            message = await receive()
            self.body += message.get("body", b"")
            more = message.get("more_body", False)
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": str(len(self.body)).encode()})


def call(
    middleware: BodyLimit, chunks: list[bytes], headers: list[tuple[bytes, bytes]], path: str = "/x"
) -> tuple[int, bytes, int]:
    """Run one request through ``middleware``; return status, body and chunks read."""
    scope = {"type": "http", "method": "POST", "path": path, "headers": headers}
    pending = [
        {"type": "http.request", "body": c, "more_body": i < len(chunks) - 1}
        for i, c in enumerate(chunks)
    ]
    read = 0
    sent: list[Message] = []

    async def receive() -> Message:
        nonlocal read
        if read < len(pending):
            read += 1
            return pending[read - 1]
        await asyncio.sleep(3600)  # a client that sends nothing more
        raise AssertionError

    async def send(message: Message) -> None:
        sent.append(message)

    asyncio.run(middleware(scope, receive, send))
    status = sent[0]["status"]
    body = b"".join(m.get("body", b"") for m in sent[1:])
    return status, body, read


def test_a_declared_length_over_the_limit_is_refused_before_the_body_is_read() -> None:
    app = App()
    status, body, read = call(BodyLimit(app), [b"x"], [(b"content-length", b"50331648")])
    assert status == 413 and app.calls == 0 and read == 0
    error = json.loads(body)["error"]
    assert error["code"] == "body_too_large" and error["message"] and error["message_de"]


def test_a_body_without_length_is_read_only_up_to_the_limit() -> None:
    app = App()
    chunks = [b"x" * 1000] * 100  # 100 KB, chunked
    status, _, read = call(BodyLimit(app), chunks, [(b"transfer-encoding", b"chunked")])
    assert status == 413 and app.calls == 0
    assert read == DEFAULT_BODY_BYTES // 1000 + 1  # stopped at the first chunk beyond


def test_a_body_within_the_limit_reaches_the_app_in_one_piece() -> None:
    app = App()
    chunks = [b"x" * 4096] * 4
    status, body, _ = call(BodyLimit(app), chunks, [(b"content-length", b"16384")])
    assert (status, body, app.body) == (200, b"16384", b"x" * 16384)


def test_a_route_may_have_its_own_limit_and_refusal() -> None:
    own = Limit(64 * 1024, "record_too_large", "A record may have at most 64 KiB.", "… 64 KiB.")
    middleware = BodyLimit(App(), routes={"/upload": own})
    status, body, _ = call(middleware, [b"x" * 40_000], [], path="/upload")
    assert status == 200
    status, body, _ = call(middleware, [b"x" * 40_000] * 2, [], path="/upload")
    assert status == 413 and json.loads(body)["error"]["code"] == "record_too_large"
    status, body, _ = call(middleware, [b"x" * 40_000], [], path="/other")
    assert status == 413 and json.loads(body)["error"]["code"] == "body_too_large"


@pytest.mark.parametrize("length", [b"1" + b"0" * 30, b"9" * 19, b"9" * 5000])
def test_an_absurd_length_is_no_number_to_compute_with(length: bytes) -> None:
    app = App()
    status, _, _ = call(BodyLimit(app), [b""], [(b"content-length", length)])
    assert status == 413 and app.calls == 0


def test_a_client_that_leaves_mid_body_gets_no_answer_and_runs_nothing() -> None:
    app = App()
    scope = {"type": "http", "method": "POST", "path": "/x", "headers": []}
    messages: list[Message] = [
        {"type": "http.request", "body": b"x", "more_body": True},
        {"type": "http.disconnect"},
    ]
    sent: list[Message] = []

    async def receive() -> Message:
        return messages.pop(0)

    async def send(message: Message) -> None:
        sent.append(message)

    asyncio.run(BodyLimit(app)(scope, receive, send))
    assert app.calls == 0 and sent == []


# --------------------------------------------------------------------------- launchers


def test_the_frame_limit_fits_the_longest_message_with_room_to_spare() -> None:
    assert MAX_MESSAGE * 4 < MAX_FRAME_BYTES  # 4096 characters of 4 UTF-8 bytes each fit
    assert UVICORN_OPTIONS[:2] == ("--ws-max-size", str(MAX_FRAME_BYTES))


def test_python_m_server_runs_uvicorn_with_the_limits() -> None:
    args = uvicorn_args(["--host", "0.0.0.0", "--proxy-headers"])
    assert args == [APP, *UVICORN_OPTIONS, "--host", "0.0.0.0", "--proxy-headers"]


def test_every_launcher_starts_the_server_with_python_m_server() -> None:
    makefile = (REPO_ROOT / "Makefile").read_text()
    run_recipe = makefile.split("\nrun:", 1)[1].split("\n\n", 1)[0]
    assert "-m server " in run_recipe and "uvicorn" not in run_recipe
    dockerfile = (REPO_ROOT / "Dockerfile").read_text()
    cmd = next(line for line in dockerfile.splitlines() if line.startswith("CMD "))
    assert json.loads(cmd.removeprefix("CMD "))[:3] == ["python", "-m", "server"]
    compose = (REPO_ROOT / "docker-compose.yml").read_text()
    assert "uvicorn" not in compose  # the app service runs the image's CMD
    # the tests' servers: the server itself as `make run` starts it, other apps (the crash
    # test's) with the same flags
    assert launcher_args(APP) == ["server"]
    assert launcher_args("tests.crash_app:app") == ["uvicorn", "tests.crash_app:app",
                                                    *UVICORN_OPTIONS]  # fmt: skip


# --------------------------------------------------------------------------- records


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ('{"seats": ["Anna", "\\ud800", "Catrin"]}', "seats[1]"),
        ('{"options": {"x": {"y": ["ok", "a\\udfffb"]}}}', "options.x.y[1]"),
        ('{"\\udc00": 1}', "record"),
        ('{"options": {"\\udc00": 1}}', "options"),
        ('{"actions": [[0, "pass"], [1, "\\ud83d"]]}', "actions[1][1]"),
    ],
)
def test_a_record_with_an_unpaired_surrogate_is_refused_with_its_position(
    text: str, where: str
) -> None:
    with pytest.raises(RecordError) as refused:
        parse_record_text(text)
    assert refused.value.code == "bad_text" and refused.value.where == where
    refused.value.message.encode("utf-8")  # the refusal itself can be sent


def test_a_record_with_a_surrogate_pair_is_read() -> None:
    assert parse_record_text('{"seats": ["\\ud83c\\udca1"]}') == {"seats": ["🂡"]}


def test_the_docs_name_the_limits() -> None:
    protocol = (REPO_ROOT / "docs" / "protocol.md").read_text()
    assert str(MAX_FRAME_BYTES // 1024) + " KiB" in protocol and "1009" in protocol
    api = (REPO_ROOT / "docs" / "api.md").read_text()
    assert "body_too_large" in api and f"{DEFAULT_BODY_BYTES // 1024} KiB" in api
