#!/usr/bin/python3
"""CSS `hyphens` in Chromium against the `chromium` profile.

    /usr/bin/python3 Tests/Conformance/hyphens_chromium.py --plumb .build/release/plumb \\
        [--scales 1,2] [--limit N] [--write-subset FILE] [--report FILE] [--section FILE] \\
        [--show N] [--reference-cache FILE] [--reference-only] [--hand-checks]

Cases: `hyphens.py`'s under `chromium` (kinds sentence, word, overlong, special, cjk; texts with
U+00AD SOFT HYPHEN, "SHY", and overlong words without), each in the modes manual and none,
every 10th also unset. Each case is a div at the top of the page as in `indents_chromium.py`
(pre-wrap, `overflow-wrap: break-word`, `text-spacing-trim: space-all`, `line-height: normal`,
`box-sizing: border-box; width: W px`) with

    manual   hyphens: manual   (Plumb: "hyphenation": "manual")
    none     hyphens: none     (Plumb: "none")
    unset    no hyphens        (Plumb: no field; CSS's initial manual)
    language lang="…" on the div (Plumb: "language"); none: the page's "en"

`hyphens: auto` is not checked: Debian's Chromium ships no hyphenation dictionaries (with
`lang="en"` it breaks as manual does).

What Chromium 156 does (`--hand-checks` asserts each at scale 1, DejaVu Sans 15px; W(x) is
Pango's advance of x, ‐ is U+2010, a width agrees within a layout unit):

- manual: a break at a SHY draws a hyphen whose width counts: "extra\\u00adordinary words" in
  60 is [0, 6, 13], the first line W(extra) + W(‐) = 44.50 wide; the hyphen must fit: in 42
  the word breaks as an overlong one ("extr" | "a\\u00ad" with a hyphen | …);
- none: a SHY is no break opportunity ([0, 8, 15] for the same text), BUT an overflow-wrap
  break that lands right after a SHY draws a hyphen all the same, and it counts
  ("extra\\u00adordinary" in 45 is [0, 6, 11] with "extra‐" 44.50 wide under none too);
- under both, a line ending in a SHY before a space draws the hyphen and needs room for it:
  "abcd\\u00ad efgh" in 40 does not fit "abcd‐" (41.9) and breaks "abc" | "d\\u00ad " (hyphen)
  | "efgh"; a SHY at the text's end needs the room too, but the last line draws none
  ("slave\\u00ad" at 24px in 66: "slav" | "e");
- the overflow-wrap breaks inside an overlong word draw no hyphen ("extraordinary" in 60:
  "extraor" 54.44); nor does a break after a SHY between CJK characters;
- a SHY after '(' or ',' draws one too ("(\\u00adabcdefgh)" in 45: "(‐" first, manual);
- the hyphen is U+2010 of the first (primary) font, '-' when it has no U+2010 (Noto Sans Math),
  also after Han in a fallback font ("中文\\u00ad" in Noto Sans, Noto Sans CJK SC: Noto Sans's
  4.83, not the CJK font's full-em U+2010); after Han, Hangul or kana it is drawn too.

Chromium gives the div's height, its line starts (the shared scan, but each character's line
taken from its last client rect: the Range of a SHY at a break has its own empty rect and the
hyphen's, and the character after it the hyphen's rect before its own), the left of each
line's first character, each line's width (the right edge of the rightmost client rect of its
characters other than spaces and tabs, the hyphen's included: the box's left is 0) and
whether a SHY on it drew a hyphen (its Range has a second, non-empty rect); Plumb (`measure
--lines --line-starts --exact-numbers`, `"compatibility": "chromium"`, the same scale) the end
of its last line box, its line starts, line boxes' x and `usedWidth`. A case agrees when its
starts are the same and its height is within 0.01 px; widths (cases whose starts agree) within
two layout units and 0.001 (`width_tolerance`: Chromium's rects are on its 1/(64 × scale) px
unit, the text's and the hyphen's each rounded up), scored apart.

`--reference-cache FILE` keeps Chromium's answers (read when made for the same cases and
scale, else written); `--reference-only` stops after them; `--hand-checks` lays out the hand
cases above. `--write-subset FILE` stores 400 cases over the scales with Chromium's answers
(`chromiumHeight`, `chromiumLineStarts`, `chromiumLineX`, `chromiumLineWidths`,
`chromiumHyphens`), a quarter of them misses when Plumb ran; `--section FILE` writes a
Markdown section of the agreement.
"""
import html
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chromium_heights  # noqa: E402
import hyphens  # noqa: E402
import indents  # noqa: E402
import indents_chromium  # noqa: E402

TOLERANCE = 0.01
SUBSET = 400
SCAN = r"""  const node=d.firstChild; const starts=[]; const lefts=[]; const tops=[]; const boxes=[]; const hy=[];
  let scalar=0;
  if (node) { const text=node.data; const r=document.createRange();
    for (let i=0;i<text.length;) { const cp=text.codePointAt(i); const len=cp>0xffff?2:1;
      r.setStart(node,i); r.setEnd(node,i+len); const rects=r.getClientRects();
      if (rects.length) { const last=rects[rects.length-1]; const t=last.top;
        if (!tops.length || t>tops[tops.length-1]+1) { starts.push(scalar); tops.push(t); lefts.push(last.left); }
        if (cp!==32 && cp!==9) for (const q of rects) boxes.push([q.top, q.right]);
        if (cp===0xad && rects.length>1 && last.width>0) hy.push(last.top); }
      i+=len; scalar++; } }
  const lineOf=t=>{ let k=0; while (k+1<tops.length && tops[k+1]<=t+1) k++; return k; };
  const widths=tops.map(()=>0); const hyphens=tops.map(()=>false);
  for (const [t,right] of boxes) { const k=lineOf(t); widths[k]=Math.max(widths[k],right); }
  for (const t of hy) hyphens[lineOf(t)]=true;
"""
_PUSH = "out.push([d.getBoundingClientRect().height, starts, lefts]);"
assert indents_chromium.SCAN in indents_chromium.PAGE and _PUSH in indents_chromium.PAGE
# The indent oracle's page (its style, one div per case), with this scan.
PAGE = indents_chromium.PAGE.replace(indents_chromium.SCAN, SCAN).replace(
    _PUSH, "out.push([d.getBoundingClientRect().height, starts, lefts, widths, hyphens]);")


def css(case):
    """The case's declarations: width, font and `hyphens` (none for unset)."""
    out = "width:%spx;font-family:%s;font-size:%spx" % (
        case["width"], ",".join("'%s'" % f for f in case["families"]), case["size"])
    if case["mode"] != "unset":
        out += ";hyphens:%s" % case["mode"]
    return out


def div(case):
    """The case as a div (module docstring)."""
    lang = ' lang="%s"' % case["language"] if "language" in case else ""
    return '<div class="c"%s style="%s">%s</div>' % (lang, html.escape(css(case)), html.escape(case["text"]))


def width_tolerance(scale):
    """How far a line width may be off: two layout units, 1/(64 × scale) px each, and 0.001.
    Chromium's rects are on the unit, rounded up: the text's right edge, and the hyphen's box
    starts there and is as wide as the hyphen rounded up ("extra‐" in DejaVu Sans 15 at scale 1:
    ceil(39.083) + ceil(5.413) = 39.094 + 5.422 = 44.516, the advances' sum 44.496)."""
    return 2 / (64 * scale) + 0.001


def chromium(cases, scale, chunk=2500):
    """(height, line starts, line lefts, line widths, hyphen drawn per line) of every case in
    headless Chromium at `scale`."""
    results = []
    for start in range(0, len(cases), chunk):
        page = PAGE % {"divs": "".join(div(c) for c in cases[start:start + chunk]), "tab": indents.TAB}
        results.extend(chromium_heights.run_page(page, scale))
    return [tuple(r) for r in results]


def references(cases, scale, cache):
    """Chromium's answers, from the cache when it was made for these cases."""
    key = "chromium hyphens 1 %s scale %s" % (indents.fingerprint(cases), scale)
    cached = indents.load_cache(cache, key)
    if cached is not None:
        return [tuple(r) for r in cached], True
    results = chromium(cases, scale)
    indents.store_cache(cache, key, results)
    return results, False


# (what it shows, case fields, mode, expected starts, expected widths, expected hyphens); a
# width is a number, None, or "a+b" naming texts whose Pango advances (DejaVu Sans 15, or the
# case's first family) add up to it.
MATH = ["Noto Sans Math", "DejaVu Sans"]
HAND = [
    ("manual: a SHY break draws a hyphen that counts", {"text": "extra\u00adordinary words", "width": 60}, "manual",
     [0, 6, 13], ["extra+‐", "ordinar", "y words"], [True, False, False]),
    ("none: the SHY is no break opportunity", {"text": "extra\u00adordinary words", "width": 60}, "none",
     [0, 8, 15], ["extraor", "dinary", "words"], [False, False, False]),
    ("unset is manual", {"text": "extra\u00adordinary words", "width": 60}, "unset", [0, 6, 13], None,
     [True, False, False]),
    ("manual: the hyphen must fit (extra‐ 44.5 in 42): the word breaks as an overlong one",
     {"text": "extra\u00adordinary", "width": 42}, "manual", [0, 4, 6, 11], ["extr", "a+‐", "ordin", "ary"],
     [False, True, False, False]),
    ("none: an overflow-wrap break right after a SHY draws a hyphen that counts",
     {"text": "extra\u00adordinary", "width": 45}, "none", [0, 6, 11], ["extra+‐", "ordin", "ary"],
     [True, False, False]),
    ("none: a SHY inside a fitting run draws nothing", {"text": "extra\u00adordinary", "width": 42}, "none",
     [0, 4, 10], ["extr", "a+ordi", "nary"], [False, False, False]),
    ("overflow-wrap breaks inside an overlong word draw no hyphen", {"text": "extraordinary", "width": 60},
     "manual", [0, 7], ["extraor", "dinary"], [False, False]),
    ("a SHY before a space at the line's end draws a hyphen and needs its room (manual)",
     {"text": "abcd\u00ad efgh", "width": 40}, "manual", [0, 3, 6], ["abc", "d+‐", "efgh"], [False, True, False]),
    ("... under none as well", {"text": "abcd\u00ad efgh", "width": 40}, "none", [0, 3, 6], ["abc", "d+‐", "efgh"],
     [False, True, False]),
    ("a SHY after '(' draws a hyphen (manual)", {"text": "(\u00adabcdefgh)", "width": 45}, "manual", [0, 2, 6],
     ["(+‐", "abcd", "efgh)"], [True, False, False]),
    ("two SHYs draw one hyphen", {"text": "abcd\u00ad\u00adefgh", "width": 45}, "manual", [0, 6],
     ["abcd+‐", "efgh"], [True, False]),
    ("a SHY before '-': no break at the SHY, the '-' ends the line", {"text": "abcd\u00ad-efgh", "width": 45},
     "manual", [0, 6], ["abcd-", "efgh"], [False, False]),
    ("no break between a SHY and ',' (UAX #14 LB13)", {"text": "abcd\u00ad,efgh", "width": 40}, "manual",
     [0, 3, 9], ["abc", "d+,efg", "h"], [False, False, False]),
    ("the hyphen after Han is the primary font's (Noto Sans's 4.83, not Noto Sans CJK SC's em)",
     {"text": "中文\u00adabcdef", "width": 40, "families": ["Noto Sans", "Noto Sans CJK SC"]}, "manual",
     [0, 3, 7], ["中文+‐", None, None], [True, False, False]),
    ("a SHY at the text's end needs room for a hyphen (slave‐ in 66), though none is drawn",
     {"text": "slave\u00ad", "width": 66, "size": 24}, "none", [0, 4], ["slav", "e"], [False, False]),
    ("the hyphen is the primary font's '-' when it has no U+2010",
     {"text": "abcd\u00adefgh", "width": 45, "families": MATH}, "manual", [0, 5], ["abcd+-", "efgh"], [True, False]),
]


def hand_checks():
    """Lays the HAND cases out at scales 1 and 2 and prints what Chromium did; False when a
    check at scale 1 differs (widths by more than `width_tolerance`)."""
    import conformance as conf
    import hyphens_pango
    measurer = conf.PangoMeasurer()
    cases = [dict({"families": ["DejaVu Sans"], "size": 15, "mode": mode}, **fields)
             for _, fields, mode, _, _, _ in HAND]
    ok = True
    for scale in (1, 2):
        results = chromium(cases, scale)
        for (what, _, mode, starts, widths, drawn), case, (h, got, _, ws, hy) in zip(HAND, cases, results):
            want = [hyphens_pango.expected_width(measurer, case, v) for v in widths] if widths else None
            same = got == starts and (drawn is None or hy == drawn) and (want is None or len(want) == len(ws) and all(
                e is None or abs(a - e) <= width_tolerance(scale) for a, e in zip(ws, want)))
            ok = ok and (same or scale != 1)
            print("scale %s %-4s %s\n    %r %s w%s: starts %s, widths %s, hyphens %s%s" % (
                scale, "ok" if same else "DIFF", what, case["text"], mode, case["width"], got, ws, [int(x) for x in hy],
                "" if same else "\n    expected starts %s, widths %s, hyphens %s" % (
                    starts, want and [None if w is None else round(w, 4) for w in want], drawn)))
    return ok


def main():
    """Lays the cases out in Chromium and Plumb per scale, writes the subset and prints the
    scores."""
    ap = hyphens.argument_parser("Chromium", "%d cases over the scales" % SUBSET)
    ap.add_argument("--scales", default="1,2")
    args = ap.parse_args()
    if args.hand_checks:
        return 0 if hand_checks() else 1
    cases = hyphens.load_cases(args, "chromium")
    report, pool, missed, total = {}, [], [], None
    for scale in [int(s) if float(s).is_integer() else float(s) for s in args.scales.split(",")]:
        t0 = time.time()
        theirs, cached = references(cases, scale, args.reference_cache)
        scaled = [dict(c) for c in cases]
        hyphens.reference_tags(scaled, theirs)
        print("scale %s: Chromium %s in %.1f s; %d lines, %d hyphens drawn" % (
            scale, "from the cache" if cached else "laid out", time.time() - t0, sum(len(t[1]) for t in theirs),
            sum(sum(t[4]) for t in theirs)))
        base = len(pool)
        pool += [(scale, c, t) for c, t in zip(scaled, theirs)]
        if args.reference_only:
            continue
        t0 = time.time()
        mine = hyphens.plumb(args.plumb, scaled, "chromium", scale)
        print("scale %s: Plumb in %.1f s" % (scale, time.time() - t0))
        for mode in hyphens.MODES["chromium"]:
            index = [i for i, c in enumerate(scaled) if c["mode"] == mode]
            sub = [scaled[i] for i in index]
            stats, misses = hyphens.score(sub, [theirs[i] for i in index], [mine[i] for i in index],
                                          lambda a, b: abs(a - b) <= TOLERANCE, width_tolerance(scale),
                                          "chromium")
            ctrl = hyphens.controls(misses)
            if ctrl:
                hyphens.reclassify(misses, ctrl, chromium([c for _, c in ctrl], scale),
                                   hyphens.plumb(args.plumb, [c for _, c in ctrl], "chromium", scale))
            hyphens.print_stats("scale %s, mode %s, profile chromium against Chromium:" % (scale, mode), stats)
            hyphens.print_misses(misses, "chromium", args.show)
            position = {id(c): i for i, c in zip(index, sub)}
            missed += [(base + position[id(c)], name) for c, _, _, name in misses]
            report["scale %s %s" % (scale, mode)] = stats
            report.setdefault(mode, None)
            report[mode] = indents.add_stats(report[mode], stats)
            total = indents.add_stats(total, stats)
    if total is not None:
        for mode in hyphens.MODES["chromium"]:
            hyphens.print_stats("all scales, mode %s:" % mode, report[mode])
        hyphens.print_stats("all scales and modes:", total)
        report["all"] = total
    if args.write_subset:
        picked = hyphens.pick_subset([c for _, c, _ in pool], SUBSET, 31, missed)
        indents.write_rows(args.write_subset, [hyphens.subset_row(pool[i][1], "chromium", "chromium", pool[i][2],
                                                                  pool[i][0]) for i in picked])
    if args.report and report:
        indents.write_report(args.report, report)
    if args.section and total is not None:
        shown = {k: v for k, v in report.items() if k in hyphens.MODES["chromium"] or k == "all"}
        with open(args.section, "w", encoding="utf-8") as f:
            f.write(hyphens.markdown("Hyphenation, profile `chromium` against Chromium", shown,
                                     "`Tests/Conformance/hyphens_chromium.py`: %d cases per scale, scales %s "
                                     "(figures over all scales)." % (len(cases), args.scales)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
