#!/usr/bin/python3
"""Paragraph indents in Pango against the `pango` profile (issue 27, items 1 and 6).

    /usr/bin/python3 Tests/Conformance/indents_pango.py --plumb .build/release/plumb \\
        [--limit N] [--write-subset FILE] [--report FILE] [--show N] \\
        [--reference-cache FILE] [--reference-only] [--hand-checks]

Cases: `indents.py`'s under `pango` (kinds none, first-line, hanging, both, tail-negative,
tail-positive; no negative indents: the profile clamps them; texts of several paragraphs,
tabbed texts and texts joined by U+2028, U+2029, CR LF and CR). Pango is set up as in
`conformance.py` and `pango_heights.py` (unhinted, fractional positions, WRAP_WORD_CHAR, no
inserted hyphens, language "en", sizes in whole Pango units, left alignment) and given the
indents as a Pango client places a layout in the box:

    base   = min(firstLineHeadIndent, headIndent)     (where the layout's left edge is)
    end    = tailIndent if tailIndent > 0 else width + tailIndent
    pango_layout_set_width   (end − base)
    pango_layout_set_indent  (firstLineHeadIndent − headIndent)
                             (above 0: each paragraph's first line indented; below 0, Pango's
                             hanging indent: every other line indented by its magnitude)
    pango_layout_set_tabs    one 28-pt stop (tabbed cases; Plumb's tabInterval 28)

Pango gives the layout's logical height, the line starts (Unicode scalars) and each line's
logical x (plus `base`: the box's coordinates); Plumb (`measure --lines --line-starts
--exact-numbers`, the indent fields on the JSON line, `"compatibility": "pango"`) the end of
its last line box, its line starts and its line boxes' x. A height agrees when it is the same
number of Pango units (|difference| < 0.5 unit); line x (left-to-right texts whose starts agree)
within 0.01 pt, scored apart. Prints the agreement overall, per kind and per tag, then every
disagreement class with examples; a case whose line starts differ is laid out again from the
line whose end differs, alone, without indents, at that line's width, to tell the
disagreements the indents cause ("only with indents") from the plain oracles' ("also without
indents").

`--reference-cache FILE` keeps Pango's answers (read when made for the same cases, else
written); `--reference-only` stops after them (no Plumb needed); `--hand-checks` lays out a few
hand cases that show how Pango applies indents and prints what it found.
"""
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import conformance as conf  # noqa: E402
import indents  # noqa: E402
import pango_heights  # noqa: E402
from gi.repository import Pango  # noqa: E402

S = Pango.SCALE
units = pango_heights.units


def tab_array():
    """One left stop at 28 pt: Pango repeats its distance (stops every 28 pt)."""
    tabs = Pango.TabArray.new(1, False)
    tabs.set_tab(0, Pango.TabAlign.LEFT, units(indents.TAB))
    return tabs


def case_tabs(case):
    """The tab array of a case: one 28-pt stop for the tabbed cases, else Pango's default."""
    return tab_array() if "tabInterval" in case else None


def pango_measure(measurer, case, alignment=Pango.Alignment.LEFT, tabs=case_tabs):
    """(layout height in points, line starts, line x in the box's coordinates) of one case;
    `tabs(case)` gives its tab array (`tabs_pango.py` passes its own)."""
    layout = measurer.layout
    first, head = case.get("firstLineHeadIndent", 0), case.get("headIndent", 0)
    assert first >= 0 and head >= 0, "Pango's cases have no negative indents"
    base = min(first, head)
    key = (tuple(case["families"]), case["size"])
    if key not in measurer.fonts:
        desc = Pango.FontDescription.from_string(", ".join(case["families"]))
        desc.set_absolute_size(units(case["size"]))
        measurer.fonts[key] = desc
    layout.set_font_description(measurer.fonts[key])
    layout.set_width(units(indents.line_end(case) - base))
    layout.set_indent(units(first - head))
    layout.set_alignment(alignment)
    layout.set_tabs(tabs(case))
    layout.set_text(case["text"], -1)
    raw = case["text"].encode("utf-8")
    starts, xs = [], []
    it = layout.get_iter()
    while True:
        line = it.get_line_readonly()
        starts.append(len(raw[: line.start_index].decode("utf-8", "replace")))
        _, logical = it.get_line_extents()
        xs.append(logical.x / S + base)
        if not it.next_line():
            break
    return layout.get_extents()[1].height / S, starts, xs


def references(cases, cache):
    """Pango's answers, from the cache when it was made for these cases."""
    key = "pango %s %s" % (Pango.version_string(), indents.fingerprint(cases))
    cached = indents.load_cache(cache, key)
    if cached is not None:
        return [tuple(r) for r in cached], True
    measurer = conf.PangoMeasurer()
    results = [pango_measure(measurer, c) for c in cases]
    indents.store_cache(cache, key, results)
    return results, False


# (what it shows, case, alignment, the lines' x expected)
LONG = "aaa bbb ccc ddd eee fff ggg hhh iii jjj kkk\nlll mmm nnn ooo ppp qqq rrr sss ttt"
HAND = [
    ("a positive indent: the first line of every paragraph", {"text": LONG, "firstLineHeadIndent": 30}, "left",
     [30, 0, 30, 0]),
    ("a negative indent (hanging): every line but each paragraph's first", {"text": LONG, "headIndent": 20}, "left",
     [0, 20, 0, 20]),
    ("an empty paragraph is indented too", {"text": "\nxxx", "firstLineHeadIndent": 30}, "left", [30, 30]),
    ("U+2028 breaks the line inside the paragraph (no indent); U+2029, CR LF and CR start paragraphs",
     {"text": "aaa\u2028bbb\u2029ccc\r\nddd\reee", "firstLineHeadIndent": 30}, "left", [30, 0, 30, 30, 30]),
    ("right alignment: the indent moves the line's end in, not its start (ends at 170)",
     {"text": "aaa bbb", "firstLineHeadIndent": 30}, "right", None),
    ("center alignment: centered in the whole width, the indent ignored (centre 100, not 115)",
     {"text": "aaa bbb", "firstLineHeadIndent": 30}, "center", None),
]


def hand_checks():
    """Lays the HAND cases out and prints what Pango did; then where a tab stop lands."""
    measurer = conf.PangoMeasurer()
    ok = True
    for what, case, align, expected in HAND:
        case = dict(case, families=["DejaVu Sans"], size=15, width=200)
        h, starts, xs = pango_measure(measurer, case, getattr(Pango.Alignment, align.upper()))
        same = expected is None or all(abs(a - b) < 1e-6 for a, b in zip(xs, expected)) and len(xs) == len(expected)
        ok = ok and same
        line = measurer.layout.get_line_readonly(0)
        print("%-4s %s\n    %r %s: height %s starts %s x %s (first line %s pt wide)" % (
            "ok" if same else "DIFF", what, case["text"][:30], align, h, starts, xs,
            line.get_extents()[1].width / S))
    layout = measurer.layout
    layout.set_alignment(Pango.Alignment.LEFT)
    for indent, text in ((0, "a\tb"), (10, "a\tb"), (-10, "long line long line long line long line\ta\tb")):
        layout.set_width(units(200))
        layout.set_indent(units(indent))
        layout.set_tabs(tab_array())
        layout.set_text(text, -1)
        xs = [layout.index_to_pos(i).x / S for i in range(len(text))]
        print("tab stops every 28 pt, indent %s: %r at x %s" % (indent, text, [round(x, 3) for x in xs]))
    return ok


def x_class(case, theirs, mine):
    """Why line x differs where starts agree: Pango's line after U+2028 (a line separator,
    not a paragraph start) takes headIndent, or another reason."""
    i = next(i for i, (a, b) in enumerate(zip(theirs[2], mine[2])) if abs(a - b) > 0.01)
    start = theirs[1][i]
    if start > 0 and case["text"][start - 1] == "\u2028":
        return "line x only: the line after U+2028"
    return "line x only: other"


def main():
    ap = indents.argument_parser("Pango", "300 cases")
    args = ap.parse_args()
    if args.hand_checks:
        return 0 if hand_checks() else 1
    cases = indents.load_cases(args, "pango", "cases")
    t0 = time.time()
    theirs, cached = references(cases, args.reference_cache)
    print("Pango %s %s in %.1f s; %d lines" % (
        Pango.version_string(), "from the cache" if cached else "laid out", time.time() - t0,
        sum(len(t[1]) for t in theirs)))
    if args.write_subset:
        pick = random.Random(27)
        rows = []
        for i in sorted(pick.sample(range(len(cases)), min(300, len(cases)))):
            row = dict(indents.plumb_request(cases[i], "pango"), kind=cases[i]["kind"], tags=cases[i]["tags"],
                       pangoHeight=theirs[i][0], pangoLineStarts=theirs[i][1])
            if indents.left_to_right(cases[i]["text"]):
                row["pangoLineX"] = theirs[i][2]
            rows.append(row)
        indents.write_rows(args.write_subset, rows)
    if args.reference_only:
        return 0
    t0 = time.time()
    mine = indents.plumb(args.plumb, cases, "pango")
    print("Plumb in %.1f s" % (time.time() - t0))
    stats, misses = indents.score(cases, theirs, mine, lambda a, b: abs(a - b) * S < 0.5)
    misses = [(c, t, m, x_class(c, t, m) if name == "line x only" else name) for c, t, m, name in misses]
    ctrl = indents.controls(misses, "pango")
    measurer = conf.PangoMeasurer()
    indents.reclassify(misses, ctrl, [pango_measure(measurer, c) for _, c, _ in ctrl],
                       indents.plumb(args.plumb, [c for _, c, _ in ctrl], "pango"))
    indents.print_stats("profile pango against Pango:", stats)
    indents.print_misses(misses, "pango", args.show)
    if args.report:
        indents.write_report(args.report, stats)
    return 0


if __name__ == "__main__":
    sys.exit(main())
