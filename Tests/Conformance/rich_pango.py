#!/usr/bin/python3
"""Pango's line starts for the rich-text cases (issue 14): a reference runner, no comparison.

    /usr/bin/python3 Tests/Conformance/rich_corpus.py > /tmp/rich_cases.jsonl
    /usr/bin/python3 Tests/Conformance/rich_pango.py /tmp/rich_cases.jsonl > /tmp/rich_pango.json

Pango is set up as in `conformance.py` (unhinted, fractional positions, WRAP_WORD_CHAR, no
inserted hyphens, language "en"); the cell's cascade and size are the layout's font
description. Each run's overrides become attributes on its byte range (`pango_attr_family_new`
with the run's cascade, `pango_attr_size_new_absolute`, `pango_attr_weight_new`); each inline
box is a U+FFFC carrying `pango_attr_shape_new` with the box's logical (and ink) rect: x 0, y
−(baselineOffset + height) (Pango's y grows downwards from the baseline), the box's width and
height. Writes JSON: each case's line starts in Unicode scalars of the flattened text and its
lines' logical widths (points).
"""
import json
import sys
import time

import gi

gi.require_version("Pango", "1.0")
from gi.repository import Pango  # noqa: E402

import conformance as conf  # noqa: E402

S = Pango.SCALE


def pango_units(points):
    return int(round(points * S))


def attribute_list(runs):
    """The flattened text and its attribute list."""
    attrs = Pango.AttrList()
    attrs.insert(Pango.attr_insert_hyphens_new(False))
    text, offset = [], 0
    for run in runs:
        piece = run["text"] if "text" in run else "\ufffc"
        end = offset + len(piece.encode("utf-8"))
        made = []
        if "attachment" in run:
            box = run["attachment"]
            rect = Pango.Rectangle()
            rect.x, rect.width, rect.height = 0, pango_units(box["width"]), pango_units(box["height"])
            rect.y = -pango_units(box["baselineOffset"] + box["height"])
            made.append(Pango.attr_shape_new(rect, rect))
        else:
            if "families" in run:
                made.append(Pango.attr_family_new(", ".join(run["families"])))
            if "size" in run:
                made.append(Pango.attr_size_new_absolute(pango_units(run["size"])))
            if "weight" in run:
                made.append(Pango.attr_weight_new(Pango.Weight(run["weight"])))
        for a in made:
            a.start_index, a.end_index = offset, end
            attrs.insert(a)
        text.append(piece)
        offset = end
    return "".join(text), attrs


def lines(measurer, case):
    """Line starts (Unicode scalars) of one rich case."""
    text, attrs = attribute_list(case["runs"])
    layout = measurer.layout
    key = (tuple(case["families"]), case["size"])
    if key not in measurer.fonts:
        desc = Pango.FontDescription.from_string(", ".join(case["families"]))
        desc.set_absolute_size(case["size"] * S)
        measurer.fonts[key] = desc
    layout.set_font_description(measurer.fonts[key])
    layout.set_width(pango_units(case["width"]))
    layout.set_text(text, -1)
    layout.set_attributes(attrs)
    raw = text.encode("utf-8")
    lines = layout.get_lines_readonly()
    starts = [len(raw[: line.start_index].decode("utf-8", "replace")) for line in lines]
    return starts, [line.get_extents()[1].width / S for line in lines]


def main():
    cases = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8") if l.strip()]
    measurer = conf.PangoMeasurer()
    t0 = time.time()
    out = [lines(measurer, c) for c in cases]
    sys.stderr.write("Pango %s: %d rich cases in %.1f s\n" % (Pango.version_string(), len(cases), time.time() - t0))
    json.dump({"engine": "Pango " + Pango.version_string(), "lineStarts": [s for s, _ in out],
               "lineWidths": [w for _, w in out]}, sys.stdout)


if __name__ == "__main__":
    sys.exit(main())
