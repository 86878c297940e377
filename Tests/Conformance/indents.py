"""The cases of the indent oracles (issue 27, items 1 and 6): `indents_chromium.py` and
`indents_pango.py` build them here, state them to Plumb here, and score them here.

Texts are the corpus's (`Benchmarks/Corpus/cells.jsonl`): every cell, then every third cell
joined to another by a newline (every fifth pair by an empty paragraph, `\\n\\n`, every seventh
with a third paragraph), then 300 Latin cells with their first and third spaces turned into tabs (CSS
`tab-size: 28px`, a Pango tab array of one 28-pt stop, Plumb's `tabInterval` 28: every engine
puts a stop every 28 points, so the cases ask only where the stops are counted from). Family
cascade, size and width rotate as in `chromium_heights.py`; `line-height: normal`. Every text is
used twice (`rounds`), each time with another cascade, size, width and indent.

Each case gets one indent kind, its values drawn from fixed lists by a seeded generator:

- `none`: no indent (a control: the same texts, the plain oracles' rules);
- `first-line`: firstLineHeadIndent 7.3–60, nothing else;
- `hanging`: headIndent 7.3–40, the first line at 0 (under `chromium` half of them are written
  with CSS `text-indent: X hanging` instead of padding and a negative text-indent);
- `both`: first-line and head indents both above 0, either larger;
- `tail-negative`: tailIndent −5…−60, half of them with a first-line or head indent too;
- `tail-positive`: tailIndent a little below the width (0.5–40 pt inside it), half with others;
- `negative` (`chromium` only): firstLineHeadIndent below headIndent, down to −40 (a negative
  CSS text-indent; the first line may start left of the box);
- `each-line` (`chromium` only, mostly on texts of several paragraphs): `indentEachLine`.

Widths are raised (through the width list) until every line has at least 40 pt, except for the
`narrow` cases (every 40th: 10–40 pt per line). Scores are kept per kind and per tag: the kind;
`multi-paragraph` (the text has a paragraph break), `odd` (an indent off the whole points),
`narrow`, `tab`, `separator` (`pango` only: two cells joined by U+2028, U+2029, CR LF or CR),
`outdent` (first line left of the other lines), `left-of-box` (left of the box's edge),
`css-hanging`; and `all but tab, separator`.

A case whose line starts differ gets a control (`controls`): its text from where the differing
line's width begins, without indents, at that width. When the engines break the control the same
way the disagreement is the indents' ("only with indents", with what the line has to do with:
a tab, a U+2028 before it); else it is the plain oracles' kind ("also without indents").
"""
import argparse
import hashlib
import json
import os
import random
import sys
import unicodedata

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chromium_heights  # noqa: E402
import conformance as conf  # noqa: E402

SIZES = chromium_heights.SIZES
TAB = 28
FIRST = [10, 12, 15, 16.5, 20, 24, 25, 30, 32, 40, 45, 50, 60, 7.3, 12.75, 33.3, 18.6]
HEAD = [10, 12, 15, 20, 25, 30, 40, 7.3, 12.75, 17.5, 22.4]
TAIL_NEGATIVE = [-5, -8, -10, -15, -20, -25, -30, -40, -50, -60, -7.3, -12.75, -33.3]
TAIL_INSIDE = [0.5, 2, 5, 8, 10, 15, 20, 30, 40, 7.3, 12.75]
OUTDENT = [5, 7.3, 10, 12.75, 15, 20, 25, 30, 40]
MIN_LINE = 40
KINDS = {
    "chromium": ["none", "first-line", "hanging", "both", "tail-negative", "tail-positive", "negative", "each-line"],
    "pango": ["none", "first-line", "hanging", "both", "tail-negative", "tail-positive"],
}
WEIGHTS = {"none": 1, "first-line": 3, "hanging": 3, "both": 3, "tail-negative": 2, "tail-positive": 2,
           "negative": 3, "each-line": 2}
INDENT_FIELDS = ("firstLineHeadIndent", "headIndent", "tailIndent", "indentEachLine")


SEPARATORS = ["\u2028", "\u2029", "\r\n", "\r"]


def texts(cells, profile):
    """(text, source tag) of every case: each cell, joined cells, tab cells; under `pango` also
    cells joined by U+2028 (a line break inside a paragraph), U+2029, CR LF and CR (Chromium's
    HTML parser turns CR into LF, and U+2028/U+2029 break no line under pre-wrap)."""
    out = [(c["text"], "cell") for c in cells]
    n = len(cells)
    for i in range(0, n, 3):
        a, b = cells[i]["text"], cells[(7 * i + 1) % n]["text"]
        sep = "\n\n" if (i // 3) % 5 == 4 else "\n"
        t = a + sep + b
        if (i // 3) % 7 == 6:
            t += "\n" + cells[(11 * i + 5) % n]["text"]
        out.append((t, "joined"))
    tabbed = 0
    for i, c in enumerate(cells):
        t = c["text"]
        if c.get("script") != "Latin" or t.count(" ") < 4 or "\n" in t or i % 3:
            continue
        spaces = [k for k, ch in enumerate(t) if ch == " "]
        for k in (spaces[0], spaces[2]):
            t = t[:k] + "\t" + t[k + 1:]
        out.append((t, "tab"))
        tabbed += 1
        if tabbed == 300:
            break
    if profile == "pango":
        for j, i in enumerate(range(0, n, max(1, n // 200))):
            out.append((cells[i]["text"] + SEPARATORS[j % 4] + cells[(13 * i + 2) % n]["text"], "separator"))
    return out


def line_end(case):
    """Where lines end, from the box's leading edge (UIKit's tail rule)."""
    t, w = case.get("tailIndent", 0), case["width"]
    return min(t, w) if t > 0 else w + t


def line_widths(case):
    """(first line's width, other lines' width)."""
    end = line_end(case)
    return end - case.get("firstLineHeadIndent", 0), end - case.get("headIndent", 0)


def pick_indents(kind, rng):
    """The indent fields of one case of `kind` (tail-positive: the gap inside the width)."""
    r = {}
    if kind == "first-line":
        r["firstLineHeadIndent"] = rng.choice(FIRST)
    elif kind == "hanging":
        r["headIndent"] = rng.choice(HEAD)
    elif kind == "both":
        a, b = rng.choice(FIRST), rng.choice(HEAD)
        if a == b:
            a += 5
        if rng.random() < 0.4:
            a, b = min(a, b), max(a, b)
        r["firstLineHeadIndent"], r["headIndent"] = a, b
    elif kind in ("tail-negative", "tail-positive"):
        if kind == "tail-negative":
            r["tailIndent"] = rng.choice(TAIL_NEGATIVE)
        else:
            r["tailInside"] = rng.choice(TAIL_INSIDE)
        extra = rng.random()
        if extra < 0.25:
            r["firstLineHeadIndent"] = rng.choice(FIRST)
        elif extra < 0.5:
            r["headIndent"] = rng.choice(HEAD)
    elif kind == "negative":
        head = rng.choice([0, 0] + HEAD)
        r["headIndent"] = head
        r["firstLineHeadIndent"] = round(head - rng.choice(OUTDENT), 6)
    elif kind == "each-line":
        r["indentEachLine"] = True
        style = rng.random()
        if style < 0.4:
            r["firstLineHeadIndent"] = rng.choice(FIRST)
        elif style < 0.6:
            r["headIndent"] = rng.choice(HEAD)
        elif style < 0.8:
            r["firstLineHeadIndent"], r["headIndent"] = rng.choice(FIRST), rng.choice(HEAD)
        else:
            head = rng.choice(HEAD)
            r["headIndent"], r["firstLineHeadIndent"] = head, round(head - rng.choice(OUTDENT), 6)
        if rng.random() < 0.3:
            r["tailIndent"] = rng.choice(TAIL_NEGATIVE)
    return {k: v for k, v in r.items() if v}


def make_cases(cells, profile, rounds=2):
    """The cases of one oracle (`profile`: "chromium" or "pango"), in a fixed order: every text
    `rounds` times, each time in another cascade, size and width, with other indents."""
    rng = random.Random("indents-27-" + profile)
    kinds = KINDS[profile]
    weights = [WEIGHTS[k] for k in kinds]
    cases = []
    every = texts(cells, profile)
    for i, (text, source) in ((r * len(every) + j, t) for r in range(rounds) for j, t in enumerate(every)):
        r = i // len(every)
        c = (i + r) % len(conf.CASCADES)
        kind = rng.choices(kinds, weights)[0]
        if source == "joined" and profile == "chromium" and rng.random() < 0.3:
            kind = "each-line"
        if source == "cell" and kind == "each-line" and "\n" not in text and rng.random() < 0.7:
            kind = "negative"
        case = {"text": text, "families": conf.CASCADES[c], "size": SIZES[(7 * i + c) % len(SIZES)], "kind": kind,
                "source": source}
        case.update(pick_indents(kind, rng))
        narrow = i % 40 == 17 and kind != "none"
        widths = conf.WIDTHS
        k = (5 * i + i // 8 + 3 * r) % len(widths)
        if narrow:
            case["width"] = rng.choice([50, 60, 70, 80, 90])
        else:
            case["width"] = widths[k]
        inside = case.pop("tailInside", None)
        while True:
            if inside is not None:
                case["tailIndent"] = round(case["width"] - inside, 6)
            shortest = min(line_widths(case))
            if narrow or shortest >= MIN_LINE or k == len(widths) - 1:
                break
            k += 1
            case["width"] = widths[k]
        if narrow:
            # 10–40 pt per line: move the tail until the narrowest line is in that range.
            while min(line_widths(case)) < 10:
                case["width"] += 10
                if inside is not None:
                    case["tailIndent"] = round(case["width"] - inside, 6)
            if min(line_widths(case)) > 40 and kind in ("first-line", "hanging", "both"):
                case["tailIndent"] = -round(min(line_widths(case)) - 25, 6)
        if source == "tab":
            case["tabInterval"] = TAB
        if profile == "chromium" and kind == "hanging" and rng.random() < 0.5:
            case["cssHanging"] = True
        case["tags"] = tags(case, narrow)
        cases.append(case)
    return cases


def argument_parser(engine, subset):
    """The options both oracles take; `engine` names the reference, `subset` the stored cases."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--plumb", default=os.path.join(conf.ROOT, ".build/release/plumb"))
    ap.add_argument("--corpus", default=os.path.join(conf.ROOT, "Benchmarks/Corpus/cells.jsonl"))
    ap.add_argument("--limit", type=int, default=0, help="only the first N corpus cells")
    ap.add_argument("--show", type=int, default=3, help="examples per disagreement class")
    ap.add_argument("--write-subset", help="store a fixed subset (%s) with %s's answers" % (subset, engine))
    ap.add_argument("--report", help="write the agreement numbers here (JSON)")
    ap.add_argument("--reference-cache", help="JSON file with %s's answers: read if made for these cases, else written" % engine)
    ap.add_argument("--reference-only", action="store_true", help="only lay the cases out in %s" % engine)
    ap.add_argument("--hand-checks", action="store_true", help="print how %s applies indents to hand cases" % engine)
    return ap


def load_cases(args, profile, label="cases"):
    """The cases of `profile` made from the corpus `args` name, with their count per kind printed."""
    cells = [json.loads(l) for l in open(args.corpus, encoding="utf-8") if l.strip()]
    if args.limit:
        cells = cells[:args.limit]
    cases = make_cases(cells, profile)
    kinds = {}
    for c in cases:
        kinds[c["kind"]] = kinds.get(c["kind"], 0) + 1
    print("%d %s: %s" % (len(cases), label, ", ".join("%s %d" % kv for kv in sorted(kinds.items()))))
    return cases


def tags(case, narrow):
    """The groups a case is scored in besides its kind."""
    t = []
    if len(paragraph_starts(case["text"])) > 1:
        t.append("multi-paragraph")
    if any(isinstance(case.get(f), float) and not float(case[f]).is_integer() for f in INDENT_FIELDS[:3]):
        t.append("odd")
    if narrow:
        t.append("narrow")
    if case["source"] in ("tab", "separator"):
        t.append(case["source"])
    first, head = case.get("firstLineHeadIndent", 0), case.get("headIndent", 0)
    if first < head:
        t.append("outdent")
    if first < 0:
        t.append("left-of-box")
    if case.get("cssHanging"):
        t.append("css-hanging")
    return t


def fingerprint(cases):
    """A short hash of the cases (a reference cache must have been made for the same ones)."""
    return hashlib.sha256(json.dumps(cases, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:16]


def plumb_request(case, profile, scale=None):
    """The JSON Lines request that states `case` to Plumb."""
    r = {k: case[k] for k in ("text", "families", "size", "width") + INDENT_FIELDS + ("tabInterval",) if k in case}
    r["compatibility"] = profile
    if scale is not None:
        r["scale"] = scale
    return r


def plumb(binary, cases, profile, scale=None, request=None):
    """Per case (exact height, line starts, line x positions) from `plumb measure`, or None;
    `request` states a case to Plumb (default `plumb_request`; `tabs.py` adds its fields)."""
    outputs = conf.measure_requests(binary, [(request or plumb_request)(c, profile, scale) for c in cases],
                                    "--lines", "--line-starts", "--exact-numbers")
    results = []
    for o in outputs:
        if not o or "lineStarts" not in o:
            results.append(None)
            continue
        boxes = o.get("lineBoxes") or []
        exact = boxes[-1]["rect"][1] + boxes[-1]["rect"][3] if boxes else 0.0
        results.append((exact, o["lineStarts"], [b["rect"][0] for b in boxes]))
    return results


def left_to_right(text):
    """Whether the text has no right-to-left letters (its line x can be compared directly)."""
    return not any(unicodedata.bidirectional(ch) in ("R", "AL") for ch in text)


def paragraph_starts(text):
    """Scalar offsets where the text's paragraphs start: after LF, CR (alone or before LF) and
    U+2029, not after U+2028 (a line separator inside a paragraph, in UIKit and Pango)."""
    return [0] + [i + 1 for i, ch in enumerate(text)
                  if ch in "\n\u2029" or (ch == "\r" and text[i + 1:i + 2] != "\n")]


def difference(case, theirs, mine):
    """Which line first differs: 'first line', 'first line of a later paragraph', 'other line'."""
    k = next((i for i, (a, b) in enumerate(zip(theirs, mine)) if a != b), min(len(theirs), len(mine)))
    line = k - 1  # the line whose end differs
    if line < 0:
        return "first line"
    start = theirs[line]
    if start == 0:
        return "first line"
    if start in paragraph_starts(case["text"]):
        return "first line of a later paragraph"
    return "other line"


def first_differing(theirs, mine):
    """The index of the first line start that differs (or the shorter list's length)."""
    return next((i for i, (a, b) in enumerate(zip(theirs, mine)) if a != b), min(len(theirs), len(mine)))


def is_first_line(case, start, profile):
    """Whether the line starting at scalar `start` takes firstLineHeadIndent under `profile`."""
    if start == 0:
        return True
    return (profile != "chromium" or case.get("indentEachLine", False)) and start in paragraph_starts(case["text"])


def controls(misses, profile):
    """For every miss whose line starts differ, a control: the same text without indents at the
    differing line's own width, from where that width begins (the start of its paragraph when it
    is a paragraph's first line, else the paragraph's second line) to the next hard break:
    [(index of the miss, control case, lines to compare)]. If the engines break the control
    differently too, up to that line, the disagreement is not the indents' (it is the plain
    oracles' kind: dictionaries, emoji, spaces after a split word, a line end at the box's edge)."""
    out = []
    for n, (c, t, m, name) in enumerate(misses):
        if not name.startswith("starts differ"):
            continue
        text, starts = c["text"], t[1]
        line = max(0, first_differing(starts, m[1]) - 1)
        s = starts[line]
        paragraph = max(p for p in paragraph_starts(text) if p <= s)
        first, other = line_widths(c)
        if s == paragraph or paragraph not in starts:
            begin, width, compare = s, first if is_first_line(c, s, profile) else other, 1
        else:
            j = starts.index(paragraph) + 1
            begin, width, compare = starts[j], other, line - j + 1
        segment = text[begin:]
        cut = min([segment.find(ch) for ch in "\n\r\u2028\u2029" if ch in segment] or [len(segment)])
        ctrl = {"text": segment[:cut] or " ", "families": c["families"], "size": c["size"], "kind": "control",
                "width": round(width, 6), "tags": []}
        if "tabInterval" in c:
            ctrl["tabInterval"] = c["tabInterval"]
        out.append((n, ctrl, compare))
    return out


def reclassify(misses, ctrl, theirs, mine):
    """Renames each miss with a control: 'also without indents' when the engines break the
    control differently too (up to the line compared), else 'only with indents'."""
    for (n, _, compare), t, m in zip(ctrl, theirs, mine):
        c, a, b, name = misses[n]
        differs = m is None or t[1][:compare + 1] != m[1][:compare + 1]
        name = "starts differ %s: %s" % (
            "also without indents" if differs else "only with indents", name[len("starts differ: "):])
        if not differs:
            name += qualifier(c, a[1], b[1])
        misses[n] = (c, a, b, name)


def qualifier(case, theirs, mine):
    """What a disagreement only with indents has to do with: tab stops, a U+2028 before the
    line, or neither."""
    text = case["text"]
    line = max(0, first_differing(theirs, mine) - 1)
    if "\t" in text[theirs[line]:theirs[line + 1] if line + 1 < len(theirs) else len(text)]:
        return " (a tab on the line)"
    if any(s > 0 and text[s - 1] == "\u2028" for s in theirs[:line + 1]):
        return " (after U+2028)"
    return ""


def first_difference(text, theirs, mine):
    """The line before the first differing start and the line after it, in each engine."""
    import chromium_reference
    return chromium_reference.first_difference(text, theirs, mine)


def score(cases, theirs, mine, height_agrees, x_tolerance=0.01):
    """Agreement per group ('all', each kind, each tag) and the disagreements.

    `theirs`: per case (height, starts, line xs or None), in points; `mine`: Plumb's. A case
    agrees when its starts and its height do; line x positions are scored apart (left-to-right
    texts only)."""
    stats, misses = {}, []
    for c, t, m in zip(cases, theirs, mine):
        groups = ["all", "kind " + c["kind"]] + ["tag " + g for g in c["tags"]]
        if not set(c["tags"]) & {"tab", "separator"}:
            groups.append("all but tab, separator")
        same_starts = m is not None and m[1] == t[1]
        same_height = m is not None and height_agrees(m[0], t[0])
        x_checked = t[2] is not None and same_starts and left_to_right(c["text"]) and m is not None
        same_x = x_checked and len(m[2]) == len(t[2]) and all(
            abs(a - b) <= x_tolerance for a, b in zip(m[2], t[2]))
        for g in groups:
            s = stats.setdefault(g, {"cases": 0, "starts": 0, "heights": 0, "both": 0, "xChecked": 0, "x": 0})
            s["cases"] += 1
            s["starts"] += same_starts
            s["heights"] += same_height
            s["both"] += same_starts and same_height
            s["xChecked"] += x_checked
            s["x"] += same_x
        if m is None:
            misses.append((c, t, m, "no answer from Plumb"))
        elif not same_starts:
            misses.append((c, t, m, "starts differ: " + difference(c, t[1], m[1])))
        elif not same_height:
            misses.append((c, t, m, "height only"))
        elif x_checked and not same_x:
            misses.append((c, t, m, "line x only"))
    return stats, misses


def print_stats(title, stats, file=sys.stdout):
    """One line per group: cases, line starts, heights, both, line x."""
    order = ["all", "all but tab, separator"] + sorted(k for k in stats if k.startswith("kind ")) + sorted(
        k for k in stats if k.startswith("tag "))
    print(title, file=file)
    for g in order:
        s = stats[g]
        print("  %-26s %6d cases: line starts %6.2f %%, heights %6.2f %%, both %6.2f %%; line x %6.2f %% of %d" % (
            g, s["cases"], 100.0 * s["starts"] / s["cases"], 100.0 * s["heights"] / s["cases"],
            100.0 * s["both"] / s["cases"], 100.0 * s["x"] / max(1, s["xChecked"]), s["xChecked"]), file=file)


def describe(case):
    """The case's indents, width and font, for a miss line."""
    fields = ", ".join("%s %s" % (k, case[k]) for k in INDENT_FIELDS + ("tabInterval",) if k in case)
    return "w%s %s %s [%s] {%s}" % (case["width"], case["families"][0], case["size"], case["kind"], fields)


def short(starts, k):
    """Line starts around index `k` (the first that differs)."""
    return str(starts) if k <= 3 else "[.., " + str(starts[k - 2:k + 3])[1:]


def print_misses(misses, engine, show, file=sys.stdout, describe=describe, detail=None):
    """The disagreement classes with their counts (per kind and tag), and `show` examples of each
    (`describe`: a case's fields; `detail(name, theirs, mine)`: more lines for a class, or None)."""
    classes = {}
    for miss in misses:
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
            k = first_differing(t[1], m[1])
            line += "\n      %s starts %s height %s; plumb starts %s height %s" % (
                engine, short(t[1], k), t[0], short(m[1], k), m[0])
            extra = detail(name, t, m) if detail else None
            if extra is not None:
                line += extra
            elif name == "line x only":
                line += "\n      %s x %s; plumb x %s" % (engine, t[2][:6], m[2][:6])
            elif name.startswith("starts"):
                theirs, mine = first_difference(c["text"], t[1], m[1])
                line += "\n      %s %r\n      plumb  %r" % (engine, theirs, mine)
            print(line, file=file)


def group_order(stats):
    """The groups of a score table as the reports list them: all, then kinds, then tags."""
    return ["all"] + sorted(k for k in stats if k.startswith("kind ")) + sorted(
        k for k in stats if k.startswith("tag "))


def add_stats(total, stats):
    """`total` (None at first) with the counts of `stats` added, group by group: the figures
    over several scales."""
    if total is None:
        return {g: dict(s) for g, s in stats.items()}
    for g, s in stats.items():
        for k, v in s.items():
            total.setdefault(g, {k2: 0 for k2 in s})[k] += v
    return total


def write_rows(path, rows):
    """Writes subset rows as JSON Lines."""
    with open(path, "w", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")


def write_report(path, report):
    """Writes the agreement figures as JSON."""
    with open(path, "w", encoding="utf-8") as f:
        json.dump(report, f, indent=1)


def load_cache(path, key):
    """The cached references for `key` (a fingerprint and scale), or None."""
    if not path or not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        cache = json.load(f)
    return cache.get(key)


def store_cache(path, key, value):
    """Adds `value` under `key` to the cache file at `path`."""
    if not path:
        return
    cache = {}
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            cache = json.load(f)
    cache[key] = value
    with open(path, "w", encoding="utf-8") as f:
        json.dump(cache, f)
