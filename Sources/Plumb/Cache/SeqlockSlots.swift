internal import CSupport
#if canImport(Glibc)
import Glibc
#endif

/// The slots of one result-table shard: raw memory that optimistic (seqlock) readers load
/// while the shard's writer stores into it. This type owns all of that unsafety.
///
/// Each slot is six 64-bit words: key low, key high, height | width << 32,
/// line count | flags << 32, widest line, layout width. A slot whose key words are both zero
/// is empty; freshly allocated memory is all empty slots.
///
/// Memory-ordering rules (the seqlock of Boehm, "Can seqlocks get along with programming
/// language memory models?", 2012, as C++ seqlocks implement it):
/// - **Every access to slot memory is a relaxed atomic load or store** (`CSupport`, an
///   `atomic_ref` in C++ terms). Readers and the writer therefore never race in the
///   language's sense; a reader may see a mix of old and new words, which the version check
///   rejects.
/// - **Writers** hold the shard's mutex and bracket their stores with the shard's version:
///   `version += 1` (relaxed, now odd), a release fence, the relaxed stores, then
///   `version += 1` with release ordering (`ResultCache.Shard.write`). The CLOCK bit is the
///   one store made under the mutex without bumping the version: readers ignore that bit.
/// - **Readers** load the version with acquire ordering (retry if odd), load the words they
///   need relaxed, issue an acquire fence, and load the version again relaxed: equal means no
///   writer overlapped and the words are one consistent snapshot.
///
/// Relaxed loads and stores compile to ordinary `mov` instructions on x86-64 and AArch64; the
/// cost is only that the compiler may not merge or reorder them.
///
/// - Thread safety: any thread may call the `load` methods at any time; the `store` methods
///   only from the writer holding the shard's mutex.
struct SeqlockSlots: @unchecked Sendable {
    /// Words per slot.
    static let wordsPerSlot = 6
    /// Bytes per slot.
    static let slotBytes = wordsPerSlot * MemoryLayout<UInt64>.stride

    private let words: UnsafeMutablePointer<UInt64>
    /// Number of slots.
    let count: Int

    /// `count` slots at `words` (memory a ``SlotRegion`` owns).
    fileprivate init(words: UnsafeMutablePointer<UInt64>, count: Int) {
        self.words = words
        self.count = count
    }

    // MARK: Loads (any thread)

    @inline(__always)
    private func load(_ slot: Int, _ word: Int) -> UInt64 {
        plumb_load_relaxed(words + (slot &* Self.wordsPerSlot &+ word))
    }

    /// The key in `slot` (empty: both words zero).
    @inline(__always)
    func key(at slot: Int) -> CacheKey {
        CacheKey(low: load(slot, 0), high: load(slot, 1))
    }

    /// Whether `slot` holds no entry.
    @inline(__always)
    func isEmpty(_ slot: Int) -> Bool {
        load(slot, 0) == 0 && load(slot, 1) == 0
    }

    /// The value in `slot`.
    @inline(__always)
    func value(at slot: Int) -> CachedResult {
        let sizes = load(slot, 2), counts = load(slot, 3)
        return CachedResult(
            heightPixels: UInt32(truncatingIfNeeded: sizes), widthPixels: UInt32(truncatingIfNeeded: sizes >> 32),
            lineCount: UInt32(truncatingIfNeeded: counts), flags: UInt32(truncatingIfNeeded: counts >> 32),
            widestLine: Double(bitPattern: load(slot, 4)), layoutWidth: Double(bitPattern: load(slot, 5)))
    }

    /// Asks for `slot`'s cache lines ahead of a look-up or store (a hint: reads nothing,
    /// changes nothing; a slot may straddle two lines).
    @inline(__always)
    func prefetch(_ slot: Int) {
        Prefetch.forWrite(words + slot &* Self.wordsPerSlot, bytes: Self.slotBytes)
    }

    // MARK: Stores (the writer holding the shard's mutex)

    @inline(__always)
    private func store(_ slot: Int, _ word: Int, _ value: UInt64) {
        plumb_store_relaxed(words + (slot &* Self.wordsPerSlot &+ word), value)
    }

    /// Writes `key` into `slot` (``CacheKey`` zero empties it).
    @inline(__always)
    func store(key: CacheKey, at slot: Int) {
        store(slot, 0, key.low)
        store(slot, 1, key.high)
    }

    /// Writes `value` into `slot`.
    @inline(__always)
    func store(value v: CachedResult, at slot: Int) {
        store(slot, 2, UInt64(v.heightPixels) | UInt64(v.widthPixels) << 32)
        store(slot, 3, UInt64(v.lineCount) | UInt64(v.flags) << 32)
        store(slot, 4, v.widestLine.bitPattern)
        store(slot, 5, v.layoutWidth.bitPattern)
    }

    /// Sets or clears flag bits of `slot`'s value (the CLOCK bit).
    @inline(__always)
    func setFlags(_ flags: UInt32, at slot: Int) {
        let counts = load(slot, 3)
        store(slot, 3, (counts & 0xFFFF_FFFF) | UInt64(flags) << 32)
    }

    /// Copies slot `from` into slot `to`.
    @inline(__always)
    func move(from: Int, to: Int) {
        for w in 0..<Self.wordsPerSlot { store(to, w, load(from, w)) }
    }
}

/// The memory of every shard's slots: one private anonymous mapping, zero-filled by the
/// kernel and committed page by page as tables grow into it, so a large budget costs address
/// space, not RAM, until it is used. Zero pages are empty slots, so nothing is written up
/// front.
///
/// - Thread safety: immutable after creation; the slots' own rules are ``SeqlockSlots``'.
final class SlotRegion: @unchecked Sendable {
    private let base: UnsafeMutableRawPointer
    /// Bytes mapped.
    let bytes: Int
    /// Slots per shard.
    let slotsPerShard: Int

    /// A region of `shards` × `slotsPerShard` slots.
    init(shards: Int, slotsPerShard: Int) {
        self.slotsPerShard = slotsPerShard
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let wanted = Swift.max(1, shards * slotsPerShard * SeqlockSlots.slotBytes)
        bytes = (wanted + page - 1) / page * page
        let p = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)
        guard let p, p != MAP_FAILED else { fatalError("could not map \(bytes) bytes for the result table") }
        base = p
    }

    deinit { munmap(base, bytes) }

    /// The slots of shard `index`.
    func slots(ofShard index: Int) -> SeqlockSlots {
        let words = (base + index * slotsPerShard * SeqlockSlots.slotBytes).assumingMemoryBound(to: UInt64.self)
        return SeqlockSlots(words: words, count: slotsPerShard)
    }

    /// Bytes of the region resident in RAM now (`mincore`): what the table really costs.
    ///
    /// - Complexity: O(pages mapped); for tests and diagnostics.
    var residentBytes: Int {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        var vector = [UInt8](repeating: 0, count: bytes / page)
        let rc = vector.withUnsafeMutableBufferPointer { mincore(base, bytes, $0.baseAddress) }
        guard rc == 0 else { return -1 }
        return vector.reduce(0) { $0 + Int($1 & 1) } * page
    }
}
