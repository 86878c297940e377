#!/usr/bin/python3
"""How Chromium styles fallback fonts (issue 15.3): bold and italic text in scripts the
cascade lacks, in headless Chromium against Plumb's `chromium` profile.

    /usr/bin/python3 Tests/Conformance/chromium_fallback_style.py --plumb .build/release/plumb

1. Widths of spans in 'Noto Sans' 15 px, regular / bold / italic / bold italic, for scripts
   Noto Sans lacks (Blink falls back to the regular face and synthesises bold and oblique,
   which keeps the regular advances) and for scripts it has (the cascade's own faces).
2. Line starts of the benchmark corpus cells that `Tests/Golden/answer_hashes.py` measures in
   bold italic, against Plumb's answers for the same cells.
"""
import argparse
import html
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chromium_reference as cr  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TEXTS = ["ภาษาไทย", "العربية لغة", "עברית שפה", "हिन्दी भाषा", "Ελληνικά", "Русский язык", "한국어 문장", "中文字かなカナ"]
STYLES = [(400, False), (700, False), (400, True), (700, True)]
SPAN_PAGE = """<!doctype html><html><head><meta charset="utf-8"><style>body{margin:0}
span{font-size:15px;white-space:pre;font-kerning:normal;text-rendering:geometricPrecision;text-spacing-trim:space-all}
</style></head><body>%s<pre id="out"></pre><script>
document.getElementById('out').textContent=JSON.stringify([...document.querySelectorAll('span')].map(s=>s.getBoundingClientRect().width));
</script></body></html>"""


def plumb(binary, cells):
    out = subprocess.run([binary, "measure", "--line-starts"], input="".join(json.dumps(c) + "\n" for c in cells).encode(),
                         capture_output=True, check=True).stdout.decode().splitlines()
    return [json.loads(line) for line in out]


def span_widths(binary):
    cases = [(t, w, i) for t in TEXTS for w, i in STYLES]
    spans = "".join('<div><span style="font-family:\'Noto Sans\';font-weight:%d;font-style:%s">%s</span></div>'
                    % (w, "italic" if i else "normal", html.escape(t)) for t, w, i in cases)
    chromium = cr.run_page(SPAN_PAGE % spans)
    mine = plumb(binary, [{"text": t, "families": ["Noto Sans"], "weight": w, "italic": i, "size": 15, "width": 10000,
                           "scale": 64, "compatibility": "chromium"} for t, w, i in cases])
    same = 0
    for (t, w, i), c, m in zip(cases, chromium, mine):
        ok = abs(c - m["width"]) < 1 / 64 + 1e-9
        same += ok
        print("%-14s %d %-6s chromium %9.4f plumb %9.4f%s" % (t, w, "italic" if i else "", c, m["width"], "" if ok else "  DIFF"))
    print("span widths equal (within 1/64 px): %d of %d" % (same, len(cases)))


def corpus_bold_italic(binary):
    # The cells answer_hashes.py measures with {"weight": 700, "italic": true, "scale": 3}.
    sys.path.insert(0, os.path.join(ROOT, "Tests", "Golden"))
    import answer_hashes as golden
    cells = [c for c in golden.corpus_cells() if isinstance(c["id"], int) and c.get("weight") == 700]
    for c in cells:
        c["compatibility"] = "chromium"
    page = cr.PAGE.replace(".c{", ".c{font-weight:700;font-style:italic;")
    divs = "".join('<div class="c" style="width:%spx;font-family:%s">%s</div>' % (
        c["width"], ",".join("'%s'" % f for f in c["families"]), html.escape(c["text"])) for c in cells)
    chromium = cr.run_page(page % {"size": cr.conf.SIZE, "divs": divs})
    mine = plumb(binary, cells)
    agree = sum(1 for c, m in zip(chromium, mine) if c == m.get("lineStarts"))
    print("bold italic corpus cells: line starts agree with Chromium in %d of %d" % (agree, len(cells)))


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--plumb", default=os.path.join(ROOT, ".build/release/plumb"))
    a = p.parse_args()
    span_widths(a.plumb)
    corpus_bold_italic(a.plumb)
