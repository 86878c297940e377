import CFontconfig
import Plumb
import CHarfBuzz
import Foundation
import Synchronization

/// Keeps results observable so the optimiser cannot drop the timed work.
enum Sink { nonisolated(unsafe) static var value = 0 }

/// Reads the `text` of every JSON line of the corpus.
enum Corpus {
    static func load(path: String) -> [String] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        var out: [String] = []
        for line in data.split(separator: UInt8(ascii: "\n")) {
            guard let obj = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
                  let text = obj["text"] as? String else { continue }
            out.append(text)
        }
        return out
    }
}

/// The naive baseline: one `hb_shape` of the whole text per cell in one font, every time.
final class NaiveBaseline {
    let latin: OpaquePointer
    let cjk: OpaquePointer
    let buffer: OpaquePointer = hb_buffer_create()

    init() {
        latin = Self.font("Noto Sans")
        cjk = Self.font("Noto Sans CJK SC")
    }

    static func font(_ family: String) -> OpaquePointer {
        let pattern = FcNameParse(family)!
        FcConfigSubstitute(nil, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultNoMatch
        let match = FcFontMatch(nil, pattern, &result)!
        var file: UnsafeMutablePointer<FcChar8>? = nil
        FcPatternGetString(match, FC_FILE, 0, &file)
        var index: Int32 = 0
        FcPatternGetInteger(match, FC_INDEX, 0, &index)
        let blob = hb_blob_create_from_file_or_fail(String(cString: file!))
        let face = hb_face_create(blob, UInt32(index))
        let font = hb_font_create(face)!
        hb_font_set_scale(font, 1000, 1000)
        return font
    }

    func width(of text: String) -> Double {
        hb_buffer_clear_contents(buffer)
        var t = text
        t.withUTF8 { u in
            u.withMemoryRebound(to: CChar.self) { hb_buffer_add_utf8(buffer, $0.baseAddress, Int32(u.count), 0, Int32(u.count)) }
        }
        hb_buffer_guess_segment_properties(buffer)
        let font = text.unicodeScalars.contains { $0.value >= 0x3000 && $0.value < 0xA000 } ? cjk : latin
        hb_shape(font, buffer, nil, 0)
        var n: UInt32 = 0
        let pos = hb_buffer_get_glyph_positions(buffer, &n)!
        var w = 0
        for i in 0..<Int(n) { w += Int(pos[i].x_advance) }
        return Double(w) * 15 / 1000
    }
}

/// `--only SUBSTRING` runs just the matching scenarios (for quick iterations).
nonisolated(unsafe) var onlyFilter: String? = nil

/// Whether `--only` selects scenarios whose names start with `prefix` (so their set-up, e.g.
/// a 64 MiB table, is skipped otherwise).
func selected(_ prefix: String) -> Bool {
    guard let only = onlyFilter else { return true }
    return prefix.contains(only) || only.hasPrefix(prefix)
}

struct Report {
    struct Row { var name: String; var median: Double; var min: Double; var max: Double }
    let cellCount: Int
    var rows: [Row] = []

    /// Times `body` `runs` times and records ns/cell.
    mutating func add(_ name: String, runs: Int, cells: Int, _ body: () -> Void) {
        addExcludingTeardown(name, runs: runs, cells: cells) { () -> AnyObject? in body(); return nil }
    }

    /// Times `body` `runs` times and records ns/cell; what `body` returns (e.g. the fresh
    /// engine of a cold run) is released after the clock stops, so its teardown is not timed.
    mutating func addExcludingTeardown(_ name: String, runs: Int, cells: Int, _ body: () -> AnyObject?) {
        if let only = onlyFilter, !name.contains(only) { return }
        var samples: [Double] = []
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            let kept = body()
            let ns = Double(DispatchTime.now().uptimeNanoseconds - start)
            withExtendedLifetime(kept) {}
            samples.append(ns / Double(cells))
        }
        samples.sort()
        rows.append(Row(name: name, median: samples[samples.count / 2], min: samples.first!, max: samples.last!))
        FileHandle.standardError.write("  done: \(name)\n".data(using: .utf8)!)
    }

    /// Speed-ups of one scenario over another, from runs interleaved in pairs.
    struct Ratio { var name: String; var median: Double; var min: Double; var max: Double }
    var ratios: [Ratio] = []

    /// Times `first` and `second` alternately, `runs` times each (after one warm-up pair), so
    /// both see the same machine state (caches, a noisy neighbour, a vCPU that is slow to
    /// wake); records both rows and the median of the per-pair ratios first ÷ second.
    mutating func addPair(_ firstName: String, _ secondName: String, ratioName: String, runs: Int, cells: Int,
                          _ first: () -> Void, _ second: () -> Void) {
        if let only = onlyFilter, !firstName.contains(only), !secondName.contains(only), !ratioName.contains(only) { return }
        func time(_ body: () -> Void) -> Double {
            let start = DispatchTime.now().uptimeNanoseconds
            body()
            return Double(DispatchTime.now().uptimeNanoseconds - start) / Double(cells)
        }
        first()
        second()
        var a: [Double] = [], b: [Double] = [], r: [Double] = []
        for _ in 0..<runs {
            let x = time(first), y = time(second)
            a.append(x)
            b.append(y)
            r.append(x / y)
        }
        a.sort(); b.sort(); r.sort()
        rows.append(Row(name: firstName, median: a[a.count / 2], min: a.first!, max: a.last!))
        rows.append(Row(name: secondName, median: b[b.count / 2], min: b.first!, max: b.last!))
        ratios.append(Ratio(name: ratioName, median: r[r.count / 2], min: r.first!, max: r.last!))
        FileHandle.standardError.write("  done: \(ratioName)\n".data(using: .utf8)!)
    }

    func print() {
        let base = rows.first?.median ?? 1
        Swift.print("scenario".padding(toLength: 56, withPad: " ", startingAt: 0) + "   median ns/cell        min        max   vs baseline")
        for r in rows {
            Swift.print(r.name.padding(toLength: 56, withPad: " ", startingAt: 0)
                + String(format: " %16.1f %10.1f %10.1f %12.2fx", r.median, r.min, r.max, base / r.median))
        }
        guard !ratios.isEmpty else { return }
        Swift.print("")
        Swift.print("speed-up (runs interleaved, ratio per round)".padding(toLength: 56, withPad: " ", startingAt: 0) + "     median ratio        min        max")
        for r in ratios {
            Swift.print(r.name.padding(toLength: 56, withPad: " ", startingAt: 0)
                + String(format: " %15.2fx %9.2fx %9.2fx", r.median, r.min, r.max))
        }
    }

    func writeJSON(path: String, extra: [String: Double]) {
        var obj: [String: Any] = ["cells": cellCount]
        obj["scenarios"] = rows.map { ["name": $0.name, "medianNsPerCell": $0.median, "minNsPerCell": $0.min, "maxNsPerCell": $0.max] }
        obj["speedups"] = ratios.map { ["name": $0.name, "medianRatio": $0.median, "minRatio": $0.min, "maxRatio": $0.max] }
        for (k, v) in extra { obj[k] = v }
        if let data = try? JSONSerialization.data(withJSONObject: obj, options: [.prettyPrinted, .sortedKeys]) {
            _ = FileManager.default.createFile(atPath: path, contents: data)
        }
    }
}

/// One re-layout pass, a named function so `valgrind --tool=callgrind
/// --toggle-collect='*relayoutPass*'` can count its instructions alone.
@inline(never)
func relayoutPass(_ engine: TextMeasurer, _ texts: [String], _ style: ResolvedStyle, _ width: Double) {
    for t in texts { Sink.value &+= Int(engine.measure(t, style: style, width: width, scale: 2).height) }
}

/// A control workload (no Plumb code): `work(steps, worker)` does `steps` steps and returns
/// something to keep the optimiser honest. Split in equal parts over `concurrentPerform`, it
/// shows the machine's own parallel speed-up next to Plumb's.
struct Control: Sendable {
    let work: @Sendable (_ steps: Int, _ worker: Int) -> UInt64

    /// Runs `steps` steps on one thread, or in `workers` equal parts over Dispatch.
    func run(steps: Int, workers: Int) {
        if workers == 1 {
            Sink.value &+= Int(truncatingIfNeeded: work(steps, 0))
            return
        }
        let sum = Atomic<UInt64>(0)
        DispatchQueue.concurrentPerform(iterations: workers) { w in
            sum.wrappingAdd(work(steps / workers, w), ordering: .relaxed)
        }
        Sink.value &+= Int(truncatingIfNeeded: sum.load(ordering: .relaxed))
    }

    /// Steps that take about `nanoseconds` on one thread here (median of 5 timings of
    /// `probe` steps, each from another worker index, so no call is hoisted out of the loop).
    func steps(lasting nanoseconds: Double, probe: Int) -> Int {
        var samples: [Double] = []
        for i in 0..<5 {
            let start = DispatchTime.now().uptimeNanoseconds
            Sink.value &+= Int(truncatingIfNeeded: work(probe, i + (Sink.value & 0xff)))
            samples.append(Double(DispatchTime.now().uptimeNanoseconds - start))
        }
        samples.sort()
        return max(1, Int(Double(probe) * nanoseconds / samples[2]))
    }

    /// A CPU-bound loop (xorshift) on registers only.
    static let arithmetic = Control { steps, worker in spin(steps, seed: UInt64(worker) + 1) }

    /// A memory-latency-bound loop: each worker follows its own random cycle through a 64 MiB
    /// table (every step a dependent load that misses the caches), like a batch over a
    /// working set larger than the caches.
    static let cacheMissingLoads = Control { steps, worker in UInt64(chase(steps, from: UInt32(worker) &* 7_777_777 &+ 1)) }

    @inline(never)
    static func spin(_ steps: Int, seed: UInt64) -> UInt64 {
        var x = seed | 1
        for _ in 0..<steps {
            x ^= x << 13
            x ^= x >> 7
            x ^= x << 17
        }
        return x
    }

    static let table: [UInt32] = {
        let n = 16 << 20  // 64 MiB of UInt32
        var order = Array(0..<UInt32(n))
        var rng: UInt64 = 0x9E37_79B9_7F4A_7C15
        for i in stride(from: n - 1, to: 0, by: -1) {
            rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17
            order.swapAt(i, Int(rng % UInt64(i + 1)))
        }
        var next = [UInt32](repeating: 0, count: n)
        for i in 0..<n { next[Int(order[i])] = order[(i + 1) % n] }
        return next
    }()

    @inline(never)
    static func chase(_ steps: Int, from start: UInt32) -> UInt32 {
        table.withUnsafeBufferPointer { t in
            var i = start % UInt32(t.count)
            for _ in 0..<steps { i = t[Int(i)] }
            return i
        }
    }
}

/// Engines of cold batch runs, kept until the scenario ends (`engines.removeAll()` after
/// `addPair`), so freeing their caches is never timed: it is no part of a first batch.
enum ColdBatchKeeper {
    nonisolated(unsafe) static var engines: [AnyObject] = []
}
