internal import CICUShim

/// One thread's ICU break iterators (UAX #14 line breaks and UAX #29 grapheme clusters), with
/// reusable output buffers.
///
/// ICU iterators are not thread-safe: every worker owns its own, cloned from a prototype
/// (`ubrk_clone`) rather than opened (`ubrk_open`, about ten times the cost; timings:
/// Decisions.md, "Timings from code comments").
///
/// - Thread safety: one thread at a time. `@unchecked Sendable` only so that `PreparerPool`
///   can hand an instance (inside its `TextPreparer`) to whichever worker takes it; the pool
///   lends it to one thread at a time.
final class BreakIterators: @unchecked Sendable {  // one thread at a time
    private let handle: OpaquePointer
    /// Output buffers reused from call to call.
    private struct Buffers: ~Copyable {
        var lineOffsets = GrowableBuffer<Int32>()
        var lineHard = GrowableBuffer<UInt8>()
        var graphemeOffsets = GrowableBuffer<Int32>()
    }
    // Checked at run time in debug builds only, as `TextPreparer.scratch` (one thread at a time).
    #if DEBUG
    private var buffers = Buffers()
    #else
    @exclusivity(unchecked) private var buffers = Buffers()
    #endif

    /// Opens iterators for `locale` (e.g. "en"); `nil` if ICU fails.
    init?(locale: String) {
        var status: Int32 = 0
        guard let h = plumb_breaker_open(locale, &status) else { return nil }
        handle = h
    }

    private init(handle: OpaquePointer) { self.handle = handle }

    /// A copy for another thread.
    func clone() -> BreakIterators? {
        var status: Int32 = 0
        guard let h = plumb_breaker_clone(handle, &status) else { return nil }
        return BreakIterators(handle: h)
    }

    deinit { plumb_breaker_close(handle) }

    /// Line-break opportunities of `text` (UTF-8): byte offsets after which a line may break,
    /// and whether each is mandatory. The last offset is `text.count`. The buffers stay valid
    /// until the next call.
    ///
    /// Text of letters, digits, spaces, Han, kana, Hangul syllables and common punctuation
    /// (Line_Break classes with pair rules only) is broken without ICU's iterator
    /// (`plumb_breaker_line_breaks`); ``lineBreaksThroughICU(_:)`` is the reference.
    ///
    /// - Complexity: O(n); a Chinese character costs about three times a Latin one (timings: Decisions.md, "Timings from code comments").
    func lineBreaks(_ text: UnsafeBufferPointer<UInt8>)
        -> (offsets: UnsafeBufferPointer<Int32>, hard: UnsafeBufferPointer<UInt8>)
    {
        lineBreaks(text, throughICU: false)
    }

    /// ``lineBreaks(_:)`` always through ICU's iterator (the tests' reference).
    func lineBreaksThroughICU(_ text: UnsafeBufferPointer<UInt8>)
        -> (offsets: UnsafeBufferPointer<Int32>, hard: UnsafeBufferPointer<UInt8>)
    {
        lineBreaks(text, throughICU: true)
    }

    private func lineBreaks(_ text: UnsafeBufferPointer<UInt8>, throughICU: Bool)
        -> (offsets: UnsafeBufferPointer<Int32>, hard: UnsafeBufferPointer<UInt8>)
    {
        let n = text.count
        guard n > 0, let base = text.baseAddress else {
            return (UnsafeBufferPointer(start: nil, count: 0), UnsafeBufferPointer(start: nil, count: 0))
        }
        let offsets = buffers.lineOffsets.reserve(n + 1)
        let hard = buffers.lineHard.reserve(n + 1)
        var status: Int32 = 0
        let split = throughICU ? plumb_breaker_line_breaks_icu : plumb_breaker_line_breaks
        var count = Int(split(handle, base, Int32(n), offsets.baseAddress, hard.baseAddress, Int32(n + 1), &status))
        if count <= 0 {  // ICU failed: the only opportunity is the end.
            offsets[0] = Int32(n)
            hard[0] = 0
            count = 1
        }
        return (UnsafeBufferPointer(rebasing: offsets[0..<count]),
                UnsafeBufferPointer(rebasing: hard[0..<count]))
    }

    /// Grapheme-cluster boundaries of `text` (UTF-8) as byte offsets; the last is
    /// `text.count`. The buffer stays valid until the next call.
    ///
    /// - Complexity: O(n).
    /// Text of code points UAX #29 breaks around whatever their neighbours (letters without
    /// combining marks, Han, kana, Hangul syllables, controls) is split without ICU's iterator
    /// (`plumb_breaker_grapheme_breaks`); ``graphemeBreaksThroughICU(_:)`` is the reference.
    func graphemeBreaks(_ text: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<Int32> {
        graphemeBreaks(text, throughICU: false)
    }

    /// ``graphemeBreaks(_:)`` always through ICU's iterator (the tests' reference).
    func graphemeBreaksThroughICU(_ text: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<Int32> {
        graphemeBreaks(text, throughICU: true)
    }

    private func graphemeBreaks(_ text: UnsafeBufferPointer<UInt8>, throughICU: Bool) -> UnsafeBufferPointer<Int32> {
        let n = text.count
        guard n > 0, let base = text.baseAddress else { return UnsafeBufferPointer(start: nil, count: 0) }
        let offsets = buffers.graphemeOffsets.reserve(n + 1)
        var status: Int32 = 0
        let split = throughICU ? plumb_breaker_grapheme_breaks_icu : plumb_breaker_grapheme_breaks
        var count = Int(split(handle, base, Int32(n), offsets.baseAddress, Int32(n + 1), &status))
        if count <= 0 {
            offsets[0] = Int32(n)
            count = 1
        }
        return UnsafeBufferPointer(rebasing: offsets[0..<count])
    }

    /// At most `limit` grapheme-cluster boundaries of `text` after byte `from` (a boundary,
    /// 0 for the start); the last of the text is `text.count`. A long paragraph is walked in
    /// windows, so the offsets of a 4 MB word never take 16 MB at once.
    ///
    /// - Complexity: O(bytes walked).
    func graphemeBreaks(_ text: UnsafeBufferPointer<UInt8>, from: Int32, limit: Int) -> UnsafeBufferPointer<Int32> {
        let n = text.count
        guard n > Int(from), let base = text.baseAddress else { return UnsafeBufferPointer(start: nil, count: 0) }
        let capacity = min(limit, n - Int(from))
        let offsets = buffers.graphemeOffsets.reserve(capacity)
        var status: Int32 = 0
        var count = Int(
            plumb_breaker_grapheme_breaks_from(
                handle, base, Int32(n), from, offsets.baseAddress, Int32(capacity), &status))
        if count <= 0 || offsets[count - 1] <= from {  // ICU failed: the rest is one cluster
            offsets[0] = Int32(n)
            count = 1
        }
        return UnsafeBufferPointer(rebasing: offsets[0..<count])
    }

    /// Frees output buffers grown past `bytes` bytes by a long text (allocated again on use).
    func releaseBuffers(over bytes: Int) {
        buffers.lineOffsets.release(over: bytes / 4)
        buffers.lineHard.release(over: bytes)
        buffers.graphemeOffsets.release(over: bytes / 4)
    }

    /// Whether UAX #14 forbids a line break before `scalar` whatever precedes it (LB7–LB22:
    /// closing punctuation, nonstarters, glue, quotes, …; ICU's Line_Break property).
    ///
    /// - Complexity: O(1), one property look-up.
    static func forbidsBreak(before scalar: Unicode.Scalar) -> Bool {
        plumb_line_break_forbidden(Int32(bitPattern: scalar.value), 0) != 0
    }

    /// Whether UAX #14 forbids a line break after `scalar` whatever follows it (an opening
    /// bracket, glue, a quote, …: LB8a–LB21).
    ///
    /// - Complexity: O(1), one property look-up.
    static func forbidsBreak(after scalar: Unicode.Scalar) -> Bool {
        plumb_line_break_forbidden(Int32(bitPattern: scalar.value), 1) != 0
    }

    /// The line fast path's class of `scalar` (0: ICU breaks text containing it), from its
    /// ASCII table when `throughTable` (tests compare the table with ICU's properties).
    static func simpleLineClass(of scalar: UInt32, throughTable: Bool) -> Int32 {
        plumb_simple_line_class_of(Int32(bitPattern: scalar), throughTable ? 1 : 0)
    }

    /// Whether the grapheme fast path splits around `scalar`, from its tables when
    /// `throughTable` (tests compare the tables with ICU's property).
    static func graphemeBreaksAround(_ scalar: UInt32, throughTable: Bool) -> Bool {
        plumb_grapheme_breaks_around_of(Int32(bitPattern: scalar), throughTable ? 1 : 0) != 0
    }

    /// The linked ICU version, e.g. "72.1".
    static var icuVersion: String { String(cString: plumb_icu_version()) }
}
