#!/usr/bin/python3
"""Probes Chromium for a line-break opportunity between every pair of printable ASCII characters.

    /usr/bin/python3 Tests/Conformance/chromium_ascii_pairs.py > Tests/Conformance/chromium_ascii_pairs.json

Each pair is a div of width 0 with `overflow-wrap: normal`, so every break opportunity starts a
new line; the pair breaks when its second character starts a line. Each pair is probed after a
few one-character contexts (none, a letter, a digit, a space, a non-ASCII letter), because Blink
looks at the character before a `-`. The output lists, per context, the pairs that break; the
`chromium` profile's rule (`TextPreparer.chromiumASCIIBreak`) is tested against it.
"""
import html
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from chromium_reference import run_page  # noqa: E402

CHARS = [chr(c) for c in range(0x21, 0x7F)]
CONTEXTS = ["", "a", "1", " ", "é"]
PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><style>
body{margin:0} .c{font-family:'DejaVu Sans';font-size:16px;line-height:40px;white-space:pre-wrap;
width:0;overflow-wrap:normal;word-break:normal}
</style></head><body>%s<pre id="out"></pre><script>
const out=[];
for (const d of document.querySelectorAll('.c')) {
  const node=d.firstChild, text=node.data, r=document.createRange(), starts=[]; let lastTop=null;
  for (let i=0;i<text.length;i++) { r.setStart(node,i); r.setEnd(node,i+1); const rects=r.getClientRects();
    if (rects.length) { const t=rects[0].top; if (lastTop===null || t>lastTop+1) { starts.push(i); lastTop=t; } } }
  out.push(starts);
}
document.getElementById('out').textContent=JSON.stringify(out);
</script></body></html>"""


def line_starts(texts):
    return run_page(PAGE % "".join('<div class="c">%s</div>' % html.escape(t) for t in texts))


def main():
    pairs = [x + y for x in CHARS for y in CHARS]
    result = {"chromium": subprocess.run(["chromium", "--version"], capture_output=True).stdout.decode().strip(),
              "contexts": {}}
    for context in CONTEXTS:
        starts = line_starts([context + p for p in pairs])
        result["contexts"][context] = "".join(
            p for p, s in zip(pairs, starts) if len(context) + 1 in s)
    json.dump(result, sys.stdout, ensure_ascii=False, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    sys.exit(main())
