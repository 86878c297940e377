#!/usr/bin/python3
"""Application fonts in Pango (through fontconfig) against the `pango` profile (issue 28, item 6).

    /usr/bin/python3 Tests/Conformance/app_fonts_pango.py --plumb .build/release/plumb \\
        [--limit N] [--write-subset FILE] [--report FILE]

Pango finds application fonts the way an app using it does: a fontconfig configuration that
includes the system's and adds a folder with the files (`FONTCONFIG_FILE`, set before Pango
loads). The cases are `app_fonts_chromium.py`'s, with two differences that are Pango's, not
the harness's:

- Pango 1.50 cannot use a WOFF or WOFF2 file: fontconfig indexes it (through FreeType), but
  Pango reads the file into a HarfBuzz face, which takes only sfnt data, and lays the text out
  in the roman face with a synthetic oblique instead. The italic is therefore registered as the
  TTF the WOFF2 is made from, with Pango and with Plumb.
- DejaVu Serif is not registered: the system's fontconfig already has its regular and bold
  faces, and fontconfig merges a family's faces from every folder, where a Plumb registration
  replaces the family. The cases ask for its bold (the system's real face) and its italic
  (which the system lacks: a synthetic oblique, advances unchanged).

Pango is set up as in `pango_heights.py` (unhinted, fractional positions, WRAP_WORD_CHAR, no
inserted hyphens, language "en", sizes in whole Pango units). Weights go through the font
description (`weight=450`: fontconfig sets `wght` on the variable face), features through
`pango_attr_font_features_new` (CSS syntax; `font-variant-numeric` keywords become the features
CSS maps them to). A height agrees when it is the same number of Pango units (|difference| <
0.5 unit); line starts in Unicode scalars.
"""
import argparse
import json
import os
import random
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import app_fonts  # noqa: E402
import app_fonts_chromium  # noqa: E402

FONT_CONFIG = """<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig><include ignore_missing="no">/etc/fonts/fonts.conf</include><dir>%s</dir><cachedir>%s</cachedir></fontconfig>
"""
NUMERIC = {"tabular-nums": '"tnum"', "slashed-zero": '"zero"', "lining-nums": '"lnum"', "oldstyle-nums": '"onum"',
           "proportional-nums": '"pnum"'}


def pango_files(work):
    """Inter's roman and italic as TTFs, copied into `work`/fonts, and a configuration adding them."""
    folder = os.path.join(work, "fonts")
    os.makedirs(folder)
    paths = []
    for name in ("Inter-roman.var.ttf", "Inter-italic.var.ttf"):
        paths.append(os.path.join(folder, name))
        shutil.copyfile(os.path.join(app_fonts.INTER_DIR, name), paths[-1])
    config = os.path.join(work, "fonts.conf")
    with open(config, "w", encoding="utf-8") as f:
        f.write(FONT_CONFIG % (folder, os.path.join(work, "cache")))
    return paths, config


def features(case):
    """The case's features in CSS font-feature-settings syntax, or None."""
    parts = [NUMERIC[k] for k in case.get("fontVariantNumeric", "").split()]
    if "fontFeatures" in case:
        parts.append(case["fontFeatures"])
    return ", ".join(parts) or None


def pango_measure(measurer, case):
    """(layout height in Pango units, line starts) of one case."""
    from gi.repository import Pango
    import pango_heights
    layout = measurer.layout
    attrs = Pango.AttrList()
    attrs.insert(Pango.attr_insert_hyphens_new(False))
    if features(case):
        attrs.insert(Pango.attr_font_features_new(features(case)))
    desc = Pango.FontDescription.from_string("%s weight=%d" % (",".join(case["families"]), case.get("weight", 400)))
    desc.set_absolute_size(pango_heights.units(case["size"]))
    if case.get("italic"):
        desc.set_style(Pango.Style.ITALIC)
    layout.set_font_description(desc)
    layout.set_width(pango_heights.units(case["width"]))
    layout.set_text(case["text"], -1)
    layout.set_attributes(attrs)
    raw = case["text"].encode("utf-8")
    starts = [len(raw[: line.start_index].decode("utf-8", "replace")) for line in layout.get_lines_readonly()]
    return layout.get_extents()[1].height, starts


def plumb(binary, cases, paths):
    """(exact height, line starts) of every case under the `pango` profile."""
    import conformance as conf
    flags = [a for p in paths for a in ("--font-file", p)]
    requests = [dict(app_fonts_chromium.plumb_request(c, 1), compatibility="pango") for c in cases]
    for r in requests:
        del r["scale"]
    results = []
    for o in conf.measure_requests(binary, requests, "--lines", "--line-starts", "--exact-numbers", *flags):
        boxes = (o or {}).get("lineBoxes") or []
        exact = boxes[-1]["rect"][1] + boxes[-1]["rect"][3] if boxes else 0.0
        results.append((exact, o.get("lineStarts")) if o else None)
    return results


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--plumb", default=os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))), ".build/release/plumb"))
    ap.add_argument("--corpus", default=None)
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--show", type=int, default=10)
    ap.add_argument("--write-subset", help="store a fixed subset with Pango's heights and line starts")
    ap.add_argument("--report", help="write the agreement numbers here (JSON)")
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix="plumb-app-fonts-pango-")
    try:
        paths, config = pango_files(work)
        os.environ["FONTCONFIG_FILE"] = config  # before Pango loads fontconfig
        import conformance as conf
        from gi.repository import Pango
        corpus = args.corpus or os.path.join(conf.ROOT, "Benchmarks/Corpus/cells.jsonl")
        cells = [json.loads(l) for l in open(corpus, encoding="utf-8") if l.strip()]
        if args.limit:
            cells = cells[:args.limit]
        cases = app_fonts_chromium.make_cases(cells)
        measurer = conf.PangoMeasurer()
        theirs = [pango_measure(measurer, c) for c in cases]
        mine = plumb(args.plumb, cases, paths)
    finally:
        shutil.rmtree(work)
    stats, misses = {}, []
    for c, (height, starts), m in zip(cases, theirs, mine):
        s = stats.setdefault(c["variant"], {"cases": 0, "starts": 0, "heights": 0})
        s["cases"] += 1
        same_starts = m is not None and m[1] == starts
        same_height = m is not None and abs(m[0] * Pango.SCALE - height) < 0.5
        s["starts"] += same_starts
        s["heights"] += same_height
        if not (same_starts and same_height):
            misses.append((c, height / Pango.SCALE, m))
    total = {k: sum(s[k] for s in stats.values()) for k in ("cases", "starts", "heights")}
    for variant, s in sorted(stats.items()):
        print("%-16s %5d cases: line starts %.2f %%, heights %.2f %%" % (
            variant, s["cases"], 100.0 * s["starts"] / s["cases"], 100.0 * s["heights"] / s["cases"]))
    print("all: %d cases: line starts %.2f %%, heights %.2f %%" % (
        total["cases"], 100.0 * total["starts"] / total["cases"], 100.0 * total["heights"] / total["cases"]))
    for c, height, m in misses[:args.show]:
        print("   miss: %r %s w%s %s: pango %s %s, plumb %s" % (
            c["text"][:50], c["variant"], c["width"], c.get("weight"), height,
            theirs[cases.index(c)][1], m))
    if args.write_subset:
        pick = random.Random(28)
        with open(args.write_subset, "w", encoding="utf-8") as f:
            for i in sorted(pick.sample(range(len(cases)), min(300, len(cases)))):
                row = dict(app_fonts_chromium.plumb_request(cases[i], 1), compatibility="pango", variant=cases[i]["variant"],
                           pangoHeight=theirs[i][0] / Pango.SCALE, pangoLineStarts=theirs[i][1])
                del row["scale"]
                f.write(json.dumps(row, ensure_ascii=False) + "\n")
    if args.report:
        with open(args.report, "w", encoding="utf-8") as f:
            json.dump({"variants": stats, "all": total}, f, indent=1)


if __name__ == "__main__":
    main()
