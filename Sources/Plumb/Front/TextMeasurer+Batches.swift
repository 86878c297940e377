/// The batch calls: many cells measured or laid out on all cores by the `BatchEngine`, in
/// input order, each result identical to measuring its cell alone.
extension TextMeasurer {
    /// Heights of many cells sharing one style and width, measured on all cores.
    ///
    /// Duplicates are measured once; results come back in input order and are bit-for-bit
    /// identical to measuring each cell alone, at any worker count. It cannot fail and does
    /// not throw; the overload taking a `BatchProgress` can be cancelled and throws.
    ///
    /// - Parameters:
    ///   - texts: the cells' texts.
    ///   - style: the style of every cell (resolved once).
    ///   - width: the layout width of every cell.
    ///   - scale: device pixels per point.
    ///   - workers: threads to use (default: every core); 1 measures on the calling thread.
    /// - Complexity: O(total text length); Dispatch `concurrentPerform` over guided chunks of
    ///   at most 256 cells (``Schedule``), each worker with its own ICU iterators and HarfBuzz
    ///   buffer.
    /// - Thread safety: safe from any thread, concurrently; blocks the caller until done
    ///   (from Swift concurrency, use the `async` overload).
    public func heights(
        for texts: [String], style: TextStyle, width: Double, scale: Double = 2, workers: Int? = nil
    ) -> [TextMeasurement] {
        BatchRuns.uncancellable { try heights(for: texts, style: style, width: width, scale: scale, workers: workers, progress: $0) }
    }

    /// Heights of many cells sharing one style and width, with progress and cancellation.
    ///
    /// - Parameter progress: polled for progress from any thread; `progress.cancel()` stops
    ///   the batch between chunks.
    /// - Throws: `BatchCancelled` if `progress` was cancelled (the partial results are
    ///   discarded; what was measured stays cached).
    /// - Complexity and thread safety: as `heights(for:style:width:scale:workers:)`.
    public func heights(
        for texts: [String], style: TextStyle, width: Double, scale: Double = 2,
        workers: Int? = nil, progress: BatchProgress
    ) throws -> [TextMeasurement] {
        try heights(for: texts, style: style, width: width, scale: scale, workers: workers, progress: Optional(progress))
    }

    func heights(
        for texts: [String], style: TextStyle, width: Double, scale: Double, workers: Int?, progress: BatchProgress?
    ) throws -> [TextMeasurement] {
        reloadFontsIfChangedPeriodically()
        let resolved = resolve(style)
        let cacheable = resolved.isCacheable, fingerprint = resolved.layoutFingerprint
        let widthUnit = resolved.sanitized.conventions.widthUnit
        var results = try texts.withUnsafeBufferPointer { buffer in
            // Read through a pointer: the key pass borrows each text instead of retaining it
            // (a retain writes the string's header, a line the other core then has to fetch).
            // The workers only read it, and only inside `withUnsafeBufferPointer`.
            nonisolated(unsafe) let texts = buffer
            return try BatchEngine(workers: workers, progress: progress).measure(
                count: texts.count, cache: resultCache, persistent: persistentStore,
                key: { i in
                    CellKeys.plain(
                        texts[i], cacheable: cacheable, fingerprint: fingerprint, width: width, scale: scale, widthUnit: widthUnit)
                },
                measure: { i, k in self.measure(texts[i], style: resolved, width: width, scale: scale, keys: k, resultMissed: true) })
        }
        if cacheable && !resolved.warnings.isEmpty {
            Self.addStyleWarnings(to: &results) { _ in resolved.warnings }
        }
        return results
    }

    /// Gives cache hits of a style with warnings (a skipped family) those warnings: the first
    /// pass answers hits without touching them. A measured result always has its style's
    /// warnings, so a result without any is a hit. O(n), only for styles with warnings.
    private static func addStyleWarnings(
        to results: inout [TextMeasurement], of cell: (Int) -> [MeasureWarning]
    ) {
        for i in results.indices where results[i].warnings.isEmpty {
            let warnings = cell(i)
            if !warnings.isEmpty { results[i].warnings = warnings }
        }
    }

    /// Heights of cells (plain or attributed) with their own styles and widths, measured on
    /// all cores. Each distinct style is resolved once and each distinct cell is measured
    /// once; results are in input order, identical to measuring each alone.
    ///
    /// - Parameters:
    ///   - cells: plain or attributed texts with their styles and widths.
    ///   - scale: device pixels per point.
    ///   - workers: threads to use (default: every core); 1 measures on the calling thread.
    /// - Complexity: O(total text length) plus O(cells) to group the styles.
    /// - Thread safety: safe from any thread, concurrently; blocks the caller until done.
    public func heights(for cells: [Cell], scale: Double = 2, workers: Int? = nil) -> [TextMeasurement] {
        BatchRuns.uncancellable { try heights(for: cells, scale: scale, workers: workers, progress: $0) }
    }

    /// Heights of cells with their own styles and widths, with progress and cancellation.
    ///
    /// - Throws: `BatchCancelled` if `progress` was cancelled.
    /// - Complexity and thread safety: as `heights(for:scale:workers:)`.
    public func heights(
        for cells: [Cell], scale: Double = 2, workers: Int? = nil, progress: BatchProgress
    ) throws -> [TextMeasurement] {
        try heights(for: cells, scale: scale, workers: workers, progress: Optional(progress))
    }

    func heights(for cells: [Cell], scale: Double, workers: Int?, progress: BatchProgress?) throws -> [TextMeasurement] {
        reloadFontsIfChangedPeriodically()
        var resolvedByStyle: [TextStyle: Int] = [:]
        var resolvedStyles: [ResolvedStyle] = []
        var styleIndex = [Int](repeating: 0, count: cells.count)
        // The cells are read in place: a `for (i, cell)` loop copied each one (its text and
        // every string and array of its style retained and released, on the calling thread
        // before the workers start).
        cells.withUnsafeBufferPointer { cells in
            for i in cells.indices {
                // A run of cells of one style (the usual batch) compares with the cell before:
                // an equality test (shared strings compare by identity) instead of hashing the
                // whole style, ~2,400 instructions a cell.
                if i > 0, cells[i].style == cells[i - 1].style {
                    styleIndex[i] = styleIndex[i - 1]
                } else if let k = resolvedByStyle[cells[i].style] {
                    styleIndex[i] = k
                } else {
                    resolvedByStyle[cells[i].style] = resolvedStyles.count
                    styleIndex[i] = resolvedStyles.count
                    resolvedStyles.append(resolve(cells[i].style))
                }
            }
        }
        let styles = resolvedStyles
        let index = styleIndex
        // Each cell borrows its style from an immutable box reached without reference counting:
        // a copy of a resolved style (what reading it from an array passes) retains its cascade,
        // families and warnings — objects every worker shares, so both cores would write their
        // reference counts cell after cell.
        let boxes = styles.map(ResolvedStyleBox.init)
        let boxRefs = boxes.map { Unmanaged.passUnretained($0) }
        var results = try withExtendedLifetime(boxes) {
            try BatchEngine(workers: workers, progress: progress).measure(
                count: cells.count, cache: resultCache, persistent: persistentStore,
                key: { i in
                    boxRefs[index[i]]._withUnsafeGuaranteedRef { self.keys(of: cells[i], style: $0.style, scale: scale) }
                },
                measure: { i, k in
                    boxRefs[index[i]]._withUnsafeGuaranteedRef { self.measure(cells[i], style: $0.style, scale: scale, keys: k) }
                })
        }
        if styles.contains(where: { $0.isCacheable && !$0.warnings.isEmpty }) {
            Self.addStyleWarnings(to: &results) { i in styles[index[i]].isCacheable ? styles[index[i]].warnings : [] }
        }
        return results
    }

    /// Layouts (lines, rects, baselines; inline boxes of attributed cells) of many cells on
    /// all cores, in input order; each is what `layout(_:scale:)` returns for its cell.
    ///
    /// - Parameters:
    ///   - cells: plain or attributed texts with their styles and widths.
    ///   - scale: device pixels per point.
    ///   - workers: threads to use (default: every core); 1 lays out on the calling thread.
    /// - Complexity: O(total text length), guided chunks of at most 64 cells over `workers`
    ///   threads.
    /// - Thread safety: safe from any thread, concurrently; blocks the caller until done.
    public func layouts(for cells: [Cell], scale: Double = 2, workers: Int? = nil) -> [TextLayout] {
        BatchRuns.uncancellable { try layouts(for: cells, scale: scale, workers: workers, progress: $0) }
    }

    /// Layouts of many cells, with progress and cancellation.
    ///
    /// - Throws: `BatchCancelled` if `progress` was cancelled.
    /// - Complexity and thread safety: as `layouts(for:scale:workers:)`.
    public func layouts(
        for cells: [Cell], scale: Double = 2, workers: Int? = nil, progress: BatchProgress
    ) throws -> [TextLayout] {
        try layouts(for: cells, scale: scale, workers: workers, progress: Optional(progress))
    }

    func layouts(for cells: [Cell], scale: Double, workers: Int?, progress: BatchProgress?) throws -> [TextLayout] {
        reloadFontsIfChangedPeriodically()
        return try BatchEngine(workers: workers, progress: progress).map(count: cells.count, maxChunk: 64) { i in
            self.layout(cells[i], scale: scale)
        }
    }

    /// Measures one cell, plain or attributed: `measure(_:style:width:scale:)` of its text or
    /// runs.
    ///
    /// - Complexity and thread safety: as that call.
    public func measure(_ cell: Cell, scale: Double = 2) -> TextMeasurement {
        if let runs = cell.attributedText { return measure(runs, style: cell.style, width: cell.width, scale: scale) }
        return measure(cell.text, style: cell.style, width: cell.width, scale: scale)
    }

    /// Lays out one cell, plain or attributed: `layout(_:style:width:scale:)` of its text or
    /// runs.
    ///
    /// - Complexity and thread safety: as that call.
    public func layout(_ cell: Cell, scale: Double = 2) -> TextLayout {
        if let runs = cell.attributedText { return layout(runs, style: cell.style, width: cell.width, scale: scale) }
        return layout(cell.text, style: cell.style, width: cell.width, scale: scale)
    }

    /// The keys of a batch's cell: its text's, or its content key's for runs that change the
    /// layout (`nil`: a cell that must not touch the cache).
    @inline(__always)
    func keys(of cell: borrowing Cell, style: ResolvedStyle, scale: Double) -> CellKeys? {
        let keys = cellKeys(cell.text, style: style, width: cell.width, scale: scale)
        guard cell.hasLayoutRuns, let keys, let runs = cell.attributedText else { return keys }
        return keys.withContent(CellKeys.contentKey(runs), fingerprint: style.layoutFingerprint)
    }

    /// Measures a batch's cell whose result key missed (`keys`, from `keys(of:style:scale:)`):
    /// the cached path from the width range on, with its runs resolved only if it is laid out.
    func measure(_ cell: borrowing Cell, style: ResolvedStyle, scale: Double, keys: CellKeys?) -> TextMeasurement {
        guard cell.hasLayoutRuns, let runs = cell.attributedText else {
            return measure(cell.text, style: style, width: cell.width, scale: scale, keys: keys, resultMissed: true)
        }
        return measure(cell.text, style: style, width: cell.width, scale: scale, keys: keys, resultMissed: true, runs: runs)
    }

    /// Row heights with prefix offsets for a virtualized list, measured as a batch (one style
    /// and width for every row; `listHeights(for:scale:workers:progress:)` takes `ListRow`s
    /// with their own styles, widths and extra heights).
    ///
    /// - Parameters:
    ///   - rows: ids (unique) and texts in display order.
    ///   - progress: optional progress/cancellation object.
    /// - Throws: `BatchCancelled` if `progress` was cancelled; `DuplicateRowID` if an id
    ///   appears twice (a feed whose pages overlap), rather than trapping.
    /// - Complexity: the batch's, plus O(n) to build the list.
    /// - Thread safety: safe from any thread, concurrently; blocks the caller until done.
    public func listHeights<ID: Hashable & Sendable>(
        for rows: [(id: ID, text: String)], style: TextStyle, width: Double, scale: Double = 2,
        workers: Int? = nil, progress: BatchProgress? = nil
    ) throws -> ListHeights<ID> {
        let m = try heights(for: rows.map(\.text), style: style, width: width, scale: scale, workers: workers, progress: progress)
        return try ListHeights(validating: zip(rows, m).map { (id: $0.0.id, height: $0.1.height) })
    }
}

/// A resolved style in an immutable box, so that workers can borrow it (`Unmanaged`, a `let`
/// property) instead of copying it per cell.
final class ResolvedStyleBox: Sendable {
    let style: ResolvedStyle
    init(_ style: ResolvedStyle) { self.style = style }
}
