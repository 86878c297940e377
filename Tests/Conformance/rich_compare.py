#!/usr/bin/python3
"""Compares Plumb's rich-text line starts with Pango's and Chromium's (issue 14).

    /usr/bin/python3 Tests/Conformance/rich_corpus.py > /tmp/rich_cases.jsonl
    /usr/bin/python3 Tests/Conformance/rich_pango.py /tmp/rich_cases.jsonl > /tmp/rich_pango.json
    /usr/bin/python3 Tests/Conformance/rich_chromium.py /tmp/rich_cases.jsonl > /tmp/rich_chromium.json
    PLUMB_RICH_CASES=/tmp/rich_cases.jsonl PLUMB_RICH_OUT=/tmp/rich_plumb.json \\
        swift test --filter measureTheWholeRichCorpusOnRequest
    /usr/bin/python3 Tests/Conformance/rich_compare.py /tmp/rich_cases.jsonl /tmp/rich_pango.json \\
        /tmp/rich_chromium.json /tmp/rich_plumb.json --update-doc Documentation/Accuracy.md \\
        --write-subset Tests/Conformance/rich_subset.jsonl

Reads only stored answers (no engine runs here): the cases, each engine's line starts and
Plumb's line starts and widths under the three profiles. Prints the agreement numbers, writes
a Markdown section (tables, disagreement kinds, examples) and, with `--write-subset`, a fixed
seeded sample of cases with both engines' answers for `RichConformanceTests`.
"""
import argparse
import collections
import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import rich_corpus  # noqa: E402

BOX = "\ufffc"
BEGIN = "<!-- rich_compare.py: begin -->"
END = "<!-- rich_compare.py: end -->"


def first_difference(mine, theirs, length):
    """Index of the first differing line start, and each side's start there."""
    k = next((i for i, (a, b) in enumerate(zip(mine, theirs)) if a != b), min(len(mine), len(theirs)))
    a = mine[k] if k < len(mine) else length
    b = theirs[k] if k < len(theirs) else length
    return k, a, b


def run_bounds(runs):
    """Scalar offsets where a run ends (between runs)."""
    out, pos = set(), 0
    for r in runs[:-1]:
        pos += len(r["text"]) if "text" in r else 1
        out.add(pos)
    return out


def is_thai(ch):
    return 0x0E00 <= ord(ch) <= 0x0E7F


def is_emoji(ch):
    o = ord(ch)
    return o >= 0x1F000 or o in (0x20E3, 0xFE0F, 0x200D) or 0x2600 <= o <= 0x27BF


def is_cjk(ch):
    o = ord(ch)
    return 0x2E80 <= o <= 0x9FFF or 0xAC00 <= o <= 0xD7AF or 0xF900 <= o <= 0xFAFF or 0xFF00 <= o <= 0xFFEF


def is_rtl(ch):
    return 0x0590 <= ord(ch) <= 0x08FF


def run_starts(runs):
    """Scalar offsets where each run starts."""
    out, pos = [], 0
    for r in runs:
        out.append(pos)
        pos += len(r["text"]) if "text" in r else 1
    return out


def families_on(case, lo, hi):
    """The first family of every text run that overlaps scalars lo..<hi."""
    out = set()
    for r, s in zip(case["runs"], run_starts(case["runs"])):
        n = len(r["text"]) if "text" in r else 1
        if "text" in r and s < hi and s + n > lo:
            out.add(r.get("families", case["families"])[0])
    return out


def kind(case, text, mine, theirs, widths, engine, their_widths=None):
    """The most likely reason for one disagreement, from the first differing break."""
    k, a, b = first_difference(mine, theirs, len(text))
    lo, hi = min(a, b), max(a, b)
    start = mine[k - 1] if k > 0 else 0
    line = text[start:hi]
    near = text[max(0, lo - 1):hi + 1]
    bounds = run_bounds(case["runs"])
    crosses = any(start < p < hi for p in bounds)
    starts_inside_run = start not in run_starts(case["runs"]) and start > 0
    if engine == "Chromium" and a > b and starts_inside_run and any(start < p <= hi for p in bounds):
        return "line starting inside a run and crossing into another (Blink snaps the first run's part)"
    if engine == "Chromium" and any(is_rtl(c) for c in line) and "DejaVu Sans Mono" in families_on(case, start, hi):
        return "Hebrew fallback after DejaVu Sans Mono (Chromium takes DejaVu Sans)"
    edge = case["width"]
    if k > 0 and (a > b and k - 1 < len(widths) and abs(widths[k - 1] - edge) <= 0.1
                  or a < b and their_widths and k - 1 < len(their_widths) and abs(their_widths[k - 1] - edge) <= 0.1):
        return "width at the box edge (within 0.1 pt)"
    if BOX in text[max(0, lo - 1):lo + 1] or BOX in text[max(0, hi - 1):hi + 1]:
        return "break opportunity next to an inline box"
    if any(is_thai(c) for c in near):
        return "Thai word segmentation (ICU's dictionary vs libthai)" if engine == "Pango" else "Thai word segmentation"
    if any(is_emoji(c) for c in text[max(0, lo - 4):hi + 4]):
        return "emoji at a line end"
    if line.rstrip("\n").endswith("  ") or text[start:lo].endswith("  "):
        return "trailing spaces (Pango hangs only the last one)"
    if "-" in text[max(0, lo - 2):hi + 1]:
        return "break after hyphen"
    if engine == "Pango" and "<" in text[max(0, lo - 1):hi + 1]:
        return "break before `<` (Pango's pair rules)"
    if any(is_rtl(c) for c in line):
        return "right-to-left line"
    if " " in line and any(is_cjk(c) or is_rtl(c) for c in line):
        return "spaces next to CJK (space font)"
    if crosses:
        return "line with a run boundary (other)"
    return "other"


def evaluate(cases, texts, plumb, widths, reference, engine, reference_widths=None):
    e = {"total": collections.Counter(), "count": collections.Counter(), "starts": collections.Counter(),
         "kinds": collections.Counter(), "examples": collections.defaultdict(list)}
    for i, (case, text, p, w, r) in enumerate(zip(cases, texts, plumb, widths, reference)):
        keys = ["all", "script: " + case["script"], "width: %d" % case["width"],
                "boxes: %s" % ("yes" if BOX in text else "no")]
        for key in keys:
            e["total"][key] += 1
            e["count"][key] += len(p) == len(r)
            e["starts"][key] += p == r
        if p != r:
            kd = kind(case, text, p, r, w, engine, reference_widths[i] if reference_widths else None)
            e["kinds"][kd] += 1
            e["examples"][kd].append((case, text, p, r))
    return e


def pct(n, d):
    return 100.0 * n / d if d else 100.0


def shown(text, starts, k):
    def seg(i):
        return text[starts[i]:starts[i + 1] if i + 1 < len(starts) else len(text)] if 0 <= i < len(starts) else ""
    return (seg(k - 1) + "⏎" + seg(k)).replace(BOX, "▣").replace("`", "ˋ").replace("\n", "\\n")


def marked_runs(case, lo, hi):
    """The runs around a break, `|` between runs, boxes as ▣ with their size."""
    out, pos = [], 0
    for r in case["runs"]:
        piece = r["text"] if "text" in r else BOX
        end = pos + len(piece)
        if end > lo - 12 and pos < hi + 12:
            if "attachment" in r:
                b = r["attachment"]
                out.append("▣%g×%g@%g" % (b["width"], b["height"], b["baselineOffset"]))
            else:
                attrs = []
                if "weight" in r:
                    attrs.append("w%d" % r["weight"])
                if "size" in r:
                    attrs.append("%gpt" % r["size"])
                if "families" in r:
                    attrs.append(r["families"][0])
                out.append(piece.replace("\n", "\\n").replace("`", "ˋ") + ("{%s}" % ",".join(attrs) if attrs else ""))
        pos = end
    return " | ".join(out)


def table(e, title, lines, breakdown=True, examples=2):
    lines += ["", "#### %s" % title, ""]
    t = e["total"]
    if breakdown:
        lines += ["| group | cases | line count agrees | all line starts agree |", "|---|---:|---:|---:|"]
        order = ["all", "boxes: yes", "boxes: no"] + sorted(k for k in t if k.startswith("script")) + \
            sorted((k for k in t if k.startswith("width")), key=lambda s: int(s.split()[-1]))
        for key in order:
            lines.append("| %s | %d | %.2f %% | %.2f %% |" % (
                key, t[key], pct(e["count"][key], t[key]), pct(e["starts"][key], t[key])))
        lines.append("")
    lines += ["| kind of disagreement | cases |", "|---|---:|"]
    lines += ["| %s | %d |" % (kd, n) for kd, n in e["kinds"].most_common()]
    lines += ["", "Examples (first differing break, `⏎` = line end; then the runs there, `|` between runs,"
              " `▣W×H@offset` a box):", ""]
    for kd, _ in e["kinds"].most_common():
        for case, text, p, r in e["examples"][kd][:examples]:
            k, a, b = first_difference(p, r, len(text))
            lines.append("- %s — width %d, %s: Plumb `%s` · %s `%s` — runs `%s`" % (
                kd, case["width"], case["families"][0], shown(text, p, k), title.split(" vs ")[-1],
                shown(text, r, k), marked_runs(case, min(a, b), max(a, b))))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("cases")
    ap.add_argument("pango")
    ap.add_argument("chromium")
    ap.add_argument("plumb")
    ap.add_argument("--report", help="write the Markdown section here")
    ap.add_argument("--update-doc", help="replace the generated part of this Markdown file's rich-text section")
    ap.add_argument("--write-subset")
    ap.add_argument("--subset-size", type=int, default=400)
    args = ap.parse_args()
    cases = [json.loads(l) for l in open(args.cases, encoding="utf-8") if l.strip()]
    texts = [rich_corpus.flattened(c["runs"]) for c in cases]
    pango = json.load(open(args.pango, encoding="utf-8"))
    chrome = json.load(open(args.chromium, encoding="utf-8"))
    plumb = json.load(open(args.plumb, encoding="utf-8"))
    pa, ch = pango["lineStarts"], chrome["lineStarts"]
    assert len(pa) == len(ch) == len(cases), "answers for other cases"
    n = len(cases)

    lines = []
    summary = []
    for profile in ["standard", "pango", "chromium"]:
        p = plumb[profile]["lineStarts"]
        row = {"profile": profile,
               "pango": (pct(sum(len(x) == len(y) for x, y in zip(p, pa)), n), pct(sum(x == y for x, y in zip(p, pa)), n)),
               "chromium": (pct(sum(len(x) == len(y) for x, y in zip(p, ch)), n), pct(sum(x == y for x, y in zip(p, ch)), n)),
               "either": (pct(sum(len(x) == len(y) or len(x) == len(z) for x, y, z in zip(p, pa, ch)), n),
                          pct(sum(x == y or x == z for x, y, z in zip(p, pa, ch)), n))}
        summary.append(row)
        print("%-9s vs Pango %.2f / %.2f, vs Chromium %.2f / %.2f, either %.2f / %.2f (line counts / starts %%)" % (
            profile, *row["pango"], *row["chromium"], *row["either"]))
    engines = (pct(sum(len(x) == len(y) for x, y in zip(pa, ch)), n), pct(sum(x == y for x, y in zip(pa, ch)), n))
    print("Pango vs Chromium: line counts %.2f %%, line starts %.2f %%" % engines)

    lines += ["| Plumb profile | vs Pango: line count | all line starts | vs Chromium: line count | all line starts"
              " | vs either: line count | all line starts |", "|---|---:|---:|---:|---:|---:|---:|"]
    for row in summary:
        lines.append("| `%s` | %.2f %% | %.2f %% | %.2f %% | %.2f %% | %.2f %% | %.2f %% |" % (
            row["profile"], *row["pango"], *row["chromium"], *row["either"]))
    lines.append("| Pango vs Chromium | | | %.2f %% | %.2f %% | | |" % engines)

    evaluations = [
        (evaluate(cases, texts, plumb["pango"]["lineStarts"], plumb["pango"]["lineWidths"], pa, "Pango",
                  pango.get("lineWidths")), "`pango` vs Pango"),
        (evaluate(cases, texts, plumb["chromium"]["lineStarts"], plumb["chromium"]["lineWidths"], ch, "Chromium"),
         "`chromium` vs Chromium"),
        (evaluate(cases, texts, plumb["standard"]["lineStarts"], plumb["standard"]["lineWidths"], pa, "Pango",
                  pango.get("lineWidths")),
         "`standard` vs Pango"),
        (evaluate(cases, texts, plumb["standard"]["lineStarts"], plumb["standard"]["lineWidths"], ch, "Chromium"),
         "`standard` vs Chromium"),
        (evaluate(cases, texts, ch, [[]] * n, pa, "Pango"), "Chromium vs Pango"),
    ]
    # `standard` where it matches neither engine, classified against the one it is closer to
    # (Pango when both are equally far).
    misses = collections.Counter()
    std, std_w = plumb["standard"]["lineStarts"], plumb["standard"]["lineWidths"]
    for i, (case, text) in enumerate(zip(cases, texts)):
        if std[i] == pa[i] or std[i] == ch[i]:
            continue
        kp = kind(case, text, std[i], pa[i], std_w[i], "Pango", pango.get("lineWidths", [None] * n)[i])
        kc = kind(case, text, std[i], ch[i], std_w[i], "Chromium")
        misses["Pango: %s · Chromium: %s" % (kp, kc)] += 1
    lines += ["", "#### `standard` where it agrees with neither engine (%d cases)" % sum(misses.values()), "",
              "| kind against Pango · kind against Chromium | cases |", "|---|---:|"]
    lines += ["| %s | %d |" % (k, v) for k, v in misses.most_common(12)]
    rest = sum(v for _, v in misses.most_common()[12:])
    if rest:
        lines.append("| (%d other combinations) | %d |" % (len(misses) - 12, rest))
    for n_eval, (e, title) in enumerate(evaluations):
        print(title, dict(e["kinds"].most_common()))
        table(e, title, lines, breakdown=n_eval < 2, examples=2 if n_eval < 2 else 1)
    if args.report:
        with open(args.report, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
    if args.update_doc:
        # Replaces the generated part of the document's rich-text section (between markers).
        doc = open(args.update_doc, encoding="utf-8").read()
        head, rest = doc.split(BEGIN, 1)
        _, tail = rest.split(END, 1)
        with open(args.update_doc, "w", encoding="utf-8") as f:
            f.write(head + BEGIN + "\n" + "\n".join(lines) + "\n" + END + tail)
    if args.write_subset:
        picked = sorted(random.Random(1414).sample(range(n), min(args.subset_size, n)))
        with open(args.write_subset, "w", encoding="utf-8") as f:
            for i in picked:
                c = {k: v for k, v in cases[i].items() if k in ("families", "size", "width", "runs")}
                c["pangoLineStarts"], c["chromiumLineStarts"] = pa[i], ch[i]
                f.write(json.dumps(c, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    sys.exit(main())
