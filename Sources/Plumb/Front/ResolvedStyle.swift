/// A style checked, resolved to fonts and fingerprinted once, for measuring many cells.
///
/// Resolving costs a sanitising pass, a cascade lookup and two small hashes; a batch
/// resolves each distinct style once, not once per cell.
///
/// - Thread safety: immutable; share freely.
public struct ResolvedStyle: Sendable {
    /// The style as given.
    public let style: TextStyle
    let sanitized: SanitizedStyle
    let cascade: ResolvedCascade
    /// The truncation token resolved to runs (`TextStyle.truncationToken`), if any.
    let token: TokenInput?
    /// Warnings from sanitising the style and resolving its fonts.
    public let warnings: [MeasureWarning]
    /// Everything in the style that can change a layout (tier-2 key component).
    var layoutFingerprint: CacheKey
    /// Everything that changes shaping: fonts, size, letter spacing (prepared-text key).
    let shapingFingerprint: CacheKey
    /// The line-height model at ``defaultScale`` (a re-layout at that scale borrows it instead
    /// of building one per cell; other scales build their own).
    let lineHeights: LineHeightModel
    /// The device scale ``lineHeights`` is built for (`measure`'s default).
    static let defaultScale = 2.0
    /// Whether a result measured with this style may be cached.
    var isCacheable: Bool { !warnings.contains { $0.isFallback } }
}

extension ResolvedStyle {
    init(_ style: TextStyle, fonts: FontResolver, salt: UInt64) {
        var warnings: [MeasureWarning] = []
        var s = Sanitizer.style(style, warnings: &warnings)
        if let language = s.hyphenationLanguage, HyphenationDictionaries.dictionary(for: language) == nil {
            warnings.append(Sanitizer.noDictionary(for: language))
            s.hyphenationLanguage = nil
        }
        let cascade = fonts.cascade(for: s.font, fallback: s.conventions.fallbackQuery)
        warnings.append(contentsOf: cascade.warnings)
        if s.balancesLines {
            let primary = cascade.primary
            let units = Shaper.nominalAdvance(of: CollectionOfOne(Unicode.Scalar(0x20)), font: primary)
            s.balanceSpaceWidth = primary.upem > 0 ? Double(units) * s.font.size / primary.upem : 0
        }
        let token = Self.resolveToken(s.truncationToken, sanitized: s, cascade: cascade, fonts: fonts, warnings: &warnings)
        self.style = style
        self.sanitized = s
        self.cascade = cascade
        self.token = token
        self.warnings = warnings
        self.lineHeights = LineHeightModel(style: s, scale: Self.defaultScale)
        self.shapingFingerprint = Self.shapingKey(s, salt: salt)
        self.layoutFingerprint = Self.layoutKey(s, shaping: shapingFingerprint)
    }

    /// Salt, then every shaping field (`StyleKeySchema.shapingFields`).
    private static func shapingKey(_ s: SanitizedStyle, salt: UInt64) -> CacheKey {
        var e = KeyEncoder(.shaping)
        e.append(salt)
        StyleKeySchema.shapingFields(s, into: &e)
        return e.key
    }

    /// The shaping fingerprint, then every layout field (`StyleKeySchema.layoutFields`).
    private static func layoutKey(_ s: SanitizedStyle, shaping: CacheKey) -> CacheKey {
        var e = KeyEncoder(.layout)
        e.append(shaping)
        StyleKeySchema.layoutFields(s, into: &e)
        return e.key
    }
}

extension ResolvedStyle {
    /// The style's truncation token resolved like a text's runs (`nil` without a token; its
    /// key is `SanitizedStyle.truncationToken`'s encoding in the shaping fingerprint).
    static func resolveToken(
        _ token: AttributedText?, sanitized s: SanitizedStyle, cascade: ResolvedCascade, fonts: FontResolver,
        warnings: inout [MeasureWarning]
    ) -> TokenInput? {
        guard let token, !token.runs.isEmpty else { return nil }
        let base = PreparationRun(byteEnd: 0, cascade: cascade, size: s.font.size, letterSpacing: s.letterSpacing)
        let runs = RunResolution.runs(of: token, fonts: fonts, base: base, font: s.font, warnings: &warnings)
        return TokenInput(utf8: Array(token.string.utf8), runs: runs)
    }
}
