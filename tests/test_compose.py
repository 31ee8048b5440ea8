"""The production compose file (``docker-compose.yml``) and its load balancer
(``deploy/Caddyfile``), read as what they are: PostgreSQL, Redis, one migration run,
two app processes with their readiness checks and a load balancer in front that checks
the same readiness, passes WebSockets on and keeps ``/metrics`` to the internal network.

``docker compose config`` checks the file against the Compose specification where Docker
is at hand; this test checks what the deployment relies on, everywhere.
"""

from __future__ import annotations

import ipaddress
import re
from typing import Any

import pytest
import yaml  # type: ignore[import-untyped]

from tests.support import REPO_ROOT

COMPOSE = REPO_ROOT / "docker-compose.yml"
CADDYFILE = REPO_ROOT / "deploy" / "Caddyfile"
APPS = ("app1", "app2")


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load(COMPOSE.read_text())
    return loaded


@pytest.fixture(scope="module")
def caddyfile() -> str:
    """The Caddyfile without its comments."""
    return re.sub(r"(?m)^\s*#.*\n", "", CADDYFILE.read_text())


def services(compose: dict[str, Any]) -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = compose["services"]
    return found


def healthcheck(service: dict[str, Any]) -> str:
    return " ".join(service["healthcheck"]["test"])


def network(compose: dict[str, Any]) -> dict[str, str]:
    config: dict[str, str] = compose["networks"]["default"]["ipam"]["config"][0]
    return config


def test_the_services(compose: dict[str, Any]) -> None:
    assert set(services(compose)) == {"db", "redis", "migrate", *APPS, "proxy"}
    for name, service in services(compose).items():
        assert "healthcheck" in service or name == "migrate", name
        assert service["restart"] == ("no" if name == "migrate" else "unless-stopped"), name


def test_redis_is_checked_with_a_ping(compose: dict[str, Any]) -> None:
    redis = services(compose)["redis"]
    assert redis["image"].split(":")[0] == "redis"
    assert healthcheck(redis) == "CMD redis-cli ping"
    assert "ports" not in redis  # the internal network only


def test_the_apps_reach_postgres_and_redis_and_check_their_readiness(
    compose: dict[str, Any],
) -> None:
    all_services = services(compose)
    apps = [all_services[name] for name in APPS]
    names = [app["environment"]["STAMMTISCH_NODE_NAME"] for app in apps]
    assert names == list(APPS)  # each its own name, in logs and metrics
    for app in apps:
        env = app["environment"]
        assert env["DATABASE_URL"].startswith("postgresql+asyncpg://stammtisch:")
        assert env["DATABASE_URL"].endswith("@db:5432/stammtisch")
        assert env["STAMMTISCH_REDIS_URL"] == "redis://redis:6379/0"
        for required in ("STAMMTISCH_PUBLIC_ORIGINS", "STAMMTISCH_SECRET_KEY"):
            assert env[required].startswith(f"${{{required}:?"), required
        assert "/healthz" in healthcheck(app)  # readiness: database and Redis
        assert app["depends_on"] == {
            "db": {"condition": "service_healthy"},
            "redis": {"condition": "service_healthy"},
            "migrate": {"condition": "service_completed_successfully"},
        }
        assert "command" not in app  # the image's server, never a migration
        assert "ports" not in app  # reached through the load balancer only
        assert app["image"] == all_services["migrate"]["image"]
    # everything but the name the same: one secret, one database, one Redis
    first, second = (dict(app["environment"]) for app in apps)
    first.pop("STAMMTISCH_NODE_NAME")
    second.pop("STAMMTISCH_NODE_NAME")
    assert first == second


def test_migrations_run_once_before_the_apps(compose: dict[str, Any]) -> None:
    migrate = services(compose)["migrate"]
    assert migrate["command"] == ["alembic", "upgrade", "head"]
    assert migrate["restart"] == "no"
    assert migrate["depends_on"] == {"db": {"condition": "service_healthy"}}
    running = [name for name, service in services(compose).items()
               if "alembic" in str(service.get("command", ""))]  # fmt: skip
    assert running == ["migrate"]


def test_the_load_balancer_in_front(compose: dict[str, Any]) -> None:
    proxy = services(compose)["proxy"]
    assert proxy["image"].split(":")[0] == "caddy"
    assert proxy["volumes"] == ["./deploy/Caddyfile:/etc/caddy/Caddyfile:ro"]
    assert proxy["ports"] == ["${STAMMTISCH_BIND:-127.0.0.1}:${STAMMTISCH_PORT:-8000}:8000"]
    published = [name for name, service in services(compose).items() if "ports" in service]
    assert published == ["proxy"]
    assert set(proxy["depends_on"]) == set(APPS)
    assert "/healthz" in healthcheck(proxy)


def test_the_addresses_fit_together(compose: dict[str, Any], caddyfile: str) -> None:
    """The load balancer's fixed address lies in the subnet but outside the range Docker
    hands out; the apps trust it and the gateway; it trusts the gateway."""
    config = network(compose)
    subnet = ipaddress.ip_network(config["subnet"])
    gateway = ipaddress.ip_address(config["gateway"])
    dynamic = ipaddress.ip_network(config["ip_range"])
    proxy = ipaddress.ip_address(services(compose)["proxy"]["networks"]["default"]["ipv4_address"])
    assert gateway in subnet and proxy in subnet and dynamic.subnet_of(subnet)  # type: ignore[arg-type]
    assert proxy not in dynamic and gateway not in dynamic
    for name in APPS:
        trusted = services(compose)[name]["environment"]["FORWARDED_ALLOW_IPS"].split(",")
        assert trusted == [str(proxy), str(gateway)]
    assert re.findall(r"trusted_proxies (.*)", caddyfile) == [f"static {gateway}"]


def test_the_caddyfile_balances_over_the_apps(caddyfile: str) -> None:
    upstreams = re.findall(r"^\s*reverse_proxy (.*) \{$", caddyfile, re.MULTILINE)
    assert upstreams == [" ".join(f"{name}:8000" for name in APPS)]
    block = caddyfile.split("reverse_proxy", 1)[1]
    assert re.search(r"^\s*health_uri /healthz$", block, re.MULTILINE)  # active: readiness
    assert re.search(r"^\s*max_fails \d+$", block, re.MULTILINE)  # passive
    assert re.search(r"^\s*lb_policy least_conn$", block, re.MULTILINE)
    # nothing that would cut the table sockets off or pin them to a process
    for word in ("stream_timeout", "read_timeout", "cookie", "ip_hash", "header_up"):
        assert word not in block, word


def test_metrics_are_not_served_through_the_load_balancer(caddyfile: str) -> None:
    matcher = re.search(r"^\s*@metrics path (.*)$", caddyfile, re.MULTILINE)
    assert matcher and matcher[1].split() == ["/metrics", "/metrics/*"]
    assert re.search(r"^\s*respond @metrics 404$", caddyfile, re.MULTILINE)
    # before the proxying: Caddy sorts respond ahead of reverse_proxy anyway
    assert caddyfile.index("respond @metrics") < caddyfile.index("reverse_proxy")
