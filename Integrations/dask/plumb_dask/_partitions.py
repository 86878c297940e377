"""The client side's reading: an input file as partitions of JSON lines, read as they are needed.

- JSON Lines (any name but ``*.parquet`` / ``*.pq``; ``-`` is standard input): lines are
  passed through byte for byte, blank and malformed ones included, so plumb answers them as
  it answers ``plumb measure INPUT`` (a blank line gives no answer, a malformed one an error
  line). Two exceptions that keep that promise for a stream cut in pieces: a byte-order mark
  at the start of the file is dropped (plumb drops it only at the start of its input, and a
  long-lived process sees this partition after others), and a last line without a newline
  gets one (so that it does not run into the sentinel that follows it).
- Parquet: each row is a cell whose columns are named as the JSON wire fields (``id``,
  ``text``, ``width``, ``runs``…). A row becomes one compact JSON object in column order; a
  null value is omitted (at the top level and inside structs: "not set", as a missing key), a
  NaN or infinite number is an error (JSON has none), and so is a type JSON has no form for
  (binary, dates). An error line's ``"line"`` is then the row's number, from 1.
"""

from __future__ import annotations

import itertools
import json
import math
import sys
from contextlib import contextmanager
from typing import Iterator, NamedTuple

_BOM = b"\xef\xbb\xbf"


class Partition(NamedTuple):
    """Consecutive lines of the input, ready to send to a worker."""

    index: int
    """Its place among the partitions (0-based)."""
    first_line: int
    """The input line number (from 1) of its first line."""
    line_count: int
    blob: bytes
    """The lines, each ending in a newline."""


def is_parquet(path: str) -> bool:
    return path.lower().endswith((".parquet", ".pq"))


def read_partitions(path: str, partition_lines: int) -> Iterator[Partition]:
    """The partitions of ``path``, ``partition_lines`` lines (or rows) each, read lazily: only
    the partition being made is in memory."""
    if partition_lines < 1:
        raise ValueError("partition_lines must be at least 1")
    chunks = _parquet_chunks(path, partition_lines) if is_parquet(path) else _jsonl_chunks(path, partition_lines)
    first_line = 1
    for index, lines in enumerate(chunks):
        yield Partition(index, first_line, len(lines), b"".join(lines))
        first_line += len(lines)


@contextmanager
def _open_binary(path: str):
    if path == "-":
        yield sys.stdin.buffer
    else:
        with open(path, "rb") as f:
            yield f


def _jsonl_chunks(path: str, size: int) -> Iterator[list[bytes]]:
    with _open_binary(path) as f:
        # Lines split at b"\n" only, as plumb's reader does (a lone "\r" stays in its line).
        lines = iter(f)
        first = True
        while chunk := list(itertools.islice(lines, size)):
            if first and chunk[0].startswith(_BOM):
                chunk[0] = chunk[0][len(_BOM):]
            first = False
            if not chunk[-1].endswith(b"\n"):
                chunk[-1] += b"\n"
            yield chunk


def _without_nulls(value):
    """``value`` with None dropped from every dict (a null struct field is an unset field)."""
    if isinstance(value, dict):
        return {k: _without_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_without_nulls(v) for v in value]
    return value


def _not_json(value):
    raise TypeError(f"a Parquet value of type {type(value).__name__} has no JSON form: {value!r}")


def row_to_json_line(row: dict) -> bytes:
    """One Parquet row as a compact JSON line (UTF-8, no ASCII escapes, newline-terminated)."""
    cell = _without_nulls(row)
    try:
        text = json.dumps(cell, ensure_ascii=False, separators=(",", ":"), allow_nan=False, default=_not_json)
    except ValueError as e:  # NaN or ±infinity
        bad = [k for k, v in cell.items() if isinstance(v, float) and not math.isfinite(v)]
        raise ValueError(f"a Parquet row has a non-finite number in {bad or 'a nested field'}: {e}") from None
    return text.encode("utf-8") + b"\n"


def _parquet_chunks(path: str, size: int) -> Iterator[list[bytes]]:
    import pyarrow.parquet as pq  # only Parquet input needs pyarrow

    with pq.ParquetFile(path) as parquet:
        for batch in parquet.iter_batches(batch_size=size):
            lines = [row_to_json_line(row) for row in batch.to_pylist()]
            if lines:
                yield lines
