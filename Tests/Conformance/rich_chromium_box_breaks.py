#!/usr/bin/python3
"""Chromium's line-break opportunities next to an inline box (issue 14), as a fixture.

    /usr/bin/python3 Tests/Conformance/rich_chromium_box_breaks.py > Tests/Conformance/rich_chromium_box_breaks.json

The same 24 × 24 neighbour pairs as `rich_pango_box_breaks.py`: P, an empty 10 px
`display: inline-block` span, N, in a div of width 0 with `white-space: pre-wrap` and
`overflow-wrap: normal` (so each line is one unbreakable unit; spaces hang), line starts read
as in `rich_chromium.py`. `RichConformanceTests` checks the `chromium` profile against every pair.
"""
import json
import subprocess
import sys

import chromium_reference as ref
import rich_chromium
import rich_pango_box_breaks as pango_pairs

PAGE = rich_chromium.PAGE.replace("overflow-wrap:break-word", "overflow-wrap:normal")


def main():
    keys = [p + "\ufffc" + n for p in pango_pairs.NEIGHBOURS for n in pango_pairs.NEIGHBOURS]
    cases = []
    for key in keys:
        runs = [{"attachment": {"width": 10, "height": 10, "baselineOffset": 0}} if ch == "\ufffc" else {"text": ch}
                for ch in key]
        cases.append({"families": ["Noto Sans", "Noto Sans CJK SC"], "size": 15, "width": 0, "runs": runs})
    divs = "".join('<div class="c" style="width:0px;font-family:%s;font-size:15px">%s</div>' % (
        rich_chromium.families_css(c["families"]), "".join(rich_chromium.run_html(r) for r in c["runs"]))
        for c in cases)
    starts = ref.run_page(PAGE % {"size": 15, "divs": divs})
    version = subprocess.run(["chromium", "--version"], capture_output=True).stdout.decode().strip()
    body = ",\n".join("%s: %s" % (json.dumps(k, ensure_ascii=False), json.dumps([1 in s, 2 in s]))
                      for k, s in zip(keys, starts))
    sys.stdout.write('{"engine": %s, "pairs": {\n%s\n}}\n' % (json.dumps(version), body))


if __name__ == "__main__":
    sys.exit(main())
