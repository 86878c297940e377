#!/usr/bin/python3
"""CSS `text-align: justify` in Chromium against the `chromium` profile (issue 27, items 4 and 6).

    /usr/bin/python3 Tests/Conformance/justify_chromium.py --plumb .build/release/plumb \\
        [--scales 1,2] [--limit N] [--write-subset FILE] [--report FILE] [--show N] \\
        [--reference-cache FILE] [--reference-only] [--hand-checks]

Cases: `justify.py`'s under `chromium` (corpus cells, sentences, paragraphs and Latin + CJK
joins; modes last-natural and last-justified; 10 % with indents), every one at each scale.
Each case is a div at the top of the page with the indent oracles' style (`indents_chromium`:
pre-wrap, `overflow-wrap: break-word`, `word-break: normal`, `text-spacing-trim: space-all`,
`font-kerning: normal`, `line-height: normal`, `box-sizing: border-box; width: W px`, the
indents as padding and `text-indent`) and

    last-natural     text-align: justify                          (Plumb: "alignment": "justified")
    last-justified   text-align: justify; text-align-last: justify (+ "lastLineAlignment": "justified")
    natural layout   no text-align (start)                        (Plumb: no alignment field)
    RTL letters      unicode-bidi: plaintext: each paragraph's direction from its first strong
                     character, as Plumb's natural alignment takes it (no indents on these)

Chromium gives the div's height, its line starts (`SCAN_LINE_STARTS`, Unicode scalars) and per
grapheme (`Intl.Segmenter`, line separators left out) a DOM Range's client rects: the cluster's
[start scalar, left, right] in CSS px from the div's border-box left (the cell's box: 0 is the
box's left edge, indents inside it), the left the smallest left and the right the largest right
of its non-empty rects. Its natural layout gives the height and the line starts. Plumb
(`measure --lines --line-starts --clusters --exact-numbers`, `"compatibility": "chromium"`, the
same scale; once more without the alignment fields) gives the end of its last line box, its line
starts and its clusters per line ([start, end, minX, maxX], points = CSS px). Scored by
`justify.score`: starts; heights within 0.01 px; where the starts agree every cluster's left x
within 0.02 px (and within 1/64 px: Chromium's rects are on its layout unit) and every line's
justified width within 0.02 px; the natural layouts' starts; Plumb's and Chromium's own starts
with and without justification.

What Chromium 156 does (`--hand-checks`, DejaVu Sans 15px, scale 1): the leftover width of a
wrapped line is split equally over its expansion opportunities, after each space (the space's
rect widens) and on both sides of CJK ideographs, kana, fullwidth forms, U+3000, circled digits,
emoji and flags (one gap between two of them, none at the line's edges; Hangul and keycap
sequences are none); trailing spaces hang past the box; a paragraph's last line is start-aligned
unless `text-align-last: justify`; a line without an opportunity (a word broken by
overflow-wrap, Thai) is start-aligned; the box is the width in layout units (113.3px is
113.296875); a Range's left is floored and its right ceiled to the layout unit, 1/64 px at
scale 1, 1/128 at scale 2. At scale 1 the justified positions run up to a layout unit behind
the exact ones (consistent with the leftover being taken from the line's width ceiled to the
layout unit), so the 0.02 px tolerance is tight there.

`--reference-cache FILE` keeps Chromium's answers (read when made for the same cases and scale,
else written); `--reference-only` stops after them; `--write-subset FILE` stores 300 cases over
the scales with Chromium's answers (`chromiumHeight`, `chromiumLineStarts`, `chromiumClusters`:
per line [startScalar, minX, maxX]), a quarter of them misses when Plumb ran; every row has its
`scale`, 1 too (Plumb's default is 2). Without `--reference-only` the Plumb binary must have
`--clusters`.
"""
import html
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chromium_heights  # noqa: E402
import indents  # noqa: E402
import indents_chromium  # noqa: E402
import justify  # noqa: E402
from chromium_reference import SCAN_LINE_STARTS  # noqa: E402

TOLERANCE = 0.01
SUBSET = 200
CLUSTERS = r"""  const box=d.getBoundingClientRect(); const clusters=[];
  if (node) { const rr=document.createRange(); let sc=0;
    for (const g of segmenter.segment(node.data)) { const s=g.segment; const n=[...s].length;
      if (!/^[\n\r\u2028\u2029]+$/.test(s)) {
        rr.setStart(node,g.index); rr.setEnd(node,g.index+s.length);
        let lo=Infinity, hi=-Infinity, lo0=Infinity, hi0=-Infinity;
        for (const q of rr.getClientRects()) { lo0=Math.min(lo0,q.left); hi0=Math.max(hi0,q.right);
          if (q.width>0) { lo=Math.min(lo,q.left); hi=Math.max(hi,q.right); } }
        if (lo===Infinity) { lo=lo0; hi=hi0; }
        if (lo!==Infinity) clusters.push([sc, lo-box.left, hi-box.left]); }
      sc+=n; } }
"""
_STYLE = indents_chromium.PAGE.split("</style>", 1)[0] + "</style>"
PAGE = _STYLE + """</head><body>%(divs)s<pre id="out"></pre><script>
const out=[]; const segmenter=new Intl.Segmenter('en',{granularity:'grapheme'});
for (const d of document.querySelectorAll('.c')) {
""" + SCAN_LINE_STARTS + "  if (d.dataset.j) {\n" + CLUSTERS + """    out.push([box.height, starts, clusters]);
  } else out.push([d.getBoundingClientRect().height, starts]);
}
document.getElementById('out').textContent=JSON.stringify(out);
</script></body></html>"""


def css(case, natural=False):
    """The case's declarations (module docstring)."""
    out = "width:%spx;font-family:%s;font-size:%spx;%s" % (
        case["width"], ",".join("'%s'" % f for f in case["families"]), case["size"], indents_chromium.indent_css(case))
    if not indents.left_to_right(case["text"]):
        out += ";unicode-bidi:plaintext"
    if not natural:
        out += ";text-align:justify"
        if case.get("lastLineAlignment") == "justified":
            out += ";text-align-last:justify"
    return out


def div(case, natural=False):
    """The case as a div; the justified one is marked (`data-j`) for the cluster scan."""
    return '<div class="c"%s style="%s">%s</div>' % (
        "" if natural else ' data-j="1"', html.escape(css(case, natural)), html.escape(case["text"]))


def chromium(cases, scale, chunk=1500):
    """Per case (height, line starts, clusters per line [[start, left, right]], natural height,
    natural line starts) in headless Chromium at `scale`."""
    results = []
    for start in range(0, len(cases), chunk):
        part = cases[start:start + chunk]
        divs = "".join(div(c) + div(c, natural=True) for c in part)
        got = chromium_heights.run_page(PAGE % {"divs": divs, "tab": indents.TAB}, scale)
        for k in range(len(part)):
            (h, starts, clusters), (nh, ns) = got[2 * k], got[2 * k + 1]
            results.append((h, starts, justify.per_line(starts, clusters), nh, ns))
    return results


def references(cases, scale, cache):
    """Chromium's answers, from the cache when it was made for these cases."""
    key = "chromium justify 1 %s scale %s" % (indents.fingerprint(cases), scale)
    cached = indents.load_cache(cache, key)
    if cached is not None:
        return [tuple(r) for r in cached], True
    results = chromium(cases, scale)
    indents.store_cache(cache, key, results)
    return results, False


# (what it shows, case fields, check(result) -> bool); DejaVu Sans 15px, scale 1.
LINE = "Hello world this is a justified text sample"


def lefts(r, line):
    return [round(q[1], 4) for q in r[2][line]]


HAND = [
    ("a wrapped line spans the width; its trailing space hangs past it", {"text": LINE, "width": 150},
     lambda r: r[1] == [0, 22, 37] and abs(r[2][0][-2][2] - 150) < 0.02 and r[2][0][-1][1] >= 149.98),
    ("the leftover goes to the spaces equally (each space's rect widens by the same)", {"text": LINE, "width": 150},
     lambda r: max(q[2] - q[1] for q in r[2][0][:-1] if LINE[q[0]] == " ") - min(
         q[2] - q[1] for q in r[2][0][:-1] if LINE[q[0]] == " ") <= 2 / 64),
    ("the last line is start-aligned", {"text": LINE, "width": 150}, lambda r: lefts(r, 2)[0] == 0
     and r[2][2][-1][2] < 100),
    ("text-align-last: justify stretches it", {"text": LINE + " ok", "width": 150, "lastLineAlignment": "justified"},
     lambda r: abs(r[2][2][-1][2] - 150) < 0.02),
    ("... but not a last line without an opportunity", {"text": LINE, "width": 150, "lastLineAlignment": "justified"},
     lambda r: r[2][2][-1][2] < 100),
    ("... and a lone line", {"text": "Hello world foo bar", "width": 300, "lastLineAlignment": "justified"},
     lambda r: abs(r[2][0][-1][2] - 300) < 0.02),
    ("ideographs: gaps between them, none at the line's edges",
     {"text": "中文中文中文中文中文中文中文", "width": 100, "families": ["Noto Sans CJK SC"]},
     lambda r: lefts(r, 0)[0] == 0 and abs(r[2][0][-1][2] - 100) < 0.02),
    ("a line without an opportunity (overflow-wrap inside a word) is start-aligned",
     {"text": "Helloworldfoobarbazquux", "width": 100}, lambda r: len(r[1]) > 1 and r[2][0][-1][2] < 99.5),
    ("emoji, flags, circled digits, U+3000, fullwidth forms and kana are opportunities too",
     {"text": "a\U0001F600b\U0001F1F9\U0001F1ECc\u2460d\u3000e\uff21fかg", "width": 300,
      "lastLineAlignment": "justified"}, lambda r: abs(r[2][0][-1][2] - 300) < 0.02),
    ("... Hangul and a keycap sequence are not (the line stays at the start)",
     {"text": "a\ud55cb1\ufe0f\u20e3c", "width": 300, "lastLineAlignment": "justified"},
     lambda r: r[2][0][-1][2] < 100),
    ("the last line before a forced break is start-aligned",
     {"text": "Hello world foo bar\nbaz qux quux corge", "width": 100},
     lambda r: r[1][:3] == [0, 12, 20] and r[2][1][-1][2] < 99 and abs(r[2][0][-2][2] - 100) < 0.02),
]


def hand_checks():
    """Lays the HAND cases out at scales 1 and 2 and prints what Chromium did; False when a
    check at scale 1 fails."""
    cases = [dict({"families": ["DejaVu Sans"], "size": 15, "alignment": "justified"}, **fields)
             for _, fields, _ in HAND]
    ok = True
    for scale in (1, 2):
        for (what, _, check), case, r in zip(HAND, cases, chromium(cases, scale)):
            same = check(r)
            ok = ok and (same or scale != 1)
            print("scale %s %-4s %s\n    %r w%s: starts %s (natural %s), lefts %s" % (
                scale, "ok" if same else "DIFF", what, case["text"][:40], case["width"], r[1], r[4],
                [lefts(r, k)[:8] for k in range(len(r[2]))]))
    return ok


def main():
    """Lays the cases out in Chromium and Plumb per scale, writes the subset and prints the
    scores."""
    ap = justify.argument_parser("Chromium", "%d cases over the scales" % SUBSET)
    ap.add_argument("--scales", default="1,2")
    args = ap.parse_args()
    if args.hand_checks:
        return 0 if hand_checks() else 1
    cases = justify.load_cases(args, "chromium")
    if not args.reference_only:
        note = justify.wait_note(args.plumb)
        if note:
            print(note + "; use --reference-only")
            return 2
    report, pool, missed, total = {}, [], [], None
    for scale in [int(s) if float(s).is_integer() else float(s) for s in args.scales.split(",")]:
        t0 = time.time()
        theirs, cached = references(cases, scale, args.reference_cache)
        scaled = [dict(c) for c in cases]
        justify.reference_tags(scaled, theirs)
        print("scale %s: Chromium %s in %.1f s; %d lines, %d clusters" % (
            scale, "from the cache" if cached else "laid out", time.time() - t0, sum(len(t[1]) for t in theirs),
            sum(len(l) for t in theirs for l in t[2])))
        base = len(pool)
        pool += [(scale, c, t) for c, t in zip(scaled, theirs)]
        if args.reference_only:
            continue
        t0 = time.time()
        mine = justify.plumb(args.plumb, scaled, "chromium", scale)
        print("scale %s: Plumb in %.1f s" % (scale, time.time() - t0))
        stats, misses = justify.score(scaled, theirs, mine, lambda a, b: abs(a - b) <= TOLERANCE, "chromium",
                                      scale)
        justify.print_stats("scale %s, profile chromium against Chromium:" % scale, stats, fine=True)
        justify.print_misses(misses, "chromium", args.show)
        position = {id(c): i for i, c in enumerate(scaled)}
        missed += [(base + position[id(c)], name) for c, _, _, name in misses]
        report[str(scale)] = stats
        total = indents.add_stats(total, stats)
    if total is not None:
        justify.print_stats("all scales:", total, fine=True)
        report["all"] = total
    if args.write_subset:
        picked = justify.pick_subset([c for _, c, _ in pool], SUBSET, 27, missed)
        indents.write_rows(args.write_subset, [justify.subset_row(pool[i][1], "chromium", "chromium", pool[i][2],
                                                                  pool[i][0]) for i in picked])
    if args.report and report:
        indents.write_report(args.report, report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
