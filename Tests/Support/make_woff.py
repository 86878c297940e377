#!/usr/bin/env python3
"""Writes a WOFF 1.0 file from an sfnt (TrueType/OpenType), zlib-compressing every table
that gets smaller, as the W3C WOFF 1.0 specification describes. Used by the font tests to
make a WOFF from a Debian font (no fonts are committed).

usage: make_woff.py INPUT.ttf OUTPUT.woff
"""
import struct
import sys
import zlib


def main(src, dst):
    data = open(src, "rb").read()
    flavor, num_tables = struct.unpack(">IH", data[:6])
    entries = []
    for i in range(num_tables):
        tag, checksum, offset, length = struct.unpack(">4sIII", data[12 + 16 * i:28 + 16 * i])
        entries.append((tag, checksum, data[offset:offset + length]))
    header_size = 44 + 20 * num_tables
    directory = b""
    body = b""
    offset = header_size
    total_sfnt = 12 + 16 * num_tables
    for tag, checksum, table in entries:
        packed = zlib.compress(table)
        stored = packed if len(packed) < len(table) else table
        directory += struct.pack(">4sIIII", tag, offset, len(stored), len(table), checksum)
        padded = stored + b"\0" * (-len(stored) % 4)
        body += padded
        offset += len(padded)
        total_sfnt += (len(table) + 3) & ~3
    header = struct.pack(">4sIIHHIHHIIIII", b"wOFF", flavor, header_size + len(body), num_tables, 0,
                         total_sfnt, 1, 0, 0, 0, 0, 0, 0)
    open(dst, "wb").write(header + directory + body)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
