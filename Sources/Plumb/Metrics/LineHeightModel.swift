/// UIKit's line-height rules, as pure arithmetic over font metrics.
///
/// - natural = max over the line's fonts of (ascender − descender [+ line gap with
///   `usesFontLeading`]);
/// - × `lineHeightMultiple` when > 0; then clamped by `minimumLineHeight` and
///   `maximumLineHeight` when > 0;
/// - gaps: `lineSpacing` between consecutive lines, plus `paragraphSpacing` +
///   `paragraphSpacingBefore` after a paragraph's last line — never after the last line
///   (n lines have n − 1 gaps);
/// - the baseline sits at the line's top + (height − natural) + ascender: extra height from
///   a minimum line height or a multiple goes above the text, as TextKit.
struct LineHeightModel: Sendable {
    let usesFontLeading: Bool
    let lineHeightMultiple: Double
    let minimumLineHeight: Double
    let maximumLineHeight: Double
    let lineSpacing: Double
    let paragraphGap: Double

    init(style: SanitizedStyle) {
        usesFontLeading = style.options.contains(.usesFontLeading)
        lineHeightMultiple = style.lineHeightMultiple
        minimumLineHeight = style.minimumLineHeight
        maximumLineHeight = style.maximumLineHeight
        lineSpacing = style.lineSpacing
        paragraphGap = style.paragraphSpacing + style.paragraphSpacingBefore
    }

    /// Natural height and ascender of the fonts in `mask` (or every grapheme's font of the
    /// line when the mask overflowed).
    func natural(of line: LineBox, in text: PreparedText) -> (height: Double, ascender: Double) {
        var height = 0.0
        var ascender = 0.0
        let fonts = text.fontLines
        let leading = usesFontLeading
        func add(_ i: Int) {
            let f = fonts[i]
            height = max(height, leading ? f.heightWithLeading : f.heightWithoutLeading)
            ascender = max(ascender, f.ascender)
        }
        var mask = line.fontMask
        if mask & (1 << 63) != 0 && fonts.count > 63 {
            for g in line.graphemeStart..<line.graphemeEnd { add(Int(text.graphemeFonts[Int(g)])) }
            mask &= ~(1 << 63)
        }
        if mask == 0 && line.graphemeStart == line.graphemeEnd { mask = 1 }
        while mask != 0 {
            let i = mask.trailingZeroBitCount
            if i < fonts.count { add(i) }
            mask &= mask - 1
        }
        return (height, ascender)
    }

    /// The line height after the multiple and the min/max clamps.
    @inline(__always)
    func lineHeight(natural: Double) -> Double {
        var h = natural
        if lineHeightMultiple > 0 { h *= lineHeightMultiple }
        if minimumLineHeight > 0 { h = max(h, minimumLineHeight) }
        if maximumLineHeight > 0 { h = min(h, maximumLineHeight) }
        return h
    }

    /// The gap after a line that is not the last one.
    @inline(__always)
    func gap(afterLineEndingParagraph endsParagraph: Bool) -> Double {
        lineSpacing + (endsParagraph ? paragraphGap : 0)
    }
}
