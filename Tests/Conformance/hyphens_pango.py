#!/usr/bin/python3
"""Hyphenation in Pango (`insert-hyphens`) against the `pango` profile.

    /usr/bin/python3 Tests/Conformance/hyphens_pango.py --plumb .build/release/plumb \\
        [--limit N] [--write-subset FILE] [--report FILE] [--section FILE] [--show N] \\
        [--reference-cache FILE] [--reference-only] [--hand-checks]

Cases: `hyphens.py`'s under `pango` (kinds sentence, word, overlong, special, cjk; texts with
U+00AD SOFT HYPHEN, "SHY", and overlong words without), each in the modes manual and none,
every 10th also auto and unset. Pango is set up as in `indents_pango.py` (unhinted, fractional
positions, WRAP_WORD_CHAR, sizes in whole Pango units, left alignment, context language "en")
with the layout's attributes per case:

    manual, auto   insert-hyphens TRUE  (Plumb: "hyphenation": "manual" / "auto")
    none, unset    insert-hyphens FALSE (Plumb: "none" / no field: the pango default)
    language       a language attribute over the text (Plumb: "language"), when the case has one

What Pango 1.50.12 does with them (`--hand-checks` asserts each, DejaVu Sans 15 unless said;
W(x) is the advance of x laid out alone, ‐ is U+2010):

- a break after a SHY happens under both settings; only insert-hyphens TRUE draws a hyphen
  there, and its width counts: "extra\\u00adordinary" in 45 is [0, 6, 11] either way, the first
  line W(extra) + W(‐) = 44.496 wide with hyphens, W(extra) = 39.083 without;
- the hyphen must fit: in 42 (W(extra‐) = 44.496 does not) the SHY break is not taken with
  hyphens, the word breaks as an overlong one: [0, 4, 6, 10], "extr‐" first; without, [0, 6, 11];
- under WRAP_WORD_CHAR the breaks inside an overlong word get a hyphen too: "extraordinary" in
  60 is [0, 7] with "extraor‐" 59.841 wide (W(extraor) = 54.428 without);
- no hyphen after Han, Hangul, Hiragana or Katakana (their char breaks stay bare), after a
  digit or other Common character ("1234567890123456" in 40), or at a break next to a hyphen
  ("abcdefghij-klmnop": "ghij-", nothing added; nor at "abcd-\\u00adefgh" and
  "abcd\\u00ad-efgh");
- a SHY at a word boundary (UAX #29, the SHY ignored) draws none: "ab,\\u00adcdefgh" in 30
  breaks after the SHY with "ab," 23.482 wide, and so at the text's start (a line of just the
  SHY, 0 wide), before ')' and between a letter and Han; Pango breaks between a SHY and a
  following ',' (UAX #14 would not);
- Greek and Cyrillic get hyphens at char breaks like Latin; two SHYs draw one hyphen; a SHY
  before a space draws none (the break is at the space);
- the hyphen is U+2010 of the font of the run, '-' when that font has no U+2010 (Noto Sans
  Math: its '-', 4.830).

Pango gives the layout's height, the line starts, each line's logical x and logical width
(`pango_layout_line_get_extents`: the hyphen included, the final space of a wrapped line
zeroed) and whether it drew a hyphen (its last run's item has PANGO_ANALYSIS_FLAG_NEED_HYPHEN);
Plumb (`measure --lines --line-starts --exact-numbers`, `"compatibility": "pango"`) the end of
its last line box, its line starts, its line boxes' x and `usedWidth`. A height agrees when it
is the same number of Pango units (|difference| < 0.5 unit), a width within 0.01 pt. Prints
the agreement per mode (overall, per kind, per tag), then every disagreement class with
examples (`hyphens.score`, with controls: `hyphens.controls`).

`--reference-cache FILE` keeps Pango's answers (read when made for the same cases, else
written); `--reference-only` stops after them (no Plumb needed); `--hand-checks` lays out the
hand cases above and asserts them. `--write-subset FILE` stores 300 cases with Pango's answers
(`pangoHeight`, `pangoLineStarts`, `pangoLineX`, `pangoLineWidths`, `pangoHyphens`), a quarter
of them misses when Plumb ran; `--section FILE` writes a Markdown section of the agreement.
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import conformance as conf  # noqa: E402
import hyphens  # noqa: E402
import indents  # noqa: E402
import indents_pango  # noqa: E402
from gi.repository import Pango  # noqa: E402

S = Pango.SCALE
SUBSET = 300
WIDTH_TOLERANCE = 0.01
NEED_HYPHEN = 1 << 2  # PANGO_ANALYSIS_FLAG_NEED_HYPHEN


def attributes(measurer, insert, language):
    """The layout's attribute list: insert-hyphens and, with a language, a language attribute
    (cached on the measurer)."""
    cache = measurer.__dict__.setdefault("hyphen_attrs", {})
    key = (insert, language)
    if key not in cache:
        attrs = Pango.AttrList()
        attrs.insert(Pango.attr_insert_hyphens_new(insert))
        if language:
            attrs.insert(Pango.attr_language_new(Pango.Language.from_string(language)))
        cache[key] = attrs
    return cache[key]


def pango_measure(measurer, case):
    """(height, line starts, line x, line widths, hyphen drawn per line) of one case."""
    layout = measurer.layout
    layout.set_attributes(attributes(measurer, case["mode"] in ("manual", "auto"), case.get("language")))
    h, starts, xs = indents_pango.pango_measure(measurer, case)
    widths, drawn = [], []
    for line in layout.get_lines_readonly():
        widths.append(line.get_extents()[1].width / S)
        runs = line.runs
        drawn.append(bool(runs) and bool(runs[-1].item.analysis.flags & NEED_HYPHEN))
    return h, starts, xs, widths, drawn


def references(cases, cache):
    """Pango's answers, from the cache when it was made for these cases."""
    key = "pango hyphens 1 %s %s" % (Pango.version_string(), indents.fingerprint(cases))
    cached = indents.load_cache(cache, key)
    if cached is not None:
        return [tuple(r) for r in cached], True
    measurer = conf.PangoMeasurer()
    results = [pango_measure(measurer, c) for c in cases]
    indents.store_cache(cache, key, results)
    return results, False


# (what it shows, case fields, mode, expected starts, expected widths, expected hyphens): a
# width is a number, None (not checked) or a string "a+b+…" naming texts laid out alone in the
# case's font whose advances add up to it ("‐" U+2010, "-" U+002D).
DEJAVU = ["DejaVu Sans"]
MATH = ["Noto Sans Math", "DejaVu Sans"]
HAND = [
    ("a SHY break draws a hyphen that counts", {"text": "extra\u00adordinary", "width": 45}, "manual",
     [0, 6, 11], ["extra+‐", "ordin+‐", "ary"], [True, True, False]),
    ("without insert-hyphens the SHY still breaks, with no hyphen", {"text": "extra\u00adordinary", "width": 45},
     "none", [0, 6, 11], ["extra", "ordin", "ary"], [False, False, False]),
    ("the hyphen must fit: extra‐ (44.5) in 42 is not taken, the word breaks inside", {
        "text": "extra\u00adordinary", "width": 42}, "manual", [0, 4, 6, 10], ["extr+‐", "a+‐", "ordi+‐", "nary"],
     [True, True, True, False]),
    ("... without insert-hyphens extra (39.1) fits in 42", {"text": "extra\u00adordinary", "width": 42}, "none",
     [0, 6, 11], ["extra", "ordin", "ary"], None),
    ("an overlong word's char breaks get a hyphen", {"text": "extraordinary", "width": 60}, "manual", [0, 7],
     ["extraor+‐", "dinary"], [True, False]),
    ("... and none without insert-hyphens", {"text": "extraordinary", "width": 60}, "none", [0, 7],
     ["extraor", "dinary"], [False, False]),
    ("no hyphen after digits (Common)", {"text": "1234567890123456", "width": 40}, "manual", [0, 4, 8, 12],
     ["1234", "5678", "9012", "3456"], [False] * 4),
    ("no hyphen after Han", {"text": "中文中文中文中文", "width": 40, "families": ["Noto Sans CJK SC"]}, "manual",
     [0, 2, 4, 6], [30, 30, 30, 30], [False] * 4),
    ("no hyphen after Hiragana", {"text": "ひらがなひらがな", "width": 40, "families": ["Noto Sans CJK SC"]},
     "manual", [0, 2, 4, 6], [30, 30, 30, 30], [False] * 4),
    ("no hyphen after Hangul", {"text": "한국어한국어한국어", "width": 40, "families": ["Noto Sans CJK SC"]},
     "manual", [0, 2, 4, 6, 8], None, [False] * 5),
    ("Greek char breaks get hyphens", {"text": "Ωμέγαμέγαμέγα", "width": 60}, "manual", [0, 5, 11],
     ["Ωμέγα+‐", "μέγαμέ+‐", "γα"], [True, True, False]),
    ("Cyrillic: the hyphen counts at the SHY and at char breaks", {"text": "Пере\u00adносимость", "width": 60},
     "manual", [0, 5, 10], ["Пере+‐", "носим+‐", "ость"], [True, True, False]),
    ("no hyphen added at a break after '-'", {"text": "abcdefghij-klmnop", "width": 60}, "manual", [0, 6, 11],
     ["abcdef+‐", "ghij-", "klmnop"], [True, False, False]),
    ("no hyphen after U+2010 either", {"text": "abcd\u2010efghijkl", "width": 45}, "manual", [0, 5, 10],
     ["abcd‐", "efghi+‐", "jkl"], [False, True, False]),
    ("a SHY after punctuation (a word boundary) draws none", {"text": "ab,\u00adcdefgh", "width": 30}, "manual",
     [0, 4, 6, 9], ["ab,", "cd+‐", "efg+‐", "h"], [False, True, True, False]),
    ("a break between a SHY and ',' (no hyphen)", {"text": "abcd\u00ad,efgh", "width": 40}, "manual", [0, 5],
     ["abcd", ",efgh"], [False, False]),
    ("a SHY before '-' draws none", {"text": "abcd\u00ad-efgh", "width": 45}, "manual", [0, 6],
     ["abcd-", "efgh"], [False, False]),
    ("a SHY after '-' draws none", {"text": "abcd-\u00adefgh", "width": 45}, "manual", [0, 6],
     ["abcd-", "efgh"], [False, False]),
    ("two SHYs draw one hyphen", {"text": "abcd\u00ad\u00adefgh", "width": 45}, "manual", [0, 6],
     ["abcd+‐", "efgh"], [True, False]),
    ("a SHY before a space: the break is at the space, no hyphen, the space zeroed",
     {"text": "abcd\u00ad efgh", "width": 40}, "manual", [0, 6], ["abcd", "efgh"], [False, False]),
    ("a SHY after a digit draws one (the SHY is what counts)", {"text": "ab12\u00ad34cd", "width": 35}, "manual",
     [0, 3, 5, 8], ["ab1", "2+‐", "34c+‐", "d"], [False, True, True, False]),
    ("a SHY at the text's start is a break that draws none", {"text": "\u00adabcdef", "width": 30}, "manual",
     [0, 1, 3, 5], [0, "ab+‐", "cd+‐", "ef"], [False, True, True, False]),
    ("a SHY before ')' (a word boundary) draws none: abcdef fits without it", {"text": "abcdef\u00ad)", "width": 52},
     "manual", [0, 7], ["abcdef", ")"], [False, False]),
    ("a SHY between a letter and Han draws none", {"text": "abcd\u00ad中文", "width": 40,
                                                   "families": ["DejaVu Sans", "Noto Sans CJK SC"]}, "manual",
     [0, 5], ["abcd", "中文"], [False, False]),
    ("a font without U+2010 draws its '-'", {"text": "abcdefghijkl", "width": 40, "families": MATH}, "manual",
     [0, 4, 8], ["abcd+-", "efgh+-", "ijkl"], [True, True, False]),
]


def advance(measurer, families, size, text):
    """The advance of `text` laid out alone, unwrapped, in `families` at `size`, without
    attributes."""
    layout = Pango.Layout.new(measurer.context)
    desc = Pango.FontDescription.from_string(", ".join(families))
    desc.set_absolute_size(indents_pango.units(size))
    layout.set_font_description(desc)
    layout.set_text(text, -1)
    return layout.get_extents()[1].width / S


def expected_width(measurer, case, v):
    """A HAND width: a number, None, or the sum of the advances a string names."""
    if not isinstance(v, str):
        return v
    return sum(advance(measurer, case["families"], case["size"], part) for part in v.split("+"))


def hand_checks():
    """Lays the HAND cases out and prints what Pango did; False when one differs (widths by
    more than 0.5 Pango unit)."""
    measurer = conf.PangoMeasurer()
    ok = True
    for what, fields, mode, starts, widths, drawn in HAND:
        case = dict({"families": DEJAVU, "size": 15, "mode": mode}, **fields)
        h, got, _, ws, hy = pango_measure(measurer, case)
        same = got == starts and (drawn is None or hy == drawn)
        want = [expected_width(measurer, case, v) for v in widths] if widths else None
        if want is not None:
            same = same and len(want) == len(ws) and all(
                e is None or abs(a - e) * S <= 0.5 + 1e-9 for a, e in zip(ws, want))
        ok = ok and same
        print("%-4s %s\n    %r %s w%s: starts %s, widths %s, hyphens %s%s" % (
            "ok" if same else "DIFF", what, case["text"], mode, case["width"], got, [round(w, 4) for w in ws],
            [int(x) for x in hy], "" if same else "\n    expected starts %s, widths %s, hyphens %s" % (
                starts, want and [None if w is None else round(w, 4) for w in want], drawn)))
    return ok


def main():
    """Lays the cases out in Pango and Plumb, writes the subset and prints the scores."""
    ap = hyphens.argument_parser("Pango", "%d cases" % SUBSET)
    args = ap.parse_args()
    if args.hand_checks:
        return 0 if hand_checks() else 1
    t0 = time.time()
    cases = hyphens.load_cases(args, "pango")
    theirs, cached = references(cases, args.reference_cache)
    hyphens.reference_tags(cases, theirs)
    print("Pango %s %s in %.1f s; %d lines, %d hyphens drawn" % (
        Pango.version_string(), "from the cache" if cached else "laid out", time.time() - t0,
        sum(len(t[1]) for t in theirs), sum(sum(t[4]) for t in theirs)))
    missed = []
    report = {}
    if not args.reference_only:
        t0 = time.time()
        mine = hyphens.plumb(args.plumb, cases, "pango")
        print("Plumb in %.1f s" % (time.time() - t0))
        measurer = conf.PangoMeasurer()
        total = None
        for mode in hyphens.MODES["pango"]:
            index = [i for i, c in enumerate(cases) if c["mode"] == mode]
            sub = [cases[i] for i in index]
            stats, misses = hyphens.score(sub, [theirs[i] for i in index], [mine[i] for i in index],
                                          lambda a, b: abs(a - b) * S < 0.5, WIDTH_TOLERANCE, "pango")
            ctrl = hyphens.controls(misses)
            if ctrl:
                hyphens.reclassify(misses, ctrl, [pango_measure(measurer, c) for _, c in ctrl],
                                   hyphens.plumb(args.plumb, [c for _, c in ctrl], "pango"))
            hyphens.print_stats("mode %s, profile pango against Pango:" % mode, stats)
            hyphens.print_misses(misses, "pango", args.show)
            position = {id(c): i for i, c in zip(index, sub)}
            missed += [(position[id(c)], name) for c, _, _, name in misses]
            report[mode] = stats
            total = indents.add_stats(total, stats)
        hyphens.print_stats("all modes:", total)
        report["all"] = total
    if args.write_subset:
        rows = [hyphens.subset_row(cases[i], "pango", "pango", theirs[i])
                for i in hyphens.pick_subset(cases, SUBSET, 31, missed)]
        indents.write_rows(args.write_subset, rows)
    if args.report and report:
        indents.write_report(args.report, report)
    if args.section and report:
        with open(args.section, "w", encoding="utf-8") as f:
            f.write(hyphens.markdown("Hyphenation, profile `pango` against Pango %s" % Pango.version_string(), report,
                                     "`Tests/Conformance/hyphens_pango.py`: %d cases (insert-hyphens TRUE for "
                                     "manual and auto, FALSE for none and unset)." % len(cases)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
