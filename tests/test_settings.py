"""The settings object reads the environment and rejects nonsense."""

from __future__ import annotations

import pytest

from server.settings import DEFAULT_DATABASE_URL, Settings, SettingsError
from server.store.db import url_scheme


def test_defaults() -> None:
    settings = Settings.from_env({})
    assert settings.database_url == DEFAULT_DATABASE_URL
    assert settings.database_url == "sqlite+aiosqlite:///./var/stammtisch.sqlite3"
    assert (settings.host, settings.port) == ("127.0.0.1", 8000)
    assert settings.cookie_secure is False


def test_reads_environment() -> None:
    settings = Settings.from_env(
        {
            "DATABASE_URL": "postgresql+asyncpg://u:p@db:5432/stammtisch",
            "STAMMTISCH_HOST": "0.0.0.0",
            "STAMMTISCH_PORT": "9000",
            "STAMMTISCH_DB_CHECK_TIMEOUT": "2.5",
        }
    )
    assert url_scheme(settings.database_url) == "postgresql"
    assert (settings.host, settings.port, settings.db_check_timeout) == ("0.0.0.0", 9000, 2.5)


@pytest.mark.parametrize("port", ["eighty", "-1", "0"])
def test_rejects_bad_port(port: str) -> None:
    with pytest.raises(SettingsError, match="STAMMTISCH_PORT"):
        Settings.from_env({"STAMMTISCH_PORT": port})


@pytest.mark.parametrize(
    ("raw", "expected"),
    [("true", True), ("1", True), ("YES", True), (" on ", True), ("false", False), ("0", False),
     ("off", False), ("", False)],
)  # fmt: skip
def test_cookie_secure(raw: str, expected: bool) -> None:
    assert Settings.from_env({"STAMMTISCH_COOKIE_SECURE": raw}).cookie_secure is expected


def test_rejects_bad_cookie_secure() -> None:
    with pytest.raises(SettingsError, match="STAMMTISCH_COOKIE_SECURE"):
        Settings.from_env({"STAMMTISCH_COOKIE_SECURE": "maybe"})
