import Plumb

/// Batches of `Cell`s with their own styles, plain and attributed mixed (the feed case): the
/// corpus's texts in three styles and the attributed corpus, through `heights(for: [Cell])`
/// cold (a fresh engine, created inside the clock, released outside it) and warm (every
/// result cached), 1 worker and all cores interleaved run by run.
@MainActor func addCellBatchScenarios(_ texts: [String], style: TextStyle, cores: Int) {
    guard selected("cell batch") else { return }
    var styles = [style, style, style]
    styles[1].lineSpacing = 4
    styles[2].font.weight = 700
    let plain = texts.enumerated().map { Cell(text: $1, style: styles[$0 % 3], width: 320) }
    let rich = richCorpus(texts).map { Cell(text: $0, style: style, width: 320) }
    let cells = zip(plain, rich).flatMap { [$0, $1] }
    var kept: [TextMeasurer] = []
    func cold(_ workers: Int) -> () -> Void {
        {
            let m = TextMeasurer()
            Sink.value &+= m.heights(for: cells, workers: workers).count
            kept.append(m)
        }
    }
    let warmEngine = TextMeasurer()
    _ = warmEngine.heights(for: cells)
    func warm(_ workers: Int) -> () -> Void {
        { Sink.value &+= warmEngine.heights(for: cells, workers: workers).count }
    }
    let label = "cell batch, plain and rich (\(cells.count) cells)"
    report.addPair("\(label) cold, 1 worker(s)", "\(label) cold, \(cores) worker(s)",
                   ratioName: "\(label) cold, \(cores) workers vs 1", runs: runs, cells: cells.count, cold(1), cold(cores))
    kept.removeAll()
    report.addPair("\(label) warm, 1 worker(s)", "\(label) warm, \(cores) worker(s)",
                   ratioName: "\(label) warm, \(cores) workers vs 1", runs: runs, cells: cells.count, warm(1), warm(cores))
}
