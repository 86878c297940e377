#!/usr/bin/python3
"""The rich-text conformance corpus (issue 14): the real corpus texts split into runs.

    /usr/bin/python3 Tests/Conformance/rich_corpus.py > /tmp/rich_cases.jsonl

Deterministic (seeded): every cell of `Benchmarks/Corpus/cells.jsonl` becomes a few cases, one
per width, each a JSON object in the command line's cell format (issue 14): `families`, `size`
and `width` for the cell, and `runs`, each either `{"text": …}` with optional `weight`, `size`
and `families` overrides or `{"attachment": {"width", "height", "baselineOffset"}}` (an inline
box: one U+FFFC of the flattened text). Run boundaries fall at word boundaries and, in about a
third of the splits, inside words (between two letters of a script that does not join or
reorder); adjacent runs always differ in font (family, size or weight), so no engine shapes
across a boundary. No run boundary and no box falls inside a grapheme cluster.

`rich_pango.py` and `rich_chromium.py` measure these cases; `RichConformanceTests` (Swift)
measures them in Plumb; `rich_compare.py` compares.
"""
import argparse
import json
import os
import random
import sys
import unicodedata

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# The plain harness's cascades, widths and size, so both corpora measure the same cells.
from conformance import CASCADES, HERE, ROOT, SIZE, WIDTHS  # noqa: E402

RUN_FAMILIES = CASCADES + [["DejaVu Sans Mono", "Noto Sans CJK SC"]]
WIDTHS_PER_CELL = 3
RUN_SIZES = [12.0, 13.0, 17.0, 20.0]
# (width, height, baselineOffset): an avatar, a custom emoji, a badge, a small icon, a raised
# superscript-like marker, a wide pill.
BOXES = [(18, 18, -3), (16, 16, 0), (20, 20, -4), (12, 12, 0), (10, 8, 6), (36, 14, -2)]

# Scripts whose letters join or reorder: a run boundary between two of their letters would test
# shaping context, not line breaking, so splits inside words avoid them.
COMPLEX = [(0x0590, 0x08FF), (0x0900, 0x0DFF), (0x0E00, 0x0FFF), (0x1000, 0x109F), (0x1780, 0x18AF)]


def is_complex(ch):
    o = ord(ch)
    return any(a <= o <= b for a, b in COMPLEX)


def is_extender(ch):
    """A character that continues the grapheme cluster before it."""
    o = ord(ch)
    return (unicodedata.category(ch).startswith("M") or o in (0x200D, 0x20E3) or 0xFE00 <= o <= 0xFE0F
            or 0x1F3FB <= o <= 0x1F3FF or 0xE0020 <= o <= 0xE007F)


def is_regional(ch):
    return 0x1F1E6 <= ord(ch) <= 0x1F1FF


def grapheme_boundary(text, i):
    """Whether a run may end before text[i] (a conservative grapheme-boundary test)."""
    if i <= 0 or i >= len(text):
        return True
    a, b = text[i - 1], text[i]
    if is_extender(b) or a == "\u200d" or (a == "\r" and b == "\n"):
        return False
    return not (is_regional(a) and is_regional(b))


def split_points(text, rng):
    """Run boundaries: after spaces (word boundaries) and, sometimes, between two letters."""
    words = [i for i in range(1, len(text)) if text[i - 1] == " " and text[i] != " " and grapheme_boundary(text, i)]
    inner = [i for i in range(1, len(text))
             if text[i - 1].isalpha() and text[i].isalpha() and not is_complex(text[i - 1])
             and not is_complex(text[i]) and grapheme_boundary(text, i)]
    want = max(1, min(12, len(text) // 14))
    points = set()
    for _ in range(want):
        pool = inner if inner and rng.random() < 0.35 else words or inner
        if pool:
            points.add(rng.choice(pool))
    return sorted(points)


def attributes(rng, previous, base_families):
    """Attributes for the next run, different in font from the previous run's."""
    while True:
        a = {}
        r = rng.random()
        if r < 0.3:
            pass  # the cell's own style
        else:
            if rng.random() < 0.5:
                a["weight"] = 700
            if rng.random() < 0.45:
                a["size"] = rng.choice(RUN_SIZES)
            if rng.random() < 0.35:
                a["families"] = rng.choice(RUN_FAMILIES)
        font = (tuple(a.get("families", base_families)), a.get("size", SIZE), a.get("weight", 400))
        if font != previous:
            return a, font


def box_positions(text, rng):
    """Where inline boxes go (scalar offsets into the text): at the start, before a word, at
    the end or anywhere between two grapheme clusters."""
    n = rng.choice([0, 0, 1, 1, 1, 2, 3])
    spots = []
    for _ in range(n):
        r = rng.random()
        if r < 0.15:
            spots.append(0)
        elif r < 0.3:
            spots.append(len(text))
        elif r < 0.7:
            words = [i for i in range(1, len(text)) if text[i - 1] == " " and text[i] != " "]
            spots.append(rng.choice(words) if words else len(text))
        else:
            spots.append(rng.choice([i for i in range(len(text) + 1) if grapheme_boundary(text, i)]))
    return sorted(spots)


def rich_runs(text, base_families, rng):
    """Splits `text` into styled runs and inserts inline boxes."""
    cuts = split_points(text, rng)
    boxes = box_positions(text, rng)
    bounds = sorted(set([0, len(text)] + cuts + boxes))
    runs, previous = [], (tuple(base_families), SIZE, 400)
    pending_boxes = list(boxes)
    for start, end in zip(bounds, bounds[1:] + [None]):
        while pending_boxes and pending_boxes[0] == start:
            w, h, o = rng.choice(BOXES)
            runs.append({"attachment": {"width": w, "height": h, "baselineOffset": o}})
            pending_boxes.pop(0)
        if end is None or start == end:
            continue
        a, previous = attributes(rng, previous, base_families)
        run = {"text": text[start:end]}
        run.update(a)
        runs.append(run)
    return runs


def flattened(runs):
    """The text an engine lays out: the runs' text, a box being U+FFFC."""
    return "".join(r["text"] if "text" in r else "\ufffc" for r in runs)


def cases(cells, seed=14):
    """Every rich case of the corpus, in order (deterministic for a seed)."""
    rng = random.Random(seed)
    out = []
    for cell in cells:
        families = rng.choice(CASCADES)
        runs = rich_runs(cell["text"], families, rng)
        for width in sorted(rng.sample(WIDTHS, WIDTHS_PER_CELL)):
            out.append({"id": len(out), "cell": cell["id"], "script": cell.get("script", "?"),
                        "families": families, "size": SIZE, "width": width, "runs": runs})
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default=os.path.join(ROOT, "Benchmarks/Corpus/cells.jsonl"))
    ap.add_argument("--limit", type=int, default=0, help="only the first N corpus cells")
    args = ap.parse_args()
    cells = [json.loads(l) for l in open(args.corpus, encoding="utf-8") if l.strip()]
    if args.limit:
        cells = cells[: args.limit]
    for c in cases(cells):
        sys.stdout.write(json.dumps(c, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    sys.exit(main())
