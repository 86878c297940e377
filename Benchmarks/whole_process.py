#!/usr/bin/env python3
"""Whole-process timings of `plumb measure` against Pango, and of one worker against two.

Each round runs, back to back on the same input: `plumb measure --workers 1`, `pango-measure`
(Benchmarks/PangoMeasure: Pango set up as the benchmark's PangoReference, in C) and
`plumb measure --workers 2`, timing each process from start to exit (fontconfig's
configuration, reading the input and writing the answers included). It prints the medians,
the median of the per-round ratios (Pango ÷ Plumb on one worker; one worker ÷ two) with
their quartiles, the cores the two-worker run used (its CPU time ÷ its wall time: less
sensitive to the VM's drift than either time), and how many cells the pango profile gives
Pango's line count.

The input is the corpus's first N rows, numbered as the benchmark's feeds are (`text #k` for
the k-th copy of the corpus, so no two rows are equal).

Usage (release builds first: swift build -c release --product plumb, then --product pango-measure):
  python3 Benchmarks/whole_process.py --rows 10000 --rounds 15
"""
import argparse
import json
import os
import resource
import statistics
import subprocess
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def numbered_rows(corpus, count):
    texts = [json.loads(line)["text"] for line in open(corpus, encoding="utf-8") if line.strip()]
    return [{"id": i, "text": f"{texts[i % len(texts)]} #{i // len(texts)}"} for i in range(count)]


def timed(command):
    """Wall time, output and CPU time (user + system, all threads) of one run of `command`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, stdout=subprocess.PIPE, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    timed.cpu = cpu
    return wall, done.stdout


def quartiles(values):
    q = sorted(values)
    return q[len(q) // 4], statistics.median(q), q[(3 * len(q)) // 4]


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rows", type=int, default=10000)
    p.add_argument("--rounds", type=int, default=15)
    p.add_argument("--corpus", default=os.path.join(HERE, "Corpus", "cells.jsonl"))
    p.add_argument("--plumb", default=os.path.join(ROOT, ".build", "release", "plumb"))
    p.add_argument("--pango", default=os.path.join(ROOT, ".build", "release", "pango-measure"))
    p.add_argument("--families", default="Noto Sans,Noto Sans CJK SC")
    p.add_argument("--size", default="15")
    p.add_argument("--width", default="320")
    args = p.parse_args()

    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False, encoding="utf-8") as f:
        for row in numbered_rows(args.corpus, args.rows):
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
        path = f.name
    style = ["--families", args.families, "--size", args.size, "--width", args.width]
    plumb = [args.plumb, "measure", path, "--compatibility", "pango"] + style
    pango = [args.pango, path, "--families", args.families.replace(",", ", "), "--size", args.size, "--width", args.width]
    try:
        timed(plumb + ["--workers", "1"])  # warm the page cache: fonts, libraries, input
        one, two, ref, vs_pango, speedup, cores = [], [], [], [], [], []
        for _ in range(args.rounds):
            t1, out1 = timed(plumb + ["--workers", "1"])
            tp, outp = timed(pango)
            t2, _ = timed(plumb + ["--workers", "2"])
            cores.append(timed.cpu / t2)
            one.append(t1), ref.append(tp), two.append(t2)
            vs_pango.append(tp / t1), speedup.append(t1 / t2)
        mine = [json.loads(l)["lines"] for l in out1.decode().splitlines()]
        theirs = [json.loads(l)["lines"] for l in outp.decode().splitlines()]
        same = sum(a == b for a, b in zip(mine, theirs))
    finally:
        os.unlink(path)

    print(f"{args.rows} rows, {args.rounds} rounds, whole process (ms, median):")
    print(f"  plumb measure --workers 1: {statistics.median(one) * 1e3:.1f}")
    print(f"  plumb measure --workers 2: {statistics.median(two) * 1e3:.1f}")
    print(f"  pango-measure:             {statistics.median(ref) * 1e3:.1f}")
    lo, mid, hi = quartiles(vs_pango)
    print(f"  Pango ÷ plumb (1 worker):  {mid:.2f}× (quartiles {lo:.2f}–{hi:.2f})")
    lo, mid, hi = quartiles(speedup)
    print(f"  1 ÷ 2 workers:             {mid:.2f}× (quartiles {lo:.2f}–{hi:.2f})")
    lo, mid, hi = quartiles(cores)
    print(f"  cores used by 2 workers:   {mid:.2f} (CPU time ÷ wall time; quartiles {lo:.2f}–{hi:.2f})")
    print(f"  line counts: pango profile {sum(mine)}, Pango {sum(theirs)}; "
          f"{100 * same / max(1, len(theirs)):.2f} % of cells equal")


if __name__ == "__main__":
    main()
