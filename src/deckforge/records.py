"""Records: dataclasses whose methods are made at a small part of the cost.

For each dataclass, Python (3.11 to 3.13) writes the source of every method it adds and
compiles each on its own: a frozen record that compares equal gets six (``__init__``,
``__repr__``, ``__eq__``, ``__hash__``, ``__setattr__``, ``__delattr__``), about 0.1 ms
each. A build imports some seventy records, and making them was a fifth of a small
build's processor time.

:func:`record` takes ``dataclass``'s arguments and gives the same class: the same
fields (``dataclasses.fields``, ``replace`` and ``is_dataclass`` work on it), the same
``__init__`` (compiled, as ``dataclass`` writes it, since every record is made through
it), and ``__repr__``, ``__eq__``, ``__hash__``, frozen attributes and pickling that
behave as ``dataclass``'s do, built from functions shared by every record instead of
compiled for each. ``tests/test_records.py`` checks each against ``dataclass``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import MISSING, FrozenInstanceError, dataclass
from operator import attrgetter
from typing import Any

__all__ = ["record"]


def record(
    cls: type | None = None,
    /,
    *,
    frozen: bool = False,
    eq: bool = True,
    slots: bool = False,
    kw_only: bool = False,
) -> Any:
    """The class as ``dataclass(frozen=, eq=, slots=, kw_only=)`` would make it."""

    def wrap(cls: type) -> type:
        return _make(cls, frozen=frozen, eq=eq, slots=slots, kw_only=kw_only)

    return wrap if cls is None else wrap(cls)


def _make(cls: type, *, frozen: bool, eq: bool, slots: bool, kw_only: bool) -> type:
    explicit_hash = "__hash__" in cls.__dict__
    for base in cls.__mro__[1:]:
        if getattr(base, "__record_frozen__", frozen) != frozen:
            raise TypeError(f"{cls.__name__}: a record and its bases are frozen alike or not")
    # dataclass collects the fields (with the bases'), and makes the class with slots;
    # the methods it would compile one by one are added below.
    made = dataclass(
        cls, init=False, repr=False, eq=False, frozen=False, slots=slots, kw_only=kw_only
    )
    made.__record_frozen__ = frozen
    every = dataclasses.fields(made)
    # fields() leaves out class variables and InitVar pseudo-fields; no record has the
    # latter (its __init__ would have to pass them to __post_init__).
    initvar = dataclasses._FIELD_INITVAR  # type: ignore[attr-defined]
    for name, f in made.__dataclass_fields__.items():
        if f._field_type is initvar:
            raise TypeError(f"{cls.__name__}.{name}: records have no InitVar fields")
    made.__init__ = _init(made, every, frozen)
    made.__repr__ = _repr(tuple(f.name for f in every if f.repr))
    compared = tuple(f.name for f in every if f.compare)
    if eq:
        made.__eq__ = _eq(compared)
    if not explicit_hash and eq:
        hashed = tuple(f.name for f in every if (f.compare if f.hash is None else f.hash))
        made.__hash__ = _hash(hashed) if frozen else None
    if frozen:
        names = frozenset(f.name for f in every)
        made.__setattr__, made.__delattr__ = _frozen(made, names)
        if slots:
            made.__getstate__, made.__setstate__ = _state(tuple(f.name for f in every))
    return made


def _init(cls: type, every: tuple[dataclasses.Field, ...], frozen: bool):
    """``__init__`` as ``dataclass`` writes it: the fields in order, keyword-only ones
    after a ``*``, defaults and default factories, then ``__post_init__`` if defined."""
    values: dict[str, Any] = {"__object_setattr": object.__setattr__, "__factory": _FACTORY}
    positional, keywords, body = [], [], []
    for f in every:
        value = f.name
        if f.default_factory is not MISSING:
            values[f"__make_{f.name}"] = f.default_factory
            made = f"__make_{f.name}()"
            value = f"{made} if {f.name} is __factory else {f.name}" if f.init else made
        elif not f.init:
            if f.default is MISSING:
                continue  # dataclass leaves such a field unset too
            values[f"__default_{f.name}"] = f.default
            value = f"__default_{f.name}"
        if f.init:
            if f.default is not MISSING:
                values[f"__default_{f.name}"] = f.default
                parameter = f"{f.name}=__default_{f.name}"
            elif f.default_factory is not MISSING:
                parameter = f"{f.name}=__factory"
            else:
                parameter = f.name
            (keywords if f.kw_only else positional).append(parameter)
        set_one = (
            f"__object_setattr(self, {f.name!r}, {value})" if frozen else f"self.{f.name} = {value}"
        )
        body.append(f"    {set_one}")
    if hasattr(cls, "__post_init__"):
        body.append("    self.__post_init__()")
    parameters = ", ".join(["self", *positional, *(["*", *keywords] if keywords else [])])
    source = f"def __init__({parameters}):\n" + ("\n".join(body) or "    pass") + "\n"
    namespace: dict[str, Any] = {}
    exec(source, values, namespace)  # noqa: S102 - the same code dataclass compiles
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__annotations__ = {f.name: f.type for f in every if f.init} | {"return": None}
    return init


class _Factory:
    """Stands for a default factory's value not given to ``__init__``."""

    def __repr__(self) -> str:
        return "<factory>"


_FACTORY = _Factory()


def _repr(names: tuple[str, ...]):
    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in names)
        return f"{self.__class__.__qualname__}({shown})"

    return __repr__


def _values(names: tuple[str, ...]):
    """A function giving an object's values of ``names`` as a tuple."""
    if len(names) == 1:
        get = attrgetter(names[0])
        return lambda self: (get(self),)
    return attrgetter(*names) if names else lambda self: ()


def _eq(names: tuple[str, ...]):
    values = _values(names)

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return values(self) == values(other)
        return NotImplemented

    return __eq__


def _hash(names: tuple[str, ...]):
    values = _values(names)

    def __hash__(self) -> int:
        return hash(values(self))

    return __hash__


def _frozen(cls: type, names: frozenset[str]):
    """``__setattr__`` and ``__delattr__`` of a frozen record: no field may be set or
    deleted (nor any attribute of the record's own class)."""

    def __setattr__(self, name: str, value) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name: str) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    return __setattr__, __delattr__


def _state(names: tuple[str, ...]):
    """Pickling of a frozen record with slots: its fields' values, set again as
    ``__init__`` sets them."""
    values = _values(names)

    def __getstate__(self) -> list:
        return list(values(self))

    def __setstate__(self, state: list) -> None:
        for name, value in zip(names, state, strict=False):
            object.__setattr__(self, name, value)

    return __getstate__, __setstate__
