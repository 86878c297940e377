#!/usr/bin/env bash
# Regenerates Documentation/gallery/*.svg and Documentation/Gallery.md with the built plumb.
# Usage: Documentation/gallery/make_gallery.sh [path/to/plumb]
set -euo pipefail
cd "$(dirname "$0")/../.."
PLUMB="${1:-.build/release/plumb}"
OUT=Documentation/gallery
render() { local name="$1"; shift; "$PLUMB" render "$@" -o "$OUT/$name.svg"; }

render cjk "今天的天气非常好，我们一起去公园散步吧。路上还可以买一杯咖啡，看看湖边的风景。" \
  --size 17 --width 220 --line-spacing 6 --overlays lines,baselines,gaps,boxes
render emoji "Family 👨‍👩‍👧‍👦, thumbs 👍🏽, flags 🇯🇵🇫🇷, keycap 1️⃣ and ❤️ in one message." \
  --size 17 --width 220 --line-spacing 4 --overlays lines,baselines
render truncation "A long summary that is cut to two lines with an ellipsis at the end of the second line, as a card shows it." \
  --size 15 --width 220 --max-lines 2 --line-break-mode truncatingTail --overlays all
render fade-last-line "The end of only the last line fades out, wherever it ends, with any line spacing." \
  --size 17 --width 220 --line-spacing 8 --min-line-height 26 --fade-last-line 60
render gradient "Gradient text 🌈 where the emoji keep their own colors 😀🎉" \
  --size 20 --width 220 --gradient "#ff2d55,#5856d6,30"
render scroll-fade "A scrollable text view whose bottom edge fades: the text is laid out at its full content height and shown through a viewport. Lines keep going below the edge of the view, and the fade hints that there is more to read." \
  --size 15 --width 220 --viewport 90 --fade-edge 30 --fade-side bottom
render right-to-left "שלום עולם, זה טקסט 123 בעברית (עם סוגריים) and English words at the end" \
  --families "Noto Sans,Noto Sans Hebrew" --size 17 --width 220 --line-spacing 6 --fade-last-line 40 --overlays lines,baselines
render private-reading "Every line is covered except the one under the finger. The hit test maps a touch in a line-spacing or paragraph gap to the line above it." \
  --size 15 --width 220 --line-spacing 8 --cover-lines --reveal-at-y 40
"$PLUMB" render --file Documentation/examples/cells.jsonl --width 300 --overlays boxes -o "$OUT/list.svg"

cat > Documentation/Gallery.md <<'MD'
# Gallery

Rendered by `plumb render` (glyph outlines from the fonts through HarfBuzz, emoji from their
embedded PNGs, every position from Plumb's layout). Regenerate with
`Documentation/gallery/make_gallery.sh` after `swift build -c release`.

| | |
|---|---|
| CJK with line rects, baselines and gaps | ![](gallery/cjk.svg) |
| Emoji sequences (ZWJ, skin tone, flags, keycap, VS16) | ![](gallery/emoji.svg) |
| Truncation: two lines, tail ellipsis, all overlays | ![](gallery/truncation.svg) |
| Last-line fade (`--fade-last-line 60`) | ![](gallery/fade-last-line.svg) |
| Gradient text, emoji keep their colors | ![](gallery/gradient.svg) |
| Scroll fade (`--viewport 90 --fade-edge 30`) | ![](gallery/scroll-fade.svg) |
| Right to left: Hebrew with a number, brackets and English, lines on the right, the fade at the left end (`--fade-last-line 40`) | ![](gallery/right-to-left.svg) |
| Private reading (`--cover-lines --reveal-at-y 40`) | ![](gallery/private-reading.svg) |
| A list of the sample cells, each row as `measure` lays it out (its own width and style, as tall as measured); the `width: 0` row is a marked fallback | ![](gallery/list.svg) |
MD
echo "gallery written to $OUT"
