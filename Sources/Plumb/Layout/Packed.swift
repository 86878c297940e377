/// A read-only column of a `PreparedText`: a view into the one allocation that holds all of
/// the text's per-grapheme, per-word and per-paragraph values (``PreparedStorage``).
///
/// Reads are plain loads: no reference counting, no uniqueness or bounds checks in release
/// builds (checked in debug builds).
///
/// - Thread safety: immutable; valid as long as the `PreparedText` that owns it.
struct Packed<Element: BitwiseCopyable>: RandomAccessCollection, @unchecked Sendable {
    let base: UnsafePointer<Element>?
    let count: Int

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    @inline(__always)
    subscript(i: Int) -> Element {
        assert(i >= 0 && i < count, "Packed index \(i) out of 0..<\(count)")
        return base.unsafelyUnwrapped[i]
    }

    /// The elements as a buffer (valid as long as the owning `PreparedText`).
    @inline(__always)
    func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: base, count: count))
    }
}

extension Packed {
    /// A view of `buffer` (a region of a prepared text's storage).
    @inline(__always)
    init(_ buffer: UnsafeMutableBufferPointer<Element>) {
        self.init(base: UnsafePointer(buffer.baseAddress), count: buffer.count)
    }
}

/// The layout of one allocation holding a prepared text's plain columns, each aligned for
/// its element: one heap block per text, where an array per column would cost a block and a
/// 32-byte header each, on top of the preparer's capacity guesses.
struct PackedLayout {
    private(set) var byteCount = 0

    /// Reserves a column of `n` elements of `T`; returns its byte offset.
    mutating func add<T>(_: T.Type, _ n: Int) -> Int {
        let a = MemoryLayout<T>.alignment
        let offset = (byteCount + a - 1) / a * a
        byteCount = offset + n * MemoryLayout<T>.stride
        return offset
    }
}

/// A paragraph's direction is stored in `PreparedText.Paragraph`, a packed column.
extension TextDirection: BitwiseCopyable {}

/// A read-only `Int32` column of a `PreparedText` stored in `Narrow` (16 bits) when every
/// value fits — grapheme ends of a text under 64 KiB, shaped units of ordinary clusters —
/// and in 32 bits otherwise: 2 bytes per grapheme and column saved on almost every text.
///
/// - Thread safety: immutable; valid as long as the `PreparedText` that owns it.
struct PackedInt32<Narrow: FixedWidthInteger & BitwiseCopyable>: RandomAccessCollection, @unchecked Sendable {
    let base: UnsafeRawPointer?
    let count: Int
    /// Whether the values are stored as `Narrow`.
    let isNarrow: Bool

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    /// - Complexity: O(1): one load, widened.
    @inline(__always)
    subscript(i: Int) -> Int32 {
        assert(i >= 0 && i < count, "Packed index \(i) out of 0..<\(count)")
        if isNarrow {
            return Int32(truncatingIfNeeded: base.unsafelyUnwrapped.load(fromByteOffset: i &* MemoryLayout<Narrow>.stride, as: Narrow.self))
        }
        return base.unsafelyUnwrapped.load(fromByteOffset: i &<< 2, as: Int32.self)
    }

    /// Whether every value of `values` can be stored as `Narrow`.
    static func fitsNarrow(_ values: UnsafeBufferPointer<Int32>) -> Bool {
        var lo = Int32.max, hi = Int32.min
        for v in values {
            lo = Swift.min(lo, v)
            hi = Swift.max(hi, v)
        }
        return values.isEmpty || (Int64(lo) >= Int64(Narrow.min) && Int64(hi) <= Int64(Narrow.max))
    }
}
