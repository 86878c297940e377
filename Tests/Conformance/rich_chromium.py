#!/usr/bin/python3
"""Chromium's line starts for the rich-text cases (issue 14): a reference runner, no comparison.

    /usr/bin/python3 Tests/Conformance/rich_corpus.py > /tmp/rich_cases.jsonl
    /usr/bin/python3 Tests/Conformance/rich_chromium.py /tmp/rich_cases.jsonl > /tmp/rich_chromium.json

Each case is a div set up as in `chromium_reference.py` (the cell's cascade and size, `white-space:
pre-wrap; overflow-wrap: break-word; word-break: normal; text-spacing-trim: space-all`) whose
children are one `<span style>` per text run (`font-family`, `font-size`, `font-weight` for the
run's overrides) and one `display: inline-block` span per inline box, `width` × `height` px with
`vertical-align: <baselineOffset>px` (an empty inline-block's baseline is its bottom edge, so
its bottom sits baselineOffset above the baseline). Line starts come from the client rects of
every scalar (`Range.getClientRects()`) and every box (`getBoundingClientRect()`), a box being
one scalar: with `line-height: 60px` lines are at least 60 px apart while the tops of the
items on one line differ by less than 25 px, so a top 30 px below the current line's first top
starts a line. Writes one JSON list: each case's line starts in Unicode scalars.
"""
import html
import json
import subprocess
import sys
import time

import chromium_reference as ref

PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><style>
body{margin:0} .c{font-size:%(size)spx;line-height:60px;white-space:pre-wrap;overflow-wrap:break-word;
word-break:normal;text-spacing-trim:space-all;font-kerning:normal;text-rendering:geometricPrecision}
.b{display:inline-block}
</style></head><body>%(divs)s<pre id="out"></pre><script>
const out=[];
for (const d of document.querySelectorAll('.c')) {
  const starts=[]; let lineTop=null; let scalar=0; const r=document.createRange();
  const see=(t)=>{ if (lineTop===null || t>lineTop+30) { starts.push(scalar); lineTop=t; } };
  for (const el of d.children) {
    if (el.classList.contains('b')) { see(el.getBoundingClientRect().top); scalar++; continue; }
    const node=el.firstChild; const text=node.data;
    for (let i=0;i<text.length;) { const cp=text.codePointAt(i); const len=cp>0xffff?2:1;
      r.setStart(node,i); r.setEnd(node,i+len); const rects=r.getClientRects();
      if (rects.length) see(rects[0].top);
      i+=len; scalar++; }
  }
  out.push(starts);
}
document.getElementById('out').textContent=JSON.stringify(out);
</script></body></html>"""


def families_css(families):
    return ",".join("'%s'" % f for f in families)


def run_html(run):
    if "attachment" in run:
        b = run["attachment"]
        return '<span class="b" style="width:%spx;height:%spx;vertical-align:%spx"></span>' % (
            b["width"], b["height"], b["baselineOffset"])
    style = []
    if "families" in run:
        style.append("font-family:" + families_css(run["families"]))
    if "size" in run:
        style.append("font-size:%spx" % run["size"])
    if "weight" in run:
        style.append("font-weight:%d" % run["weight"])
    return '<span style="%s">%s</span>' % (";".join(style), html.escape(run["text"]))


def chromium_lines(cases, chunk=2000):
    """Line starts (Unicode-scalar offsets) of every rich case, in headless Chromium."""
    results = []
    for start in range(0, len(cases), chunk):
        divs = "".join('<div class="c" style="width:%spx;font-family:%s;font-size:%spx">%s</div>' % (
            c["width"], families_css(c["families"]), c["size"], "".join(run_html(r) for r in c["runs"]))
            for c in cases[start:start + chunk])
        results.extend(ref.run_page(PAGE % {"size": 15, "divs": divs}))
    return results


def main():
    cases = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8") if l.strip()]
    t0 = time.time()
    out = chromium_lines(cases)
    version = subprocess.run(["chromium", "--version"], capture_output=True).stdout.decode().strip()
    sys.stderr.write("%s: %d rich cases in %.1f s\n" % (version, len(cases), time.time() - t0))
    json.dump({"engine": version, "lineStarts": out}, sys.stdout)


if __name__ == "__main__":
    sys.exit(main())
