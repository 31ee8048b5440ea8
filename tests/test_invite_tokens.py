"""Invite links whose token is no token are refused before the database is asked.

``GET /r/%00`` answered 500 on PostgreSQL (which refuses a NUL byte in a text) and 404 on
SQLite: the page looked the token up without checking its form.
"""

from __future__ import annotations

import httpx
import pytest

from server.store.rooms import is_invite_token

pytestmark = pytest.mark.live_server

#: Paths (already percent-encoded) of tokens that cannot be invite tokens.
NO_TOKENS = ["%00", "abc%00def", "%C3%A4", "a%20b", "a.b", "x" * 65, "%F0%9F%83%8F", "%FF"]


@pytest.mark.parametrize("token", NO_TOKENS)
def test_no_token_is_a_404_on_both_databases(play_server: tuple[str, str], token: str) -> None:
    base_url, _database_url = play_server
    with httpx.Client(base_url=base_url, timeout=10) as client:
        page = client.get(f"/r/{token}")
        assert page.status_code == 404, page.text[:300]
        assert "text/html" in page.headers["content-type"]
        api = client.get(f"/api/invite/{token}")
        assert api.status_code == 404, api.text
        assert api.json()["error"]["code"] == "invite_not_found"
        # and a well-formed token that belongs to no room, too
        assert client.get("/r/" + "A" * 32).status_code == 404
        assert client.get("/healthz").status_code == 200


def test_the_form_of_a_token() -> None:
    assert is_invite_token("Qx3_-" + "a" * 27)
    for text in ["", "\x00", "a\x00", "ä", "a b", "x" * 65, "a/b", "a%00"]:
        assert not is_invite_token(text)
