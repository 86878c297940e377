import Foundation
import Plumb

/// The persistent cache (issue 29, item 1), on 100,000 distinct rows at 320 pt, all cores,
/// interleaved round by round: a fresh engine without the file (cold), a fresh engine on a new
/// file (cold, writing every result; its final flush inside the clock, as a process must
/// flush before it exits), and a fresh engine on the file the previous one wrote (what a
/// second process sees: every row a hit from disk, fonts loaded inside the clock as a new
/// process loads them), and the same in batches of 64 rows on one thread (what each worker of
/// `plumb measure` asks: point lookups instead of a scan). Targets: second ≥ 10× faster than cold; a hit ≤ 3 µs per row;
/// cold with the file ≤ 1.15× without.
@MainActor func addPersistentCacheScenarios(_ rows: [String], style: TextStyle) {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("plumb-bench-\(getpid()).sqlite").path
    func removeFile() {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
    func engine(cached: Bool) -> TextMeasurer {
        var c = TextMeasurer.Configuration()
        if cached { c.persistentCache = PersistentCacheConfiguration(path: path) }
        return TextMeasurer(configuration: c)
    }
    let names = [
        "persistent cache: cold, 100,000 distinct rows, no file, all cores",
        "persistent cache: cold, 100,000 distinct rows, writing a new file, all cores",
        "persistent cache: second engine, 100,000 rows from the file, all cores",
        "persistent cache: second engine, the rows in batches of 64 (as plumb measure), 1 worker",
    ]
    var hitRates: [Double] = []
    let bodies: [() -> AnyObject?] = [
        {
            let m = engine(cached: false)
            Sink.value &+= m.heights(for: rows, style: style, width: 320).count
            return m
        },
        {
            removeFile()
            let m = engine(cached: true)
            Sink.value &+= m.heights(for: rows, style: style, width: 320).count
            m.flushPersistentCache()
            return m
        },
        {
            let m = engine(cached: true)
            Sink.value &+= m.heights(for: rows, style: style, width: 320).count
            let s = m.persistentCacheStatus!
            hitRates.append(Double(s.hits) / Double(rows.count))
            return m
        },
        {
            let m = engine(cached: true)
            for start in stride(from: 0, to: rows.count, by: 64) {
                Sink.value &+= m.heights(for: Array(rows[start..<min(start + 64, rows.count)]), style: style, width: 320, workers: 1).count
            }
            return m
        },
    ]
    defer { removeFile() }
    guard let samples = report.addInterleaved(names, runs: runs, cells: rows.count, bodies) else { return }
    report.addRatio("persistent cache: cold ÷ second engine from the file (target ≥ 10)", samples[0], samples[2])
    report.addRatio("persistent cache: cold writing the file ÷ cold without (target ≤ 1.15)", samples[1], samples[0])
    print(String(format: "persistent cache: the second engine's hits from the file: %.1f %% of rows (lowest of runs)",
                 100 * (hitRates.min() ?? 0)))
}
