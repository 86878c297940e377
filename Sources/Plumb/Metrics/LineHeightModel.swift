/// UIKit's line-height rules, as pure arithmetic over font metrics.
///
/// - natural = max over the line's fonts of (ascender − descender [+ line gap with
///   `usesFontLeading`]) when they are all of one run style (plain text: the cascade and
///   its fallbacks); with several run styles, inline boxes or baseline offsets on the line,
///   baselines align (TextKit): each style group g has ascent A_g = max ascender and descent
///   D_g = max natural height − A_g, a box ascent height + offset and descent max(0, −offset),
///   and natural = max A_g + max D_g, the baseline max A_g below the top;
/// - `lineHeightEm` × font size when > 0, else × `lineHeightMultiple` when > 0; then clamped by `minimumLineHeight` and
///   `maximumLineHeight` when > 0;
/// - gaps: `lineSpacing` between consecutive lines, plus `paragraphSpacing` +
///   `paragraphSpacingBefore` after a paragraph's last line — never after the last line
///   (n lines have n − 1 gaps);
/// - the baseline sits at the line's top + (height − natural) + ascender: extra height from
///   a minimum line height or a multiple goes above the text, as TextKit.
///
/// Under `LayoutConventions.LineHeightRule.blink` the natural height is Blink's CSS line box
/// instead (`BlinkLineBox`), at the device scale; a fixed height (`lineHeightEm`, or equal
/// minimum and maximum: CSS `line-height: <px>`) is exact in layout units and not clamped
/// again; otherwise the multiple and the clamps apply to the CSS `normal` height.
///
/// Under `LayoutConventions.LineHeightRule.pango` the line is Pango's logical rect
/// (`PangoLineBox`) in 1/1024 pt, with the settings a Pango client would set: the multiple
/// is `pango_attr_line_height_new`, a fixed height (`lineHeightEm` × size, or equal minimum and
/// maximum) `pango_attr_line_height_new_absolute`, a minimum alone an absolute height with a
/// factor of 1 (at least that height), all applied per run; line spacing is
/// `pango_layout_set_spacing` (whole Pango units). Pango has no maximum line height, no
/// paragraph spacing and no font leading: an unequal maximum clamps the line as above, the
/// paragraph spacing is added as above and `usesFontLeading` is ignored (Pango's logical rects
/// never include the line gap).
struct LineHeightModel: Sendable {
    let usesFontLeading: Bool
    let lineHeightMultiple: Double
    let minimumLineHeight: Double
    let maximumLineHeight: Double
    let lineSpacing: Double
    let paragraphGap: Double
    /// `lineHeightEm` × font size (0 = unset).
    let emHeight: Double
    /// Whether Blink's line boxes give the natural height.
    let isBlink: Bool
    /// Blink: where glyphs sit at subpixels (`LayoutConventions.SubpixelPositioning`).
    let subpixels: LayoutConventions.SubpixelPositioning
    /// Device pixels per point (Blink rounds metrics to device pixels).
    let scale: Double
    /// Blink: a fixed line height in layout units (0 = `line-height: normal`).
    let blinkFixedUnits: Int
    /// Blink: `lineHeightEm` (each run style's fixed height follows its own size).
    let blinkEm: Double
    /// Pango's line-height attributes when the Pango rule gives the natural height (nil: not).
    private(set) var pango: PangoLineBox.Settings?

    /// The model of `style` at device scale `scale` (only the Blink rule reads the scale).
    init(style: borrowing SanitizedStyle, scale: Double = 1) {
        usesFontLeading = style.options.contains(.usesFontLeading)
        lineHeightMultiple = style.lineHeightMultiple
        emHeight = style.lineHeightEm * style.font.size
        if case .blink(let positioning) = style.conventions.lineHeights {
            isBlink = true
            subpixels = positioning
        } else {
            isBlink = false
            subpixels = .always
        }
        self.scale = scale
        blinkEm = isBlink ? style.lineHeightEm : 0
        if !isBlink {
            blinkFixedUnits = 0
        } else if style.lineHeightEm > 0 {
            blinkFixedUnits = BlinkLineBox.fixedUnits(em: style.lineHeightEm, size: style.font.size, scale: scale)
        } else if style.minimumLineHeight > 0, style.minimumLineHeight == style.maximumLineHeight {
            blinkFixedUnits = BlinkLineBox.fixedUnits(points: style.minimumLineHeight, scale: scale)
        } else {
            blinkFixedUnits = 0
        }
        minimumLineHeight = style.minimumLineHeight
        paragraphGap = style.paragraphSpacing + style.paragraphSpacingBefore
        if case .pango = style.conventions.lineHeights {
            pango = Self.pangoSettings(style)
            // Only a maximum other than a fixed height is left to clamp (Pango has none).
            let fixed = style.lineHeightEm <= 0 && style.minimumLineHeight > 0
                && style.minimumLineHeight == style.maximumLineHeight
            maximumLineHeight = fixed ? 0 : style.maximumLineHeight
            lineSpacing = Double(PangoLineBox.units(style.lineSpacing)) / Double(PangoLineBox.unitsPerPoint)
        } else {
            pango = nil
            maximumLineHeight = style.maximumLineHeight
            lineSpacing = style.lineSpacing
        }
    }

    /// The line-height attributes a Pango client states `style`'s settings with: the multiple
    /// as the factor; `lineHeightEm` × size, else the minimum, as the absolute height; a
    /// minimum that is not also the maximum with a factor of at least 1 (so it is a floor).
    static func pangoSettings(_ style: SanitizedStyle) -> PangoLineBox.Settings {
        var s = PangoLineBox.Settings()
        s.factor = style.lineHeightMultiple
        if style.lineHeightEm > 0 {
            s.absolute = PangoLineBox.units(style.lineHeightEm * style.font.size)
        } else if style.minimumLineHeight > 0 {
            s.absolute = PangoLineBox.units(style.minimumLineHeight)
            if style.minimumLineHeight != style.maximumLineHeight && s.factor == 0 { s.factor = 1 }
        }
        return s
    }

    /// Natural height and ascender of the fonts in `mask` (or every grapheme's font of the
    /// line when the mask overflowed).
    @inline(__always)
    func natural(of line: BrokenLine, in text: PreparedText) -> (height: Double, ascender: Double) {
        natural(mask: line.fontMask, from: line.graphemeStart, to: line.graphemeEnd, in: text)
    }

    /// ``natural(of:in:)`` of a line of graphemes `start..<end` and font mask `lineMask` (all
    /// it reads of a line; a sum of heights passes them in registers, not a `BrokenLine` in memory).
    func natural(mask lineMask: UInt64, from start: Int32, to end: Int32, in text: PreparedText)
        -> (height: Double, ascender: Double)
    {
        var fonts = FontSet()
        var mask = lineMask
        if mask & PreparedText.overflowFontBit != 0 && text.fontLines.count > Int(PreparedText.sharedFontBitIndex) {
            for g in start..<end { fonts.insert(Int(text.graphemeFonts[Int(g)])) }
            mask &= ~PreparedText.overflowFontBit
        }
        if mask == 0 && start == end { mask = 1 }
        fonts.mask |= mask
        if let pango, let table = text.pangoBaselines, start < end {
            let alignment = PangoLineBox.Alignment(
                table, tag: table.tag(at: start), firstFont: Int(text.graphemeFonts[Int(start)]))
            return PangoLineBox.natural(of: fonts, in: text.fontLines, settings: pango, alignment: alignment)
        }
        return natural(of: fonts, in: text.fontLines)
    }

    /// The line's height from its fonts alone, for explanations (`TextLayout.Line.naturalHeight`):
    /// `natural` unless Pango's line-height attributes are already in it, then the union of
    /// the plain run rects.
    func fontsHeight(of line: BrokenLine, in text: PreparedText, natural: Double) -> Double {
        guard let pango, pango.isSet else { return natural }
        var plain = self
        plain.pango = PangoLineBox.Settings()
        return plain.natural(of: line, in: text).height
    }

    /// The local fonts of a line: a mask, and the faces past 63 when the mask overflowed.
    struct FontSet {
        var mask: UInt64 = 0
        /// nil until a face past 63 is inserted (an empty array would cost a retain and a
        /// release per line).
        var overflow: [Int]? = nil

        mutating func insert(_ i: Int) {
            if i < Int(PreparedText.sharedFontBitIndex) {
                mask |= 1 << UInt64(i)
            } else if overflow == nil {
                overflow = [i]
            } else if !overflow!.contains(i) {
                overflow!.append(i)
            }
        }

        func forEach(count: Int, _ body: (Int) -> Void) {
            var m = mask
            while m != 0 {
                let i = m.trailingZeroBitCount
                if i < count { body(i) }
                m &= m - 1
            }
            if let overflow { for i in overflow where i < count { body(i) } }
        }
    }

    /// Natural height and ascender of `set` (see the type's rules).
    func natural(of set: FontSet, in fonts: Packed<PreparedText.FontLine>) -> (height: Double, ascender: Double) {
        if let pango {
            return PangoLineBox.natural(of: set, in: fonts, settings: pango)
        }
        if isBlink {
            return BlinkLineBox.natural(
                of: set, in: fonts, scale: scale, subpixels: subpixels, fixedUnits: blinkFixedUnits,
                em: blinkEm)
        }
        var height = 0.0
        var ascender = 0.0
        var firstGroup: Int32 = -1
        var oneStyle = true
        let leading = usesFontLeading
        set.forEach(count: fonts.count) { i in
            let f = fonts[i]
            height = max(height, leading ? f.heightWithLeading : f.heightWithoutLeading)
            ascender = max(ascender, f.ascender)
            if firstGroup < 0 { firstGroup = f.group }
            if f.group != firstGroup || f.isShifted { oneStyle = false }
        }
        if oneStyle { return (height, ascender) }
        // Several styles: per group, the tallest face's height and the highest ascender; the
        // line spans the highest ascent and the deepest descent.
        var groups: [(group: Int32, ascender: Double, height: Double)] = []
        set.forEach(count: fonts.count) { i in
            let f = fonts[i]
            let h = leading ? f.heightWithLeading : f.heightWithoutLeading
            if let k = groups.firstIndex(where: { $0.group == f.group }) {
                groups[k].ascender = max(groups[k].ascender, f.ascender)
                groups[k].height = max(groups[k].height, h)
            } else {
                groups.append((f.group, f.ascender, h))
            }
        }
        var ascent = -Double.infinity
        var descent = 0.0
        for g in groups {
            ascent = max(ascent, g.ascender)
            descent = max(descent, g.height - g.ascender)
        }
        ascent = max(ascent, 0)
        return (ascent + descent, ascent)
    }

    /// One line of a single font given its numbers at `size` (points): the unmeasurable-width
    /// fallback, under the same rule as a laid-out line (UIKit: the natural height with or
    /// without the gap, then the multiple and the clamps).
    func oneLineHeight(ascender: Double, withLeading: Double, withoutLeading: Double, size: Double) -> Double {
        guard let pango else { return lineHeight(natural: usesFontLeading ? withLeading : withoutLeading) }
        // The Pango rule reads only the doubles and the size (the em fractions are Blink's).
        let face = PreparedText.FontLine(
            ascender: ascender, heightWithLeading: withLeading, heightWithoutLeading: withoutLeading, group: 0,
            isShifted: false,
            em: PreparedText.EmMetrics(ascent: 0, descent: 0, lineGap: 0, size: size, baselineOffset: 0, hasSystemRenderStyle: true))
        return lineHeight(natural: PangoLineBox.height(of: face, settings: pango))
    }

    /// The line height after the multiple and the min/max clamps.
    @inline(__always)
    func lineHeight(natural: Double) -> Double {
        if blinkFixedUnits > 0 { return natural }
        if pango != nil { return maximumLineHeight > 0 ? min(natural, maximumLineHeight) : natural }
        var h = natural
        if emHeight > 0 {
            h = emHeight
        } else if lineHeightMultiple > 0 {
            h *= lineHeightMultiple
        }
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
