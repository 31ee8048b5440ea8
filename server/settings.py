"""The one typed settings object, read from the environment.

Every knob the server has is a field here; nothing else reads ``os.environ``. The
defaults give a working single-machine set-up: SQLite under ``./var/`` and the web
server on http://127.0.0.1:8000.

Environment variables:

``DATABASE_URL``
    SQLAlchemy async URL. ``sqlite+aiosqlite:///./var/stammtisch.sqlite3`` (default) or
    ``postgresql+asyncpg://user:password@host:5432/dbname``.
``STAMMTISCH_HOST`` / ``STAMMTISCH_PORT``
    Where the server listens (default ``127.0.0.1`` and ``8000``).
``STAMMTISCH_DB_CHECK_TIMEOUT``
    Seconds the start-up and ``/healthz`` database check may take (default ``5``).
``STAMMTISCH_COOKIE_SECURE``
    ``true`` marks the session cookie ``Secure`` (sent over HTTPS only); set it whenever
    the server is reached through HTTPS. ``1/true/yes/on`` or ``0/false/no/off``
    (default ``false``).
``STAMMTISCH_SECRET_KEY``
    The server's secret (at least 32 characters, e.g. ``python -c "import secrets;
    print(secrets.token_urlsafe(32))"``), which signs the device cookies that let a
    browser that logged in before past a login flood (``server/api/devices.py``). Keep it
    across restarts and the same for every process; without it each process makes a
    random one, and the browsers' device cookies count no more after a restart.
``STAMMTISCH_PUBLIC_ORIGINS``
    The addresses (``scheme://host[:port]``, comma-separated) browsers reach the server
    at, e.g. ``https://karten.example.org`` behind a reverse proxy. The WebSocket
    handshake and every request that changes something are refused unless they come from
    one of them (or from no browser page at all). Default: ``http://STAMMTISCH_HOST:PORT``
    (``http://127.0.0.1:8000``, where ``make run`` serves), with ``localhost`` and
    ``127.0.0.1`` for a loopback host and instead of a wildcard one (``0.0.0.0``, ``::``).
``STAMMTISCH_API_DOCS``
    ``true`` serves the generated API documentation (``/docs``, ``/redoc``,
    ``/openapi.json``); off by default.
``STAMMTISCH_REQUEST_TIMEOUT``
    Seconds an HTTP request may take to arrive, its head and its declared body, from its
    first byte (or the connection's start); a slower one is answered 408 and its
    connection closed (default ``20``; ``server/api/http_protocol.py``).
``STAMMTISCH_AUTH_LIMITS``
    ``false`` switches off the per-client and global limits on logging in and creating
    accounts and the bound on waiting password hashes (``server/api/throttle.py``); only
    for load tests that create hundreds of accounts from one address (default ``true``).
``STAMMTISCH_GC_FREEZE``
    ``false`` leaves CPython's garbage collector as it comes (thresholds, nothing frozen)
    instead of freezing the long-lived heap at start-up and whenever it has grown, so that
    a full collection does not walk the open sockets and tables
    (``server/api/heap.py``); for measuring what freezing saves (``bench/gc_pause.py``)
    or ruling it out (default ``true``).
``STAMMTISCH_COMPUTER_PROCESSES``
    Worker processes in which the searching computer players (level ``stark``) think, off
    the event loop (``server/tables/computers.py``); default: the machine's cores less
    one, at least one. They are started at the first such decision.
``STAMMTISCH_REDIS_URL``
    The Redis server through which several server processes share their tables, limits
    and presence (``redis://host:6379/0``; ``docs/deploy.md``). Unset (the default): one
    process serves everything from its own memory, as ``make run`` does; set, the
    database must be PostgreSQL (the processes hold its advisory locks on the tables).
``STAMMTISCH_NODE_NAME``
    This process's name among several (in logs, metrics and the ownership of tables);
    default: the host name and the process id.
``STAMMTISCH_DEADLINE_POLL_SECONDS``
    How often each process looks for correspondence deadlines that are due
    (``server/tables/deadlines.py``) and for the pushes, reminders and e-mail digests to
    send (``server/notify/job.py``); default ``30``.
``STAMMTISCH_CLOCK_FILE``
    Only for tests: a file holding a number of seconds the server's wall clock runs ahead
    of the machine's (``server/clock.py``), so that tests can let days pass for the
    correspondence deadlines. Never set it in production.
``STAMMTISCH_SMTP_HOST`` / ``STAMMTISCH_SMTP_PORT``
    The SMTP server for the e-mail verification and the daily digest (unset: no e-mail is
    offered); port default ``25``.
``STAMMTISCH_SMTP_USER`` / ``STAMMTISCH_SMTP_PASSWORD``
    Credentials for the SMTP server (optional).
``STAMMTISCH_SMTP_STARTTLS``
    ``true`` upgrades the SMTP connection with STARTTLS (default ``false``).
``STAMMTISCH_MAIL_FROM``
    The sender of the mails (default ``stammtisch@localhost``).
``STAMMTISCH_PUSH_HOSTS``
    The push services the server sends Web Push messages to: host names, comma-separated,
    ``*.example.org`` for every host below that domain (default: the browsers' own
    services, :data:`DEFAULT_PUSH_HOSTS`: Google's for Chrome, Edge's, Mozilla's,
    Apple's). A subscription naming any other host is refused, so that nobody can make the
    server send requests to an address of his choosing; a plain-``http`` service on this
    machine (tests) must be listed by its loopback address (``127.0.0.1``).
``STAMMTISCH_PUSH_SUBJECT``
    The contact the Web Push services see in the VAPID claim (``mailto:`` or ``https:``;
    default ``mailto:admin@localhost``).
"""

from __future__ import annotations

import ipaddress
import os
import socket
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TypeVar
from urllib.parse import urlsplit

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///./var/stammtisch.sqlite3"

#: The browsers' push services (Chrome and most others: Google's; Edge: Microsoft's;
#: Firefox: Mozilla's; Safari: Apple's).
DEFAULT_PUSH_HOSTS = (
    "fcm.googleapis.com",
    "android.googleapis.com",
    "*.notify.windows.com",
    "updates.push.services.mozilla.com",
    "*.push.services.mozilla.com",
    "web.push.apple.com",
    "*.push.apple.com",
)


class SettingsError(ValueError):
    """An environment variable holds a value the server cannot use."""


@dataclass(frozen=True, slots=True)
class Settings:
    """Server configuration; build it with :meth:`from_env` or directly in tests."""

    database_url: str = DEFAULT_DATABASE_URL
    host: str = "127.0.0.1"
    port: int = 8000
    db_check_timeout: float = 5.0
    cookie_secure: bool = False
    #: Signs the device cookies; empty: a random secret per process.
    secret_key: str = field(default="", repr=False)
    #: Normalised ``scheme://host[:port]`` origins; empty: derived from host and port.
    public_origins: tuple[str, ...] = ()
    api_docs: bool = False
    auth_limits: bool = True
    request_timeout: float = 20.0
    gc_freeze: bool = True
    #: Worker processes for the computer players' thinking (0: the cores less one).
    computer_processes: int = 0
    #: The Redis server shared by several processes (empty: one process, no Redis).
    redis_url: str = field(default="", repr=False)
    #: This process's name among several (empty: host name and process id).
    node_name: str = ""
    #: Seconds between two looks for due correspondence deadlines and reminders.
    deadline_poll: float = 30.0
    #: Tests only: a file with the seconds the wall clock runs ahead (empty: the real one).
    clock_file: str = ""
    #: The SMTP server for mails (empty: no e-mail), its port, credentials and STARTTLS.
    smtp_host: str = ""
    smtp_port: int = 25
    smtp_user: str = ""
    smtp_password: str = field(default="", repr=False)
    smtp_starttls: bool = False
    mail_from: str = "stammtisch@localhost"
    #: The contact in the VAPID claim of Web Push messages.
    push_subject: str = "mailto:admin@localhost"
    #: The push services Web Push messages may go to (``*.domain``: any host below it).
    push_hosts: tuple[str, ...] = DEFAULT_PUSH_HOSTS

    def __post_init__(self) -> None:
        origins = (
            tuple(normalise_origin(o) for o in self.public_origins)
            if self.public_origins
            else default_origins(self.host, self.port)
        )
        object.__setattr__(self, "public_origins", tuple(dict.fromkeys(origins)))

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """Read the settings from ``environ`` (default: the process environment)."""
        env = os.environ if environ is None else environ
        return cls(
            database_url=env.get("DATABASE_URL", "").strip() or DEFAULT_DATABASE_URL,
            host=env.get("STAMMTISCH_HOST", "").strip() or "127.0.0.1",
            port=_parse_number(env, "STAMMTISCH_PORT", int, 8000),
            db_check_timeout=_parse_number(env, "STAMMTISCH_DB_CHECK_TIMEOUT", float, 5.0),
            cookie_secure=_parse_bool(env, "STAMMTISCH_COOKIE_SECURE", False),
            secret_key=_parse_secret(env, "STAMMTISCH_SECRET_KEY"),
            public_origins=_parse_origins(env, "STAMMTISCH_PUBLIC_ORIGINS"),
            api_docs=_parse_bool(env, "STAMMTISCH_API_DOCS", False),
            auth_limits=_parse_bool(env, "STAMMTISCH_AUTH_LIMITS", True),
            request_timeout=_parse_number(env, "STAMMTISCH_REQUEST_TIMEOUT", float, 20.0),
            gc_freeze=_parse_bool(env, "STAMMTISCH_GC_FREEZE", True),
            computer_processes=_parse_number(env, "STAMMTISCH_COMPUTER_PROCESSES", int, 0),
            redis_url=_parse_redis(env, "STAMMTISCH_REDIS_URL"),
            node_name=env.get("STAMMTISCH_NODE_NAME", "").strip(),
            deadline_poll=_parse_number(env, "STAMMTISCH_DEADLINE_POLL_SECONDS", float, 30.0),
            clock_file=env.get("STAMMTISCH_CLOCK_FILE", "").strip(),
            smtp_host=env.get("STAMMTISCH_SMTP_HOST", "").strip(),
            smtp_port=_parse_number(env, "STAMMTISCH_SMTP_PORT", int, 25),
            smtp_user=env.get("STAMMTISCH_SMTP_USER", "").strip(),
            smtp_password=env.get("STAMMTISCH_SMTP_PASSWORD", ""),
            smtp_starttls=_parse_bool(env, "STAMMTISCH_SMTP_STARTTLS", False),
            mail_from=env.get("STAMMTISCH_MAIL_FROM", "").strip() or "stammtisch@localhost",
            push_subject=env.get("STAMMTISCH_PUSH_SUBJECT", "").strip() or "mailto:admin@localhost",
            push_hosts=_parse_hosts(env, "STAMMTISCH_PUSH_HOSTS", DEFAULT_PUSH_HOSTS),
        )

    @property
    def clustered(self) -> bool:
        """Whether several processes share the tables (a Redis server is configured)."""
        return bool(self.redis_url)

    @property
    def node(self) -> str:
        """This process's name: ``node_name``, else the host name and the process id."""
        return self.node_name or f"{socket.gethostname()}-{os.getpid()}"


_Number = TypeVar("_Number", int, float)


def _parse_hosts(env: Mapping[str, str], name: str, default: tuple[str, ...]) -> tuple[str, ...]:
    """Host names, comma-separated (``*.domain`` for any host below it), lower-cased.

    >>> _parse_hosts({"H": " 127.0.0.1, *.Push.Example "}, "H", ())
    ('127.0.0.1', '*.push.example')
    >>> _parse_hosts({}, "H", ("a.example",))
    ('a.example',)
    >>> _parse_hosts({"H": "http://x"}, "H", ())  # doctest: +IGNORE_EXCEPTION_DETAIL
    Traceback (most recent call last):
    ...
    server.settings.SettingsError: H: 'http://x' is no host name
    """
    raw = env.get(name, "").strip()
    if not raw:
        return default
    hosts = tuple(item.strip().lower() for item in raw.split(",") if item.strip())
    for host in hosts:
        bare = host.removeprefix("*.")
        if not bare or (any(c in bare for c in "/:@ *") and not _is_ip(bare)):
            raise SettingsError(f"{name}: {host!r} is no host name")
    return hosts


def _is_ip(text: str) -> bool:
    try:
        ipaddress.ip_address(text.strip("[]"))
    except ValueError:
        return False
    return True


def _parse_redis(env: Mapping[str, str], name: str) -> str:
    """A Redis URL (``redis://``, ``rediss://`` or ``unix://``), or empty when unset.

    >>> _parse_redis({"R": " redis://127.0.0.1:6379/0 "}, "R"), _parse_redis({}, "R")
    ('redis://127.0.0.1:6379/0', '')
    >>> _parse_redis({"R": "http://x"}, "R")  # doctest: +IGNORE_EXCEPTION_DETAIL
    Traceback (most recent call last):
    ...
    server.settings.SettingsError: R must be a redis://, rediss:// or unix:// URL, not 'http://x'
    """
    raw = env.get(name, "").strip()
    if raw and urlsplit(raw).scheme not in ("redis", "rediss", "unix"):
        raise SettingsError(f"{name} must be a redis://, rediss:// or unix:// URL, not {raw!r}")
    return raw


def _parse_number(
    env: Mapping[str, str], name: str, kind: type[_Number], default: _Number
) -> _Number:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = kind(raw)
    except ValueError:
        raise SettingsError(f"{name}={raw!r} is not a valid {kind.__name__}") from None
    if value <= 0:
        raise SettingsError(f"{name}={raw!r} must be positive")
    return value


#: The shortest secret accepted (``secrets.token_urlsafe(32)`` has 43 characters).
MIN_SECRET = 32


def _parse_secret(env: Mapping[str, str], name: str) -> str:
    raw = env.get(name, "").strip()
    if raw and len(raw) < MIN_SECRET:
        raise SettingsError(f"{name} has {len(raw)} characters; it needs at least {MIN_SECRET}")
    return raw


_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"0", "false", "no", "off"})


def _parse_bool(env: Mapping[str, str], name: str, default: bool) -> bool:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    if raw.lower() in _TRUE:
        return True
    if raw.lower() in _FALSE:
        return False
    raise SettingsError(f"{name}={raw!r} is not a boolean (use true or false)")


_DEFAULT_PORTS = {"http": 80, "https": 443}
_WILDCARD_HOSTS = frozenset({"", "0.0.0.0", "::", "[::]"})


def normalise_origin(raw: str) -> str:
    """``raw`` as a browser writes it in the ``Origin`` header: ``scheme://host[:port]``
    with the scheme and host lower-cased, an IPv6 host in brackets, a non-ASCII host in
    its ``xn--`` form and the scheme's default port left out. A trailing ``/`` is allowed;
    anything else (a path, a query, a user name, a scheme other than http/https) is
    refused with :class:`SettingsError`."""
    text = raw.strip()
    hint = "write scheme://host[:port], e.g. https://karten.example.org"
    if not text or any(ch.isspace() or ord(ch) < 0x20 or ch == "\\" for ch in text):
        raise SettingsError(f"{raw!r} is not an origin ({hint})")
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError as exc:
        raise SettingsError(f"{raw!r} is not an origin: {exc} ({hint})") from None
    if port == 0:
        raise SettingsError(f"{raw!r} is not an origin: port 0 ({hint})")
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS:
        raise SettingsError(f"{raw!r} is not an origin: the scheme must be http or https ({hint})")
    if parts.username is not None or parts.password is not None:
        raise SettingsError(f"{raw!r} is not an origin: no user name or password ({hint})")
    if parts.path not in ("", "/") or parts.query or parts.fragment or text.endswith(("?", "#")):
        raise SettingsError(f"{raw!r} is not an origin: no path, query or fragment ({hint})")
    host = (parts.hostname or "").rstrip(".")
    if not host or host == "*":
        raise SettingsError(f"{raw!r} is not an origin: the host is missing ({hint})")
    if not host.isascii():
        try:
            host = host.encode("idna").decode("ascii")
        except UnicodeError:
            raise SettingsError(f"{raw!r} is not an origin: bad host name ({hint})") from None
    return _origin(scheme, host.lower(), port)


def _origin(scheme: str, host: str, port: int | None) -> str:
    """``scheme://host[:port]`` (IPv6 hosts in brackets, the default port left out)."""
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    if port is None or port == _DEFAULT_PORTS[scheme]:
        return f"{scheme}://{host}"
    return f"{scheme}://{host}:{port}"


def _is_loopback(host: str) -> bool:
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def default_origins(host: str, port: int) -> tuple[str, ...]:
    """The origins a browser on this machine uses for a server listening on ``host`` and
    ``port`` over plain HTTP: the address itself and, for a loopback or wildcard address,
    ``localhost`` and ``127.0.0.1`` (an address such as ``0.0.0.0`` is never one a browser
    shows; reaching the server from other machines needs ``STAMMTISCH_PUBLIC_ORIGINS``)."""
    host = host.strip()
    names: list[str] = []
    if host not in _WILDCARD_HOSTS:
        names.append(host.strip("[]").lower())
    if host in _WILDCARD_HOSTS or _is_loopback(host):
        names += ["127.0.0.1", "localhost"]
    return tuple(dict.fromkeys(_origin("http", name, port) for name in names))


def _parse_origins(env: Mapping[str, str], name: str) -> tuple[str, ...]:
    raw = env.get(name, "")
    items: Iterable[str] = (item for item in raw.split(",") if item.strip())
    try:
        return tuple(normalise_origin(item) for item in items)
    except SettingsError as exc:
        raise SettingsError(f"{name}: {exc}") from None


def get_settings() -> Settings:
    """Return the settings of this process, read from the environment."""
    return Settings.from_env()
