#!/usr/bin/env python3
"""Rebuild Plumb's multilingual table-cell corpus (cells.jsonl + SOURCES.md).

All text is real: UI strings from the gettext catalogs (.mo) that Debian
packages ship, long Chinese paragraphs from the manpages-zh man pages, and
emoji sequences from Unicode's emoji-test.txt (package unicode-data).
Packages are fetched with `apt-get download` into a temporary directory and
unpacked with `dpkg-deb -x`; nothing is installed.  Sampling uses a fixed
seed, so the output is identical for identical package versions.

Usage:  python3 Benchmarks/Corpus/build_corpus.py [--out DIR]
Needs:  apt-get, dpkg-deb (run `apt-get update` first on a fresh machine).
"""
import argparse, collections, gzip, hashlib, json, os, random, re, struct, subprocess, tempfile, unicodedata
from pathlib import Path

SEED = 20240611
MAX_LEN = 600
MO_PACKAGES = ["coreutils", "tar", "apt", "dpkg", "debconf-i18n", "iso-codes"]
MAN_PACKAGE, EMOJI_PACKAGE = "manpages-zh", "unicode-data"
EMOJI_TEST = "usr/share/unicode/emoji/emoji-test.txt"
# Cells per language (sums to 4,000 with EMOJI_CELLS). zh includes MAN_PARAGRAPHS.
QUOTA = {"en": 1360, "hi": 40, "zh_CN": 480, "zh_TW": 320, "ja": 320, "ko": 240,
         "ru": 220, "uk": 100, "ar": 110, "he": 90, "th": 120,
         "de": 90, "fr": 90, "es": 80, "pt_BR": 70, "vi": 70}
MAN_PARAGRAPHS = {"zh_CN": 60, "zh_TW": 40}
EMOJI_CELLS = 200
# Share of each shape among a language's catalog cells (see shape()).
SHAPES = [("multiline", 0.055), ("long", 0.15), ("medium", 0.30), ("short", 0.50)]
SCRIPT_OF = {"en": "Latin", "de": "Latin", "fr": "Latin", "es": "Latin", "pt_BR": "Latin",
             "vi": "Latin", "zh_CN": "Han", "zh_TW": "Han", "ja": "Japanese", "ko": "Hangul",
             "ru": "Cyrillic", "uk": "Cyrillic", "ar": "Arabic", "he": "Hebrew", "th": "Thai",
             "hi": "Devanagari"}
NATIVE = {"Han": r"[\u3400-\u4dbf\u4e00-\u9fff]", "Japanese": r"[\u3040-\u30ff\u4e00-\u9fff]",
          "Hangul": r"[\uac00-\ud7af\u1100-\u11ff\u3130-\u318f]", "Cyrillic": r"[\u0400-\u04ff]",
          "Arabic": r"[\u0600-\u06ff\u0750-\u077f]", "Hebrew": r"[\u0590-\u05ff]",
          "Thai": r"[\u0e00-\u0e7f]", "Devanagari": r"[\u0900-\u097f]"}
LATIN = re.compile(r"[A-Za-z\u00c0-\u024f\u1e00-\u1eff]")
PLACEHOLDER = re.compile(r"%(\d+\$)?[-+ #0']*(\*|\d+)?(\.(\*|\d+))?(hh|h|ll|l|L|q|j|z|t|I)?"
                         r"[diouxXeEfFgGaAcspnm%]|%<PRI\w+>|\$\{\w+\}")
BAD_CHARS = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f\ufffd]")  # everything but \n, plus U+FFFD
CJK = re.compile(r"[\u2e80-\u9fff\uff00-\uffef]")  # Han, kana, CJK and fullwidth punctuation
Entry = collections.namedtuple("Entry", "lang package path domain text")


def download(packages, workdir):
    """apt-get download PACKAGES into WORKDIR; return {package: (deb path, version)}."""
    done = subprocess.run(["apt-get", "download", "-q", *packages], cwd=workdir,
                          capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"apt-get download failed (try `apt-get update`):\n{done.stderr}")
    debs = {}
    for pkg in packages:
        (deb,) = sorted(Path(workdir).glob(f"{pkg}_*.deb"))
        version = subprocess.run(["dpkg-deb", "-f", str(deb), "Version"], check=True,
                                 capture_output=True, text=True).stdout.strip()
        debs[pkg] = (deb, version)
    return debs


def parse_mo(path):
    """Yield (msgid, msgstr) pairs of a GNU .mo file, decoded with its declared charset.
    Context prefixes are dropped; plural entries yield their first (singular) form."""
    data = path.read_bytes()
    order = "<" if struct.unpack("<I", data[:4])[0] == 0x950412DE else ">"
    _, count, ids_at, strs_at = struct.unpack(order + "4I", data[4:20])
    def blob(table, i):
        length, offset = struct.unpack(order + "2I", data[table + 8 * i: table + 8 * i + 8])
        return data[offset: offset + length]
    pairs = [(blob(ids_at, i), blob(strs_at, i)) for i in range(count)]
    header = dict(pairs).get(b"", b"")
    m = re.search(rb"charset=([-\w]+)", header)
    charset = m.group(1).decode() if m and m.group(1).upper() != b"CHARSET" else "utf-8"
    for key, value in pairs:
        if not key or not value:
            continue
        try:
            msgid = key.split(b"\x04")[-1].split(b"\0")[0].decode(charset)
            msgstr = value.split(b"\0")[0].decode(charset)
        except (UnicodeDecodeError, LookupError):
            continue
        yield msgid, msgstr


def cap(text):
    """Cap TEXT at MAX_LEN characters, preferring a line or word boundary and never
    cutting before a combining mark, ZWJ or variation selector."""
    if len(text) <= MAX_LEN:
        return text
    cut = text.rfind("\n", 0, MAX_LEN)
    if cut < MAX_LEN // 2:
        cut = text.rfind(" ", 0, MAX_LEN)
    if cut < MAX_LEN // 2:
        cut = MAX_LEN
    while cut > 1 and (unicodedata.category(text[cut]).startswith("M") or text[cut] in "\u200d\ufe0f"):
        cut -= 1
    return text[:cut].rstrip()


def clean(text, lang):
    """Return the cleaned cell text, or None when TEXT is unusable for LANG: shorter than
    2 characters, format-only, containing control characters, or (for a non-Latin
    language) containing no character of the language's script."""
    text = text.replace("\r\n", "\n").strip()
    if len(text) < 2 or BAD_CHARS.search(text):
        return None
    bare = PLACEHOLDER.sub("", text)
    if sum(ch.isalpha() for ch in bare) < 2:
        return None
    native = NATIVE.get(SCRIPT_OF[lang])
    if native and not re.search(native, bare):
        return None
    return cap(unwrap(text))


def unwrap(text):
    """Join the lines of a prose message that was only wrapped for an 80-column terminal
    (every line but the last at least 50 columns wide; no indented, bulleted or blank
    lines); usage blocks, option lists and other structured text keep their line breaks."""
    lines = text.split("\n")
    width = lambda s: sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in s)
    if len(lines) < 2 or any(not l.strip() or l[0] in " \t-*•" or l.rstrip().endswith(":")
                             or (width(l) < 50 and i < len(lines) - 1) for i, l in enumerate(lines)):
        return text
    return join_lines(lines)


def join_lines(pieces):
    """Join text lines with a space, or with nothing between two CJK characters."""
    text = ""
    for piece in filter(None, (p.strip() for p in pieces)):
        text += ("" if not text or (CJK.match(text[-1]) and CJK.match(piece[0])) else " ") + piece
    return text


def script_of(text, lang):
    """Script label: the language's script, or Mixed when Latin letters make up 40% or
    more of the letters of a non-Latin-language string (placeholders ignored)."""
    script = SCRIPT_OF[lang]
    if script == "Latin":
        return script
    bare = PLACEHOLDER.sub("", text)
    native, latin = len(re.findall(NATIVE[script], bare)), len(LATIN.findall(bare))
    return "Mixed" if latin >= 0.4 * (native + latin) else script


def shape(text):
    """Shape class of a cell: multiline (hard breaks), long (>=100), short (<=30), medium."""
    if "\n" in text:
        return "multiline"
    return "long" if len(text) >= 100 else "short" if len(text) <= 30 else "medium"


def catalog_entries(roots):
    """Collect cleaned, de-duplicated entries per language from every package's .mo files.
    English comes from the msgids (union over all catalogs of a domain)."""
    pools, seen = collections.defaultdict(list), collections.defaultdict(set)
    def add(lang, pkg, path, domain, raw):
        text = clean(raw, lang)
        if text is not None and text not in seen[lang]:
            seen[lang].add(text)
            pools[lang].append(Entry(lang, pkg, path, domain, text))
    for pkg in MO_PACKAGES:
        for mo in sorted(roots[pkg].glob("usr/share/locale/*/LC_MESSAGES/*.mo")):
            lang, domain = mo.parts[-3], mo.stem
            if mo.is_symlink() or lang not in QUOTA:
                continue
            rel = "/" + str(mo.relative_to(roots[pkg]))
            for msgid, msgstr in parse_mo(mo):
                add("en", pkg, f"/usr/share/locale/*/LC_MESSAGES/{domain}.mo", domain, msgid)
                if lang != "en":
                    add(lang, pkg, rel, domain, msgstr)
    return pools


TROFF_ESCAPES = [(r"\-", "-"), (r"\(em", "—"), (r"\(en", "–"), (r"\(bu", "•"),
                 (r"\(lq", "“"), (r"\(rq", "”"), (r"\(aq", "'"), (r"\(dq", '"'), (r"\&", ""),
                 (r"\ ", " "), (r"\~", " "), (r"\|", ""), (r"\^", ""), (r"\,", ""), (r"\/", ""),
                 (r"\:", ""), (r"\c", ""), (r"\e", "\\"),
                 ("``", "“"), ("''", "”")]


def troff_text(line):
    """Strip inline troff markup (fonts, sizes, escapes, comments) from one text line."""
    line = re.sub(r'\\".*', "", line)
    line = re.sub(r"\\f(\(..|\[[^\]]*\]|.)|\\s[-+]?\d+|\\\*(\(..|\[[^\]]*\]|.)", "", line)
    for escape, repl in TROFF_ESCAPES:
        line = line.replace(escape, repl)
    return line


def man_paragraphs(source):
    """Split a troff man page into plain-text paragraphs. Headings, .TP tags and no-fill
    (.nf/.fi) blocks are dropped; a line ending in \\c continues without a space, other
    lines are joined with a space (none between two CJK characters)."""
    paragraphs, current, nofill, skip_next, glue = [], [], False, False, False
    def add(text, raw):
        nonlocal glue, skip_next
        if skip_next:  # the tag line of .TP, or a heading on its own line
            skip_next = False
            return flush()
        if glue and current:
            current[-1] += text
        else:
            current.append(text)
        glue = raw.rstrip().endswith("\\c")
    def flush():
        paragraphs.append(re.sub(r"\s+", " ", join_lines(current)))
        current.clear()
    for line in source.splitlines():
        m = re.match(r"[.'](\w+)\s*(.*)", line)
        if m and m.group(1) in ("B", "I", "BR", "IR", "RB", "RI", "BI", "IB", "SM", "SB"):
            if not nofill:
                words = [a or b for a, b in re.findall(r'"([^"]*)"|(\S+)', m.group(2))]
                add(troff_text((" " if len(m.group(1)) == 1 else "").join(words)), line)
        elif m:
            flush()
            nofill = {"nf": True, "fi": False}.get(m.group(1), nofill)
            skip_next = m.group(1) in ("TP", "SH", "SS") and not m.group(2)
        elif not line.startswith((".", "'")) and not nofill:
            add(troff_text(line), line)
    flush()
    return [p for p in paragraphs if p]


def man_entries(root):
    """Long Chinese paragraphs (>=80 chars, mostly Han, no markup residue) per zh locale."""
    pools = collections.defaultdict(list)
    for page in sorted(root.glob("usr/share/man/zh_*/man*/*.gz")):
        lang = page.parts[-3]
        if lang not in MAN_PARAGRAPHS or page.is_symlink():
            continue
        rel = "/" + str(page.relative_to(root))
        for para in man_paragraphs(gzip.open(page).read().decode("utf-8", "replace")):
            han, text = len(re.findall(NATIVE["Han"], para)), clean(para, lang)
            if text and len(para) >= 80 and han >= 0.4 * len(para.replace(" ", "")) and "\\" not in para:
                pools[lang].append(Entry(lang, MAN_PACKAGE, rel, page.name, text))
    return pools


def interleave(rng, items, keys):
    """Shuffle ITEMS so that the groups given by KEYS (nested, e.g. package then catalog)
    alternate round-robin: a prefix of the result is balanced across sources."""
    if not keys:
        items = list(items)
        rng.shuffle(items)
        return items
    groups = collections.defaultdict(list)
    for item in items:
        groups[keys[0](item)].append(item)
    lists = [interleave(rng, groups[k], keys[1:]) for k in sorted(groups)]
    return [lst[i] for i in range(max(map(len, lists), default=0)) for lst in lists if i < len(lst)]


def sample_lang(rng, entries, quota):
    """Pick QUOTA entries following the SHAPES mix, balanced across packages and catalogs;
    shortfalls in one shape are filled from the remaining entries."""
    by_package = (lambda e: e.package, lambda e: e.domain)
    chosen, rest = [], []
    wants = [round(quota * share) for _, share in SHAPES[:-1]]
    for (name, _), want in zip(SHAPES, wants + [quota - sum(wants)]):
        pool = interleave(rng, [e for e in entries if shape(e.text) == name], by_package)
        chosen += pool[:want]
        rest += pool[want:]
    return chosen + interleave(rng, rest, by_package)[: max(0, quota - len(chosen))]


def emoji_sequences(path):
    """Fully-qualified emoji from emoji-test.txt, by kind: zwj, skin-tone, flag, keycap, single."""
    kinds, group = collections.defaultdict(list), ""
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# group:"):
            group = line.split(":", 1)[1].strip()
        if line.startswith("#") or ";" not in line or "; fully-qualified" not in line:
            continue
        cps = line.split(";")[0].split()
        seq = "".join(chr(int(c, 16)) for c in cps)
        kind = ("flag" if group == "Flags" and seq[0] != "\U0001f3c1" and len(cps) > 1 else
                "keycap" if "20E3" in cps else "zwj" if "200D" in cps else
                "skin-tone" if any(c in ("1F3FB", "1F3FC", "1F3FD", "1F3FE", "1F3FF") for c in cps)
                else "single")
        kinds[kind].append(seq)
    return kinds


def emoji_cells(rng, kinds, bases):
    """Combine real short UI strings (BASES, any language) with real emoji sequences.
    Every 10th cell is an emoji run alone (lang 'und')."""
    order, cells = sorted(kinds), []
    for i in range(EMOJI_CELLS):
        first = rng.choice(kinds[order[i % len(order)]])
        second = rng.choice(kinds[order[(i + 2) % len(order)]])
        base = bases[i]
        text = [f"{base.text} {first}", f"{first} {base.text}", f"{base.text} {first}{second}",
                f"{first}{second}"][3 if i % 10 == 9 else i % 3]
        lang = "und" if i % 10 == 9 else base.lang
        src = f"{EMOJI_PACKAGE}:/{EMOJI_TEST}" + ("" if lang == "und" else f" + {base.package}:{base.path}")
        cells.append({"lang": lang, "script": "Emoji", "source": src, "text": text})
    return cells


def license_of(root, pkg):
    """The license of a package's main files ('Files: *' stanza of its DEP-5 copyright),
    or the first line that mentions a license in a free-form copyright file."""
    path = root / "usr/share/doc" / pkg / "copyright"
    note = ""
    if (root / "usr/share/doc" / pkg).is_symlink():
        target = os.readlink(root / "usr/share/doc" / pkg)
        path, note = Path("/usr/share/doc") / target / "copyright", f" (doc dir links to {target}; host copy read)"
    if not path.exists():
        return "see the package's copyright file" + note
    text = path.read_text(encoding="utf-8", errors="replace")
    for stanza in re.split(r"\n\s*\n", text):
        if re.search(r"^Files:\s*\*\s*$", stanza, re.M):
            m = re.search(r"^License:\s*(.+)$", stanza, re.M)
            if m:
                return m.group(1).strip() + note
    m = re.search(r"^.*licen[cs]e.*$", text, re.I | re.M)
    return (m.group(0).strip() if m else "see copyright file") + note


def write_sources(out, debs, roots, cells, digest):
    """Write SOURCES.md: packages, versions, files, licenses, counts and how to rebuild."""
    def table(title, counter):
        return [f"| {title} | cells |", "| --- | --- |"] + [f"| {k} | {v} |" for k, v in counter.most_common()] + [""]
    uses = {MAN_PACKAGE: "`/usr/share/man/zh_CN/` and `zh_TW/` `man*/*.gz` (per-page licenses vary, see copyright)",
            EMOJI_PACKAGE: f"`/{EMOJI_TEST}`"}
    lines = ["# Corpus sources", "", "`cells.jsonl`: real table-cell texts for Plumb's benchmarks and accuracy tests,",
             f"made by `build_corpus.py` (seed {SEED}). sha256 of cells.jsonl: `{digest}`.", "",
             "## Rebuild", "", "```", "apt-get update   # once, on a fresh machine",
             "python3 Benchmarks/Corpus/build_corpus.py", "```",
             "The output is identical as long as the package versions below are unchanged.", "",
             "## Packages (Debian 12, fetched with `apt-get download`, never installed)", "",
             "| package | version | files used | license (`Files: *` of /usr/share/doc/PKG/copyright) |",
             "| --- | --- | --- | --- |"]
    lines += [f"| {pkg} | {ver} | {uses.get(pkg, '`/usr/share/locale/<lang>/LC_MESSAGES/*.mo`')} | "
              f"{license_of(roots[pkg], pkg)} |" for pkg, (_, ver) in debs.items()]
    lines += ["", "Translations are the packages' own catalogs; English is their msgids.", "", "## Counts", ""]
    lines += table("script", collections.Counter(c["script"] for c in cells))
    lines += table("lang", collections.Counter(c["lang"] for c in cells))
    lines += table("shape", collections.Counter(shape(c["text"]) for c in cells))
    lines += table("package", collections.Counter(c["source"].split(":")[0] for c in cells))
    lines += ["## Notes", "",
              "- Strings are verbatim (printf placeholders such as `%s` kept); surrounding whitespace is",
              "  trimmed. Dropped: < 2 chars, format-only, control characters, translations without a",
              "  character of their language's script. Capped at 600 chars at a line or word boundary.",
              "- Hard line breaks are kept, except in prose that was merely wrapped for an 80-column",
              "  terminal (every line but the last >= 50 columns, no indented/bulleted lines): those lines",
              "  are joined with a space (none between two CJK characters) to give long paragraphs.",
              "- Shapes: short <= 30 chars, medium, long >= 100 chars, multiline = contains a line break.",
              "- `script` is `Mixed` when Latin letters are >= 40% of the letters of a non-Latin string;",
              "  `Devanagari` (Hindi, iso-codes names only) extends the script list.",
              "- Emoji cells (`source` names both parts) join a real short UI string with real emoji",
              "  sequences (ZWJ, skin tone, flag, keycap, single) from emoji-test.txt: both parts are real,",
              "  the combination is synthetic. `und` cells hold emoji only.",
              "- Chinese paragraphs come from manpages-zh with the troff markup stripped.", ""]
    (out / "SOURCES.md").write_text("\n".join(lines), encoding="utf-8")


def build(tmp, rng):
    """Download and unpack the packages into TMP; return (debs, roots, cells)."""
    debs = download(MO_PACKAGES + [MAN_PACKAGE, EMOJI_PACKAGE], tmp)
    roots = {pkg: Path(tmp) / "root" / pkg for pkg in debs}
    for pkg, (deb, _) in debs.items():
        roots[pkg].mkdir(parents=True)
        subprocess.run(["dpkg-deb", "-x", str(deb), str(roots[pkg])], check=True)
    pools, man, picked = catalog_entries(roots), man_entries(roots[MAN_PACKAGE]), []
    for lang, quota in QUOTA.items():
        paras = interleave(rng, man[lang], (lambda e: e.domain,))[: MAN_PARAGRAPHS.get(lang, 0)]
        picked += paras + sample_lang(rng, pools[lang], quota - len(paras))
    used = {(e.lang, e.text) for e in picked}
    bases = interleave(rng, [e for lang in QUOTA for e in pools[lang] if len(e.text) <= 24
                             and "\n" not in e.text and (e.lang, e.text) not in used],
                       (lambda e: e.lang, lambda e: e.package))
    cells = [{"lang": e.lang, "script": script_of(e.text, e.lang), "source": f"{e.package}:{e.path}",
              "text": e.text} for e in picked]
    cells += emoji_cells(rng, emoji_sequences(roots[EMOJI_PACKAGE] / EMOJI_TEST), bases)
    rng.shuffle(cells)
    numbers = collections.Counter()
    for cell in cells:
        numbers[cell["lang"]] += 1
        cell["id"] = f"{cell['lang']}-{numbers[cell['lang']]}"
    return debs, roots, cells


def main():
    """Build the corpus in a temporary directory and write it into --out (default: here)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=Path(__file__).resolve().parent)
    out = ap.parse_args().out
    with tempfile.TemporaryDirectory(prefix="plumb-corpus-") as tmp:
        debs, roots, cells = build(tmp, random.Random(SEED))
        body = "".join(json.dumps({k: c[k] for k in ("id", "lang", "script", "source", "text")},
                                  ensure_ascii=False) + "\n" for c in cells).encode("utf-8")
        out.mkdir(parents=True, exist_ok=True)
        (out / "cells.jsonl").write_bytes(body)
        write_sources(out, debs, roots, cells, hashlib.sha256(body).hexdigest())
    print(f"wrote {len(cells)} cells ({len(body)} bytes) to {out}")


if __name__ == "__main__":
    main()
