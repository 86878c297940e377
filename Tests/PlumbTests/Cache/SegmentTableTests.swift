import PropertyTesting
import Testing

@testable import Plumb

/// The flat segment tier (`SegmentTable`) against a dictionary: whatever it answers is the
/// last value stored for that key, a value just stored is found, and the shard never holds
/// more than its budget — through growth, CLOCK eviction, backward-shift deletion across the
/// table's wrap-around and segments too long to sit in their slot.
@Suite struct SegmentTableTests {
    /// Keys whose low bits (the probe start) take five values, two of them at the table's
    /// end, so chains are long and wrap; the high bits tell them apart.
    static func key(_ index: Int) -> CacheKey {
        CacheKey(low: UInt64(index % 5) &- 2, high: UInt64(index + 1) &* 0x9E37_79B9_7F4A_7C15)
    }

    static func advances(key index: Int, version: Int, count: Int) -> [Int32] {
        (0..<count).map { Int32(index * 1_000 + version * 100 + $0) }
    }

    enum Operation {
        case insert(key: Int, clusters: Int)
        case lookUp(key: Int)
    }

    static let operations: Gen<[Operation]> = Gen.array(
        of: Gen.frequency([
            (3, Gen.zip(Gen.int(in: 0...59), Gen.frequency([(4, Gen.int(in: 1...10)), (1, Gen.int(in: 11...40))]))
                .map { Operation.insert(key: $0, clusters: $1) }),
            (2, Gen.int(in: 0...59).map { Operation.lookUp(key: $0) }),
        ]), count: 1...400)

    /// Replays `operations` on a table of `budget` bytes; nil when every check held, else
    /// what failed.
    static func replay(_ operations: [Operation], budget: Int) -> String? {
        var table = SegmentTable(budget: budget)
        var stored: [Int: [Int32]] = [:]  // the last value stored per key
        var versions: [Int: Int] = [:]
        for (step, operation) in operations.enumerated() {
            switch operation {
            case .insert(let k, let n):
                let version = versions[k, default: 0] + 1
                versions[k] = version
                let value = advances(key: k, version: version, count: n)
                let fits = value.withUnsafeBufferPointer { table.insert($0, for: key(k)) }
                stored[k] = value
                if fits && table.advances(for: key(k)) != value { return "step \(step): key \(k) not found right after it was stored" }
            case .lookUp(let k):
                if let found = table.advances(for: key(k)), found != stored[k] {
                    return "step \(step): key \(k) answered \(found), last stored \(String(describing: stored[k]))"
                }
                let expected = stored[k]?.count ?? 1
                let out = UnsafeMutableBufferPointer<Int32>.allocate(capacity: expected)
                defer { out.deallocate() }
                if table.copy(key(k), into: out), Array(out) != stored[k] {
                    return "step \(step): key \(k) copied \(Array(out)), last stored \(String(describing: stored[k]))"
                }
            }
            if table.bytes > budget { return "step \(step): \(table.bytes) bytes held, budget \(budget)" }
        }
        let held = (0..<60).filter { table.advances(for: key($0)) != nil }.count
        if held != table.count { return "\(held) keys found, count says \(table.count)" }
        return nil
    }

    @Test func answersAreTheLastStoredValuesWithinTheBudget() {
        // 2,000 bytes: a 16-slot table (1,104 B) that cannot double, so inserts evict.
        // 6,000: room to double once or twice, then eviction; 1 << 20: no eviction at all.
        for budget in [2_000, 6_000, 1 << 20] {
            if let failure = checkProperty("segment table, budget \(budget)", Self.operations, iterations: 200, {
                Self.replay($0, budget: budget) == nil
            }) {
                Issue.record("budget \(budget): \(failure); \(Self.replay(failure.shrunk, budget: budget) ?? "")")
            }
        }
    }

    @Test func aFullShardEvictsColdEntriesFirst() {
        var table = SegmentTable(budget: SegmentTable.tableBytes(slots: SegmentTable.initialSlots))
        let one: [Int32] = [7]
        // 12 entries fill 16 slots to 75 %; the 13th must evict one.
        for k in 0..<12 { _ = one.withUnsafeBufferPointer { table.insert($0, for: Self.key(k)) } }
        #expect(table.count == 12)
        // Key 0 is used again (its CLOCK bit set), so the hand passes it over.
        #expect(table.advances(for: Self.key(0)) == one)
        _ = one.withUnsafeBufferPointer { table.insert($0, for: Self.key(12)) }
        #expect(table.count == 12)
        #expect(table.stats.evictions == 1)
        #expect(table.advances(for: Self.key(0)) == one)
        #expect(table.advances(for: Self.key(12)) == one)
    }

    @Test func aSegmentOverTheBudgetIsNotStored() {
        var table = SegmentTable(budget: SegmentTable.tableBytes(slots: SegmentTable.initialSlots) + 64)
        let long = [Int32](repeating: 3, count: 40)  // 160 bytes outside the slot
        #expect(!long.withUnsafeBufferPointer { table.insert($0, for: Self.key(1)) })
        #expect(table.advances(for: Self.key(1)) == nil)
        #expect(table.bytes <= table.budget)
        let short: [Int32] = [1, 2, 3]
        #expect(short.withUnsafeBufferPointer { table.insert($0, for: Self.key(1)) })
        #expect(table.advances(for: Self.key(1)) == short)
    }

    @Test func removeAllReleasesEverything() {
        let cache = SegmentCache(budgetBytes: 1 << 20)
        for k in 0..<500 { cache.insert([Int32](repeating: Int32(k), count: 1 + k % 30), for: Self.key(k)) }
        #expect(cache.statistics.entries == 500)
        cache.removeAll()
        #expect(cache.statistics.entries == 0)
        #expect(cache.statistics.bytes == SegmentCache.shardCount * SegmentCache.shardBookkeepingBytes)
        #expect(cache.advances(for: Self.key(3)) == nil)
    }
}
