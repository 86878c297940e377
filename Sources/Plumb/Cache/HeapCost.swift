internal import CSupport

/// What heap allocations really cost, for honest cache budgets: glibc's malloc rounds a
/// request plus its 8-byte chunk header up to 16 bytes (32 at least), and a Swift array is a
/// heap object with a 32-byte header whose capacity may exceed its count.
///
/// Measured against `mallinfo2` in `CacheMemoryTests`.
enum HeapCost {
    /// The chunk glibc's malloc uses for a request of `bytes`.
    @inline(__always)
    static func malloc(_ bytes: Int) -> Int {
        max(32, (bytes + 8 + 15) & ~15)
    }

    /// The heap bytes of an array's buffer (0 for an empty array: they share one).
    @inline(__always)
    static func array<T>(_ a: [T]) -> Int {
        a.capacity == 0 ? 0 : malloc(32 + a.capacity * MemoryLayout<T>.stride)
    }

    /// The heap bytes of a class instance of `storedBytes` (plus its 16-byte object header).
    @inline(__always)
    static func object(storedBytes: Int) -> Int {
        malloc(16 + storedBytes)
    }

    /// Bytes the whole process holds from malloc now (`mallinfo2`: chunks in use plus
    /// mmapped chunks). For tests and diagnostics; O(arenas).
    static var processHeapBytes: Int { Int(plumb_heap_bytes_in_use()) }

    /// Returns malloc's free pages to the kernel (`malloc_trim`), so that a peak of resident
    /// memory measured next counts memory reused from the heap too. For tests.
    static func trimHeap() { plumb_heap_trim() }
}

extension PreparedText {
    /// The bytes of a prepared text's stored properties (the column placement, the font
    /// table and its two column pointers, the extras, a few scalars), header excluded:
    /// checked against the fields' layout in `CacheMemoryTests`.
    static let storedBytes = 120

    /// Heap bytes this text owns (the object, its one column allocation and a truncation
    /// token's arrays, as malloc chunks), for cache budgets. Fonts and font tables are
    /// shared (`FontTableInterner`), not counted.
    var byteSize: Int {
        HeapCost.object(storedBytes: Self.storedBytes)
            + HeapCost.malloc(storageBytes) + (extras?.byteSize ?? 0)
    }
}

extension PreparedText.Extras {
    /// Heap bytes of the extras (the object, "…" per style, a token's arrays, the pango
    /// baselines, the tab facts, the hyphen points).
    var byteSize: Int {
        HeapCost.object(storedBytes: Self.storedBytes) + HeapCost.array(ellipsisByGroup)
            + (token.map { HeapCost.array($0.utf8) + HeapCost.array($0.pieces) + HeapCost.array($0.clusters) } ?? 0)
            + (pangoBaselines.map { HeapCost.object(storedBytes: 16) + HeapCost.array($0.faces) + HeapCost.array($0.changes) } ?? 0)
            + (tabs.map { HeapCost.array($0.decimalPoints) } ?? 0)
            + (hyphens.isEmpty
                ? 0
                : HeapCost.array(hyphens.graphemes) + HeapCost.array(hyphens.widths) + HeapCost.array(hyphens.kinds)
                    + HeapCost.array(hyphens.faceIndexes) + HeapCost.array(hyphens.faces))
    }
}

extension FontTable {
    /// Heap bytes of the table (object, font array, key, the two columns), for the
    /// interner's statistics.
    var byteSize: Int {
        HeapCost.object(storedBytes: 48) + HeapCost.array(fonts) + HeapCost.array(key.faces) + HeapCost.array(key.bits)
            + HeapCost.malloc(max(1, fonts.count) * MemoryLayout<PreparedText.FontLine>.stride)
            + HeapCost.malloc(max(1, scaleCount) * MemoryLayout<AdvanceScale>.stride)
    }
}
