"""Keep .venv to the lock files after `pip install --require-hashes -r <lock>` (Makefile).

    python requirements/sync.py [--extra dev] LOCK [LOCK ...]

pip installs what a lock names but never removes what it no longer names; this removes
every installed distribution that none of the given lock files names (except pip and the
project itself), so that a package dropped from the lock does not linger in an old .venv
and hide a missing dependency. Then it checks that the installed versions meet the
project's own requirements in pyproject.toml (with the extra, if given): a lock that was
not compiled again after pyproject.toml changed fails here, with `make lock` as the cure.

Standard library only (and pip's own packaging), as `make run` installs no test tools.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from importlib import metadata
from pathlib import Path

from pip._vendor.packaging.requirements import Requirement

PROJECT = "stammtisch"
KEEP = {"pip", PROJECT}
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==", re.MULTILINE)


def canonical(name: str) -> str:
    """The PEP 503 form of a distribution name."""
    return re.sub(r"[-_.]+", "-", name).lower()


def locked_names(locks: list[Path]) -> set[str]:
    """Every distribution pinned in the lock files."""
    return {canonical(m.group(1)) for lock in locks for m in PIN.finditer(lock.read_text())}


def installed() -> dict[str, str]:
    """Installed distributions of this interpreter: canonical name to version."""
    found = {}
    for dist in metadata.distributions():
        name = dist.metadata["Name"]
        if name:
            found[canonical(name)] = dist.version
    return found


def remove_unlocked(locks: list[Path]) -> None:
    """Uninstall what no lock file names any longer."""
    stale = sorted(set(installed()) - locked_names(locks) - KEEP)
    if stale:
        print(f"Removing packages that {', '.join(map(str, locks))} no longer name: {stale}")
        subprocess.run([sys.executable, "-m", "pip", "uninstall", "-y", *stale], check=True)


def unmet_requirements(extra: str) -> list[str]:
    """The project's requirements that the installed versions do not meet."""
    versions = installed()
    unmet = []
    for line in metadata.requires(PROJECT) or []:
        requirement = Requirement(line)
        if requirement.marker and not requirement.marker.evaluate({"extra": extra}):
            continue
        version = versions.get(canonical(requirement.name))
        if version is None or not requirement.specifier.contains(version, prereleases=True):
            unmet.append(f"{requirement} (installed: {version or 'nothing'})")
    return unmet


def main() -> int:
    """Remove unlocked packages, then check the project's requirements."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--extra", default="", help="also check this extra's requirements")
    parser.add_argument("locks", nargs="+", type=Path)
    args = parser.parse_args()
    remove_unlocked(args.locks)
    unmet = unmet_requirements(args.extra)
    if unmet:
        print("The lock files do not meet pyproject.toml's requirements; run `make lock`:")
        for line in unmet:
            print(f"  {line}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
