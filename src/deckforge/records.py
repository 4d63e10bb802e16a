"""Records: the plain data every stage hands to the next, declared as dataclasses are.

A record is a class of typed fields, made with :func:`record` as ``dataclass`` makes
one, and read with :func:`fields` and copied with :func:`replace` as dataclasses are::

    @record(frozen=True)
    class Size:
        w: float
        h: float = 0.0
        tags: list[str] = field(default_factory=list, compare=False)

Why not ``dataclasses``: importing it imports ``inspect`` (10 ms), and for each class
it writes the source of every method and compiles each on its own: a frozen record that
compares equal gets six, about 0.1 ms each. A build makes some seventy records; the two
together were a quarter of a small build's processor time. A record compiles its
``__init__`` only (the code ``dataclass`` writes); its ``__repr__``, ``__eq__``,
``__hash__``, frozen attributes and pickled state come from functions shared by every
record. ``tests/test_records.py`` declares classes both ways and compares what they do.

Compiling the ``__init__``s was still a twentieth of a small build (75 of them, 0.1 ms
each), so their code is kept as Python keeps a module's: in the package's bytecode
folder (``__pycache__``, or ``sys.pycache_prefix``), in one file for this Python's
bytecode, unless Python is told not to write bytecode. Each code is kept by its source;
a file that cannot be read, or was written by another Python, is compiled again.

What records take of ``dataclass``'s arguments: ``frozen``, ``eq``, ``slots`` and
``kw_only``; of ``field``'s: ``default``, ``default_factory``, ``init``, ``repr``,
``compare`` and ``hash``. Methods a class defines itself are kept, as ``dataclass``
keeps them.
"""

from __future__ import annotations

import atexit
import marshal
import os
import sys
from importlib.util import MAGIC_NUMBER, cache_from_source
from operator import attrgetter
from types import CodeType

__all__ = ["MISSING", "Field", "FrozenInstanceError", "field", "fields", "record", "replace"]


class _Missing:
    def __repr__(self) -> str:
        return "MISSING"


#: No default given.
MISSING = _Missing()


class FrozenInstanceError(AttributeError):
    """A field of a frozen record was set or deleted."""


class Field:
    """One field of a record: its name and type (the annotation's text) and what
    :func:`field` said of it."""

    __slots__ = ("name", "type", "default", "default_factory", "init", "repr")
    __slots__ += ("compare", "hash", "kw_only")

    def __init__(self, default, default_factory, init, repr, compare, hash):  # noqa: A002
        self.name: str = ""
        self.type: object = None
        self.default = default
        self.default_factory = default_factory
        self.init: bool = init
        self.repr: bool = repr
        self.compare: bool = compare
        self.hash: bool | None = hash
        self.kw_only: bool = False

    def __repr__(self) -> str:
        return f"Field(name={self.name!r}, type={self.type!r}, default={self.default!r})"


def field(
    *,
    default=MISSING,
    default_factory=MISSING,
    init: bool = True,
    repr: bool = True,  # noqa: A002 - dataclasses' name
    compare: bool = True,
    hash: bool | None = None,  # noqa: A002 - dataclasses' name
):
    """A field with a default (or a function making one for each record), or left out
    of ``__init__``, ``__repr__`` or comparison."""
    if default is not MISSING and default_factory is not MISSING:
        raise ValueError("cannot specify both default and default_factory")
    return Field(default, default_factory, init, repr, compare, hash)


def fields(record_or_class) -> tuple[Field, ...]:
    """A record's fields, in the order ``__init__`` takes them (the bases' first)."""
    found = getattr(record_or_class, "__record_fields__", None)
    if found is None:
        raise TypeError(f"{record_or_class!r} is not a record")
    return tuple(found.values())


def replace(obj, /, **changes):
    """A copy of a record with ``changes`` made, through its ``__init__``."""
    for f in fields(obj):
        if not f.init:
            if f.name in changes:
                raise ValueError(f"field {f.name} is declared with init=False")
        elif f.name not in changes:
            changes[f.name] = getattr(obj, f.name)
    return obj.__class__(**changes)


def record(cls=None, /, *, frozen=False, eq=True, slots=False, kw_only=False):
    """The class as ``dataclass(frozen=, eq=, slots=, kw_only=)`` would make it."""

    def wrap(cls: type) -> type:
        return _make(cls, frozen, eq, slots, kw_only)

    return wrap if cls is None else wrap(cls)


def _make(cls: type, frozen: bool, eq: bool, slots: bool, kw_only: bool) -> type:
    own = cls.__dict__
    for base in cls.__mro__[1:]:
        if getattr(base, "__record_frozen__", frozen) != frozen:
            raise TypeError(f"{cls.__name__}: a record and its bases are frozen alike or not")
    every: dict[str, Field] = {}
    for base in reversed(cls.__mro__[1:]):
        every.update(base.__dict__.get("__record_fields__", {}))
    for name, kind in own.get("__annotations__", {}).items():
        if _annotated(kind, "ClassVar", "typing.ClassVar"):
            continue
        if _annotated(kind, "InitVar", "dataclasses.InitVar"):
            raise TypeError(f"{cls.__name__}.{name}: records have no InitVar fields")
        every[name] = _field(cls, name, kind, kw_only)
    _check_order(cls, every)
    cls.__record_fields__ = every
    cls.__record_frozen__ = frozen
    if "__match_args__" not in own:
        cls.__match_args__ = tuple(n for n, f in every.items() if f.init and not f.kw_only)
    if slots:
        cls = _with_slots(cls, every)
    _add_methods(cls, frozen, eq, slots)
    return cls


def _annotated(kind: object, *names: str) -> bool:
    """Whether an annotation (its text, or the object) is one of ``names``' forms."""
    text = kind if isinstance(kind, str) else repr(kind)
    return text.startswith(names)


def _field(cls: type, name: str, kind: object, kw_only: bool) -> Field:
    """A field from its annotation and what the class sets its name to."""
    value = cls.__dict__.get(name, MISSING)
    made = value if isinstance(value, Field) else field(default=value)
    made.name, made.type, made.kw_only = name, kind, kw_only
    if type(made.default) in (list, dict, set):
        raise ValueError(
            f"mutable default {type(made.default)} for field {name} is not allowed: "
            "use default_factory"
        )
    if isinstance(value, Field):
        if made.default is MISSING:
            delattr(cls, name)
        else:
            setattr(cls, name, made.default)
    return made


def _check_order(cls: type, every: dict[str, Field]) -> None:
    defaulted = None
    for f in every.values():
        if not f.init or f.kw_only:
            continue
        if f.default is MISSING and f.default_factory is MISSING:
            if defaulted is not None:
                raise TypeError(
                    f"{cls.__name__}: non-default argument {f.name!r} follows default "
                    f"argument {defaulted!r}"
                )
        else:
            defaulted = f.name


def _with_slots(cls: type, every: dict[str, Field]) -> type:
    """The class made again with ``__slots__`` for its fields, as ``dataclass`` does."""
    if "__slots__" in cls.__dict__:
        raise TypeError(f"{cls.__name__} already specifies __slots__")
    inherited: set[str] = set()
    for base in cls.__mro__[1:-1]:
        found = base.__dict__.get("__slots__", ())
        inherited.update((found,) if isinstance(found, str) else found)
    body = dict(cls.__dict__)
    names = tuple(n for n in every if n not in inherited)
    for name in names:
        body.pop(name, None)  # a default is __init__'s, not a class attribute
    body.pop("__dict__", None)
    body.pop("__weakref__", None)
    body["__slots__"] = names
    made = type(cls)(cls.__name__, cls.__bases__, body)
    made.__qualname__ = cls.__qualname__
    return made


def _add_methods(cls: type, frozen: bool, eq: bool, slots: bool) -> None:
    own = cls.__dict__
    every = cls.__record_fields__
    values = tuple(every.values())
    if "__init__" not in own:
        cls.__init__ = _init(cls, values, frozen)
    if "__repr__" not in own:
        cls.__repr__ = _repr(tuple(f.name for f in values if f.repr))
    if eq and "__eq__" not in own:
        cls.__eq__ = _eq(tuple(f.name for f in values if f.compare))
    # A class that defines __eq__ gets __hash__ = None from Python: not its own hash.
    class_hash = own.get("__hash__", MISSING)
    explicit_hash = not (class_hash is MISSING or (class_hash is None and "__eq__" in own))
    if eq and not explicit_hash:
        hashed = tuple(f.name for f in values if (f.compare if f.hash is None else f.hash))
        cls.__hash__ = _hash(hashed) if frozen else None
    if frozen:
        if "__setattr__" in own or "__delattr__" in own:
            raise TypeError(f"{cls.__name__}: a frozen record cannot define __setattr__")
        cls.__setattr__, cls.__delattr__ = _frozen(cls, frozenset(every))
        if slots:
            cls.__getstate__, cls.__setstate__ = _state(tuple(every))


class _Factory:
    """Stands for a default factory's value not given to ``__init__``."""

    def __repr__(self) -> str:
        return "<factory>"


_FACTORY = _Factory()


def _init(cls: type, every: tuple[Field, ...], frozen: bool):
    """``__init__`` as ``dataclass`` writes it: the fields in order, keyword-only ones
    after a ``*``, defaults and default factories, then ``__post_init__`` if defined."""
    values: dict = {"__object_setattr": object.__setattr__, "__factory": _FACTORY}
    positional, keywords, body = [], [], []
    for f in every:
        name = f.name
        value = name
        if f.default_factory is not MISSING:
            values[f"__make_{name}"] = f.default_factory
            value = f"__make_{name}() if {name} is __factory else {name}"
            if not f.init:
                value = f"__make_{name}()"
        elif not f.init:
            if f.default is MISSING:
                continue  # dataclass leaves such a field unset too
            values[f"__default_{name}"] = f.default
            value = f"__default_{name}"
        if f.init:
            if f.default is not MISSING:
                values[f"__default_{name}"] = f.default
                parameter = f"{name}=__default_{name}"
            else:
                parameter = f"{name}=__factory" if f.default_factory is not MISSING else name
            (keywords if f.kw_only else positional).append(parameter)
        set_one = (
            f"__object_setattr(self, {name!r}, {value})" if frozen else f"self.{name} = {value}"
        )
        body.append(f"    {set_one}")
    if hasattr(cls, "__post_init__"):
        body.append("    self.__post_init__()")
    parameters = ", ".join(["self", *positional, *(["*", *keywords] if keywords else [])])
    source = f"def __init__({parameters}):\n" + ("\n".join(body) or "    pass") + "\n"
    namespace: dict = {}
    exec(_CODES.code(source), values, namespace)  # noqa: S102 - what dataclass compiles
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__annotations__ = {f.name: f.type for f in every if f.init} | {"return": None}
    return init


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


class _Codes:
    """The compiled code of each ``__init__`` by its source, read from the package's
    bytecode folder when first asked for and written back at exit if any was new. The
    file holds each code marshalled on its own, loaded when its record is made: a
    command makes some of the package's records."""

    #: The most codes the file keeps (a record's changed source leaves its old code).
    KEPT = 1024

    def __init__(self) -> None:
        here = os.path.join(os.path.dirname(__file__), "records.py")
        self.path = cache_from_source(here).removesuffix(".pyc") + ".inits"
        self.known: dict[str, bytes] | None = None
        self.compiled = 0  # in this process

    def code(self, source: str) -> CodeType:
        if self.known is None:
            self.known = self._read()
        try:
            found = marshal.loads(self.known[source])
        except (KeyError, TypeError, ValueError, EOFError):
            found = None
        if type(found) is not CodeType:
            found = compile(source, "<record>", "exec")
            self.known[source] = marshal.dumps(found)
            if not self.compiled and not sys.dont_write_bytecode:
                atexit.register(self.write)
            self.compiled += 1
        return found

    def _read(self) -> dict[str, bytes]:
        try:
            with open(self.path, "rb") as file:
                data = file.read()
            if data.startswith(MAGIC_NUMBER):
                known = marshal.loads(data[len(MAGIC_NUMBER) :])
                if isinstance(known, dict):
                    return known
        except (OSError, ValueError, EOFError, TypeError):
            pass
        return {}

    def write(self) -> None:
        """Keep the codes (the newest :attr:`KEPT`), atomically; a folder that cannot be
        written means only that they are compiled again next time."""
        kept = dict(list(self.known.items())[-self.KEPT :])
        temp = f"{self.path}.{os.getpid()}.tmp"
        try:
            os.makedirs(os.path.dirname(self.path), exist_ok=True)
            with open(temp, "wb") as file:
                file.write(MAGIC_NUMBER + marshal.dumps(kept))
            os.replace(temp, self.path)
        except OSError:
            try:
                os.unlink(temp)
            except OSError:
                pass


_CODES = _Codes()
