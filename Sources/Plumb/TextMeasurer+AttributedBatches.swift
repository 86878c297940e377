/// Batches of attributed cells: a feed's rows with a bold name, inline avatars and mixed
/// sizes, measured on all cores in input order.
///
/// An attributed cell with its own style and width.
public struct AttributedCell: Sendable {
    /// The runs; each run's attributes override `style`'s font fields.
    public var text: AttributedText
    /// Paragraph settings, drawing options and the default font.
    public var style: TextStyle
    /// The layout width in points.
    public var width: Double

    /// A cell of `text` in `style` at `width`.
    public init(text: AttributedText, style: TextStyle, width: Double) {
        self.text = text
        self.style = style
        self.width = width
    }
}

extension TextMeasurer {
    /// Heights of attributed cells, measured on all cores; results in input order, each
    /// bit-identical to `measure(_: AttributedText, style:width:scale:)` of its cell at any
    /// worker count (every cell goes through that call, its caches included).
    ///
    /// - Parameter workers: threads to use (default: every core); 1 measures on the calling
    ///   thread.
    /// - Complexity: O(total text length), guided chunks of at most 64 cells over `workers`
    ///   threads (the batch ``Schedule``).
    /// - Thread safety: safe from any thread, concurrently.
    public func heights(for cells: [AttributedCell], scale: Double = 2, workers: Int? = nil) -> [TextMeasurement] {
        reloadFontsIfChangedPeriodically()
        return inParallel(cells.count, workers: workers) { i in
            self.measure(cells[i].text, style: cells[i].style, width: cells[i].width, scale: scale)
        }
    }

    /// Layouts of attributed cells (lines, rects, inline box rects) on all cores, in input
    /// order; each is what `layout(_: AttributedText, style:width:scale:)` returns.
    ///
    /// - Complexity: as `heights(for:scale:workers:)`, plus O(n) geometry per cell.
    /// - Thread safety: safe from any thread, concurrently.
    public func layouts(for cells: [AttributedCell], scale: Double = 2, workers: Int? = nil) -> [TextLayout] {
        reloadFontsIfChangedPeriodically()
        return inParallel(cells.count, workers: workers) { i in
            self.layout(cells[i].text, style: cells[i].style, width: cells[i].width, scale: scale)
        }
    }

    /// `body(i)` for every i in 0..<count on the batch workers, in input order.
    private func inParallel<T: Sendable>(_ count: Int, workers: Int?, _ body: @Sendable (Int) -> T) -> [T] {
        var out = [T?](repeating: nil, count: count)
        out.withUnsafeMutableBufferPointer { buffer in
            nonisolated(unsafe) let buffer = buffer
            let schedule = Schedule(count: count, workers: workers ?? ProcessInfoLite.activeProcessorCount, grain: 1, maxChunk: 64)
            _ = Self.parallel(schedule) { range in
                for i in range { buffer[i] = body(i) }
                return true
            }
        }
        return out.map { $0! }
    }
}
