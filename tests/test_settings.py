"""The settings object reads the environment and rejects nonsense."""

from __future__ import annotations

import os
import socket

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


def test_public_origins_default_to_where_make_run_serves() -> None:
    assert Settings.from_env({}).public_origins == (
        "http://127.0.0.1:8000",
        "http://localhost:8000",
    )
    assert Settings(port=8080).public_origins == ("http://127.0.0.1:8080", "http://localhost:8080")
    settings = Settings.from_env({"STAMMTISCH_HOST": "localhost", "STAMMTISCH_PORT": "9000"})
    assert settings.public_origins == ("http://localhost:9000", "http://127.0.0.1:9000")
    assert Settings(host="::1").public_origins == (
        "http://[::1]:8000", "http://127.0.0.1:8000", "http://localhost:8000"
    )  # fmt: skip
    # Every address: browsers never show 0.0.0.0; other names need the setting.
    assert Settings(host="0.0.0.0", port=80).public_origins == (
        "http://127.0.0.1", "http://localhost"
    )  # fmt: skip
    assert Settings(host="karten.lan").public_origins == ("http://karten.lan:8000",)


def test_public_origins_are_read_and_normalised() -> None:
    raw = " HTTPS://Karten.Example.org:443/ , http://[::1]:8000,https://bücher.example:8443,, "
    settings = Settings.from_env({"STAMMTISCH_PUBLIC_ORIGINS": raw})
    assert settings.public_origins == (
        "https://karten.example.org",
        "http://[::1]:8000",
        "https://xn--bcher-kva.example:8443",
    )
    assert Settings(public_origins=("http://a.example:80", "http://A.example")).public_origins == (
        "http://a.example",
    )


@pytest.mark.parametrize(
    "raw",
    ["karten.example.org", "ftp://karten.example.org", "https://karten.example.org/spiel",
     "https://karten.example.org?x", "https://karten.example.org#x", "https://user@karten.example",
     "https://karten.example.org:99999", "https://karten.example.org:0", "https://", "*", "null",
     "https://karten example.org", "https://good.example,https://bad.example/path"],
)  # fmt: skip
def test_rejects_bad_public_origins(raw: str) -> None:
    with pytest.raises(SettingsError, match=r"STAMMTISCH_PUBLIC_ORIGINS.*scheme://host"):
        Settings.from_env({"STAMMTISCH_PUBLIC_ORIGINS": raw})


def test_api_docs_setting() -> None:
    assert Settings.from_env({}).api_docs is False
    assert Settings.from_env({"STAMMTISCH_API_DOCS": "true"}).api_docs is True
    with pytest.raises(SettingsError, match="STAMMTISCH_API_DOCS"):
        Settings.from_env({"STAMMTISCH_API_DOCS": "sometimes"})


def test_computer_processes_setting() -> None:
    assert Settings.from_env({}).computer_processes == 0  # the pool's default: cores − 1
    assert Settings.from_env({"STAMMTISCH_COMPUTER_PROCESSES": "3"}).computer_processes == 3
    for raw in ("0", "-1", "zwei", "1.5"):
        with pytest.raises(SettingsError, match="STAMMTISCH_COMPUTER_PROCESSES"):
            Settings.from_env({"STAMMTISCH_COMPUTER_PROCESSES": raw})


def test_node_name() -> None:
    assert Settings.from_env({"STAMMTISCH_NODE_NAME": " app1 "}).node == "app1"
    unnamed = Settings.from_env({}).node  # the host name and the process id
    assert unnamed == f"{socket.gethostname()}-{os.getpid()}"
