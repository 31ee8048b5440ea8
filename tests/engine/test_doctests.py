"""Every doctest of the engine and of the computer players runs: the worked examples in
their docstrings are tests."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from types import ModuleType

import pytest

import server.bots
import server.engine


def _engine_modules() -> list[str]:
    return sorted(
        info.name for info in pkgutil.walk_packages(server.engine.__path__, prefix="server.engine.")
    )


def _modules() -> list[str]:
    """The engine's modules and the computer players'."""
    bots = pkgutil.walk_packages(server.bots.__path__, prefix="server.bots.")
    return _engine_modules() + sorted(info.name for info in bots)


def test_the_engine_has_doctests() -> None:
    counted = 0
    for name in _engine_modules():
        finder = doctest.DocTestFinder()
        counted += sum(len(t.examples) for t in finder.find(importlib.import_module(name)))
    assert counted > 100


@pytest.mark.parametrize("name", _modules())
def test_doctests(name: str) -> None:
    module: ModuleType = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, name
