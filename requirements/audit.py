"""The dependency audit of the lock files (`make audit`; CI runs it).

    python requirements/audit.py LOCK [LOCK ...]

Every pin of the lock files is checked for known vulnerabilities, and the audit fails (exit
status 1) on any, naming the advisory and the releases that fix it: then upgrade the pin
(`make lock UPGRADE=<name>`). It fails too on a pin that could not be audited at all, as
`pip-audit --strict` does.

pip-audit does the work: `pip-audit -r LOCK --require-hashes --disable-pip` reads the pins
(no resolution, nothing installed) and asks PyPI for each release's advisories. Where PyPI's
per-release JSON documents do not answer (some mirrors and proxies serve only the
per-project ones), pip-audit skips the pin; such a pin, and one whose environment marker
keeps it out of pip-audit's view (a Windows-only package), is checked here against PyPI's
per-project document, whose advisories are those of the project's newest release. A pin
that is the newest release is audited exactly that way. An older pin is only checked
against the advisories still open in the newest release; the summary lists those pins, as
an advisory fixed since their release would not be seen (`make lock UPGRADE=1` moves every
pin to the newest release).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from packaging.version import Version

PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^ ;\\]+)", re.MULTILINE)
PROJECT_JSON = "https://pypi.org/pypi/{name}/json"


def canonical(name: str) -> str:
    """The PEP 503 form of a distribution name."""
    return re.sub(r"[-_.]+", "-", name).lower()


def pins(locks: list[Path]) -> dict[str, str]:
    """Every pin of the lock files: canonical name to version."""
    found: dict[str, str] = {}
    for lock in locks:
        for match in PIN.finditer(lock.read_text()):
            found[canonical(match.group(1))] = match.group(2)
    return found


def run_pip_audit(locks: list[Path]) -> list[dict[str, Any]]:
    """pip-audit's report on the lock files: one entry per pin, with vulns or a skip_reason."""
    with tempfile.TemporaryDirectory() as folder:
        report = Path(folder) / "pip-audit.json"
        command = [sys.executable, "-m", "pip_audit", "--require-hashes", "--disable-pip"]
        for lock in locks:
            command += ["-r", str(lock)]
        command += ["--progress-spinner", "off", "--format", "json", "--output", str(report)]
        # Exit status 1 means "vulnerabilities found"; the report tells which.
        # Its own summary would count the skipped pins as clean: shown only when it fails.
        result = subprocess.run(command, check=False, capture_output=True, text=True)
        if not report.exists():
            print(result.stdout + result.stderr, file=sys.stderr)
            raise SystemExit(f"pip-audit failed (exit status {result.returncode})")
        dependencies: list[dict[str, Any]] = json.loads(report.read_text())["dependencies"]
        return dependencies


def project_advisories(name: str, version: str) -> tuple[list[dict[str, Any]], str]:
    """The open advisories of the project's newest release, and that release's version."""
    with urllib.request.urlopen(PROJECT_JSON.format(name=name), timeout=60) as response:
        document = json.load(response)
    newest = document["info"]["version"]
    open_ = [v for v in document.get("vulnerabilities") or [] if not v.get("withdrawn")]
    if Version(version) > Version(newest):
        raise ValueError(f"{name} {version} is newer than PyPI's newest release {newest}")
    return open_, newest


def fetch(name: str, version: str) -> tuple[list[dict[str, Any]], str] | str:
    """project_advisories(), or why it failed."""
    try:
        return project_advisories(name, version)
    except (OSError, ValueError, KeyError) as error:
        return str(error)


def main() -> int:
    """Audit the lock files; print what was found and how each pin was audited."""
    locks = [Path(arg) for arg in sys.argv[1:]]
    if not locks:
        raise SystemExit(__doc__)
    pinned = pins(locks)
    found: list[str] = []
    by_pip_audit: set[str] = set()
    for entry in run_pip_audit(locks):
        name = canonical(entry["name"])
        if "skip_reason" in entry:
            continue
        by_pip_audit.add(name)
        for vuln in entry.get("vulns", []):
            fixes = ", ".join(vuln.get("fix_versions", [])) or "no fixed release"
            found.append(f"{name} {entry['version']}: {vuln['id']} (fixed in: {fixes})")
    exact: list[str] = []
    older: list[str] = []
    unaudited: list[str] = []
    rest = sorted(set(pinned) - by_pip_audit)
    with ThreadPoolExecutor(max_workers=8) as pool:
        answers = pool.map(lambda name: fetch(name, pinned[name]), rest)
    for name, answer in zip(rest, answers, strict=True):
        version = pinned[name]
        if isinstance(answer, str):
            unaudited.append(f"{name} {version}: {answer}")
            continue
        advisories, newest = answer
        if Version(version) == Version(newest):
            exact.append(f"{name} {version}")
        else:
            older.append(f"{name} {version} (newest: {newest})")
        for vuln in advisories:
            fixes = ", ".join(vuln.get("fixed_in") or []) or "no fixed release"
            found.append(f"{name} {version}: {vuln['id']} (fixed in: {fixes})")
    print(
        f"Audited {len(pinned)} pins of {', '.join(map(str, locks))}: {len(by_pip_audit)} by "
        f"pip-audit per release, {len(exact)} against PyPI's project documents (newest release)"
    )
    if older:
        print(
            f"{len(older)} pins older than the newest release, checked only against the "
            f"advisories still open in it: {', '.join(older)}"
        )
    for line in unaudited:
        print(f"NOT AUDITED: {line}")
    for line in found:
        print(f"VULNERABLE: {line}")
    if found or unaudited:
        return 1
    print("No known vulnerabilities found.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
