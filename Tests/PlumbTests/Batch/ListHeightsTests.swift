import Testing
@testable import Plumb
import PropertyTesting

/// The edits are `mutating`, so a Boolean one is checked as `#expect(list.append(…) == true)`:
/// `#expect` cannot call a mutating method on the value it splits an expression into.
@Suite struct ListHeightsTests {
    private func makeList(_ heights: [Double], firstID: Int = 0) -> ListHeights<Int> {
        ListHeights(heights.enumerated().map { (id: firstID + $0.offset, height: $0.element) })
    }

    // MARK: - Hand-worked examples

    /// Ids from outside the program can repeat (overlapping pages of a feed): the validating
    /// initializer reports the first repeat instead of trapping, and otherwise builds the
    /// same list as `init(_:)`, in small and multi-chunk lists.
    @Test func validatingInitReportsTheFirstDuplicateID() throws {
        for count in [3, 700] {
            var rows = (0..<count).map { (id: $0, height: Double($0 % 7) + 1) }
            let valid = try ListHeights(validating: rows)
            let plain = ListHeights(rows)
            #expect(valid.count == plain.count)
            #expect(valid.totalHeight == plain.totalHeight)
            #expect((0..<count).map { valid.offset(ofRowAt: $0) } == (0..<count).map { plain.offset(ofRowAt: $0) })
            rows.append((id: 1, height: 5))
            rows.append((id: 2, height: 5))
            let duplicate = #expect(throws: DuplicateRowID<Int>.self) { try ListHeights(validating: rows) }
            #expect(duplicate?.id == 1)
            #expect(duplicate?.index == count)
            #expect(duplicate.map { "\($0)" } == "duplicate row id 1 at row \(count)")
        }
    }

    @Test func handWorkedOffsetsAndRowIndex() {
        let list = makeList([10, 20, 30])
        #expect(list.count == 3)
        #expect(!list.isEmpty)
        #expect(list.totalHeight == 60)
        #expect((0...3).map { list.offset(ofRowAt: $0) } == [0, 10, 30, 60])
        #expect((0..<3).map { list.height(at: $0) } == [10, 20, 30])
        #expect((0..<3).map { list.id(at: $0) } == [0, 1, 2])
        #expect(list.offset(of: 2) == 30)
        #expect(list.index(of: 1) == 1)
        #expect(list.height(of: 2) == 30)
        #expect(list.height(of: 99) == nil)
        #expect(list.index(of: 99) == nil)
        #expect(list.offset(of: 99) == nil)

        #expect(list.rowIndex(atOffset: 9.999) == 0)
        #expect(list.rowIndex(atOffset: 10) == 1)
        #expect(list.rowIndex(atOffset: 59.9) == 2)
        #expect(list.rowIndex(atOffset: 60) == 2)
        #expect(list.rowIndex(atOffset: -5) == 0)
        #expect(list.rowIndex(atOffset: 0) == 0)
        #expect(list.rowIndex(atOffset: 29.999) == 1)
        #expect(list.rowIndex(atOffset: 30) == 2)
        #expect(list.rowIndex(atOffset: 1e9) == 2)
        #expect(list.rowIndex(atOffset: .nan) == 0)
    }

    @Test func handWorkedViewport() {
        let list = makeList([10, 20, 30])
        #expect(list.rows(in: 0...5) == 0..<1)
        #expect(list.rows(in: 5...15) == 0..<2)
        #expect(list.rows(in: 10...29.5) == 1..<2)
        #expect(list.rows(in: 10...30) == 1..<3)  // row 2's top edge touches the closed range
        #expect(list.rows(in: -100...100) == 0..<3)
        #expect(list.rows(in: -100 ... -1) == 0..<0)
        #expect(list.rows(in: 60...70) == 3..<3)
        #expect(ListHeights<Int>().rows(in: 0...100) == 0..<0)
    }

    @Test func emptyList() {
        var list = ListHeights<String>()
        #expect(list.isEmpty)
        #expect(list.count == 0)
        #expect(list.totalHeight == 0)
        #expect(list.offset(ofRowAt: 0) == 0)
        #expect(list.rowIndex(atOffset: 0) == nil)
        #expect(list.rowIndex(atOffset: -1) == nil)
        #expect(list.remove(id: "a") == nil)
        #expect(list.updateHeight(of: "a", to: 3) == false)
        #expect(list.append(id: "a", height: 7) == true)
        #expect(list.rowIndex(atOffset: 3) == 0)
        #expect(list.remove(id: "a") == 7)
        #expect(list.isEmpty)
        #expect(list.rowIndex(atOffset: 0) == nil)
        list.checkInvariants()
    }

    @Test func zeroHeightRowsAreSkippedByRowIndex() {
        let list = makeList([0, 0, 5, 0, 5, 0])
        #expect(list.rowIndex(atOffset: 0) == 2)
        #expect(list.rowIndex(atOffset: 4.9) == 2)
        #expect(list.rowIndex(atOffset: 5) == 4)
        #expect(list.rowIndex(atOffset: 10) == 5)  // y >= total → last row
        #expect(list.rows(in: 0...5) == 2..<5)
    }

    // MARK: - Editing by identity

    @Test func editsByIdentity() {
        var list = ListHeights<String>()
        #expect(list.append(id: "b", height: 20) == true)
        #expect(list.insert(id: "a", height: 10, before: "b") == true)
        #expect(list.insert(id: "d", height: 40, after: "b") == true)
        #expect(list.insert(id: "c", height: 30, at: 2) == true)
        #expect((0..<4).map { list.id(at: $0) } == ["a", "b", "c", "d"])
        #expect(list.offset(of: "d") == 60)

        #expect(list.move(id: "a", toIndex: 3) == true)
        #expect((0..<4).map { list.id(at: $0) } == ["b", "c", "d", "a"])
        #expect(list.offset(of: "a") == 90)
        #expect(list.move(id: "zz", toIndex: 0) == false)

        #expect(list.updateHeight(of: "c", to: 5) == true)
        #expect(list.offset(of: "d") == 25)
        #expect(list.updateHeights([("b", 1), ("nope", 3), ("d", 2)]) == 2)
        #expect(list.totalHeight == 1 + 5 + 2 + 10)

        #expect(list.remove(id: "c") == 5)
        #expect(list.remove(id: "c") == nil)
        #expect(list.index(of: "a") == 2)
        #expect(list.totalHeight == 13)

        list.removeAll()
        #expect(list.isEmpty)
        #expect(list.totalHeight == 0)
        #expect(list.index(of: "a") == nil)
        #expect(list.append(id: "a", height: 4) == true)
        #expect(list.totalHeight == 4)
        list.checkInvariants()
    }

    @Test func duplicateIDInsertIsRejectedWithoutChange() {
        var list = makeList([10, 20, 30])
        #expect(list.append(id: 1, height: 99) == false)
        #expect(list.insert(id: 2, height: 99, at: 0) == false)
        #expect(list.insert(id: 0, height: 99, after: 2) == false)
        #expect(list.insert(id: 0, height: 99, before: 2) == false)
        #expect(list.insert(id: 7, height: 99, after: 42) == false)  // unknown anchor
        #expect(list.insert(id: 7, height: 99, before: 42) == false)
        #expect(list.count == 3)
        #expect(list.totalHeight == 60)
        #expect((0..<3).map { list.id(at: $0) } == [0, 1, 2])
        #expect(list.height(of: 1) == 20)
        list.checkInvariants()
    }

    @Test func invalidHeightsAreClampedToZero() {
        let bad: [Double] = [.nan, .infinity, -.infinity, -5, -0.0, -.leastNonzeroMagnitude, .signalingNaN]
        var list = makeList(bad + [7])
        #expect(list.totalHeight == 7)
        for i in 0..<bad.count {
            #expect(list.height(at: i) == 0)
            #expect(list.height(at: i).sign == .plus)
        }
        #expect(list.append(id: 100, height: .nan) == true)
        #expect(list.insert(id: 101, height: -1, at: 0) == true)
        #expect(list.insert(id: 102, height: .infinity, after: 100) == true)
        #expect(list.insert(id: 103, height: -.infinity, before: 100) == true)
        #expect(list.height(of: 100) == 0)
        #expect(list.height(of: 101) == 0)
        #expect(list.height(of: 102) == 0)
        #expect(list.height(of: 103) == 0)
        #expect(list.updateHeight(of: 7, to: .nan) == true)  // id 7 is the row of height 7
        #expect(list.totalHeight == 0)
        #expect(list.updateHeights([(0, 3), (1, .infinity), (2, -2)]) == 3)
        #expect(list.totalHeight == 3)
        #expect(list.totalHeight.isFinite)
        list.checkInvariants()
    }

    @Test func valueSemantics() {
        let original = makeList([1, 2, 3])
        var copy = original
        copy.updateHeight(of: 0, to: 100)
        copy.append(id: 9, height: 4)
        copy.remove(id: 1)
        #expect(original.count == 3)
        #expect(original.totalHeight == 6)
        #expect(original.height(of: 0) == 1)
        #expect(copy.totalHeight == 107)
        original.checkInvariants()
        copy.checkInvariants()
    }

    @Test func initChunkingMatchesAppends() {
        for n in [0, 1, 2, 5, 6, 7, 13, 100, 1000] {
            for capacity in [2, 4, 8, 512] {
                let rows = (0..<n).map { (id: $0, height: Double($0 % 7)) }
                let built = ListHeights(rows, chunkCapacity: capacity)
                var appended = ListHeights<Int>(chunkCapacity: capacity)
                for row in rows { appended.append(id: row.id, height: row.height) }
                built.checkInvariants()
                appended.checkInvariants()
                #expect(built.count == n)
                #expect(built.totalHeight == appended.totalHeight)
                for i in 0...n {
                    #expect(built.offset(ofRowAt: i) == appended.offset(ofRowAt: i))
                }
            }
        }
    }

    // MARK: - Randomised model tests

    @Test func randomisedEditsAgainstNaiveModel() {
        for (seed, capacity, maxSize) in [(1 as UInt64, 4, 120), (2, 8, 150), (3, 16, 200), (4, 512, 120), (5, 2, 60)] {
            var rng = SplitMix64(seed: seed)
            var list = ListHeights<Int>(chunkCapacity: capacity)
            var model = Model()
            var nextID = 0
            var shrinking = false  // grow to maxSize, shrink to empty, repeat
            for step in 0..<2_500 {
                if model.count >= maxSize { shrinking = true }
                if model.count == 0 { shrinking = false }
                applyRandomEdit(&list, &model, &rng, &nextID, maxSize: shrinking ? 1 : maxSize)
                list.checkInvariants()
                verify(list, model, &rng, context: "seed \(seed) step \(step)")
            }
        }
    }

    @Test func largeListWithRandomEdits() {
        var rng = SplitMix64(seed: 0xC0FFEE)
        var model = Model()
        for id in 0..<100_000 {
            model.ids.append(id)
            model.heights.append(randomHeight(&rng))
        }
        var list = ListHeights(zip(model.ids, model.heights).map { (id: $0, height: $1) })
        #expect(list.count == 100_000)
        var nextID = 100_000
        for _ in 0..<10_000 {
            applyRandomEdit(&list, &model, &rng, &nextID, maxSize: 110_000, allowRemoveAll: false)
        }
        #expect(list.count > 95_000)
        #expect(list.chunks.count > 300)
        list.checkInvariants()
        verify(list, model, &rng, context: "large")
    }

    /// Prefix sums must not drift: 1,000,000 edits with arbitrary (non-dyadic) heights.
    ///
    /// Heights are large (up to 1e5 pt, total ~1e8) so that any delta-based
    /// bookkeeping would random-walk well past the 1e-6 tolerance; the reference
    /// is a compensated (Neumaier) fresh sum of the remaining rows.
    @Test func totalHeightDoesNotDriftAfterManyEdits() {
        var rng = SplitMix64(seed: 77)
        let n = 2_000
        var heights = (0..<n).map { _ in rng.unit() * 1e5 }
        var ids = Array(0..<n)
        var list = ListHeights(zip(ids, heights).map { (id: $0, height: $1) }, chunkCapacity: 64)
        var nextID = n
        for _ in 0..<1_000_000 {
            let i = rng.below(ids.count)
            if rng.below(1_000) == 0 {  // occasional structural edit: remove, insert elsewhere
                #expect(list.remove(id: ids[i]) == heights[i])
                ids.remove(at: i)
                heights.remove(at: i)
                let j = rng.below(ids.count + 1)
                let h = rng.unit() * 1e5
                list.insert(id: nextID, height: h, at: j)
                ids.insert(nextID, at: j)
                heights.insert(h, at: j)
                nextID += 1
            } else {
                let h = rng.unit() * 1e5
                list.updateHeight(of: ids[i], to: h)
                heights[i] = h
            }
        }
        func compensatedSum(_ values: ArraySlice<Double>) -> Double {
            var sum = 0.0, compensation = 0.0
            for v in values {
                let t = sum + v
                compensation += abs(sum) >= abs(v) ? (sum - t) + v : (v - t) + sum
                sum = t
            }
            return sum + compensation
        }
        #expect(abs(list.totalHeight - compensatedSum(heights[...])) <= 1e-6)
        #expect(abs(list.totalHeight - heights.reduce(0, +)) <= 1e-6)
        for i in stride(from: 0, through: n, by: 97) {
            #expect(abs(list.offset(ofRowAt: i) - compensatedSum(heights[..<i])) <= 1e-6)
        }
        list.checkInvariants()
    }

    // MARK: - Helpers

    struct Model {
        var ids: [Int] = []
        var heights: [Double] = []
        var count: Int { ids.count }
    }

    /// Dyadic heights (multiples of 1/8) so every sum is exact; ~10% zero.
    private func randomHeight(_ rng: inout SplitMix64) -> Double {
        rng.below(10) == 0 ? 0 : Double(rng.below(2_000)) / 8
    }

    /// A height the caller might pass, and the height the model expects to be stored.
    private func randomInputHeight(_ rng: inout SplitMix64) -> (input: Double, stored: Double) {
        switch rng.below(40) {
        case 0: return (.nan, 0)
        case 1: return (.infinity, 0)
        case 2: return (-Double(rng.below(100)) - 1, 0)
        default:
            let h = randomHeight(&rng)
            return (h, h)
        }
    }

    private func applyRandomEdit(
        _ list: inout ListHeights<Int>, _ model: inout Model, _ rng: inout SplitMix64,
        _ nextID: inout Int, maxSize: Int, allowRemoveAll: Bool = true
    ) {
        let n = model.count
        var op = rng.below(100)
        if n == 0 { op = op % 35 }  // only inserts when empty
        else if n >= maxSize && op < 35 { op = 35 + op }  // shrink when too big
        let (input, stored) = randomInputHeight(&rng)
        switch op {
        case 0..<12:  // append
            #expect(list.append(id: nextID, height: input) == true)
            model.ids.append(nextID)
            model.heights.append(stored)
            nextID += 1
        case 12..<27:  // insert at index
            let i = rng.below(n + 1)
            #expect(list.insert(id: nextID, height: input, at: i) == true)
            model.ids.insert(nextID, at: i)
            model.heights.insert(stored, at: i)
            nextID += 1
        case 27..<35:  // insert after / before an anchor
            guard n > 0 else {
                #expect(list.insert(id: nextID, height: input, after: -1) == false)
                return
            }
            let a = rng.below(n)
            let after = rng.below(2) == 0
            let ok = after
                ? list.insert(id: nextID, height: input, after: model.ids[a])
                : list.insert(id: nextID, height: input, before: model.ids[a])
            #expect(ok)
            let i = after ? a + 1 : a
            model.ids.insert(nextID, at: i)
            model.heights.insert(stored, at: i)
            nextID += 1
        case 35..<60:  // remove
            let i = rng.below(n)
            #expect(list.remove(id: model.ids[i]) == model.heights[i])
            model.ids.remove(at: i)
            model.heights.remove(at: i)
        case 60..<75:  // move
            let i = rng.below(n)
            let j = rng.below(n)
            #expect(list.move(id: model.ids[i], toIndex: j) == true)
            let id = model.ids.remove(at: i)
            let h = model.heights.remove(at: i)
            model.ids.insert(id, at: j)
            model.heights.insert(h, at: j)
        case 75..<90:  // update one height
            let i = rng.below(n)
            #expect(list.updateHeight(of: model.ids[i], to: input) == true)
            model.heights[i] = stored
        case 90..<95:  // batch update, including an unknown id
            var changes: [(Int, Double)] = []
            for _ in 0..<rng.below(6) {
                let i = rng.below(n)
                let (input, stored) = randomInputHeight(&rng)
                changes.append((model.ids[i], input))
                model.heights[i] = stored
            }
            changes.append((-1, 5))
            #expect(list.updateHeights(changes) == changes.count - 1)
        case 95..<99:  // rejected edits must not change anything
            let existing = model.ids[rng.below(n)]
            #expect(list.append(id: existing, height: 1) == false)
            #expect(list.insert(id: existing, height: 1, at: rng.below(n + 1)) == false)
            #expect(list.insert(id: existing, height: 1, after: model.ids[rng.below(n)]) == false)
            #expect(list.remove(id: -7) == nil)
            #expect(list.updateHeight(of: -7, to: 1) == false)
            #expect(list.move(id: -7, toIndex: 0) == false)
        default:
            if allowRemoveAll && rng.below(20) == 0 {
                list.removeAll()
                model = Model()
            }
        }
    }

    private func verify(_ list: ListHeights<Int>, _ model: Model, _ rng: inout SplitMix64, context: String) {
        let n = model.count
        #expect(list.count == n, "\(context)")
        #expect(list.isEmpty == (n == 0), "\(context)")
        var prefix = [0.0]
        prefix.reserveCapacity(n + 1)
        for h in model.heights { prefix.append(prefix[prefix.count - 1] + h) }
        #expect(list.totalHeight == prefix[n], "\(context)")
        var failures = 0
        for i in 0...n where list.offset(ofRowAt: i) != prefix[i] {
            failures += 1
            if failures < 5 { Issue.record("\(context): offset(ofRowAt: \(i)) = \(list.offset(ofRowAt: i)), want \(prefix[i])") }
        }
        for i in 0..<n {
            let id = model.ids[i]
            if list.index(of: id) != i || list.height(of: id) != model.heights[i] || list.id(at: i) != id
                || list.height(at: i) != model.heights[i] || list.offset(of: id) != prefix[i] {
                failures += 1
                if failures < 5 { Issue.record("\(context): row \(i) (id \(id)) disagrees with the model") }
            }
        }
        if failures > 0 { return }
        #expect(list.index(of: -1) == nil, "\(context)")
        #expect(list.height(of: -1) == nil, "\(context)")
        guard n > 0 else {
            #expect(list.rowIndex(atOffset: 0) == nil, "\(context)")
            return
        }
        // Expected row for y: offset(i) <= y < offset(i+1); clamped outside the content.
        func expectedRow(_ y: Double) -> Int {
            if y < 0 { return 0 }
            if y >= prefix[n] { return n - 1 }
            var lo = 0, hi = n  // first j in 1...n with prefix[j] > y, minus one
            while lo < hi {
                let mid = (lo + hi) / 2
                if prefix[mid + 1] > y { hi = mid } else { lo = mid + 1 }
            }
            return lo
        }
        for k in 0..<24 {
            let y: Double
            switch k % 3 {
            case 0: y = prefix[rng.below(n + 1)]  // exactly on a boundary
            case 1: y = prefix[n] * (rng.unit() * 1.2 - 0.1)
            default: y = prefix[rng.below(n + 1)] - 0.125
            }
            #expect(list.rowIndex(atOffset: y) == expectedRow(y), "\(context): y = \(y)")
        }
        let a = prefix[n] * (rng.unit() * 1.2 - 0.1)
        let b = a + rng.unit() * prefix[n] * 0.3
        let visible = list.rows(in: a...b)
        if b < 0 {
            #expect(visible == 0..<0, "\(context)")
        } else if a >= prefix[n] {
            #expect(visible == n..<n, "\(context)")
        } else {
            #expect(visible == expectedRow(a)..<(expectedRow(b) + 1), "\(context)")
        }
    }
}

extension SplitMix64 {
    /// Uniform in [0, 1).
    fileprivate mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }
    fileprivate mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}
