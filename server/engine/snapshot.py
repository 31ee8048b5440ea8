"""Taking a deal back to an earlier position: :func:`take` a snapshot, :func:`restore` it.

A deal cannot take a move back by its rules (except a card of the open trick, where the
room allows it). A search that tries every line from a position needs exactly that: try a
line, then stand where it stood before. A copy replayed from the cards and the history does
it too, at the cost of replaying every action; a snapshot restores the state itself.

The snapshot is generic: it walks the deal's state (its instance attributes and slots) and
every object of that state that changes in place — lists, dicts, sets and the engine's own
mutable objects (the trick core, the auction, the doubling chains) — and remembers each
one's contents. :func:`restore` puts the contents back **into the same objects** and the
same objects back into their attributes, so that whatever holds on to them (a hook of the
trick core bound to the deal, a closure over its lists) sees the restored state; objects
made after the snapshot are dropped. Values that never change in place are shared: numbers,
strings, tuples, frozen dataclasses (contracts, trick rules, ladders, the cards dealt),
enums, functions and bound methods, and objects whose class says it is shared between
deals (``snapshot_shared``: the rules). A value of any other kind is refused
(``TypeError``): a new kind of state must be named here, never silently shared.

A snapshot belongs to the position it was taken at: restore it only to the deal it was
taken of, after moves made on that deal (``tests/engine/test_snapshot.py`` plays random
lines of every game from random positions, restores, and compares every seat's view, the
legal moves and the outcome of a continuation with a copy replayed from the history).

>>> import random
>>> from server.engine.registry import get_rules
>>> rules = get_rules("dreierles")
>>> deal = rules.new_deal(rules.shuffle_and_deal(random.Random(3)))
>>> before = take(deal)
>>> view = deal.view(0)
>>> deal.act(None, deal.legal_texts()[0]) is not None
True
>>> restore(before)
>>> deal.view(0) == view and deal.history == []
True
"""

from __future__ import annotations

import dataclasses
import enum
import types
from typing import Any

__all__ = ["Snapshot", "restore", "take"]

_MISSING: Any = object()

#: Values that never change in place: shared by a snapshot, never walked.
_ATOMIC: frozenset[type] = frozenset(
    {
        int,
        float,
        str,
        bool,
        type(None),
        bytes,
        tuple,
        frozenset,
        range,
        types.FunctionType,
        types.BuiltinFunctionType,
        types.MethodType,
        type,
    }
)
#: Per class: ``None`` (shared) or the names of its slots (walked).
_KINDS: dict[type, tuple[str, ...] | None] = {}


def _kind(cls: type) -> tuple[str, ...] | None:
    """How a value of ``cls`` is treated: ``None`` shared, else its slots' names (walked,
    with its ``__dict__``); ``TypeError`` for a kind of value this module does not know."""
    known = _KINDS.get(cls, _MISSING)
    if known is not _MISSING:
        return known  # type: ignore[no-any-return]
    kind: tuple[str, ...] | None
    if (
        issubclass(cls, enum.Enum)
        or getattr(cls, "snapshot_shared", False)
        or (dataclasses.is_dataclass(cls) and cls.__dataclass_params__.frozen)  # type: ignore[attr-defined]
    ):
        kind = None
    elif cls.__module__.startswith("server.engine"):
        names: list[str] = []
        for klass in cls.__mro__:
            for name in klass.__dict__.get("__slots__", ()):
                if name not in ("__dict__", "__weakref__") and name not in names:
                    names.append(name)
        kind = tuple(names)
    else:
        raise TypeError(f"a deal's state holds a {cls.__qualname__}, which a snapshot cannot keep")
    _KINDS[cls] = kind
    return kind


class Snapshot:
    """The state of a deal at one position (see the module text)."""

    __slots__ = ("_containers", "_objects")

    def __init__(self) -> None:
        #: (list, dict or set, its contents)
        self._containers: list[tuple[Any, Any]] = []
        #: (object, its slots' values, a copy of its ``__dict__`` or None)
        self._objects: list[tuple[Any, list[tuple[str, Any]], dict[str, Any] | None]] = []


def take(deal: object) -> Snapshot:
    """A snapshot of ``deal``'s state now."""
    snapshot = Snapshot()
    containers = snapshot._containers
    objects = snapshot._objects
    seen: set[int] = set()
    atomic = _ATOMIC

    def value(item: Any) -> None:
        cls = type(item)
        if cls in atomic:
            return
        if cls is list or cls is dict:
            if id(item) not in seen:
                seen.add(id(item))
                containers.append((item, item.copy()))
                for element in item if cls is list else item.values():
                    if type(element) not in atomic:
                        value(element)
        elif cls is set:
            if id(item) not in seen:
                seen.add(id(item))
                containers.append((item, item.copy()))
        elif _kind(cls) is not None:
            state(item)

    def state(item: Any) -> None:
        if id(item) in seen:
            return
        seen.add(id(item))
        slots = []
        for name in _kind(type(item)) or ():
            slot = getattr(item, name, _MISSING)
            slots.append((name, slot))
            if slot is not _MISSING and type(slot) not in atomic:
                value(slot)
        attributes = getattr(item, "__dict__", None)
        copied = None
        if attributes is not None:
            copied = attributes.copy()
            for attribute in copied.values():
                if type(attribute) not in atomic:
                    value(attribute)
        objects.append((item, slots, copied))

    state(deal)
    return snapshot


def restore(snapshot: Snapshot) -> None:
    """Put the deal back to the position ``snapshot`` was taken at (the same objects, their
    contents as they were then). A snapshot may be restored any number of times."""
    for container, contents in snapshot._containers:
        if type(container) is list:
            container[:] = contents
        else:
            container.clear()
            container.update(contents)
    for item, slots, copied in snapshot._objects:
        for name, slot in slots:
            if slot is _MISSING:
                if hasattr(item, name):
                    object.__delattr__(item, name)
            elif getattr(item, name, _MISSING) is not slot:
                object.__setattr__(item, name, slot)
        if copied is not None:
            attributes = item.__dict__
            for name in [name for name in attributes if name not in copied]:
                del attributes[name]
            for name, attribute in copied.items():
                if attributes.get(name, _MISSING) is not attribute:
                    attributes[name] = attribute
