import PropertyTesting
import Testing

@testable import Plumb

/// Tier 1's prepared-text cache (`ClockCache`, one flat table per shard) against a
/// dictionary: whatever it answers is the object last stored for that key, a value just stored
/// is found, every object it let go is released exactly once, and no shard is charged more
/// than its budget — through growth, CLOCK eviction, replacement, admission refusals and
/// backward-shift deletion across the table's wrap-around.
@Suite struct ClockCacheTests {
    /// A cached object of a given charge that counts how many exist.
    final class Charged: CacheCharged, @unchecked Sendable {  // immutable but for the shared live counter
        let byteSize: Int
        let tag: Int
        let live: LiveCount
        init(bytes: Int, tag: Int, live: LiveCount) {
            byteSize = bytes
            self.tag = tag
            self.live = live
            live.count += 1
        }
        deinit { live.count -= 1 }
    }

    final class LiveCount: @unchecked Sendable {  // one test thread
        var count = 0
    }

    /// Keys whose low bits (the probe start) take five values, two of them at the table's
    /// end, and whose high bits all pick one shard, so one shard fills, grows and evicts.
    static func key(_ index: Int) -> CacheKey {
        CacheKey(low: UInt64(index % 5) &- 2, high: UInt64(index + 1) << 8)
    }

    enum Operation {
        case insert(key: Int, bytes: Int, refused: Bool)
        case lookUp(key: Int)
        case remove(key: Int)
    }

    static let operations: Gen<[Operation]> = Gen.array(
        of: Gen.frequency([
            (4, Gen.zip(Gen.int(in: 0...79), Gen.int(in: 16...600), Gen.int(in: 0...3))
                .map { Operation.insert(key: $0, bytes: $1, refused: $2 == 0) }),
            (3, Gen.int(in: 0...79).map { Operation.lookUp(key: $0) }),
            (1, Gen.int(in: 0...79).map { Operation.remove(key: $0) }),
        ]), count: 1...400)

    /// Replays `operations` on a cache whose shard 0 has about `shardBytes`; nil when every
    /// check held, else what failed.
    static func replay(_ operations: [Operation], shardBytes: Int) -> String? {
        let live = LiveCount()
        do {
            let cache = ClockCache<Charged>(
                budgetBytes: (shardBytes + ClockCache<Charged>.shardBookkeepingBytes) * ClockCache<Charged>.shardCount)
            var stored: [Int: Int] = [:]  // key → tag of the last object stored
            var tag = 0
            for (step, operation) in operations.enumerated() {
                switch operation {
                case .insert(let k, let bytes, let refused):
                    tag += 1
                    let kept = cache.insert(Charged(bytes: bytes, tag: tag, live: live), for: key(k), admitWhenFull: { _ in !refused })
                    if kept {
                        stored[k] = tag
                        if cache.value(for: key(k))?.tag != tag { return "step \(step): key \(k) not found right after it was stored" }
                    }
                case .lookUp(let k):
                    if let found = cache.value(for: key(k)), found.tag != stored[k] {
                        return "step \(step): key \(k) answered object \(found.tag), last stored \(String(describing: stored[k]))"
                    }
                case .remove(let k):
                    let existed = cache.value(for: key(k)) != nil
                    if cache.remove(key(k)) != existed { return "step \(step): remove of key \(k) disagrees with a look-up" }
                }
                let s = cache.statistics
                if s.bytes > s.budget { return "step \(step): \(s.bytes) bytes charged, budget \(s.budget)" }
                if live.count != s.entries { return "step \(step): \(live.count) objects alive, \(s.entries) held" }
            }
            let held = (0..<80).filter { cache.value(for: key($0)) != nil }.count
            if held != cache.statistics.entries { return "\(held) keys found, entries says \(cache.statistics.entries)" }
            if live.count != held { return "\(live.count) objects alive, \(held) held" }
            cache.removeAll()
            if live.count != 0 { return "\(live.count) objects alive after removeAll" }
        }
        return nil
    }

    @Test func answersAreTheLastStoredObjectsWithinTheBudget() {
        // 2,000 B: a few entries, then every insert evicts; 20,000 B: growth past the first
        // table, then eviction; 1 MiB: neither.
        for shardBytes in [2_000, 20_000, 1 << 20] {
            if let failure = checkProperty("clock cache, shard of \(shardBytes) B", Self.operations, iterations: 150, {
                Self.replay($0, shardBytes: shardBytes) == nil
            }) {
                Issue.record("\(shardBytes) B: \(failure); \(Self.replay(failure.shrunk, shardBytes: shardBytes) ?? "")")
            }
        }
    }

    @Test func theCacheReleasesWhatItHoldsWhenItGoes() {
        let live = LiveCount()
        do {
            let cache = ClockCache<Charged>(budgetBytes: 1 << 20)
            for k in 0..<300 { cache.insert(Charged(bytes: 64, tag: k, live: live), for: Self.key(k)) }
            #expect(live.count == cache.statistics.entries)
        }
        #expect(live.count == 0)
    }
}
