"""Records (:mod:`deckforge.records`) behave as dataclasses do: each case declares the
same class both ways and compares what each makes and does."""

from __future__ import annotations

import copy
import dataclasses
import inspect
import marshal
import os
import pickle
import subprocess
import sys
from dataclasses import InitVar, dataclass
from pathlib import Path

import pytest

from deckforge import records
from deckforge.records import FrozenInstanceError, record

#: Every combination of the arguments records take.
OPTIONS = [
    {"frozen": frozen, "eq": eq, "slots": slots, "kw_only": kw_only}
    for frozen in (False, True)
    for eq in (False, True)
    for slots in (False, True)
    for kw_only in (False, True)
]


def both(options: dict):
    """The same class body made as a dataclass and as a record."""
    made = []
    for decorate, field in ((dataclass, dataclasses.field), (record, records.field)):

        @decorate(**options)
        class Point:
            """A point with a name, some tags and a hidden count."""

            x: float
            y: float = 0.0
            tags: list[str] = field(default_factory=list)
            hidden: int = field(default=3, repr=False, compare=False)
            made: int = field(default=7, init=False)

            def norm(self) -> float:
                return abs(self.x) + abs(self.y)

        made.append(Point)
    return made


def _id(options: dict) -> str:
    return "-".join(k for k, v in options.items() if v) or "plain"


@pytest.mark.parametrize("options", OPTIONS, ids=_id)
def test_fields_signature_and_values(options):
    dc, rec = both(options)
    assert [
        (f.name, f.type, f.init, f.repr, f.compare, f.kw_only) for f in dataclasses.fields(dc)
    ] == [(f.name, f.type, f.init, f.repr, f.compare, f.kw_only) for f in records.fields(rec)]
    expected = inspect.signature(dc.__init__)
    got = inspect.signature(rec.__init__)
    assert [(p.name, p.kind, repr(p.default)) for p in expected.parameters.values()] == [
        (p.name, p.kind, repr(p.default)) for p in got.parameters.values()
    ]
    assert rec.__match_args__ == dc.__match_args__
    a, b = dc(x=1.5), rec(x=1.5)
    assert (a.x, a.y, a.tags, a.hidden, a.made) == (b.x, b.y, b.tags, b.hidden, b.made)
    assert rec(x=1).tags is not rec(x=1).tags  # a new list from the factory each time
    assert repr(a) == repr(b).replace(rec.__qualname__, dc.__qualname__)
    assert b.norm() == 1.5
    assert hasattr(b, "__dict__") == hasattr(a, "__dict__")


@pytest.mark.parametrize("options", OPTIONS, ids=_id)
def test_equality_and_hash(options):
    dc, rec = both(options)
    same = rec(x=1, tags=["a"], hidden=1), rec(x=1, tags=["a"], hidden=2)
    other = rec(x=2)
    if options["eq"]:
        assert same[0] == same[1] and same[0] != other  # hidden is not compared
        assert (same[0] == dc(x=1, tags=["a"])) is False  # another class is never equal
    else:
        assert same[0] != same[1] and same[0] == same[0]
    assert (rec.__hash__ is None) == (dc.__hash__ is None)
    if options["eq"] and options["frozen"]:
        hashable = rec(x=1, tags=("a",), hidden=1), rec(x=1, tags=("a",), hidden=2)
        assert hash(hashable[0]) == hash(hashable[1])
        assert len({hashable[0], hashable[1], rec(x=1, tags=("b",))}) == 2


@pytest.mark.parametrize("options", OPTIONS, ids=_id)
def test_frozen_records_cannot_change(options):
    _, rec = both(options)
    point = rec(x=1)
    if options["frozen"]:
        with pytest.raises(FrozenInstanceError):
            point.x = 2
        with pytest.raises(FrozenInstanceError):
            del point.y
        with pytest.raises(AttributeError):  # as dataclasses' error is one
            point.x = 2
        assert records.replace(point, x=5).x == 5 and point.x == 1
        with pytest.raises(ValueError, match="init=False"):
            records.replace(point, made=1)
    else:
        point.x = 2
        assert point.x == 2


@pytest.mark.parametrize("options", OPTIONS, ids=_id)
def test_pickle_and_copy(options):
    _, rec = both(options)
    globals()["Point"] = rec  # pickle finds classes by their module's name
    rec.__qualname__ = "Point"
    try:
        point = rec(x=1, y=2, tags=["t"], hidden=9)
        for again in (pickle.loads(pickle.dumps(point)), copy.deepcopy(point)):
            assert (again.x, again.y, again.tags, again.hidden, again.made) == (1, 2, ["t"], 9, 7)
    finally:
        del globals()["Point"]


def test_inheritance_post_init_and_keyword_only_bases():
    made = []
    for decorate in (dataclass, record):

        @decorate(frozen=True, kw_only=True, slots=True)
        class Paint:
            fill: str | None = None

        @decorate(frozen=True, slots=True)
        class Box(Paint):
            w: float
            h: float = 1.0

            def __post_init__(self):
                if self.w < 0:
                    raise ValueError("negative width")

        made.append(Box)
    dc, rec = made
    assert [f.name for f in records.fields(rec)] == ["fill", "w", "h"]
    assert rec.__slots__ == ("w", "h") and Paint_slots(rec) == ("fill",)
    assert repr(rec(2, fill="red")) == repr(dc(2, fill="red")).replace(
        dc.__qualname__, rec.__qualname__
    )
    assert rec(2, fill="red") == rec(2, 1.0, fill="red")
    with pytest.raises(ValueError, match="negative width"):
        rec(-1)
    with pytest.raises(TypeError):
        rec(1, 2, "red")  # fill is keyword-only, as in the dataclass


def Paint_slots(cls: type) -> tuple:  # noqa: N802 - the base's name
    return cls.__mro__[1].__slots__


def test_an_explicit_hash_is_kept():
    @record(frozen=True)
    class Named:
        name: str

        def __hash__(self) -> int:
            return 42

    assert hash(Named("a")) == 42


def test_what_records_do_not_take():
    with pytest.raises(TypeError, match="InitVar"):

        @record
        class WithInitVar:
            secret: InitVar[int]

    @record(frozen=True)
    class Frozen:
        a: int

    with pytest.raises(TypeError, match="frozen alike"):

        @record
        class Thawed(Frozen):
            b: int = 0

    with pytest.raises(ValueError, match="mutable default"):

        @record
        class Shared:
            items: list = []  # noqa: RUF012 - the mistake checked for

    with pytest.raises(TypeError, match="follows default"):

        @record
        class Misordered:
            a: int = 0
            b: int


def test_methods_a_class_defines_are_kept():
    made = []
    for decorate in (dataclass, record):

        @decorate(frozen=True)
        class Own:
            a: int

            def __repr__(self) -> str:
                return "own"

            def __eq__(self, other) -> bool:
                return True

        made.append(Own)
    for own in made:
        assert repr(own(1)) == "own" and own(1) == 5
    dc, rec = made
    assert (dc.__hash__ is None) == (rec.__hash__ is None)
    assert hash(dc(1)) == hash((1,)) == hash(rec(1))


def test_class_variables_are_not_fields():
    from typing import ClassVar

    @record
    class Counted:
        a: int
        made: ClassVar[int] = 0

    assert [f.name for f in records.fields(Counted)] == ["a"] and Counted.made == 0


_MAKES_RECORDS = """
import deckforge.drawing.ops as ops, deckforge.records as records
assert ops.Rect(0, 0, 1, 2).h == 2
print(records._CODES.compiled, records._CODES.path)
"""


def _make_records(prefix: Path, *flags: str) -> tuple[int, Path]:
    """Run a new Python that makes records, its bytecode kept under ``prefix``: how many
    ``__init__``s it compiled, and where it keeps their code."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(prefix)
    done = subprocess.run(
        [sys.executable, *flags, "-c", _MAKES_RECORDS],
        env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    compiled, path = done.stdout.split(maxsplit=1)
    return int(compiled), Path(path.strip())


def test_init_code_is_kept_with_the_bytecode_and_read_back(tmp_path):
    compiled, path = _make_records(tmp_path)
    assert compiled > 10 and path.is_file() and path.is_relative_to(tmp_path)
    assert path.name == f"records.{sys.implementation.cache_tag}.inits"
    again, _ = _make_records(tmp_path)
    assert again == 0  # every __init__ came from the file
    # A damaged file, or one another Python wrote, is no code: compiled again, written again.
    magic = path.read_bytes()[:4]
    other = magic + marshal.dumps({source: b"1" for source in marshal.loads(path.read_bytes()[4:])})
    for damaged in (path.read_bytes()[:-40], b"\0\0\0\0" + path.read_bytes()[4:], b"", other):
        path.write_bytes(damaged)
        assert _make_records(tmp_path)[0] == compiled
        assert _make_records(tmp_path)[0] == 0


def test_init_code_is_not_written_when_python_writes_no_bytecode(tmp_path):
    compiled, path = _make_records(tmp_path, "-B")
    assert compiled > 10 and not path.exists()
