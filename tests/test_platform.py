"""The platform around the pages: the favicon and the web app manifest (served with their
media types and the security headers, linked from every page), and the install targets
(`make run` installs only what the server needs, `make test` the test tools too).
"""

from __future__ import annotations

import re
import shutil
import struct
import subprocess
import tomllib
from typing import Any

import httpx
import pytest

from tests.conftest import Person
from tests.support import REPO_ROOT, LiveServer
from tests.test_security_http import assert_security_headers, csp_of

pytestmark = pytest.mark.live_server

TEST_TOOLS = ("pytest", "mypy", "ruff", "playwright")
MANIFEST = "/static/manifest.webmanifest"
FAVICON = "/static/favicon.svg"


def css_variable(name: str) -> str:
    """The light-scheme value of a custom property in stammtisch.css (the first `:root`)."""
    css = (REPO_ROOT / "web" / "static" / "stammtisch.css").read_text()
    match = re.search(rf"{re.escape(name)}:\s*(#[0-9a-fA-F]{{3,8}});", css)
    assert match is not None, name
    return match.group(1)


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_the_manifest_names_the_app_and_its_icons(module_server: LiveServer) -> None:
    client = httpx.Client(base_url=module_server.base_url, timeout=15)
    with client:
        response = client.get(MANIFEST)
        assert response.status_code == 200
        assert response.headers["content-type"] == "application/manifest+json"
        assert_security_headers(response, csp_of(module_server.base_url))
        manifest: dict[str, Any] = response.json()
        assert manifest["name"] == "Stammtisch"
        assert manifest["short_name"] == "Stammtisch"
        assert manifest["start_url"] == "/"
        assert manifest["display"] == "standalone"
        assert manifest["theme_color"] == css_variable("--accent")
        assert manifest["background_color"] == css_variable("--bg")
        sizes = set()
        for icon in manifest["icons"]:
            served = client.get(icon["src"])
            assert served.status_code == 200, icon
            assert served.headers["content-type"] == icon["type"], icon
            assert_security_headers(served, csp_of(module_server.base_url))
            if icon["type"] == "image/png":
                width, height = png_size(served.content)
                assert icon["sizes"] == f"{width}x{height}"
                sizes.add(width)
            else:
                assert icon["sizes"] == "any"
                assert served.content.lstrip().startswith(b"<svg")
        # What Android asks of an app for the home screen: 192 and 512 pixels.
        assert {192, 512} <= sizes


def test_the_favicon_is_an_svg_with_the_security_headers(module_server: LiveServer) -> None:
    response = httpx.get(module_server.base_url + FAVICON, timeout=15)
    assert response.status_code == 200
    assert response.headers["content-type"] == "image/svg+xml"
    assert response.headers["x-content-type-options"] == "nosniff"
    assert_security_headers(response, csp_of(module_server.base_url))
    assert b"<script" not in response.content


@pytest.mark.parametrize("path", ["/", "/rooms/new", "/rooms/999999", "/archive", "/account"])
def test_every_page_links_the_icon_and_the_manifest(person: Person, path: str) -> None:
    html = person().get(path).text
    assert f'<link rel="manifest" href="{MANIFEST}">' in html
    assert f'<link rel="icon" href="{FAVICON}" type="image/svg+xml">' in html
    assert '<link rel="apple-touch-icon" href="/static/apple-touch-icon.png">' in html
    theme = css_variable("--accent")
    assert f'<meta name="theme-color" content="{theme}" media="(prefers-color-scheme: light)">' in (
        html
    )


# --------------------------------------------------------------------------- install targets


def pyproject() -> dict[str, Any]:
    with (REPO_ROOT / "pyproject.toml").open("rb") as file:
        return tomllib.load(file)


def requirement_names(requirements: list[str]) -> set[str]:
    return {re.split(r"[\[<>=~! ;]", r, maxsplit=1)[0].lower() for r in requirements}


def test_the_server_needs_no_test_tools_and_the_dev_extra_has_them() -> None:
    project = pyproject()["project"]
    runtime = requirement_names(project["dependencies"])
    dev = requirement_names(project["optional-dependencies"]["dev"])
    assert not runtime & set(TEST_TOOLS)
    assert set(TEST_TOOLS) <= dev


def make_commands(target: str) -> list[str]:
    """The commands `make <target>` runs in a fresh clone (`make -n -B`: print, do nothing,
    as if no stamp or virtual environment existed yet)."""
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    result = subprocess.run(
        ["make", "-n", "-B", target],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return result.stdout.splitlines()


def pip_installs(commands: list[str]) -> list[str]:
    return [c for c in commands if "pip install" in c]


def test_make_run_installs_only_what_the_server_needs() -> None:
    installs = pip_installs(make_commands("run"))
    assert any(
        c.endswith("pip install --require-hashes -r requirements/runtime.lock") for c in installs
    ), installs
    for command in installs:
        assert "dev.lock" not in command and "[dev]" not in command, command
        assert "--require-hashes" in command or "--no-deps" in command, command


@pytest.mark.parametrize("target", ["test", "lint", "typecheck", "pytest", "bench"])
def test_the_testing_targets_install_the_test_tools(target: str) -> None:
    installs = pip_installs(make_commands(target))
    assert any(
        c.endswith("pip install --require-hashes -r requirements/dev.lock") for c in installs
    ), installs
    for command in installs:
        assert "--require-hashes" in command or "--no-deps" in command, command
