"""The cases of the tab-stop oracles: `tabs_pango.py` (Pango tab arrays: left, right, center and
decimal stops) and `tabs_chromium.py` (CSS `tab-size`) build them here, state them to Plumb
here, and score them here.

Texts (`texts`, shared by both oracles):

- `cell`: every corpus cell (`Benchmarks/Corpus/cells.jsonl`) in Latin, Cyrillic, Han,
  Japanese or Hangul script without a newline, with 1–4 of its spaces (seeded choice) turned
  into tabs; a cell without spaces (Chinese, Japanese) gets the tabs inserted between two of
  its characters instead; every 9th starts with a tab;
- `joined`: two such cells joined by a newline (every 5th pair by an empty paragraph);
- `table`: generated table-like rows, 1–4 a text, joined by newlines: labels in English,
  Russian, Chinese, Japanese and Korean, prices with a '.' (some with a ',' thousands
  separator, some with a ',' as the decimal sign, some without a point), quantities and
  currencies, in five row forms (`label⇥price`, `label⇥price⇥unit`, `qty⇥label⇥price`,
  `⇥price`, `label⇥qty⇥price⇥unit`);
- `list`: "1.⇥" or "•⇥" before a corpus cell (a list item; the `indented` kind gives it a
  hanging indent at the stop);
- `rtl`: a few Arabic and Hebrew cells with tabs (line starts and heights only).

Each text is used twice (`rounds`), each time with another cascade, size, width and kind.
Cascades and sizes rotate as in `indents.py`; widths come from `conformance.WIDTHS`, and
every 40th case is `narrow` (50–90 pt). Kinds under `pango` (locations in points from the
box's leading edge; `tabStops` is Plumb's field):

- `left`, `right`, `center`, `decimal`: one stop of that alignment per tab of the longest
  paragraph (sometimes one more), from 12–45 % of the line to about 95 % of it; 15 % of the
  multi-stop cases list them unsorted (`unsorted`), 10 % put the last stop past the line's end
  (`beyond-width`), 20 % use locations off the quarter points (`odd`);
- `mixed`: 2–5 stops of at least two alignments;
- `extended`: fewer stops than the text has tabs on a line (Pango repeats the last gap, or the
  last location when there is one stop, with the last stop's alignment);
- `default`: no stops: `tabInterval` (`tab-interval`, a Pango array of one stop there) or
  `tabSize: 8` (`tab-size`, Pango's default tabs, no array);
- `indented`: stops (or a `tabInterval`) with indents (`indents.pick_indents`: first-line,
  hanging, both, tail-negative; with both indents above 0 the layout starts at the smaller one,
  `layout-offset`); a `list` text gets its stop at its hanging indent;
- `near-stop`: a left stop close to the pen before the first tab (Pango's pen, laid out with
  the case's font): at it, a unit (1/1024 pt) before or after, or a little further, and a second
  stop 10–25 pt on.

Kinds under `chromium` (`tabSize`: a number of spaces or a px length; no stops):
`spaces` (1, 2, 4, 8, 3.5, 2.25, 6, 12), `length` (17, 28, 40.5, 12.3, 60, 33.33 px),
`letter-spacing` (`letterSpacing` −0.5…3 with either), `indented` (`indents.pick_indents`
with first-line, hanging, both, tail-negative and negative; a `list` text gets padding and a
negative text-indent of the tab size), `near-stop` (a px tab size that puts the first stop
within a few half spaces of the pen, Pango's pen and space width) and `default` (no
`tab-size`: CSS's 8).

Tags: the source (`table`, `list`, `rtl`, `joined`), `multi-paragraph`, `narrow`, `odd`,
`unsorted`, `beyond-width`, `layout-offset`, `comma` (a ',' decimal sign), `cjk`, `leading-tab`,
`tab-interval`, `tab-size`, `outdent` (the first line starts left of the others: Pango's
hanging indent, Chromium's negative text-indent), `at-pen` (a near stop at or before the pen),
`number`/`px`
(chromium's tab size), `half-space` (a near stop less than half a space past the pen), and
after the reference is measured (`reference_tags`): `wraps` (a paragraph takes more than one
line) and `tab-at-break` (a line starts right after a tab).

Scores (`score`): a case agrees when its line starts and its height do; line x (left-to-right
texts whose starts agree) and tab x are scored apart. Tab x is the x of the character after
each tab, in the box's coordinates, for tabs whose next character is on the same line
(`tab_targets`); Plumb's comes from `plumb render` (`plumb_tab_x`: that character drawn in a
colour of its own, its glyph's x read back from the SVG; colour runs change no layout, and a
case whose runs cell breaks otherwise is left out), so only visible characters count there.
A case whose line starts differ is named by the line whose end differs: with a tab on it ("a
tab on the line", and whether the tabs before the break land alike), else a control
(`indents.controls`: the line alone, no indents, no tabs) tells a plain breaking difference
("also without tabs") from one of the case ("only in the case").
"""
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import unicodedata

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import conformance as conf  # noqa: E402
import indents  # noqa: E402

SIZES = indents.SIZES
TABBABLE = {"Latin", "Cyrillic", "Han", "Japanese", "Hangul"}
NO_SPACES = {"Han", "Japanese"}
RTL = {"Arabic", "Hebrew"}
ALIGNMENTS = ["left", "right", "center", "decimal"]
TAB_INTERVALS = [28, 36, 50, 17.5, 40.25, 72, 33.3]
SPACES = [1, 2, 4, 8, 3.5, 2.25, 6, 12]
LENGTHS = [17, 28, 40.5, 12.3, 60, 33.33]
LETTER_SPACING = [0.5, 1, 2, -0.5, 1.25, 3]
LIST_STOPS = [18, 24, 28, 36]
NEAR_PANGO = [-0.5, -1 / 1024, 0, 1 / 1024, 2 / 1024, 0.01, 0.25, 1]
NEAR_CHROMIUM = [-0.6, 0.3, 0.7, 1.3, 1.8, 3]  # in half spaces past the pen
KINDS = {
    "pango": ["left", "right", "center", "decimal", "mixed", "extended", "default", "indented", "near-stop"],
    "chromium": ["spaces", "length", "letter-spacing", "indented", "near-stop", "default"],
}
WEIGHTS = {
    "pango": {"left": 2, "right": 2, "center": 1.5, "decimal": 1.5, "mixed": 2, "extended": 1.5, "default": 1.5,
              "indented": 2, "near-stop": 1},
    "chromium": {"spaces": 3, "length": 3, "letter-spacing": 2, "indented": 2.5, "near-stop": 1, "default": 0.5},
}
TABLE_WEIGHTS = {"decimal": 4, "right": 3, "mixed": 3}
TAB_FIELDS = ("tabStops", "tabInterval", "tabSize", "letterSpacing")
LINE_BREAKS = "\n\r\u2028\u2029"

LABELS = ["Coffee", "Green tea", "Sandwich", "Chocolate cake", "Sparkling water", "Total", "Subtotal", "VAT 20%",
          "Shipping", "Discount", "Apples, red", "Rent (March)", "Кофе", "Чай с молоком", "Пирожок", "Итого",
          "Доставка", "咖啡", "绿茶", "三明治", "合计", "运费", "コーヒー", "紅茶", "合計", "커피", "녹차", "합계"]
UNITS = ["EUR", "USD", "kg", "pcs", "₽", "元", "円", "%"]
QUANTITIES = ["1", "2", "12", "×3", "10 pcs", "0.5 kg", "250"]
ROW_FORMS = [("label", "price"), ("label", "price", "unit"), ("qty", "label", "price"), ("", "price"),
             ("label", "qty", "price", "unit")]


def is_joiner(ch):
    """Whether a tab must not go before `ch` (a combining mark, joiner or variation selector)."""
    return unicodedata.combining(ch) or ch in "\u200d\u200c\ufe0e\ufe0f" or unicodedata.category(ch) in ("Mn", "Me")


def tabbed(text, n, script, rng):
    """`text` with `n` of its spaces (seeded) turned into tabs; a Chinese or Japanese text with
    too few spaces gets the tabs inserted between characters. None when no tab fits."""
    spaces = [k for k, ch in enumerate(text) if ch == " "]
    if len(spaces) >= n or (spaces and script not in NO_SPACES):
        chosen = sorted(rng.sample(spaces, min(n, len(spaces))))
        return "".join("\t" if k in chosen else ch for k, ch in enumerate(text))
    if script not in NO_SPACES:
        return None
    places = [k for k in range(1, len(text)) if not is_joiner(text[k]) and text[k - 1] != " " and text[k] != " "]
    if not places:
        return None
    chosen = set(rng.sample(places, min(n, len(places))))
    return "".join(("\t" if k in chosen else "") + ch for k, ch in enumerate(text))


def price(rng):
    """A price: mostly '12.50'; some '1,234.50', '12,50' (a ',' decimal sign), '7', '-3.20', '.75'."""
    r = rng.random()
    whole = rng.choice([0, 1, 3, 7, 12, 25, 99, 120, 999, 1234])
    if r < 0.55:
        return "%d.%02d" % (whole, rng.randrange(100))
    if r < 0.65:
        return "%d,%03d.%02d" % (rng.randrange(1, 20), rng.randrange(1000), rng.randrange(100))
    if r < 0.75:
        return "%d,%02d" % (whole, rng.randrange(100))
    if r < 0.85:
        return str(whole)
    if r < 0.93:
        return "-%d.%d" % (whole, rng.randrange(10))
    return ".%02d" % rng.randrange(100)


def table(rng):
    """1–4 rows of one form (ROW_FORMS), joined by newlines."""
    form = rng.choice(ROW_FORMS)
    rows = []
    for _ in range(rng.choice([1, 1, 2, 3, 4])):
        fields = {"label": rng.choice(LABELS), "price": price(rng), "unit": rng.choice(UNITS),
                  "qty": rng.choice(QUANTITIES), "": ""}
        rows.append("\t".join(fields[f] for f in form))
    return "\n".join(rows)


def texts(cells):
    """(text, source) of every text (see the module docstring), in a fixed order."""
    rng = random.Random("tabs-texts")
    out, single = [], []
    for i, c in enumerate(cells):
        t = c["text"]
        if "\n" in t or "\r" in t:
            continue
        script = c.get("script")
        if script in TABBABLE:
            tt = tabbed(t, 1 + i % 4, script, rng)
            if tt is not None:
                if i % 9 == 4:
                    tt = "\t" + tt
                out.append((tt, "cell"))
                single.append(tt)
        elif script in RTL and i % 3 == 0:
            tt = tabbed(t, 1 + i % 2, script, rng)
            if tt is not None:
                out.append((tt, "rtl"))
    for j in range(0, len(single) - 1, 7):
        sep = "\n\n" if (j // 7) % 5 == 4 else "\n"
        out.append((single[j] + sep + single[(5 * j + 3) % len(single)], "joined"))
    for _ in range(600):
        out.append((table(rng), "table"))
    plain = [c["text"] for c in cells if c.get("script") in TABBABLE and "\n" not in c["text"]]
    for j in range(0, len(plain), max(1, len(plain) // 200)):
        out.append((("%d.\t" % (1 + j % 12) if j % 3 else "•\t") + plain[j], "list"))
    return out


def has_cjk(text):
    """Whether the text has CJK, kana or Hangul."""
    return any(conf.is_cjk(ch) or 0x3040 <= ord(ch) <= 0x30FF for ch in text)


def tabs_per_paragraph(text):
    """The most tabs any paragraph of the text has."""
    return max(p.count("\t") for p in re.split("[\n\r\u2028\u2029]", text))


def quarter(v):
    """A location on the quarter points."""
    return round(v * 4) / 4


def locations(n, start, end, rng, odd):
    """`n` increasing locations from 12–45 % of the way from `start` to `end` to about 95 % of
    it (whole quarter points, or tenths when `odd`)."""
    span = end - start
    first = start + span * rng.uniform(0.12, 0.45)
    last = start + span * rng.uniform(0.85, 0.97)
    if n == 1:
        xs = [first if rng.random() < 0.6 else (first + last) / 2]
    else:
        xs = [first + (last - first) * k / (n - 1) + rng.uniform(-0.05, 0.05) * span / n for k in range(n)]
    xs = [round(x, 1) if odd else quarter(x) for x in xs]
    out = []
    for x in xs:
        out.append(max(x, out[-1] + 1 if out else start + 1))
    return [round(x, 6) for x in out]


def stops_of(xs, aligns):
    """Plumb's `tabStops` field from locations and alignments."""
    return [{"location": x, "alignment": a} for x, a in zip(xs, aligns)]


def measurer():
    """The one Pango measurer the near-stop cases use (made on first use)."""
    if not hasattr(measurer, "m"):
        measurer.m = conf.PangoMeasurer()
    return measurer.m


def pango_pen(text, families, size):
    """(x of the text's first tab, width of a space of the first family) in Pango, in points,
    on one unwrapped line: the pen before the tab, and the space a tab size counts."""
    import pango_heights
    from gi.repository import Pango
    layout = measurer().layout
    layout.set_width(-1)
    layout.set_indent(0)
    layout.set_tabs(None)
    widths = []
    for fams, t in ((families, text[:text.index("\t")]), (families[:1], " ")):
        desc = Pango.FontDescription.from_string(", ".join(fams))
        desc.set_absolute_size(pango_heights.units(size))
        layout.set_font_description(desc)
        layout.set_text(t, -1)
        widths.append(layout.get_extents()[1].width / Pango.SCALE)
    return widths[0], widths[1]


def pango_stops(case, kind, source, rng):
    """The tab fields and tags of one `pango` case of `kind` (module docstring); may set
    indents."""
    odd = rng.random() < 0.2
    if kind == "indented":
        return pango_indented(case, source, rng, odd)
    if kind == "default":
        if rng.random() < 0.5:
            return {"tabInterval": rng.choice(TAB_INTERVALS)}, ["tab-interval"]
        return {"tabSize": 8}, ["tab-size"]
    if kind == "near-stop":
        pen, _ = pango_pen(case["text"], case["families"], case["size"])
        d = rng.choice(NEAR_PANGO)
        x = pen + round(d * 1024) / 1024
        return {"tabStops": stops_of([x, x + rng.choice([10, 12.5, 25])], ["left", "left"])}, (
            ["at-pen"] if d <= 0 else [])
    return pango_aligned(case, kind, rng, odd)


def pango_indented(case, source, rng, odd):
    """An `indented` case's indents (set on it) and tab fields: a list item's stop at its
    hanging indent, else `indents.pick_indents` and stops (or a `tabInterval`) from the
    layout's edge to the lines' end."""
    if source == "list":
        stop = rng.choice(LIST_STOPS)
        case["headIndent"] = stop
        return {"tabStops": stops_of([stop], ["left"])}, []
    case.update(indents.pick_indents(rng.choice(["first-line", "hanging", "both", "tail-negative"]), rng))
    base = min(case.get("firstLineHeadIndent", 0), case.get("headIndent", 0))
    if base == 0 and rng.random() < 0.2:
        return {"tabInterval": rng.choice(TAB_INTERVALS)}, ["tab-interval"]
    tags = (["odd"] if odd else []) + (["layout-offset"] if base > 0 else [])
    xs = locations(max(1, tabs_per_paragraph(case["text"])), base, indents.line_end(case), rng, odd)
    aligns = ["left" if rng.random() < 0.6 else rng.choice(ALIGNMENTS) for _ in xs]
    return {"tabStops": stops_of(xs, aligns)}, tags


def pango_aligned(case, kind, rng, odd):
    """The stops of a `left`, `right`, `center`, `decimal`, `mixed` or `extended` case."""
    w, tabs = case["width"], tabs_per_paragraph(case["text"])
    tags = ["odd"] if odd else []
    if kind == "extended":
        n = max(1, min(2, tabs - 1))
        aligns = ["left" if rng.random() < 0.6 else rng.choice(ALIGNMENTS) for _ in range(n)]
        end = w * rng.uniform(0.2, 0.5) if n == 1 else w * rng.uniform(0.35, 0.6)
        return {"tabStops": stops_of(locations(n, 0, end, rng, odd), aligns)}, tags
    n = max(1, tabs + (rng.random() < 0.25))
    if kind == "mixed":
        n = max(2, n)
        aligns = [rng.choice(ALIGNMENTS) for _ in range(n)]
        while len(set(aligns)) < 2:
            aligns[rng.randrange(n)] = rng.choice(ALIGNMENTS)
    else:
        aligns = [kind] * n
    xs = locations(n, 0, w, rng, odd)
    if rng.random() < 0.1:
        xs[-1] = quarter(w + rng.uniform(5, 60))
        tags.append("beyond-width")
    stops = stops_of(xs, aligns)
    if n > 1 and rng.random() < 0.15:
        rng.shuffle(stops)
        if stops != sorted(stops, key=lambda s: s["location"]):
            tags.append("unsorted")
    return {"tabStops": stops}, tags


def px(v):
    """A CSS length in px, without float noise ("28px", "40.5px")."""
    return ("%.6f" % v).rstrip("0").rstrip(".") + "px"


def chromium_tab_size(rng):
    """A CSS tab-size: a number of spaces or a px length, with its tag."""
    if rng.random() < 0.5:
        return rng.choice(SPACES), "number"
    return px(rng.choice(LENGTHS)), "px"


def chromium_stops(case, kind, source, rng):
    """The tab fields of one `chromium` case of `kind` (module docstring); may set indents."""
    if kind == "default":
        return {}, []
    if kind == "spaces":
        return {"tabSize": rng.choice(SPACES)}, ["number"]
    if kind == "length":
        return {"tabSize": px(rng.choice(LENGTHS))}, ["px"]
    if kind == "letter-spacing":
        size, tag = chromium_tab_size(rng)
        return {"tabSize": size, "letterSpacing": rng.choice(LETTER_SPACING)}, [tag]
    if kind == "indented":
        if source == "list":
            stop = rng.choice(LIST_STOPS)
            case["headIndent"] = stop
            return {"tabSize": px(stop)}, ["px"]
        case.update(indents.pick_indents(rng.choice(["first-line", "hanging", "both", "tail-negative", "negative"]),
                                         rng))
        size, tag = chromium_tab_size(rng)
        return {"tabSize": size}, [tag]
    pen, space = pango_pen(case["text"], case["families"], case["size"])
    k = rng.choice(NEAR_CHROMIUM)
    length = max(1.0, round((pen + k * space / 2) * 64) / 64)
    return {"tabSize": px(length)}, ["px"] + (["half-space"] if 0 < k < 1 else [])


def pick_kind(profile, source, text, rng):
    """A seeded kind for a text (tables favour decimal, right and mixed stops; a text with one
    tab per paragraph is not `extended`; `near-stop` needs its first tab on the first line)."""
    kinds = KINDS[profile]
    weights = [(TABLE_WEIGHTS.get(k) if source == "table" else None) or WEIGHTS[profile][k] for k in kinds]
    kind = rng.choices(kinds, weights)[0]
    if kind == "extended" and tabs_per_paragraph(text) < 2:
        kind = "left"
    if kind == "near-stop" and (source == "rtl" or not 0 < text.index("\t") <= 25 or any(
            ch in LINE_BREAKS for ch in text[:text.index("\t")])):
        kind = "left" if profile == "pango" else "length"
    if source == "list" and rng.random() < 0.6:
        kind = "indented"
    return kind


def make_cases(cells, profile, rounds=2):
    """The cases of one oracle (`profile`: "chromium" or "pango"), in a fixed order: every text
    `rounds` times, each time in another cascade, size and width, with another kind."""
    rng = random.Random("tabs-" + profile)
    every = texts(cells)
    cases = []
    for i in range(rounds * len(every)):
        r, (text, source) = i // len(every), every[i % len(every)]
        c = (i + r) % len(conf.CASCADES)
        case = {"text": text, "families": conf.CASCADES[c], "size": SIZES[(7 * i + c) % len(SIZES)],
                "source": source}
        narrow = i % 40 == 17
        case["width"] = rng.choice([50, 60, 70, 80, 90]) if narrow else conf.WIDTHS[(5 * i + i // 8 + 3 * r) % 8]
        kind = pick_kind(profile, source, text, rng)
        fields, tags = (pango_stops if profile == "pango" else chromium_stops)(case, kind, source, rng)
        if case.get("firstLineHeadIndent", 0) or case.get("headIndent", 0):
            while min(indents.line_widths(case)) < 40 and case["width"] < 450:
                case["width"] += 50
        case.update(fields)
        case["kind"] = kind
        case["tags"] = sorted(set(tags + source_tags(case, narrow)))
        cases.append(case)
    return cases


def source_tags(case, narrow):
    """The tags that come from the text and the box."""
    text = case["text"]
    t = [case["source"]] if case["source"] != "cell" else []
    if len(indents.paragraph_starts(text)) > 1:
        t.append("multi-paragraph")
    if narrow:
        t.append("narrow")
    if has_cjk(text):
        t.append("cjk")
    if case["source"] == "table" and re.search(r"\d,\d\d(?!\d)", text):
        t.append("comma")
    if any(text[s:s + 1] == "\t" for s in indents.paragraph_starts(text)):
        t.append("leading-tab")
    if case.get("firstLineHeadIndent", 0) < case.get("headIndent", 0):
        t.append("outdent")
    return t


def reference_tags(cases, theirs):
    """Adds the tags that come from the reference's lines: `wraps`, `tab-at-break`."""
    for c, t in zip(cases, theirs):
        starts, text = t[1], c["text"]
        extra = []
        if len(starts) > len(indents.paragraph_starts(text)):
            extra.append("wraps")
        if any(s > 0 and text[s - 1] == "\t" for s in starts):
            extra.append("tab-at-break")
        c["tags"] = sorted(set(c["tags"] + extra))


def load_cases(args, profile):
    """The cases of `profile` made from the corpus `args` name, with their count per kind printed."""
    cells = [json.loads(l) for l in open(args.corpus, encoding="utf-8") if l.strip()]
    if args.limit:
        cells = cells[:args.limit]
    cases = make_cases(cells, profile)
    kinds = {}
    for c in cases:
        kinds[c["kind"]] = kinds.get(c["kind"], 0) + 1
    print("%d cases: %s" % (len(cases), ", ".join("%s %d" % kv for kv in sorted(kinds.items()))))
    return cases


def plumb_request(case, profile, scale=None):
    """The JSON Lines request that states `case` to Plumb (`indents.plumb_request` and the tab
    fields)."""
    r = indents.plumb_request(case, profile, scale)
    r.update({k: case[k] for k in TAB_FIELDS if k in case})
    return r


def plumb(binary, cases, profile, scale=None):
    """Per case (exact height, line starts, line x) from `plumb measure`, or None."""
    return indents.plumb(binary, cases, profile, scale, request=plumb_request)


def tab_targets(text, starts):
    """Per tab of the text, in order: the scalar offset of the character after it when that
    character is on the tab's line (not a line break, not the text's end, not a line start
    under `starts`), else None."""
    line_starts = set(starts)
    out = []
    for i, ch in enumerate(text):
        if ch != "\t":
            continue
        j = i + 1
        ok = j < len(text) and text[j] not in LINE_BREAKS and j not in line_starts
        out.append(j if ok else None)
    return out


def marked_runs(text):
    """The text as runs in which the character after each tab (the k-th) has the colour
    `#0000xx` with xx = k + 1 (at most 255 tabs), the rest none."""
    runs, last, k = [], 0, 0
    for i, ch in enumerate(text):
        if ch == "\t" and i + 1 < len(text) and text[i + 1] not in LINE_BREAKS and k < 255:
            if i + 1 > last:
                runs.append({"text": text[last:i + 1]})
            runs.append({"text": text[i + 1], "color": "#%06x" % (k + 1)})
            last = i + 2
        if ch == "\t":
            k += 1
    if last < len(text):
        runs.append({"text": text[last:]})
    return runs


GLYPH = re.compile(r'<use class="glyph" fill="#0000([0-9a-f]{2})"[^>]* transform="translate\(([-0-9.e]+) ')


def plumb_tab_x(binary, cases, profile, mine, scale=None):
    """Per case, per tab: the x of the glyph Plumb draws for the character after the tab (from
    `plumb render` of the case as `marked_runs`; None when it draws none: a space, a line
    break). None for a case that is not left to right, or whose runs cell Plumb breaks other
    than its text cell (`mine`: Plumb's answers for the text cells)."""
    requests, index = [], []
    for n, c in enumerate(cases):
        if "\t" in c["text"] and indents.left_to_right(c["text"]):
            r = plumb_request(c, profile, scale)
            r["runs"] = marked_runs(r.pop("text"))
            requests.append(r)
            index.append(n)
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False, encoding="utf-8") as f:
        for r in requests:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
        path = f.name
    try:
        svg = subprocess.run([binary, "render", "--file", path], capture_output=True).stdout.decode("utf-8")
    finally:
        os.unlink(path)
    rows = svg.split('<g id="r')[1:]
    assert len(rows) == len(requests), "plumb render drew %d rows of %d" % (len(rows), len(requests))
    runs = conf.measure_requests(binary, requests, "--line-starts")
    out = [None] * len(cases)
    for n, row, o in zip(index, rows, runs):
        if mine[n] is None or o is None or o.get("lineStarts") != mine[n][1]:
            continue
        xs = [None] * cases[n]["text"].count("\t")
        for m in GLYPH.finditer(row):
            k = int(m.group(1), 16) - 1
            if xs[k] is None:
                xs[k] = float(m.group(2))
        out[n] = xs
    return out


def score(cases, theirs, mine, mine_tabs, height_agrees, tolerance=0.01, tab_tolerance=None):
    """Agreement per group ('all', each kind, each tag) and the disagreements.

    `theirs`: per case (height, starts, line xs or None, tab xs or None), in points; `mine`:
    Plumb's (height, starts, line xs) or None; `mine_tabs`: Plumb's tab xs (`plumb_tab_x`). A
    case agrees when its starts and its height do; line x and tab x (where both engines have
    one) are scored apart, on cases whose starts agree, within `tolerance` and `tab_tolerance`
    (default `tolerance`). A miss is (case, theirs, Plumb's with its tab xs appended, class
    name)."""
    tab_tolerance = tolerance if tab_tolerance is None else tab_tolerance
    stats, misses = {}, []
    for c, t, m, mt in zip(cases, theirs, mine, mine_tabs):
        groups = ["all", "kind " + c["kind"]] + ["tag " + g for g in c["tags"]]
        same_starts = m is not None and m[1] == t[1]
        same_height = m is not None and height_agrees(m[0], t[0])
        x_checked = t[2] is not None and same_starts and indents.left_to_right(c["text"])
        same_x = x_checked and len(m[2]) == len(t[2]) and all(abs(a - b) <= tolerance for a, b in zip(m[2], t[2]))
        pairs = [(a, b) for a, b in zip(t[3] or [], mt or []) if a is not None and b is not None]
        tab_checked = same_starts and bool(pairs)
        same_tab = tab_checked and all(abs(a - b) <= tab_tolerance for a, b in pairs)
        for g in groups:
            s = stats.setdefault(g, {"cases": 0, "starts": 0, "heights": 0, "both": 0, "xChecked": 0, "x": 0,
                                     "tabChecked": 0, "tab": 0})
            s["cases"] += 1
            s["starts"] += same_starts
            s["heights"] += same_height
            s["both"] += same_starts and same_height
            s["xChecked"] += x_checked
            s["x"] += same_x
            s["tabChecked"] += tab_checked
            s["tab"] += same_tab
        if m is None:
            misses.append((c, t, m, "no answer from Plumb"))
            continue
        m = tuple(m[:3]) + (mt,)
        if not same_starts:
            misses.append((c, t, m, starts_class(c, t, m, tab_tolerance)))
        elif not same_height:
            misses.append((c, t, m, "height only"))
        elif tab_checked and not same_tab:
            misses.append((c, t, m, "tab x: " + tab_class(c, t, mt, tab_tolerance)))
        elif x_checked and not same_x:
            misses.append((c, t, m, "line x only"))
    return stats, misses


def stop_alignment(case, tab_x):
    """'<alignment> stop': the stop nearest to where the reference put the text after a tab
    (cases with stops), else the kind."""
    stops = case.get("tabStops")
    if not stops:
        return case["kind"]
    return min(stops, key=lambda s: abs(s["location"] - tab_x))["alignment"] + " stop"


def tab_class(case, theirs, mine, tolerance):
    """Why a tab x differs (`theirs`: the reference's answer, `mine`: Plumb's tab xs): the
    first differing tab's stop alignment, whether it is the first tab of its paragraph, and
    whether its text (up to the next tab or the paragraph's end) wraps."""
    text = case["text"]
    k = next(k for k, (a, b) in enumerate(zip(theirs[3], mine))
             if a is not None and b is not None and abs(a - b) > tolerance)
    tab = [i for i, ch in enumerate(text) if ch == "\t"][k]
    paragraph = max(p for p in indents.paragraph_starts(text) if p <= tab)
    first = "\t" not in text[paragraph:tab]
    end = min([j for j in range(tab + 1, len(text)) if text[j] in "\t" + LINE_BREAKS] or [len(text)])
    wraps = any(tab + 1 < s < end for s in theirs[1])
    return "%s, %s tab of its paragraph%s" % (stop_alignment(case, theirs[3][k]), "first" if first else "later",
                                               ", its text wraps" if wraps else "")


def starts_class(case, theirs, mine, tolerance):
    """The name of a line-start disagreement: whether the line whose end differs has a tab
    (in either engine), and if so whether the reference's text runs past the line's end (a
    fifth item of `theirs`: per line, where its text ends) or the tabs before the break land
    alike."""
    text = case["text"]
    k = indents.first_differing(theirs[1], mine[1])
    line = max(0, k - 1)
    begin = theirs[1][line]
    ends = [s[line + 1] if line + 1 < len(s) else len(text) for s in (theirs[1], mine[1])]
    if "\t" not in text[begin:max(ends)]:
        return "starts differ: no tab on the line"
    reach = theirs[4][line] if len(theirs) > 4 and theirs[4] else None
    if reach is not None and reach > indents.line_end(case) + tolerance:
        return "starts differ: a tab on the line, the reference's text runs past the line's end"
    tabs = [i for i, ch in enumerate(text) if ch == "\t"]
    before = [(a, b) for a, b, i in zip(theirs[3] or [], mine[3] or [], tabs)
              if a is not None and b is not None and i < min(ends)]
    if not before:
        return "starts differ: a tab on the line"
    alike = all(abs(a - b) <= tolerance for a, b in before)
    return "starts differ: a tab on the line, %s" % ("its tabs land alike" if alike else "a tab lands elsewhere")


def controls(misses, profile):
    """Controls (`indents.controls` under `profile`) for the misses whose differing line has no
    tab: the line alone, without indents or tab fields."""
    plain = [(c, t, m, name) if name == "starts differ: no tab on the line" else (c, t, m, "")
             for c, t, m, name in misses]
    out = []
    for n, ctrl, compare in indents.controls(plain, profile):
        ctrl.pop("tabInterval", None)
        out.append((n, ctrl, compare))
    return out


def reclassify(misses, ctrl, theirs, mine):
    """Names each miss with a control: 'also without tabs' when the engines break the control
    differently too (up to the line compared), else 'only in the case'."""
    for (n, _, compare), t, m in zip(ctrl, theirs, mine):
        c, a, b, name = misses[n]
        differs = m is None or t[1][:compare + 1] != m[1][:compare + 1]
        misses[n] = (c, a, b, name + (", also without tabs" if differs else ", only in the case"))


def print_stats(title, stats, file=sys.stdout):
    """One line per group: cases, line starts, heights, both, line x, tab x."""
    order = indents.group_order(stats)
    print(title, file=file)
    for g in order:
        s = stats[g]
        print("  %-22s %5d cases: starts %6.2f %%, heights %6.2f %%, both %6.2f %%; line x %6.2f %% of %d;"
              " tab x %6.2f %% of %d" % (
                  g, s["cases"], 100.0 * s["starts"] / s["cases"], 100.0 * s["heights"] / s["cases"],
                  100.0 * s["both"] / s["cases"], 100.0 * s["x"] / max(1, s["xChecked"]), s["xChecked"],
                  100.0 * s["tab"] / max(1, s["tabChecked"]), s["tabChecked"]), file=file)


def describe(case):
    """The case's width, font, kind, indents and tab fields, for a miss line."""
    fields = ", ".join("%s %s" % (k, case[k]) for k in indents.INDENT_FIELDS if k in case)
    stops = case.get("tabStops")
    tab = ", ".join("%s %s" % (k, case[k]) for k in TAB_FIELDS[1:] if k in case)
    if stops:
        tab = "stops " + ", ".join("%s %s" % (s["location"], s["alignment"]) for s in stops) + (
            ", " + tab if tab else "")
    return "w%s %s %s [%s] {%s} {%s}" % (case["width"], case["families"][0], case["size"], case["kind"], fields, tab)


def tab_detail(engine):
    """`indents.print_misses`' extra lines for a tab x miss: both engines' tab x."""
    def detail(name, theirs, mine):
        if not name.startswith("tab x"):
            return None
        return "\n      %s tab x %s; plumb tab x %s" % (engine, theirs[3][:6], mine[3][:6])
    return detail


def print_misses(misses, engine, show, file=sys.stdout):
    """`indents.print_misses` with this oracle's fields and tab x."""
    indents.print_misses(misses, engine, show, file, describe=describe, detail=tab_detail(engine))


def subset_row(case, profile, reference, result, scale=None):
    """A subset line: Plumb's request, kind, tags and the reference's height, line starts, line
    x and tab x (`<reference>TabX`: per tab, null where `tab_targets` has none; left-to-right
    texts only)."""
    row = dict(plumb_request(case, profile, scale), kind=case["kind"], tags=case["tags"])
    row[reference + "Height"], row[reference + "LineStarts"] = result[0], result[1]
    if indents.left_to_right(case["text"]):
        row[reference + "LineX"] = result[2]
        if result[3] is not None:
            row[reference + "TabX"] = result[3]
    return row
