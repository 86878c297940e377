/// The two result-tier keys of one cell: its exact result and its width-range entry.
struct ResultKeys: BitwiseCopyable {
    /// XXH3-128(range key, layout width): the cell's own result.
    var result: CacheKey
    /// XXH3-128(text or content key, layout fingerprint, scale): the entry a width change
    /// may reuse.
    var range: CacheKey
}

/// Everything the cached path needs for one cell: the key of its content (text, or text and
/// runs), its result keys, and the snapped width and scale they were built from.
///
/// A cell that must not touch the cache (a fallback, empty text, an uncacheable style) has no
/// keys: its builders return `nil`.
struct CellKeys: BitwiseCopyable {
    /// The content key: XXH3-128 of the UTF-8 text, or `contentKey(_:)` of attributed text.
    var text: CacheKey
    var keys: ResultKeys
    /// The width on the profile's grid (`PixelGrid.snap`; `.infinity`: unconstrained).
    var layoutWidth: Double
    var scale: Double

    /// The keys of a plain cell from plain values only (batches call this from several
    /// threads; touching no shared reference keeps workers from contending on reference
    /// counts).
    ///
    /// - Complexity: O(n) in the text (one XXH3-128 pass) plus two 32-byte hashes;
    ///   allocation-free.
    @inline(__always)
    static func plain(
        _ text: borrowing String, cacheable: Bool, fingerprint: CacheKey, width: Double, scale: Double,
        widthUnit: Double = 0
    ) -> CellKeys? {
        guard cacheable, !text.isEmpty, scale >= Sanitizer.minimumScale, scale <= Sanitizer.maximumScale,
            !width.isNaN, width > 0
        else { return nil }
        let lw = PixelGrid.snap(.points(width), scale: scale, unit: widthUnit)
        let w: Double
        if width == .infinity { w = .infinity } else if case .points(let p) = lw { w = p } else { return nil }
        // The UTF-8 span borrows the string's storage: no copy and no retain (a retain would
        // write the string's header, a cache line other cores then have to fetch back).
        // The engine's salt (version, font files) is in the style fingerprint.
        let textKey = text.utf8Span.span.withUnsafeBytes { CacheKey(bytes: $0) }
        return CellKeys(
            text: textKey, keys: resultKeys(text: textKey, fingerprint: fingerprint, width: w, scale: scale),
            layoutWidth: w, scale: scale)
    }

    /// These keys with the text key replaced by an attributed text's content key, so results,
    /// width ranges and prepared texts are all keyed by text + runs.
    func withContent(_ content: CacheKey, fingerprint: CacheKey) -> CellKeys {
        var k = self
        k.text = content
        k.keys = Self.resultKeys(text: content, fingerprint: fingerprint, width: layoutWidth, scale: scale)
        return k
    }

    /// Range key = XXH3-128(text hash, layout fingerprint, scale); result key =
    /// XXH3-128(range key, width): a 128-bit hash of all four, over 32 bytes instead of 56
    /// (XXH3's mid-size path mixes 16-byte pairs: one round instead of two).
    /// Allocation-free.
    @inline(__always)
    static func resultKeys(text: CacheKey, fingerprint f: CacheKey, width: Double, scale: Double) -> ResultKeys {
        var range = KeyEncoder(.widthRange)
        range.append(text)
        range.append(f)
        range.append(scale)
        let rangeKey = range.key
        var result = KeyEncoder(.result)
        result.append(rangeKey)
        result.append(width)
        return ResultKeys(result: result.key, range: rangeKey)
    }

    /// The key of an attributed text's content: its characters and every run's layout
    /// attributes as given (colours and box ids excluded).
    static func contentKey(_ text: AttributedText) -> CacheKey {
        var encoder = KeyEncoder(.attributedContent)
        encoder.append(text)
        return encoder.key
    }
}
