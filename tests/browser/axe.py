"""axe-core for the browser tests: fetched from the npm registry at test time, checked, run.

The script is not part of the repository: :func:`axe_source` downloads the package of the
pinned :data:`AXE_VERSION` once from the npm registry into a cache folder outside the
repository (``~/.cache/stammtisch/axe-core-<version>/axe.min.js``, or under
``STAMMTISCH_CACHE_DIR``) and checks the tarball against the sha512 integrity that the
registry's metadata publishes for that version, which must also be the pinned
:data:`AXE_INTEGRITY` (a changed package under an old version number is refused). Without
the network the tests that need it are skipped with the reason, except under
``STAMMTISCH_REQUIRE_BROWSER`` (CI), where they fail.

:func:`run_axe` evaluates the script in a page (through the DevTools protocol, which the
pages' Content-Security-Policy does not stop) and returns its violations;
:func:`serious` keeps those of impact "serious" or "critical" and :func:`describe` turns
them into lines that name the rule, the element and axe's help text.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import os
import tarfile
import urllib.request
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

AXE_VERSION = "4.14.1"
#: The registry's ``dist.integrity`` of :data:`AXE_VERSION` (Subresource Integrity form).
AXE_INTEGRITY = (
    "sha512-"
    "FHfa+lmNjQZfJz1q8wKqIDwC6DExcHt/pkjNQb09a3NPjCKg2rhu5qb2S4r76ASyFNNtuFooJpZe37OgudVGtQ=="
)
REGISTRY = "https://registry.npmjs.org"
#: The impacts that fail a page (axe also reports "minor" and "moderate").
FAILING_IMPACTS = frozenset({"serious", "critical"})
#: The file in the package's tarball.
MEMBER = "package/axe.min.js"


class AxeUnavailableError(RuntimeError):
    """axe-core could not be fetched or did not pass the integrity check."""


def cache_dir() -> Path:
    """Where the checked script is kept (outside the repository)."""
    root = os.environ.get("STAMMTISCH_CACHE_DIR")
    base = Path(root) if root else Path.home() / ".cache" / "stammtisch"
    return base / f"axe-core-{AXE_VERSION}"


def check_integrity(data: bytes, integrity: str) -> None:
    """Raise unless ``data`` has the sha512 digest named by ``integrity`` (``sha512-<b64>``)."""
    algorithm, _, expected = integrity.partition("-")
    if algorithm != "sha512":
        raise AxeUnavailableError(f"unexpected integrity algorithm {algorithm!r}")
    actual = base64.b64encode(hashlib.sha512(data).digest()).decode("ascii")
    if actual != expected:
        raise AxeUnavailableError(
            f"axe-core {AXE_VERSION}: the tarball's sha512 {actual} is not {expected}"
        )


def _get(url: str) -> bytes:
    request = urllib.request.Request(url, headers={"Accept": "application/json, */*"})
    with urllib.request.urlopen(request, timeout=30) as response:
        data: bytes = response.read()
    return data


def download() -> bytes:
    """Fetch the pinned package from the registry, check it, return ``axe.min.js``."""
    try:
        metadata: dict[str, Any] = json.loads(_get(f"{REGISTRY}/axe-core/{AXE_VERSION}"))
        dist = metadata["dist"]
        if dist["integrity"] != AXE_INTEGRITY:
            raise AxeUnavailableError(
                f"the registry's integrity of axe-core {AXE_VERSION} is {dist['integrity']}, "
                f"not the pinned {AXE_INTEGRITY}"
            )
        tarball = _get(dist["tarball"])
    except (OSError, ValueError, KeyError) as exc:
        raise AxeUnavailableError(
            f"axe-core {AXE_VERSION} could not be fetched from {REGISTRY}: {exc}"
        ) from exc
    check_integrity(tarball, AXE_INTEGRITY)
    with tarfile.open(fileobj=io.BytesIO(tarball), mode="r:gz") as archive:
        member = archive.extractfile(MEMBER)
        if member is None:
            raise AxeUnavailableError(f"{MEMBER} is missing from the axe-core package")
        return member.read()


def fetch_axe() -> Path:
    """The path of the checked ``axe.min.js``, downloaded on first use."""
    target = cache_dir() / "axe.min.js"
    if target.is_file():
        return target
    script = download()
    target.parent.mkdir(parents=True, exist_ok=True)
    # Written under a name of this process first: never a half-written file under the final
    # name, also when two test runs fetch at once.
    partial = target.with_name(f"{target.name}.{os.getpid()}.part")
    partial.write_bytes(script)
    partial.replace(target)
    return target


@cache
def axe_source() -> str:
    """The script's text; skips the test without the network (fails it in CI)."""
    try:
        return fetch_axe().read_text(encoding="utf-8")
    except AxeUnavailableError as exc:
        if os.environ.get("STAMMTISCH_REQUIRE_BROWSER"):
            pytest.fail(str(exc))
        pytest.skip(str(exc))


def run_axe(page: Page) -> list[dict[str, Any]]:
    """Run axe-core on ``page`` as it is now (WCAG 2.x A and AA and best practices) and
    return its violations."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        # Evaluated through the DevTools protocol: a <script> tag would be refused by the
        # page's Content-Security-Policy (script-src 'self'), which stays as it is.
        page.evaluate(axe_source() + "\n;undefined")
    result: dict[str, Any] = page.evaluate(
        """async () => await window.axe.run(document, {
            resultTypes: ["violations"],
            runOnly: {type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa",
                                             "wcag22aa", "best-practice"]},
        })"""
    )
    violations: list[dict[str, Any]] = result["violations"]
    return violations


def serious(violations: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The violations of impact "serious" or "critical"."""
    return [v for v in violations if v.get("impact") in FAILING_IMPACTS]


def describe(violations: list[dict[str, Any]]) -> list[str]:
    """One line per violating element: rule id, impact, the element's selector, axe's help."""
    lines = []
    for violation in violations:
        for node in violation["nodes"]:
            target = " ".join(str(t) for t in node.get("target", []))
            lines.append(
                f"{violation['id']} ({violation['impact']}) at {target}: {violation['help']}"
            )
    return lines


def rule_ids(violations: list[dict[str, Any]]) -> set[str]:
    """The ids of the rules violated."""
    return {v["id"] for v in violations}
