"""Where every value and key of a source is: numbers in one flat array, and the walks
that find a value's line and column by its data path."""

from __future__ import annotations

from array import array


class Positions:
    """Where every value and key of a file is, kept as numbers in one flat array.

    Each mapping and list has a block in the array, written when it ends: for a list,
    three numbers an item (its line, its column, and where the item's own block starts
    plus one, or 0 for text and numbers); for a mapping, five an entry (the key's line
    and column, then the same three for its value), in the order of the mapping's keys.
    Lines and columns count from 1.
    """

    __slots__ = ("numbers", "root")

    def __init__(self) -> None:
        self.numbers = array("I")
        #: The whole document's line, column and block (plus one).
        self.root = (1, 1, 0)

    def find(self, data: object, path: tuple, key: bool = False) -> tuple[int, int]:
        """The line and column of the value at ``path`` in ``data`` (of its key, with
        ``key``); of the deepest value on the way where the path leaves the data."""
        line, column, block = self.root
        line, column, _, _ = self._down(data, path, key, line, column, block)
        return line, column

    def find_each(self, data: object, path: tuple, inner: list[tuple]) -> list[tuple[int, int]]:
        """:meth:`find` of ``(*path, index, *inner[index])`` for each item of the list at
        ``path``, reaching the list once (a deck's every card has a name)."""
        line, column, block = self.root
        line, column, block, found = self._down(data, path, False, line, column, block)
        if type(found) is not list or len(found) < len(inner):
            return [self.find(data, (*path, index, *rest)) for index, rest in enumerate(inner)]
        numbers = self.numbers
        places = []
        for index, rest in enumerate(inner):
            at = block - 1 + 3 * index
            line, column, _, _ = self._down(
                found[index], rest, False, numbers[at], numbers[at + 1], numbers[at + 2]
            )
            places.append((line, column))
        return places

    def _down(
        self, data: object, path: tuple, key: bool, line: int, column: int, block: int
    ) -> tuple[int, int, int, object]:
        """From a value at (line, column) with its block, down ``path``: the line, column
        and block of the deepest value reached, and the value at ``path`` (:data:`_OFF`
        where the path leaves the data)."""
        numbers = self.numbers
        last = len(path) - 1
        for depth, part in enumerate(path):
            if not block:
                break
            at = block - 1
            if type(data) is dict:
                if part not in data:
                    break
                at += 5 * list(data).index(part)
                # Read one by one: a slice of the array is an array made and unpacked
                # (a model of 100,000 cards asks for the place of every card's name).
                if key and depth == last:
                    line, column = numbers[at], numbers[at + 1]
                else:
                    line, column = numbers[at + 2], numbers[at + 3]
                block = numbers[at + 4]
                data = data[part]
            elif type(data) is list and type(part) is int and 0 <= part < len(data):
                at += 3 * part
                line, column, block = numbers[at], numbers[at + 1], numbers[at + 2]
                data = data[part]
            else:
                break
        else:
            return line, column, block, data
        return line, column, block, _OFF


#: What :meth:`Positions._down` gives for the value at a path that is not in the data.
_OFF = object()
