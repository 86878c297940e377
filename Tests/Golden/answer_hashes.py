#!/usr/bin/env python3
"""Hashes every answer Plumb gives on a fixed input set, to prove a refactor changed nothing.

Inputs (made deterministically, nothing fetched): the benchmark corpus (4,000 real texts) at
three widths with a rotation of paragraph styles (line spacing, multiple, min/max line height,
maxLines with each truncating mode, letter spacing, weight/italic, device metrics, height
limit, single line, scale 1/2/3), plus both stored conformance subsets as they are, each under
all three compatibility profiles; and the rich (attributed) conformance subset, as stored and
truncated with a token, under each profile (hashed apart: "total with rich"). Every output line (height, width, line count, truncation,
line starts and line boxes, warnings) is hashed; one SHA-256 per group and one in total.

Usage: Tests/Golden/answer_hashes.py [path/to/plumb] [--dump DIR]
Compare the printed hashes before and after a change: equal hashes = identical answers.
"""
import hashlib, json, os, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROFILES = ["standard", "pango", "chromium"]
CASCADES = [["Noto Sans", "Noto Sans CJK SC"], ["DejaVu Sans", "Noto Sans CJK SC"], ["Noto Sans CJK SC"]]
STYLES = [
    {},
    {"lineSpacing": 8},
    {"lineHeightMultiple": 1.3, "paragraphSpacing": 6},
    {"minimumLineHeight": 24, "maximumLineHeight": 24},
    {"maxLines": 2, "lineBreakMode": "truncatingTail"},
    {"maxLines": 1, "lineBreakMode": "truncatingMiddle"},
    {"maxLines": 2, "lineBreakMode": "truncatingHead"},
    {"lineBreakMode": "charWrapping", "letterSpacing": 0.7},
    {"weight": 700, "italic": True, "scale": 3},
    {"usesDeviceMetrics": True, "scale": 1},
    {"heightLimit": 50, "usesFontLeading": False},
    {"usesLineFragmentOrigin": False, "lineBreakMode": "clipping"},
    {"size": 11.5, "paragraphSpacingBefore": 3},
    {"alignment": "center", "maxLines": 3, "truncatesLastVisibleLine": True},
]
WIDTHS = [90, 200, 320]


def corpus_cells():
    with open(os.path.join(ROOT, "Benchmarks/Corpus/cells.jsonl"), encoding="utf-8") as f:
        texts = [json.loads(line)["text"] for line in f if line.strip()]
    for i, text in enumerate(texts):
        cell = {"id": i, "text": text, "families": CASCADES[i % 3], "size": 15,
                "width": WIDTHS[(i // 3) % 3]}
        cell.update(STYLES[i % len(STYLES)])
        yield cell
        # Every text also at a second width with the plain style (re-layout path, warm cache).
        yield {"id": f"{i}b", "text": text, "families": CASCADES[i % 3], "size": 15,
               "width": WIDTHS[(i // 3 + 1) % 3] + 17}


def subset_cells(name):
    with open(os.path.join(ROOT, "Tests/Conformance", name), encoding="utf-8") as f:
        for i, line in enumerate(f):
            if not line.strip():
                continue
            c = json.loads(line)
            yield {"id": i, "text": c["text"], "families": c["families"], "size": c["size"],
                   "width": c["width"], "scale": 1}


def rich_cells():
    """The rich conformance subset as stored, and again truncated to two lines with a token."""
    with open(os.path.join(ROOT, "Tests/Conformance/rich_subset.jsonl"), encoding="utf-8") as f:
        for i, line in enumerate(f):
            if not line.strip():
                continue
            c = json.loads(line)
            c["id"] = i
            c.setdefault("scale", 1)
            yield c
            t = dict(c, id=f"{i}t", maxLines=2, lineBreakMode="truncatingTail", scale=2,
                     truncationToken=[{"text": "… more", "weight": 700}])
            yield t


def run(binary, cells, profile, workers):
    data = "".join(json.dumps(c, ensure_ascii=False) + "\n" for c in cells).encode()
    # --exact-numbers: shortest round-trip numbers, as before the 6-decimal default, so the
    # hashes stay comparable with older builds.
    out = subprocess.run([binary, "measure", "--compatibility", profile, "--lines", "--line-starts",
                          "--exact-numbers", "--workers", str(workers)], input=data, capture_output=True, check=False)
    if out.returncode not in (0, 1):
        sys.exit(f"plumb measure failed ({out.returncode}): {out.stderr.decode()[:400]}")
    return out.stdout


def main():
    args = sys.argv[1:]
    dump = None
    if "--dump" in args:
        k = args.index("--dump"); dump = args[k + 1]; del args[k:k + 2]
        os.makedirs(dump, exist_ok=True)
    binary = args[0] if args else os.path.join(ROOT, ".build/release/plumb")
    total = hashlib.sha256()
    groups = [("corpus", lambda: corpus_cells()), ("pango-subset", lambda: subset_cells("subset.jsonl")),
              ("chromium-subset", lambda: subset_cells("chromium_subset.jsonl"))]
    for name, make in groups:
        for profile in PROFILES:
            out = run(binary, list(make()), profile, workers=2)
            h = hashlib.sha256(out).hexdigest()
            total.update(out)
            lines = out.count(b"\n")
            print(f"{name:16} {profile:9} {lines:6} lines  {h[:16]}")
            if dump:
                with open(os.path.join(dump, f"{name}-{profile}.jsonl"), "wb") as f:
                    f.write(out)
    # Attributed cells: hashed apart, so the plain total stays comparable with older builds.
    with_rich = total.copy()
    for profile in PROFILES:
        out = run(binary, list(rich_cells()), profile, workers=2)
        with_rich.update(out)
        lines = out.count(b"\n")
        print(f"{'rich-subset':16} {profile:9} {lines:6} lines  {hashlib.sha256(out).hexdigest()[:16]}")
        if dump:
            with open(os.path.join(dump, f"rich-subset-{profile}.jsonl"), "wb") as f:
                f.write(out)
    print(f"{'total with rich':16} {'':9} {'':12} {with_rich.hexdigest()[:16]}")
    print(f"{'total':16} {'':9} {'':12} {total.hexdigest()[:16]}")


if __name__ == "__main__":
    main()
