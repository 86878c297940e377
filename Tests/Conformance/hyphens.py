"""The cases of the hyphenation oracles: `hyphens_pango.py` (Pango's `insert-hyphens`) and
`hyphens_chromium.py` (CSS `hyphens`) build them here, state them to Plumb here, and score
them here.

Texts (`texts`, shared by both oracles; U+00AD SOFT HYPHEN is "SHY" below):

- `sentence`: corpus cells (`Benchmarks/Corpus/cells.jsonl`) in English, German, Russian,
  Ukrainian, French and Spanish (up to 140 characters, no newline), with SHYs at plausible
  syllable points (`syllable_points`: V|CV and VC|CV, else every 2–4 letters, 2–4 letters
  apart, never after a word's first letter or before its last) in their words of 6 letters
  or more (`soften`); Greek phrases (`GREEK`, the corpus has none) the same way;
- `word`: one to three words of such a cell around its longest word, softened;
- `overlong`: long words without any SHY (a cell's longest word of 10 letters or more, two
  words glued, a word with digits glued on, a Greek compound), alone or in a short phrase: the
  breaks inside them are Pango's WRAP_WORD_CHAR (with a hyphen under insert-hyphens) and CSS
  `overflow-wrap: break-word` (never with a hyphen);
- `special`: short softened phrases with one or two placements of a SHY at the edge of what
  the rules talk about: right before or after punctuation (`shy-punct`), next to a space
  (`shy-space`), two in a row (`double-shy`), a word ending in one (`shy-end`), next to a
  hyphen (`shy-hyphen`), between digits (`shy-digit`), at the text's start (`shy-start`);
- `cjk`: Chinese, Japanese and Korean cells (up to 80 characters) with SHYs between CJK
  characters, Hangul syllables and in their Latin words, and a few Latin/CJK joins
  (`abc\\u00adCJK`, `CJK\\u00adabc`, `shy-cjk`): Pango inserts no hyphen after Han, Hangul,
  Hiragana or Katakana.

Every text gets a cascade (`CASCADES`: Noto Sans, DejaVu Sans, Noto Serif, each before Noto
Sans CJK SC, and Noto Sans CJK SC alone; every 29th Latin or Cyrillic text `NO_U2010`, a first
font without U+2010: Noto Sans Math, so the hyphen is its '-' in Chromium, and Pango's is in
the font of the run), a size (`indents.SIZES`) and a width: mostly narrow (`NARROW`, 40–120
pt; 70 % of the sentences, 90 % of the rest), else `WIDE`, and a language (`LANGUAGES`, the
cell's as a BCP 47 tag; 15 % none, `no-language`). Each text is a case per mode (`modes`):
`manual` and `none`, plus `auto` (every 10th, Pango only) and `unset` (every 10th: no
`hyphenation` field; Pango's default is none, Chromium's manual).

Tags: the script (`latin`, `cyrillic`, `greek`, `cjk`, `hangul`, `mixed` when more than one),
`narrow` (width ≤ 60), `no-shy`, the special placements, `no-u2010`, `no-language`; and after
the reference is measured (`reference_tags`): `wraps`, `shy-break` (a line starts right after
a SHY), `hyphen-shown` (a line ends with a hyphen the engine drew), `overlong` (a line starts
inside a word: not after a space, SHY or hyphen, not next to CJK).

Scores (`score`, per mode): a case agrees when its line starts and its height do; line widths
(every line's, where the starts agree) within a tolerance are scored apart. A miss whose
starts differ is named by the first line whose end differs (`starts_class`), by how each
engine ends it (`break_kind`: at a SHY, at a space, after a hyphen, inside a word, next to
CJK, at punctuation; "with a hyphen" where the reference drew one), whether Plumb breaks
earlier or later, and why where it shows (Plumb's line ends at a SHY and overflows the box
with its hyphen, or would with one; the reference's SHY after CJK, punctuation, …); a control
(`controls`: that line's text to the end, SHYs removed, mode `none`, the same width) tells a
plain breaking difference ("also without SHY") from one of hyphenation ("only with
hyphenation"). A width miss (`width_class`) is one engine drawing a hyphen the other does not
(a difference of one hyphen advance of the case's fonts, `hyphen_advances`, and what the SHY
follows, `before_shy`), a SHY inside the line (kerning across it), a line ending in spaces, a
line broken inside a word (kerning across the break), or other.
"""
import json
import os
import random
import re
import sys
import unicodedata

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import conformance as conf  # noqa: E402
import indents  # noqa: E402

SHY = "\u00ad"
HYPHENS = "-\u2010"
SIZES = indents.SIZES
CASCADES = [["Noto Sans", "Noto Sans CJK SC"], ["DejaVu Sans", "Noto Sans CJK SC"],
            ["Noto Serif", "Noto Sans CJK SC"], ["Noto Sans CJK SC"]]
NO_U2010 = ["Noto Sans Math", "DejaVu Sans", "Noto Sans CJK SC"]
NARROW = [40, 45, 50, 55, 60, 65, 70, 75, 80, 90, 100, 110, 120]
WIDE = [150, 200, 250, 300]
WESTERN = ("en", "de", "ru", "uk", "fr", "es")
EASTERN = ("zh_CN", "zh_TW", "ja", "ko")
LANGUAGES = {"en": "en-US", "de": "de", "ru": "ru", "uk": "uk", "fr": "fr", "es": "es", "el": "el",
             "zh_CN": "zh-CN", "zh_TW": "zh-TW", "ja": "ja", "ko": "ko"}
MODES = {"pango": ("manual", "none", "auto", "unset"), "chromium": ("manual", "none", "unset")}
VOWELS = set("aeiouyäöüéèêëàâîïôûùœæáíóúAEIOUYÄÖÜÉÈÊÀÂÎÔÛÁÍÓÚ"
             "аеёиоуыэюяіїєАЕЁИОУЫЭЮЯІЇЄ"
             "αεηιουωάέήίόύώϊϋΐΰΑΕΗΙΟΥΩΆΈΉΊΌΎΏ")
WORD = re.compile(r"[^\W\d_]+")
SPECIALS = ("shy-punct", "shy-space", "double-shy", "shy-end", "shy-hyphen", "shy-digit", "shy-start")

# Greek UI phrases (the corpus has no Greek): settings, errors, long compounds.
GREEK = [
    "Αποθήκευση αρχείου", "Ρυθμίσεις συστήματος", "Δεν ήταν δυνατή η εγκατάσταση του πακέτου",
    "Επιλέξτε τη γλώσσα εγκατάστασης", "Παρακαλώ περιμένετε", "Η λειτουργία ολοκληρώθηκε επιτυχώς",
    "Αδυναμία ανοίγματος του αρχείου ρυθμίσεων", "Διαχείριση χρηστών και ομάδων",
    "Προειδοποίηση: ο δίσκος είναι σχεδόν πλήρης", "Ενημέρωση λογισμικού", "Σύνδεση στο δίκτυο",
    "Εκτύπωση εγγράφου", "Πληροφορίες συστήματος", "Ηλεκτρονικό ταχυδρομείο", "Αντίγραφο ασφαλείας",
    "Ο υπολογιστής θα επανεκκινηθεί αυτόματα", "Η σύνδεση απορρίφθηκε από τον διακομιστή",
    "Μη έγκυρο όνομα χρήστη ή κωδικός πρόσβασης", "Το αρχείο δεν βρέθηκε",
    "Εγκατάσταση προγραμμάτων οδήγησης", "Διαμόρφωση πληκτρολογίου", "Χρονοπρογραμματισμός εργασιών",
    "Ηλεκτροκαρδιογράφημα", "Αντικειμενικότητα", "Αποσυμπίεση αρχειοθήκης", "Πανεπιστημιακές εκδόσεις",
    "Επαναπροσδιορισμός παραμέτρων", "Μετεωρολογικές προβλέψεις για αύριο", "Απενεργοποίηση ειδοποιήσεων",
    "Αυτόματη ανανέωση πιστοποιητικών",
]


def is_vowel(ch):
    """Whether a letter counts as a vowel for `syllable_points`."""
    return ch in VOWELS


def is_cjk(ch):
    """Han, kana, Hangul or CJK punctuation (`conformance.is_cjk` and kana)."""
    return conf.is_cjk(ch) or 0x3040 <= ord(ch) <= 0x30FF


def plausible(word, k):
    """Whether a SHY before word[k] is at a syllable edge: V|CV or VC|CV."""
    a, b, c = word[k - 1], word[k], word[k + 1]
    if is_vowel(a) and not is_vowel(b) and is_vowel(c):
        return True
    return not is_vowel(a) and not is_vowel(b) and k >= 2 and is_vowel(word[k - 2]) and is_vowel(c)


def syllable_points(word, rng):
    """Where SHYs go in `word` (offsets to insert before): syllable edges 2–4 letters apart,
    else every 2–4 letters; never before offset 2 or after len − 2."""
    n = len(word)
    candidates = [k for k in range(2, n - 1) if plausible(word, k)]
    out, last = [], 0
    for k in candidates:
        if k - last >= rng.choice([2, 2, 3, 4]):
            out.append(k)
            last = k
    if not out:
        k = rng.randint(2, 4)
        while k <= n - 2:
            out.append(k)
            k += rng.randint(2, 4)
    return out


def soften_word(word, rng):
    """The word with SHYs at its `syllable_points`."""
    points = set(syllable_points(word, rng))
    return "".join((SHY if k in points else "") + ch for k, ch in enumerate(word))


def soften(text, rng, min_len=6, density=1.0):
    """The text with SHYs in its words of `min_len` letters or more (each with probability
    `density`)."""
    return WORD.sub(lambda m: soften_word(m.group(0), rng)
                    if len(m.group(0)) >= min_len and rng.random() < density else m.group(0), text)


def soften_cjk(text, rng):
    """A CJK text with SHYs every 2–5 characters inside its runs of 3 or more CJK characters
    or Hangul syllables, and in its Latin words."""
    out, run = [], 0
    gap = rng.randint(2, 5)
    for i, ch in enumerate(text):
        nxt = text[i + 1] if i + 1 < len(text) else ""
        if is_cjk(ch) and unicodedata.category(ch).startswith("L"):
            run += 1
            out.append(ch)
            if run >= gap and nxt and is_cjk(nxt) and unicodedata.category(nxt).startswith("L"):
                out.append(SHY)
                run, gap = 0, rng.randint(2, 5)
        else:
            run = 0
            out.append(ch)
    return soften("".join(out), rng)


def words_of(text):
    """The text's letter words (WORD)."""
    return WORD.findall(text)


def phrase_around(text, word, rng, extra):
    """`word` with up to `extra` words of `text` after it (split at spaces)."""
    parts = text.split(" ")
    k = next((i for i, p in enumerate(parts) if word in p), 0)
    return " ".join(parts[k:k + 1 + rng.randint(0, extra)])


def special(phrase, rng, tag):
    """The phrase (softened, no leading or trailing space) with one SHY placement of `tag`."""
    words = [m for m in WORD.finditer(phrase) if len(m.group(0)) >= 3]
    m = rng.choice(words) if words else None
    a, b = (m.start(), m.end()) if m else (len(phrase), len(phrase))
    w = phrase[a:b]
    if tag == "shy-punct":
        r = rng.random()
        if r < 0.4:
            return phrase[:b] + SHY + rng.choice(",.;:!?)»\"") + phrase[b:]
        if r < 0.7:
            return phrase[:a] + rng.choice("(«\"¿¡") + SHY + phrase[a:]
        cut = max(2, len(w) // 2)
        return phrase[:a] + w[:cut] + rng.choice(",./:") + SHY + w[cut:] + phrase[b:]
    if tag == "shy-space":
        spaces = [i for i, ch in enumerate(phrase) if ch == " "]
        if not spaces:
            return phrase + SHY + " " + phrase
        i = rng.choice(spaces)
        return phrase[:i] + (SHY + " " if rng.random() < 0.6 else " " + SHY) + phrase[i + 1:]
    if tag == "double-shy":
        shys = [i for i, ch in enumerate(phrase) if ch == SHY]
        if shys:
            i = rng.choice(shys)
            return phrase[:i] + SHY + phrase[i:]
        cut = a + max(2, len(w) // 2)
        return phrase[:cut] + SHY + SHY + phrase[cut:]
    if tag == "shy-end":
        return phrase[:b] + SHY + phrase[b:] if rng.random() < 0.5 else phrase + SHY
    if tag == "shy-hyphen":
        cut = a + max(2, len(w) // 2)
        return phrase[:cut] + rng.choice([SHY + "-", "-" + SHY, "\u2010" + SHY, SHY + "\u2010"]) + phrase[cut:]
    if tag == "shy-digit":
        digits = "".join(rng.choice("0123456789") for _ in range(rng.randint(6, 12)))
        cut = rng.randint(2, len(digits) - 2)
        token = digits[:cut] + SHY + digits[cut:]
        if rng.random() < 0.5:
            token = w[:3] + token + w[3:]
            return phrase[:a] + token + phrase[b:]
        return phrase + " " + token
    if tag == "shy-start":
        return SHY + phrase
    raise ValueError(tag)


def glued(words, rng):
    """An overlong token: two of the words glued, or a word with digits glued on."""
    long_words = [w for w in words if len(w) >= 5]
    if len(long_words) >= 2 and rng.random() < 0.6:
        a, b = rng.sample(long_words, 2)
        return a + b.lower()
    w = max(words, key=len)
    return w + "".join(rng.choice("0123456789") for _ in range(rng.randint(3, 8))) if rng.random() < 0.4 else w


def texts(cells):
    """(text, kind, language code, tags) of every text (module docstring), in a fixed order."""
    rng = random.Random("hyphens-texts")
    western = [c for c in cells if c.get("lang") in WESTERN and c.get("script") in ("Latin", "Cyrillic", "Mixed")
               and "\n" not in c["text"] and "\r" not in c["text"] and len(c["text"]) <= 140]
    out = []
    for i, c in enumerate(western):
        if c["lang"] == "en" and i % 2:
            continue
        t = soften(c["text"], rng)
        if SHY in t:
            out.append((t, "sentence", c["lang"], []))
    for i, c in enumerate(western):
        ws = [w for w in words_of(c["text"]) if len(w) >= 7]
        if not ws or i % 2:
            continue
        w = max(ws, key=len)
        out.append((soften(phrase_around(c["text"], w, rng, 2 if rng.random() < 0.3 else 0), rng), "word",
                    c["lang"], []))
    for i, c in enumerate(western):
        ws = words_of(c["text"])
        if not ws or i % 3:
            continue
        token = glued(ws, rng)
        if len(token) < 10:
            continue
        if rng.random() < 0.3:
            token = "%s %s" % (rng.choice(ws), token)
        out.append((token, "overlong", c["lang"], ["no-shy"]))
    for i, c in enumerate(western):
        ws = [w for w in words_of(c["text"]) if len(w) >= 5]
        if not ws or i % 2 == 0:
            continue
        phrase = soften(phrase_around(c["text"], rng.choice(ws), rng, 3), rng, density=0.5).strip(" ")
        tag = SPECIALS[(i // 2) % len(SPECIALS)]
        t = special(phrase, rng, tag)
        tags = [tag]
        if rng.random() < 0.2:
            second = rng.choice([s for s in SPECIALS if s != tag])
            t = special(t, rng, second)
            tags.append(second)
        out.append((t, "special", c["lang"], tags))
    for r in range(2):
        for g in GREEK:
            out.append((soften(g, rng), "sentence", "el", []))
            ws = words_of(g)
            out.append((soften(max(ws, key=len), rng), "word", "el", []))
            if r == 0:
                token = glued(ws, rng)
                if len(token) >= 10:
                    out.append((token, "overlong", "el", ["no-shy"]))
    eastern = [c for c in cells if c.get("lang") in EASTERN and "\n" not in c["text"] and len(c["text"]) <= 80
               and c.get("script") != "Emoji"]
    for i, c in enumerate(eastern):
        if i % 3:
            continue
        out.append((soften_cjk(c["text"], rng), "cjk", c["lang"], []))
    latin = [w for c in western[:400] for w in words_of(c["text"]) if len(w) >= 6]
    han = [c["text"] for c in eastern if c.get("script") in ("Han", "Japanese", "Hangul")][:200]
    for j in range(120):
        w = soften(rng.choice(latin), rng, density=0.5)
        h = rng.choice(han)[:rng.randint(3, 10)]
        t = (w + SHY + h) if j % 2 else (h + SHY + w)
        out.append((t, "cjk", EASTERN[j % 4], ["shy-cjk"]))
    return out


def script_tags(text):
    """The scripts of the text's letters: latin, cyrillic, greek, cjk, hangul; and `mixed`."""
    found = set()
    for ch in text:
        o = ord(ch)
        if not unicodedata.category(ch).startswith("L"):
            continue
        if 0xAC00 <= o <= 0xD7AF or 0x1100 <= o <= 0x11FF or 0x3130 <= o <= 0x318F:
            found.add("hangul")
        elif is_cjk(ch):
            found.add("cjk")
        elif 0x0400 <= o <= 0x052F:
            found.add("cyrillic")
        elif 0x0370 <= o <= 0x03FF or 0x1F00 <= o <= 0x1FFF:
            found.add("greek")
        elif o < 0x0250 or 0x1E00 <= o <= 0x1EFF:
            found.add("latin")
    return sorted(found) + (["mixed"] if len(found) > 1 else [])


def make_cases(cells, profile):
    """The cases of one oracle (`profile`: "chromium" or "pango"), in a fixed order: every
    text in a cascade, size, width and language, then once per mode (`modes`)."""
    rng = random.Random("hyphens-" + profile)
    base = []
    for i, (text, kind, lang, tags) in enumerate(texts(cells)):
        c = (i + i // 97) % len(CASCADES)
        families = CASCADES[c]
        extra = []
        if i % 29 == 5 and set(script_tags(text)) <= {"latin", "cyrillic"}:
            families, extra = NO_U2010, ["no-u2010"]
        narrow = rng.random() < (0.7 if kind == "sentence" else 0.9)
        width = rng.choice(NARROW) if narrow else rng.choice(WIDE)
        case = {"text": text, "families": families, "size": SIZES[(7 * i + c) % len(SIZES)], "width": width,
                "kind": kind}
        if rng.random() < 0.85:
            case["language"] = LANGUAGES[lang]
        else:
            extra.append("no-language")
        if SHY not in text:
            extra.append("no-shy")
        if width <= 60:
            extra.append("narrow")
        case["tags"] = sorted(set(tags + extra + script_tags(text)))
        base.append(case)
    cases = []
    for i, case in enumerate(base):
        for mode in modes(i, profile):
            cases.append(dict(case, mode=mode))
    return cases


def modes(i, profile):
    """The modes text `i` is laid out in: manual and none; every 10th also auto (Pango) or
    unset (no `hyphenation` field)."""
    out = ["manual", "none"]
    if profile == "pango" and i % 10 == 3:
        out.append("auto")
    if i % 10 == 7:
        out.append("unset")
    return out


def load_cases(args, profile):
    """The cases of `profile` made from the corpus `args` name, with their count per kind and
    mode printed."""
    cells = [json.loads(l) for l in open(args.corpus, encoding="utf-8") if l.strip()]
    if args.limit:
        cells = cells[:args.limit]
    cases = make_cases(cells, profile)
    count = {}
    for c in cases:
        for k in ("kind " + c["kind"], "mode " + c["mode"]):
            count[k] = count.get(k, 0) + 1
    print("%d cases: %s" % (len(cases), ", ".join("%s %d" % kv for kv in sorted(count.items()))))
    return cases


def plumb_request(case, profile, scale=None):
    """The JSON Lines request that states `case` to Plumb: its text, font, width, `language`
    (when it has one) and `hyphenation` (its mode; none for `unset`)."""
    r = {k: case[k] for k in ("text", "families", "size", "width", "language") if k in case}
    if case["mode"] != "unset":
        r["hyphenation"] = case["mode"]
    r["compatibility"] = profile
    if scale is not None:
        r["scale"] = scale
    return r


def plumb(binary, cases, profile, scale=None):
    """Per case (exact height, line starts, line x, line widths: `usedWidth`) from `plumb
    measure`, or None."""
    outputs = conf.measure_requests(binary, [plumb_request(c, profile, scale) for c in cases],
                                    "--lines", "--line-starts", "--exact-numbers")
    results = []
    for o in outputs:
        if not o or "lineStarts" not in o:
            results.append(None)
            continue
        boxes = o.get("lineBoxes") or []
        exact = boxes[-1]["rect"][1] + boxes[-1]["rect"][3] if boxes else 0.0
        results.append((exact, o["lineStarts"], [b["rect"][0] for b in boxes], [b["usedWidth"] for b in boxes]))
    return results


def break_kind(text, pos):
    """How a line that ends before scalar `pos` ends."""
    if pos >= len(text):
        return "at the text's end"
    a, b = text[pos - 1], text[pos]
    if a == SHY:
        return "at a SHY"
    if a in " \t":
        return "at a space"
    if a in HYPHENS:
        return "after a hyphen"
    if is_cjk(a) or is_cjk(b):
        return "next to CJK"
    if b == SHY:
        return "before a SHY"
    if unicodedata.category(a)[0] in "LNM" and unicodedata.category(b)[0] in "LNM":
        return "inside a word"
    return "at punctuation"


def reference_tags(cases, theirs):
    """Adds the tags that come from the reference's lines: `wraps`, `shy-break`,
    `hyphen-shown`, `overlong` (`theirs`: per case (height, starts, x, widths, hyphens))."""
    for c, t in zip(cases, theirs):
        text, starts = c["text"], t[1]
        extra = []
        if len(starts) > 1:
            extra.append("wraps")
        kinds = [break_kind(text, s) for s in starts[1:]]
        if "at a SHY" in kinds:
            extra.append("shy-break")
        if any(t[4]):
            extra.append("hyphen-shown")
        if "inside a word" in kinds:
            extra.append("overlong")
        c["tags"] = sorted(set(c["tags"] + extra))


def line_text(text, starts, k):
    """The text of line `k` under `starts`."""
    return text[starts[k]:starts[k + 1] if k + 1 < len(starts) else len(text)]


def hyphen_advances(case):
    """The advances of the hyphens the case's fonts draw, at its size (Pango's, in points): per
    family U+2010, or '-' for a family without it (Noto Sans Math). Noto Sans CJK SC's U+2010
    is a full em."""
    from gi.repository import Pango
    cache = hyphen_advances.__dict__.setdefault("cache", {})
    out = []
    for family in case["families"]:
        key = (family, case["size"])
        if key not in cache:
            m = hyphen_advances.__dict__.setdefault("measurer", conf.PangoMeasurer())
            layout = Pango.Layout.new(m.context)
            desc = Pango.FontDescription.from_string(family)
            desc.set_absolute_size(round(case["size"] * Pango.SCALE))
            layout.set_font_description(desc)
            layout.set_text("-" if family == NO_U2010[0] else "\u2010", -1)
            cache[key] = layout.get_extents()[1].width / Pango.SCALE
        out.append(cache[key])
    return out


def before_shy(text, end):
    """What precedes the SHYs a line ending at scalar `end` ends with: 'the text's start', 'a
    space', 'a hyphen', 'CJK', 'punctuation', 'a digit' or 'a letter' (None when the line does
    not end with a SHY, spaces after it aside)."""
    j = end
    while j > 0 and text[j - 1] in " \t":
        j -= 1
    if j == 0 or text[j - 1] != SHY:
        return None
    while j > 0 and text[j - 1] == SHY:
        j -= 1
    if j == 0:
        return "the text's start"
    ch = text[j - 1]
    if ch in " \t":
        return "a space"
    if ch in HYPHENS:
        return "a hyphen"
    if is_cjk(ch):
        return "CJK"
    cat = unicodedata.category(ch)
    return "a letter" if cat[0] in "LM" else "a digit" if cat[0] == "N" else "punctuation"


def line_end(starts, k, text):
    """Where line `k` under `starts` ends (the next line's start or the text's end)."""
    return starts[k + 1] if k + 1 < len(starts) else len(text)


def starts_class(case, theirs, mine, engine):
    """The name of a line-start disagreement: how each engine ends the first line whose end
    differs (module docstring), and why when it shows: Plumb's line, ending at a SHY, wider
    than the box with its hyphen, or one that would be with a hyphen; or the reference ending
    it at a SHY (after what) where Plumb breaks earlier."""
    text, width = case["text"], case["width"]
    k = indents.first_differing(theirs[1], mine[1])
    line = max(0, k - 1)
    ends = [s[k] if k < len(s) else len(text) for s in (theirs[1], mine[1])]
    hyphen = line < len(theirs[4]) and theirs[4][line]
    name = "starts differ: %s %s%s, plumb %s %s" % (
        engine, break_kind(text, ends[0]), " with a hyphen" if hyphen else "",
        "earlier" if ends[1] < ends[0] else "later", break_kind(text, ends[1]))
    mine_shy = before_shy(text, ends[1])
    if mine_shy is not None and line < len(mine[3]) and mine[3][line] > width + 0.01:
        return name + " (plumb's line ends at a SHY and overflows the box: its hyphen does not fit)"
    if mine_shy is not None and line < len(mine[3]) and mine[3][line] + min(hyphen_advances(case)) > width + 0.01:
        return name + " (plumb's line ends at a SHY without a hyphen; with one it would overflow the box)"
    theirs_shy = before_shy(text, ends[0])
    if theirs_shy is not None and ends[1] < ends[0]:
        return name + " (%s's SHY after %s, %s hyphen)" % (engine, theirs_shy, "with a" if hyphen else "no")
    return name


def width_class(case, theirs, mine, tolerance):
    """The name of a width disagreement, by the first line whose width differs by more than
    `tolerance`: one engine drawing a hyphen the other does not (a difference of one hyphen of
    the case's fonts, `hyphen_advances`; with what the SHY follows, `before_shy`), Plumb's
    hyphen being a fallback font's where the reference's is the first font's, a SHY inside
    the line (both references kern across it), a line ending with spaces Plumb hangs, a line
    broken inside a word (kerning across the break), else other."""
    text = case["text"]
    k = next(i for i, (a, b) in enumerate(zip(theirs[3], mine[3])) if abs(a - b) > tolerance)
    d = mine[3][k] - theirs[3][k]
    end = line_end(theirs[1], k, text)
    seg = text[theirs[1][k]:end].rstrip(" \t")
    after = before_shy(text, end)
    one = any(abs(abs(d) - h) <= 0.05 for h in hyphen_advances(case))
    if one and d > 0:
        return "width: plumb draws a hyphen the reference does not (%s)" % (
            "at a SHY after " + after if after else "at a break " + break_kind(text, end))
    if one and d < 0:
        spaced = text[end - 1:end] in (" ", "\t")
        return "width: the reference draws a hyphen plumb does not (%s)" % (
            "a SHY before a space" if after and spaced else "at a SHY after " + after if after
            else "at a break " + break_kind(text, end))
    hs = hyphen_advances(case)
    if theirs[4][k] and any(abs(d - (h - hs[0])) <= 0.05 for h in hs[1:]):
        return "width: plumb's hyphen is a fallback font's, the reference's the first font's"
    size = "by < 0.1" if abs(d) < 0.1 else "by 0.1–1" if abs(d) < 1 else "by 1 or more"
    if text[end - 1:end] in (" ", "\t") and d < 0:
        return "width: line ends with spaces, plumb narrower %s (the reference counts some)" % size
    if SHY in seg.rstrip(SHY):
        return "width: a SHY inside the line, plumb %s %s" % ("wider" if d > 0 else "narrower", size)
    if break_kind(text, end) == "inside a word":
        return "width: line broken inside a word, plumb %s %s%s" % (
            "wider" if d > 0 else "narrower", size, ", the reference drew a hyphen" if theirs[4][k] else "")
    return "width: other, plumb %s %s%s" % ("wider" if d > 0 else "narrower", size,
                                           ", the reference drew a hyphen" if theirs[4][k] else "")


def score(cases, theirs, mine, height_agrees, width_tolerance, engine):
    """Agreement per group ('all', each kind, each tag) and the disagreements.

    `theirs`: per case (height, starts, line x, line widths, hyphen per line); `mine`: Plumb's
    (height, starts, line x, line widths) or None. A case agrees when its starts and its height
    do; widths (all lines, cases whose starts agree) are scored apart within
    `width_tolerance`."""
    stats, misses = {}, []
    for c, t, m in zip(cases, theirs, mine):
        groups = ["all", "kind " + c["kind"]] + ["tag " + g for g in c["tags"]]
        same_starts = m is not None and m[1] == t[1]
        same_height = m is not None and height_agrees(m[0], t[0])
        w_checked = same_starts and len(m[3]) == len(t[3])
        same_w = w_checked and all(abs(a - b) <= width_tolerance for a, b in zip(m[3], t[3]))
        for g in groups:
            s = stats.setdefault(g, {"cases": 0, "starts": 0, "heights": 0, "both": 0, "widthChecked": 0,
                                     "widths": 0})
            s["cases"] += 1
            s["starts"] += same_starts
            s["heights"] += same_height
            s["both"] += same_starts and same_height
            s["widthChecked"] += w_checked
            s["widths"] += same_w
        if m is None:
            misses.append((c, t, m, "no answer from Plumb"))
        elif not same_starts:
            misses.append((c, t, m, starts_class(c, t, m, engine)))
        elif not same_height:
            misses.append((c, t, m, "height only"))
        elif w_checked and not same_w:
            misses.append((c, t, m, width_class(c, t, m, width_tolerance)))
    return stats, misses


def controls(misses):
    """For every miss whose starts differ, a control: the text of the line whose end differs
    to the end of the text, SHYs removed, mode none, at the same width and font:
    [(index of the miss, control case)]."""
    out = []
    for n, (c, t, m, name) in enumerate(misses):
        if not name.startswith("starts differ"):
            continue
        line = max(0, indents.first_differing(t[1], m[1]) - 1)
        segment = c["text"][t[1][line]:].replace(SHY, "") or " "
        ctrl = {k: c[k] for k in ("families", "size", "width", "language") if k in c}
        ctrl.update(text=segment, kind="control", tags=[], mode="none")
        out.append((n, ctrl))
    return out


def reclassify(misses, ctrl, theirs, mine):
    """Appends to each miss with a control ', also without SHY' when the engines end the
    control's first line differently too, else ', only with hyphenation'."""
    for (n, _), t, m in zip(ctrl, theirs, mine):
        c, a, b, name = misses[n]
        differs = m is None or t[1][:2] != m[1][:2]
        misses[n] = (c, a, b, name + (", also without SHY" if differs else ", only with hyphenation"))


def print_stats(title, stats, file=sys.stdout):
    """One line per group: cases, line starts, heights, both, widths."""
    order = indents.group_order(stats)
    print(title, file=file)
    for g in order:
        s = stats[g]
        print("  %-20s %5d cases: starts %6.2f %%, heights %6.2f %%, both %6.2f %%; widths %6.2f %% of %d" % (
            g, s["cases"], 100.0 * s["starts"] / s["cases"], 100.0 * s["heights"] / s["cases"],
            100.0 * s["both"] / s["cases"], 100.0 * s["widths"] / max(1, s["widthChecked"]), s["widthChecked"]),
            file=file)


def describe(case):
    """The case's width, font, kind, mode and language, for a miss line."""
    return "w%s %s %s [%s, %s] lang %s" % (case["width"], "/".join(case["families"][:2]), case["size"], case["kind"],
                                           case["mode"], case.get("language", "-"))


def detail(engine):
    """`indents.print_misses`' extra lines for a width miss: both engines' widths and which
    lines the reference drew a hyphen on (None for the other classes: their line texts)."""
    def lines(name, theirs, mine):
        if not name.startswith("width"):
            return None
        return "\n      %s widths %s hyphens %s\n      plumb  widths %s" % (
            engine, [round(x, 4) for x in theirs[3][:8]], [int(h) for h in theirs[4][:8]],
            [round(x, 4) for x in mine[3][:8]])
    return lines


def print_misses(misses, engine, show, file=sys.stdout):
    """`indents.print_misses` with this oracle's fields and width lines, the shortest texts of
    each class as its examples."""
    indents.print_misses(sorted(misses, key=lambda miss: len(miss[0]["text"])), engine, show, file,
                         describe=describe, detail=detail(engine))


def subset_row(case, profile, reference, result, scale=None):
    """A subset line: Plumb's request, kind, mode, tags and the reference's height, line
    starts, line x, line widths and per line whether it drew a hyphen (`<reference>Hyphens`)."""
    row = dict(plumb_request(case, profile, scale), kind=case["kind"], mode=case["mode"], tags=case["tags"])
    row[reference + "Height"], row[reference + "LineStarts"] = result[0], result[1]
    row[reference + "LineX"], row[reference + "LineWidths"] = result[2], result[3]
    row[reference + "Hyphens"] = result[4]
    return row


def pick_subset(cases, n, seed, misses=(), per_group=3):
    """Indices of `n` cases spread over kinds, modes and tags: up to a quarter the misses'
    (`misses`: indices with a class name, taken round-robin over the classes), then
    `per_group` of every kind × mode and tag not yet held, then a seeded sample."""
    rng = random.Random(seed)
    chosen = []
    by_class = {}
    for i, name in misses:
        by_class.setdefault(name, []).append(i)
    queues = [rng.sample(v, len(v)) for _, v in sorted(by_class.items())]
    while len(chosen) < n // 4 and any(queues):
        for q in queues:
            if q and len(chosen) < n // 4:
                chosen.append(q.pop())
    groups = {}
    for i, c in enumerate(cases):
        for g in ["%s %s" % (c["kind"], c["mode"])] + c["tags"]:
            groups.setdefault(g, []).append(i)
    held = set(chosen)
    for g, members in sorted(groups.items()):
        have = sum(i in held for i in members)
        for i in rng.sample(members, min(len(members), max(0, per_group - have))):
            if len(held) < n and i not in held:
                held.add(i)
    rest = [i for i in range(len(cases)) if i not in held]
    held.update(rng.sample(rest, max(0, min(len(rest), n - len(held)))))
    return sorted(held)[:n] if len(held) > n else sorted(held)


def markdown(title, report, note=""):
    """A Markdown report section: per mode, the agreement per kind and tag."""
    out = ["## %s\n" % title]
    if note:
        out.append(note + "\n")
    for mode, stats in report.items():
        out.append("### %s\n" % mode)
        out.append("| group | cases | line starts | heights | both | widths (of checked) |")
        out.append("|---|---:|---:|---:|---:|---:|")
        for g in indents.group_order(stats):
            s = stats[g]
            out.append("| %s | %d | %.2f %% | %.2f %% | %.2f %% | %.2f %% of %d |" % (
                g, s["cases"], 100.0 * s["starts"] / s["cases"], 100.0 * s["heights"] / s["cases"],
                100.0 * s["both"] / s["cases"], 100.0 * s["widths"] / max(1, s["widthChecked"]), s["widthChecked"]))
        out.append("")
    return "\n".join(out) + "\n"


def argument_parser(engine, subset):
    """`indents.argument_parser` and `--section FILE` (a Markdown report section)."""
    ap = indents.argument_parser(engine, subset)
    ap.add_argument("--section", help="write a Markdown report section here")
    return ap
