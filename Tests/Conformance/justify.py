"""The cases of the justification oracles (issue 27, items 4 and 6): `justify_chromium.py`
(CSS `text-align: justify`, `text-align-last`) and `justify_pango.py` (Pango's justify and
justify-last-line) build them here, state them to Plumb here, and score them here.

Texts (`texts`, shared by both oracles; the corpus is `Benchmarks/Corpus/cells.jsonl`):

- `cell`: every corpus cell of 24 characters or more (every other English one), and every
  10th shorter one (one line: what `text-align-last` does to a lone line); Latin (English,
  German, French, Spanish, Portuguese, Vietnamese), Cyrillic, Han, Japanese, Hangul, Arabic,
  Hebrew, Thai, Devanagari and the corpus's emoji cells;
- `sentence`: 2–4 cells of one language joined into one paragraph: by a space, except
  Chinese and Japanese, which are joined without one two times in three (lines without any
  space: Chromium's CJK opportunities, Pango's `justify_clusters`);
- `paragraphs`: 2–3 cells or sentences of one language joined by "\\n" (every 5th with an
  empty paragraph, "\\n\\n");
- `mixed`: a Latin cell and a Chinese or Japanese one, joined by a space or directly.

Each text is one case: a cascade (`CASCADES`, as `hyphens.py`), a size (`indents.SIZES`),
a width (`WIDTHS`, 80–400 pt, a third of them off the whole points) and a mode (`MODES`):
`last-natural` (`"alignment": "justified"`, no `lastLineAlignment`: a paragraph's last line
natural) or `last-justified` (`"lastLineAlignment": "justified"` too), about 40 % the latter.
About 10 % of the left-to-right texts get indents (`indents.pick_indents`, kinds the indent
oracles map to the engine: first-line, hanging, both, tail-negative, tail-positive; under
`chromium` also negative and each-line), the width raised until every line has 40 pt.

Tags: the scripts (`latin`, `cyrillic`, `cjk` (Han, kana), `hangul`, `rtl` (Arabic, Hebrew),
`thai`, `devanagari`, `emoji`), `mixed` (Latin with CJK or Hangul), `multi-paragraph`,
`indent`, `last-justified`, `no-spaces` (no U+0020/U+00A0), `nbsp`, `odd-width`; and from the
reference (`reference_tags`): `wraps` or `single-line`, `no-opportunity` (a wrapped line with
no space: Pango spreads between clusters, Chromium start-aligns it unless it has CJK).

Every case is laid out twice per engine, justified and natural (no alignment): the natural
layout gives the line starts to compare the justified ones with (justification never moves a
break, in the engines or in Plumb).

Scores (`score`): a case agrees when its line starts and its height do. Where the starts
agree, the clusters are compared line by line: every reference cluster (a grapheme; line
separators left out) must have a Plumb cluster with the same start whose left x (`minX`) is
within `X_TOLERANCE` (0.02 pt), and every line's justified width (`line_width`: from its first
cluster's left to its last's right, trailing spaces and tabs left out) within the same. Also
counted: the clusters one by one, the right x (`maxX`), the agreement within `FINE` (1/64 px,
Chromium's layout unit), the line starts of the natural layouts (Plumb's against the engine's),
and whether Plumb's and the engine's own justified starts equal their natural ones (Plumb's
must, always: a case where they differ, or where Plumb's height changes, is a miss of its own
class, in capitals). Groups: all, all but odd-width, each kind, mode and tag.

Misses are named by the first thing that differs: starts (also without justification, the
plain oracles' kind, or only with it), height, or the first bad line's clusters (`x_class`:
cluster boundaries, visual order, a ligature's empty grapheme, trailing spaces or spaces only,
the width only, a box floored to the device pixel, one side stretching and the other not, one
trailing space short, a line offset as a whole, a different spread; by line kind and size).
"""
import json
import math
import os
import random
import sys
import unicodedata

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import conformance as conf  # noqa: E402
import hyphens  # noqa: E402
import indents  # noqa: E402

SIZES = indents.SIZES
CASCADES = hyphens.CASCADES
WIDTHS = [80, 87.5, 95, 100, 113.3, 120, 137, 150, 162.75, 175, 190.6, 200, 225, 241.25, 250, 275, 299.5, 300,
          333.3, 350, 377, 400]
MODES = ("last-natural", "last-justified")
X_TOLERANCE = 0.02
FINE = 1 / 64
INDENT_SHARE = 0.1
SEPARATORS = "\n\r\u2028\u2029"
TRAILING = " \t"
UNSPACED = {"zh_CN", "zh_TW", "ja"}
INDENT_KINDS = {
    "chromium": ["first-line", "hanging", "both", "tail-negative", "tail-positive", "negative", "each-line"],
    "pango": ["first-line", "hanging", "both", "tail-negative", "tail-positive"],
}


def is_separator_cluster(s):
    """Whether a cluster's text is only line separators (left out of the comparison)."""
    return s != "" and all(ch in SEPARATORS for ch in s)


def groups(cells):
    """The corpus cells without a newline, per language, in corpus order."""
    out = {}
    for c in cells:
        if "\n" in c["text"] or "\r" in c["text"] or c.get("lang") == "und":
            continue
        out.setdefault(c["lang"], []).append(c)
    return out


def texts(cells):
    """(text, kind) of every case (module docstring), in a fixed order."""
    rng = random.Random("justify-texts")
    out = []
    short = 0
    for i, c in enumerate(cells):
        t = c["text"]
        if len(t) >= 24:
            if c.get("lang") == "en" and i % 2:
                continue
            out.append((t, "cell"))
        else:
            short += 1
            if short % 10 == 0:
                out.append((t, "cell"))
    sentences = []
    by_lang = groups(cells)
    for lang in sorted(by_lang):
        pool = by_lang[lang]
        k, j = 0, 0
        while k < len(pool):
            n = rng.randint(2, 4)
            parts = [p["text"].strip() for p in pool[k:k + n]]
            k += n
            j += 1
            if len(parts) < 2 or (lang == "en" and j % 3):
                continue
            sep = "" if lang in UNSPACED and rng.random() < 2 / 3 else " "
            sentences.append((lang, sep.join(parts)))
    out += [(t, "sentence") for _, t in sentences]
    by_sentence = {}
    for lang, t in sentences:
        by_sentence.setdefault(lang, []).append(t)
    for lang in sorted(by_lang):
        pool = [p["text"] for p in by_lang[lang]]
        own = by_sentence.get(lang, [])
        for j in range(0, len(pool), 9 if lang == "en" else 4):
            n = rng.randint(2, 3)
            parts = []
            for m in range(n):
                if own and rng.random() < 0.5:
                    parts.append(own[(j + 7 * m) % len(own)])
                else:
                    parts.append(pool[(j + 5 * m + 1) % len(pool)])
            sep = "\n\n" if (j // 4) % 5 == 4 else "\n"
            out.append((sep.join(parts), "paragraphs"))
    latin = [c["text"] for c in by_lang.get("en", []) if 12 <= len(c["text"]) <= 80]
    eastern = [c["text"] for lang in ("zh_CN", "zh_TW", "ja") for c in by_lang.get(lang, [])
               if 6 <= len(c["text"]) <= 60]
    for j in range(160):
        a, b = rng.choice(latin), rng.choice(eastern)
        if j % 2:
            a, b = b, a
        out.append((a + ("" if j % 3 == 0 else " ") + b, "mixed"))
    return out


def script_tags(text):
    """The scripts of the text (module docstring): a script counts with 3 letters or more (a
    "%s" in a Chinese message is not Latin), or when it is the text's only one."""
    count = {}
    for ch in text:
        o = ord(ch)
        if conf.is_emoji(ch):
            name = "emoji"
        elif unicodedata.bidirectional(ch) in ("R", "AL"):
            name = "rtl"
        elif not unicodedata.category(ch).startswith("L"):
            continue
        elif 0xAC00 <= o <= 0xD7AF or 0x1100 <= o <= 0x11FF or 0x3130 <= o <= 0x318F:
            name = "hangul"
        elif hyphens.is_cjk(ch):
            name = "cjk"
        elif 0x0400 <= o <= 0x052F:
            name = "cyrillic"
        elif 0x0E00 <= o <= 0x0E7F:
            name = "thai"
        elif 0x0900 <= o <= 0x097F:
            name = "devanagari"
        elif o < 0x0250 or 0x1E00 <= o <= 0x1EFF:
            name = "latin"
        else:
            continue
        count[name] = count.get(name, 0) + 1
    found = {k for k, v in count.items() if v >= 3 or k in ("emoji", "rtl")}
    if not found and count:
        found = {max(count, key=count.get)}
    tags = sorted(found)
    if "latin" in found and found & {"cjk", "hangul"}:
        tags.append("mixed")
    return tags


def pick_width(case, k, rng, inside):
    """Raises the width through WIDTHS (from index `k`) until every line has `MIN_LINE`
    points (the indent oracles' rule)."""
    while True:
        case["width"] = WIDTHS[k]
        if inside is not None:
            case["tailIndent"] = round(case["width"] - inside, 6)
        if min(indents.line_widths(case)) >= indents.MIN_LINE or k == len(WIDTHS) - 1:
            return
        k += 1


def make_cases(cells, profile):
    """The cases of one oracle (`profile`: "chromium" or "pango"), in a fixed order."""
    rng = random.Random("justify-27-" + profile)
    kinds = INDENT_KINDS[profile]
    weights = [indents.WEIGHTS[k] for k in kinds]
    cases = []
    for i, (text, kind) in enumerate(texts(cells)):
        c = (i + i // 97) % len(CASCADES)
        case = {"text": text, "families": CASCADES[c], "size": SIZES[(7 * i + c) % len(SIZES)], "kind": kind,
                "alignment": "justified"}
        mode = "last-justified" if rng.random() < 0.4 else "last-natural"
        if mode == "last-justified":
            case["lastLineAlignment"] = "justified"
        case["mode"] = mode
        indent = None
        if indents.left_to_right(text) and rng.random() < INDENT_SHARE:
            indent = rng.choices(kinds, weights)[0]
            case.update(indents.pick_indents(indent, rng))
            if profile == "chromium" and indent == "hanging" and rng.random() < 0.5:
                case["cssHanging"] = True
        inside = case.pop("tailInside", None)
        pick_width(case, (5 * i + i // 8) % len(WIDTHS), rng, inside)
        if indent:
            case["indentKind"] = indent
        case["tags"] = tags(case)
        cases.append(case)
    return cases


def tags(case):
    """The groups a case is scored in besides its kind and mode."""
    text = case["text"]
    t = script_tags(text)
    if len(indents.paragraph_starts(text)) > 1:
        t.append("multi-paragraph")
    if "indentKind" in case:
        t.append("indent")
    if case["mode"] == "last-justified":
        t.append("last-justified")
    if " " not in text and "\u00a0" not in text:
        t.append("no-spaces")
    if "\u00a0" in text:
        t.append("nbsp")
    if not float(case["width"]).is_integer():
        t.append("odd-width")
    return sorted(set(t))


def reference_tags(cases, theirs):
    """Adds `wraps` / `single-line` and `no-opportunity` (a wrapped line without a space)."""
    for c, t in zip(cases, theirs):
        text, starts = c["text"], t[1]
        extra = ["wraps" if any(s not in indents.paragraph_starts(text) for s in starts[1:]) else "single-line"]
        for k in range(len(starts) - 1):
            if starts[k + 1] in indents.paragraph_starts(text):
                continue
            line = line_text(text, starts, k)
            if " " not in line and "\u00a0" not in line:
                extra.append("no-opportunity")
                break
        c["tags"] = sorted(set(c["tags"] + extra))


def load_cases(args, profile):
    """The cases of `profile` made from the corpus `args` name, with their count per kind,
    mode and indent printed."""
    cells = [json.loads(l) for l in open(args.corpus, encoding="utf-8") if l.strip()]
    if args.limit:
        cells = cells[:args.limit]
    cases = make_cases(cells, profile)
    count = {}
    for c in cases:
        for k in ("kind " + c["kind"], "mode " + c["mode"], "indent " + c.get("indentKind", "none")):
            count[k] = count.get(k, 0) + 1
    print("%d cases: %s" % (len(cases), ", ".join("%s %d" % kv for kv in sorted(count.items()))))
    return cases


REQUEST_FIELDS = ("text", "families", "size", "width", "alignment", "lastLineAlignment") + indents.INDENT_FIELDS


def plumb_request(case, profile, scale=None, natural=False):
    """The JSON Lines request that states `case` to Plumb (`natural`: without the alignment
    fields, Plumb's default natural alignment)."""
    r = {k: case[k] for k in REQUEST_FIELDS if k in case}
    if natural:
        r.pop("alignment", None)
        r.pop("lastLineAlignment", None)
    r["compatibility"] = profile
    if scale is not None:
        r["scale"] = scale  # also 1: Plumb's default scale is 2
    return r


def plumb(binary, cases, profile, scale=None):
    """Per case (exact height, line starts, clusters per line [[start, end, minX, maxX]], line
    box rects, natural height, natural line starts) from `plumb measure`, or None."""
    justified = conf.measure_requests(binary, [plumb_request(c, profile, scale) for c in cases],
                                      "--lines", "--line-starts", "--clusters", "--exact-numbers")
    natural = conf.measure_requests(binary, [plumb_request(c, profile, scale, natural=True) for c in cases],
                                    "--lines", "--line-starts", "--exact-numbers")
    results = []
    for c, o, n in zip(cases, justified, natural):
        if not o or "lineStarts" not in o or "clusters" not in o:
            results.append(None)
            continue
        boxes = o.get("lineBoxes") or []
        exact = boxes[-1]["rect"][1] + boxes[-1]["rect"][3] if boxes else 0.0
        clusters = [[q for q in line if not is_separator_cluster(c["text"][q[0]:q[1]])] for line in o["clusters"]]
        n_exact, n_starts = None, None
        if n and "lineStarts" in n:
            nb = n.get("lineBoxes") or []
            n_exact = nb[-1]["rect"][1] + nb[-1]["rect"][3] if nb else 0.0
            n_starts = n["lineStarts"]
        results.append((exact, o["lineStarts"], clusters, [b["rect"] for b in boxes], n_exact, n_starts))
    return results


def per_line(starts, clusters):
    """Flat clusters [[start, minX, maxX], …] grouped by the line they start on."""
    lines = [[] for _ in starts]
    k = 0
    for q in sorted(clusters, key=lambda q: q[0]):
        while k + 1 < len(starts) and q[0] >= starts[k + 1]:
            k += 1
        lines[k].append(q)
    return lines


def content(text, line):
    """A line's clusters without its logical trailing spaces and tabs (`line`: [start, minX,
    maxX, …] in logical order)."""
    keep = list(line)
    while keep and text[keep[-1][0]] in TRAILING:
        keep.pop()
    return keep


def line_width(text, line):
    """A line's justified width: from the left of its leftmost cluster to the right of its
    rightmost, trailing spaces and tabs left out. A trailing space whose box ends where the
    content does and starts inside it cuts the content there: Pango's `justify_clusters` takes
    its last half gap back from the run's last glyph, the zeroed trailing space (its width turns
    negative), not from the last cluster, whose box then ends half a gap past the line."""
    keep = content(text, line)
    if not keep:
        return 0.0
    left, right = min(q[1] for q in keep), max(q[2] for q in keep)
    for q in line[len(keep):]:
        if abs(q[2] - right) < 1e-6 and left < q[1] < right:
            right = q[1]
    return right - left


def available(case, start, profile):
    """The width between the indents of the line that starts at scalar `start`."""
    first, other = indents.line_widths(case)
    return first if indents.is_first_line(case, start, profile) else other


def is_last_line(text, starts, k):
    """Whether line `k` ends its paragraph (the next line starts one, or the text ends)."""
    return k + 1 == len(starts) or starts[k + 1] in indents.paragraph_starts(text)


def mine_lines(m):
    """Plumb's clusters per line as [start, minX, maxX, end]."""
    return [[[q[0], q[2], q[3], q[1]] for q in line] for line in m[2]]


def compare_clusters(case, theirs, mine, tolerance):
    """Per line (same starts): (clusters compared, within `tolerance` on the left x, within
    FINE, right x within tolerance, same cluster starts, width within tolerance, the first bad
    cluster index or None)."""
    text = case["text"]
    ours = mine_lines(mine)
    out = []
    for k, t_line in enumerate(theirs):
        m_line = ours[k] if k < len(ours) else []
        by_start = {q[0]: q for q in m_line}
        same_set = sorted(by_start) == sorted(q[0] for q in t_line)
        n = ok = fine = right = 0
        first_bad = None
        for j, q in enumerate(t_line):
            p = by_start.get(q[0])
            n += 1
            good = p is not None and abs(p[1] - q[1]) <= tolerance
            ok += good
            fine += p is not None and abs(p[1] - q[1]) <= FINE + 1e-9
            right += p is not None and abs(p[2] - q[2]) <= tolerance
            if not good and first_bad is None:
                first_bad = j
        width_ok = abs(line_width(text, t_line) - line_width(text, sorted(m_line))) <= tolerance
        out.append((n, ok, fine, right, same_set, width_ok, first_bad))
    return out


STAT_KEYS = ("cases", "starts", "heights", "both", "naturalStarts", "plumbSelfStarts", "plumbSelfHeights",
             "engineSelfStarts", "checked", "x", "xFine", "widths", "clusters", "clustersX", "clustersFine",
             "clustersRight", "lines", "linesWidth")


def score(cases, theirs, mine, height_agrees, profile, scale=2, tolerance=X_TOLERANCE):
    """Agreement per group ('all', each kind, mode, tag) and the disagreements (`scale`: the
    device pixels per point Plumb was given; 2, its default, for `pango`).

    `theirs`: per case (height, starts, clusters per line [[start, minX, maxX]], natural
    height, natural starts); `mine`: `plumb`'s or None."""
    stats, misses = {}, []
    for c, t, m in zip(cases, theirs, mine):
        names = ["all", "kind " + c["kind"], "mode " + c["mode"]] + ["tag " + g for g in c["tags"]]
        if "odd-width" not in c["tags"]:
            names.append("all but odd-width")
        row = dict.fromkeys(STAT_KEYS, 0)
        row["cases"] = 1
        row["engineSelfStarts"] = t[4] == t[1]
        if m is not None:
            row["starts"] = m[1] == t[1]
            row["heights"] = height_agrees(m[0], t[0])
            row["both"] = row["starts"] and row["heights"]
            row["naturalStarts"] = m[5] == t[4]
            row["plumbSelfStarts"] = m[5] == m[1]
            row["plumbSelfHeights"] = m[4] is not None and abs(m[4] - m[0]) < 1e-9
        lines = None
        if row["starts"]:
            lines = compare_clusters(c, t[2], m, tolerance)
            row["checked"] = 1
            row["x"] = all(l[1] == l[0] and l[4] for l in lines)
            row["xFine"] = all(l[2] == l[0] and l[4] for l in lines)
            row["widths"] = all(l[5] for l in lines)
            row["clusters"] = sum(l[0] for l in lines)
            row["clustersX"] = sum(l[1] for l in lines)
            row["clustersFine"] = sum(l[2] for l in lines)
            row["clustersRight"] = sum(l[3] for l in lines)
            row["lines"] = len(lines)
            row["linesWidth"] = sum(l[5] for l in lines)
        for g in names:
            s = stats.setdefault(g, dict.fromkeys(STAT_KEYS, 0))
            for k, v in row.items():
                s[k] += v
        if m is None:
            misses.append((c, t, m, "no answer from Plumb"))
            continue
        if m[5] is not None and m[5] != m[1]:
            misses.append((c, t, m, "PLUMB'S OWN LINE STARTS CHANGE WITH JUSTIFICATION"))
        elif m[4] is not None and abs(m[4] - m[0]) >= 1e-9:
            misses.append((c, t, m, "PLUMB'S OWN HEIGHT CHANGES WITH JUSTIFICATION"))
        if not row["starts"]:
            misses.append((c, t, m, starts_class(c, t, m)))
        elif not row["heights"]:
            misses.append((c, t, m, "height only"))
        elif not (row["x"] and row["widths"]):
            misses.append((c, t, m, x_class(c, t, m, lines, profile, tolerance, scale)))
    return stats, misses


def starts_class(case, theirs, mine):
    """A line-start miss: also without justification (the natural layouts differ too: the
    plain oracles' kind) or only with it; and which line first differs."""
    where = indents.difference(case, theirs[1], mine[1])
    if mine[5] is not None and mine[5] != theirs[4]:
        return "starts differ also without justification: " + where
    return "starts differ only with justification: " + where


def line_text(text, starts, k):
    """The text of line `k` without its trailing spaces, tabs and line separators."""
    return text[starts[k]:starts[k + 1] if k + 1 < len(starts) else len(text)].rstrip(TRAILING + SEPARATORS)


def is_ideographic(ch):
    """Han, kana, CJK symbols and fullwidth forms (`hyphens.is_cjk` without Hangul)."""
    o = ord(ch)
    return hyphens.is_cjk(ch) and not (0xAC00 <= o <= 0xD7AF or 0x1100 <= o <= 0x11FF or 0x3130 <= o <= 0x318F)


def line_kind(body):
    """What a line can stretch at: 'spaces', 'CJK' (ideographs, kana), 'spaces and CJK',
    'neither'."""
    spaces = " " in body or "\u00a0" in body
    cjk = any(is_ideographic(ch) for ch in body)
    return "spaces and CJK" if spaces and cjk else "spaces" if spaces else "CJK" if cjk else "neither"


def order_differs(body, by_start):
    """Whether Plumb puts two of the line's clusters (`body`: the engine's, trailing spaces
    left out; both wider than 0.05) in the other visual order."""
    wide = [q for q in body if q[2] - q[1] > 0.05 and by_start[q[0]][2] - by_start[q[0]][1] > 0.05]
    wide.sort(key=lambda q: q[1] + q[2])
    return any(by_start[a[0]][1] + by_start[a[0]][2] > by_start[b[0]][1] + by_start[b[0]][2] + 0.01
               for a, b in zip(wide, wide[1:]))


def x_class(case, theirs, mine, lines, profile, tolerance, scale):
    """A cluster or width miss where the starts and height agree, named by its first bad line
    (checked in this order): cluster boundaries that differ; clusters in another visual order
    (bidi); a cluster Plumb makes empty where the engine's has width (a ligature's second
    grapheme); only trailing spaces, or only spaces, off; only the line's width (every left x
    agrees); a line Plumb stretches to its box floored to the device pixel; a line one side
    stretched and the other did not (its width
    at the available width); a line offset as a whole; both stretched but spread differently
    (by what the line stretches at); other. "(rtl)" when the line has right-to-left letters."""
    text = case["text"]
    starts = theirs[1]
    ours = mine_lines(mine)
    k = next(i for i, l in enumerate(lines) if not (l[1] == l[0] and l[4] and l[5]))
    n, ok, fine, right, same_set, width_ok, bad = lines[k]
    t_line, m_line = theirs[2][k], sorted(ours[k])
    last = "last line" if is_last_line(text, starts, k) else "wrapped line"
    body_text = line_text(text, starts, k)
    rtl = " (rtl)" if not indents.left_to_right(body_text) else ""
    if not same_set:
        return "x: cluster boundaries differ" + rtl
    by_start = {q[0]: q for q in m_line}
    body = content(text, t_line)
    if order_differs(body, by_start):
        return "x: another visual order (bidi)" + rtl
    if any(q[2] - q[1] > 0.05 and by_start[q[0]][2] - by_start[q[0]][1] < 0.001 and text[q[0]] not in " \u00a0"
           for q in body):
        return "x: plumb makes a cluster empty that the engine gives width (a ligature's graphemes)" + rtl
    off = [q for q in t_line if abs(by_start[q[0]][1] - q[1]) > tolerance]
    if off and all(q not in body for q in off) and width_ok:
        return "x: only trailing spaces differ (%s)%s" % (last, rtl)
    if off and all(text[q[0]] in " \u00a0" for q in off) and width_ok:
        return "x: only spaces differ, the other clusters agree (%s)%s" % (last, rtl)
    avail = available(case, starts[k], profile)
    tw, mw = line_width(text, t_line), line_width(text, m_line)
    t_full, m_full = abs(tw - avail) <= 0.05, abs(mw - avail) <= 0.05
    kind = line_kind(body_text)
    if not off:
        return "x: only the line's width differs: its last cluster ends elsewhere (%s, %s)%s" % (last, kind, rtl)
    grid = avail - (case["width"] - math.floor(case["width"] * scale + 1e-9) / scale)
    if t_full and grid < avail - 0.01 and abs(mw - grid) <= 0.05:
        return "x: %s, plumb stretches it to the box floored to the device pixel%s" % (last, rtl)
    if tw > avail + 0.05:
        return "x: %s, the engine's clusters end past the width (%s)%s" % (last, kind, rtl)
    spaces = [q for q in m_line[len(content(text, m_line)):] if text[q[0]] == " "]
    if m_full and spaces and abs(tw - (avail - (spaces[0][2] - spaces[0][1]))) <= 0.05:
        return "x: %s, the engine stretches it to one trailing space short of the width (%s)%s" % (last, kind, rtl)
    if t_full and not m_full:
        return "x: %s, the engine stretches it, plumb does not (%s)%s" % (last, kind, rtl)
    if m_full and not t_full:
        return "x: %s, plumb stretches it, the engine does not (%s)%s" % (last, kind, rtl)
    diffs = [by_start[q[0]][1] - q[1] for q in t_line]
    size = bucket(max(abs(d) for d in diffs)) if diffs else "?"
    if diffs and max(diffs) - min(diffs) <= tolerance:
        return "x: %s offset as a whole (%s, by %s)%s" % (last, "stretched" if t_full else "natural", size, rtl)
    emoji = ", emoji" if any(conf.is_emoji(ch) for ch in body_text) else ""
    if t_full and m_full:
        return "x: %s stretched by both, spread differently (%s%s; off by %s)%s" % (last, kind, emoji, size, rtl)
    return "x: %s, other (%s%s; off by %s)%s" % (last, kind, emoji, size, rtl)


def bucket(d):
    """A size class of a difference in points."""
    return "up to 1/32" if d <= 1 / 32 + 1e-9 else "up to 0.25" if d <= 0.25 else "up to 1" if d <= 1 else "over 1"


def print_stats(title, stats, file=sys.stdout, fine=False):
    """One line per group: cases, starts, heights, both, natural starts, cluster x, widths,
    Plumb's own starts unchanged by justification, the engine's."""
    print(title, file=file)
    order = ["all", "all but odd-width"] + sorted(k for k in stats if k.startswith("kind ")) + sorted(
        k for k in stats if k.startswith("mode ")) + sorted(k for k in stats if k.startswith("tag "))
    for g in order:
        s = stats[g]
        n, ch = s["cases"], max(1, s["checked"])
        line = ("  %-20s %5d: starts %6.2f %% (natural %6.2f %%), heights %6.2f %%, both %6.2f %%; of %d: "
                "cluster x %6.2f %%" % (g, n, 100.0 * s["starts"] / n, 100.0 * s["naturalStarts"] / n,
                                          100.0 * s["heights"] / n, 100.0 * s["both"] / n, s["checked"],
                                          100.0 * s["x"] / ch))
        if fine:
            line += " (1/64 px %6.2f %%)" % (100.0 * s["xFine"] / ch)
        line += ", widths %6.2f %%; clusters %6.2f %% of %d; own starts: plumb %6.2f %%, engine %6.2f %%" % (
            100.0 * s["widths"] / ch, 100.0 * s["clustersX"] / max(1, s["clusters"]), s["clusters"],
            100.0 * s["plumbSelfStarts"] / n, 100.0 * s["engineSelfStarts"] / n)
        print(line, file=file)


def describe(case):
    """The case's width, font, mode and indents, for a miss line."""
    fields = ", ".join("%s %s" % (k, case[k]) for k in indents.INDENT_FIELDS if k in case)
    return "w%s %s %s [%s, %s]%s" % (case["width"], "/".join(case["families"][:2]), case["size"], case["kind"],
                                     case["mode"], " {%s}" % fields if fields else "")


def detail(case, name, theirs, mine, engine):
    """The lines a miss prints under its case: the first bad line's clusters side by side."""
    if mine is None:
        return None
    if name.startswith("starts") or name.startswith("PLUMB"):
        a, b = indents.first_difference(case["text"], theirs[1], mine[1])
        out = "\n      %s %r\n      plumb  %r" % (engine, a, b)
        if name.startswith("PLUMB"):
            out += "\n      plumb natural starts %s height %s" % (mine[5], mine[4])
        return out
    if not name.startswith("x:"):
        return None
    text = case["text"]
    lines = compare_clusters(case, theirs[2], mine, X_TOLERANCE)
    k = next(i for i, l in enumerate(lines) if not (l[1] == l[0] and l[4] and l[5]))
    t_line = theirs[2][k]
    by_start = {q[0]: q for q in mine_lines(mine)[k]}
    j = lines[k][6] or 0
    shown = t_line[max(0, j - 2):j + 4]
    cells = ["%r %.3f|%s" % (text[q[0]], q[1], "%.3f" % by_start[q[0]][1] if q[0] in by_start else "-")
             for q in shown]
    return "\n      line %d %r: width %s %.3f, plumb %.3f (box %s)\n      left x %s|plumb: %s" % (
        k, text[theirs[1][k]:theirs[1][k + 1] if k + 1 < len(theirs[1]) else len(text)][:60],
        engine, line_width(text, t_line), line_width(text, sorted(mine_lines(mine)[k])),
        [round(v, 3) for v in mine[3][k]] if k < len(mine[3]) else None, engine, ", ".join(cells))


def print_misses(misses, engine, show, file=sys.stdout):
    """The disagreement classes with their counts (per kind, mode and tag) and `show`
    examples of each, the shortest texts first."""
    classes = {}
    for miss in sorted(misses, key=lambda miss: len(miss[0]["text"])):
        classes.setdefault(miss[3], []).append(miss)
    for name, group in sorted(classes.items(), key=lambda kv: -len(kv[1])):
        counts = {}
        for c, _, _, _ in group:
            for g in [c["kind"]] + c["tags"]:
                counts[g] = counts.get(g, 0) + 1
        print("  %s: %d cases (%s)" % (name, len(group), ", ".join("%s %d" % kv for kv in sorted(counts.items()))),
              file=file)
        for c, t, m, _ in group[:show]:
            line = "    %r %s:" % (c["text"][:70], describe(c))
            if m is None:
                print(line + " plumb gave no answer", file=file)
                continue
            k = indents.first_differing(t[1], m[1])
            line += "\n      %s starts %s height %s; plumb starts %s height %s" % (
                engine, indents.short(t[1], k), t[0], indents.short(m[1], k), m[0])
            extra = detail(c, name, t, m, engine)
            if extra:
                line += extra
            print(line, file=file)


def subset_row(case, profile, engine, result, scale=None):
    """A subset line: Plumb's request, kind, mode, tags and the engine's height, line starts
    and clusters per line ([startScalar, minX], points from the box's left, to 1/10,000 pt:
    the stored subsets stay small)."""
    row = dict(plumb_request(case, profile, scale), kind=case["kind"], mode=case["mode"], tags=case["tags"])
    if case.get("cssHanging"):
        row["cssHanging"] = True
    row[engine + "Height"], row[engine + "LineStarts"] = result[0], result[1]
    row[engine + "Clusters"] = [[[c[0], round(c[1], 4)] for c in line] for line in result[2]]
    return row


def pick_subset(cases, n, seed, misses=()):
    """`hyphens.pick_subset`: a quarter misses, then every kind × mode and tag, then a sample."""
    return hyphens.pick_subset(cases, n, seed, misses)


def argument_parser(engine, subset):
    """`indents.argument_parser` (`--write-subset`, `--report`, `--show`, `--reference-cache`,
    `--reference-only`, `--hand-checks`, `--limit`, `--corpus`, `--plumb`)."""
    return indents.argument_parser(engine, subset)


def wait_note(binary):
    """A reason Plumb cannot be asked (no binary, or one without `--clusters`), or None."""
    import subprocess
    if not os.path.exists(binary):
        return "no Plumb binary at %s" % binary
    out = subprocess.run([binary, "measure", "--help"], capture_output=True).stdout.decode("utf-8", "replace")
    if "--clusters" not in out:
        return "%s has no --clusters (rebuild it)" % binary
    return None
