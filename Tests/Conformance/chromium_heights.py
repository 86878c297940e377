#!/usr/bin/python3
"""Div heights in Chromium against the `chromium` profile (issue 15, "Chromium's heights").

    /usr/bin/python3 Tests/Conformance/chromium_heights.py --plumb .build/release/plumb \\
        [--scales 1,2,3] [--limit N] [--write-subset FILE] [--report FILE]

Cases: every corpus cell in each of the three cascades, at a width and a font size picked per
case from fixed lists (sizes include fractional ones), with `line-height: normal`; a third of
them again with a fixed px line height and a third with a CSS number. Each case is a div as in
`chromium_reference.py` (pre-wrap, overflow-wrap: break-word, text-spacing-trim: space-all),
in headless Chromium with `--force-device-scale-factor` for scales above 1. Every div sits at the
top of the page (`position: absolute`): a box thousands of pixels down loses the low bits of its
height at scale 3 (the rect is in `float`, 1/192 px is not a binary fraction). Chromium gives the
div's `getBoundingClientRect().height` and the line starts; Plumb (`measure --lines
--line-starts --exact-numbers` at the same scale) gives the unrounded height (the end of the
last line box) and its `height` field (ceiled to the device pixel). Prints the agreement
within 0.01 px, overall and on the cases whose line starts agree.
"""
import argparse
import html
import json
import os
import random
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import conformance as conf  # noqa: E402
from chromium_reference import SCAN_LINE_STARTS  # noqa: E402

SIZES = [15, 13.5, 15.25, 11, 12.3, 16, 17, 18.75, 20, 24]
FIXED_PX = [18, 20.3, 24.75, 30]
NUMBERS = [1.2, 1.4, 1.5, 1.75]
TOLERANCE = 0.01

PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><style>
body{margin:0} .c{position:absolute;top:0;left:0;white-space:pre-wrap;overflow-wrap:break-word;word-break:normal;text-spacing-trim:space-all;
font-kerning:normal;text-rendering:%(rendering)s}
</style></head><body>%(divs)s<pre id="out"></pre><script>
const out=[];
for (const d of document.querySelectorAll('.c')) {
""" + SCAN_LINE_STARTS + """  out.push([d.getBoundingClientRect().height, starts]);
}
document.getElementById('out').textContent=JSON.stringify(out);
</script></body></html>"""


def make_cases(cells):
    """Every cell × cascade at a width and size picked per case; every third case also with a
    fixed px line height and every third (shifted) with a CSS number."""
    cases = []
    for i, cell in enumerate(cells):
        for c, families in enumerate(conf.CASCADES):
            k = 3 * i + c
            base = {"text": cell["text"], "families": families, "width": conf.WIDTHS[k % len(conf.WIDTHS)],
                    "size": SIZES[(7 * i + c) % len(SIZES)]}
            cases.append(dict(base, lineHeight="normal"))
            if k % 3 == 0:
                cases.append(dict(base, lineHeight="%spx" % FIXED_PX[(i // 3) % len(FIXED_PX)]))
            if k % 3 == 1:
                cases.append(dict(base, lineHeight=str(NUMBERS[(i // 3) % len(NUMBERS)])))
    return cases


RENDERING = ["geometricPrecision"]


def chromium(cases, scale, chunk=3000):
    """[height, line starts] of every case in headless Chromium at `scale`."""
    results = []
    for start in range(0, len(cases), chunk):
        divs = "".join(
            '<div class="c" style="width:%spx;font-family:%s;font-size:%spx;line-height:%s">%s</div>' % (
                c["width"], ",".join("'%s'" % f for f in c["families"]), c["size"], c["lineHeight"],
                html.escape(c["text"]))
            for c in cases[start:start + chunk])
        results.extend(run_page(PAGE % {"divs": divs, "rendering": RENDERING[0]}, scale))
    return results


def run_page(page, scale, flags=()):
    """The page's `<pre id="out">` JSON in headless Chromium at `scale`, with extra `flags`."""
    with tempfile.NamedTemporaryFile("w", suffix=".html", delete=False, encoding="utf-8") as f:
        f.write(page)
        path = f.name
    args = ["chromium", "--headless", "--no-sandbox", "--disable-gpu", *flags]
    if scale != 1:
        args.append("--force-device-scale-factor=%s" % scale)
    try:
        dom = subprocess.run(args + ["--dump-dom", "file://" + path], capture_output=True,
                             timeout=900).stdout.decode("utf-8")
    finally:
        os.unlink(path)
    return json.loads(html.unescape(dom.split('<pre id="out">', 1)[1].split("</pre>", 1)[0]))


def plumb_request(case, scale, profile="chromium"):
    """The JSON Lines request that states `case` to Plumb."""
    r = {"text": case["text"], "families": case["families"], "size": case["size"], "width": case["width"],
         "scale": scale, "compatibility": profile}
    lh = case["lineHeight"]
    if lh.endswith("px"):
        r["minimumLineHeight"] = r["maximumLineHeight"] = float(lh[:-2])
    elif lh != "normal":
        r["lineHeightEm"] = float(lh)
    return r


def plumb(binary, cases, scale, profile="chromium"):
    """(exact height, ceiled height, line starts) of every case."""
    outputs = conf.measure_requests(binary, [plumb_request(c, scale, profile) for c in cases], "--lines", "--line-starts", "--exact-numbers")
    results = []
    for o in outputs:
        boxes = (o or {}).get("lineBoxes") or []
        exact = boxes[-1]["rect"][1] + boxes[-1]["rect"][3] if boxes else 0.0
        results.append((exact, o["height"], o.get("lineStarts")) if o else None)
    return results


def ceil_to_grid(v, scale):
    import math
    p = v * scale
    # Chromium's rect is float: a tall box is off by up to 1e-3 device px.
    return (round(p) if abs(p - round(p)) <= 2e-3 else math.ceil(p)) / scale


def compare(cases, chrome, mine, scale):
    """Agreement counts, per line-height kind, and the disagreements."""
    stats = {}
    misses = []
    for c, (ch, cs), m in zip(cases, chrome, mine):
        kind = "normal" if c["lineHeight"] == "normal" else ("px" if c["lineHeight"].endswith("px") else "number")
        s = stats.setdefault(kind, {"cases": 0, "exact": 0, "ceiled": 0, "sameStarts": 0, "exactSameStarts": 0})
        s["cases"] += 1
        if m is None:
            continue
        exact, ceiled, starts = m
        ok = abs(exact - ch) <= TOLERANCE
        s["exact"] += ok
        s["ceiled"] += abs(ceiled - ceil_to_grid(ch, scale)) <= 1e-6
        if starts == cs:
            s["sameStarts"] += 1
            s["exactSameStarts"] += ok
        if not ok:
            misses.append((c, ch, exact, starts == cs))
    return stats, misses


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--plumb", default=os.path.join(conf.ROOT, ".build/release/plumb"))
    ap.add_argument("--corpus", default=os.path.join(conf.ROOT, "Benchmarks/Corpus/cells.jsonl"))
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--scales", default="1,2,3")
    ap.add_argument("--baseline-profile", default="standard", help="also score this profile (the UIKit rule)")
    ap.add_argument("--show", type=int, default=10)
    ap.add_argument("--write-subset", help="store a fixed subset (scale 1, 2 and 3) with Chromium's heights")
    ap.add_argument("--report", help="write the agreement numbers here (JSON)")
    ap.add_argument("--text-rendering", default="auto",
                    help="the pages' text-rendering: auto (Chromium's default, what the profile models) or geometricPrecision")
    args = ap.parse_args()
    cells = [json.loads(l) for l in open(args.corpus, encoding="utf-8") if l.strip()]
    if args.limit:
        cells = cells[:args.limit]
    cases = make_cases(cells)
    RENDERING[0] = args.text_rendering
    rows = []
    subset = []
    pick = random.Random(15)
    for scale in [float(s) for s in args.scales.split(",")]:
        scale = int(scale) if scale.is_integer() else scale
        chrome = chromium(cases, scale)
        mine = plumb(args.plumb, cases, scale)
        stats, misses = compare(cases, chrome, mine, scale)
        for kind, s in stats.items():
            print("scale %s %-6s: %d cases; height within %.2f px %.2f %% (ceiled to the pixel %.2f %%);"
                  " line starts agree on %.2f %%, of those height agrees %.2f %%" % (
                      scale, kind, s["cases"], TOLERANCE, 100.0 * s["exact"] / s["cases"],
                      100.0 * s["ceiled"] / s["cases"], 100.0 * s["sameStarts"] / s["cases"],
                      100.0 * s["exactSameStarts"] / max(1, s["sameStarts"])))
            rows.append((scale, kind, s))
        total = sum(s["cases"] for s in stats.values())
        agree = sum(s["exact"] for s in stats.values())
        line = "scale %s all: %.2f %% of %d" % (scale, 100.0 * agree / total, total)
        if args.baseline_profile:
            base = plumb(args.plumb, cases, scale, args.baseline_profile)
            bstats, _ = compare(cases, chrome, base, scale)
            line += "; profile %s: %.2f %%" % (args.baseline_profile,
                                                 100.0 * sum(s["exact"] for s in bstats.values()) / total)
            rows.append((scale, "baseline", {"cases": total, "exact": sum(s["exact"] for s in bstats.values())}))
        print(line)
        for c, ch, exact, same in misses[:args.show]:
            print("   miss: %r %s %s w%s lh %s: chromium %s plumb %s (line starts %s)" % (
                c["text"][:60], c["families"][0], c["size"], c["width"], c["lineHeight"], ch, exact,
                "agree" if same else "differ"))
        if args.write_subset:
            for i in sorted(pick.sample(range(len(cases)), min(200 if scale == 1 else 100, len(cases)))):
                subset.append(dict(plumb_request(cases[i], scale), chromiumHeight=chrome[i][0],
                                   chromiumLineStarts=chrome[i][1]))
    if args.write_subset:
        with open(args.write_subset, "w", encoding="utf-8") as f:
            for r in subset:
                f.write(json.dumps(r, ensure_ascii=False) + "\n")
    if args.report:
        with open(args.report, "w", encoding="utf-8") as f:
            json.dump([{"scale": s, "kind": k, **v} for s, k, v in rows], f, indent=1)


if __name__ == "__main__":
    sys.exit(main())
