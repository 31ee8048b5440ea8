"""The engine is pure: standard library only, importable with site-packages disabled."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "server" / "engine"


def test_engine_imports_without_site_packages() -> None:
    code = (
        "import sys, server.engine.registry as r, server.engine.record, server.engine.playout;"
        "r.get_rules('dreierles');"
        "assert not any('site-packages' in p for p in sys.path), sys.path;"
        "print('ok')"
    )
    result = subprocess.run(
        [sys.executable, "-S", "-c", code], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


def test_engine_imports_only_the_standard_library_and_itself() -> None:
    allowed = set(sys.stdlib_module_names) | {"server"}
    for path in ENGINE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                assert top in allowed, f"{path.relative_to(ROOT)} imports {name}"
                if top == "server":
                    assert name.startswith("server.engine"), f"{path} reaches {name}"


def test_engine_uses_no_clock_and_no_unseeded_randomness() -> None:
    for path in ENGINE.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for forbidden in (
            "time.time(",
            "datetime.now",
            "random.random(",
            "random.shuffle(",
            "random.choice(",
        ):
            assert forbidden not in text, f"{path.name} uses {forbidden}"
        assert "import time" not in text, path.name
