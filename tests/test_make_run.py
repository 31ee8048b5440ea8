"""`make run`'s address: `PORT=8080 make run` serves where `make run PORT=8080` does (the
environment counts as well as the command line), and a HOST that a shell exports as the
machine's own name is not taken for the address. Checked on the command `make -n run`
would run (nothing is started)."""

from __future__ import annotations

import os
import platform
import shutil
import subprocess

import pytest

from tests.support import REPO_ROOT


def serve_command(args: list[str], env: dict[str, str]) -> str:
    """The server's command line of `make -n run <args>` in an environment of ``env``
    (without any HOST or PORT of the test's own environment)."""
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    base = {k: v for k, v in os.environ.items() if k not in ("HOST", "PORT", "MAKEFLAGS")}
    result = subprocess.run(
        ["make", "-n", "run", *args],
        cwd=REPO_ROOT,
        env={**base, **env},
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    lines = [line for line in result.stdout.splitlines() if " -m server " in line]
    assert len(lines) == 1, result.stdout
    return lines[0].split(" -m server ", 1)[1]


@pytest.mark.parametrize(
    ("args", "env", "expected"),
    [
        ([], {}, "--host 127.0.0.1 --port 8000"),
        (["PORT=8201"], {}, "--host 127.0.0.1 --port 8201"),
        ([], {"PORT": "8201"}, "--host 127.0.0.1 --port 8201"),
        ([], {"PORT": "8080", "HOST": "0.0.0.0"}, "--host 0.0.0.0 --port 8080"),
        (["HOST=0.0.0.0", "PORT=8080"], {}, "--host 0.0.0.0 --port 8080"),
        # the command line wins over the environment
        (["PORT=8300"], {"PORT": "8201"}, "--host 127.0.0.1 --port 8300"),
    ],
)
def test_the_port_and_host_from_the_command_line_or_the_environment(
    args: list[str], env: dict[str, str], expected: str
) -> None:
    assert serve_command(args, env) == expected


def test_a_host_exported_as_the_machines_name_is_not_the_address() -> None:
    name = platform.node()
    assert name, "the machine has a name"
    assert serve_command([], {"HOST": name}) == "--host 127.0.0.1 --port 8000"
    # given on the command line, it is meant
    assert serve_command([f"HOST={name}"], {"HOST": name}) == f"--host {name} --port 8000"
