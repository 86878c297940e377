"""The application fonts of the app-font oracles (issue 28) and the style variant of each case.

Every file is Debian's: Inter's variable roman and italic (`fonts-inter-variable`, unpacked by
setup.sh under /opt, outside fontconfig's folders, so the system does not have Inter) and DejaVu
Serif's regular face (`fonts-dejavu-core`). The italic is converted to WOFF2 with `woff2_compress`
at run time (a converted font is never stored). `AppFontConformanceTests` registers the same
files with the same names.
"""
import os
import shutil
import subprocess

INTER_DIR = "/opt/plumb-test-fonts/usr/share/fonts/truetype/inter-vf"
DEJAVU_SERIF = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"

# Style fields a case may set besides text, families, size and width (Plumb's JSON names).
STYLE_FIELDS = ("weight", "italic", "fontFeatures", "fontVariantNumeric")

# Weights along Inter's wght axis, non-multiples of 100 included.
WEIGHTS = [100, 150, 200, 250, 300, 333, 350, 400, 450, 500, 550, 600, 650, 700, 750, 800, 850, 900]
# Feature settings as CSS states them (font-feature-settings, font-variant-numeric).
FEATURES = [{"fontFeatures": '"tnum"'}, {"fontFeatures": '"liga" 0'}, {"fontFeatures": '"tnum", "calt" 0'},
            {"fontFeatures": '"ss01"'}, {"fontFeatures": '"kern" 0'}, {"fontVariantNumeric": "tabular-nums"},
            {"fontVariantNumeric": "slashed-zero tabular-nums"}]
FALLBACK = "Noto Sans CJK SC"


def files(work):
    """The registered files: family, path, and the weight range and style `@font-face` gives."""
    woff2 = os.path.join(work, "Inter-italic.var.woff2")
    ttf = os.path.join(work, "Inter-italic.var.ttf")
    shutil.copyfile(os.path.join(INTER_DIR, "Inter-italic.var.ttf"), ttf)
    subprocess.run(["woff2_compress", ttf], check=True, capture_output=True)
    os.unlink(ttf)
    return [
        {"family": "Inter", "path": os.path.join(INTER_DIR, "Inter-roman.var.ttf"), "weights": "100 900", "style": "normal"},
        {"family": "Inter", "path": woff2, "weights": "100 900", "style": "italic"},
        {"family": "DejaVu Serif", "path": DEJAVU_SERIF, "weights": "400", "style": "normal"},
    ]


def variant(i):
    """The fonts and style of case `i`: a variable weight, the WOFF2 italic, a feature setting,
    or DejaVu Serif's one face asked for in bold and italic (synthesised)."""
    kind = i % 6
    if kind in (0, 1):
        return {"variant": "inter-weight", "families": ["Inter", FALLBACK], "weight": WEIGHTS[(i // 6 + kind * 7) % len(WEIGHTS)]}
    if kind == 2:
        return {"variant": "inter-italic", "families": ["Inter", FALLBACK], "italic": True,
                "weight": WEIGHTS[(i // 6) % len(WEIGHTS)]}
    if kind in (3, 4):
        style = dict(FEATURES[(i // 6 + kind) % len(FEATURES)])
        style.update(variant="inter-features", families=["Inter", FALLBACK], weight=[400, 450, 700][(i // 6) % 3])
        return style
    bold, italic = (i // 6) % 2 == 1, (i // 12) % 2 == 1
    return {"variant": "serif-synthetic", "families": ["DejaVu Serif", FALLBACK], "weight": 700 if bold else 400,
            "italic": italic}
