/// A growable array of plain values in memory the owner allocates and frees by hand: what the
/// preparer appends to once per cluster, without the uniqueness check, capacity check through
/// a reference and retain/release that an `Array` in an `inout` struct costs per append (a
/// cold measurement made ~760 uniqueness checks per cell, most of them here).
///
/// A copy shares the storage (it is a pointer, a count and a capacity): exactly one copy may
/// append or free, as with swift-collections' `_UnsafeHandle`. Bounds are checked in debug
/// builds (the tests) only.
///
/// - Thread safety: none; owned by one `TextPreparer` (one thread at a time).
struct Column<Element: BitwiseCopyable> {
    private(set) var base: UnsafeMutablePointer<Element>?
    private(set) var count = 0
    private(set) var capacity = 0

    init() {}

    /// Room for at least `n` elements without growing (contents kept).
    mutating func reserve(_ n: Int) {
        guard n > capacity else { return }
        let grown = UnsafeMutablePointer<Element>.allocate(capacity: n)
        if let base {
            grown.update(from: base, count: count)
            base.deallocate()
        }
        base = grown
        capacity = n
    }

    /// Appends `value`. Amortised O(1).
    @inline(__always)
    mutating func append(_ value: Element) {
        if count == capacity { reserve(Swift.max(16, capacity * 2)) }
        (base.unsafelyUnwrapped + count).initialize(to: value)
        count += 1
    }

    /// Forgets the elements, keeping the storage.
    @inline(__always)
    mutating func removeAll() { count = 0 }

    /// Element `i` (`0 ≤ i < count`; checked in debug builds).
    @inline(__always)
    subscript(i: Int) -> Element {
        unsafeAddress {
            assert(i >= 0 && i < count, "Column index \(i) out of 0..<\(count)")
            return UnsafePointer(base.unsafelyUnwrapped + i)
        }
        nonmutating unsafeMutableAddress {
            assert(i >= 0 && i < count, "Column index \(i) out of 0..<\(count)")
            return base.unsafelyUnwrapped + i
        }
    }

    /// The elements (valid until the next append or `deallocate`).
    var buffer: UnsafeBufferPointer<Element> { UnsafeBufferPointer(start: base, count: count) }

    /// The elements as an array of exactly `count` elements.
    func array() -> [Element] { Array(buffer) }

    /// Forgets the storage without freeing it: it has been handed over and freed by its new
    /// owner (`PreparedText.Columns.freesGraphemeColumns`).
    mutating func forget() {
        base = nil
        count = 0
        capacity = 0
    }

    /// Frees the storage (the owner calls this once, from its `deinit`).
    mutating func deallocate() {
        base?.deallocate()
        base = nil
        count = 0
        capacity = 0
    }
}
