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
import operator
import types
from collections.abc import Callable
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
#: Per class: ``None`` (shared) or the names of its slots and one getter of them all
#: (walked).
_KINDS: dict[type, tuple[tuple[str, ...], Callable[[Any], tuple[Any, ...]]] | None] = {}


def _slots_getter(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """One call that reads all of ``names`` into a tuple (``AttributeError`` if one is
    unset: the caller then reads them one by one)."""
    if len(names) > 1:
        return operator.attrgetter(*names)
    if names:
        one = operator.attrgetter(names[0])
        return lambda item: (one(item),)
    return lambda item: ()


def _kind(cls: type) -> tuple[tuple[str, ...], Callable[[Any], tuple[Any, ...]]] | None:
    """How a value of ``cls`` is treated: ``None`` shared, else its slots' names and their
    getter (walked, with its ``__dict__``); ``TypeError`` for a kind of value this module
    does not know."""
    known = _KINDS.get(cls, _MISSING)
    if known is not _MISSING:
        return known  # type: ignore[no-any-return]
    kind: tuple[tuple[str, ...], Callable[[Any], tuple[Any, ...]]] | None
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
        kind = (tuple(names), _slots_getter(tuple(names)))
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
        #: (object, its slots' names and values (``_MISSING`` unset), a copy of its
        #: ``__dict__`` or None)
        self._objects: list[tuple[Any, tuple[tuple[str, Any], ...], dict[str, Any] | None]] = []


def take(deal: object) -> Snapshot:
    """A snapshot of ``deal``'s state now.

    The walk is written out as one loop over a stack (a search takes a snapshot at every
    position where it branches); what it remembers does not depend on the order."""
    snapshot = Snapshot()
    containers = snapshot._containers
    objects = snapshot._objects
    seen: set[int] = set()
    atomic = _ATOMIC
    kinds = _KINDS
    missing = _MISSING
    stack: list[Any] = [deal]
    pop = stack.pop
    push = stack.append
    while stack:
        item = pop()
        cls = type(item)
        if cls is list or cls is dict or cls is set:
            key = id(item)
            if key in seen:
                continue
            seen.add(key)
            containers.append((item, item.copy()))
            if cls is not set:
                for element in item if cls is list else item.values():
                    if type(element) not in atomic:
                        push(element)
            continue
        kind = kinds.get(cls, missing)
        if kind is missing:
            kind = _kind(cls)
        if kind is None:
            continue
        key = id(item)
        if key in seen:
            continue
        seen.add(key)
        names, getter = kind
        try:
            values = getter(item)
        except AttributeError:  # a slot not set yet
            values = tuple([getattr(item, name, missing) for name in names])
        for slot in values:
            if type(slot) not in atomic and slot is not missing:
                push(slot)
        attributes = getattr(item, "__dict__", None)
        copied = None
        if attributes is not None:
            copied = attributes.copy()
            for attribute in copied.values():
                if type(attribute) not in atomic:
                    push(attribute)
        objects.append((item, tuple(zip(names, values, strict=True)), copied))
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
    missing = _MISSING
    for item, slots, copied in snapshot._objects:
        for name, slot in slots:
            if slot is missing:
                if hasattr(item, name):
                    object.__delattr__(item, name)
            elif getattr(item, name, missing) is not slot:
                object.__setattr__(item, name, slot)
        if copied is not None:
            attributes = item.__dict__
            for name in [name for name in attributes if name not in copied]:
                del attributes[name]
            for name, attribute in copied.items():
                if attributes.get(name, missing) is not attribute:
                    attributes[name] = attribute
