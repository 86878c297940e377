import Synchronization

/// Per-font cache of vertical glyph ink bounds (font units), shared by all threads.
///
/// - Thread safety: guarded by a `Lock`; the compute closure runs outside the lock.
final class GlyphExtentsCache: Sendable {
    private let storage = Lock<[UInt32: (Int32, Int32)]>([:])

    func bounds(of glyph: UInt32, compute: (UInt32) -> (Int32, Int32)) -> (top: Int32, bottom: Int32) {
        if let hit = storage.withLock({ $0[glyph] }) { return hit }
        let value = compute(glyph)
        storage.withLock { $0[glyph] = value }
        return value
    }
}
