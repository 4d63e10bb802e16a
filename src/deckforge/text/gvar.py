"""A variable font's glyph variations ('gvar') cut down to those that move an instance.

An instance at one location is each glyph's outline plus its variations, each scaled by
how far the location is into the variation's region of the design space. Noto Sans
has five or so variations a glyph, and at Bold (wght 700, wdth 100) three of every four
are scaled by zero: those of narrower widths and of lighter weights. fontTools reads
every variation of a glyph before it scales them, and reading them is much of cutting
a Bold, the longest task a first build waits for. The table written here holds, of the
glyphs asked for, the variations not scaled by zero, byte for byte as they were: the
instance made from it is the same.

The table's layout is the OpenType specification's ('gvar', "Glyph variation data").
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Collection, Sequence

#: The table's header: versions, axes, shared tuples and their offset, glyphs, flags,
#: the offset of the glyphs' data; then an offset to each glyph's data, and one past.
_HEADER = ">HHHHIHHI"
_LONG_OFFSETS = 1
#: The flags of a glyph's count of variations, and of a variation's header.
_SHARED_POINTS, _COUNT = 0x8000, 0x0FFF
_EMBEDDED_PEAK, _INTERMEDIATE, _INDEX = 0x8000, 0x4000, 0x0FFF

#: A variation's region as stored (F2Dot14 units): its peak, and its start and end when
#: they are given.
Region = tuple[tuple[int, ...], tuple[int, ...] | None, tuple[int, ...] | None]
#: A region as fontTools gives it: axis tag -> (start, peak, end).
Tents = dict[str, tuple[float, float, float]]


def cut_down(
    raw: bytes,
    glyph_order: Sequence[str],
    axis_tags: Sequence[str],
    kept: Collection[str],
    moves: Callable[[Tents], bool],
) -> bytes:
    """The 'gvar' table ``raw`` with only the variations of the glyphs in ``kept`` for
    whose region ``moves`` is true (every offset written 32 bits long)."""
    major, minor, axes, shared_count, shared_at, glyphs, flags, data_at = struct.unpack_from(
        _HEADER, raw
    )
    if flags & _LONG_OFFSETS:
        offsets = struct.unpack_from(f">{glyphs + 1}I", raw, 20)
    else:
        offsets = tuple(2 * o for o in struct.unpack_from(f">{glyphs + 1}H", raw, 20))
    shared = [
        struct.unpack_from(f">{axes}h", raw, shared_at + 2 * axes * n) for n in range(shared_count)
    ]
    verdicts: dict[Region, bool] = {}

    def wanted(region: Region) -> bool:
        if region not in verdicts:
            verdicts[region] = moves(_tents(axis_tags, region))
        return verdicts[region]

    kept_data = []
    for number, name in enumerate(glyph_order):
        data = raw[data_at + offsets[number] : data_at + offsets[number + 1]]
        kept_data.append(_glyph(data, axes, shared, wanted) if data and name in kept else b"")
    shared_bytes = raw[shared_at : shared_at + 2 * axes * shared_count]
    table_at = 20 + 4 * (glyphs + 1)
    header = struct.pack(
        _HEADER, major, minor, axes, shared_count, table_at, glyphs,
        flags | _LONG_OFFSETS, table_at + len(shared_bytes),
    )  # fmt: skip
    at, starts = 0, []
    for data in kept_data:
        starts.append(at)
        at += len(data)
    starts.append(at)
    return header + struct.pack(f">{glyphs + 1}I", *starts) + shared_bytes + b"".join(kept_data)


def _glyph(
    data: bytes, axes: int, shared: list[tuple[int, ...]], wanted: Callable[[Region], bool]
) -> bytes:
    """One glyph's variation data with only the variations ``wanted`` (empty if none)."""
    count, serial_at = struct.unpack_from(">HH", data)
    headers, at = [], 4
    for _ in range(count & _COUNT):
        size, index = struct.unpack_from(">HH", data, at)
        length = 4
        if index & _EMBEDDED_PEAK:
            peak = struct.unpack_from(f">{axes}h", data, at + length)
            length += 2 * axes
        else:
            peak = shared[index & _INDEX]
        start = end = None
        if index & _INTERMEDIATE:
            start = struct.unpack_from(f">{axes}h", data, at + length)
            end = struct.unpack_from(f">{axes}h", data, at + length + 2 * axes)
            length += 4 * axes
        headers.append((data[at : at + length], size, wanted((peak, start, end))))
        at += length
    # The serialized data: the point numbers the variations share, then each one's.
    serial = serial_at + (_points_length(data, serial_at) if count & _SHARED_POINTS else 0)
    kept_headers, kept_serial = [], [data[serial_at:serial]]
    for header, size, keep in headers:
        if keep:
            kept_headers.append(header)
            kept_serial.append(data[serial : serial + size])
        serial += size
    if not kept_headers:
        return b""
    head = b"".join(kept_headers)
    out = struct.pack(">HH", (count & ~_COUNT) | len(kept_headers), 4 + len(head))
    out += head + b"".join(kept_serial)
    return out + b"\0" * (len(out) % 2)  # each glyph's data starts at an even offset


def _points_length(data: bytes, at: int) -> int:
    """The length of the packed point numbers at ``at``: a count (one byte, or two with
    the high bit set), then runs of numbers, each after a byte giving the run's length
    and whether its numbers are bytes or words."""
    start, count = at, data[at]
    at += 1
    if count & 0x80:
        count = (count & 0x7F) << 8 | data[at]
        at += 1
    while count > 0:
        control = data[at]
        run = (control & 0x7F) + 1
        at += 1 + run * (2 if control & 0x80 else 1)
        count -= run
    return at - start


def _tents(axis_tags: Sequence[str], region: Region) -> Tents:
    """A stored region as fontTools gives it: a region without a start and an end
    spans from zero to its peak on each axis."""
    peak, start, end = region
    tents = {}
    for n, tag in enumerate(axis_tags):
        top = peak[n] / 16384
        if start is None or end is None:
            tents[tag] = (min(top, 0.0), top, max(top, 0.0))
        else:
            tents[tag] = (start[n] / 16384, top, end[n] / 16384)
    return tents
