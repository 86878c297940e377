/// A style checked, resolved to fonts and fingerprinted once, for measuring many cells.
///
/// Resolving costs a sanitising pass, a cascade lookup and two small hashes (~1 µs); a batch
/// resolves each distinct style once, not once per cell.
///
/// - Thread safety: immutable; share freely.
public struct ResolvedStyle: Sendable {
    /// The style as given.
    public let style: TextStyle
    let sanitized: SanitizedStyle
    let cascade: ResolvedCascade
    /// Warnings from sanitising the style and resolving its fonts.
    public let warnings: [MeasureWarning]
    /// Everything in the style that can change a layout (tier-2 key component).
    var layoutFingerprint: CacheKey
    /// Everything that changes shaping: fonts, size, letter spacing (prepared-text key).
    let shapingFingerprint: CacheKey
    /// Whether a result measured with this style may be cached.
    var isCacheable: Bool { !warnings.contains { $0.isFallback } }
}

extension ResolvedStyle {
    init(_ style: TextStyle, fonts: FontResolver, salt: UInt64) {
        var warnings: [MeasureWarning] = []
        let s = Sanitizer.style(style, warnings: &warnings)
        let cascade = fonts.cascade(for: s.font)
        warnings.append(contentsOf: cascade.warnings)
        self.style = style
        self.sanitized = s
        self.cascade = cascade
        self.warnings = warnings
        self.shapingFingerprint = Self.shapingKey(s, salt: salt)
        self.layoutFingerprint = Self.layoutKey(s, shaping: shapingFingerprint)
    }

    /// Fonts (every family of the cascade, in order), size, weight, slant, letter spacing.
    private static func shapingKey(_ s: SanitizedStyle, salt: UInt64) -> CacheKey {
        // Each family hashed with a fixed seed and chained as data (see SegmentCache.key on
        // why discriminating values never go into XXH3's seed).
        var h = salt
        for family in s.font.families {
            h = KeyHasher.combine(h, KeyHasher.hash64(family, seed: 0x9E37_79B9_7F4A_7C15))
        }
        // Only 64-bit fields: padding bytes would make keys nondeterministic.
        struct Fields { var salt: UInt64; var families: UInt64; var count: UInt64; var size: UInt64; var weight: UInt64; var italic: UInt64; var letter: UInt64; var compatibility: UInt64 }
        let compatibility: UInt64
        switch s.compatibility {
        case .standard: compatibility = 0
        case .pango: compatibility = 1
        case .chromium: compatibility = 2
        }
        return CacheKey(value: Fields(salt: salt, families: h, count: UInt64(s.font.families.count), size: s.font.size.bitPattern, weight: UInt64(bitPattern: Int64(s.font.weight)), italic: s.font.italic ? 1 : 0, letter: s.letterSpacing.bitPattern, compatibility: compatibility), seed: 0x5348_4150)
    }

    /// Paragraph and drawing options, normalised so that settings which cannot change a
    /// layout do not split keys: truncation modes and `truncatesLastVisibleLine` only matter
    /// when something can be cut (maxLines or a height limit); wrapping modes do not matter
    /// without `usesLineFragmentOrigin`.
    private static func layoutKey(_ s: SanitizedStyle, shaping: CacheKey) -> CacheKey {
        let canCut = s.maxLines > 0 || s.heightLimit.isFinite
        var mode = s.lineBreakMode
        var options = s.options
        if !canCut {
            if mode != .charWrapping { mode = .wordWrapping }
            options.remove(.truncatesLastVisibleLine)
        }
        if !options.contains(.usesLineFragmentOrigin) && mode == .charWrapping { mode = .wordWrapping }
        let modeCode: Int
        switch mode {
        case .wordWrapping: modeCode = 0
        case .charWrapping: modeCode = 1
        case .clipping: modeCode = 2
        case .truncatingHead: modeCode = 3
        case .truncatingMiddle: modeCode = 4
        case .truncatingTail: modeCode = 5
        }
        // Only 64-bit fields: padding bytes would make keys nondeterministic.
        struct Fields {
            var shapingLow: UInt64; var shapingHigh: UInt64
            var lineSpacing: Double; var minLH: Double; var maxLH: Double; var multiple: Double
            var para: Double; var paraBefore: Double; var tab: Double; var maxLines: Int
            var mode: Int; var options: UInt64; var heightLimit: Double; var lineHeightEm: Double
        }
        return CacheKey(value: Fields(
            shapingLow: shaping.low, shapingHigh: shaping.high, lineSpacing: s.lineSpacing,
            minLH: s.minimumLineHeight, maxLH: s.maximumLineHeight, multiple: s.lineHeightMultiple,
            para: s.paragraphSpacing, paraBefore: s.paragraphSpacingBefore, tab: s.tabInterval,
            maxLines: s.maxLines, mode: modeCode, options: UInt64(options.rawValue),
            heightLimit: s.heightLimit.isFinite ? s.heightLimit : -1, lineHeightEm: s.lineHeightEm), seed: 0x4C41_594F)
    }
}
