#!/usr/bin/python3
"""Application fonts in Chromium (`@font-face`) against the `chromium` profile (issue 28, item 6).

    /usr/bin/python3 Tests/Conformance/app_fonts_chromium.py --plumb .build/release/plumb \\
        [--scales 1,2] [--limit N] [--write-subset FILE] [--report FILE]

The fonts are Debian's, registered with Plumb by `--font-file` and loaded by the page with
`@font-face` from the same files (`app_fonts.py` says which, and makes the WOFF2 at run time):
Inter's variable roman (a TTF) at weights 100–900 including non-multiples of 100, Inter's
variable italic converted to WOFF2, and DejaVu Serif's regular face alone, so that weight 700
and italic are synthesised (Chromium's synthetic bold and oblique leave the advances as they
are). A third of the Inter cases set `font-feature-settings` or `font-variant-numeric`.

Cases: every corpus cell once, in one of those fonts (rotating), followed by Noto Sans CJK SC
for the scripts the font lacks, at a width and size picked per case, `line-height: normal`. Each
case is a div at the top of the page as in `chromium_heights.py`. Chromium gives the div's
height and its line starts; Plumb (`measure --lines --line-starts --exact-numbers`) the end of
its last line box and its line starts. Prints the agreement per font and overall.
"""
import argparse
import html
import json
import os
import random
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import app_fonts  # noqa: E402
import chromium_heights  # noqa: E402
import conformance as conf  # noqa: E402
from chromium_reference import SCAN_LINE_STARTS  # noqa: E402

SIZES = [15, 13.5, 16, 17, 12.3, 18.75, 20, 24]
TOLERANCE = 0.01

PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><style>
%(faces)s
body{margin:0} .c{position:absolute;top:0;left:0;white-space:pre-wrap;overflow-wrap:break-word;word-break:normal;
text-spacing-trim:space-all;font-kerning:normal;line-height:normal}
</style></head><body>%(divs)s<pre id="out"></pre><script>
function scan() {
const out=[];
for (const d of document.querySelectorAll('.c')) {
""" + SCAN_LINE_STARTS + """  out.push([d.getBoundingClientRect().height, starts]);
}
document.getElementById('out').textContent=JSON.stringify(out);
}
document.body.offsetHeight;
document.fonts.ready.then(scan);
</script></body></html>"""


def font_face_rules(fonts):
    """One `@font-face` rule per registered file, with the weight range and style it covers."""
    return "\n".join(
        "@font-face{font-family:'%s';src:url('file://%s');font-weight:%s;font-style:%s;font-display:block}" % (
            f["family"], f["path"], f["weights"], f["style"]) for f in fonts)


def make_cases(cells):
    """Each corpus cell once, in the font variant its index picks, at a rotating width and size."""
    cases = []
    for i, cell in enumerate(cells):
        case = {"text": cell["text"], "width": conf.WIDTHS[(5 * i) % len(conf.WIDTHS)],
                "size": SIZES[(3 * i + i // 7) % len(SIZES)]}
        case.update(app_fonts.variant(i))
        cases.append(case)
    return cases


def div(case):
    """The case as a styled div."""
    style = "width:%spx;font-family:%s;font-size:%spx;font-weight:%s;font-style:%s" % (
        case["width"], ",".join("'%s'" % f for f in case["families"]), case["size"], case.get("weight", 400),
        "italic" if case.get("italic") else "normal")
    if "fontFeatures" in case:
        style += ";font-feature-settings:%s" % case["fontFeatures"]
    if "fontVariantNumeric" in case:
        style += ";font-variant-numeric:%s" % case["fontVariantNumeric"]
    return '<div class="c" style="%s">%s</div>' % (html.escape(style), html.escape(case["text"]))


# Web fonts load from files and after the first layout: wait for them (document.fonts.ready).
WEB_FONT_FLAGS = ("--allow-file-access-from-files", "--virtual-time-budget=60000")


def chromium(cases, fonts, scale, chunk=2000):
    """[height, line starts] of every case in headless Chromium at `scale`."""
    results = []
    faces = font_face_rules(fonts)
    for start in range(0, len(cases), chunk):
        divs = "".join(div(c) for c in cases[start:start + chunk])
        results.extend(chromium_heights.run_page(PAGE % {"faces": faces, "divs": divs}, scale, WEB_FONT_FLAGS))
    return results


def plumb_request(case, scale):
    """The JSON Lines request that states `case` to Plumb."""
    r = {k: case[k] for k in ("text", "families", "size", "width") + app_fonts.STYLE_FIELDS if k in case}
    r.update(scale=scale, compatibility="chromium")
    return r


def plumb(binary, cases, fonts, scale):
    """(exact height, line starts) of every case."""
    flags = [a for f in fonts for a in ("--font-file", f["path"])]
    outputs = conf.measure_requests(binary, [plumb_request(c, scale) for c in cases],
                                    "--lines", "--line-starts", "--exact-numbers", *flags)
    results = []
    for o in outputs:
        boxes = (o or {}).get("lineBoxes") or []
        exact = boxes[-1]["rect"][1] + boxes[-1]["rect"][3] if boxes else 0.0
        results.append((exact, o.get("lineStarts")) if o else None)
    return results


def compare(cases, chrome, mine):
    """Agreement counts per font variant, and the disagreements."""
    stats, misses = {}, []
    for c, (height, starts), m in zip(cases, chrome, mine):
        s = stats.setdefault(c["variant"], {"cases": 0, "starts": 0, "heights": 0})
        s["cases"] += 1
        if m is None:
            misses.append((c, height, None, False))
            continue
        same_starts = m[1] == starts
        same_height = abs(m[0] - height) <= TOLERANCE
        s["starts"] += same_starts
        s["heights"] += same_height
        if not (same_starts and same_height):
            misses.append((c, height, m[0], same_starts))
    return stats, misses


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--plumb", default=os.path.join(conf.ROOT, ".build/release/plumb"))
    ap.add_argument("--corpus", default=os.path.join(conf.ROOT, "Benchmarks/Corpus/cells.jsonl"))
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--scales", default="1,2")
    ap.add_argument("--show", type=int, default=10)
    ap.add_argument("--write-subset", help="store a fixed subset with Chromium's heights and line starts")
    ap.add_argument("--report", help="write the agreement numbers here (JSON)")
    args = ap.parse_args()
    cells = [json.loads(l) for l in open(args.corpus, encoding="utf-8") if l.strip()]
    if args.limit:
        cells = cells[:args.limit]
    cases = make_cases(cells)
    report, subset = {}, []
    pick = random.Random(28)
    with tempfile.TemporaryDirectory(prefix="plumb-app-fonts-") as work:
        fonts = app_fonts.files(work)
        total = {"cases": 0, "starts": 0, "heights": 0}
        for scale in [int(s) if float(s).is_integer() else float(s) for s in args.scales.split(",")]:
            chrome = chromium(cases, fonts, scale)
            mine = plumb(args.plumb, cases, fonts, scale)
            stats, misses = compare(cases, chrome, mine)
            for variant, s in sorted(stats.items()):
                print("scale %s %-14s %5d cases: line starts %.2f %%, heights within %.2f px %.2f %%" % (
                    scale, variant, s["cases"], 100.0 * s["starts"] / s["cases"], TOLERANCE,
                    100.0 * s["heights"] / s["cases"]))
                for k in total:
                    total[k] += s[k]
            report[str(scale)] = stats
            for c, height, exact, same in misses[:args.show]:
                print("   miss: %r %s %s w%s: chromium %s plumb %s (line starts %s)" % (
                    c["text"][:50], c["variant"], c["size"], c["width"], height, exact, "agree" if same else "differ"))
            if args.write_subset:
                for i in sorted(pick.sample(range(len(cases)), min(200, len(cases)))):
                    subset.append(dict(plumb_request(cases[i], scale), variant=cases[i]["variant"],
                                       chromiumHeight=chrome[i][0], chromiumLineStarts=chrome[i][1]))
        print("all: %d cases: line starts %.2f %%, heights %.2f %%" % (
            total["cases"], 100.0 * total["starts"] / total["cases"], 100.0 * total["heights"] / total["cases"]))
        report["all"] = total
    if args.write_subset:
        with open(args.write_subset, "w", encoding="utf-8") as f:
            for row in subset:
                f.write(json.dumps(row, ensure_ascii=False) + "\n")
    if args.report:
        with open(args.report, "w", encoding="utf-8") as f:
            json.dump(report, f, indent=1)


if __name__ == "__main__":
    main()
