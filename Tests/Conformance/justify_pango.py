#!/usr/bin/python3
"""Pango's justification against the `pango` profile (issue 27, items 4 and 6).

    /usr/bin/python3 Tests/Conformance/justify_pango.py --plumb .build/release/plumb \\
        [--limit N] [--write-subset FILE] [--report FILE] [--show N] \\
        [--reference-cache FILE] [--reference-only] [--hand-checks]

Cases: `justify.py`'s under `pango` (corpus cells, sentences, paragraphs and Latin + CJK joins;
modes last-natural and last-justified; 10 % of the left-to-right texts with indents: first-line,
hanging, both, tail-negative, tail-positive). Pango is set up as in `indents_pango.py`
(unhinted, fractional positions, WRAP_WORD_CHAR, no inserted hyphens, language "en", sizes in
whole Pango units, left alignment: auto-dir puts an RTL paragraph's lines at the right, as
Plumb's natural alignment does; the indents as `pango_layout_set_indent` and the width from
the smaller indent to the line end) and

    last-natural     pango_layout_set_justify (TRUE)              (Plumb: "alignment": "justified")
    last-justified   + pango_layout_set_justify_last_line (TRUE)  (+ "lastLineAlignment": "justified")
    natural layout   justify FALSE, justify-last-line FALSE       (Plumb: no alignment field)

Pango gives the layout's logical height, the line starts (Unicode scalars) and per grapheme its
logical x extent from `pango_layout_index_to_pos` (layout coordinates, plus the layout's offset
in the box: points from the box's left; an RTL cluster's negative width turned into [min, max]).
`index_to_pos` snaps an index inside a grapheme to the grapheme (Pango's cursor positions), so a
grapheme is a run of scalars with the same rect (PyGObject cannot read PangoLogAttr's
bit-fields); line separators are left out. Its natural layout gives the height and the line
starts. Plumb (`measure --lines --line-starts --clusters --exact-numbers`, `"compatibility":
"pango"`; once more without the alignment fields) gives the end of its last line box, its line
starts and its clusters per line ([start, end, minX, maxX]). Scored by `justify.score`: starts;
heights equal in Pango units (|difference| < 0.5 unit); where the starts agree every cluster's
left x and every line's justified width within 0.02 pt; the natural layouts' starts; Plumb's and
Pango's own starts with and without justification.

What Pango 1.50.12 does (`justify_words`, `justify_clusters` in pango-layout.c; `--hand-checks`
asserts each, DejaVu Sans 15): only a wrapped line is justified (a paragraph's last line too
with justify-last-line); its leftover width in Pango units goes to the U+0020 and U+00A0 glyphs
in proportion to their widths (cumulative integer division), each share rounded to a whole
point when the leftover is a whole number of points; a line without a space spreads it in equal
shares between its clusters (`total / gaps` plus the rounding residual, halves on either side,
none at the line's edges, so it can end a few units short). Two quirks the oracle records as
Pango gives them: the final space of a wrapped line is zeroed after the leftover was measured,
and its width is only given back when the break fell inside an item, so a line whose final
space ends its item (the next line starts another font's or script's run) is justified one
space short; and `justify_clusters` takes its last half gap back from the run's last glyph (that
zeroed space, whose width turns negative) instead of the last cluster, whose box then ends half
a gap past the line (`justify.line_width` cuts the line there).

`--reference-cache FILE` keeps Pango's answers (read when made for the same cases, else
written); `--reference-only` stops after them; `--write-subset FILE` stores 300 cases with
Pango's answers (`pangoHeight`, `pangoLineStarts`, `pangoClusters`: per line [startScalar,
minX, maxX]), a quarter of them misses when Plumb ran (no `scale`: Plumb's default, 2, as the
other Pango subsets). Without `--reference-only` the Plumb binary must have `--clusters`.
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import conformance as conf  # noqa: E402
import indents  # noqa: E402
import indents_pango  # noqa: E402
import justify  # noqa: E402
from gi.repository import Pango  # noqa: E402

S = Pango.SCALE
SUBSET = 200


def clusters(layout, text, base):
    """[start scalar, minX, maxX] of every grapheme in the laid-out `layout`, points from the
    box's left (`base`: the layout's left in the box); line separators left out."""
    out, prev, b = [], None, 0
    for i, ch in enumerate(text):
        p = layout.index_to_pos(b)
        key = (p.x, p.width, p.y)
        if key != prev and ch not in justify.SEPARATORS:
            a, z = p.x, p.x + p.width
            out.append([i, min(a, z) / S + base, max(a, z) / S + base])
        prev = key
        b += len(ch.encode("utf-8"))
    return out


def pango_measure(measurer, case, natural=False):
    """(height, line starts, clusters per line) of the justified layout, or (height, line
    starts) of the natural one."""
    layout = measurer.layout
    layout.set_justify(not natural)
    layout.set_justify_last_line(not natural and case.get("lastLineAlignment") == "justified")
    h, starts, _ = indents_pango.pango_measure(measurer, case)
    if natural:
        return h, starts
    base = min(case.get("firstLineHeadIndent", 0), case.get("headIndent", 0))
    return h, starts, justify.per_line(starts, clusters(layout, case["text"], base))


def measure_all(cases):
    """Per case (height, starts, clusters per line, natural height, natural starts)."""
    measurer = conf.PangoMeasurer()
    out = []
    for c in cases:
        h, starts, cl = pango_measure(measurer, c)
        nh, ns = pango_measure(measurer, c, natural=True)
        out.append((h, starts, cl, nh, ns))
    return out


def references(cases, cache):
    """Pango's answers, from the cache when it was made for these cases."""
    key = "pango justify 1 %s %s" % (Pango.version_string(), indents.fingerprint(cases))
    cached = indents.load_cache(cache, key)
    if cached is not None:
        return [tuple(r) for r in cached], True
    results = measure_all(cases)
    indents.store_cache(cache, key, results)
    return results, False


LINE = "Hello world this is a justified text sample"


def widths(r, line, text):
    """The advances of a line's spaces (the last, hanging one left out)."""
    return [q[2] - q[1] for q in r[2][line][:-1] if text[q[0]] == " "]


def whole(v):
    return abs(v - round(v)) < 1e-9


HAND = [
    # (what it shows, case fields, check(result, text) -> bool)
    ("a wrapped line spans the width; its final space is zeroed", {"text": LINE, "width": 150},
     lambda r, t: r[1] == [0, 22, 37] and abs(r[2][0][-2][2] - 150) < 1e-9 and r[2][0][-1][1] == r[2][0][-1][2]),
    ("equal spaces get equal shares; whole-point leftover: whole-point shares",
     {"text": "aaa bbb ccc ddd eee", "width": 120},
     lambda r, t: len(set(round(w, 6) for w in widths(r, 0, t))) <= 2 and all(
         whole(w - widths(r, 0, t)[0]) for w in widths(r, 0, t))),
    ("a paragraph's last line stays natural", {"text": LINE, "width": 150}, lambda r, t: r[2][2][-1][2] < 100),
    ("justify-last-line stretches it", {"text": LINE + " ok", "width": 150, "lastLineAlignment": "justified"},
     lambda r, t: abs(r[2][2][-1][2] - 150) < 1e-9),
    ("... and a lone line", {"text": "Hello world foo bar", "width": 300, "lastLineAlignment": "justified"},
     lambda r, t: abs(r[2][0][-1][2] - 300) < 1e-9),
    ("no spaces: between clusters, half a gap each side, none at the edges (16, 17 … 17, 16)",
     {"text": "中文中文中文中文中文中文中文", "width": 100, "families": ["Noto Sans CJK SC"]},
     lambda r, t: [round(q[2] - q[1], 6) for q in r[2][0]] == [16, 17, 17, 17, 17, 16]),
    ("... also a Latin word broken by WRAP_WORD_CHAR (its integer halves end 8 units short of 100)",
     {"text": "Helloworldfoobarbazquux", "width": 100},
     lambda r, t: len(r[1]) > 1 and abs(r[2][0][-1][2] - (100 - 8 / S)) < 1e-9 and r[2][0][0][1] == 0),
    ("the last line before a newline stays natural", {"text": "Hello world foo bar\nbaz qux quux corge", "width": 100},
     lambda r, t: r[1][:3] == [0, 12, 20] and r[2][1][-1][2] < 99 and abs(r[2][0][-2][2] - 100) < 1e-9),
    ("a line whose final space ends its item (CJK follows) is justified one space short (65.23 of 70)",
     {"text": "abc def 中文中文", "width": 70, "families": ["DejaVu Sans", "Noto Sans CJK SC"]},
     lambda r, t: r[1] == [0, 8] and abs(r[2][0][-2][2] - (70 - 4.7685546875)) < 1e-9),
    ("... but not when the word after it is in the same item", {"text": "abc def ghi jkl", "width": 70},
     lambda r, t: abs(r[2][0][-2][2] - 70) < 1e-9),
    ("no space: the last cluster's box ends half a gap past the line, the zeroed space's width goes negative",
     {"text": "package is", "width": 80},
     lambda r, t: r[2][0][-2][2] > 81 and abs(r[2][0][-1][1] - (80 - 4 / S)) < 1e-9),
    ("RTL: the natural last line at the right (auto-dir)", {"text": "שלום עולם זה טקסט ארוך מאוד", "width": 100},
     lambda r, t: abs(r[2][-1][0][2] - 100) < 1e-9 and r[2][-1][-1][1] > 50),
]


def hand_checks():
    """Lays the HAND cases out and prints what Pango did; False when one fails."""
    measurer = conf.PangoMeasurer()
    ok = True
    for what, fields, check in HAND:
        case = dict({"families": ["DejaVu Sans"], "size": 15, "alignment": "justified"}, **fields)
        r = pango_measure(measurer, case)
        same = check(r, case["text"])
        ok = ok and same
        print("%-4s %s\n    %r w%s: starts %s, lefts %s" % (
            "ok" if same else "DIFF", what, case["text"][:40], case["width"], r[1],
            [[round(q[1], 4) for q in line][:8] for line in r[2]]))
    return ok


def main():
    """Lays the cases out in Pango and Plumb, writes the subset and prints the scores."""
    ap = justify.argument_parser("Pango", "%d cases" % SUBSET)
    args = ap.parse_args()
    if args.hand_checks:
        return 0 if hand_checks() else 1
    cases = justify.load_cases(args, "pango")
    if not args.reference_only:
        note = justify.wait_note(args.plumb)
        if note:
            print(note + "; use --reference-only")
            return 2
    t0 = time.time()
    theirs, cached = references(cases, args.reference_cache)
    justify.reference_tags(cases, theirs)
    print("Pango %s %s in %.1f s; %d lines, %d clusters" % (
        Pango.version_string(), "from the cache" if cached else "laid out", time.time() - t0,
        sum(len(t[1]) for t in theirs), sum(len(l) for t in theirs for l in t[2])))
    missed, stats = [], None
    if not args.reference_only:
        t0 = time.time()
        mine = justify.plumb(args.plumb, cases, "pango")
        print("Plumb in %.1f s" % (time.time() - t0))
        stats, misses = justify.score(cases, theirs, mine, lambda a, b: abs(a - b) * S < 0.5, "pango")
        justify.print_stats("profile pango against Pango:", stats)
        justify.print_misses(misses, "pango", args.show)
        position = {id(c): i for i, c in enumerate(cases)}
        missed = [(position[id(c)], name) for c, _, _, name in misses]
    if args.write_subset:
        rows = [justify.subset_row(cases[i], "pango", "pango", theirs[i])
                for i in justify.pick_subset(cases, SUBSET, 27, missed)]
        indents.write_rows(args.write_subset, rows)
    if args.report and stats:
        indents.write_report(args.report, stats)
    return 0


if __name__ == "__main__":
    sys.exit(main())
