/// How a justified line stretches: the width added at the start and at the end of each of its
/// graphemes, so that its content spans the width between its indents.
///
/// Justification is geometry only: the line breaker has placed the line at its natural width,
/// and stretching moves clusters, never a break. The leftover width is spread over the line's
/// justification opportunities as the profile's engine spreads it
/// (`LayoutConventions.JustifyRule`); trailing whitespace that hangs and a line's hyphen take
/// none.
///
/// - Thread safety: a value type; share freely.
struct LineJustification: Sendable, Equatable {
    /// The line's first grapheme: entry `k` of `before` and `after` is grapheme `first + k`'s.
    let first: Int32
    /// Width added before each grapheme (its glyphs move right by it) and after it (points).
    private(set) var before: [Double]
    private(set) var after: [Double]
    /// The width added in all: the line's rect is this much wider than its used width.
    private(set) var width = 0.0

    /// The width added before grapheme `g` (0 outside the line).
    @inline(__always)
    func extra(before g: Int32) -> Double {
        let k = Int(g - first)
        return k >= 0 && k < before.count ? before[k] : 0
    }

    /// The width added after grapheme `g` (0 outside the line).
    @inline(__always)
    func extra(after g: Int32) -> Double {
        let k = Int(g - first)
        return k >= 0 && k < after.count ? after[k] : 0
    }

    /// Whether grapheme `g` gets extra width on either side.
    func stretches(_ g: Int32) -> Bool { extra(before: g) != 0 || extra(after: g) != 0 }

    private init(first: Int32, count: Int) {
        self.first = first
        before = Array(repeating: 0, count: count)
        after = Array(repeating: 0, count: count)
    }

    private mutating func add(_ w: Double, before g: Int32) {
        before[Int(g - first)] += w
        width += w
    }

    private mutating func add(_ w: Double, after g: Int32) {
        after[Int(g - first)] += w
        width += w
    }
}

extension LineJustification {
    /// The stretching of `line` to `available` points under `rule`, or `nil` when it stays at
    /// its natural width: it already fills the width (or overflows), it has a tab (its stops
    /// would move), or it has no opportunity under the rule.
    ///
    /// - Complexity: O(graphemes of the line).
    init?(
        _ line: BrokenLine, _ p: PreparedText, _ utf8: UnsafeBufferPointer<UInt8>, available: Double,
        rule: LayoutConventions.JustifyRule
    ) {
        let content = Self.content(of: line, p)
        guard !content.isEmpty, !content.contains(where: { p.flags[Int($0)].contains(.tab) }) else { return nil }
        let leftover = Self.leftover(of: line, content, p, available: available, rule)
        guard leftover > LayoutConventions.exactFitTolerance else { return nil }
        var j = LineJustification(first: line.graphemeStart, count: Int(line.graphemeEnd - line.graphemeStart))
        func scalar(_ g: Int32) -> Unicode.Scalar {
            Self.firstScalar(utf8, from: Int(p.graphemeStarts[Int(g)]))
        }
        switch rule.opportunities {
        case .spacesAndIdeographs:
            guard j.spreadAtSpacesAndIdeographs(content, leftover: leftover, scalar) else { return nil }
        case .spacesElseClusters:
            let spaces = content.filter { Self.isExpandableSpace(scalar($0)) && p.advances[Int($0)] > 0 }
            if !spaces.isEmpty {
                j.spread(leftover, overSpaces: spaces, p, rule)
            } else {
                guard j.spread(leftover, betweenClustersOf: content, p, rule) else { return nil }
            }
        }
        self = j
    }

    /// The width left to spread: the available width less the line's natural width, in the
    /// engine's arithmetic (Blink: the width ceiled to its layout unit; Pango: whole units per
    /// glyph, the line's content and hyphen summed as Pango sums its glyphs).
    static func leftover(
        of line: BrokenLine, _ content: Range<Int32>, _ p: PreparedText, available: Double,
        _ rule: LayoutConventions.JustifyRule
    ) -> Double {
        if rule.unitsPerPoint > 0 {
            let u = Double(rule.unitsPerPoint)
            let used = content.reduce((line.hyphenWidth * u).rounded()) { $0 + (p.advances[Int($1)] * u).rounded() }
            return ((available * u).rounded() - used) / u
        }
        guard rule.lineWidthUnit > 0 else { return available - line.usedWidth }
        let units = (line.usedWidth / rule.lineWidthUnit - LayoutConventions.exactFitTolerance).rounded(.up)
        return available - units * rule.lineWidthUnit
    }

    /// The graphemes of `line` that show: the trailing whitespace that hangs left out.
    static func content(of line: BrokenLine, _ p: PreparedText) -> Range<Int32> {
        var end = line.graphemeEnd
        var hanging = line.hangingWidth
        while end > line.graphemeStart, p.flags[Int(end - 1)].contains(.hangingSpace),
            hanging - p.advances[Int(end - 1)] >= -LayoutConventions.exactFitTolerance
        {
            hanging -= p.advances[Int(end - 1)]
            end -= 1
        }
        return line.graphemeStart..<end
    }

    /// A space that stretches: U+0020 and U+00A0 (Pango's `is_expandable_space`, Blink's
    /// `TreatAsSpace` on a line).
    static func isExpandableSpace(_ c: Unicode.Scalar) -> Bool { c == " " || c == "\u{A0}" }

    /// The scalar starting at byte `i` (U+FFFD for a malformed sequence).
    private static func firstScalar(_ utf8: UnsafeBufferPointer<UInt8>, from i: Int) -> Unicode.Scalar {
        var iterator = utf8[i...].makeIterator()
        var decoder = UTF8()
        if case .scalarValue(let s) = decoder.decode(&iterator) { return s }
        return "\u{FFFD}"
    }
}

extension LineJustification {
    /// Blink's `text-justify: auto`: an opportunity after every space and on both sides of a
    /// CJK ideograph or symbol (one between two of them); none before the line's first
    /// grapheme or after its last; default-ignorables skipped. The leftover width is shared
    /// equally. Returns false when the line has no opportunity.
    private mutating func spreadAtSpacesAndIdeographs(
        _ content: Range<Int32>, leftover: Double, _ scalar: (Int32) -> Unicode.Scalar
    ) -> Bool {
        var beforeOpportunities: [Int32] = []
        var afterOpportunities: [Int32] = []
        var isAfterOpportunity = true
        for g in content {
            let c = scalar(g)
            if c.properties.isDefaultIgnorableCodePoint { continue }
            if Self.isExpandableSpace(c) {
                afterOpportunities.append(g)
                isAfterOpportunity = true
            } else if CJKJustification.isIdeographOrSymbol(c.value) {
                if !isAfterOpportunity { beforeOpportunities.append(g) }
                afterOpportunities.append(g)
                isAfterOpportunity = true
            } else {
                isAfterOpportunity = false
            }
        }
        if afterOpportunities.last == content.upperBound - 1 { afterOpportunities.removeLast() }
        let count = beforeOpportunities.count + afterOpportunities.count
        guard count > 0 else { return false }
        let share = leftover / Double(count)
        for g in beforeOpportunities { add(share, before: g) }
        for g in afterOpportunities { add(share, after: g) }
        return true
    }

    /// The leftover width over `spaces`: equal shares, or shares in proportion to each space's
    /// advance; in whole units (Pango's `justify_words`: the running total exact, whole
    /// points when the leftover is a whole number of points) when the rule has units.
    private mutating func spread(
        _ leftover: Double, overSpaces spaces: [Int32], _ p: PreparedText, _ rule: LayoutConventions.JustifyRule
    ) {
        let u = rule.unitsPerPoint
        let weights = spaces.map { g -> Double in
            guard rule.sharesFollowSpaceWidths else { return 1 }
            return u > 0 ? (p.advances[Int(g)] * Double(u)).rounded() : p.advances[Int(g)]
        }
        let total = weights.reduce(0, +)
        guard total > 0 else { return }
        guard u > 0 else {
            for (g, w) in zip(spaces, weights) { add(leftover * w / total, after: g) }
            return
        }
        let remaining = Int((leftover * Double(u)).rounded())
        let hinted = remaining % u == 0
        var sofar = 0, added = 0
        for (g, w) in zip(spaces, weights) {
            sofar += Int(w)
            var adjustment = sofar * remaining / Int(total) - added
            if hinted { adjustment = Self.roundedToPoint(adjustment, u) }
            added += adjustment
            add(Double(adjustment) / Double(u), after: g)
        }
    }

    /// The leftover width between the line's clusters (graphemes with an advance): equal gaps
    /// at the end of each cluster (TextKit), or Pango's (`justify_clusters`): in whole units,
    /// half of each gap at the end of the cluster before it and half at the start of the one
    /// after, whole points when the leftover is whole points. Returns false for one cluster.
    private mutating func spread(
        _ leftover: Double, betweenClustersOf content: Range<Int32>, _ p: PreparedText,
        _ rule: LayoutConventions.JustifyRule
    ) -> Bool {
        let clusters = content.filter { p.advances[Int($0)] > 0 }
        guard clusters.count > 1 else { return false }
        let gaps = clusters.count - 1
        guard rule.unitsPerPoint > 0 else {
            let share = leftover / Double(gaps)
            for g in clusters.dropLast() { add(share, after: g) }
            return true
        }
        let u = rule.unitsPerPoint
        let remaining = Int((leftover * Double(u)).rounded())
        let hinted = remaining % u == 0
        var residual = 0
        for (k, g) in clusters.enumerated() {
            var adjustment = remaining / gaps + residual
            if hinted {
                let exact = adjustment
                adjustment = Self.roundedToPoint(adjustment, u)
                residual = exact - adjustment
            }
            var left = adjustment / 2
            if adjustment % u == 0 { left = Self.roundedToPoint(left, u) }
            if k > 0 { add(Double(left) / Double(u), before: g) }
            if k < gaps { add(Double(adjustment - left) / Double(u), after: g) }
        }
        return true
    }

    /// `PANGO_UNITS_ROUND`: `x` units to the nearest whole point (halves up).
    private static func roundedToPoint(_ x: Int, _ u: Int) -> Int { (x + u / 2) & ~(u - 1) }
}

/// Blink's `Character::IsCJKIdeographOrSymbol`: the characters with justification
/// opportunities on both sides under `text-justify: auto` (ideographs, kana, bopomofo, CJK
/// symbols and punctuation, fullwidth forms, enclosed forms, and emoji: Blink's table plus
/// every Emoji_Presentation character, as its property generator adds them).
enum CJKJustification {
    /// Whether code point `c` is a CJK ideograph or symbol.
    ///
    /// - Complexity: O(log ranges).
    static func isIdeographOrSymbol(_ c: UInt32) -> Bool {
        guard c >= 0x2C7 else { return false }
        if isolated.contains(c) { return true }
        var lo = 0, hi = ranges.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if ranges[mid].upperBound < c { lo = mid + 1 } else { hi = mid }
        }
        if lo < ranges.count && ranges[lo].contains(c) { return true }
        return Unicode.Scalar(c)?.properties.isEmojiPresentation ?? false
    }

    /// Symbols outside the ranges (tone marks, daggers, ※, ℃, №, geometric shapes, emoji …).
    private static let isolated: Set<UInt32> = [
        0x2C7, 0x2CA, 0x2CB, 0x2D9, 0x2020, 0x2021, 0x2030, 0x203B, 0x203C, 0x2042, 0x2047, 0x2048, 0x2049,
        0x2051, 0x20DD, 0x20DE, 0x2100, 0x2103, 0x2105, 0x2109, 0x210A, 0x2113, 0x2116, 0x2121, 0x212B, 0x213B,
        0x2150, 0x2151, 0x2152, 0x217F, 0x2189, 0x2307, 0x23F0, 0x23F3, 0x2312, 0x23CE, 0x2423, 0x25A0, 0x25A1,
        0x25A2, 0x25AA, 0x25AB, 0x25B1, 0x25B2, 0x25B3, 0x25B6, 0x25B7, 0x25BC, 0x25BD, 0x25C0, 0x25C1, 0x25C6,
        0x25C7, 0x25C9, 0x25CB, 0x25CC, 0x25EF, 0x2605, 0x2606, 0x260E, 0x2616, 0x2617, 0x261D, 0x2640, 0x2642,
        0x267F, 0x2693, 0x26A0, 0x26A1, 0x26BD, 0x26BE, 0x26CE, 0x26D4, 0x26EA, 0x26F5, 0x26F9, 0x26FA, 0x26FD,
        0x2705, 0x2708, 0x2713, 0x271A, 0x2728, 0x273F, 0x2740, 0x274C, 0x274E, 0x27B0, 0x27BF, 0x2B1A, 0x2B1B,
        0x2B1C, 0x2B50, 0x2B55, 0xFE10, 0xFE11, 0xFE12, 0xFE19, 0xFF1D, 0x1F100, 0x1F004, 0x1F0CF, 0x1F18E,
    ]

    /// Closed ranges, sorted and merged: ideographs (radicals, strokes, unified and
    /// compatibility ideographs, plane 2) and symbol blocks (number forms, enclosed
    /// alphanumerics, CJK symbols and punctuation without U+302E–U+302F and U+3030, kana,
    /// bopomofo, enclosed CJK, CJK compatibility, Yijing, compatibility and small forms,
    /// fullwidth forms, Tangut, Nüshu, kana supplements, emoji blocks and modifiers).
    private static let ranges: [ClosedRange<UInt32>] = merged([
        0x2695...0x2696, 0x2E80...0x2FDF, 0x31C0...0x31EF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF,
        0x20000...0x2FFFF, 0x2156...0x215A, 0x2160...0x216B, 0x2170...0x217B, 0x231A...0x231B, 0x23E9...0x23EC,
        0x23BE...0x23CC, 0x2460...0x2492, 0x249C...0x24FF, 0x25CE...0x25D3, 0x25E2...0x25E6, 0x25FD...0x25FE,
        0x2600...0x2603, 0x2660...0x266F, 0x2614...0x2615, 0x2648...0x2653, 0x26AA...0x26AB, 0x26C4...0x26C5,
        0x26F2...0x26F3, 0x2753...0x2757, 0x2763...0x2764, 0x2672...0x267D, 0x2776...0x277F, 0x2795...0x2797,
        0x270A...0x270D, 0x2FF0...0x302D, 0x3031...0x312F, 0x3190...0x31BF, 0x3200...0x33FF, 0x4DC0...0x4DFF,
        0xF860...0xF862, 0xFE30...0xFE6F, 0xFF00...0xFF0C, 0xFF0E...0xFF1A, 0xFF1F...0xFFEF, 0x16FE0...0x16FFF,
        0x17000...0x187FF, 0x18800...0x18AFF, 0x1B000...0x1B0FF, 0x1B100...0x1B12F, 0x1B170...0x1B2FF,
        0x1F110...0x1F129, 0x1F130...0x1F149, 0x1F150...0x1F169, 0x1F170...0x1F189, 0x1F191...0x1F19A,
        0x1F1E6...0x1F1FF, 0x1F200...0x1F6FF, 0x1F3FB...0x1F3FF, 0x1F900...0x1F90F, 0x1F910...0x1F918,
        0x1F919...0x1F97F, 0x1F980...0x1F9BF, 0x1F9C0...0x1F9FF,
    ])

    /// `ranges` sorted by their lower bounds, overlapping or adjacent ones joined.
    private static func merged(_ ranges: [ClosedRange<UInt32>]) -> [ClosedRange<UInt32>] {
        var out: [ClosedRange<UInt32>] = []
        for r in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = out.last, r.lowerBound <= last.upperBound + 1 {
                out[out.count - 1] = last.lowerBound...max(last.upperBound, r.upperBound)
            } else {
                out.append(r)
            }
        }
        return out
    }
}
