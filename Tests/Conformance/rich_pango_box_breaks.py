#!/usr/bin/python3
"""Pango 1.50's line-break opportunities next to an inline box (issue 14), as a fixture.

    /usr/bin/python3 Tests/Conformance/rich_pango_box_breaks.py > Tests/Conformance/rich_pango_box_breaks.json

For every pair of neighbours (P, N) from a set of characters of different line-break classes,
the text P + U+FFFC (with `pango_attr_shape_new`, a 10 pt box) + N is laid out with
`WRAP_WORD` at width 0, so each line is one unbreakable unit: a line starting at the box means a
break before it, one starting after it a break after it. `RichConformanceTests` checks the
`pango` profile's break opportunities against every pair.
"""
import json
import sys

import gi

gi.require_version("Pango", "1.0")
from gi.repository import Pango  # noqa: E402

import conformance as conf  # noqa: E402
import rich_pango  # noqa: E402

NEIGHBOURS = ["a", "1", "中", "あ", " ", "\u00a0", "(", ")", ",", ".", "-", "%", "$", "\"", "'", "“", "”",
              "!", "?", "/", "🐊", "\ufffc", "\u200b", "\u2014"]


def breaks(measurer, p, n):
    runs = []
    for ch in p + "\ufffc" + n:
        runs.append({"attachment": {"width": 10, "height": 10, "baselineOffset": 0}} if ch == "\ufffc" else {"text": ch})
    text, attrs = rich_pango.attribute_list(runs)
    layout = measurer.layout
    layout.set_text(text, -1)
    layout.set_attributes(attrs)
    layout.set_width(0)
    raw = text.encode("utf-8")
    starts = {len(raw[: line.start_index].decode("utf-8")) for line in layout.get_lines_readonly()}
    return [1 in starts, 2 in starts]  # before the box, after the box


def main():
    measurer = conf.PangoMeasurer()
    measurer.layout.set_wrap(Pango.WrapMode.WORD)
    pairs = {p + "\ufffc" + n: breaks(measurer, p, n) for p in NEIGHBOURS for n in NEIGHBOURS}
    body = ",\n".join("%s: %s" % (json.dumps(k, ensure_ascii=False), json.dumps(v)) for k, v in pairs.items())
    sys.stdout.write('{"engine": %s, "pairs": {\n%s\n}}\n' % (json.dumps("Pango " + Pango.version_string()), body))


if __name__ == "__main__":
    sys.exit(main())
