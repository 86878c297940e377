/// A glyph to draw: which glyph of which font, where (pen x, baseline y in points), and
/// whether it is part of the ellipsis of a truncated line.
struct PlacedGlyph: Sendable {
    let font: Font
    let glyph: UInt32
    let x: Double
    let baseline: Double
    let scale: Double  // points per font unit
    let isEllipsis: Bool
}

/// Positions the glyphs of a layout from Plumb's own geometry: each line starts at x = 0 on its
/// baseline; runs of one font are shaped for their glyphs and placed from the run's start; after
/// each run the pen moves by the run's advances as the layout measured them, so drawing never
/// drifts from the measured lines. Runs are placed in logical order and HarfBuzz returns each
/// run in visual order, so a right-to-left run reads correctly on its own; lines that mix
/// directions are not reordered (UAX #9 is not implemented — noted in Decisions.md).
enum GlyphPlacer {
    static func glyphs(of layout: TextLayout) -> [[PlacedGlyph]] {
        guard let source = layout.rendering else { return [] }
        let p = source.prepared
        var text = layout.text
        let shaper = Shaper()
        return text.withUTF8 { utf8 in
            layout.lines.enumerated().map { (i, line) -> [PlacedGlyph] in
                var out: [PlacedGlyph] = []
                var x = 0.0
                let drawn = source.lineGraphemes[i]
                for (k, range) in drawn.visible.enumerated() {
                    place(range, source, utf8, shaper, baseline: line.baseline, x: &x, into: &out)
                    if drawn.hasEllipsis && k == 0 {
                        placeEllipsis(p, source.fontSize, shaper, baseline: line.baseline, x: &x, into: &out)
                    }
                }
                return out
            }
        }
    }

    private static func place(
        _ range: Range<Int32>, _ source: RenderingSource, _ utf8: UnsafeBufferPointer<UInt8>,
        _ shaper: Shaper, baseline: Double, x: inout Double, into out: inout [PlacedGlyph]
    ) {
        let p = source.prepared
        let size = source.fontSize
        var g = Int(range.lowerBound)
        let end = Int(range.upperBound)
        while g < end {
            if p.flags[g].contains(.tab) {
                x += advance(at: x, interval: source.tabInterval)
                g += 1
                continue
            }
            var runEnd = g + 1
            while runEnd < end && !p.flags[runEnd].contains(.tab) && p.graphemeFonts[runEnd] == p.graphemeFonts[g] {
                runEnd += 1
            }
            let font = p.fonts[Int(p.graphemeFonts[g])].font
            let k = size / font.upem
            let byteStart = Int(p.graphemeStarts[g])
            let bytes = UnsafeBufferPointer(rebasing: utf8[byteStart..<Int(p.graphemeEnds[runEnd - 1])])
            let runWidth = (g..<runEnd).reduce(0.0) { $0 + p.advances[$1] }
            let shaped = shaper.glyphs(bytes, font: font)
            // Letter spacing (and rounding) spread over the run's clusters.
            let letterSpacing = runWidth - Double(shaped.reduce(0) { $0 + Int($1.advance) }) * k
            let clusters = Set(shaped.map(\.cluster)).count
            let extraPerCluster = clusters > 0 ? letterSpacing / Double(clusters) : 0
            var pen = x
            var lastCluster: UInt32? = nil
            for s in shaped {
                if let last = lastCluster, last != s.cluster { pen += extraPerCluster }
                lastCluster = s.cluster
                out.append(PlacedGlyph(
                    font: font, glyph: s.id, x: pen + Double(s.xOffset) * k,
                    baseline: baseline - Double(s.yOffset) * k, scale: k, isEllipsis: false))
                pen += Double(s.advance) * k
            }
            x += runWidth
            g = runEnd
        }
    }

    private static func placeEllipsis(
        _ p: PreparedText, _ size: Double, _ shaper: Shaper, baseline: Double, x: inout Double,
        into out: inout [PlacedGlyph]
    ) {
        let font = p.fonts[Int(p.ellipsisFont)].font
        let k = size / font.upem
        let bytes: [UInt8] = [0xE2, 0x80, 0xA6]
        bytes.withUnsafeBufferPointer { b in
            var pen = x
            for s in shaper.glyphs(b, font: font) {
                out.append(PlacedGlyph(font: font, glyph: s.id, x: pen + Double(s.xOffset) * k,
                                       baseline: baseline - Double(s.yOffset) * k, scale: k, isEllipsis: true))
                pen += Double(s.advance) * k
            }
        }
        x += p.ellipsisWidth
    }

    /// A tab's advance: to the next stop strictly after `x` (the layout's rule).
    private static func advance(at x: Double, interval: Double) -> Double {
        (x / interval).rounded(.down) * interval + interval - x
    }
}
