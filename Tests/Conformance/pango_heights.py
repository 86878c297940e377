#!/usr/bin/python3
"""Line heights and layout heights in Pango against the `pango` profile (issue 14, "Layout rules":
Pango's logical rects).

    /usr/bin/python3 Tests/Conformance/pango_heights.py --plumb .build/release/plumb \\
        [--limit N] [--write-subset FILE] [--report FILE] [--show N]

Cases: (a) every corpus cell in each of the three cascades, at a width and a font size picked per
case from fixed lists (some sizes fractional), with Pango's natural line heights; two thirds of
them again with a line-height setting (below); (b) the rich corpus (`rich_corpus.py`: runs of
other sizes, weights and families, inline boxes as shape attributes), natural, and a third of it
again with a setting. Pango is set up as in `conformance.py` and `rich_pango.py` (unhinted
metrics, fractional positions, WRAP_WORD_CHAR, no inserted hyphens, language "en"; sizes in whole
Pango units, `pango_units_from_double`). Each setting states one UIKit paragraph setting and its
Pango equivalent (the rule the `pango` profile follows):

    lineHeightMultiple m          pango_attr_line_height_new (m) over the whole text
    minimumLineHeight = maximum h pango_attr_line_height_new_absolute (h)
    minimumLineHeight h (alone)   pango_attr_line_height_new (1) + _absolute (h): at least h
    lineHeightEm e                pango_attr_line_height_new_absolute (e x size)
    lineSpacing s                 pango_layout_set_spacing (s)

Pango gives every line's logical rect and baseline (PangoLayoutIter) and the layout's logical
height; Plumb (`measure --lines --line-starts --exact-numbers`) its line boxes (rect, baseline)
and the end of the last one. A height agrees when it is the same number of Pango units (1/1024
pt, |difference| < 0.5 unit); the agreement within 0.01 pt is printed too. Prints the numbers for
the `pango` profile and, for comparison, `standard` (the UIKit rule).
"""
import argparse
import json
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import conformance as conf  # noqa: E402
import rich_corpus  # noqa: E402
import rich_pango  # noqa: E402
from gi.repository import Pango  # noqa: E402

S = Pango.SCALE
SIZES = [15, 13.5, 15.25, 11, 12.3, 16, 17, 18.75, 20, 24]
# One UIKit setting each (the JSON fields of a Plumb cell).
SETTINGS = [
    {"lineHeightMultiple": 1.2}, {"minimumLineHeight": 20.3, "maximumLineHeight": 20.3},
    {"minimumLineHeight": 22}, {"lineHeightEm": 1.4}, {"lineSpacing": 3.5},
    {"lineHeightMultiple": 0.8}, {"minimumLineHeight": 30, "maximumLineHeight": 30},
    {"lineHeightMultiple": 1.5, "lineSpacing": 2},
]


def units(points):
    """pango_units_from_double."""
    import math
    return int(math.floor(points * S + 0.5))


def plain_cases(cells):
    cases = []
    for i, cell in enumerate(cells):
        for c, families in enumerate(conf.CASCADES):
            k = 3 * i + c
            base = {"text": cell["text"], "families": families, "width": conf.WIDTHS[k % len(conf.WIDTHS)],
                    "size": SIZES[(7 * i + c) % len(SIZES)], "kind": "plain"}
            cases.append(base)
            if k % 3 != 2:
                cases.append(dict(base, settings=SETTINGS[(k + i // 3) % len(SETTINGS)]))
    return cases


def rich_cases(cells):
    cases = []
    for r in rich_corpus.cases(cells):
        base = {"runs": r["runs"], "families": r["families"], "width": r["width"], "size": r["size"], "kind": "rich"}
        cases.append(base)
        if r["id"] % 3 == 0:
            cases.append(dict(base, settings=SETTINGS[(r["id"] // 3) % len(SETTINGS)]))
    return cases


def setting_attributes(settings, size):
    """The Pango attributes (whole text) and layout spacing that state a case's settings."""
    attrs = []
    multiple = settings.get("lineHeightMultiple", 0)
    low, high = settings.get("minimumLineHeight", 0), settings.get("maximumLineHeight", 0)
    if settings.get("lineHeightEm", 0) > 0:
        attrs.append(Pango.attr_line_height_new_absolute(units(settings["lineHeightEm"] * size)))
    elif low > 0 and low == high:
        attrs.append(Pango.attr_line_height_new_absolute(units(low)))
    elif low > 0:
        attrs.append(Pango.attr_line_height_new_absolute(units(low)))
        if multiple == 0:
            attrs.append(Pango.attr_line_height_new(1.0))
    if multiple > 0:
        attrs.append(Pango.attr_line_height_new(multiple))
    return attrs, units(settings.get("lineSpacing", 0))


def pango_measure(measurer, case):
    """(layout height, [(line top, line height, baseline)], line starts) in Pango units."""
    layout = measurer.layout
    if "runs" in case:
        text, attrs = rich_pango.attribute_list(case["runs"])
    else:
        text, attrs = case["text"], Pango.AttrList()
        attrs.insert(Pango.attr_insert_hyphens_new(False))
    extra, spacing = setting_attributes(case.get("settings", {}), case["size"])
    for a in extra:
        attrs.insert(a)
    key = (tuple(case["families"]), case["size"])
    if key not in measurer.fonts:
        desc = Pango.FontDescription.from_string(", ".join(case["families"]))
        desc.set_absolute_size(units(case["size"]))
        measurer.fonts[key] = desc
    layout.set_font_description(measurer.fonts[key])
    layout.set_width(units(case["width"]))
    layout.set_spacing(spacing)
    layout.set_text(text, -1)
    layout.set_attributes(attrs)
    raw = text.encode("utf-8")
    lines, starts, shifted = [], [], []
    it = layout.get_iter()
    while True:
        _, logical = it.get_line_extents()
        lines.append((logical.y, logical.height, it.get_baseline()))
        line = it.get_line_readonly()
        starts.append(len(raw[: line.start_index].decode("utf-8", "replace")))
        # Pango 1.50 aligns each run's baseline with the first run's script baseline
        # (`apply_baseline_shift`): a run moved off the roman baseline (no rise in the corpus).
        # (None for a line without runs: an empty paragraph, the layout font's metrics.)
        shifted.append(None if not line.runs else any(run.y_offset != 0 for run in line.runs))
        if not it.next_line():
            break
    _, rect = layout.get_extents()
    return rect.height, lines, starts, shifted


def plumb_request(case, profile):
    r = {"families": case["families"], "size": case["size"], "width": case["width"], "compatibility": profile}
    if "runs" in case:
        r["runs"] = case["runs"]
    else:
        r["text"] = case["text"]
    r.update(case.get("settings", {}))
    return r


def plumb(binary, cases, profile):
    """(exact height, [(line top, line height, baseline)], line starts) per case, in points."""
    outputs = conf.measure_requests(binary, [plumb_request(c, profile) for c in cases], "--lines", "--line-starts", "--exact-numbers")
    results = []
    for o in outputs:
        boxes = (o or {}).get("lineBoxes") or []
        exact = boxes[-1]["rect"][1] + boxes[-1]["rect"][3] if boxes else 0.0
        results.append((exact, [(b["rect"][1], b["rect"][3], b["baseline"]) for b in boxes], o.get("lineStarts")) if o else None)
    return results


def same_units(points, pango_units):
    return abs(points * S - pango_units) < 0.5


def group_of(case):
    return case["kind"] + (" " + "+".join(sorted(case["settings"])) if "settings" in case else " natural")


def compare(cases, pango, mine):
    stats, misses = {}, []
    kinds = {}
    for c, (ph, plines, pstarts, pshifted), m in zip(cases, pango, mine):
        s = stats.setdefault(group_of(c), {"cases": 0, "height": 0, "within": 0, "sameStarts": 0,
                                           "heightSameStarts": 0, "lines": 0, "linesSameStarts": 0})
        s["cases"] += 1
        if m is None:
            continue
        exact, lines, starts = m
        ok = same_units(exact, ph)
        s["height"] += ok
        s["within"] += abs(exact - ph / S) <= 0.01
        if starts == pstarts:
            s["sameStarts"] += 1
            s["heightSameStarts"] += ok
            wrong = [i for i, ((y, h, b), (py, phh, pb)) in enumerate(zip(lines, plines))
                     if not (same_units(h, phh) and same_units(b - y, pb - py))]
            s["linesSameStarts"] += not wrong and len(lines) == len(plines)
            if wrong:
                kind = classify(c, [pshifted[i] for i in wrong])
                kinds[kind] = kinds.get(kind, 0) + 1
                if kind == os.environ.get("PANGO_HEIGHTS_KIND"):  # e.g. "other", "baseline shift"
                    i = wrong[0]
                    print("%s: %s line %d: pango %s plumb %s" % (kind, describe(c), i, [v / S for v in plines[i]], lines[i]))
        else:
            kinds["line starts differ"] = kinds.get("line starts differ", 0) + (not ok)
        if not ok:
            misses.append((c, ph / S, exact, starts == pstarts, plines, lines))
    return stats, misses, kinds


def classify(case, shifted):
    """Why a case whose line starts agree has a line box off (`shifted`: per such line,
    whether Pango moved a run off the roman baseline, None for a line without runs). The
    baseline shift is modelled, so it is the kind only when none of the known others applies."""
    runs = case.get("runs", [])
    if None in shifted and "runs" in case:
        return "empty line (rich)"
    if "settings" in case and any(r.get("attachment", {}).get("baselineOffset", 0) > 0 for r in runs):
        return "raised box with a setting"
    text = rich_corpus.flattened(runs) if runs else case["text"]
    if any(conf.is_emoji(ch) for ch in text):
        return "font next to an emoji"
    if all(shifted):
        return "baseline shift"
    return "other"


def describe(case):
    if "runs" in case:
        text = rich_corpus.flattened(case["runs"])
    else:
        text = case["text"]
    return "%r %s %s w%s %s" % (text[:50], case["families"][0], case["size"], case["width"], case.get("settings", ""))


def totals(stats):
    t = {}
    for s in stats.values():
        for k, v in s.items():
            t[k] = t.get(k, 0) + v
    return t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--plumb", default=os.path.join(conf.ROOT, ".build/release/plumb"))
    ap.add_argument("--corpus", default=os.path.join(conf.ROOT, "Benchmarks/Corpus/cells.jsonl"))
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--profiles", default="pango,standard")
    ap.add_argument("--show", type=int, default=10)
    ap.add_argument("--write-subset", help="store a fixed subset (plain and rich) with Pango's heights")
    ap.add_argument("--report", help="write the agreement numbers here (JSON)")
    args = ap.parse_args()
    cells = [json.loads(l) for l in open(args.corpus, encoding="utf-8") if l.strip()]
    if args.limit:
        cells = cells[:args.limit]
    cases = plain_cases(cells) + rich_cases(cells)
    measurer = conf.PangoMeasurer()
    t0 = time.time()
    pango = [pango_measure(measurer, c) for c in cases]
    print("Pango %s: %d cases in %.1f s; %d lines, %d with a run off the roman baseline" % (
        Pango.version_string(), len(cases), time.time() - t0, sum(len(p[1]) for p in pango),
        sum(sum(1 for x in p[3] if x) for p in pango)))
    report = {}
    for profile in args.profiles.split(","):
        mine = plumb(args.plumb, cases, profile)
        stats, misses, kinds = compare(cases, pango, mine)
        report[profile] = {"groups": stats, "disagreements": kinds}
        print("profile %s:" % profile)
        for group in sorted(stats):
            s = stats[group]
            print("  %-46s %6d cases: height %6.2f %% (within 0.01 pt %6.2f %%); line starts agree %6.2f %%,"
                  " of those height %6.2f %%, every line box %6.2f %%" % (
                      group, s["cases"], 100.0 * s["height"] / s["cases"], 100.0 * s["within"] / s["cases"],
                      100.0 * s["sameStarts"] / s["cases"], 100.0 * s["heightSameStarts"] / max(1, s["sameStarts"]),
                      100.0 * s["linesSameStarts"] / max(1, s["sameStarts"])))
        t = totals(stats)
        print("  %-46s %6d cases: height %6.2f %% (within 0.01 pt %6.2f %%); of the cases whose line starts"
              " agree (%.2f %%): height %6.2f %%, every line box %6.2f %%" % (
                  "all", t["cases"], 100.0 * t["height"] / t["cases"], 100.0 * t["within"] / t["cases"],
                  100.0 * t["sameStarts"] / t["cases"], 100.0 * t["heightSameStarts"] / max(1, t["sameStarts"]),
                  100.0 * t["linesSameStarts"] / max(1, t["sameStarts"])))
        print("  disagreements (cases with a line box off): %s" % kinds)
        for c, ph, exact, same, plines, lines in misses[:args.show]:
            print("    miss: %s: pango %s plumb %s (line starts %s)\n      pango %s\n      plumb %s" % (
                describe(c), ph, exact, "agree" if same else "differ",
                [(y / S, h / S, b / S) for y, h, b in plines][:4], lines[:4]))
    if args.write_subset:
        pick = random.Random(14)
        chosen = sorted(pick.sample(range(len(cases)), min(400, len(cases))))
        with open(args.write_subset, "w", encoding="utf-8") as f:
            for i in chosen:
                r = plumb_request(cases[i], "pango")
                r.update(pangoHeight=pango[i][0], pangoLineHeights=[h for _, h, _ in pango[i][1]],
                         pangoBaselines=[b for _, _, b in pango[i][1]], pangoLineStarts=pango[i][2])
                f.write(json.dumps(r, ensure_ascii=False) + "\n")
    if args.report:
        with open(args.report, "w", encoding="utf-8") as f:
            json.dump(report, f, indent=1)


if __name__ == "__main__":
    sys.exit(main())
