import Synchronization

/// An admission filter in front of a byte-budgeted cache, so a sequential scan of more
/// distinct keys than fit does not flush what is there.
///
/// Under CLOCK, a scan of N > C never-repeated keys is FIFO: every entry is evicted before it
/// is asked for again, so a feed of more rows than fit, laid out at a second width, finds none
/// of its prepared texts (the second width a full cold pass). With this filter, asked by
/// `ClockCache.insert` only when a new entry would evict (its shard is full), a key is
/// admitted only if it was offered before (a *doorkeeper* bit set, as in TinyLFU): the first
/// scan keeps the first keys of each shard and rejects the rest, and the second scan hits
/// those and admits the rest (now seen twice), replacing entries by the cache's own policy;
/// an entry so replaced is rejected when the scan reaches it (it was admitted without being
/// offered), so one rejection costs at most one more miss. Keys that repeat are admitted on
/// their second offer, so a working set that fits is unaffected; a shard with room admits
/// everything.
///
/// The doorkeeper is a bit set of `bitCount` bits (one hash of the key), cleared when half its
/// bits are set (so it forgets, and a false "seen before" stays below ~50 %).
///
/// - Thread safety: the doorkeeper is behind one lock, taken only on a miss in a full shard
///   (under that shard's lock: always in that order; work of microseconds follows every call).
/// - Complexity: O(1) per call.
final class ScanAdmission: Sendable {
    private struct DoorKeeper: ~Copyable {
        var words: [UInt64]
        var setBits = 0
    }

    private let doorKeeper: Lock<DoorKeeper>
    private let bitCount: Int

    /// - Parameter bitCount: size of the doorkeeper (a power of two; 2²¹ bits = 256 KiB).
    init(bitCount: Int = 1 << 21) {
        self.bitCount = bitCount
        doorKeeper = Lock(DoorKeeper(words: [UInt64](repeating: 0, count: bitCount / 64)))
    }

    /// Whether `key` was offered before (then admit it); otherwise remembers it and says no.
    func seenBefore(_ key: CacheKey) -> Bool {
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
        doorKeeper.withLock { d in
            for i in d.words.indices { d.words[i] = 0 }
            d.setBits = 0
        }
    }
}
