#!/usr/bin/python3
"""CSS wrapping properties in Chromium against the `chromium` profile (issue 27, items 5 and 6).

    /usr/bin/python3 Tests/Conformance/wrapping_chromium.py --plumb .build/release/plumb \\
        [--scales 1,2] [--limit N] [--write-subset FILE] [--report FILE] [--show N] \\
        [--reference-cache FILE] [--reference-only] [--hand-checks]

Cases: `wrapping.py`'s (each sets one of whiteSpace, wordBreak, overflowWrap, lineBreak,
wordSpacing, lineClamp, textWrap, about 15 % a second one; corpus texts, texts with runs of
spaces, leading and trailing spaces, tabs and newlines, URLs, long words, Japanese with small
kana, ー and 々). Each case is a div at the top of the page as in `indents_chromium.py` (the
class sets `white-space: pre-wrap; overflow-wrap: break-word; word-break: normal;
text-spacing-trim: space-all; font-kerning: normal; line-height: normal; tab-size: 28px`;
`box-sizing: border-box; width: W px`), whose style attribute overrides the case's properties:

    whiteSpace V    white-space: V          overflowWrap V   overflow-wrap: V
    wordBreak V     word-break: V           lineBreak V      line-break: V
    wordSpacing X   word-spacing: Xpx       textWrap V       text-wrap: V
    lineClamp N     display: -webkit-box; -webkit-box-orient: vertical; -webkit-line-clamp: N;
                    overflow: hidden

Every case is laid out twice in Chromium: with its properties and without them (the base
style: `base`), which tells where a property changes Chromium's breaks (tag `changes-starts`,
else `same-starts`) and serves as the control of a miss: when Plumb and Chromium also break the
base layout differently the miss is named "also without it" (the plain oracles' kind), else
"only with it".

What Chromium 156 does (`--hand-checks` shows each, DejaVu Sans 15px, scales 1 and 2):

- `normal`/`nowrap`: runs of spaces, tabs and newlines collapse to one space; a space at a
  line's end and spaces at the text's start or end vanish ("aaa   bbb   ccc" in 50: [0, 6, 12]);
  `pre-line`: the same but a newline breaks, and spaces around it go ("aaa  \n  bbb": [0, 8]);
  an empty line starts at its newline;
- `break-spaces`: spaces take room and never hang, a line may start with one ("aaa   bbb   ccc"
  in 40: [0, 5, 10]); `pre-wrap` (the base) hangs them;
- a trailing newline makes no line ("abc\n": one line), two make one empty line;
- `text-wrap: balance` keeps greedy's line count and evens the lines, only in paragraphs of at
  most 6 greedy lines (each paragraph of a pre-wrap text on its own); `pretty` changes only
  paragraphs of 2–6 lines whose last line is shorter than about a third of the box (not all of
  them), moving words down into it; neither changes a line count, but a height can change (a
  line's fallback font moves with its text);
- `-webkit-line-clamp: N` lays out every line and makes the box N lines high; an empty line
  counts; the last line shown gets an ellipsis;
- `line-break: auto` and `normal` break alike (the page is `lang="en"`); `strict` keeps small
  kana and ー with the character before, `loose` breaks before them too, `anywhere` between
  any two characters; `overflow-wrap: anywhere` breaks as `break-word` does;
- a line fits when its width is at most the box's in layout units: "Schre" (52.08 px, Noto Sans
  20) fits in 52.08 and 52.5 px, not in 52.05.

What Chromium gives (the scan, `SCAN`): the div's height (`getBoundingClientRect`), its line
starts and per line its width. A character's line is the top of one of its Range's client
rects, a new line starting where the top moves down by more than 1 px. Collapsed white space
(under `white-space-collapse: collapse` spaces, tabs and newlines; under `preserve-breaks`,
i.e. pre-line, spaces and tabs) has only zero-width rects, at the end of the line before and
often at the start of the next one too: such a character is skipped, so a line's start is the
first scalar drawn on it and a collapsed space belongs to the line before; the first line
always starts at 0 (collapsed leading spaces belong to it). A kept collapsible space (inside a
line) has a width and counts; every other character takes its last rect (as in
`hyphens_chromium.py`). A line's width is the right edge of the rightmost rect of its
characters other than spaces, tabs and newlines (the box's left is 0). Under a line clamp
Chromium lays every line out and the box shows the first N: the starts and widths compared (and
stored) are the first N, the height is the box's.

Plumb (`measure --lines --line-starts --exact-numbers`, the case's fields by their wire names,
`"compatibility": "chromium"`, the case's scale) gives the end of its last line box, its line
starts, `usedWidth` per line and its warnings. A case whose answer warns "unknown field" about
one of its fields is "not implemented" (counted per property, apart, not scored); other
warnings are counted (`warned`) and named in the disagreement classes. A case agrees when its
line starts are the same and its height is within 0.01 px; line counts are scored too, and
widths (cases whose starts agree) within two layout units and 0.001 px, apart.

`--reference-cache FILE` keeps Chromium's answers (read when made for the same cases, else
written); `--reference-only` stops after them and prints where each property changes
Chromium's layout; `--hand-checks` lays out hand cases that show Chromium's rules.
`--write-subset FILE` stores 500 cases with Chromium's answers (`chromiumHeight`,
`chromiumLineStarts`, `chromiumLineWidths`), a quarter of them misses when Plumb ran.
"""
import html
import os
import random
import re
import sys
import time
import unicodedata

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chromium_heights  # noqa: E402
import hyphens  # noqa: E402
import indents  # noqa: E402
import indents_chromium  # noqa: E402
import wrapping  # noqa: E402

TOLERANCE = 0.01
SUBSET = 500
SCAN = r"""  const node=d.firstChild; const starts=[]; const tops=[]; const boxes=[];
  const collapse=getComputedStyle(d).whiteSpaceCollapse;
  const spacesCollapse=collapse==='collapse'||collapse==='preserve-breaks'; const newlinesCollapse=collapse==='collapse';
  let scalar=0;
  if (node) { const text=node.data; const r=document.createRange();
    for (let i=0;i<text.length;) { const cp=text.codePointAt(i); const len=cp>0xffff?2:1;
      r.setStart(node,i); r.setEnd(node,i+len); const rects=r.getClientRects();
      const blank=cp===32||cp===9||cp===10; let use=null;
      if (((cp===32||cp===9)&&spacesCollapse)||(cp===10&&newlinesCollapse)) { for (const q of rects) if (q.width>0) { use=q; break; } }
      else if (rects.length) use=rects[rects.length-1];
      if (use) { const t=use.top;
        if (!tops.length || t>tops[tops.length-1]+1) { starts.push(scalar); tops.push(t); }
        if (!blank) for (const q of rects) boxes.push([q.top, q.right]); }
      i+=len; scalar++; } }
  if (starts.length) starts[0]=0;
  const lineOf=t=>{ let k=0; while (k+1<tops.length && tops[k+1]<=t+1) k++; return k; };
  const widths=tops.map(()=>0);
  for (const [t,right] of boxes) { const k=lineOf(t); widths[k]=Math.max(widths[k],right); }
"""
_PUSH = "out.push([d.getBoundingClientRect().height, starts, lefts]);"
assert indents_chromium.SCAN in indents_chromium.PAGE and _PUSH in indents_chromium.PAGE
# The indent oracle's page (its style, one div per case), with this scan.
PAGE = indents_chromium.PAGE.replace(indents_chromium.SCAN, SCAN).replace(
    _PUSH, "out.push([d.getBoundingClientRect().height, starts, widths]);")
CLAMP = "display:-webkit-box;-webkit-box-orient:vertical;-webkit-line-clamp:%d;overflow:hidden"


def property_css(fields):
    """The declarations of a case's fields (module docstring), in `wrapping.PROPERTIES` order."""
    out = []
    for prop in wrapping.PROPERTIES:
        if prop not in fields:
            continue
        v = fields[prop]
        if prop == "lineClamp":
            out.append(CLAMP % v)
        elif prop == "wordSpacing":
            out.append("word-spacing:%s" % indents_chromium.px(v))
        else:
            out.append("%s:%s" % (wrapping.CSS_NAMES[prop], v))
    return ";".join(out)


def css(case):
    """The case's declarations: width, font and its properties."""
    out = "width:%spx;font-family:%s;font-size:%spx" % (
        case["width"], ",".join("'%s'" % f for f in case["families"]), case["size"])
    extra = property_css(case["fields"])
    return out + (";" + extra if extra else "")


def div(case):
    return '<div class="c" style="%s">%s</div>' % (html.escape(css(case)), html.escape(case["text"]))


def width_tolerance(scale):
    """How far a line width may be off: two layout units, 1/(64 × scale) px each, and 0.001."""
    return 2 / (64 * scale) + 0.001


def chromium(cases, scale, chunk=2000):
    """(height, line starts, line widths) of every case in headless Chromium at `scale`, every
    line laid out (a clamp's hidden ones too)."""
    results = []
    for start in range(0, len(cases), chunk):
        page = PAGE % {"divs": "".join(div(c) for c in cases[start:start + chunk]), "tab": wrapping.TAB}
        results.extend(chromium_heights.run_page(page, scale))
    return [tuple(r) for r in results]


def base_case(case):
    """The case without its properties (the profile's base style)."""
    return dict(case, fields={})


def references(cases, cache, what="cases"):
    """Chromium's answers for `cases` (each at its own scale), from the cache when it was made
    for these cases; and whether they came from it."""
    out, all_cached = [None] * len(cases), True
    for scale in sorted({c["scale"] for c in cases}):
        index = [i for i, c in enumerate(cases) if c["scale"] == scale]
        group = [cases[i] for i in index]
        key = "chromium wrapping 1 %s %s scale %s" % (what, indents.fingerprint(group), scale)
        cached = indents.load_cache(cache, key)
        if cached is None:
            all_cached = False
            t0 = time.time()
            cached = chromium(group, scale)
            print("  Chromium laid out %d %s at scale %s in %.1f s" % (len(group), what, scale, time.time() - t0))
            indents.store_cache(cache, key, cached)
        for i, r in zip(index, cached):
            out[i] = tuple(r)
    return out, all_cached


# ---------------------------------------------------------------------------------------------
# Scoring

def not_implemented(case, mine):
    """Why Plumb did not implement the case's fields (None when it did): a warning "unknown
    field 'F'" for one of them, or a warning naming a field and its value as unknown."""
    if mine is None:
        return None
    for w in mine[3]:
        for prop in case["fields"]:
            if "unknown field '%s'" % prop in w:
                return "unknown field '%s'" % prop
    return None


def unknown_properties(case, mine):
    """The case's fields Plumb warned "unknown field" about."""
    if mine is None:
        return []
    return [p for p in case["fields"] if any("unknown field '%s'" % p in w for w in mine[3])]


def warning_kind(w):
    """A warning with its numbers and quoted text left out (a class name part)."""
    return re.sub(r"\d+(\.\d+)?", "N", re.sub(r"'[^']*'", "'…'", w))[:90]


def blank(ch):
    return ch in " \t\n"


def break_kind(text, pos):
    """How a line that ends before scalar `pos` ends."""
    if pos >= len(text):
        return "at the text's end"
    if pos <= 0:
        return "at the text's start"
    a, b = text[pos - 1], text[pos]
    if a == "\n":
        return "after a newline"
    if blank(a) and blank(b):
        return "inside a run of white space"
    if a == "\t":
        return "after a tab"
    if a == " ":
        return "after a space"
    if b in " \t":
        return "before a space"
    if b == "\n":
        return "before a newline"
    if a in hyphens.HYPHENS:
        return "after a hyphen"
    if b in wrapping.KANA_MARKS:
        return "before small kana/ー/々"
    if 0xAC00 <= ord(a) <= 0xD7AF and 0xAC00 <= ord(b) <= 0xD7AF:
        return "between Hangul"
    if hyphens.is_cjk(a) or hyphens.is_cjk(b):
        return "next to CJK"
    token = re.findall(r"\S*$", text[:pos])[0] + re.findall(r"^\S*", text[pos:])[0]
    url = bool(re.search(r"[/@\\]|://|www\.", token))
    cat = [unicodedata.category(ch)[0] for ch in (a, b)]
    if cat[0] in "LNM" and cat[1] in "LNM":
        return "inside a URL" if url else "inside a word"
    return "at punctuation in a URL" if url else "at punctuation"


def starts_class(case, theirs, mine):
    """The name of a line-start disagreement: the properties, how each engine ends the first
    line whose end differs, whether Plumb breaks earlier or later, and whether the difference
    is only where in a run of white space the next line starts (or an empty last line after a
    trailing newline, which only one engine has)."""
    text = case["text"]
    k = indents.first_differing(theirs[1], mine[1])
    ends = [s[k] if k < len(s) else len(text) for s in (theirs[1], mine[1])]
    prefix = "+".join(case["fields"]) + ": starts differ: "
    for who, s, other in (("plumb", mine[1], theirs[1]), ("chromium", theirs[1], mine[1])):
        if s[-1:] == [len(text)] and text.endswith("\n") and s[:-1] == other:
            return prefix + "%s has an empty last line after the trailing newline" % who
    name = prefix + "chromium %s, plumb %s %s" % (
        break_kind(text, ends[0]), "earlier" if ends[1] < ends[0] else "later", break_kind(text, ends[1]))
    lo, hi = sorted(ends)
    if all(blank(ch) for ch in text[lo:hi]):
        name += " (only where a run of white space ends)"
    return name


def width_class(case, theirs, mine, tolerance):
    """The name of a width disagreement, by the first line whose width differs."""
    text = case["text"]
    k = next(i for i, (a, b) in enumerate(zip(theirs[2], mine[2])) if abs(a - b) > tolerance)
    if theirs[3] and k == len(theirs[2]) - 1:
        return "%s: width only: the clamp's last line" % "+".join(case["fields"])
    d = mine[2][k] - theirs[2][k]
    end = theirs[1][k + 1] if k + 1 < len(theirs[1]) else len(text)
    seg = text[theirs[1][k]:end]
    size = "by < 0.1" if abs(d) < 0.1 else "by 0.1–1" if abs(d) < 1 else "by 1 or more"
    where = ("line ends with white space" if seg[-1:] and blank(seg[-1]) else
             "line with a run of white space" if re.search(r"[ \t]{2,}", seg) else
             "line broken inside a word" if break_kind(text, end) == "inside a word" else "other")
    return "%s: width only: %s, plumb %s %s" % ("+".join(case["fields"]), where, "wider" if d > 0 else "narrower", size)


def groups_of(case):
    """The groups a case is counted in: all, its properties, its values, its tags."""
    out = ["all"]
    for p, v in case["fields"].items():
        out += ["property " + p, "value " + wrapping.label(p, v)]
    return out + ["tag " + g for g in case["tags"]]


FIELDS = ("cases", "notImplemented", "scored", "warned", "starts", "heights", "lines", "both", "widthChecked", "widths")


def score(cases, theirs, mine, bases=None, base_mine=None):
    """Agreement per group and the disagreements.

    `theirs`: per case Chromium's (height, starts, widths) as shown (`wrapping.visible`);
    `mine`: Plumb's (height, starts, widths, warnings) or None; `bases`, `base_mine`: the same
    for the base layouts (the controls). A case agrees when its starts and its height do."""
    stats, misses, unimplemented = {}, [], {}
    for i, (c, t, m) in enumerate(zip(cases, theirs, mine)):
        why = not_implemented(c, m)
        for p in unknown_properties(c, m):
            unimplemented[p] = unimplemented.get(p, 0) + 1
        ok_m = m is not None and m[1] is not None
        same_starts = ok_m and m[1] == t[1]
        same_height = ok_m and abs(m[0] - t[0]) <= TOLERANCE
        same_lines = ok_m and len(m[1]) == len(t[1])
        w_checked = same_starts and len(m[2]) == len(t[2])
        tol = width_tolerance(c["scale"])
        # A clamp's last line shown has an ellipsis the scan does not see: not compared.
        shown = len(t[2]) - 1 if t[3] else len(t[2])
        same_w = w_checked and all(abs(a - b) <= tol for a, b in zip(m[2][:shown], t[2][:shown]))
        warned = ok_m and why is None and bool(m[3])
        for g in groups_of(c):
            s = stats.setdefault(g, {k: 0 for k in FIELDS})
            s["cases"] += 1
            if why is not None:
                s["notImplemented"] += 1
                continue
            s["scored"] += 1
            s["warned"] += warned
            s["starts"] += same_starts
            s["heights"] += same_height
            s["lines"] += same_lines
            s["both"] += same_starts and same_height
            s["widthChecked"] += w_checked
            s["widths"] += same_w
        if why is not None:
            continue
        if not ok_m:
            name = "no answer from Plumb"
        elif not same_starts:
            name = starts_class(c, t, m)
            if bases is not None and base_mine is not None:
                # The control: the base layouts up to the line whose end differs.
                k = indents.first_differing(t[1], m[1]) + 1
                bm = base_mine[i]
                differs = bm is None or bm[1] is None or bm[1][:k] != bases[i][1][:k]
                name += ", also without it" if differs else ", only with it"
        elif not same_height:
            name = "%s: height only (%s)" % ("+".join(c["fields"]), "plumb taller" if m[0] > t[0] else "plumb shorter")
        elif w_checked and not same_w:
            name = width_class(c, t, m, tol)
        else:
            continue
        misses.append((i, c, t, m, name))
    return stats, misses, unimplemented


def group_order(stats):
    """all, then per property its values, then tags."""
    order = ["all"]
    for p, values in wrapping.PROPERTIES.items():
        if "property " + p in stats:
            order.append("property " + p)
        order += ["value " + wrapping.label(p, v) for v in values if "value " + wrapping.label(p, v) in stats]
    return order + sorted(k for k in stats if k.startswith("tag ") and not k.startswith("tag +"))


def pct(n, d):
    return 100.0 * n / d if d else float("nan")


def print_stats(title, stats, file=sys.stdout, tags=True):
    print(title, file=file)
    for g in group_order(stats):
        if not tags and g.startswith("tag "):
            continue
        s = stats[g]
        ni = " (%d not implemented)" % s["notImplemented"] if s["notImplemented"] else ""
        print("  %-30s %5d cases%s: starts %6.2f %%, heights %6.2f %%, lines %6.2f %%, both %6.2f %%; "
              "widths %6.2f %% of %d; warned %d" % (
                  g, s["cases"], ni, pct(s["starts"], s["scored"]), pct(s["heights"], s["scored"]),
                  pct(s["lines"], s["scored"]), pct(s["both"], s["scored"]), pct(s["widths"], s["widthChecked"]),
                  s["widthChecked"], s["warned"]), file=file)


def describe(case):
    return "w%s %s %s scale %s {%s} [%s]" % (
        case["width"], "/".join(case["families"][:1]), case["size"], case["scale"],
        ", ".join("%s: %s" % kv for kv in case["fields"].items()), case["kind"])


def lines_around(text, starts, k):
    """The lines before and after start index `k`, joined by ⏎."""
    def seg(i):
        return text[starts[i]:starts[i + 1] if i + 1 < len(starts) else len(text)] if 0 <= i < len(starts) else ""
    return seg(k - 1) + "⏎" + seg(k)


def print_misses(misses, show, file=sys.stdout, base=None):
    """The disagreement classes with their counts (per value and kind) and `show` examples of
    each (the shortest texts)."""
    classes = {}
    for miss in misses:
        classes.setdefault(miss[4], []).append(miss)
    for name, group in sorted(classes.items(), key=lambda kv: -len(kv[1])):
        counts = {}
        for _, c, _, _, _ in group:
            for g in [wrapping.label(p, v) for p, v in c["fields"].items()] + ["text " + c["kind"]]:
                counts[g] = counts.get(g, 0) + 1
        print("  %s: %d cases (%s)" % (name, len(group), ", ".join(
            "%s %d" % kv for kv in sorted(counts.items(), key=lambda kv: -kv[1])[:8])), file=file)
        warned = {}
        for _, _, _, m, _ in group:
            for w in (m[3] if m and m[3] else [])[:1]:
                warned[warning_kind(w)] = warned.get(warning_kind(w), 0) + 1
        if warned:
            w, n = max(warned.items(), key=lambda kv: kv[1])
            print("    plumb warned on %d of them (%d: %s)" % (sum(warned.values()), n, w), file=file)
        for i, c, t, m, _ in sorted(group, key=lambda x: len(x[1]["text"]))[:show]:
            line = "    %r %s:" % (c["text"][:90], describe(c))
            if m is None or m[1] is None:
                print(line + " plumb gave no answer %s" % ((m or [None] * 4)[3],), file=file)
                continue
            k = indents.first_differing(t[1], m[1])
            line += "\n      chromium starts %s height %s; plumb starts %s height %s" % (
                indents.short(t[1], k), round(t[0], 4), indents.short(m[1], k), round(m[0], 4))
            if "width only" in name:
                line += "\n      chromium widths %s\n      plumb    widths %s" % (
                    [round(x, 3) for x in t[2][:8]], [round(x, 3) for x in m[2][:8]])
            elif "starts differ" in name:
                line += "\n      chromium %r\n      plumb    %r" % (lines_around(c["text"], t[1], k),
                                                               lines_around(c["text"], m[1], k))
                if base is not None:
                    line += "\n      base (no property): chromium %s" % indents.short(base[i][1], k)
            if m[3]:
                line += "\n      plumb warnings: %s" % "; ".join(m[3])[:200]
            print(line, file=file)


# ---------------------------------------------------------------------------------------------
# What the properties do in Chromium (without Plumb)

def effects(cases, theirs, bases):
    """Per value: cases, and how many of them the property changes Chromium's starts, line
    count or height (against the base layout), and the line counts."""
    out = {}
    for c, t, b in zip(cases, theirs, bases):
        if len(c["fields"]) > 1:
            continue
        (p, v), = c["fields"].items()
        t = wrapping.visible(c, t)
        e = out.setdefault(wrapping.label(p, v), {"cases": 0, "starts": 0, "lines": 0, "height": 0, "fewer": 0,
                                                   "more": 0})
        e["cases"] += 1
        e["starts"] += t[1] != b[1]
        e["lines"] += len(t[1]) != len(b[1])
        e["height"] += abs(t[0] - b[0]) > TOLERANCE
        e["fewer"] += len(t[1]) < len(b[1])
        e["more"] += len(t[1]) > len(b[1])
    return out


def print_effects(eff, file=sys.stdout):
    print("What each value changes in Chromium against the base style (single-property cases):", file=file)
    for p, values in wrapping.PROPERTIES.items():
        for v in values:
            e = eff.get(wrapping.label(p, v))
            if e:
                print("  %-26s %4d cases: starts change in %5.1f %%, line count in %5.1f %% (fewer %d, more %d),"
                      " height in %5.1f %%" % (wrapping.label(p, v), e["cases"], pct(e["starts"], e["cases"]),
                                               pct(e["lines"], e["cases"]), e["fewer"], e["more"],
                                               pct(e["height"], e["cases"])), file=file)


# ---------------------------------------------------------------------------------------------
# Subset

def subset_row(case, result):
    """A subset line: Plumb's request, property, kind, tags and Chromium's height, line starts
    and line widths (as shown: a clamp's first N lines)."""
    row = dict(wrapping.plumb_request(case), property=case["property"], kind=case["kind"], tags=case["tags"])
    row["chromiumHeight"], row["chromiumLineStarts"], row["chromiumLineWidths"] = result[0], result[1], result[2]
    return row


def pick_subset(cases, n, seed, misses=(), per_group=4):
    """Indices of `n` cases: up to a quarter the misses' (taken round-robin over their classes),
    then `per_group` of every value and tag not yet held, then a seeded sample."""
    rng = random.Random(seed)
    by_class = {}
    for i, name in misses:
        by_class.setdefault(name, []).append(i)
    queues = [rng.sample(v, len(v)) for _, v in sorted(by_class.items())]
    chosen = []
    while len(chosen) < n // 4 and any(queues):
        for q in queues:
            if q and len(chosen) < n // 4:
                chosen.append(q.pop())
    held = set(chosen)
    groups = {}
    for i, c in enumerate(cases):
        for g in [wrapping.label(p, v) for p, v in c["fields"].items()] + c["tags"]:
            groups.setdefault(g, []).append(i)
    for g, members in sorted(groups.items()):
        have = sum(i in held for i in members)
        for i in rng.sample(members, min(len(members), max(0, per_group - have))):
            if len(held) < n:
                held.add(i)
    rest = [i for i in range(len(cases)) if i not in held]
    held.update(rng.sample(rest, max(0, min(len(rest), n - len(held)))))
    return sorted(held)


# ---------------------------------------------------------------------------------------------
# Hand checks

# (what it shows, text, width, fields (and `families`, `size`: DejaVu Sans 15 unless given),
# expected starts at scale 1)
HAND = [
    ("normal: a breaking space is skipped, the next line starts at the next letter", "aaa   bbb   ccc", 50,
     {"whiteSpace": "normal"}, [0, 6, 12]),
    ("normal: leading spaces collapse into the first line, trailing ones vanish", "  aaa bbb  ", 50,
     {"whiteSpace": "normal"}, [0, 6]),
    ("normal: a newline is a collapsible space", "aaa\nbbb ccc", 200, {"whiteSpace": "normal"}, [0]),
    ("pre-line: spaces around a newline go, the newline breaks", "aaa  \n  bbb", 200, {"whiteSpace": "pre-line"},
     [0, 8]),
    ("pre-line: an empty line starts at its newline", "aaa\n\nbbb", 200, {"whiteSpace": "pre-line"}, [0, 4, 5]),
    ("pre-wrap (base): spaces hang at the line's end", "aaa   bbb   ccc", 50, {}, [0, 6, 12]),
    ("break-spaces: spaces do not hang; the line breaks after the last one that fits", "aaa   bbb   ccc", 40,
     {"whiteSpace": "break-spaces"}, [0, 5, 10]),
    ("nowrap: one line", "aaa bbb ccc ddd", 40, {"whiteSpace": "nowrap"}, [0]),
    ("pre: newlines break, nothing else", "aaa bbb\nccc ddd", 40, {"whiteSpace": "pre"}, [0, 8]),
    ("a trailing newline makes no line (pre-wrap)", "abc\n", 100, {}, [0]),
    ("two trailing newlines make one empty line", "abc\n\n", 100, {}, [0, 4]),
    ("line clamp 2: the box is two lines high; Chromium still lays out every line", "aaa bbb ccc ddd eee", 50,
     {"lineClamp": 2}, [0, 4, 8, 12, 16]),
    ("line clamp counts an empty line", "aaa\n\nbbb ccc ddd", 50, {"lineClamp": 2}, [0, 4, 5, 9, 13]),
    ("balance: as many lines as greedy, evened out", "aaa bbb ccc ddd eee fff ggg hhh iii jjj kkk lll", 100,
     {"textWrap": "balance"}, [0, 12, 24, 32]),
    ("pretty: a short last line takes a word from the line before", "aaa bbb ccc ddd eee fff ggg hhh iii jjj kkk "
     "lll mmm nnn ooo ppp qqq", 100, {"textWrap": "pretty"}, [0, 12, 24, 40, 52, 60]),
    ("pretty: a last line of 38 % is left alone", "aaa bbb ccc ddd eee fff ggg hhh iii jjj kkk lll mmm nnn ooo "
     "ppp qqq rrr sss ttt uuu vvv www xxx yyy zzz a", 100, {"textWrap": "pretty"},
     [0, 12, 24, 40, 52, 64, 76, 88, 100]),
    ("keep-all: no break between Hangul syllables (an overlong word still breaks: overflow-wrap)", "가나다라마 바사아자차 카타파하", 60,
     {"wordBreak": "keep-all"}, [0, 4, 6, 10, 12]),
    ("break-all: Latin breaks between any letters", "abcdef ghijkl", 50, {"wordBreak": "break-all"}, [0, 5, 12]),
    ("line-break: strict: no break before small kana or ー", "コンピューターのショッピング", 50,
     {"lineBreak": "strict"}, [0, 2, 5, 8, 11]),
    ("line-break: loose: breaks before small kana and ー", "コンピューターのショッピング", 50, {"lineBreak": "loose"}, [0, 3, 6, 9, 12]),
    ("line-break: anywhere: between any two characters, spaces still hang", "abc def-ghi", 40, {"lineBreak": "anywhere"}, [0, 4, 9]),
    ("overflow-wrap: normal lets a long word overflow", "abcdefghijklmnop qr", 50, {"overflowWrap": "normal"},
     [0, 17]),
    ("word-spacing: 10px widens every space", "aaa bbb ccc", 60, {"wordSpacing": 10}, [0, 4, 8]),
    ("a fractional box width counts in layout units: Schre (52.08) fits in 52.5", "Schreibzugriff", 52.5,
     {"families": ["Noto Sans"], "size": 20}, [0, 5, 10]),
    ("... and not in 52.05", "Schreibzugriff", 52.05, {"families": ["Noto Sans"], "size": 20}, [0, 4, 9]),
]


def hand_checks():
    """Lays the HAND cases out at scales 1 and 2 and prints what Chromium did; False when a
    check at scale 1 differs."""
    cases = [{"text": text, "families": f.get("families", ["DejaVu Sans"]), "size": f.get("size", 15), "width": w,
              "fields": {k: v for k, v in f.items() if k in wrapping.PROPERTIES}} for _, text, w, f, _ in HAND]
    ok = True
    for scale in (1, 2):
        for (what, text, w, _, want), c, (h, starts, widths) in zip(HAND, cases, chromium(cases, scale)):
            same = want is None or starts == want
            ok = ok and (same or scale != 1)
            segs = [text[a:b] for a, b in zip(starts, starts[1:] + [len(text)])]
            print("scale %s %-4s %s\n    %r w%s %s: height %s starts %s %s\n    widths %s" % (
                scale, "ok" if same else "DIFF", what, text, w, css(c), h, starts,
                " | ".join(repr(s) for s in segs), [round(x, 3) for x in widths]))
            if not same:
                print("    expected starts %s" % want)
    return ok


# ---------------------------------------------------------------------------------------------

def main():
    ap = indents.argument_parser("Chromium", "%d cases" % SUBSET)
    ap.add_argument("--scales", default="1,2", help="the device scales the cases rotate over")
    args = ap.parse_args()
    if args.hand_checks:
        return 0 if hand_checks() else 1
    cases = wrapping.load_cases(args)
    t0 = time.time()
    raw, cached = references(cases, args.reference_cache)
    raw_base, cached_base = references([base_case(c) for c in cases], args.reference_cache, "base layouts")
    theirs = [wrapping.visible(c, r) for c, r in zip(cases, raw)]
    bases = [wrapping.visible(base_case(c), r) for c, r in zip(cases, raw_base)]
    print("Chromium: %s in %.1f s; %d lines" % ("from the cache" if cached and cached_base else "laid out",
                                               time.time() - t0, sum(len(t[1]) for t in raw)))
    wrapping.reference_tags(cases, raw)
    for c, t, b in zip(cases, theirs, bases):
        c["tags"] = sorted(set(c["tags"] + ["changes-starts" if t[1] != b[1] else "same-starts"]))
    eff = effects(cases, raw, raw_base)
    print_effects(eff)
    report = {"effects": eff}
    missed = []
    if not args.reference_only:
        t0 = time.time()
        mine = wrapping.plumb(args.plumb, cases)
        base_mine = wrapping.plumb(args.plumb, [base_case(c) for c in cases])
        print("Plumb in %.1f s" % (time.time() - t0))
        stats, misses, unimplemented = score(cases, theirs, mine, bases, base_mine)
        print_stats("profile chromium against Chromium (percentages of the implemented cases):", stats)
        base_cases = [dict(base_case(c), tags=[t for t in c["tags"] if not t.startswith("+")]) for c in cases]
        base_stats, _, _ = score(base_cases, bases, base_mine)
        print_stats("the controls: the same cases without their properties (the base style):",
                    {g: s for g, s in base_stats.items() if g == "all" or g.startswith("tag text ") or g in (
                        "tag odd-width", "tag trailing-newline", "tag tab", "tag narrow")})
        if unimplemented:
            print("not implemented (Plumb warns \"unknown field\"): %s" % ", ".join(
                "%s %d cases" % kv for kv in sorted(unimplemented.items())))
        warnings = {}
        for c, m in zip(cases, mine):
            for w in (m[3] if m else []):
                warnings[warning_kind(w)] = warnings.get(warning_kind(w), 0) + 1
        if warnings:
            print("Plumb's warnings:")
            for w, n in sorted(warnings.items(), key=lambda kv: -kv[1])[:20]:
                print("  %6d  %s" % (n, w))
        print("disagreements:")
        print_misses(misses, args.show, base=bases)
        missed = [(i, name) for i, _, _, _, name in misses]
        report.update(stats=stats, notImplemented=unimplemented, warnings=warnings,
                      classes={name: sum(1 for _, n in missed if n == name) for name in {n for _, n in missed}})
    if args.write_subset:
        picked = pick_subset(cases, SUBSET, 27, missed)
        indents.write_rows(args.write_subset, [subset_row(cases[i], theirs[i]) for i in picked])
        print("wrote %d cases to %s (%d misses)" % (len(picked), args.write_subset,
                                                   len(set(picked) & {i for i, _ in missed})))
    if args.report:
        indents.write_report(args.report, report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
