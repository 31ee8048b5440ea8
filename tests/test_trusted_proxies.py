"""A client's own ``X-Forwarded-For`` counts only when it comes through a trusted proxy.

The per-client login limits (``server/api/throttle.py``) count ``scope["client"]``, which
uvicorn takes from ``X-Forwarded-For`` only for a peer in ``FORWARDED_ALLOW_IPS``. With
``FORWARDED_ALLOW_IPS=*`` (the compose file's old default) a client chose a new address
for every guess: 40 wrong passwords for one name got no 429.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from tests.support import REPO_ROOT, server_process, sqlite_url, upgrade

pytestmark = pytest.mark.live_server

PASSWORD = "Zwetschgendatschi-sauer"
#: More wrong passwords than the lockout allows for one name from one client (10).
ATTEMPTS = 12


@contextmanager
def server(tmp_path: Path, forwarded_allow_ips: str) -> Iterator[str]:
    """The server (SQLite) trusting ``X-Forwarded-*`` from ``forwarded_allow_ips``."""
    database_url = sqlite_url(tmp_path / "db.sqlite3")
    upgrade(database_url)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("FORWARDED_ALLOW_IPS", forwarded_allow_ips)
        with server_process(database_url, tmp_path / "uvicorn.log") as (url, _process):
            yield url


def register(client: httpx.Client, login: str) -> None:
    body = {"login": login, "password": PASSWORD, "display_name": login.title()}
    response = client.post("/api/register", json=body)
    assert response.status_code == 201, response.text
    client.cookies.clear()


def wrong_logins(client: httpx.Client, login: str, forwarded_for: list[str]) -> list[int]:
    """A wrong password for ``login`` with each ``X-Forwarded-For`` in turn; the statuses."""
    statuses = []
    for value in forwarded_for:
        response = client.post(
            "/api/login",
            json={"login": login, "password": "falsch-falsch-falsch"},
            headers={"X-Forwarded-For": value},
        )
        assert response.status_code in (401, 429), response.text
        statuses.append(response.status_code)
    return statuses


def rotating(count: int, prefix: str = "198.51.100.") -> list[str]:
    return [f"{prefix}{n + 1}" for n in range(count)]


def test_an_untrusted_peer_cannot_choose_its_address(tmp_path: Path) -> None:
    """From a peer that is not the proxy, a new ``X-Forwarded-For`` for every guess does
    not help: the guesses count for the peer, which is locked out."""
    with server(tmp_path, "192.0.2.1") as url, httpx.Client(base_url=url, timeout=30) as client:
        register(client, "anna")
        statuses = wrong_logins(client, "anna", rotating(ATTEMPTS))
        assert 429 in statuses, statuses
        assert statuses.index(429) <= 10


def test_behind_the_trusted_proxy_the_forwarded_address_counts(tmp_path: Path) -> None:
    """From the proxy (here 127.0.0.1, uvicorn's default), the limits count the address
    the proxy forwards: one client is locked out, another one is not; and a proxy that
    appends to the client's header still gives the address it saw (the right-most)."""
    with server(tmp_path, "127.0.0.1") as url, httpx.Client(base_url=url, timeout=30) as client:
        register(client, "bernd")
        statuses = wrong_logins(client, "bernd", ["203.0.113.7"] * ATTEMPTS)
        assert 429 in statuses and statuses.index(429) <= 10, statuses
        assert wrong_logins(client, "bernd", ["203.0.113.8"]) == [401]
        # an appending proxy: "<what the client wrote>, <the address the proxy saw>"
        chain = [f"{address}, 203.0.113.9" for address in rotating(ATTEMPTS)]
        statuses = wrong_logins(client, "bernd", chain)
        assert 429 in statuses and statuses.index(429) <= 10, statuses


# --------------------------------------------------------------------------- configuration

#: ``FORWARDED_ALLOW_IPS`` or ``--forwarded-allow-ips`` set (or defaulted) to ``*``.
WILDCARD = re.compile(
    r"""(FORWARDED_ALLOW_IPS|forwarded[-_]allow[-_]ips)["']?\s*[:=]?\s*["']?(\$\{\w+:-)?\*""",
    re.IGNORECASE,
)


def test_nothing_trusts_every_peer() -> None:
    files = [
        REPO_ROOT / name for name in ("docker-compose.yml", "Dockerfile", "Makefile", "README.md")
    ]
    files += sorted((REPO_ROOT / "docs").glob("*.md"))
    files += sorted((REPO_ROOT / "server").rglob("*.py"))
    found = [f"{path.name}: {m.group(0)}" for path in files
             for m in WILDCARD.finditer(path.read_text())]  # fmt: skip
    assert found == []
    assert WILDCARD.search("FORWARDED_ALLOW_IPS: ${FORWARDED_ALLOW_IPS:-*}")
    assert WILDCARD.search("--forwarded-allow-ips '*'")


def test_compose_trusts_its_load_balancer_and_the_gateway_only() -> None:
    """The app processes trust exactly the load balancer's fixed address and the gateway
    of the services' network (which the compose file fixes; a proxy on the host arrives
    from there through Docker's port publishing), and the load balancer trusts only the
    gateway: from anybody else it replaces ``X-Forwarded-For``."""
    compose = (REPO_ROOT / "docker-compose.yml").read_text()
    networks = compose.split("\nnetworks:\n", 1)[1].split("\n\n", 1)[0]
    subnet = re.search(r"^\s+- subnet: (\S+)$", networks, re.MULTILINE)
    gateway = re.search(r"^\s+gateway: (\S+)$", networks, re.MULTILINE)
    assert subnet and gateway, networks
    assert ipaddress.ip_address(gateway[1]) in ipaddress.ip_network(subnet[1])
    proxy = re.findall(r"^\s+ipv4_address: (\S+)$", compose, re.MULTILINE)
    assert len(proxy) == 1 and ipaddress.ip_address(proxy[0]) in ipaddress.ip_network(subnet[1])
    trusted = re.findall(r"^\s+FORWARDED_ALLOW_IPS: (.*)$", compose, re.MULTILINE)
    assert trusted == [f"{proxy[0]},{gateway[1]}"]  # once, for every app process
    caddyfile = (REPO_ROOT / "deploy" / "Caddyfile").read_text()
    assert re.findall(r"^\s*trusted_proxies (.*)$", caddyfile, re.MULTILINE) == [
        f"static {gateway[1]}"
    ]


def test_the_documented_proxies_overwrite_x_forwarded_for() -> None:
    deploy = (REPO_ROOT / "docs" / "deploy.md").read_text()
    nginx = deploy.split("```nginx", 1)[1].split("```", 1)[0]
    assert "proxy_set_header X-Forwarded-For $remote_addr;" in nginx
    assert "$proxy_add_x_forwarded_for;" not in nginx
    caddy = deploy.split("```caddyfile", 1)[1].split("```", 1)[0]
    assert "reverse_proxy 127.0.0.1:8000" in caddy and "trusted_proxies" not in caddy
