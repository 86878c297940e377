/// A line after heights, positions and truncation are applied (unrounded points).
struct PlacedLine: Sendable, Equatable {
    /// The line as `LineBreaker` broke it (truncation may shorten it).
    var broken: BrokenLine
    var y: Double
    var height: Double
    /// Natural height before multiple/min/max (for explanations).
    var naturalHeight: Double
    /// Baseline distance from the line's top.
    var baselineOffset: Double
    /// Gap after this line (0 for the last line).
    var gapAfter: Double
    var truncation: Truncation?
}

/// How a truncated last line shows its text: graphemes `[broken.graphemeStart, headEnd)` and
/// `[tailStart, tailEnd)` are visible around an ellipsis.
struct Truncation: Sendable, Equatable {
    var placement: EllipsisPlacement
    var headEnd: Int32
    var tailStart: Int32
    var tailEnd: Int32
    var ellipsisWidth: Double
    /// The local font "…" is drawn in (the first token piece's for a token).
    var ellipsisFont: UInt8 = 0
}

/// The complete, unrounded layout of one text (no C): lines and the height sum.
struct AssembledLayout: Sendable {
    /// The lines; empty when only the measurement was asked for (see `lineCount`).
    var lines: [PlacedLine]
    var lineCount: Int
    /// Σ line heights + gaps (unrounded).
    var height: Double
    var widestLine: Double
    var isTruncated: Bool
    /// Some line broke inside a word (so the layout is not valid for every width ≥ widest).
    var brokeInsideWord: Bool
    var warnings: [MeasureWarning]
}

/// Lines → heights → truncation: the Metrics stage, pure arithmetic.
///
/// - Complexity: O(lines), plus O(graphemes of the paragraph) for an ellipsis.
/// - Thread safety: pure function of its inputs.
enum LayoutAssembler {
    /// A line fits under the height limit if its bottom passes the limit by at most this
    /// fraction of it plus ``heightLimitSlack``: the rounding noise of summed heights.
    static let heightLimitRelativeSlack = 1e-12
    /// The absolute part (points) of the height limit's slack (``heightLimitRelativeSlack``).
    static let heightLimitSlack = 1e-9

    /// Lays out `text` (`scale`: device pixels per point, for line-height rules that round to
    /// device pixels). With `needsLines == false` and nothing that can cut lines (no
    /// maxLines, no height limit) the lines are streamed into running sums instead of arrays:
    /// the same arithmetic in the same order, so the numbers are bit-identical.
    static func assemble(
        _ text: PreparedText, style: SanitizedStyle, width: LayoutWidth, scale: Double = 1, needsLines: Bool = true
    ) -> AssembledLayout {
        if !needsLines && streams(style) {
            let s = measure(text, style: style, width: width, scale: scale)
            return AssembledLayout(
                lines: [], lineCount: s.lineCount, height: s.height, widestLine: s.widestLine,
                isTruncated: false, brokeInsideWord: s.brokeInsideWord, warnings: [])
        }
        let breaker = lineBreaker(text, style: style, width: width)
        let maxWidth = breaker.maxWidth
        let model = LineHeightModel(style: style, scale: scale)
        let brokenLines = breaker.lines()

        var lines: [PlacedLine] = []
        lines.reserveCapacity(brokenLines.count)
        var y = 0.0
        for broken in brokenLines {
            let natural = model.natural(of: broken, in: text)
            let h = model.lineHeight(natural: natural.height)
            lines.append(
                PlacedLine(
                    broken: broken, y: y, height: h, naturalHeight: model.fontsHeight(of: broken, in: text, natural: natural.height),
                    baselineOffset: baselineOffset(height: h, natural: natural),
                    gapAfter: 0, truncation: nil))
            y += h + model.gap(afterLineEndingParagraph: broken.endsParagraph)
        }

        var truncated = false
        var cutByMaxLines = false
        var warnings: [MeasureWarning] = []
        // maxLines: keep the first maxLines lines.
        if style.maxLines > 0 && lines.count > style.maxLines {
            lines.removeLast(lines.count - style.maxLines)
            truncated = true
            cutByMaxLines = true
        }
        // Height limit: an upper bound — drop lines that do not fully fit (∞ when unlimited).
        let heightBound = style.heightLimit * (1 + Self.heightLimitRelativeSlack) + Self.heightLimitSlack
        var cutByHeight = false
        if style.heightLimit.isFinite {
            let keep = lines.prefix { $0.y + $0.height <= heightBound }.count
            if keep < lines.count {
                if keep == 0 { warnings.append(.heightLimitBelowFirstLine(style.heightLimit)) }
                lines.removeLast(lines.count - keep)
                truncated = true
                cutByHeight = true
            }
        }
        // The ellipsis on the last kept line.
        var placement: EllipsisPlacement? = nil
        if truncated {
            placement = style.lineBreakMode.ellipsisPlacement
            if placement == nil && cutByHeight && !cutByMaxLines
                && style.options.contains(.truncatesLastVisibleLine)
                && style.lineBreakMode != .clipping
            {
                placement = .tail
            }
        }
        if let placement, !lines.isEmpty {
            let last = lines.count - 1
            let lineWidth = maxWidth.isFinite
                ? breaker.indents.width(box: maxWidth, start: breaker.indents.start(of: lines[last].broken, in: text))
                : maxWidth
            let t = truncate(lines[last].broken, in: text, maxWidth: lineWidth, placement: placement)
            lines[last].broken = t.line
            lines[last].truncation = t.truncation
            let natural = model.natural(of: t.line, in: text)
            let h = model.lineHeight(natural: natural.height)
            // A different ellipsis font may change the line's height; it must still fit the
            // height limit, else the line keeps its old height (the ellipsis font is smaller
            // in every installed cascade we test, so this only guards pathological fonts).
            if lines[last].y + h <= heightBound {
                lines[last].height = h
                lines[last].naturalHeight = model.fontsHeight(of: t.line, in: text, natural: natural.height)
                lines[last].baselineOffset = baselineOffset(height: h, natural: natural)
            }
        }

        var height = 0.0
        var widest = 0.0
        var insideWord = false
        let indents = breaker.indents, hasIndents = !indents.isNone
        for i in lines.indices {
            let isLast = i == lines.count - 1
            lines[i].gapAfter = isLast ? 0 : model.gap(afterLineEndingParagraph: lines[i].broken.endsParagraph)
            lines[i].y = height
            height += lines[i].height + lines[i].gapAfter
            let broken = lines[i].broken
            widest = max(widest, hasIndents ? box(holding: broken, in: text, indents) : broken.usedWidth)
            insideWord = insideWord || lines[i].broken.endsInsideWord
        }
        return AssembledLayout(
            lines: lines, lineCount: lines.count, height: height, widestLine: widest, isTruncated: truncated,
            brokeInsideWord: insideWord || truncated, warnings: warnings)
    }

    /// The narrowest box that holds `line` at its indent under `indents`.
    @inline(__always)
    static func box(holding line: BrokenLine, in text: PreparedText, _ indents: LineIndents) -> Double {
        indents.box(holding: line.usedWidth, from: indents.start(of: line, in: text))
    }

    /// A layout's numbers without its lines (what a measurement needs).
    struct Summary {
        var lineCount: Int
        /// Σ line heights + gaps (unrounded).
        var height: Double
        var widestLine: Double
        var isTruncated: Bool
        var brokeInsideWord: Bool
        /// The layout's warnings (nil: none).
        var warnings: [MeasureWarning]?
    }

    /// Whether nothing can cut `style`'s lines (no maxLines, no height limit), so lines can be
    /// streamed into running sums.
    @inline(__always)
    static func streams(_ style: SanitizedStyle) -> Bool { style.maxLines == 0 && !style.heightLimit.isFinite }

    /// `assemble(text, style:, width:, scale:, needsLines: false)`'s numbers: where nothing
    /// can cut lines, the lines streamed into running sums (no allocation, no array).
    ///
    /// - Complexity: O(words + lines) for simple paragraphs.
    static func measure(_ text: PreparedText, style: SanitizedStyle, width: LayoutWidth, scale: Double) -> Summary {
        guard streams(style) else {
            let l = assemble(text, style: style, width: width, scale: scale, needsLines: false)
            return Summary(
                lineCount: l.lineCount, height: l.height, widestLine: l.widestLine, isTruncated: l.isTruncated,
                brokeInsideWord: l.brokeInsideWord, warnings: l.warnings.isEmpty ? nil : l.warnings)
        }
        let model = LineHeightModel(style: style, scale: scale)
        return withUnsafePointer(to: model) {
            streamed(text, breaker: lineBreaker(text, style: style, width: width), model: $0)
        }
    }

    /// ``measure(_:style:width:scale:)`` of a style that ``streams(_:)``, with `model`, the
    /// style's line-height model at the layout's scale, built beforehand
    /// (`ResolvedStyle.lineHeights`), and `breaking`, the style's line-breaking settings: no
    /// model is built and no style is copied.
    ///
    /// - Complexity: O(words + lines) for simple paragraphs.
    @inline(__always)
    static func measureStreamed(
        _ text: PreparedText, breaking: BreakSettings, model: UnsafePointer<LineHeightModel>, width: LayoutWidth
    ) -> Summary {
        streamed(text, breaker: lineBreaker(text, breaking, width: width), model: model)
    }

    /// The streamed sums of a style that ``streams(_:)``.
    @inline(__always)
    private static func streamed(
        _ text: PreparedText, breaker: LineBreaker, model: UnsafePointer<LineHeightModel>
    ) -> Summary {
        var sums = HeightSums(text: text, model: model, indents: breaker.indents)
        breaker.run(&sums)
        sums.finish()
        return Summary(
            lineCount: sums.count, height: sums.height, widestLine: sums.widest, isTruncated: false,
            brokeInsideWord: sums.insideWord, warnings: nil)
    }

    /// What the line breaker reads of a style, taken before a cell's layout so that the
    /// streamed path needs no copy of the style.
    struct BreakSettings {
        let wraps: Bool
        let charWrapping: Bool
        let maxLines: Int
        let tabs: TabSettings
        let indents: LineIndents
        let hyphenationFactor: Double
        let cutsOverlongWords: Bool
        let endsWithEmptyLineAfterBreak: Bool
        /// `SanitizedStyle.balancesLines` (not under a line clamp) and its space width.
        let balancesLines: Bool
        let balanceSpaceWidth: Double

        @inline(__always)
        init(_ style: borrowing SanitizedStyle) {
            wraps = style.options.contains(.usesLineFragmentOrigin)
            charWrapping = style.lineBreakMode == .charWrapping
            maxLines = style.maxLines
            tabs = style.tabs
            indents = style.indents
            hyphenationFactor = style.hyphenation == .auto ? style.hyphenationFactor : 1
            cutsOverlongWords = style.overflowWrap != .normal
            endsWithEmptyLineAfterBreak = style.conventions.endsWithEmptyLineAfterBreak
            balancesLines = style.balancesLines && style.maxLines == 0
            balanceSpaceWidth = style.balanceSpaceWidth
        }
    }

    /// The breaker of `text` at `width` under `style`'s wrapping, line limit and tabs.
    @inline(__always)
    private static func lineBreaker(_ text: PreparedText, style: SanitizedStyle, width: LayoutWidth) -> LineBreaker {
        lineBreaker(text, BreakSettings(style), width: width)
    }

    /// The breaker of `text` at `width` under wrapping, line limit and tabs `b`.
    @inline(__always)
    private static func lineBreaker(_ text: PreparedText, _ b: BreakSettings, width: LayoutWidth) -> LineBreaker {
        let maxWidth: Double
        let policy: WrapPolicy
        switch width {
        case .points(let w) where b.wraps:
            maxWidth = w
            policy = b.charWrapping ? .characters : .words
        default:
            maxWidth = .infinity
            policy = .none
        }
        let lineLimit = b.maxLines > 0 ? b.maxLines + 1 : Int.max
        var breaker = LineBreaker(
            text: text, maxWidth: maxWidth, policy: policy, tabs: b.tabs.ruler(spaceWidth: text.tabFacts?.spaceWidth ?? 0),
            lineLimit: lineLimit,
            indents: b.indents)
        breaker.hyphenationFactor = b.hyphenationFactor
        breaker.cutsOverlongWords = b.cutsOverlongWords
        breaker.endsWithEmptyLineAfterBreak = b.endsWithEmptyLineAfterBreak
        breaker.balancesParagraphs = b.balancesLines
        breaker.balanceSpaceWidth = b.balanceSpaceWidth
        return breaker
    }

    /// Extra height goes above the text (TextKit): baseline = (height − natural) + ascender,
    /// kept inside the line.
    @inline(__always)
    private static func baselineOffset(height h: Double, natural: (height: Double, ascender: Double)) -> Double {
        max(0, min(h, h - natural.height + natural.ascender))
    }

    /// Fits the rest of the paragraph from `line`'s start into `maxWidth` with an ellipsis —
    /// for a text of several run styles, "…" in the style of the text it follows (precedes,
    /// for head truncation), as UIKit takes the attributes at the truncation point: fitted
    /// with the line's own style first, then again with the style found there if it differs.
    private static func truncate(
        _ line: BrokenLine, in text: PreparedText, maxWidth: Double, placement: EllipsisPlacement
    ) -> (line: BrokenLine, truncation: Truncation) {
        let plain = Ellipsis(font: text.ellipsisFont, width: text.ellipsisWidth, mask: text.ellipsisMask)
        guard text.token == nil, !text.ellipsisByGroup.isEmpty else {
            return truncate(line, in: text, maxWidth: maxWidth, placement: placement, ellipsis: plain)
        }
        func ellipsis(adjacentTo g: Int32?) -> Ellipsis {
            guard let g, !text.flags[Int(g)].contains(.inlineBox) else { return plain }
            let group = Int(text.fontLines[Int(text.graphemeFonts[Int(g)])].group)
            guard group < text.ellipsisByGroup.count, text.ellipsisByGroup[group].isSet else { return plain }
            let e = text.ellipsisByGroup[group]
            return Ellipsis(font: e.font, width: e.width, mask: PreparedText.fontBit(e.font))
        }
        func adjacent(_ t: Truncation, _ b: BrokenLine) -> Int32? {
            if placement == .head { return t.tailStart < t.tailEnd ? t.tailStart : nil }
            return t.headEnd > b.graphemeStart ? t.headEnd - 1 : (t.tailStart < t.tailEnd ? t.tailStart : nil)
        }
        let lastGrapheme = line.graphemeEnd > line.graphemeStart ? line.graphemeEnd - 1 : nil
        let first = ellipsis(adjacentTo: placement == .head ? (line.graphemeEnd > line.graphemeStart ? line.graphemeStart : nil) : lastGrapheme)
        let fitted = truncate(line, in: text, maxWidth: maxWidth, placement: placement, ellipsis: first)
        let found = ellipsis(adjacentTo: adjacent(fitted.truncation, line))
        guard found != first else { return fitted }
        return truncate(line, in: text, maxWidth: maxWidth, placement: placement, ellipsis: found)
    }

    /// "…" (or the token) as the truncation uses it.
    struct Ellipsis: Equatable {
        var font: UInt8
        var width: Double
        /// The local fonts it draws with (they count for the line's height).
        var mask: UInt64
    }

    /// `truncate` with a given ellipsis.
    private static func truncate(
        _ line: BrokenLine, in text: PreparedText, maxWidth: Double, placement: EllipsisPlacement, ellipsis e: Ellipsis
    ) -> (line: BrokenLine, truncation: Truncation) {
        let paragraph = text.paragraphs[Int(line.paragraph)]
        let start = line.graphemeStart
        let end = max(line.graphemeEnd, paragraph.graphemeEnd)
        let ellipsis = e.width
        let limit = maxWidth.isFinite ? maxWidth + LineBreaker.tolerance : .infinity
        let budget = max(0, limit - ellipsis)
        func isSpace(_ g: Int32) -> Bool { text.flags[Int(g)].contains(.hangingSpace) }
        func adv(_ g: Int32) -> Double { text.flags[Int(g)].contains(.tab) ? 0 : text.advances[Int(g)] }

        var headEnd = start
        var tailStart = end
        var headWidth = 0.0
        var tailWidth = 0.0
        switch placement {
        case .tail:
            // With an unconstrained width the line keeps its own content.
            let stop = maxWidth.isFinite ? end : line.graphemeEnd
            var w = 0.0
            var g = start
            while g < stop, w + adv(g) <= budget {
                w += adv(g)
                g += 1
            }
            headEnd = g
            while headEnd > start && isSpace(headEnd - 1) { headEnd -= 1 }
            headWidth = (start..<headEnd).reduce(0) { $0 + adv($1) }
        case .head:
            let from = maxWidth.isFinite ? start : line.graphemeStart
            var w = 0.0
            var g = end
            while g > from, w + adv(g - 1) <= budget {
                w += adv(g - 1)
                g -= 1
            }
            while g < end && isSpace(g) { g += 1 }
            tailStart = g
            tailWidth = (tailStart..<end).reduce(0) { $0 + adv($1) }
        case .middle:
            let stop = maxWidth.isFinite ? end : line.graphemeEnd
            var g = start
            var w = 0.0
            while g < stop, w + adv(g) <= budget / 2 {
                w += adv(g)
                g += 1
            }
            headEnd = g
            while headEnd > start && isSpace(headEnd - 1) { headEnd -= 1 }
            headWidth = (start..<headEnd).reduce(0) { $0 + adv($1) }
            var t = stop
            var tw = 0.0
            while t > headEnd, headWidth + tw + adv(t - 1) <= budget {
                tw += adv(t - 1)
                t -= 1
            }
            while t < stop && isSpace(t) { t += 1 }
            tailStart = t
            tailWidth = (tailStart..<stop).reduce(0) { $0 + adv($1) }
            if !maxWidth.isFinite { tailStart = stop }
        }
        let tailEnd = placement == .middle && !maxWidth.isFinite ? line.graphemeEnd : end
        var mask = e.mask
        for g in start..<headEnd { mask |= PreparedText.fontBit(text.graphemeFonts[Int(g)]) }
        for g in tailStart..<tailEnd { mask |= PreparedText.fontBit(text.graphemeFonts[Int(g)]) }
        var shortened = line
        shortened.graphemeEnd = end
        shortened.usedWidth = headWidth + tailWidth + ellipsis
        shortened.hangingWidth = 0
        shortened.hyphenWidth = 0
        shortened.fontMask = mask
        shortened.endsParagraph = true
        return (
            shortened,
            Truncation(
                placement: placement, headEnd: headEnd, tailStart: tailStart, tailEnd: tailEnd,
                ellipsisWidth: ellipsis, ellipsisFont: e.font)
        )
    }
}

/// Streams lines into the height sum (Σ (height + gap after), the last line without gap),
/// the widest used width and the count — the measure-only path, allocation-free.
private struct HeightSums: LineSink {
    let text: PreparedText
    /// The model, borrowed for the sum's lifetime (`LayoutAssembler.measure`): a call on it
    /// from the breaker's loops, which hold the sum `inout`, passes its address (a model
    /// stored here was copied to the stack, 160 bytes, for every new line height).
    let model: UnsafePointer<LineHeightModel>
    /// `model.gap(afterLineEndingParagraph:)` inside a paragraph and at its end.
    private let gapInside: Double, gapAfterParagraph: Double
    var count = 0
    var height = 0.0
    var widest = 0.0
    var insideWord = false
    private var pendingHeight = 0.0
    private var pendingGap = 0.0
    /// The last line's font mask and height: lines of one paragraph mostly share their fonts.
    private var lastMask: UInt64 = 0
    private var lastLineHeight = 0.0
    /// The mask and height before those (lines alternating between two sets of fonts).
    private var olderMask: UInt64 = 0
    private var olderLineHeight = 0.0

    /// Whether equal masks give equal heights: not when Pango's baseline alignment makes a
    /// line's height depend on its first run too.
    private let reusesHeights: Bool

    /// The layout's indents, and whether there are any (a line's start then counts for the
    /// widest line).
    private let indents: LineIndents, hasIndents: Bool

    init(text: PreparedText, model: UnsafePointer<LineHeightModel>, indents: LineIndents) {
        self.text = text
        self.model = model
        self.indents = indents
        hasIndents = !indents.isNone
        gapInside = model.pointee.gap(afterLineEndingParagraph: false)
        gapAfterParagraph = model.pointee.gap(afterLineEndingParagraph: true)
        reusesHeights = text.pangoBaselines == nil
    }

    @inline(__always)  // into the breaker's loops (it was, until they grew past the inliner's budget)
    mutating func append(_ line: BrokenLine) {
        if count > 0 { height += pendingHeight + pendingGap }
        // A mask without the overflow bit names the line's fonts exactly, so equal masks give
        // equal natural heights; empty lines take the first font, so they are not reused.
        let reusable = reusesHeights && line.fontMask != 0 && line.fontMask & PreparedText.overflowFontBit == 0
        if reusable && line.fontMask == lastMask {
            pendingHeight = lastLineHeight
        } else if reusable && line.fontMask == olderMask {
            pendingHeight = olderLineHeight
        } else {
            computeHeight(mask: line.fontMask, from: line.graphemeStart, to: line.graphemeEnd)
        }
        pendingGap = line.endsParagraph ? gapAfterParagraph : gapInside
        widest = max(widest, hasIndents ? indentedBox(line) : line.usedWidth)
        insideWord = insideWord || line.endsInsideWord
        count += 1
    }

    /// The height of a line (fonts `mask`, graphemes `start..<end`) whose fonts differ from
    /// the last two lines': out of line, and given what it reads of the line in registers
    /// (given the whole `BrokenLine`, the breaker's loops would store every line in memory).
    @inline(never)
    private mutating func computeHeight(mask: UInt64, from start: Int32, to end: Int32) {
        pendingHeight = model.pointee.lineHeight(natural: model.pointee.natural(mask: mask, from: start, to: end, in: text).height)
        olderMask = lastMask
        olderLineHeight = lastLineHeight
        lastMask = mask
        lastLineHeight = pendingHeight
    }

    /// ``LayoutAssembler/box(holding:in:_:)``, out of the breaker's loops.
    @inline(never)
    private func indentedBox(_ line: BrokenLine) -> Double { LayoutAssembler.box(holding: line, in: text, indents) }

    /// Adds the last line (with no gap after it).
    mutating func finish() {
        if count > 0 { height += pendingHeight + 0 }
    }
}
