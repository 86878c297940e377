import Foundation
import Plumb

extension Report {
    /// Times `bodies` in rounds (one warm-up round, then `runs` rounds, each body once per
    /// round in order), so every scenario sees the same machine state as the others on a noisy
    /// machine; records one row per body and returns the samples (ns per cell) by round, for
    /// ratios. What a body returns (a cold engine) is released after its clock stops.
    ///
    /// Returns nil (and records nothing) when `--only` selects none of `names`.
    mutating func addInterleaved(_ names: [String], runs: Int, cells: Int,
                                 _ bodies: [() -> AnyObject?]) -> [[Double]]? {
        if let only = onlyFilter, !names.contains(where: { $0.contains(only) }) { return nil }
        func time(_ body: () -> AnyObject?) -> Double {
            let start = DispatchTime.now().uptimeNanoseconds
            let kept = body()
            let ns = Double(DispatchTime.now().uptimeNanoseconds - start)
            withExtendedLifetime(kept) {}
            return ns / Double(cells)
        }
        for body in bodies { _ = time(body) }
        var samples = Array(repeating: [Double](), count: bodies.count)
        for _ in 0..<runs {
            for (i, body) in bodies.enumerated() { samples[i].append(time(body)) }
        }
        for (name, s) in zip(names, samples) {
            let sorted = s.sorted()
            rows.append(Row(name: name, median: sorted[sorted.count / 2], min: sorted.first!, max: sorted.last!))
            FileHandle.standardError.write("  done: \(name)\n".data(using: .utf8)!)
        }
        return samples
    }

    /// Records the median, min and max of the per-round ratios `numerator[i] / denominator[i]`
    /// (samples from the same round of `addInterleaved`).
    mutating func addRatio(_ name: String, _ numerator: [Double], _ denominator: [Double]) {
        let r = zip(numerator, denominator).map { $0 / $1 }.sorted()
        guard !r.isEmpty else { return }
        ratios.append(Ratio(name: name, median: r[r.count / 2], min: r.first!, max: r.last!))
    }
}

/// Line counts of every cell, written by the cold runs (the last run's answers are kept), to
/// check that Plumb and Pango agree as the accuracy report says they do.
final class LineCounts {
    var counts: [Int32]
    init(cells: Int) { counts = Array(repeating: -1, count: cells) }

    var total: Int { counts.reduce(0) { $0 + Int($1) } }

    /// Percentage of cells whose line count equals `other`'s.
    func agreement(with other: LineCounts) -> Double {
        let same = zip(counts, other.counts).filter { $0 == $1 }.count
        return 100.0 * Double(same) / Double(max(1, counts.count))
    }
}

/// Prints both engines' total line counts (`what`: which cells, at which width) and each
/// profile's per-cell agreement with Pango, and stops the run (exit 2) if the pango profile
/// agrees with Pango far less than Documentation/Accuracy.md reports (99.94 % of line counts
/// over all widths, 99.99 % at 300–350 pt): then the two engines do not measure the same thing.
func checkLineCounts(_ what: String, pango: LineCounts, profiles: [Compatibility], counts: [LineCounts]) {
    print("line counts \(what): Pango \(pango.total) lines")
    for (profile, c) in zip(profiles, counts) {
        print(String(format: "  Plumb %@ profile: %d lines, %.2f %% of cells with Pango's line count",
                     profile.rawValue, c.total, c.agreement(with: pango)))
    }
    guard let p = profiles.firstIndex(of: .pango) else { return }
    let agreement = counts[p].agreement(with: pango)
    if agreement < 99.5 {
        FileHandle.standardError.write(String(format: "FAIL: line counts %@: the pango profile agrees with Pango on %.2f %% of cells (the accuracy report: ~99.9 %%); the engines do not measure the same thing\n", what, agreement).data(using: .utf8)!)
        exit(2)
    }
}
