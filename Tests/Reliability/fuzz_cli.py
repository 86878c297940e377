#!/usr/bin/env python3
"""Fuzzes `plumb measure` with seeded hostile JSON Lines and checks every answer.

Each input line is one of: a valid cell with random (often absurd) style fields, a rich cell
with random (often bad) runs, invalid JSON, random bytes, a hostile text (a long unbreakable
word, thousands of combining marks, lone surrogates, control characters), or a blank line.
Checks: the process exits 0 or 1 (never a crash), one output line per non-blank input line in
order, each an object echoing the id with either an error or finite, non-negative sizes on the
pixel grid.

Usage: Tests/Reliability/fuzz_cli.py [--lines N] [--seed S] [--binary PATH]
"""
import argparse, json, math, os, random, subprocess, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WORDS = ["hello", "世界", "مرحبا", "שלום", "😀", "👨‍👩‍👧", "e\u0301", "नमस्ते", "ไทย", "-", "/", " ", "\t", "…", "\u00a0"]
NUMBERS = [0, -1, 1e-9, 1e9, 1e308, -1e308, 0.5, 15, 375, "NaN", None, True, "15", [], {}]


def number(r):
    x = r.choice(NUMBERS)
    if x == "NaN":
        return float("nan")
    return x if not isinstance(x, (int, float)) or isinstance(x, bool) else x * r.choice([1, 1, 3.7])


def text(r):
    kind = r.random()
    if kind < 0.05:
        return "x" * r.randint(1000, 200000)
    if kind < 0.08:
        return "e" + "\u0301" * r.randint(100, 20000)
    return "".join(r.choice(WORDS) for _ in range(r.randint(0, 40)))


def cell(r, i):
    c = {"id": i}
    if r.random() < 0.15:
        runs = []
        for _ in range(r.randint(0, 5)):
            if r.random() < 0.2:
                runs.append({"attachment": {"width": number(r), "height": number(r), "baselineOffset": number(r)}})
            elif r.random() < 0.05:
                runs.append({"bogus": 1})
            else:
                run = {"text": text(r)}
                for key in ["size", "weight", "letterSpacing", "baselineOffset"]:
                    if r.random() < 0.3:
                        run[key] = number(r)
                runs.append(run)
        c["runs"] = runs
    else:
        c["text"] = text(r)
    for key in ["width", "size", "scale", "lineSpacing", "maxLines", "minimumLineHeight", "heightLimit",
                "letterSpacing", "weight", "tabInterval", "paragraphSpacing"]:
        if r.random() < 0.2:
            c[key] = number(r)
    if r.random() < 0.1:
        c["lineBreakMode"] = r.choice(["truncatingTail", "charWrapping", "clipping", "bogus"])
    if r.random() < 0.1:
        c["compatibility"] = r.choice(["standard", "pango", "chromium", "x"])
    return c


def line(r, i):
    kind = r.random()
    if kind < 0.03:
        return b""
    if kind < 0.06:
        return bytes(r.randrange(256) for _ in range(r.randint(1, 40))).replace(b"\n", b" ")
    if kind < 0.09:
        return b'{"id": %d, "text": "unterminated' % i
    data = json.dumps(cell(r, i), ensure_ascii=r.random() < 0.5, allow_nan=True)
    if r.random() < 0.02:
        data = data.replace('"text": "', '"text": "\\ud800', 1)  # a lone surrogate
    return data.encode()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lines", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--binary", default=os.path.join(ROOT, ".build/release/plumb"))
    args = ap.parse_args()
    r = random.Random(args.seed)
    inputs = [line(r, i) for i in range(args.lines)]
    blob = b"\n".join(inputs) + b"\n"
    start = time.time()
    p = subprocess.run([args.binary, "measure", "--lines"], input=blob, capture_output=True)
    elapsed = time.time() - start
    if p.returncode not in (0, 1):
        sys.exit(f"FAIL: exit status {p.returncode}\n{p.stderr.decode(errors='replace')[-2000:]}")
    expected = [i for i, l in enumerate(inputs) if l.strip(b" \t\r")]
    out = p.stdout.decode().splitlines()
    if len(out) != len(expected):
        sys.exit(f"FAIL: {len(out)} output lines for {len(expected)} non-blank input lines")
    errors = 0
    for k, (i, o) in enumerate(zip(expected, out)):
        v = json.loads(o)
        if "error" in v:
            errors += 1
            continue
        for key in ["height", "width"]:
            x = v[key]
            if not (isinstance(x, (int, float)) and math.isfinite(x) and x >= 0):
                sys.exit(f"FAIL: input line {i + 1}: {key} {x!r}")
        for box in v.get("lineBoxes", []):
            if not all(isinstance(n, (int, float)) and math.isfinite(n) for n in box["rect"] + [box["baseline"]]):
                sys.exit(f"FAIL: input line {i + 1}: non-finite line box {box}\ninput: {inputs[i][:300]!r}")
    print(f"{args.lines} lines (seed {args.seed}): {len(out)} answers, {errors} per-line errors, "
          f"0 crashes, every number finite and >= 0; {elapsed:.1f} s ({len(blob) / 1e6:.1f} MB in)")


if __name__ == "__main__":
    main()
