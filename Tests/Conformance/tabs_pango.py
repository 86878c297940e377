#!/usr/bin/python3
"""Tab stops in Pango against the `pango` profile.

    /usr/bin/python3 Tests/Conformance/tabs_pango.py --plumb .build/release/plumb \\
        [--limit N] [--write-subset FILE] [--report FILE] [--show N] \\
        [--reference-cache FILE] [--reference-only] [--hand-checks]

Cases: `tabs.py`'s under `pango` (kinds left, right, center, decimal, mixed, extended, default,
indented, near-stop; corpus texts with tabs, table rows, list items). Pango is set up as in
`indents_pango.py` (unhinted, fractional positions, WRAP_WORD_CHAR, no inserted hyphens,
language "en", sizes in whole Pango units, left alignment, the indents as the layout's width
and `pango_layout_set_indent`, the layout at base = min(firstLineHeadIndent, headIndent)) and
given the tab fields as a Pango client would:

    tabStops     pango_layout_set_tabs: one entry per stop (in the order given; Pango sorts
                 them), location − base in Pango units, LEFT/RIGHT/CENTER/DECIMAL, decimal
                 point '.' (set on every entry: the C locale's, whatever the process's locale)
    tabInterval  one LEFT stop at the interval (Pango repeats it)
    tabSize 8    no tab array (Pango's default tabs: 8 spaces of the layout font)

What Pango 1.50.12 does with them (`--hand-checks` shows each, DejaVu Sans 15, width 400):

- a stop's location counts from the layout's edge, not from the indented line start (indent 20,
  stop 50: the text after the tab at 50; a hanging line too: stops at 50, 100, … of the edge);
- past the last stop, stops repeat the last gap (50, 80 → 110, 140) with the last stop's
  alignment, or, with one stop, its location (50 → 100, 150);
- a tab goes to the first stop at least one Pango unit past the pen (a stop at the pen is
  skipped, one 1/1024 pt past it is used, as is one 0.5 pt past it);
- right: the text up to the next tab or the line's end, trailing spaces included, ends at the
  stop; center: it is centred on the stop; decimal: the first '.' is centred on the stop, and a
  text without one (also '12,50') ends at the stop (centre and point to the Pango unit: half
  widths are truncated, up to 0.5 unit off); when the text is too wide for that, the tab
  shrinks to nothing (the text starts at the pen, never left of it);
- a left or center stop past the line's end, or a decimal one whose text has a point: the tab
  ends its line, the text after it starts the next one (stop 150 in width 100: "a⇥b" breaks
  after the tab, b at 0); a right stop, or a decimal one whose text has no point, keeps its
  text on the line, ending at the stop past the line's end (right 120 in width 100:
  "a⇥bbbb cccc" is one line 120 wide; right 300: 300 wide), a repeated stop too;
- default tabs (no array): every 8 spaces of the layout's font, the space's advance in whole
  Pango units (Noto Sans 15: 8 × 3994/1024 = 31.203125, not 8 × 3.9), and a tab needs at least one
  space's width of room before its stop (pen 36.77, stop 38.15: the next one, 76.30), while a
  user's array is "respected to the pixel";
- unsorted stops are sorted (`pango_layout_set_tabs`).

Pango gives the layout's height, the line starts, each line's x and, per tab, the x of the
character after it (`pango_layout_index_to_pos`, in the box's coordinates; `tabs.tab_targets`:
only where that character is on the tab's line, left-to-right texts); Plumb (`measure --lines
--line-starts --exact-numbers`, the tab fields on the JSON line, `"compatibility": "pango"`)
the end of its last line box, its line starts and line boxes' x, and (`plumb render`) the x of
the glyph after each tab. A height agrees when it is the same number of Pango units (|difference|
< 0.5 unit); line x and tab x within 0.01 pt. Prints the agreement overall, per kind and per tag,
then every disagreement class with examples (`tabs.score`).

`--reference-cache FILE` keeps Pango's answers (read when made for the same cases, else
written); `--reference-only` stops after them (no Plumb needed); `--hand-checks` lays out the
hand cases above and prints what Pango did. `--write-subset FILE` stores 300 cases with
Pango's answers (`pangoHeight`, `pangoLineStarts`, `pangoLineX`, `pangoTabX`).
"""
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import conformance as conf  # noqa: E402
import indents  # noqa: E402
import indents_pango  # noqa: E402
import tabs  # noqa: E402
from gi.repository import Pango  # noqa: E402

S = Pango.SCALE
units = indents_pango.units
ALIGN = {"left": Pango.TabAlign.LEFT, "right": Pango.TabAlign.RIGHT, "center": Pango.TabAlign.CENTER,
         "decimal": Pango.TabAlign.DECIMAL}
SUBSET = 300


def base(case):
    """Where the layout's left edge is in the box (`indents_pango`): the smaller indent."""
    return min(case.get("firstLineHeadIndent", 0), case.get("headIndent", 0))


def pango_tabs(case):
    """The case's tab array (module docstring), or None for Pango's default tabs."""
    if "tabStops" in case:
        stops = case["tabStops"]
        array = Pango.TabArray.new(len(stops), False)
        for i, s in enumerate(stops):
            array.set_tab(i, ALIGN[s["alignment"]], units(s["location"] - base(case)))
            array.set_decimal_point(i, ".")
        return array
    if "tabInterval" in case:
        array = Pango.TabArray.new(1, False)
        array.set_tab(0, Pango.TabAlign.LEFT, units(case["tabInterval"]))
        return array
    return None


def char_x(layout, text, offset, x0):
    """The x of the scalar at `offset` in the box's coordinates (the layout at `x0`)."""
    return layout.index_to_pos(len(text[:offset].encode("utf-8"))).x / S + x0


def edge_x(layout, text, first, last, edge, x0):
    """The left of scalar `first`, the right of scalar `last`, or the middle between them."""
    left = char_x(layout, text, first, x0)
    r = layout.index_to_pos(len(text[:last].encode("utf-8")))
    right = (r.x + r.width) / S + x0
    return {"left": left, "right": right, "middle": (left + right) / 2}[edge]


def pango_measure(measurer, case):
    """(height, line starts, line x, tab x or None, text ends or None) of one case in Pango;
    text ends: per line, the right edge of its last character that is not a space, tab or
    line break (None for a line of none), in the box's coordinates (`tabs.starts_class`
    names the lines that run past the box)."""
    h, starts, xs = indents_pango.pango_measure(measurer, case, tabs=pango_tabs)
    text, layout, x0 = case["text"], measurer.layout, base(case)
    if not indents.left_to_right(text):
        return h, starts, xs, None, None
    tab_x = [None if j is None else char_x(layout, text, j, x0) for j in tabs.tab_targets(text, starts)]
    ends = []
    for s, e in zip(starts, starts[1:] + [len(text)]):
        last = next((j for j in range(e - 1, s - 1, -1) if text[j] not in " \t" + tabs.LINE_BREAKS), None)
        ends.append(None if last is None else edge_x(layout, text, last, last, "right", x0))
    return h, starts, xs, tab_x, ends


def references(cases, cache):
    """Pango's answers, from the cache when it was made for these cases."""
    key = "pango tabs 2 %s %s" % (Pango.version_string(), indents.fingerprint(cases))
    cached = indents.load_cache(cache, key)
    if cached is not None:
        return [tuple(r) for r in cached], True
    measurer = conf.PangoMeasurer()
    results = [pango_measure(measurer, c) for c in cases]
    indents.store_cache(cache, key, results)
    return results, False


def stops(*spec):
    """`tabStops` from (location, alignment) pairs."""
    return [{"location": x, "alignment": a} for x, a in spec]


# (what it shows, case fields, checks): a check is (first, last, edge, expected x): the left
# edge of scalar `first`, the right edge of `last`, or the middle between the two. An expected
# x of None only prints; strings name a figure `hand_checks` measures first ("pen": the width
# of "aaaa", "space": a space's width).
HAND = [
    ("one stop at 50 repeats its location: 50, 100, 150", {"text": "a\tb\tc\td", "tabStops": stops((50, "left"))},
     [(2, 2, "left", 50), (4, 4, "left", 100), (6, 6, "left", 150)]),
    ("two stops 50, 80 repeat the last gap: 110, 140", {"text": "a\tb\tc\td\te",
                                                        "tabStops": stops((50, "left"), (80, "left"))},
     [(4, 4, "left", 80), (6, 6, "left", 110), (8, 8, "left", 140)]),
    ("the repeated stops keep the last stop's alignment (right at 80, then right at 110)",
     {"text": "a\tb\tc\td", "tabStops": stops((50, "left"), (80, "right"))},
     [(2, 2, "left", 50), (4, 4, "right", 80), (6, 6, "right", 110)]),
    ("right: the text up to the line's end ends at the stop", {"text": "a\tbcd", "tabStops": stops((100, "right"))},
     [(2, 4, "right", 100)]),
    ("right: trailing spaces count", {"text": "a\tbcd  ", "tabStops": stops((100, "right"))}, [(2, 6, "right", 100)]),
    ("right: up to the next tab", {"text": "a\tbcd\te", "tabStops": stops((100, "right"), (150, "left"))},
     [(2, 4, "right", 100), (6, 6, "left", 150)]),
    ("center: the text is centred on the stop", {"text": "a\tbcd", "tabStops": stops((100, "center"))},
     [(2, 4, "middle", 100)]),
    ("decimal: the first '.' is centred on the stop", {"text": "a\t12.50", "tabStops": stops((100, "decimal"))},
     [(4, 4, "middle", 100)]),
    ("decimal: a ',' is no decimal point (the text ends at the stop)",
     {"text": "a\t12,50", "tabStops": stops((100, "decimal"))}, [(2, 6, "right", 100)]),
    ("decimal: no point: the text ends at the stop", {"text": "a\t1250", "tabStops": stops((100, "decimal"))},
     [(2, 5, "right", 100)]),
    ("right: text wider than the room: the tab shrinks to nothing (starts at the pen)",
     {"text": "aaaa\tbbbbbbbbbb", "tabStops": stops((60, "right"))}, [(5, 5, "left", "pen")]),
    ("a stop at the pen is skipped (the next, pen + 20, is used)",
     {"text": "aaaa\tb", "tabStops": stops(("pen", "left"), ("pen+20", "left"))}, [(5, 5, "left", "pen+20")]),
    ("a stop one Pango unit past the pen is used",
     {"text": "aaaa\tb", "tabStops": stops(("pen+1u", "left"), ("pen+20", "left"))}, [(5, 5, "left", "pen+1u")]),
    ("a stop 0.5 past the pen is used", {"text": "aaaa\tb", "tabStops": stops(("pen+0.5", "left"))},
     [(5, 5, "left", "pen+0.5")]),
    ("unsorted stops (80, 50) are sorted", {"text": "a\tb\tc", "tabStops": stops((80, "left"), (50, "left"))},
     [(2, 2, "left", 50), (4, 4, "left", 80)]),
    ("first-line indent 20, stop 50: from the layout's edge (b at 50)",
     {"text": "a\tb", "firstLineHeadIndent": 20, "tabStops": stops((50, "left"))}, [(2, 2, "left", 50)]),
    ("hanging indent 20 (a later line at 20): stops 50, 100 from the edge (b at 100)",
     {"text": "aaaa bbbb cccc dddd eeee\tb", "width": 150, "headIndent": 20, "tabStops": stops((50, "left"))},
     [(25, 25, "left", 100)]),
    ("indents 30 and 10 (layout at 10), box stop 50 (array 40): b at 50 in the box",
     {"text": "a\tb", "firstLineHeadIndent": 30, "headIndent": 10, "tabStops": stops((50, "left"))},
     [(2, 2, "left", 50)]),
    ("default tabs: every 8 spaces", {"text": "a\tb\tc", "tabSize": 8},
     [(2, 2, "left", "8 spaces"), (4, 4, "left", "16 spaces")]),
    ("default tabs: 8 spaces in whole Pango units (Noto Sans 15: 8 x 3994/1024 = 31.203125, not 8 x 3.9)",
     {"text": "a\tb", "tabSize": 8, "families": ["Noto Sans"]}, [(2, 2, "left", 31.203125)]),
    ("default tabs need a space's room: pen 36.77 before 38.15 goes to 76.30", {"text": "aaaa\tb", "tabSize": 8},
     [(5, 5, "left", "16 spaces")]),
    ("a tab array at 8 spaces has no such room: b at 38.15",
     {"text": "aaaa\tb", "tabStops": stops(("8 spaces", "left"))},
     [(5, 5, "left", "8 spaces")]),
    ("tabInterval 28: one stop at 28, repeated", {"text": "a\tb\tc", "tabInterval": 28},
     [(2, 2, "left", 28), (4, 4, "left", 56)]),
    ("a stop past the width (150 in 100): the tab ends the line, b at 0 on the next",
     {"text": "a\tb", "width": 100, "tabStops": stops((150, "left"))}, [(2, 2, "left", 0)]),
    ("right: a text that ends at a stop past the width stays on the line (one line, 120 wide in 100)",
     {"text": "a\tbbbb cccc", "width": 100, "tabStops": stops((120, "right"))}, [(2, 10, "right", 120)]),
    ("decimal past the width, a point: the tab ends the line as a left one does (bb.bb at 0)",
     {"text": "a\tbb.bb", "width": 100, "tabStops": stops((110, "decimal"))}, [(2, 2, "left", 0)]),
    ("decimal past the width, no point: as a right one (one line, bbbb ends at 110)",
     {"text": "a\tbbbb", "width": 100, "tabStops": stops((110, "decimal"))}, [(2, 5, "right", 110)]),
    ("center past the width: the tab ends the line (bbbb at 0)",
     {"text": "a\tbbbb", "width": 100, "tabStops": stops((120, "center"))}, [(2, 2, "left", 0)]),
]


def figures(measurer):
    """The figures the hand checks name: the pen after "aaaa" and a space's width."""
    pango_measure(measurer, {"text": "aaaa", "families": ["DejaVu Sans"], "size": 15, "width": 400})
    layout = measurer.layout
    pen = layout.get_extents()[1].width / S
    layout.set_text(" ", -1)
    space = layout.get_extents()[1].width / S
    return {"pen": pen, "pen+20": pen + 20, "pen+1u": pen + 1 / S, "pen+0.5": pen + 0.5, "8 spaces": 8 * space,
            "16 spaces": 16 * space}


def resolve(v, named):
    """A number, or the figure a string names."""
    return named[v] if isinstance(v, str) else v


def hand_checks():
    """Lays the HAND cases out (DejaVu Sans 15, width 400 unless given) and prints what Pango
    did; False when a check is off by more than 0.5 Pango unit."""
    measurer = conf.PangoMeasurer()
    named = figures(measurer)
    print("pen after 'aaaa' %.4f, space %.4f, 8 spaces %.4f" % (named["pen"], named["8 spaces"] / 8,
                                                                named["8 spaces"]))
    ok = True
    for what, fields, checks in HAND:
        case = dict({"families": ["DejaVu Sans"], "size": 15, "width": 400}, **fields)
        if "tabStops" in case:
            case["tabStops"] = [dict(s, location=resolve(s["location"], named)) for s in case["tabStops"]]
        h, starts, xs, _, _ = pango_measure(measurer, case)
        got, same = [], True
        for first, last, edge, expected in checks:
            x = edge_x(measurer.layout, case["text"], first, last, edge, base(case))
            e = resolve(expected, named)
            got.append("%s %.4f%s" % (edge, x, "" if e is None else " (expected %.4f)" % e))
            same = same and (e is None or abs(x - e) * S <= 0.5 + 1e-9)
        ok = ok and same
        print("%-4s %s\n    %r: starts %s, %s" % ("ok" if same else "DIFF", what, case["text"], starts, "; ".join(got)))
    return ok


def main():
    """Lays the cases out in Pango and Plumb, writes the subset and prints the scores."""
    ap = indents.argument_parser("Pango", "%d cases" % SUBSET)
    args = ap.parse_args()
    if args.hand_checks:
        return 0 if hand_checks() else 1
    t0 = time.time()
    cases = tabs.load_cases(args, "pango")
    theirs, cached = references(cases, args.reference_cache)
    tabs.reference_tags(cases, theirs)
    print("Pango %s %s in %.1f s; %d lines, %d tab x" % (
        Pango.version_string(), "from the cache" if cached else "laid out", time.time() - t0,
        sum(len(t[1]) for t in theirs), sum(sum(x is not None for x in t[3] or []) for t in theirs)))
    if args.write_subset:
        pick = random.Random(31)
        indents.write_rows(args.write_subset, [tabs.subset_row(cases[i], "pango", "pango", theirs[i])
                                              for i in sorted(pick.sample(range(len(cases)), min(SUBSET, len(cases))))])
    if args.reference_only:
        return 0
    t0 = time.time()
    mine = tabs.plumb(args.plumb, cases, "pango")
    mine_tabs = tabs.plumb_tab_x(args.plumb, cases, "pango", mine)
    print("Plumb in %.1f s" % (time.time() - t0))
    stats, misses = tabs.score(cases, theirs, mine, mine_tabs, lambda a, b: abs(a - b) * S < 0.5)
    ctrl = tabs.controls(misses, "pango")
    measurer = conf.PangoMeasurer()
    tabs.reclassify(misses, ctrl, [pango_measure(measurer, c) for _, c, _ in ctrl],
                    tabs.plumb(args.plumb, [c for _, c, _ in ctrl], "pango"))
    tabs.print_stats("profile pango against Pango:", stats)
    tabs.print_misses(misses, "pango", args.show)
    if args.report:
        indents.write_report(args.report, stats)
    return 0


if __name__ == "__main__":
    sys.exit(main())
