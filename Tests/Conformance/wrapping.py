"""The cases of the CSS wrapping oracle (issue 27, items 5 and 6): `wrapping_chromium.py` builds
them here, states them to Plumb here, and scores them here.

Every case is the `chromium` profile's base style (what the Chromium oracles set: `white-space:
pre-wrap`, `overflow-wrap: break-word`, `word-break: normal`, `line-break: auto`, no word
spacing, `text-wrap: wrap`, no line clamp) with ONE property set (`PROPERTIES`, its values in
CSS spelling and Plumb's wire names), the profile's default value included (a control that
the field is read); about 15 % (`COMBO_SHARE`) set a second property to a value other than its
default (never `whiteSpace` with `textWrap`: both set CSS's `text-wrap-mode`, the later
declaration wins). Each property value is the primary one of `PER_VALUE` cases.

Texts (`texts`; the corpus is `Benchmarks/Corpus/cells.jsonl`, cells in English, German,
Russian, Ukrainian, Chinese, Japanese and Korean, emoji cells left out), by kind:

- `cell`: a corpus cell as it is, the languages interleaved;
- `spaces`: a cell with one to three of its spaces widened to runs of 2–6 (or, in a text
  without spaces, such runs put between words or characters);
- `edges`: a cell with 1–4 leading and/or trailing spaces (sometimes a tab);
- `tabs`: a cell with one or two spaces turned into a tab, two tabs or a space and a tab (the
  page's `tab-size: 28px`: Plumb's `tabInterval` 28);
- `newlines`: a corpus cell with a newline, or two cells joined by "\\n", "\\n\\n", " \\n",
  "\\n ", "  \\n  ", "\\n\\n\\n" or " \\n\\n "; some ending with "\\n" (`trailing-newline`),
  some starting with one;
- `mixed-ws`: a cell with all of those at once (a run of spaces, a tab, a newline between two
  cells, leading and trailing spaces);
- `url`: URLs, paths and addresses (`URLS` and the corpus's), alone or inside a phrase of a
  cell, after CJK without a space;
- `long-word`: long words (the corpus's German and Russian words of 13+ letters, `LONG`, two
  words glued, identifiers, digits), alone or in a phrase;
- `kana`: Japanese cells with small kana or ー, and phrases of `KANA_WORDS` (small kana, ー,
  々) with particles and 、。.

Which kinds a case's text comes from depends on its property (`KIND_WEIGHTS`: white-space
cases mostly get white-space texts, line-break cases CJK, overflow-wrap long words and URLs).
Every case gets a cascade (`CASCADES`, `hyphens.py`'s), a size (`indents.SIZES`), a device
scale (the `--scales` list, alternating at random) and a width from 40 to 400 px: mostly one
that gives the text about 1–8 lines (an estimate of its width over a drawn number of lines;
more lines for line-clamp, balance and pretty), else one of `WIDTHS`; a quarter off the whole
pixels (`odd-width`).

Tags: the property and value (`whiteSpace=pre-line`), `combo` and the second `property=value`,
`default-value`, the text's kind (`text spaces`), its scripts (`latin`, `cyrillic`, `han`,
`kana`, `hangul`; `mixed` for more than one), `narrow` (width <= 60), `odd-width`, `scale-1`,
`scale-2`, `trailing-newline`, `tab`; and from the reference (`reference_tags`): `wraps`,
`clamped` (more lines than the clamp), `one-line`.
"""
import json
import os
import random
import re
import sys
import unicodedata

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import conformance as conf  # noqa: E402
import hyphens  # noqa: E402
import indents  # noqa: E402

PROPERTIES = {
    "whiteSpace": ["normal", "nowrap", "pre", "pre-wrap", "pre-line", "break-spaces"],
    "wordBreak": ["normal", "break-all", "keep-all"],
    "overflowWrap": ["normal", "break-word", "anywhere"],
    "lineBreak": ["auto", "loose", "normal", "strict", "anywhere"],
    "wordSpacing": [0, 2, 5.5, -1, 0.75, 10, -2.5],
    "lineClamp": [1, 2, 3, 4],
    "textWrap": ["wrap", "nowrap", "balance", "pretty"],
}
# The `chromium` profile's value when the field is absent (None: no clamp).
DEFAULTS = {"whiteSpace": "pre-wrap", "wordBreak": "normal", "overflowWrap": "break-word", "lineBreak": "auto",
            "wordSpacing": 0, "lineClamp": None, "textWrap": "wrap"}
CSS_NAMES = {"whiteSpace": "white-space", "wordBreak": "word-break", "overflowWrap": "overflow-wrap",
             "lineBreak": "line-break", "wordSpacing": "word-spacing", "textWrap": "text-wrap"}
NEVER_TOGETHER = {frozenset(("whiteSpace", "textWrap"))}
PER_VALUE = 480
COMBO_SHARE = 0.15
SIZES = indents.SIZES
CASCADES = hyphens.CASCADES
TAB = indents.TAB
WIDTHS = [40, 45, 50, 55, 60, 63.5, 70, 77, 80, 90, 100, 113.3, 120, 137, 150, 162.75, 175, 190.6, 200, 225,
          241.25, 250, 275, 299.5, 300, 333.3, 350, 377, 400]
LANGS = ("en", "de", "ru", "uk", "zh_CN", "zh_TW", "ja", "ko")
LANG_GROUPS = [("en",), ("de",), ("ru", "uk"), ("zh_CN", "zh_TW"), ("ja",), ("ko",)]
SMALL_KANA = set("ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿ")
KANA_MARKS = SMALL_KANA | set("ー々ゝゞヽヾ")
KANA_WORDS = ["コンピューター", "ユーザー", "ショッピング", "チェック", "ファイル", "ダウンロード", "インストール",
              "キャッシュ", "フォルダー", "サーバー", "ディレクトリ", "パッケージ", "プロパティ", "メッセージ",
              "アップデート", "ネットワーク", "ショートカット", "キーボード", "セキュリティ", "データベース",
              "人々", "時々", "様々", "日々", "少々", "国々", "色々", "我々", "ちょっと", "きょう", "しゅっぱつ",
              "じゃあ", "りょこう", "きっぷ", "がっこう", "にゅうりょく", "しゅつりょく", "ぎゅうにゅう",
              "設定", "保存", "削除", "確認", "表示", "変更", "実行", "終了", "接続", "検索"]
PARTICLES = ["の", "を", "が", "に", "は", "と", "で", "も", "、", "。", "や", "から", "まで"]
URLS = ["https://wiki.debian.org/Teams/Dpkg/FAQ#db-lock", "http://localhost:8080/", "https://example.org/search?q=line+breaking&lang=en&page=2",
        "ftp://ftp.debian.org/debian/dists/bookworm/main/binary-amd64/Packages.xz", "/usr/share/locale/de/LC_MESSAGES/dpkg.mo",
        "/var/lib/dpkg/info/libc6:amd64.postinst", "user.name+tag@example.com", "https://github.com/apple/swift-collections/issues/127",
        "C:\\Program Files\\Plumb\\plumb.exe", "~/.config/fontconfig/fonts.conf", "www.example.com/a/very/long/path/to/a/resource.html",
        "https://ja.wikipedia.org/wiki/%E6%97%A5%E6%9C%AC%E8%AA%9E", "mailto:debian-devel@lists.debian.org",
        "git@github.com:plumb/plumb.git", "https://en.wikipedia.org/wiki/Line_wrap_and_word_wrap"]
LONG = ["Donaudampfschifffahrtsgesellschaftskapitän", "Rindfleischetikettierungsüberwachungsaufgabenübertragungsgesetz",
        "Kraftfahrzeughaftpflichtversicherung", "Datenschutzgrundverordnung", "превысокомногорассмотрительствующий",
        "человеконенавистничество", "достопримечательность", "antidisestablishmentarianism",
        "pneumonoultramicroscopicsilicovolcanoconiosis", "SIMPLE_BACKUP_SUFFIX", "NSParagraphStyleAttributeName",
        "getaddrinfo_a_with_a_long_name", "0x7f3a9c2e5b1d4f60", "12345678901234567890", "a1b2c3d4e5f6a7b8c9d0",
        "supercalifragilisticexpialidocious"]
KINDS = ("cell", "spaces", "edges", "tabs", "newlines", "mixed-ws", "url", "long-word", "kana")
KIND_WEIGHTS = {
    "whiteSpace": {"cell": 14, "spaces": 20, "edges": 16, "tabs": 12, "newlines": 20, "mixed-ws": 10, "url": 3,
                   "long-word": 3, "kana": 2},
    "wordBreak": {"cell": 45, "spaces": 5, "edges": 3, "tabs": 2, "newlines": 5, "mixed-ws": 2, "url": 10,
                  "long-word": 15, "kana": 13},
    "overflowWrap": {"cell": 30, "spaces": 5, "edges": 3, "tabs": 2, "newlines": 3, "mixed-ws": 2, "url": 25,
                     "long-word": 25, "kana": 5},
    "lineBreak": {"cell": 45, "spaces": 5, "edges": 2, "tabs": 2, "newlines": 3, "mixed-ws": 2, "url": 8,
                  "long-word": 5, "kana": 28},
    "wordSpacing": {"cell": 45, "spaces": 15, "edges": 10, "tabs": 6, "newlines": 6, "mixed-ws": 5, "url": 4,
                    "long-word": 5, "kana": 4},
    "lineClamp": {"cell": 50, "spaces": 6, "edges": 4, "tabs": 3, "newlines": 17, "mixed-ws": 4, "url": 4,
                  "long-word": 6, "kana": 6},
    "textWrap": {"cell": 55, "spaces": 8, "edges": 5, "tabs": 3, "newlines": 10, "mixed-ws": 3, "url": 4,
                 "long-word": 5, "kana": 7},
}
# How many lines a case's width aims at, per property (the estimate is rough).
TARGET_LINES = {"lineClamp": [2, 3, 4, 5, 6, 8], "textWrap": [1, 2, 2, 3, 3, 4, 5, 6],
                "default": [1, 1, 2, 2, 3, 4, 5, 6, 8]}
WORD = re.compile(r"[^\W\d_]+")
FORMAT = re.compile(r"%[-+#0-9.$*lhz]*[a-zA-Z]")


def is_wide(ch):
    """Han, kana, Hangul, CJK punctuation and full-width forms."""
    return hyphens.is_cjk(ch) or unicodedata.east_asian_width(ch) in "WF"


def script_tags(text):
    """The scripts of the text's letters (printf conversions such as %s left out): latin,
    cyrillic, han, kana, hangul; and `mixed`."""
    found = set()
    for ch in FORMAT.sub("", text):
        o = ord(ch)
        if not unicodedata.category(ch).startswith("L"):
            continue
        if 0x3040 <= o <= 0x30FF or 0x31F0 <= o <= 0x31FF:
            found.add("kana")
        elif 0xAC00 <= o <= 0xD7AF or 0x1100 <= o <= 0x11FF or 0x3130 <= o <= 0x318F:
            found.add("hangul")
        elif 0x3400 <= o <= 0x9FFF or 0xF900 <= o <= 0xFAFF or ch in "々〆":
            found.add("han")
        elif 0x0400 <= o <= 0x04FF:
            found.add("cyrillic")
        elif o < 0x0250 or 0x1E00 <= o <= 0x1EFF:
            found.add("latin")
    out = sorted(found)
    if len(found - {"han", "kana"}) + (1 if found & {"han", "kana"} else 0) > 1:
        out.append("mixed")
    return out


def usable(cell):
    """Whether a corpus cell is in the oracle's languages and short enough."""
    return (cell.get("lang") in LANGS and cell.get("script") != "Emoji" and len(cell["text"]) <= 160
            and "\r" not in cell["text"] and cell["text"].strip())


def interleaved(cells):
    """The cells' texts (without newlines), the language groups of `LANG_GROUPS` taken in turn."""
    groups = [[c["text"] for c in cells if c["lang"] in g and "\n" not in c["text"]] for g in LANG_GROUPS]
    out, k = [], 0
    while any(groups):
        g = groups[k % len(groups)]
        if g:
            out.append(g.pop(0))
        k += 1
    return out


def widen(text, rng):
    """The text with one to three of its gaps widened to runs of 2–6 spaces (a text without
    spaces gets such runs between characters)."""
    spaces = [i for i, ch in enumerate(text) if ch == " "]
    if not spaces:
        points = sorted(rng.sample(range(1, len(text)), min(len(text) - 1, rng.randint(1, 3)))) if len(text) > 1 else []
        for p in reversed(points):
            text = text[:p] + " " * rng.randint(2, 6) + text[p:]
        return text
    for i in sorted(rng.sample(spaces, min(len(spaces), rng.randint(1, 3))), reverse=True):
        text = text[:i] + " " * rng.randint(2, 6) + text[i + 1:]
    return text


def edged(text, rng):
    """The text with leading and/or trailing spaces (sometimes a tab)."""
    r = rng.random()
    lead = " " * rng.randint(1, 4) if r < 0.7 else ""
    trail = " " * rng.randint(1, 4) if r > 0.35 else ""
    if rng.random() < 0.15:
        lead = "\t" + lead if rng.random() < 0.5 else lead
        trail = trail + "\t" if not lead.startswith("\t") else trail
    return lead + text + trail


def tabbed(text, rng):
    """The text with one or two spaces turned into a tab, two tabs or a space and a tab (a
    text without spaces gets a tab between two characters)."""
    spaces = [i for i, ch in enumerate(text) if ch == " "]
    if not spaces:
        p = rng.randint(1, max(1, len(text) - 1))
        return text[:p] + "\t" + text[p:]
    for i in sorted(rng.sample(spaces, min(len(spaces), rng.randint(1, 2))), reverse=True):
        text = text[:i] + rng.choice(["\t", "\t", "\t\t", " \t", "\t "]) + text[i + 1:]
    return text


NEWLINE_SEPARATORS = ["\n", "\n", "\n\n", " \n", "\n ", "  \n  ", "\n\n\n", " \n\n "]


def joined(a, b, rng):
    """Two texts joined by a newline separator; 10 % end with a newline, 5 % start with one."""
    t = a + rng.choice(NEWLINE_SEPARATORS) + b
    r = rng.random()
    if r < 0.1:
        t += "\n"
    elif r < 0.15:
        t = "\n" + t
    return t


def phrase(text, rng, words=3):
    """Up to `words` space-separated words of `text` from a random place."""
    parts = text.split(" ")
    k = rng.randrange(len(parts))
    return " ".join(parts[k:k + rng.randint(1, words)])


def kana_phrase(rng):
    """A Japanese phrase of `KANA_WORDS` and particles (small kana, ー and 々 in many places)."""
    out = []
    for _ in range(rng.randint(3, 9)):
        out.append(rng.choice(KANA_WORDS))
        out.append(rng.choice(PARTICLES))
    if rng.random() < 0.3:
        out.insert(rng.randrange(len(out)), rng.choice(["Plumb", "Chromium", "OK", "2024年", "(テスト)"]))
    return "".join(out).rstrip("、") + "。"


def texts(cells):
    """{kind: [texts]} (module docstring), each list in a fixed order."""
    rng = random.Random("wrapping-texts")
    cells = [c for c in cells if usable(c)]
    plain = interleaved(cells)
    out = {k: [] for k in KINDS}
    out["cell"] = plain
    out["spaces"] = [widen(t, rng) for t in plain[::2]]
    out["edges"] = [edged(t, rng) for t in plain[1::3]]
    out["tabs"] = [tabbed(t, rng) for t in plain[2::3]]
    multi = [c["text"] for c in cells if "\n" in c["text"]]
    joins = [joined(plain[i], plain[(7 * i + 3) % len(plain)], rng) for i in range(0, len(plain), 3)]
    out["newlines"] = [t for pair in zip(multi, joins) for t in pair] + joins[len(multi):]
    for i in range(0, len(plain), 4):
        t = joined(widen(plain[i], rng), tabbed(plain[(5 * i + 1) % len(plain)], rng), rng)
        out["mixed-ws"].append(edged(t, rng))
    urls = list(URLS) + [u for c in cells for u in re.findall(r"<?(?:https?://|/usr/|/var/|/etc/)[^\s>]+>?", c["text"])]
    for j in range(600):
        u = urls[j % len(urls)]
        host = plain[(j * 11) % len(plain)]
        r = rng.random()
        if r < 0.3:
            out["url"].append(u)
        elif r < 0.75:
            out["url"].append("%s %s %s" % (phrase(host, rng), u, phrase(host, rng)))
        else:
            cjk = [t for t in plain[j % 50::50] if is_wide(t[0])] or plain
            out["url"].append(rng.choice(cjk)[:20] + u + (rng.choice(["。", "", " を参照"])))
    long_words = list(LONG) + sorted({w for c in cells if c["lang"] in ("de", "ru", "uk", "en")
                                      for w in WORD.findall(c["text"]) if len(w) >= 13})
    for j in range(600):
        w = long_words[j % len(long_words)]
        r = rng.random()
        if r < 0.15:
            ws = [x for x in WORD.findall(plain[j % len(plain)]) if len(x) >= 4]
            if len(ws) >= 2:
                w = ws[0] + ws[1].lower()
        host = plain[(j * 13 + 5) % len(plain)]
        r = rng.random()
        out["long-word"].append(w if r < 0.35 else "%s %s" % (phrase(host, rng, 2), w) if r < 0.7
                                else "%s %s %s" % (w, phrase(host, rng), w[:rng.randint(3, len(w))]))
    ja = [c["text"] for c in cells if c["lang"] == "ja" and any(ch in KANA_MARKS for ch in c["text"])
          and "\n" not in c["text"]]
    synth = [kana_phrase(rng) for _ in range(300)]
    out["kana"] = [t for pair in zip(ja, synth) for t in pair] + synth[len(ja):]
    return out


def estimate(text, size):
    """A rough width of the text's longest paragraph in px (wide characters an em, spaces a
    third, other characters 0.55 em, a tab 28 px)."""
    best = 0.0
    for para in text.split("\n"):
        w = 0.0
        for ch in para:
            w += size if is_wide(ch) else TAB if ch == "\t" else 0.3 * size if ch == " " else 0.56 * size
        best = max(best, w)
    return best


def pick_width(text, size, prop, rng):
    """A width from 40 to 400 px: three times in four one that gives the text about a drawn
    number of lines, else one of `WIDTHS`; a quarter of them off the whole pixels."""
    if rng.random() < 0.25:
        return rng.choice(WIDTHS)
    est = estimate(text, size)
    lines = min(rng.choice(TARGET_LINES.get(prop, TARGET_LINES["default"])), max(1, int(est / 45)))
    w = min(400.0, max(40.0, est / lines * rng.uniform(0.85, 1.15)))
    r = rng.random()
    w = int(round(w)) if r < 0.75 else round(w * 4) / 4 if r < 0.9 else round(w, 1)
    return int(w) if float(w).is_integer() else w


def other_value(prop, rng):
    """A value of `prop` other than its default."""
    return rng.choice([v for v in PROPERTIES[prop] if v != DEFAULTS[prop]])


def make_cases(cells, scales=(1, 2), per_value=PER_VALUE):
    """The cases (module docstring), in a fixed order that interleaves the property values (so
    the first N of them cover every value)."""
    rng = random.Random("wrapping-27")
    pools = texts(cells)
    cursor = {k: rng.randrange(len(v)) for k, v in pools.items()}
    primaries = [(p, v) for p, vs in PROPERTIES.items() for v in vs]
    cases = []
    for n in range(per_value):
        for i, (prop, value) in enumerate(primaries):
            weights = KIND_WEIGHTS[prop]
            kind = rng.choices(list(weights), list(weights.values()))[0]
            pool = pools[kind]
            text = pool[cursor[kind] % len(pool)]
            cursor[kind] += 1 + rng.randrange(3)
            k = n * len(primaries) + i
            c = (k + k // 97) % len(CASCADES)
            size = SIZES[(7 * k + c) % len(SIZES)]
            case = {"text": text, "families": CASCADES[c], "size": size,
                    "width": pick_width(text, size, prop, rng), "scale": rng.choice(list(scales)),
                    "kind": kind, "property": prop, "fields": {prop: value}}
            if rng.random() < COMBO_SHARE:
                second = rng.choice([p for p in PROPERTIES if p != prop and frozenset((p, prop)) not in NEVER_TOGETHER])
                case["fields"][second] = other_value(second, rng)
            if "\t" in text:
                case["tabInterval"] = TAB
            case["tags"] = tags(case)
            cases.append(case)
    return cases


def label(prop, value):
    """`property=value` as the tags and the groups spell it."""
    return "%s=%s" % (prop, value)


def tags(case):
    """The groups a case is scored in besides its properties' (module docstring)."""
    t = ["text " + case["kind"], "scale-%s" % case["scale"]] + script_tags(case["text"])
    prop = case["property"]
    if case["fields"][prop] == DEFAULTS[prop]:
        t.append("default-value")
    if len(case["fields"]) > 1:
        t.append("combo")
        t += ["+" + label(p, v) for p, v in case["fields"].items() if p != prop]
    if case["width"] <= 60:
        t.append("narrow")
    if not float(case["width"]).is_integer():
        t.append("odd-width")
    if case["text"].endswith("\n"):
        t.append("trailing-newline")
    if "\t" in case["text"]:
        t.append("tab")
    return sorted(set(t))


def load_cases(args):
    """The cases made from the corpus `args` name (`--limit N`: only the first N), with their
    count per property printed."""
    cells = [json.loads(l) for l in open(args.corpus, encoding="utf-8") if l.strip()]
    scales = [int(s) if float(s).is_integer() else float(s) for s in args.scales.split(",")]
    cases = make_cases(cells, scales)
    if args.limit:
        cases = cases[:args.limit]
    count = {}
    for c in cases:
        for p in c["fields"]:
            count[p] = count.get(p, 0) + 1
    print("%d cases (%d combos): %s" % (len(cases), sum(len(c["fields"]) > 1 for c in cases),
                                        ", ".join("%s %d" % kv for kv in sorted(count.items()))))
    return cases


def plumb_request(case, profile="chromium"):
    """The JSON Lines request that states `case` to Plumb: text, font, width, scale, the
    profile, the case's fields by their wire names and, for a text with a tab, `tabInterval`
    28 (the page's `tab-size: 28px`)."""
    r = {k: case[k] for k in ("text", "families", "size", "width", "scale") if k in case}
    r["compatibility"] = profile
    r.update(case["fields"])
    if "tabInterval" in case:
        r["tabInterval"] = case["tabInterval"]
    return r


def plumb(binary, cases, profile="chromium"):
    """Per case (exact height, line starts, line widths (`usedWidth`), warnings) from `plumb
    measure --lines --line-starts --exact-numbers`, or None."""
    outputs = conf.measure_requests(binary, [plumb_request(c, profile) for c in cases],
                                    "--lines", "--line-starts", "--exact-numbers")
    results = []
    for o in outputs:
        if not o or "lineStarts" not in o:
            results.append(None if not o else (None, None, None, o.get("warnings", []) + [o.get("error", "")]))
            continue
        boxes = o.get("lineBoxes") or []
        exact = boxes[-1]["rect"][1] + boxes[-1]["rect"][3] if boxes else 0.0
        results.append((exact, o["lineStarts"], [b["usedWidth"] for b in boxes], o.get("warnings", [])))
    return results


def visible(case, result):
    """Chromium's (height, line starts, line widths, clamped) as the case shows them: under a
    line clamp only the first N lines (Chromium lays out all of them; the clamp hides the rest),
    `clamped` when it hid some (the last line shown then has an ellipsis, which the scan does
    not see: its width is not compared)."""
    height, starts, widths = result[0], result[1], result[2]
    n = case["fields"].get("lineClamp")
    if n:
        return height, starts[:n], widths[:n], len(starts) > n
    return height, starts, widths, False


def reference_tags(cases, theirs):
    """Adds `wraps` or `one-line`, and `clamped` (more lines than the clamp shows)."""
    for c, t in zip(cases, theirs):
        extra = ["wraps" if len(t[1]) > 1 else "one-line"]
        n = c["fields"].get("lineClamp")
        if n and len(t[1]) > n:
            extra.append("clamped")
        c["tags"] = sorted(set(c["tags"] + extra))
