#!/usr/bin/python3
"""Checks `plumb render` output in a real browser: headless Chromium screenshots, pixel checks.

    /usr/bin/python3 Tests/Browser/browser_check.py --plumb .build/debug/plumb --out DIR

Every check renders SVGs with the plumb binary, asks `plumb measure --lines` for the same
layout's geometry, screenshots the SVG in Chromium (local file, no network) at 2x and inspects
the pixels. Screenshots stay in DIR as artifacts of the run. Exit status 1 if a check fails.
"""
import argparse
import json
import os
import re
import subprocess
import sys

from PIL import Image

SCALE = 2
PAD = 8  # SVGRenderer's default padding


class Check:
    def __init__(self, plumb, out):
        self.plumb, self.out, self.failures = plumb, out, []

    def render(self, name, text, args):
        path = os.path.join(self.out, name + ".svg")
        subprocess.run([self.plumb, "render", text, *args, "-o", path], check=True)
        svg = open(path, encoding="utf-8").read()
        w, h = (float(v) for v in re.search(r'width="([\d.]+)" height="([\d.]+)"', svg).groups())
        png = os.path.join(self.out, name + ".png")
        subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                        "--force-device-scale-factor=%d" % SCALE, "--window-size=%d,%d" % (round(w), round(h)),
                        "--screenshot=" + png, "file://" + os.path.abspath(path)],
                       check=True, capture_output=True, timeout=120)
        return Image.open(png).convert("RGB"), svg

    def screenshot_html(self, name, body, width, height):
        """A page of `body` screenshotted in Chromium at the checks' scale."""
        path = os.path.join(self.out, name + ".html")
        with open(path, "w", encoding="utf-8") as f:
            f.write("<!doctype html><html><head><meta charset=\"utf-8\"></head><body>%s</body></html>" % body)
        png = os.path.join(self.out, name + ".png")
        subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                        "--allow-file-access-from-files", "--virtual-time-budget=3000",
                        "--force-device-scale-factor=%d" % SCALE, "--window-size=%d,%d" % (width, height),
                        "--screenshot=" + png, "file://" + os.path.abspath(path)],
                       check=True, capture_output=True, timeout=120)
        return Image.open(png).convert("RGB")

    def geometry(self, text, args):
        style = [a for a in args]
        out = subprocess.run([self.plumb, "measure", "--lines", *style], input=json.dumps({"text": text}).encode(),
                             capture_output=True, check=True).stdout
        return json.loads(out)["lineBoxes"]

    def expect(self, condition, message):
        print(("ok   " if condition else "FAIL ") + message)
        if not condition:
            self.failures.append(message)


def ink_stats(img):
    """Dark pixels and the ink's slant: how far (pixels) the mean x of the top half's ink lies
    right of the bottom half's, per pixel of height between their mean ys."""
    points = [(x, y) for y in range(img.height) for x in range(img.width) if darkness(img.getpixel((x, y))) >= 100]
    if not points:
        return {"pixels": 0, "slant": 0.0}
    top, bottom = min(y for _, y in points), max(y for _, y in points)
    mid = (top + bottom) / 2
    upper = [p for p in points if p[1] < mid]
    lower = [p for p in points if p[1] >= mid]
    mean = lambda ps, i: sum(p[i] for p in ps) / len(ps)
    slant = (mean(upper, 0) - mean(lower, 0)) / max(1e-9, mean(lower, 1) - mean(upper, 1))
    return {"pixels": len(points), "slant": slant}


def px(v):
    return int(round((v + PAD) * SCALE))


def darkness(rgb):
    return 255 - (rgb[0] * 299 + rgb[1] * 587 + rgb[2] * 114) // 1000


def ink_outside(img, lines, x_range):
    """Dark pixels that lie in no line's box: its rect's height (1 pt of slack) by
    `x_range(box)` (points)."""
    outside = 0
    for y in range(img.height):
        for x in range(img.width):
            if darkness(img.getpixel((x, y))) < 100:
                continue
            ly, lx = y / SCALE - PAD, x / SCALE - PAD
            if not any(b["rect"][1] - 1 <= ly <= b["rect"][1] + b["rect"][3] + 1
                       and x_range(b)[0] <= lx <= x_range(b)[1] for b in lines):
                outside += 1
    return outside


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--plumb", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    c = Check(a.plumb, a.out)

    # 1. The ink of every line stays inside its line rect (within 1 pt of slack).
    text = "Quick brown fox jumps over the lazy dog; 中文排版 and Ágy."
    style = ["--size", "17", "--width", "220", "--line-spacing", "10"]
    img, _ = c.render("ink", text, style)
    lines = c.geometry(text, style)
    outside = ink_outside(img, lines, lambda b: (-1, 221))
    c.expect(outside == 0, "ink of every line inside its line rect (%d dark pixels outside)" % outside)

    # 2. Last-line fade: alpha falls along the gradient; the lines above are untouched.
    text = "The end of only the last line fades out, wherever it ends, with any line spacing."
    style = ["--size", "17", "--width", "220", "--line-spacing", "8", "--min-line-height", "26"]
    plain, _ = c.render("fade-off", text, style)
    faded, _ = c.render("fade-on", text, style + ["--fade-last-line", "60"])
    lines = c.geometry(text, style)
    last = lines[-1]
    top = px(last["rect"][1])
    diff_above = max(max(abs(p - q) for p, q in zip(plain.getpixel((x, y)), faded.getpixel((x, y))))
                     for y in range(0, top - 1) for x in range(plain.width))
    c.expect(diff_above <= 2, "lines above the last are untouched by the fade (max difference %d)" % diff_above)
    used = last["usedWidth"]
    x0 = used - 60
    ratios = []
    for q in range(4):
        xs = range(px(x0 + q * 15), px(x0 + (q + 1) * 15))
        ys = range(top, px(last["rect"][1] + last["rect"][3]))
        ink_plain = sum(darkness(plain.getpixel((x, y))) for x in xs for y in ys)
        ink_faded = sum(darkness(faded.getpixel((x, y))) for x in xs for y in ys)
        ratios.append(ink_faded / ink_plain if ink_plain else 1.0)
    c.expect(all(r1 >= r2 - 0.02 for r1, r2 in zip(ratios, ratios[1:])) and ratios[0] > 0.6 and ratios[-1] < 0.35,
             "fade falls along the gradient over the last 60 pt (%s)" % ", ".join("%.2f" % r for r in ratios))
    before = max(max(abs(p - q) for p, q in zip(plain.getpixel((x, y)), faded.getpixel((x, y))))
                 for y in range(top, px(last["rect"][1] + last["rect"][3])) for x in range(px(0), px(x0) - 2))
    c.expect(before <= 2, "the last line is untouched before the fade (max difference %d)" % before)

    # 3. Private reading: the revealed line is visible, the others are covered.
    text = "Every line is covered except the one under the finger, found by Plumb's hit test."
    style = ["--size", "15", "--width", "200", "--line-spacing", "8"]
    img, _ = c.render("covers", text, style + ["--cover-lines", "--reveal-line", "1"])
    lines = c.geometry(text, style)
    for i, b in enumerate(lines):
        x, y, w, h = b["rect"]
        xs, ys = range(px(x) + 1, px(x + w) - 1), range(px(y) + 1, px(y + h) - 1)
        if i == 1:
            ink = sum(1 for xx in xs for yy in ys if darkness(img.getpixel((xx, yy))) > 150)
            c.expect(ink > 50, "revealed line %d shows its text (%d dark pixels)" % (i, ink))
        else:
            total = len(xs) * len(ys)
            covered = sum(1 for xx in xs for yy in ys if all(abs(p - q) <= 3 for p, q in zip(img.getpixel((xx, yy)), (199, 199, 204))))
            c.expect(covered >= 0.98 * total, "line %d covered (%d of %d pixels)" % (i, covered, total))

    # 4. Gradient text: emoji pixels keep their colors, text glyphs are tinted.
    text = "Gradient 😀 text"
    style = ["--size", "24", "--width", "260"]
    plain, svg = c.render("gradient-off", text, style)
    grad, _ = c.render("gradient-on", text, style + ["--gradient", "#ff2d55,#5856d6"])
    m = re.search(r'<image class="emoji" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"', svg)
    ex, ey, ew, eh = (float(v) for v in m.groups())
    box = [(x, y) for x in range(px(ex) + 2, px(ex + ew) - 2) for y in range(px(ey) + 2, px(ey + eh) - 2)]
    same = max(max(abs(p - q) for p, q in zip(plain.getpixel(xy), grad.getpixel(xy))) for xy in box)
    colorful = sum(1 for xy in box if max(plain.getpixel(xy)) - min(plain.getpixel(xy)) > 80)
    c.expect(same <= 2 and colorful > 20, "emoji keep their colors under the gradient (max difference %d, %d colorful pixels)" % (same, colorful))
    text_box = [(x, y) for x in range(px(0), px(ex) - 4) for y in range(px(ey), px(ey + eh))]
    tinted = sum(1 for xy in text_box if grad.getpixel(xy)[0] - grad.getpixel(xy)[1] > 60)
    c.expect(tinted > 50, "text glyphs take the gradient (%d tinted pixels)" % tinted)

    # 4b. The gradient runs once across the text box: a line's left end is red, its right end
    #     blue, its middle in between (not each glyph red at its left stem and blue in its
    #     body, as when the gradient was read in every glyph's font units).
    text = "MMMMMMMMMMMMMMMM"
    style = ["--size", "40", "--width", "800"]
    img, _ = c.render("gradient-ends", text, style + ["--gradient", "#ff0000,#0000ff,0"])
    x, y, w, h = c.geometry(text, style)[0]["rect"]

    def mean_ink(x0, x1):
        ink = [img.getpixel((xx, yy)) for xx in range(px(x0), px(x1)) for yy in range(px(y), px(y + h))
               if min(img.getpixel((xx, yy))) < 128]
        return [sum(p[k] for p in ink) / max(len(ink), 1) for k in range(3)], len(ink)

    for name, (x0, x1), ok in [("left end", (x, x + 0.1 * w), lambda r, b: r - b > 150),
                               ("middle", (x + 0.45 * w, x + 0.55 * w), lambda r, b: abs(r - b) < 60),
                               ("right end", (x + 0.9 * w, x + w), lambda r, b: b - r > 150)]:
        (r, g, b), n = mean_ink(x0, x1)
        c.expect(n > 100 and ok(r, b), "gradient %s of the line: mean ink rgb(%d, %d, %d) over %d pixels" % (name, r, g, b, n))

    # 5. Right to left: the lines of a Hebrew paragraph end at the box's right edge (natural
    #    alignment), each line's ink stays inside its own rect, and the last line fades
    #    towards its left end, where it ends.
    text = "שלום עולם, זה טקסט 123 בעברית (עם סוגריים) and English words at the end"
    style = ["--families", "Noto Sans,Noto Sans Hebrew", "--size", "17", "--width", "220", "--line-spacing", "8"]
    plain, _ = c.render("rtl", text, style)
    faded, _ = c.render("rtl-fade", text, style + ["--fade-last-line", "40"])
    lines = c.geometry(text, style)
    c.expect(len(lines) >= 3 and all(b.get("rtl") for b in lines)
             and all(abs(b["rect"][0] + b["rect"][2] - 220) < 0.01 for b in lines),
             "right-to-left lines end at the box's right edge (%s)" % [round(b["rect"][0], 2) for b in lines])
    outside = ink_outside(plain, lines, lambda b: (b["rect"][0] - 1, b["rect"][0] + b["rect"][2] + 1))
    c.expect(outside == 0, "right-to-left ink inside each line's own rect (%d dark pixels outside)" % outside)
    last = lines[-1]
    x0, top, bottom = last["rect"][0], px(last["rect"][1]), px(last["rect"][1] + last["rect"][3])
    ratios = []
    for q in range(4):
        xs = range(px(x0 + q * 10), px(x0 + (q + 1) * 10))
        ink_plain = sum(darkness(plain.getpixel((x, y))) for x in xs for y in range(top, bottom))
        ink_faded = sum(darkness(faded.getpixel((x, y))) for x in xs for y in range(top, bottom))
        ratios.append(ink_faded / ink_plain if ink_plain else 1.0)
    c.expect(all(r1 <= r2 + 0.02 for r1, r2 in zip(ratios, ratios[1:])) and ratios[0] < 0.35 and ratios[-1] > 0.6,
             "right-to-left fade rises from the line's left end over 40 pt (%s)" % ", ".join("%.2f" % r for r in ratios))
    rest = max(max(abs(p - q) for p, q in zip(plain.getpixel((x, y)), faded.getpixel((x, y))))
               for y in range(top, bottom) for x in range(px(x0 + 40) + 2, px(220)))
    c.expect(rest <= 2, "the rest of the last line is untouched (max difference %d)" % rest)

    # 6. Rich text ("runs" cells): the ink of every line stays in its line rect with runs of
    #    several sizes, an inline box is drawn as its placeholder exactly at its rect, a
    #    coloured run is drawn in its colour, and the truncation token inside its rect.
    def rich(name, cell):
        path = os.path.join(c.out, name + ".jsonl")
        with open(path, "w", encoding="utf-8") as f:
            f.write(json.dumps(cell, ensure_ascii=False) + "\n")
        img, svg = c.render(name, path, [])
        out = subprocess.run([c.plumb, "measure", "--lines"], input=(json.dumps(cell) + "\n").encode(),
                             capture_output=True, check=True).stdout
        return img, json.loads(out)

    def blue(p):
        return p[2] - p[0] > 120

    cell = {"width": 230, "size": 15, "runs": [
        {"text": "Alice ", "weight": 700}, {"text": "replied "},
        {"attachment": {"width": 18, "height": 18, "baselineOffset": -3, "id": "avatar"}},
        {"text": " 同意 😀 and then a ", "size": 17}, {"text": "BIG", "size": 30, "weight": 800},
        {"text": " word, x"}, {"text": "2", "size": 9, "baselineOffset": 5}, {"text": " in red", "color": "#ff0000"}]}
    img, geo = rich("rich", cell)
    lines, box = geo["lineBoxes"], geo["boxes"][0]
    outside = ink_outside(img, lines, lambda b: (-1, 231))
    c.expect(len(lines) >= 2 and outside == 0, "rich text: ink of every line inside its line rect (%d dark pixels outside)" % outside)
    bx, by, bw, bh = box["rect"]
    inside = sum(1 for x in range(px(bx) - 1, px(bx + bw) + 1) for y in range(px(by) - 1, px(by + bh) + 1) if blue(img.getpixel((x, y))))
    stray = sum(1 for x in range(img.width) for y in range(img.height) if blue(img.getpixel((x, y)))
                and not (px(bx) - 2 <= x <= px(bx + bw) + 2 and px(by) - 2 <= y <= px(by + bh) + 2))
    c.expect(inside > 2 * (bw + bh) and stray == 0,
             "inline box drawn at its rect (%d outline pixels inside, %d outside)" % (inside, stray))
    red = sum(1 for x in range(img.width) for y in range(img.height)
              if img.getpixel((x, y))[0] - img.getpixel((x, y))[2] > 150 and img.getpixel((x, y))[1] < 100)
    c.expect(red > 50, "a coloured run is drawn in its colour (%d red pixels)" % red)

    cell = {"width": 200, "size": 15, "maxLines": 2, "lineBreakMode": "truncatingTail",
            "runs": [{"text": "A message that is much too long to fit into two lines of a narrow cell like this one."}],
            "truncationToken": [{"text": "… "}, {"text": "more", "weight": 700, "color": "#0a84ff"}]}
    img, geo = rich("rich-token", cell)
    tx, ty, tw, th = geo["token"]["rect"]
    inside = sum(1 for x in range(px(tx), px(tx + tw)) for y in range(px(ty), px(ty + th)) if blue(img.getpixel((x, y))))
    stray = sum(1 for x in range(img.width) for y in range(img.height) if blue(img.getpixel((x, y)))
                and not (px(tx) - 1 <= x <= px(tx + tw) + 1 and px(ty) - 1 <= y <= px(ty + th) + 1))
    c.expect(inside > 50 and stray == 0, "truncation token drawn inside its rect (%d blue pixels inside, %d outside)" % (inside, stray))

    # 7. Synthetic bold and oblique (DejaVu Serif's regular face alone, registered over the
    #    system's family): Plumb's drawing under `chromium` gains the ink and the slant that
    #    Chromium's own `@font-face` rendering of the same file gains from upright to bold italic.
    serif = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"
    text = "Hamburgefonstiv"
    style = ["--families", "DejaVu Serif", "--size", "28", "--width", "400", "--compatibility", "chromium",
             "--font-file", serif]
    page = ("<style>@font-face{font-family:'DejaVu Serif';src:url('file://%s');font-weight:400;font-style:normal}"
            "body{margin:8px;background:#fff;color:#1d1d1f} div{font:%s 28px 'DejaVu Serif';white-space:pre}</style>"
            "<div>%s</div>")
    plumb_up, svg_up = c.render("synthetic-regular", text, style)
    plumb_bi, svg_bi = c.render("synthetic-bold-italic", text, style + ["--weight", "700", "--italic"])
    chrome_up = c.screenshot_html("synthetic-chromium-regular", page % (serif, "normal 400", text), 440, 60)
    chrome_bi = c.screenshot_html("synthetic-chromium-bold-italic", page % (serif, "italic 700", text), 440, 60)
    c.expect("fallback" not in svg_up + svg_bi, "the registered face draws (no fallback mark)")
    pu, pb, cu, cb = (ink_stats(img) for img in (plumb_up, plumb_bi, chrome_up, chrome_bi))
    plumb_gain, chrome_gain = pb["pixels"] / max(1, pu["pixels"]), cb["pixels"] / max(1, cu["pixels"])
    c.expect(plumb_gain > 1.15 and abs(plumb_gain - chrome_gain) <= 0.1,
             "synthetic bold adds Chromium's ink (%.2f× the upright's; Chromium %.2f×)" % (plumb_gain, chrome_gain))
    plumb_slant, chrome_slant = pb["slant"] - pu["slant"], cb["slant"] - cu["slant"]
    c.expect(plumb_slant > 0.15 and abs(plumb_slant - chrome_slant) <= 0.06,
             "synthetic oblique slants as Chromium's (%.3f against %.3f)" % (plumb_slant, chrome_slant))

    # 8. Tab stops: behind a right stop at 150 every line's numbers end at the stop, and
    # behind a decimal stop at 260 every decimal point sits at the stop, as a reader sees a
    # column (the rightmost ink of each row's numbers; the left edge of the fraction's digits).
    text = "Tea\t1\t0.5\nCoffee\t22\t12.25\nCake\t333\t100.0"
    style = ["--families", "DejaVu Sans", "--size", "16", "--width", "320", "--tab-stops", "150 right, 260 decimal"]
    img, _ = c.render("tab-stops", text, style)
    lines = c.geometry(text, style)
    def ink_columns(box, x0, x1):
        y0, y1 = px(box["rect"][1]), px(box["rect"][1] + box["rect"][3])
        return [x for x in range(px(x0), min(img.width, px(x1))) if any(
            darkness(img.getpixel((x, y))) >= 100 for y in range(y0, min(img.height, y1)))]
    right_edges = [max(ink_columns(b, 100, 200)) / SCALE - PAD for b in lines]
    # The digits' ink ends a side bearing (under 2.5 pt) before their advance does.
    c.expect(len(lines) == 3 and max(right_edges) - min(right_edges) <= 0.5 and all(147.5 <= e <= 150.5 for e in right_edges),
             "numbers behind a right stop end at it (right edges %s, stop 150)" % [round(e, 1) for e in right_edges])
    # The decimal point: right of 200, the run of ink columns (blank columns on both sides)
    # whose ink all lies within 3 pt above the baseline, one per row, at the stop.
    points = []
    for b in lines:
        base = px(b["baseline"])  # from the top of the layout
        low = lambda x: all(darkness(img.getpixel((x, y))) < 100 for y in range(px(b["rect"][1]), base - 3 * SCALE))
        cols = ink_columns(b, 200, 320)
        runs, run = [], []
        for x in cols:
            if run and x != run[-1] + 1:
                runs.append(run)
                run = []
            run.append(x)
        runs.append(run)
        dots = [r for r in runs if r and all(low(x) for x in r)]
        points.append(sum(dots[0]) / len(dots[0]) / SCALE - PAD if len(dots) == 1 else float("nan"))
    c.expect(all(abs(p - 261.3) <= 2 for p in points) and max(points) - min(points) <= 0.5,
             "decimal points line up at the decimal stop (centres %s, stop 260)" % [round(p, 1) for p in points])

    # 9. Hyphenation: a line broken at a soft hyphen ends with a hyphen a reader sees (a dash:
    # ink in the hyphen's advance, in a band of at most 3 pt around half the x-height), and a
    # line that does not break a word has no ink past its used width.
    text = "extra\u00adordinary extra\u00adordinary"
    style = ["--families", "DejaVu Sans", "--size", "16", "--width", "70"]
    img, _ = c.render("hyphens", text, style)
    lines = c.geometry(text, style)
    def ink_rows(box, x0, x1):
        y0, y1 = px(box["rect"][1]), px(box["rect"][1] + box["rect"][3])
        return [y for y in range(y0, min(img.height, y1)) if any(
            darkness(img.getpixel((x, y))) >= 100 for x in range(px(x0), min(img.width, px(x1))))]
    hyphenated = [b for b in lines if b.get("hyphenWidth", 0) > 0]
    dashes = []
    for b in hyphenated:
        rows = ink_rows(b, b["usedWidth"] - b["hyphenWidth"] + 0.5, b["usedWidth"])
        height = (max(rows) - min(rows) + 1) / SCALE if rows else 0
        above = (px(b["baseline"]) - sum(rows) / len(rows)) / SCALE if rows else 0
        dashes.append((round(height, 1), round(above, 1)))
    c.expect(len(lines) == 4 and len(hyphenated) == 2 and all(0 < h <= 3 and 3 <= a <= 7 for h, a in dashes),
             "lines broken at a soft hyphen end with a visible dash (height, above the baseline: %s)" % dashes)
    plain = [b for b in lines if b.get("hyphenWidth", 0) == 0 and b["end"] < len(text)]
    c.expect(all(not ink_rows(b, b["usedWidth"] + 0.5, b["usedWidth"] + 8) for b in plain),
             "a line that breaks no word has no ink past its used width")

    print("%d check(s) failed" % len(c.failures) if c.failures else "all browser checks passed")
    return 1 if c.failures else 0


if __name__ == "__main__":
    sys.exit(main())
