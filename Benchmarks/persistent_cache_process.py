#!/usr/bin/env python3
"""Whole-process timings of `plumb measure --cache FILE` (issue 29, item 1).

Each round, on the same input (the corpus's first N rows, numbered as the benchmark's feeds
are, so no two rows are equal): `plumb measure` without a file, then with a new file (the
first process: it measures every row and writes the file), then again with that file (the
second process: every row a hit from disk). Each process is timed from start to exit. The
three outputs must be byte-identical. Prints the medians and the per-round ratios (cold ÷
second; first ÷ cold) with their quartiles.

Usage (a release build first: swift build -c release --product plumb):
  python3 Benchmarks/persistent_cache_process.py --rows 100000 --rounds 7
"""
import argparse
import os
import statistics
import tempfile

from whole_process import HERE, ROOT, numbered_rows, quartiles, timed


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rows", type=int, default=100000)
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--corpus", default=os.path.join(HERE, "Corpus", "cells.jsonl"))
    p.add_argument("--plumb", default=os.path.join(ROOT, ".build", "release", "plumb"))
    p.add_argument("--width", default="320")
    a = p.parse_args()
    import json
    with tempfile.TemporaryDirectory() as tmp:
        cells = os.path.join(tmp, "cells.jsonl")
        with open(cells, "w", encoding="utf-8") as f:
            for row in numbered_rows(a.corpus, a.rows):
                f.write(json.dumps(row, ensure_ascii=False) + "\n")
        cache = os.path.join(tmp, "cache.sqlite")
        base = [a.plumb, "measure", cells, "--size", "15", "--width", a.width, "--families", "Noto Sans,Noto Sans CJK SC"]
        cold, first, second = [], [], []
        for _ in range(a.rounds):
            for suffix in ("", "-wal", "-shm"):
                if os.path.exists(cache + suffix):
                    os.remove(cache + suffix)
            t0, out0 = timed(base)
            t1, out1 = timed(base + ["--cache", cache])
            t2, out2 = timed(base + ["--cache", cache])
            assert out0 == out1 == out2, "the outputs differ"
            cold.append(t0)
            first.append(t1)
            second.append(t2)
        print(f"rows {a.rows}, rounds {a.rounds}, cores {os.cpu_count()}")
        for name, v in (("no file", cold), ("first process (writes the file)", first), ("second process (reads it)", second)):
            print(f"{name:34s} median {statistics.median(v):.3f} s  ({a.rows / statistics.median(v):,.0f} lines/s)")
        for name, r in (("cold ÷ second process", [c / s for c, s in zip(cold, second)]),
                        ("first process ÷ cold", [f / c for f, c in zip(first, cold)])):
            q1, q2, q3 = quartiles(r)
            print(f"{name:34s} median {q2:.2f}×  (quartiles {q1:.2f}–{q3:.2f})")


if __name__ == "__main__":
    main()
