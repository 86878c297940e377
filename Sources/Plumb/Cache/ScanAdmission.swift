import Synchronization

/// An admission filter in front of a byte-budgeted cache, so a sequential scan of more
/// distinct keys than fit does not flush what is there.
///
/// Under CLOCK, a scan of N > C never-repeated keys is FIFO: every entry is evicted before it
/// is asked for again, so a feed of 100,000 rows laid out at a second width found none of its
/// prepared texts (0 % hits, the second width a full cold pass). With this filter, once the
/// cache has been charged its budget (it is full), a key is admitted only if it was offered
/// before (a *doorkeeper* bit set, as in TinyLFU): the first scan keeps the first C keys and
/// rejects the rest, and the second scan hits those C and admits the rest (now seen twice),
/// replacing entries by the cache's own policy. Keys that repeat are admitted on their second
/// offer, so a working set that fits is unaffected; before the cache first fills, everything
/// is admitted.
///
/// The doorkeeper is a bit set of `bitCount` bits (one hash of the key), cleared when half its
/// bits are set (so it forgets, and a false "seen before" stays below ~50 %).
///
/// - Thread safety: the fill counter is atomic; the doorkeeper is behind one lock, taken only
///   once the cache is full, on a miss (work of microseconds follows every call).
/// - Complexity: O(1) per call.
final class ScanAdmission: Sendable {
    private struct DoorKeeper: ~Copyable {
        var words: [UInt64]
        var setBits = 0
    }

    private let budgetBytes: Int
    private let charged = Atomic<Int>(0)
    private let doorKeeper: Mutex<DoorKeeper>
    private let bitCount: Int

    /// - Parameters:
    ///   - budgetBytes: the cache's budget; the filter starts rejecting once the bytes admitted
    ///     reach `fillFraction` of it (its 256 shards fill at slightly different times; at 99 %
    ///     a few shards are full before the filter starts and drop their oldest entries).
    ///   - bitCount: size of the doorkeeper (a power of two; 2²¹ bits = 256 KiB).
    init(budgetBytes: Int, fillFraction: Double = 0.99, bitCount: Int = 1 << 21) {
        self.budgetBytes = Int(Double(budgetBytes) * fillFraction)
        self.bitCount = bitCount
        doorKeeper = Mutex(DoorKeeper(words: [UInt64](repeating: 0, count: bitCount / 64)))
    }

    /// Whether to insert `key` (a value charged `bytes`) into the cache, which has just missed
    /// it.
    func admits(_ key: CacheKey, bytes: Int) -> Bool {
        if charged.load(ordering: .relaxed) < budgetBytes {
            charged.add(bytes, ordering: .relaxed)
            return true
        }
        let bit = Int(truncatingIfNeeded: key.low) & (bitCount - 1)  // XXH3 bits: already mixed
        return doorKeeper.withLock { d in
            let word = bit >> 6
            let mask: UInt64 = 1 << UInt64(bit & 63)
            if d.words[word] & mask != 0 { return true }
            d.words[word] |= mask
            d.setBits += 1
            if d.setBits > bitCount / 2 {
                for i in d.words.indices { d.words[i] = 0 }
                d.setBits = 0
            }
            return false
        }
    }

    /// Forgets everything (the cache was emptied).
    func reset() {
        charged.store(0, ordering: .relaxed)
        doorKeeper.withLock { d in
            for i in d.words.indices { d.words[i] = 0 }
            d.setBits = 0
        }
    }
}
