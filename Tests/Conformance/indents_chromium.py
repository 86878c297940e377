#!/usr/bin/python3
"""Paragraph indents in Chromium against the `chromium` profile (issue 27, items 1 and 6).

    /usr/bin/python3 Tests/Conformance/indents_chromium.py --plumb .build/release/plumb \\
        [--scales 1,2] [--limit N] [--write-subset FILE] [--report FILE] [--show N] \\
        [--reference-cache FILE] [--reference-only] [--hand-checks]

Cases: `indents.py` (corpus texts, joined ones of several paragraphs and tabbed ones; one indent
kind each: none, first-line, hanging, both, tail-negative, tail-positive, negative, each-line).
Each case is a div at the top of the page as in `chromium_heights.py` (pre-wrap,
`overflow-wrap: break-word`, `text-spacing-trim: space-all`, `line-height: normal`,
`tab-size: 28px`) with `box-sizing: border-box; width: W px` and the indents as CSS states them:

    padding-left   headIndent
    padding-right  −tailIndent if tailIndent ≤ 0, else W − tailIndent
    text-indent    firstLineHeadIndent − headIndent  (+ `each-line` with indentEachLine;
                   half the hanging cases as `text-indent: headIndent hanging`, no padding-left)

Chromium gives the div's height, its line starts (`SCAN_LINE_STARTS`: character offsets, so
paddings and text-indent change nothing in the scan) and the left of each line's first
character; Plumb (`measure --lines --line-starts --exact-numbers`, the indent fields on the JSON
line, `"compatibility": "chromium"`, the same scale) the end of its last line box, its line
starts and its line boxes' x. A case agrees when its line starts are the same and its height is
within 0.01 px; line x (left-to-right texts whose starts agree, within 0.01 px) is scored apart.
Prints the agreement overall, per kind and per tag (multi-paragraph, odd, narrow, tab,
outdent, left-of-box, css-hanging), then every disagreement class with examples; a case whose
line starts differ is laid out again without indents at the differing line's width, from where
that width begins (`indents.controls`), to tell the disagreements the indents cause ("only with
indents") from the plain oracles' ("also without indents").

`--reference-cache FILE` keeps Chromium's answers (read when made for the same cases and scale,
else written); `--reference-only` stops after them (no Plumb needed); `--hand-checks` lays out
a few hand cases that show how Chromium applies indents and prints what it found.
"""
import html
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chromium_heights  # noqa: E402
import conformance as conf  # noqa: E402
import indents  # noqa: E402
from chromium_reference import SCAN_LINE_STARTS  # noqa: E402

TOLERANCE = 0.01
_PUSH = "starts.push(scalar); lastTop=t;"
assert _PUSH in SCAN_LINE_STARTS
# The shared scan, also keeping the left of the character that starts each line.
SCAN = "  const lefts=[];\n" + SCAN_LINE_STARTS.replace(_PUSH, _PUSH + " lefts.push(rects[0].left);")

PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><style>
body{margin:0} .c{position:absolute;top:0;left:0;box-sizing:border-box;white-space:pre-wrap;overflow-wrap:break-word;
word-break:normal;text-spacing-trim:space-all;font-kerning:normal;line-height:normal;tab-size:%(tab)spx}
</style></head><body>%(divs)s<pre id="out"></pre><script>
const out=[];
for (const d of document.querySelectorAll('.c')) {
""" + SCAN + """  out.push([d.getBoundingClientRect().height, starts, lefts]);
}
document.getElementById('out').textContent=JSON.stringify(out);
</script></body></html>"""


def px(v):
    """A CSS length in px, without float noise."""
    return ("%.6f" % v).rstrip("0").rstrip(".") + "px"


def indent_css(case):
    """The case's indents as CSS declarations (see the module docstring)."""
    w, first, head = case["width"], case.get("firstLineHeadIndent", 0), case.get("headIndent", 0)
    tail = case.get("tailIndent", 0)
    right = -tail if tail <= 0 else w - tail
    each = " each-line" if case.get("indentEachLine") else ""
    if case.get("cssHanging"):
        assert first == 0
        return "padding-right:%s;text-indent:%s hanging%s" % (px(right), px(head), each)
    return "padding-left:%s;padding-right:%s;text-indent:%s%s" % (px(head), px(right), px(first - head), each)


def div(case):
    style = "width:%spx;font-family:%s;font-size:%spx;%s" % (
        case["width"], ",".join("'%s'" % f for f in case["families"]), case["size"], indent_css(case))
    return '<div class="c" style="%s">%s</div>' % (html.escape(style), html.escape(case["text"]))


def chromium(cases, scale, chunk=2000):
    """(height, line starts, lefts of the lines) of every case in headless Chromium at `scale`."""
    results = []
    for start in range(0, len(cases), chunk):
        divs = "".join(div(c) for c in cases[start:start + chunk])
        results.extend(chromium_heights.run_page(PAGE % {"divs": divs, "tab": indents.TAB}, scale))
    return [(h, s, x) for h, s, x in results]


def references(cases, scale, cache):
    """Chromium's answers, from the cache when it was made for these cases."""
    key = "chromium %s scale %s" % (indents.fingerprint(cases), scale)
    cached = indents.load_cache(cache, key)
    if cached is not None:
        return [tuple(r) for r in cached], True
    results = chromium(cases, scale)
    indents.store_cache(cache, key, results)
    return results, False


HAND = [
    # (what it shows, CSS, text, the lefts of the lines expected at scale 1)
    ("text-indent: only the block's first line (not the one after a newline)", "width:200px;text-indent:30px",
     "aaa bbb ccc ddd eee fff ggg hhh iii jjj kkk\nlll mmm nnn ooo ppp qqq rrr sss ttt", [30, 0, 0, 0]),
    ("each-line: also the first line after each newline", "width:200px;text-indent:30px each-line",
     "aaa bbb ccc ddd eee fff ggg hhh iii jjj kkk\nlll mmm nnn ooo ppp qqq rrr sss ttt", [30, 0, 30, 0]),
    ("padding + negative text-indent: only the block's first line outdented", "width:200px;padding-left:20px;text-indent:-20px",
     "aaa bbb ccc ddd eee fff ggg hhh iii jjj kkk\nlll mmm nnn ooo ppp qqq rrr sss ttt", [0, 20, 20, 20]),
    ("text-indent: 20px hanging is the same geometry", "width:200px;text-indent:20px hanging",
     "aaa bbb ccc ddd eee fff ggg hhh iii jjj kkk\nlll mmm nnn ooo ppp qqq rrr sss ttt", [0, 20, 20, 20]),
    ("a first line left of the box", "width:200px;padding-left:10px;text-indent:-25px",
     "aaa bbb ccc ddd eee fff ggg hhh iii jjj kkk", [-15, 10]),
    ("each length truncated to 1/64 px on its own: 12.75 + LU(-5.45) = 7.3125, not LU(7.3) = 7.296875",
     "width:200px;padding-left:12.75px;text-indent:-5.45px", "aaa bbb ccc ddd eee fff ggg hhh iii jjj kkk", [7.3125, 12.75]),
    ("tab stops count from the content box, not from the indented line start (b at 28, not 38)",
     "width:200px;text-indent:10px;tab-size:28px", "a\tb", [10]),
    ("U+2028 and U+2029 are no line breaks under pre-wrap (one line)", "width:200px;text-indent:30px each-line",
     "aaa\u2028bbb\u2029ccc", [30]),
]


def hand_checks():
    """Lays the HAND cases out at scales 1 and 2 and prints what Chromium did."""
    divs = "".join('<div class="c" style="font-family:\'DejaVu Sans\';font-size:15px;%s">%s</div>' % (
        html.escape(css), html.escape(text)) for _, css, text, _ in HAND)
    ok = True
    for scale in (1, 2):
        for (what, css, text, lefts), (h, starts, got) in zip(HAND, chromium_heights.run_page(
                PAGE % {"divs": divs, "tab": indents.TAB}, scale)):
            same = scale != 1 or got == lefts
            ok = ok and same
            print("scale %s %-4s %s\n    %s %r: height %s starts %s lefts %s" % (
                scale, "ok" if same else "DIFF", what, css, text[:30], h, starts, got))
    # Where the tab put "b": the left of every character of a one-line case.
    page = PAGE.replace(SCAN, """  const node=d.firstChild; const r=document.createRange(); const starts=[]; const lefts=[];
  for (let i=0;i<node.data.length;i++){ r.setStart(node,i); r.setEnd(node,i+1); lefts.push(r.getClientRects()[0].left); }
""")
    tabs = [("width:200px;text-indent:10px", "a\tb"), ("width:200px;padding-left:10px", "a\tb"),
            ("width:200px;padding-left:20px;text-indent:-20px", "a\tb")]
    for (css, text), (_, _, xs) in zip(tabs, chromium_heights.run_page(page % {"divs": "".join(
            '<div class="c" style="font-family:\'DejaVu Sans\';font-size:15px;%s">%s</div>' % (css, html.escape(text))
            for css, text in tabs), "tab": indents.TAB}, 1)):
        print("tab-size 28px, %s: %r at x %s" % (css, text, xs))
    return ok


def layout_unit(v, scale):
    """A CSS length as Blink keeps it: truncated to 1/64 device px (1/(64 × scale) CSS px)."""
    import math
    return math.trunc(v * 64 * scale) / (64 * scale)


def x_class(case, theirs, mine, scale):
    """Why line x differs where starts agree: Chromium puts the first line at
    LU(headIndent) + LU(firstLineHeadIndent − headIndent) (padding plus text-indent, each
    truncated to the layout unit), not at LU(firstLineHeadIndent)."""
    first, head = case.get("firstLineHeadIndent", 0), case.get("headIndent", 0)
    composite = layout_unit(head, scale) + layout_unit(first - head, scale)
    if abs(theirs[2][0] - composite) < 1e-6 and abs(mine[2][0] - composite) > TOLERANCE:
        return "line x only: first line at LU(head) + LU(first - head) in Chromium"
    return "line x only: other"


def main():
    ap = indents.argument_parser("Chromium", "200 cases per scale")
    ap.add_argument("--scales", default="1,2")
    args = ap.parse_args()
    if args.hand_checks:
        return 0 if hand_checks() else 1
    cases = indents.load_cases(args, "chromium", "cases per scale")
    report, subset, total = {}, [], None
    pick = random.Random(27)
    for scale in [int(s) if float(s).is_integer() else float(s) for s in args.scales.split(",")]:
        t0 = time.time()
        theirs, cached = references(cases, scale, args.reference_cache)
        print("scale %s: Chromium %s in %.1f s; %d lines" % (
            scale, "from the cache" if cached else "laid out", time.time() - t0, sum(len(t[1]) for t in theirs)))
        if args.write_subset:
            for i in sorted(pick.sample(range(len(cases)), min(200, len(cases)))):
                row = dict(indents.plumb_request(cases[i], "chromium", scale), kind=cases[i]["kind"],
                           tags=cases[i]["tags"], chromiumHeight=theirs[i][0], chromiumLineStarts=theirs[i][1])
                if cases[i].get("cssHanging"):
                    row["cssHanging"] = True
                if indents.left_to_right(cases[i]["text"]):
                    row["chromiumLineX"] = theirs[i][2]
                subset.append(row)
        if args.reference_only:
            continue
        t0 = time.time()
        mine = indents.plumb(args.plumb, cases, "chromium", scale)
        print("scale %s: Plumb in %.1f s" % (scale, time.time() - t0))
        stats, misses = indents.score(cases, theirs, mine, lambda a, b: abs(a - b) <= TOLERANCE, TOLERANCE)
        misses = [(c, t, m, x_class(c, t, m, scale) if name == "line x only" else name) for c, t, m, name in misses]
        ctrl = indents.controls(misses, "chromium")
        if ctrl:
            indents.reclassify(misses, ctrl, chromium([c for _, c, _ in ctrl], scale),
                               indents.plumb(args.plumb, [c for _, c, _ in ctrl], "chromium", scale))
        indents.print_stats("scale %s, profile chromium against Chromium:" % scale, stats)
        indents.print_misses(misses, "chromium", args.show)
        report[str(scale)] = stats
        total = indents.add_stats(total, stats)
    if total is not None:
        indents.print_stats("all scales:", total)
        report["all"] = total
    if args.write_subset:
        indents.write_rows(args.write_subset, subset)
    if args.report:
        indents.write_report(args.report, report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
