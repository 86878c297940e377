#!/usr/bin/python3
"""CSS `tab-size` in Chromium against the `chromium` profile.

    /usr/bin/python3 Tests/Conformance/tabs_chromium.py --plumb .build/release/plumb \\
        [--scales 1,2] [--limit N] [--write-subset FILE] [--report FILE] [--show N] \\
        [--reference-cache FILE] [--reference-only] [--hand-checks]

Cases: `tabs.py`'s under `chromium` (kinds spaces, length, letter-spacing, indented, near-stop,
default; corpus texts with tabs, table rows, list items). Each case is a div at the top of the
page as in `indents_chromium.py` (pre-wrap, `overflow-wrap: break-word`, `text-spacing-trim:
space-all`, `line-height: normal`, `box-sizing: border-box; width: W px`, the indents as
padding and `text-indent`: `indents_chromium.indent_css`) with the tab fields as CSS states them:

    tabSize N       tab-size: N          (spaces)
    tabSize "Lpx"   tab-size: Lpx
    letterSpacing   letter-spacing: Lpx
    (none)          no tab-size          (CSS's initial 8)

What Chromium does with them (`--hand-checks` shows each, DejaVu Sans 15, at scales 1 and 2;
Blink's `Font::TabWidth`):

- a number counts the advance of the first font's space plus letter-spacing (and
  word-spacing): tab-size 4 with letter-spacing 2px puts b of "a⇥b" at 4 × (4.77 + 2) = 27.07,
  and non-integer numbers work (3.5 → 16.69); a length is not changed by letter-spacing (28px
  with letter-spacing 2px: 28, 56); the tab itself gets no letter-spacing;
- `tab-size: 0`: a tab has no width;
- stops count from the content box's left edge, text-indent included in the position (padding
  10px: b at 38; text-indent 10px: b at 28, not 38); a negative position (a negative
  text-indent) is taken modulo the tab size (padding 20px, text-indent −20px: b at the content
  box's 0, box x 20);
- a stop closer than half a space to the pen is skipped (tab-size 28px: "aaa⇥b", pen 27.58: b at
  56; a tab at −1 before the content box's 0 goes on to 28);
- the rects show positions on Blink's layout unit, 1/(64 × scale) px, rounded up: b after
  tab-size 8 at 38.156 at scale 1 and 38.148 at scale 2 (8 spaces: 38.148).

Chromium gives the div's height, its line starts, the left of each line's first character and,
per tab, the left of the character after it (`tabs.tab_targets`: only where that character is on
the tab's line, left-to-right texts); Plumb (`measure --lines --line-starts --exact-numbers`,
the fields on the JSON line, `"compatibility": "chromium"`, the same scale) the end of its last
line box, its line starts and line boxes' x, and (`plumb render`) the x of the glyph after each
tab. A case agrees when its line starts are the same and its height is within 0.01 px; line x
(within 0.01 px) and tab x are scored apart (`tabs.score`). Chromium's Range rects put a
character's left on the layout unit at or above it (ceil to 1/(64 × scale) px: b after a 38.142px
tab-size at 38.15625 at scale 1, and the c after it at ceil(38.142 + 9.5215), so the position
itself is not snapped), so tab x agrees within one layout unit (`tab_tolerance`: 0.0166 px at
scale 1, 0.01 at 2).

`--reference-cache FILE` keeps Chromium's answers (read when made for the same cases and
scale, else written); `--reference-only` stops after them (no Plumb needed); `--hand-checks`
lays out the hand cases above. `--write-subset FILE` stores 200 cases per scale with Chromium's
answers (`chromiumHeight`, `chromiumLineStarts`, `chromiumLineX`, `chromiumTabX`).
"""
import html
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chromium_heights  # noqa: E402
import indents  # noqa: E402
import indents_chromium  # noqa: E402
import tabs  # noqa: E402

TOLERANCE = 0.01
PER_SCALE = 200
_STEP = "i+=len; scalar++;"
assert _STEP in indents_chromium.SCAN
# The indent oracle's scan (line starts, the lefts of the lines), also keeping the left of
# every character that follows a tab (null when it has no rect).
SCAN = "  const tabx=[];\n" + indents_chromium.SCAN.replace(
    _STEP, "if (i>0 && text.charCodeAt(i-1)===9) tabx.push(rects.length ? rects[0].left : null); " + _STEP)

PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><style>
body{margin:0} .c{position:absolute;top:0;left:0;box-sizing:border-box;white-space:pre-wrap;overflow-wrap:break-word;
word-break:normal;text-spacing-trim:space-all;font-kerning:normal;line-height:normal}
</style></head><body>%(divs)s<pre id="out"></pre><script>
const out=[];
for (const d of document.querySelectorAll('.c')) {
""" + SCAN + """  out.push([d.getBoundingClientRect().height, starts, lefts, tabx]);
}
document.getElementById('out').textContent=JSON.stringify(out);
</script></body></html>"""


def tab_css(case):
    """The case's tab-size and letter-spacing declarations."""
    out = ""
    if "tabSize" in case:
        out += ";tab-size:%s" % case["tabSize"]
    if "letterSpacing" in case:
        out += ";letter-spacing:%s" % tabs.px(case["letterSpacing"])
    return out


def div(case):
    """The case as a div (module docstring)."""
    style = "width:%spx;font-family:%s;font-size:%spx;%s%s" % (
        case["width"], ",".join("'%s'" % f for f in case["families"]), case["size"], indents_chromium.indent_css(case),
        tab_css(case))
    return '<div class="c" style="%s">%s</div>' % (html.escape(style), html.escape(case["text"]))


def tab_x(text, starts, lefts):
    """Per tab, the left of the character after it where `tabs.tab_targets` has one (the scan
    keeps one left per character after a tab); None for a text that is not left to right."""
    if not indents.left_to_right(text):
        return None
    it = iter(lefts)
    out = []
    for i, j in zip((i for i, ch in enumerate(text) if ch == "\t"), tabs.tab_targets(text, starts)):
        left = next(it) if i + 1 < len(text) else None
        out.append(left if j is not None else None)
    return out


def tab_tolerance(scale):
    """How far a tab x may be off: a layout unit, 1/(64 × scale) px (Chromium's rect puts a
    character's left on the unit at or above it), plus the 0.001 of `plumb render`'s rounding;
    at least TOLERANCE."""
    return max(TOLERANCE, 1 / (64 * scale) + 0.001)


def chromium(cases, scale, chunk=2000):
    """(height, line starts, lefts of the lines, tab x or None) of every case in headless
    Chromium at `scale`."""
    results = []
    for start in range(0, len(cases), chunk):
        page = PAGE % {"divs": "".join(div(c) for c in cases[start:start + chunk])}
        results.extend(chromium_heights.run_page(page, scale))
    return [(h, s, x, tab_x(c["text"], s, t)) for c, (h, s, x, t) in zip(cases, results)]


def references(cases, scale, cache):
    """Chromium's answers, from the cache when it was made for these cases."""
    key = "chromium tabs %s scale %s" % (indents.fingerprint(cases), scale)
    cached = indents.load_cache(cache, key)
    if cached is not None:
        return [tuple(r) for r in cached], True
    results = chromium(cases, scale)
    indents.store_cache(cache, key, results)
    return results, False


# (what it shows, CSS, text, checks: (scalar, expected left in px, or a string naming a figure
# `hand_checks` measures: "N s" = N spaces of DejaVu Sans 15 (Pango's advance, 4.7686),
# "N s+L" = N × (space + L)).
HAND = [
    ("tab-size 8 (CSS's default): 8 spaces", "tab-size:8", "a\tb\tc", [(2, "8 s"), (4, "16 s")]),
    ("no tab-size: 8 spaces", "", "a\tb", [(2, "8 s")]),
    ("tab-size 4", "tab-size:4", "a\tb", [(2, "4 s")]),
    ("tab-size 3.5 (not a whole number)", "tab-size:3.5", "a\tb", [(2, "3.5 s")]),
    ("tab-size 0: no width", "tab-size:0", "a\tb", [(2, "a")]),
    ("tab-size 28px", "tab-size:28px", "a\tb\tc", [(2, 28), (4, 56)]),
    ("tab-size 40.5px", "tab-size:40.5px", "a\tb\tc", [(2, 40.5), (4, 81)]),
    ("a number counts letter-spacing: 4 × (space + 2)", "tab-size:4;letter-spacing:2px", "a\tb", [(2, "4 s+2")]),
    ("a length does not: 28, 56", "tab-size:28px;letter-spacing:2px", "a\tb\tc", [(2, 28), (4, 56)]),
    ("a number counts word-spacing: 4 × (space + 3)", "tab-size:4;word-spacing:3px", "a\tb", [(2, "4 s+3")]),
    ("aa⇥b: pen 18.38, b at 28", "tab-size:28px", "aa\tb", [(3, 28)]),
    ("aaa⇥b: pen 27.58, 0.42 before 28 (half a space 2.38): b at 56", "tab-size:28px", "aaa\tb", [(4, 56)]),
    ("padding-left 10px: stops from the content box (b at 38)", "tab-size:28px;padding-left:10px", "a\tb",
     [(2, 38)]),
    ("text-indent 10px: in the position, not the origin (b at 28)", "tab-size:28px;text-indent:10px", "a\tb",
     [(2, 28)]),
    ("padding 20px, text-indent -20px: a negative position modulo the size (b at 20)",
     "tab-size:28px;padding-left:20px;text-indent:-20px", "a\tb", [(2, 20)]),
    ("padding 20px, text-indent -5px: b at 48", "tab-size:28px;padding-left:20px;text-indent:-5px", "a\tb",
     [(2, 48)]),
    ("a leading tab at -5: 5 px to the content box's 0 (b at 20)",
     "tab-size:28px;padding-left:20px;text-indent:-5px", "\tb", [(1, 20)]),
    ("a leading tab at -1: closer than half a space, on to 28 (b at 48)",
     "tab-size:28px;padding-left:20px;text-indent:-1px", "\tb", [(1, 48)]),
    ("tab-size 8 lands on the layout unit (printed)", "tab-size:8", "a\tb", [(2, None)]),
]
SPACE = 4.7685546875  # DejaVu Sans 15 in Pango (the font's advance, in 1/1024 units)
A = 9.1923828125


def expected_left(v):
    """A check's expected left: a number, None (print only), or a figure named by a string."""
    if v is None or not isinstance(v, str):
        return v
    if v == "a":
        return A
    n, unit = v.split(" ")
    return float(n) * (SPACE + (float(unit[2:]) if unit.startswith("s+") else 0))


def hand_checks():
    """Lays the HAND cases out at scales 1 and 2 and prints what Chromium did; False when a
    check at scale 1 is off by more than a layout unit (1/64 px)."""
    page = PAGE.replace(SCAN, """  const node=d.firstChild; const r=document.createRange();
  const starts=[]; const lefts=[]; const tabx=[];
  for (let i=0;i<node.data.length;i++) {
    r.setStart(node,i); r.setEnd(node,i+1); lefts.push(r.getClientRects()[0].left); }
""")
    divs = "".join('<div class="c" style="width:400px;font-family:\'DejaVu Sans\';font-size:15px;%s">%s</div>' % (
        html.escape(css), html.escape(text)) for _, css, text, _ in HAND)
    ok = True
    for scale in (1, 2):
        results = chromium_heights.run_page(page % {"divs": divs}, scale)
        for (what, css, text, checks), (_, _, xs, _) in zip(HAND, results):
            got, same = [], True
            for k, v in checks:
                e = expected_left(v)
                got.append("%r at %.4f%s" % (text[k], xs[k], "" if e is None else " (expected %.4f)" % e))
                same = same and (e is None or abs(xs[k] - e) <= 1 / 64 + 1e-9)
            ok = ok and (same or scale != 1)
            print("scale %s %-4s %s\n    %s %r: %s" % (
                scale, "ok" if same else "DIFF", what, css, text, "; ".join(got)))
    return ok


def main():
    """Lays the cases out in Chromium and Plumb per scale, writes the subset and prints the
    scores."""
    ap = indents.argument_parser("Chromium", "%d cases per scale" % PER_SCALE)
    ap.add_argument("--scales", default="1,2")
    args = ap.parse_args()
    if args.hand_checks:
        return 0 if hand_checks() else 1
    cases = tabs.load_cases(args, "chromium")
    report, subset, total = {}, [], None
    pick = random.Random(31)
    for scale in [int(s) if float(s).is_integer() else float(s) for s in args.scales.split(",")]:
        t0 = time.time()
        theirs, cached = references(cases, scale, args.reference_cache)
        scaled = [dict(c) for c in cases]
        tabs.reference_tags(scaled, theirs)
        print("scale %s: Chromium %s in %.1f s; %d lines, %d tab x" % (
            scale, "from the cache" if cached else "laid out", time.time() - t0, sum(len(t[1]) for t in theirs),
            sum(sum(x is not None for x in t[3] or []) for t in theirs)))
        if args.write_subset:
            subset += [tabs.subset_row(scaled[i], "chromium", "chromium", theirs[i], scale)
                       for i in sorted(pick.sample(range(len(cases)), min(PER_SCALE, len(cases))))]
        if args.reference_only:
            continue
        t0 = time.time()
        mine = tabs.plumb(args.plumb, scaled, "chromium", scale)
        mine_tabs = tabs.plumb_tab_x(args.plumb, scaled, "chromium", mine, scale)
        print("scale %s: Plumb in %.1f s" % (scale, time.time() - t0))
        stats, misses = tabs.score(scaled, theirs, mine, mine_tabs, lambda a, b: abs(a - b) <= TOLERANCE, TOLERANCE,
                                   tab_tolerance(scale))
        ctrl = tabs.controls(misses, "chromium")
        if ctrl:
            tabs.reclassify(misses, ctrl, chromium([c for _, c, _ in ctrl], scale),
                            tabs.plumb(args.plumb, [c for _, c, _ in ctrl], "chromium", scale))
        tabs.print_stats("scale %s, profile chromium against Chromium:" % scale, stats)
        tabs.print_misses(misses, "chromium", args.show)
        report[str(scale)] = stats
        total = indents.add_stats(total, stats)
    if total is not None:
        tabs.print_stats("all scales:", total)
        report["all"] = total
    if args.write_subset:
        indents.write_rows(args.write_subset, subset)
    if args.report:
        indents.write_report(args.report, report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
