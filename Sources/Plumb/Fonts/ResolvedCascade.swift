import Synchronization

/// A family cascade resolved to loaded fonts, with the per-cluster font choice.
///
/// A cascade keeps the `FontLibrary` it was resolved from alive (a strong reference): after
/// `TextMeasurer.reloadFontsIfChanged()` it goes on answering from the fonts it was resolved
/// with. The engine re-resolves a style whose cascade came from another resolver before
/// measuring with it (`resolverID`), so only work already in flight during a reload finishes
/// on the old fonts.
///
/// - Thread safety: immutable but for the atomic lone-scalar words and the `Lock`ed fallback state.
final class ResolvedCascade: Sendable {
    let key: FontResolver.CascadeKey
    /// The cascade's fonts in order (at least one).
    let fonts: [Font]
    let emojiFont: Font?
    /// The CJK preference in the cascade's weight and slant (fontconfig's nearest face).
    let cjkFont: Font?
    /// The CJK preference in the regular upright style, for `regularFallbackFaces` (the same
    /// font as `cjkFont` when the cascade is regular and upright).
    let regularCJKFont: Font?
    /// Unknown families, or the default-family substitution.
    let warnings: [MeasureWarning]
    /// Whether a cascade font has an optical size axis, so the cascade depends on the size.
    var hasOpticalSizeAxis: Bool { fonts.contains(where: \.hasOpticalSizeAxis) }
    /// The id of the `FontResolver` that resolved this cascade.
    let resolverID: Int
    /// Where fallback lookups go (strong: see the type's documentation).
    private let library: FontLibrary
    /// Clusters the cascade cannot render → the fallback font fontconfig chose.
    private let fallbackCache = Lock<[FallbackKey: Font]>([:])

    private struct FallbackKey: Hashable {
        var scalars: [Unicode.Scalar]
        var emoji: Bool
        var regular: Bool
    }

    init(
        key: FontResolver.CascadeKey, fonts: [Font], emojiFont: Font?, cjkFont: Font?,
        regularCJKFont: Font?, warnings: [MeasureWarning], library: FontLibrary, resolverID: Int
    ) {
        self.key = key
        self.fonts = fonts
        self.emojiFont = emojiFont
        self.cjkFont = cjkFont
        self.regularCJKFont = regularCJKFont
        isRegularStyle = key.weight == FontDescriptor.regularWeight && !key.italic
        self.warnings = warnings
        self.library = library
        self.resolverID = resolverID
        fontRefs = fonts.map { Unmanaged.passUnretained($0) }
        emojiRef = emojiFont.map { Unmanaged.passUnretained($0) }
        cjkRef = cjkFont.map { Unmanaged.passUnretained($0) }
        loneScalarChoices = .allocate(capacity: Self.loneScalarWords)
        for i in 0..<Self.loneScalarWords { (loneScalarChoices + i).initialize(to: Atomic(0)) }
        fallbackSlots = .allocate(capacity: Self.fallbackSlotCount)
        fallbackSlots.initialize(repeating: nil, count: Self.fallbackSlotCount)
    }

    deinit {
        loneScalarChoices.deinitialize(count: Self.loneScalarWords)
        loneScalarChoices.deallocate()
        fallbackSlots.deallocate()
    }

    /// Per BMP code point, one byte: the choice for a cluster of that scalar alone when it
    /// depends on the scalar only — 0 not known yet, `i + 1` for `fonts[i]` (up to
    /// `cjkCode − 1`), `cjkCode` for `.cjk`, `firstFallbackCode + k` for the fallback font in
    /// slot k, `inheritCode` for `.inherit`, `slowCode` when it depends on the caller's flags
    /// (emoji presentation; the fallback faces of a bold or italic cascade) or on nothing
    /// cacheable (no font has it): then the full path answers. Eight bytes per word, set by
    /// one atomic OR (a race only computes the same byte twice), so the table needs no lock.
    /// 64 KiB per cascade. Most clusters are one scalar: the table replaces the coverage loop,
    /// the emoji and ignorable tests and, for text no cascade font has (Arabic, Thai, ... in a
    /// Latin cascade), the fallback cache's lock and hashed look-up with one load.
    /// The pointer is fixed for the cascade's life; every access to its words is atomic.
    nonisolated(unsafe) private let loneScalarChoices: UnsafeMutablePointer<Atomic<UInt64>>
    private static let loneScalarWords = 0x10000 / 8
    private static let cjkCode: UInt64 = 200
    private static let firstFallbackCode: UInt64 = 201
    private static let inheritCode: UInt64 = 254
    private static let slowCode: UInt64 = 255
    /// Fallback fonts the table refers to, by slot (kept alive by `fallbackSlotFonts`).
    /// Each slot is written once, under `fallbackSlotFonts`'s lock, before any byte names it.
    nonisolated(unsafe) private let fallbackSlots: UnsafeMutablePointer<Unmanaged<Font>?>
    private static let fallbackSlotCount = Int(inheritCode - firstFallbackCode)
    private let fallbackSlotFonts = Lock<[Font]>([])

    /// The byte of `loneScalarChoices` for `v` (< 0x10000), computed on first use.
    @inline(__always)
    private func loneScalarCode(_ v: UInt32) -> UInt64 {
        let word = loneScalarChoices + Int(v >> 3)
        let shift = UInt64(v & 7) &* 8
        let code = (word.pointee.load(ordering: .acquiring) >> shift) & 0xFF
        if code != 0 { return code }
        let computed = computeLoneScalarCode(Unicode.Scalar(v) ?? "\u{FFFD}")
        word.pointee.bitwiseOr(computed << shift, ordering: .releasing)
        return computed
    }

    /// What ``chooseIndexed(forCluster:familyGlyphsForLoneEmoji:regularFallbackFaces:)``
    /// answers for the one-scalar cluster `s` when that answer does not depend on its flags.
    private func computeLoneScalarCode(_ s: Unicode.Scalar) -> UInt64 {
        if ClusterClassifier.isIgnorableForCoverage(s) { return Self.inheritCode }
        let emoji = withUnsafeTemporaryAllocation(of: Unicode.Scalar.self, capacity: 1) { one -> Bool in
            one[0] = s
            return ClusterClassifier.wantsEmojiPresentation(UnsafeBufferPointer(one))
        }
        if emoji { return Self.slowCode }
        for i in fonts.indices where fonts[i].hasGlyph(for: s) {
            return i + 1 < Int(Self.cjkCode) ? UInt64(i + 1) : Self.slowCode
        }
        // The fallback faces of a bold or italic cascade depend on `regularFallbackFaces`.
        guard isRegularStyle else { return Self.slowCode }
        if ClusterClassifier.isCJK(s), let cjkFont, cjkFont.hasGlyph(for: s) { return Self.cjkCode }
        let chosen = withUnsafeTemporaryAllocation(of: Unicode.Scalar.self, capacity: 1) { one -> Choice in
            one[0] = s
            return fallback(for: UnsafeBufferPointer(one), emoji: false, regular: false)
        }
        guard case .font(let font) = chosen, let slot = fallbackSlot(of: font) else { return Self.slowCode }
        return Self.firstFallbackCode + UInt64(slot)
    }

    /// The slot of `font` in `fallbackSlots`, given one if it has none; `nil` when full.
    private func fallbackSlot(of font: Font) -> Int? {
        fallbackSlotFonts.withLock { fonts -> Int? in
            if let known = fonts.firstIndex(where: { $0 === font }) { return known }
            guard fonts.count < Self.fallbackSlotCount else { return nil }
            fallbackSlots[fonts.count] = Unmanaged.passUnretained(font)
            fonts.append(font)
            return fonts.count - 1
        }
    }

    /// The same fonts without reference counting (kept alive by the properties above).
    private let fontRefs: [Unmanaged<Font>]
    private let emojiRef: Unmanaged<Font>?
    private let cjkRef: Unmanaged<Font>?

    var primary: Font { fonts[0] }
    /// Whether the cascade asks for weight 400, upright (then fallback faces are the same
    /// with or without `regularFallbackFaces`).
    private let isRegularStyle: Bool

    /// The outcome of choosing a font for one cluster.
    enum Choice {
        /// The cluster needs no glyph (only joiners, selectors, controls): keep the run's font.
        case inherit
        case font(Font)
        /// No installed font has every character; the best partial font is used (.notdef).
        case missing(Font)
    }

    /// The choice for one cluster by position where possible: the hot path (text preparation,
    /// once per cluster on every core) then passes no font reference around, so workers do not
    /// contend on the shared fonts' reference counts.
    enum IndexedChoice {
        case inherit
        /// `fonts[i]`.
        case cascade(Int)
        case emoji
        case cjk
        case fallback(Font)
        case missing(Font)
    }

    /// Chooses the font for one grapheme cluster.
    ///
    /// - Parameter scalars: the cluster's scalars.
    /// - Complexity: O(k · f) cmap lookups for k scalars and f cascade fonts; clusters beyond
    ///   the cascade hit a cache after the first fontconfig scan.
    /// - Thread safety: safe from any thread.
    func choose(forCluster scalars: UnsafeBufferPointer<Unicode.Scalar>) -> Choice {
        switch chooseIndexed(forCluster: scalars) {
        case .inherit: .inherit
        case .cascade(let i): .font(fonts[i])
        case .emoji: .font(emojiFont ?? primary)
        case .cjk: .font(cjkFont ?? primary)
        case .fallback(let font): .font(font)
        case .missing(let font): .missing(font)
        }
    }

    /// ``choose(forCluster:)`` without retaining the cascade's fonts (see `IndexedChoice`).
    ///
    /// - Parameters:
    ///   - familyGlyphsForLoneEmoji: Chromium's rule (chromium profile): a lone
    ///     emoji-presentation character without U+FE0F takes a cascade font's own (monochrome)
    ///     glyph when one has it (`☕` in DejaVu Sans); sequences and U+FE0F still take the
    ///     emoji font.
    ///   - regularFallbackFaces: Chromium's rule (chromium profile): a cluster no cascade font
    ///     has falls back to the regular upright face whatever the style's weight and slant
    ///     (Blink asks fontconfig for the character only and synthesises bold and oblique,
    ///     which leaves advances as they are). Otherwise (Pango, UIKit) fallback faces are
    ///     asked for the style's weight and slant.
    func chooseIndexed(
        forCluster scalars: UnsafeBufferPointer<Unicode.Scalar>, familyGlyphsForLoneEmoji: Bool = false,
        regularFallbackFaces: Bool = false
    ) -> IndexedChoice {
        if scalars.count == 1, scalars[0].value < 0x10000 {
            let code = loneScalarCode(scalars[0].value)
            if code < Self.cjkCode { return .cascade(Int(code) - 1) }
            if code == Self.cjkCode { return .cjk }
            if code == Self.inheritCode { return .inherit }
            if code != Self.slowCode {
                return .fallback(fallbackSlots[Int(code - Self.firstFallbackCode)].unsafelyUnwrapped.takeUnretainedValue())
            }
        }
        var needsGlyph = false
        for s in scalars where !ClusterClassifier.isIgnorableForCoverage(s) {
            needsGlyph = true
            break
        }
        guard needsGlyph else { return .inherit }
        let emoji = ClusterClassifier.wantsEmojiPresentation(scalars)
        if emoji && familyGlyphsForLoneEmoji && scalars.count == 1 {
            for i in fontRefs.indices where fontRefs[i]._withUnsafeGuaranteedRef({ covers($0, scalars) }) {
                return .cascade(i)
            }
        }
        if emoji, let emojiRef, emojiRef._withUnsafeGuaranteedRef({ covers($0, scalars) }) { return .emoji }
        for i in fontRefs.indices where fontRefs[i]._withUnsafeGuaranteedRef({ covers($0, scalars) }) {
            return .cascade(i)
        }
        let regular = regularFallbackFaces && !isRegularStyle
        if let first = scalars.first, ClusterClassifier.isCJK(first) {
            if regular {
                if let regularCJKFont, covers(regularCJKFont, scalars) { return .fallback(regularCJKFont) }
            } else if let cjkRef, cjkRef._withUnsafeGuaranteedRef({ covers($0, scalars) }) {
                return .cjk
            }
        }
        switch fallback(for: scalars, emoji: emoji, regular: regular) {
        case .font(let font): return .fallback(font)
        case .missing(let font): return .missing(font)
        case .inherit: return .inherit
        }
    }

    @inline(__always)
    private func covers(_ font: Font, _ scalars: UnsafeBufferPointer<Unicode.Scalar>) -> Bool {
        for s in scalars where !ClusterClassifier.isIgnorableForCoverage(s) {
            if !font.hasGlyph(for: s) { return false }
        }
        return true
    }

    /// fontconfig's fallback for a cluster no cascade font has: the first face of the sorted
    /// list (for the cascade's first family unless its query is `characterOnly`, its weight
    /// and slant, or the regular upright style with `regular`) that has every character.
    private func fallback(for scalars: UnsafeBufferPointer<Unicode.Scalar>, emoji: Bool, regular: Bool) -> Choice {
        let needed = scalars.filter { !ClusterClassifier.isIgnorableForCoverage($0) }
        let key = FallbackKey(scalars: needed, emoji: emoji, regular: regular)
        if let hit = fallbackCache.withLock({ $0[key] }) { return .font(hit) }
        var chosen: Font? = nil
        let language = needed.lazy.compactMap { ClusterClassifier.sampleLanguage(of: $0) }.first
        // The requested weight and slant travel with the pattern: faces of that weight and
        // slant sort first within a family (fontconfig's nearest face when there is none).
        let instance = regular ? self.key.instance.with(weight: FontDescriptor.regularWeight, italic: false) : self.key.instance
        if let sorted = library.sortedFallbacks(
            family: self.key.fallback == .firstFamily ? self.key.families.first : nil,
            weight: instance.weight, italic: instance.italic, language: language)
        {
            // Text presentation skips color fonts here; they are the last resort below.
            for i in 0..<sorted.count {
                if let font = library.loadSortedFallback(sorted, at: i, covering: needed, instance: instance),
                    !font.hasColorGlyphs || emoji
                {
                    chosen = font
                    break
                }
            }
        }
        if chosen == nil, let emojiFont, covers(emojiFont, scalars) {
            // A text-default symbol that only the emoji font has.
            chosen = emojiFont
        }
        if let chosen {
            fallbackCache.withLock { $0[key] = chosen }
            return .font(chosen)
        }
        // No single font has the whole cluster: the first cascade font with its base
        // character, else the primary font (.notdef).
        if let base = needed.first, let partial = fonts.first(where: { $0.hasGlyph(for: base) }) {
            return .missing(partial)
        }
        return .missing(primary)
    }
}
