"""Every doctest of the server's modules outside the engine and the computer players (which
tests/engine/test_doctests.py runs): the runtime's, the store's, the API's, the
notifications' and the small modules beside them. Worked examples in docstrings are tests."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from types import ModuleType

import pytest

import server

#: Covered by tests/engine/test_doctests.py.
ELSEWHERE = ("server.engine", "server.bots")


def _modules() -> list[str]:
    names = (info.name for info in pkgutil.walk_packages(server.__path__, prefix="server."))
    return sorted(name for name in names if not name.startswith(ELSEWHERE))


def test_the_server_has_doctests() -> None:
    finder = doctest.DocTestFinder()
    counted = sum(
        len(test.examples)
        for name in _modules()
        for test in finder.find(importlib.import_module(name))
    )
    assert counted > 20


@pytest.mark.parametrize("name", _modules())
def test_doctests(name: str) -> None:
    module: ModuleType = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, name
