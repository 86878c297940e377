/// A line produced by `LineBreaker`, before heights are known.
struct BrokenLine: Sendable, Equatable {
    /// Graphemes of the line (hanging whitespace included, hard-break characters excluded).
    var graphemeStart: Int32
    var graphemeEnd: Int32
    /// Advance of the visible content (hanging trailing whitespace excluded).
    var usedWidth: Double
    /// Advance of the trailing whitespace that hangs past the used width.
    var hangingWidth: Double
    /// Local fonts drawing this line (see `PreparedText.fontBit`).
    var fontMask: UInt64
    var paragraph: Int32
    var endsParagraph: Bool
    /// Whether this line ends inside a word (an overlong word or char wrapping).
    var endsInsideWord: Bool
    /// The advance of the hyphen the line ends with (0: none), included in `usedWidth`
    /// (`HyphenPoints`).
    var hyphenWidth: Double = 0
}

/// How `LineBreaker` may break lines.
enum WrapPolicy: Sendable {
    /// At UAX #14 opportunities; overlong words break between grapheme clusters.
    case words
    /// At every grapheme-cluster boundary.
    case characters
    /// Only at hard and mandatory breaks (single-line mode or unlimited width).
    case none
}

/// Greedy line breaking over a `PreparedText`: pure arithmetic, no C, no allocation besides
/// the output.
///
/// Rules: a unit (word or grapheme) goes on the current line when its width minus its hanging
/// trailing whitespace fits; otherwise the line ends before it. A word wider than a whole line
/// first moves to its own line, then breaks between grapheme clusters (CSS
/// `overflow-wrap: break-word`); every line holds at least one cluster. Tabs advance to the
/// next multiple of the tab interval from the line start.
///
/// - Complexity: O(words) per layout, plus O(graphemes) of the words that contain tabs or are
///   broken.
/// - Thread safety: a value type over immutable input; safe.
struct LineBreaker {
    let text: PreparedText
    var maxWidth: Double
    let policy: WrapPolicy
    /// Where tabs stop (`TabRuler`: listed stops, then an interval, from the ruler's origin).
    let tabs: TabRuler
    /// Stop after this many lines (e.g. maxLines + 1 to learn whether text was cut).
    var lineLimit: Int
    /// Where lines start and end in the box of `maxWidth`: each line is fitted into its own
    /// width (a paragraph's first line may have another than the rest).
    var indents = LineIndents.none
    /// Whether the simple loop may search a line's end from its guess first, where the fit
    /// test is monotone (`LineWidthArithmetic.fitIsMonotone`); false keeps the probe order
    /// and guess of Blink's arithmetic for every profile (tests compare the two).
    var searchesGuessFirst = true
    /// UIKit's `hyphenationFactor` (`SanitizedStyle.hyphenationFactor`): a line may end at a
    /// dictionary point only when, ended at its last other break, it would fill less than this
    /// fraction of its width (1: always).
    var hyphenationFactor = 1.0
    /// Whether a word wider than its line is cut between clusters (UIKit, CSS `overflow-wrap:
    /// break-word`, Pango's `WRAP_WORD_CHAR`); false lets it overflow its own line whole (CSS
    /// `overflow-wrap: normal`, Pango's `WRAP_WORD`).
    var cutsOverlongWords = true
    /// Whether a text that ends with a hard break has an empty last line after it (TextKit's
    /// extra line fragment, Pango's empty last paragraph); CSS makes none (a preserved
    /// newline at the end of a block ends its last line).
    var endsWithEmptyLineAfterBreak = true
    /// CSS `text-wrap: balance` as Blink does it (`breakBalancedParagraph`).
    var balancesParagraphs = false
    /// The primary font's space width, which the too-long-to-balance estimate counts in
    /// (0: unknown, no estimate, as Blink without a space glyph).
    var balanceSpaceWidth = 0.0

    /// A breaker of `text` into lines of `maxWidth` under `policy`, tabs on `tabs`.
    init(
        text: PreparedText, maxWidth: Double, policy: WrapPolicy, tabs: TabRuler, lineLimit: Int,
        indents: LineIndents = .none, searchesGuessFirst: Bool = true
    ) {
        self.text = text
        self.maxWidth = maxWidth
        self.policy = policy
        self.tabs = tabs
        self.lineLimit = lineLimit
        self.indents = indents
        self.searchesGuessFirst = searchesGuessFirst
    }

    /// A breaker whose tabs stop every `tabInterval` points from the box's edge.
    init(
        text: PreparedText, maxWidth: Double, policy: WrapPolicy, tabInterval: Double, lineLimit: Int,
        indents: LineIndents = .none, searchesGuessFirst: Bool = true
    ) {
        self.init(
            text: text, maxWidth: maxWidth, policy: policy, tabs: .every(tabInterval), lineLimit: lineLimit,
            indents: indents, searchesGuessFirst: searchesGuessFirst)
    }

    /// A width compared with `maxWidth` fits if it exceeds it by at most this much (points):
    /// absorbs floating-point noise of summed advances (`LayoutConventions.exactFitTolerance`).
    static let tolerance = LayoutConventions.exactFitTolerance

    /// All lines as an array.
    func lines() -> [BrokenLine] {
        var sink = LineArraySink()
        run(&sink)
        return sink.lines
    }

    /// Streams the lines into `sink` in order, without collecting them (the measure-only
    /// path allocates nothing here).
    func run<Sink: LineSink>(_ out: inout Sink) {
        do {
            let words = text.words
            let v = Views(
                words: words, advances: text.advances, cutAdjustments: text.cutAdjustments,
                hyphenSource: text.extras.flatMap { $0.hyphens.isEmpty ? nil : $0 })
            run(v, into: &out)
        }
    }

    private func run<Sink: LineSink>(_ v: Views, into out: inout Sink) {
        let balances = balancesParagraphs && policy != .none && maxWidth.isFinite && balanceEstimateAllows
        for (p, paragraph) in text.paragraphs.enumerated() {
            guard out.count < lineLimit else { break }
            if paragraph.wordStart == paragraph.wordEnd {
                if p > 0 && p == text.paragraphs.count - 1 && !endsWithEmptyLineAfterBreak { break }
                out.append(
                    BrokenLine(
                        graphemeStart: paragraph.graphemeStart,
                        graphemeEnd: paragraph.graphemeStart, usedWidth: 0,
                        hangingWidth: 0, fontMask: PreparedText.fontBit(0),
                        paragraph: Int32(p), endsParagraph: true,
                        endsInsideWord: false))
                continue
            }
            if balances {
                breakBalancedParagraph(Int32(p), paragraph, v, into: &out)
            } else {
                breakParagraph(Int32(p), paragraph, v, into: &out)
            }
        }
    }

    // MARK: Balancing

    /// The most greedy lines a paragraph may have to be balanced (Blink's
    /// `kMaxLinesForBalance`).
    static let maxBalancedLines = 6

    /// Blink's estimate before it balances: the text's characters (graphemes here; Blink
    /// counts UTF-16 units) over the spaces that fit the width, at most twice
    /// `maxBalancedLines` lines.
    private var balanceEstimateAllows: Bool {
        guard balanceSpaceWidth > 0 else { return true }
        let perLine = (maxWidth / balanceSpaceWidth).rounded(.towardZero)
        guard perLine >= 1 else { return false }
        guard perLine < Double(Int32.max) else { return true }
        let n = Int(perLine)
        let graphemes = Int(text.paragraphs.last?.graphemeEnd ?? 0)
        return (graphemes + n - 1) / n <= 2 * Self.maxBalancedLines
    }

    /// The paragraph broken as `text-wrap: balance` breaks it in Blink: greedy lines first;
    /// with 2 to 6 of them and none overflowing, the available width is bisected in layout
    /// units between 80 % of the lines' average width (rounded) and the box, to one pixel,
    /// keeping the narrowest that still holds the paragraph in as many lines, and the
    /// paragraph is broken at that width. Line counts (so heights) never change.
    ///
    /// - Complexity: O(log₂(width) · paragraph) — at most ~10 greedy passes of the paragraph.
    private func breakBalancedParagraph<Sink: LineSink>(
        _ p: Int32, _ paragraph: PreparedText.Paragraph, _ v: Views, into out: inout Sink
    ) {
        let greedy = paragraphLines(p, paragraph, v)
        let n = greedy.count
        guard n >= 2, n <= Self.maxBalancedLines, !Self.overflows(greedy, width: maxWidth) else {
            for line in greedy { out.append(line) }
            return
        }
        let unit = 64.0
        let sum = greedy.reduce(0) { $0 + Int(($1.usedWidth * unit).rounded(.towardZero)) }
        let average = Float(sum / n) / Float(unit)
        var lower = Int((average * 0.8 * Float(unit)).rounded())
        var upper = Int((maxWidth * unit).rounded(.towardZero))
        var best = greedy
        while lower + Int(unit) < upper {
            let middle = (upper + lower) / 2
            let trial = narrowed(to: Double(middle) / unit, lineLimit: n + 1).paragraphLines(p, paragraph, v)
            if trial.count <= n && !Self.overflows(trial, width: Double(middle) / unit) {
                upper = middle
                best = trial
            } else {
                lower = middle
            }
        }
        for line in best { out.append(line) }
    }

    /// Whether a line is wider than `width` (an overlong word left whole) or had to cut a
    /// word (Blink disables bisection for a line that overflowed before `break-word`).
    private static func overflows(_ lines: [BrokenLine], width: Double) -> Bool {
        lines.contains { $0.usedWidth > width + tolerance || ($0.endsInsideWord && $0.hyphenWidth == 0) }
    }

    /// The paragraph's lines under this breaker.
    private func paragraphLines(_ p: Int32, _ paragraph: PreparedText.Paragraph, _ v: Views) -> [BrokenLine] {
        var sink = LineArraySink()
        breakParagraph(p, paragraph, v, into: &sink)
        return sink.lines
    }

    /// This breaker at another width and line limit (no balancing).
    private func narrowed(to width: Double, lineLimit: Int) -> LineBreaker {
        var b = self
        b.maxWidth = width
        b.lineLimit = lineLimit
        b.balancesParagraphs = false
        return b
    }

    /// The prepared text's arrays, borrowed once per run (no retain/release or repeated
    /// property loads in the inner loops).
    fileprivate struct Views {
        let words: PreparedText.Words
        /// The grapheme columns' views share `advances`' columns (one copy in `Views`).
        let advances: PreparedText.Advances
        var flags: PreparedText.GraphemeFlagsColumn { .init(columns: advances.columns) }
        var fonts: PreparedText.GraphemeFonts { .init(columns: advances.columns) }
        /// `PreparedText.cutAdjustments` (empty unless `LayoutConventions.reshapesLineEnds`
        /// and one of the text's is not zero).
        let cutAdjustments: CutAdjustments

        /// Grapheme `g`'s re-shaped difference at a line end (0 when not recorded).
        @inline(__always)
        func cutAdjustment(_ g: Int) -> Float { cutAdjustments.isEmpty ? 0 : cutAdjustments[g] }

        /// The extras holding the text's hyphen points (nil without any: most texts).
        let hyphenSource: PreparedText.Extras?

        /// The hyphen a line ending after grapheme `g` shows (0: none).
        ///
        /// - Complexity: O(1) without hyphen points, else O(log points).
        @inline(__always)
        func hyphenWidth(after g: Int32) -> Double {
            guard let hyphenSource else { return 0 }
            return hyphenSource.hyphens.width(after: g)
        }

        /// Whether an overlong word may not be cut right before grapheme `g` (a soft hyphen
        /// the profile keeps with the text before it).
        @inline(__always)
        func forbidsCut(before g: Int32) -> Bool { hyphenSource?.hyphens.forbidsCut(before: g) ?? false }

        /// Whether an overlong word's cut goes on past a position whose hyphen does not fit.
        var cutsGoPastUnfittingHyphens: Bool { hyphenSource?.hyphens.cutsGoPastUnfittingHyphens ?? false }

        /// Whether the line ending after grapheme `g` ends at a dictionary point.
        func endsAtDictionaryPoint(_ g: Int32) -> Bool { hyphenSource?.hyphens.isDictionaryPoint(after: g) ?? false }

        /// How much wider `word`'s last cluster is when a line ends after it than inside the
        /// run it was shaped in (chromium profile: kerning with the next cluster, ケー, does
        /// not apply across a line end; 0 elsewhere, after hanging whitespace and before a
        /// mandatory break): its last grapheme's cut adjustment.
        @inline(__always)
        func endAdjustment(_ word: PreparedText.Word) -> Float {
            guard !cutAdjustments.isEmpty, !word.hasHangingWidth else { return 0 }
            let g = Int(word.graphemeEnd) - 1
            return flags[g].contains(.mandatoryBreakAfter) ? 0 : cutAdjustments[g]
        }
    }

    /// The general loop's state after a unit: the line, and where the next unit starts.
    fileprivate struct LineSnapshot {
        var line: Cursor
        var unitStart: Int32
        var wordIndex: Int
    }

    /// The state of the line being filled.
    fileprivate struct Cursor {
        var start: Int32
        var end: Int32
        var x: Double = 0
        var used: Double = 0
        var mask: UInt64 = 0
        /// The tab state of the line's pen (an aligned stop's gap still to take up).
        var pen = TabPen()
        var isEmpty: Bool { start == end }
    }

    private func breakParagraph<Sink: LineSink>(
        _ p: Int32, _ paragraph: PreparedText.Paragraph, _ v: Views, into out: inout Sink
    ) {
        // The paragraph's first line's width and the other lines' (both `maxWidth` without
        // indents).
        let firstStart = indents.start(first: true, paragraph: p, afterLineSeparator: paragraph.followsLineSeparator)
        let first = indents.width(box: maxWidth, start: firstStart)
        let other = indents.width(box: maxWidth, start: indents.otherLinesStart)
        var limits = Limits(first: first, other: other)
        limits.firstOnRuler = tabs.onRuler(firstStart)
        limits.otherOnRuler = tabs.onRuler(indents.otherLinesStart)
        // Specialised per arithmetic, so neither loop carries a convention check per cluster.
        switch text.lineFit {
        case .exact(let tolerance):
            limits.first += tolerance
            limits.other += tolerance
            breakParagraph(p, paragraph, v, ExactLineWidth.self, limits, into: &out)
        case .layoutUnits(let unit):
            limits.first += unit
            limits.other += unit
            breakParagraph(p, paragraph, v, LayoutUnitLineWidth.self, limits, into: &out)
        }
    }

    /// The widths a paragraph's lines are fitted into, each with the arithmetic's tolerance.
    fileprivate struct Limits {
        /// The paragraph's first line's.
        var first: Double
        /// Every other line's.
        var other: Double
        /// Where the first line and the others start on the tab ruler (`TabRuler.origin`).
        var firstOnRuler = 0.0
        var otherOnRuler = 0.0
        /// These limits with every line unlimited (no wrapping).
        var unlimited: Limits {
            var l = self
            (l.first, l.other) = (.infinity, .infinity)
            return l
        }
    }

    private func breakParagraph<Sink: LineSink, Width: LineWidthArithmetic>(
        _ p: Int32, _ paragraph: PreparedText.Paragraph, _ v: Views, _ width: Width.Type, _ limits: Limits,
        into out: inout Sink
    ) {
        if policy == .words && paragraph.isSimple {
            // The search order is a type, not a flag read per line: each loop has one.
            if searchesGuessFirst {
                breakSimpleParagraph(p, v, width, GuessFirstSearch.self, limits, into: &out)
            } else {
                breakSimpleParagraph(p, v, width, FirstWordFirstSearch.self, limits, into: &out)
            }
        } else {
            breakParagraph(
                p, v, width, policy == .none ? limits.unlimited : limits, firstLine: true,
                fromWord: Int(paragraph.wordStart), at: paragraph.graphemeStart, x: 0, into: &out)
        }
    }

    /// Word wrapping of a paragraph without tabs or mandatory breaks: each line's last word is
    /// found by searching the words' paragraph-relative ends (the visible end of word j,
    /// end − hanging, never decreases with j): a few steps from the previous line's word count,
    /// then binary search, so a line costs O(1) typically and O(log words) at worst. The
    /// fit test is the greedy one (content up to the word, hanging whitespace excluded, within
    /// the width). A word wider than a whole line hands over to the general loop.
    ///
    /// A stored word that stands for a run of one-grapheme words
    /// (`Word.breaksAfterEveryGrapheme`) is searched as one word (its end is its last
    /// member's); when the line ends inside it, its graphemes are scanned for the last member
    /// that fits (``lastFit(inRunEndingAt:from:at:_:limit:_:_:)``), and the next line starts there.
    private func breakSimpleParagraph<Sink: LineSink, Width: LineWidthArithmetic, Search: LineSearchOrder>(
        _ p: Int32, _ v: Views, _ width: Width.Type, _: Search.Type, _ limits: Limits, into out: inout Sink
    ) {
        // Read here, not passed: a 28-byte record goes to a call field by field.
        let paragraph = text.paragraphs[Int(p)]
        // Every local font's bit: a line's mask that has them all is complete.
        let allFonts = PreparedText.allFontsMask(count: text.fontLines.count)
        let words = v.words
        let last = Int(paragraph.wordEnd) - 1
        var w = Int(paragraph.wordStart)
        // Words on the previous line; for the first line, the count the paragraph's mean word
        // width suggests (any guess finds the same word: it only picks where the search starts).
        let guessFirst = Width.fitIsMonotone && Search.guessFirst
        // The line's width: the first line's, then the others' (set after each line).
        var limit = limits.first
        var previousCount =
            guessFirst
            ? Self.guessedWordsPerLine(words.visibleEnds.unsafelyUnwrapped[last], count: last &- w &+ 1, limit: limit)
            : Self.estimatedWordsPerLine(words[last].end, count: last &- w &+ 1, limit: limit)
        // The line's start: the previous line's last word's end and grapheme end, carried
        // over (not read back from the words).
        var base = 0.0
        var startGrapheme = paragraph.graphemeStart
        while w <= last {
            guard out.count < lineLimit else { return }
            let start = Width.lineStart(at: base, grapheme: startGrapheme, in: paragraph, text)
            // Whether the line from word w through word i fits (monotone in i).
            @inline(__always) func fits(_ i: Int) -> Bool {
                Width.width(ofLineFrom: start, toEndOf: words[i], v) <= limit
            }
            // The line's last whole word: the last one that fits (w − 1: none does). Lines of a
            // paragraph hold similar numbers of words, so start from the previous line's
            // count and step; fall back to binary search after a few steps.
            var lo = w &- 1
            if guessFirst {
                // The guess first: when it fits, so does w (no probe of w of its own).
                lo = Self.lastFittingOrNone(from: w, through: last, guess: previousCount, fits)
                if lo >= w { previousCount = lo &- w &+ 1 }
            } else if fits(w) {
                lo = Self.lastFitting(from: w, through: last, guess: previousCount, fits)
                previousCount = lo &- w &+ 1
            }
            // A run after it may hold the line's end (a line starting inside a run starts
            // with it: w, from `startGrapheme`).
            if lo < last && words[lo &+ 1].breaksAfterEveryGrapheme {
                let run = lo &+ 1
                let from = run == w ? startGrapheme : words[lo].graphemeEnd
                let cut = Self.lastFit(
                    inRunEndingAt: words[run].graphemeEnd, from: from, at: run == w ? base : words[lo].end, start, limit: limit,
                    width, v)
                if cut.grapheme > from {
                    out.append(
                        BrokenLine(
                            graphemeStart: startGrapheme, graphemeEnd: cut.grapheme,
                            usedWidth: cut.end - base + Double(v.cutAdjustment(Int(cut.grapheme) &- 1)),
                            hangingWidth: 0, fontMask: lineMask(paragraph, from: w, through: run, words, allFonts), paragraph: p,
                            endsParagraph: false, endsInsideWord: false))
                    previousCount = run &- w &+ 1
                    base = cut.end
                    startGrapheme = cut.grapheme
                    w = run
                    limit = limits.other
                    continue
                }
            }
            if lo < w {
                // An overlong word starts this line: the general algorithm handles the rest.
                breakParagraph(
                    p, v, width, limits, firstLine: startGrapheme == paragraph.graphemeStart, fromWord: w, at: startGrapheme,
                    x: base, into: &out)
                return
            }
            let end = words[lo]
            out.append(
                BrokenLine(
                    graphemeStart: startGrapheme,
                    graphemeEnd: end.graphemeEnd,
                    usedWidth: end.visibleEnd - base + Double(v.endAdjustment(end)),
                    hangingWidth: end.hangingWidth,
                    fontMask: lineMask(paragraph, from: w, through: lo, words, allFonts), paragraph: p, endsParagraph: lo == last,
                    endsInsideWord: false))
            base = end.end
            startGrapheme = end.graphemeEnd
            w = lo &+ 1
            limit = limits.other
        }
    }

    /// The last of words `w...last` for which `fits` (monotone) holds, given that it holds
    /// for `w`: a few steps from `w + previousCount − 1`, then binary search. The result `lo`
    /// is a boundary: `lo == last` or `fits(lo + 1)` was found false. Word indices are below
    /// 2²⁸ (`Word.nextMaskChange`): the arithmetic cannot overflow and is not checked.
    @inline(__always)
    private static func lastFitting(from w: Int, through last: Int, guess previousCount: Int, _ fits: (Int) -> Bool) -> Int {
        var lo = w  // fits
        var hi = last  // the last candidate
        if previousCount > 0 {
            let guess = min(last, w &+ previousCount &- 1)
            if fits(guess) {
                (lo, hi) = climb(from: guess, through: last, fits)
            } else {
                hi = guess &- 1
                var steps = 0
                while hi > lo && steps < 4 && !fits(hi) { hi &-= 1; steps &+= 1 }
                if fits(hi) { lo = hi }
            }
        }
        return bisect(lo, hi, fits)
    }

    /// From a fitting `guess`, up to four steps towards `last`: the last word found to fit,
    /// and the last candidate left (that word when a step failed or `last` was reached).
    @inline(__always)
    private static func climb(from guess: Int, through last: Int, _ fits: (Int) -> Bool) -> (lo: Int, hi: Int) {
        var lo = guess
        var steps = 0
        while lo < last && steps < 4 && fits(lo &+ 1) { lo &+= 1; steps &+= 1 }
        return (lo, lo == last || steps < 4 ? lo : last)
    }

    /// The last fitting word of `lo...hi` by binary search, given that `lo` fits (or stands
    /// for "none").
    @inline(__always)
    private static func bisect(_ lo: Int, _ hi: Int, _ fits: (Int) -> Bool) -> Int {
        var lo = lo, hi = hi
        while lo < hi {
            let mid = (lo &+ hi &+ 1) >> 1
            if fits(mid) { lo = mid } else { hi = mid &- 1 }
        }
        return lo
    }

    /// ``lastFitting(from:through:guess:_:)`` without knowing whether `fits(w)` holds: the
    /// last of words `w...last` that fits, `w − 1` when none does. The guess is probed first
    /// (a fitting guess implies `fits(w)`), then a few steps, then binary search over what is
    /// left, with `w − 1` standing for "fits" at the bottom. For a monotone `fits` the answer
    /// is the same as probing `w` first and calling ``lastFitting(from:through:guess:_:)``
    /// (there is one last fitting word); a line costs one probe less.
    @inline(__always)
    private static func lastFittingOrNone(from w: Int, through last: Int, guess previousCount: Int, _ fits: (Int) -> Bool) -> Int {
        var lo = w &- 1  // fits, or none before w
        var hi = last  // the last candidate
        if previousCount > 0 {
            let guess = min(last, w &+ previousCount &- 1)
            if fits(guess) {
                (lo, hi) = climb(from: guess, through: last, fits)
            } else {
                hi = guess &- 1
                var steps = 0
                while hi > lo {
                    if fits(hi) { lo = hi; break }
                    hi &-= 1
                    steps &+= 1
                    if steps == 4 { break }
                }
            }
        }
        return bisect(lo, hi, fits)
    }

    /// The fonts of words `w...lo` of `paragraph` (the last word's when the paragraph's mask
    /// is uniform — the line reads that word anyway —, else OR-ed run by run).
    @inline(__always)
    private func lineMask(
        _ paragraph: PreparedText.Paragraph, from w: Int, through lo: Int, _ words: PreparedText.Words, _ allFonts: UInt64
    ) -> UInt64 {
        if paragraph.hasUniformMask { return words[lo].fontMask }
        return words.fontMask(from: w, through: lo, stoppingAt: allFonts)
    }

    /// Where a line from `start` ends inside the run (`Word.breaksAfterEveryGrapheme`) that
    /// ends at grapheme `runEnd` and whose graphemes from `from` start at paragraph-relative
    /// `x`: the end of its last member
    /// before the run's last that fits, found by summing the advances from `x` one by one —
    /// the members' old ends, bit for bit — and testing each as the simple loop tested the
    /// member word (no hanging width; its end adjustment its grapheme's cut adjustment). The
    /// grapheme after that member (`from` when none fits) and its end.
    ///
    /// - Complexity: O(graphemes of the run up to the line's end).
    @inline(__always)
    private static func lastFit<Width: LineWidthArithmetic>(
        inRunEndingAt runEnd: Int32, from: Int32, at x: Double, _ start: Width.LineStart, limit: Double,
        _: Width.Type, _ v: Views
    ) -> (grapheme: Int32, end: Double) {
        // The run's last grapheme ends where the run does, which does not fit.
        let (g, end) = v.advances.sum(from: Int(from), to: Int(runEnd) - 1, font: v.fonts[Int(from)], onto: x) {
            sum, advance, g in
            Width.width(ofLineFrom: start, toVisibleEnd: sum, lastAdvance: advance, grapheme: g, v) <= limit
        }
        return (Int32(g), end)
    }


    /// ``estimatedWordsPerLine(_:count:limit:)`` for a monotone search, where any guess from 1
    /// to `count` finds the same words: no checks of the limit (an infinite or NaN estimate
    /// gives `count`, one under 1 gives 1) and the estimate rounded to an integer by adding
    /// 2⁵² (exact below 2⁵², and it is below `count`) instead of a checked conversion.
    @inline(__always)
    private static func guessedWordsPerLine(_ total: Double, count: Int, limit: Double) -> Int {
        let estimate = limit / total * Double(count)
        guard estimate < Double(count) else { return count }
        guard estimate >= 1 else { return 1 }
        return Int(truncatingIfNeeded: (estimate + 0x1p52).bitPattern & 0xF_FFFF_FFFF_FFFF)
    }

    /// How many of a paragraph's `count` words a line of `limit` points holds at their mean
    /// width, the paragraph being `total` wide (its last word's paragraph-relative end; the
    /// exact arithmetic takes its visible end, read without the word's tail: a guess, and its
    /// monotone search finds the same word from any guess), at least 1 and at most all; 0 (no
    /// guess) without a usable mean.
    @inline(__always)
    private static func estimatedWordsPerLine(_ total: Double, count: Int, limit: Double) -> Int {
        guard count > 0, total > 0, limit.isFinite, limit > 0 else { return 0 }
        let estimate = limit / total * Double(count)
        return estimate >= Double(count) ? count : max(1, Int(estimate))
    }

    /// The general greedy loop, from word `startWord` on an empty line that starts at its
    /// grapheme `startGrapheme`, paragraph-relative `x` (inside the word only for a run of
    /// one-grapheme words: each of its graphemes is a unit, a word of its own).
    ///
    /// - Complexity: O(graphemes) of the words it visits: the rest of a word cut by a line end
    ///   is measured only until it is known not to fit (`measure(_:word:at:stoppingAbove:_:)`),
    ///   so an unbreakable word of n clusters costs O(n), not O(n²).
    private func breakParagraph<Sink: LineSink, Width: LineWidthArithmetic>(
        _ p: Int32, _ v: Views, _: Width.Type, _ limits: Limits, firstLine: Bool,
        fromWord startWord: Int, at startGrapheme: Int32, x: Double, into out: inout Sink
    ) {
        let paragraph = text.paragraphs[Int(p)]
        let lastSpaceOnlyHangs = text.trailingSpaces == .lastHangs
        // The line's width: the first line's until a line is emitted, then the others'.
        var limit = firstLine ? limits.first : limits.other
        // Where the line starts on the tab ruler.
        var onRuler = firstLine ? limits.firstOnRuler : limits.otherOnRuler
        let direction = paragraph.direction
        // Clusters summed wider than this cannot fit, whatever follows them (see `measure`).
        var hopeless = Self.hopeless(limit)
        var line = Cursor(start: startGrapheme, end: startGrapheme)
        // Paragraph-relative position of the line's start (for layout-unit rounding).
        var lineStartX = x
        var lineStart = Width.lineStart(at: lineStartX, grapheme: startGrapheme, in: paragraph, text)

        // The line as it last ended at a break whose hyphen (if any) fits, and at the last
        // break that is not a dictionary point: a line whose end overflows by its hyphen, or
        // ends at a dictionary point it may not use (`hyphenationFactor`), goes back to them.
        var fitting: LineSnapshot? = nil
        var beforeDictionaryPoint: LineSnapshot? = nil
        // The line ends at a point whose hyphen does not fit, and no earlier end on it does.
        var overflowsByHyphen = false

        func emit(endsParagraph: Bool, insideWord: Bool) {
            lineStartX += line.x
            let hyphen = line.isEmpty ? 0 : v.hyphenWidth(after: line.end - 1)
            // The text's end draws no hyphen (Blink still fits a final U+00AD's, see
            // `HyphenRule.softHyphenBeforeSpacesShows`).
            if endsParagraph && hyphen > 0 && line.used - hyphen >= 0 { line.used -= hyphen }
            out.append(
                BrokenLine(
                    graphemeStart: line.start, graphemeEnd: line.end, usedWidth: line.used,
                    hangingWidth: max(0, line.x - (line.used - (endsParagraph ? 0 : hyphen))), fontMask: line.mask,
                    paragraph: p, endsParagraph: endsParagraph, endsInsideWord: insideWord,
                    hyphenWidth: endsParagraph ? 0 : hyphen))
            overflowsByHyphen = false
            fitting = nil
            beforeDictionaryPoint = nil
            line = Cursor(start: line.end, end: line.end)
            lineStart = Width.lineStart(at: lineStartX, grapheme: line.start, in: paragraph, text)
            limit = limits.other
            onRuler = limits.otherOnRuler
            hopeless = Self.hopeless(limit)
        }

        var unitStart = startGrapheme
        let paragraphEnd = paragraph.graphemeEnd
        var wordIndex = startWord
        while unitStart < paragraphEnd {
            guard out.count < lineLimit else { return }
            // The next unit: the rest of the current word, or one grapheme (+ its hanging
            // spaces) when wrapping by characters.
            let stored = v.words[wordIndex]
            var word = stored
            var wordStart: Int32
            if stored.breaksAfterEveryGrapheme {
                // The run's member word at `unitStart`, as it was stored before the merge.
                word = PreparedText.Word(
                    graphemeEnd: unitStart + 1, hangingWidth: 0, fontMask: stored.fontMask, hasTab: false,
                    mandatoryBreakAfter: false)
                wordStart = unitStart
            } else {
                wordStart = PreparedText.graphemeStart(ofWord: wordIndex, in: paragraph, words: v.words)
            }
            var unitEnd = word.graphemeEnd
            if policy == .characters {
                unitEnd = unitStart + 1
                while unitEnd < word.graphemeEnd && v.flags[Int(unitEnd)].contains(.hangingSpace) {
                    unitEnd += 1
                }
            }
            var pen = line.pen
            let m = measure(
                unitStart..<unitEnd, word: word, startingAt: wordStart, at: line.x, stoppingAbove: hopeless - line.x, v,
                pen: &pen, onRuler: onRuler, direction)
            var visible = line.x + m.width - m.hanging
            let adjustment = m.hanging == 0 && unitEnd == word.graphemeEnd ? v.endAdjustment(word) : 0
            let lineEnd = Width.lineEnd(
                lineStart: lineStart, visible: &visible, lastAdvance: v.advances[Int(unitEnd) - 1], adjustment)
            // A line ending here shows a hyphen, whose advance must fit too (after hanging
            // spaces only where the profile shows one there: Blink's "word\u{AD} ").
            let hyphen = unitEnd == word.graphemeEnd ? v.hyphenWidth(after: unitEnd - 1) : 0
            if !m.isPartial && lineEnd <= limit {
                line.x += m.width
                line.used = visible + hyphen
                line.mask |= m.mask
                line.end = unitEnd
                line.pen = pen
                // Where the loop goes on from after this unit (as at the loop's end).
                let nextWord = unitEnd == word.graphemeEnd && unitEnd == stored.graphemeEnd ? wordIndex + 1 : wordIndex
                let here = LineSnapshot(line: line, unitStart: unitEnd, wordIndex: nextWord)
                overflowsByHyphen = lineEnd + hyphen > limit && fitting == nil
                if lineEnd + hyphen <= limit { fitting = here }
                // (A unit that fits only without its hyphen stays while what follows fits.)
                if hyphen == 0 || !v.endsAtDictionaryPoint(unitEnd - 1) { beforeDictionaryPoint = here }
            } else if !line.isEmpty && !overflowsByHyphen {
                // The line ends: where its hyphen fits, at a dictionary point it may use.
                if let back = settledLineEnd(after: fitting, beforeDictionaryPoint, current: line, limit: limit, v) {
                    (line, unitStart, wordIndex) = (back.line, back.unitStart, back.wordIndex)
                }
                emit(endsParagraph: false, insideWord: policy == .characters && unitStart != wordStart)
                continue  // the unit starts the next line
            } else if !cutsOverlongWords && policy == .words {
                // CSS `overflow-wrap: normal`: the word overflows its own line whole (measured
                // to its end: the first measure may have stopped once it could not fit).
                var whole = m
                if m.isPartial {
                    pen = line.pen
                    whole = measure(
                        unitStart..<unitEnd, word: word, startingAt: wordStart, at: line.x, stoppingAbove: .infinity, v,
                        pen: &pen, onRuler: onRuler, direction)
                }
                line.used = line.x + whole.width - whole.hanging + hyphen
                line.x += whole.width
                line.mask |= whole.mask
                line.end = unitEnd
                line.pen = pen
                let nextWord = unitEnd == word.graphemeEnd && unitEnd == stored.graphemeEnd ? wordIndex + 1 : wordIndex
                fitting = LineSnapshot(line: line, unitStart: unitEnd, wordIndex: nextWord)
                beforeDictionaryPoint = fitting
                overflowsByHyphen = false
            } else {
                // Overlong: fill this line cluster by cluster (at least one), then go on. A
                // line that would end at a hyphen that does not fit goes on into this unit
                // instead (as Blink and Pango cut a word there), keeping none if none fits.
                let continuesLine = !line.isEmpty
                overflowsByHyphen = false
                var g = unitStart
                // The line as it last could end, its cut's hyphen included (clusters go on past
                // a cut whose hyphen does not fit while they fit themselves).
                var lastFit: Cursor? = nil
                repeat {
                    var pen = line.pen
                    let adv = advance(of: g, at: line.x, v, &pen, onRuler: onRuler, direction)
                    let hangs = v.flags[Int(g)].contains(.hangingSpace)
                    if (g > unitStart || continuesLine) && !hangs
                        && Width.overflows(
                            lineStart: lineStart, x: line.x, advance: adv, cutAdjustment: v.cutAdjustment(Int(g)),
                            limit: limit)
                    {
                        break
                    }
                    // A space hangs only if the line up to it fits (`TrailingSpaceRule.lastHangs`).
                    if g > unitStart && hangs && lastSpaceOnlyHangs && line.x > limit { break }
                    // A cut after g shows a hyphen there (Pango's cut points, Blink's after U+00AD).
                    let cutHyphen = g + 1 < unitEnd ? v.hyphenWidth(after: g) : 0
                    let cutFits =
                        cutHyphen == 0
                        || !Width.overflows(
                            lineStart: lineStart, x: line.x, advance: adv + cutHyphen, cutAdjustment: v.cutAdjustment(Int(g)),
                            limit: limit)
                    // Pango stops at the first cut whose hyphen does not fit.
                    if !cutFits && (g > unitStart || continuesLine) && !v.cutsGoPastUnfittingHyphens { break }
                    line.x += adv
                    line.pen = pen
                    if !hangs { line.used = line.x }
                    line.mask |= PreparedText.fontBit(v.fonts[Int(g)])
                    g += 1
                    if cutFits {
                        lastFit = line
                        lastFit?.end = g
                    }
                } while g < unitEnd
                if g < unitEnd, let fit = lastFit, fit.end < g {
                    g = fit.end
                    line = fit
                }
                if g < unitEnd && g > unitStart {
                    // Blink keeps a soft hyphen with the text before it.
                    while g > unitStart + 1 && v.forbidsCut(before: g) {
                        g -= 1
                        line.x -= v.advances[Int(g)]
                        line.used = line.x
                    }
                    g = Width.settleCut(after: g, from: unitStart, &line, lineStart: lineStart, limit: limit, v)
                    line.used += v.hyphenWidth(after: g - 1)
                }
                if continuesLine && g == unitStart,
                    let cut = Self.cutBack(line, lineStart: lineStart, limit: limit, Width.self, v)
                {
                    // Nothing more fits and the line's end overflows by its hyphen: cut its word
                    // where the content and that cut's hyphen fit, as Pango and Blink cut an
                    // overlong word.
                    line = cut
                    unitStart = cut.end
                    wordIndex = Self.word(holding: cut.end, from: startWord, v.words)
                    emit(endsParagraph: false, insideWord: true)
                    continue
                }
                line.end = g
                if g < unitEnd {
                    unitStart = g
                    emit(endsParagraph: false, insideWord: true)
                    continue
                }
            }
            unitStart = unitEnd
            if unitStart == word.graphemeEnd {
                if word.mandatoryBreakAfter {
                    emit(endsParagraph: false, insideWord: false)
                }
                if unitStart == stored.graphemeEnd { wordIndex += 1 }
            }
        }
        // Every path above leaves the line non-empty when the paragraph ends (an overlong
        // split or a wrap always places at least one cluster after emitting).
        if !line.isEmpty && out.count < lineLimit { emit(endsParagraph: true, insideWord: false) }
    }

    /// `line` cut back inside itself at the last grapheme boundary where its content and the
    /// cut's hyphen (a cut point's, `HyphenPoints`) fit `limit`, at least one cluster kept;
    /// nil for a line with a tab (its pens are not replayed here) or of one cluster.
    ///
    /// - Complexity: O(graphemes of the line).
    private static func cutBack<Width: LineWidthArithmetic>(
        _ line: Cursor, lineStart: Width.LineStart, limit: Double, _: Width.Type, _ v: Views
    ) -> Cursor? {
        guard line.end - line.start > 1 else { return nil }
        var x = 0.0
        var best = line.start + 1
        var bestX = v.advances[Int(line.start)]
        for g in line.start..<(line.end - 1) {
            if v.flags[Int(g)].contains(.tab) { return nil }
            let adv = v.advances[Int(g)]
            if g > line.start && !v.forbidsCut(before: g + 1)
                && !Width.overflows(
                    lineStart: lineStart, x: x, advance: adv + v.hyphenWidth(after: g), cutAdjustment: v.cutAdjustment(Int(g)),
                    limit: limit)
            {
                (best, bestX) = (g + 1, x + adv)
            }
            x += adv
        }
        var cut = Cursor(start: line.start, end: best)
        cut.x = bestX
        cut.used = bestX + v.hyphenWidth(after: best - 1)
        for k in line.start..<best { cut.mask |= PreparedText.fontBit(v.fonts[Int(k)]) }
        return cut
    }

    /// The index of the stored word holding grapheme `g`, searched from word `first` on.
    private static func word(holding g: Int32, from first: Int, _ words: PreparedText.Words) -> Int {
        var lo = first, hi = words.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if words[mid].graphemeEnd <= g { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// Where a line that cannot take the next unit ends, if not where it is (`current`): at
    /// `fitting`, the last break whose hyphen fits, when the current end overflows by its
    /// hyphen; then, if that is a dictionary point and the line ended at the break before it
    /// (`beforeDictionaryPoint`) fills at least `hyphenationFactor` of `limit`, there.
    @inline(__always)
    private func settledLineEnd(
        after fitting: LineSnapshot?, _ beforeDictionaryPoint: LineSnapshot?, current: Cursor, limit: Double, _ v: Views
    ) -> LineSnapshot? {
        var back: LineSnapshot? = nil
        if let fitting, fitting.line.end != current.end { back = fitting }
        guard hyphenationFactor < 1, let word = beforeDictionaryPoint, !word.line.isEmpty else { return back }
        let end = back?.line.end ?? current.end
        guard word.line.end != end, v.endsAtDictionaryPoint(end - 1) else { return back }
        return word.line.used >= hyphenationFactor * limit ? word : back
    }

    /// The sum of clusters above which a line of width `limit` cannot fit whatever follows
    /// (see ``measure(_:word:startingAt:at:stoppingAbove:_:)``).
    @inline(__always)
    private static func hopeless(_ limit: Double) -> Double { limit + 1e-3 + limit.magnitude * 1e-9 }

    /// Width, hanging whitespace and fonts of graphemes `range` of `word` placed at `x`.
    ///
    /// Stops early, with `isPartial` set, once the clusters summed so far are wider than
    /// `stoppingAbove` and more follow: such a unit cannot fit whatever comes after it
    /// (advances are ≥ 0, and a last cluster re-shaped alone is ≥ 0 too), and then the caller
    /// needs to know only that. This bounds the work per line by the line's length.
    @inline(__always)
    private func measure(
        _ range: Range<Int32>, word: PreparedText.Word, startingAt wordStart: Int32, at x: Double, stoppingAbove: Double, _ v: Views,
        pen: inout TabPen, onRuler: Double, _ direction: TextDirection
    ) -> (width: Double, hanging: Double, mask: UInt64, isPartial: Bool) {
        if range.lowerBound == wordStart && range.upperBound == word.graphemeEnd
            && !word.hasTab && pen.gap == 0
        {
            // The word's width is not stored: summed here in the preparer's order (the same
            // bits), only on this general path (simple paragraphs use `Word.end`).
            var width = 0.0
            for g in range { width += v.advances[Int(g)] }
            return (width, word.hangingWidth, word.fontMask, false)
        }
        var width = 0.0
        var hanging = 0.0
        var mask: UInt64 = 0
        for g in range {
            if width - hanging > stoppingAbove { return (width, hanging, mask, true) }
            let adv = advance(of: g, at: x + width, v, &pen, onRuler: onRuler, direction)
            width += adv
            if v.flags[Int(g)].contains(.hangingSpace) { hanging += adv } else { hanging = 0 }
            mask |= PreparedText.fontBit(v.fonts[Int(g)])
        }
        return (width, hanging, mask, false)
    }

    /// A grapheme's pen advance at line position `x` on a line starting `onRuler` along the
    /// tab ruler: a tab jumps to its stop; after a right, center or decimal stop the gap takes
    /// up its share (`TabPen`).
    @inline(__always)
    fileprivate func advance(
        of g: Int32, at x: Double, _ v: Views, _ pen: inout TabPen, onRuler: Double, _ direction: TextDirection
    ) -> Double {
        if v.flags[Int(g)].contains(.tab) { return pen.tab(at: x, lineStart: onRuler, tabs, direction: direction) }
        let a = v.advances[Int(g)]
        guard pen.gap > 0 else { return a }
        return pen.advance(a, isDecimalPoint: text.isDecimalPoint(g), centresDecimalPoint: tabs.centresDecimalPoint)
    }
}

/// The order of the simple-paragraph loop's probes for a line's last word
/// (`LineBreaker.searchesGuessFirst`), as a type: the loop is specialised per order.
private protocol LineSearchOrder {
    /// Whether the guess is probed first where the fit test is monotone.
    static var guessFirst: Bool { get }
}

/// The guess first, where the arithmetic's fit test is monotone (the default).
private enum GuessFirstSearch: LineSearchOrder {
    static var guessFirst: Bool { @inline(__always) get { true } }
}

/// The line's first word first, for every arithmetic (tests compare the two).
private enum FirstWordFirstSearch: LineSearchOrder {
    static var guessFirst: Bool { @inline(__always) get { false } }
}

/// Receives the lines of a `LineBreaker` run.
protocol LineSink {
    /// Lines received so far.
    var count: Int { get }
    mutating func append(_ line: BrokenLine)
}

/// Collects lines into an array.
struct LineArraySink: LineSink {
    var lines: [BrokenLine] = []
    var count: Int { lines.count }
    mutating func append(_ line: BrokenLine) { lines.append(line) }
}

/// The line-fit arithmetic of a `LayoutConventions.LineFitArithmetic`, as static functions:
/// both breaking loops are specialised per arithmetic (no convention checks per cluster).
private protocol LineWidthArithmetic {
    /// What the arithmetic needs to know of where a line starts (its paragraph-relative
    /// position, for Blink's also the style run it starts in).
    associatedtype LineStart

    /// Whether the simple loop's fit test can only turn from true to false as the line's last
    /// word moves on (exact sums of non-decreasing visible ends): then the order of its probes
    /// cannot change a line's end, and the loop may probe a guess before the line's first word.
    /// Blink's arithmetic keeps its probe order (a word's end adjustment differs per word).
    static var fitIsMonotone: Bool { get }

    /// The start of a line at paragraph-relative position `x`, grapheme `g` of `paragraph`
    /// (`text` is read only by Blink's arithmetic, for its run ends).
    static func lineStart(at x: Double, grapheme g: Int32, in paragraph: PreparedText.Paragraph, _ text: PreparedText)
        -> LineStart

    /// The width of a line from `start` to the visible end of `word`, for the fit test of the
    /// simple-paragraph loop.
    static func width(ofLineFrom start: LineStart, toEndOf word: PreparedText.Word, _ v: LineBreaker.Views) -> Double

    /// ``width(ofLineFrom:toEndOf:_:)`` for a member of a run of one-grapheme words: a word of
    /// grapheme `g` alone (`lastAdvance` wide), visible end `visibleEnd`, no hanging width.
    static func width(
        ofLineFrom start: LineStart, toVisibleEnd visibleEnd: Double, lastAdvance: Double, grapheme g: Int,
        _ v: LineBreaker.Views) -> Double

    /// The width to compare with the limit for a line whose visible content ends at
    /// line-relative `visible` (its last cluster `lastAdvance` wide, `adjustment` its re-shaped
    /// difference at a line end); may update `visible` to the width the line then uses.
    static func lineEnd(lineStart: LineStart, visible: inout Double, lastAdvance: Double, _ adjustment: Float) -> Double

    /// Whether an overlong word's next cluster (`advance` wide, at line-relative `x`) no longer
    /// fits the line.
    static func overflows(
        lineStart: LineStart, x: Double, advance: Double, cutAdjustment: Float, limit: Double) -> Bool

    /// Settles where an overlong word is cut, given the first cluster that did not fit
    /// (`end`); returns the cut and updates the line's width and fonts.
    static func settleCut(
        after end: Int32, from start: Int32, _ line: inout LineBreaker.Cursor, lineStart: LineStart, limit: Double,
        _ v: LineBreaker.Views) -> Int32
}

/// The sum of the advances, hanging whitespace excluded (`LineFitArithmetic.exact`).
private enum ExactLineWidth: LineWidthArithmetic {
    static var fitIsMonotone: Bool { @inline(__always) get { true } }

    @inline(__always)
    static func lineStart(at x: Double, grapheme g: Int32, in paragraph: PreparedText.Paragraph, _ text: PreparedText)
        -> Double
    {
        x
    }

    @inline(__always)
    static func width(ofLineFrom lineStart: Double, toEndOf word: PreparedText.Word, _ v: LineBreaker.Views) -> Double {
        word.visibleEnd - lineStart
    }

    @inline(__always)
    static func width(
        ofLineFrom lineStart: Double, toVisibleEnd visibleEnd: Double, lastAdvance: Double, grapheme g: Int,
        _ v: LineBreaker.Views
    ) -> Double {
        visibleEnd - lineStart
    }

    @inline(__always)
    static func lineEnd(lineStart: Double, visible: inout Double, lastAdvance: Double, _ adjustment: Float) -> Double {
        visible
    }

    @inline(__always)
    static func overflows(
        lineStart: Double, x: Double, advance: Double, cutAdjustment: Float, limit: Double
    ) -> Bool {
        x + advance > limit
    }

    @inline(__always)
    static func settleCut(
        after end: Int32, from start: Int32, _ line: inout LineBreaker.Cursor, lineStart: Double, limit: Double,
        _ v: LineBreaker.Views
    ) -> Int32 {
        end
    }
}

/// Blink's width of a line (`LineFitArithmetic.layoutUnits`).
///
/// Blink lays out each element as an inline item and measures a line item by item
/// (`LineBreaker::BreakText`: each item's part on the line is a `ShapeResultView` whose
/// `SnappedWidth` is its exact width rounded up to the 1/64-px layout unit): the part of the
/// line's first item from the line start to the item's end counts ceil₆₄(its exact width),
/// each whole item after it its snapped width, and the last item — where the line ends —
/// its positions, which Blink keeps rounded up to the layout unit from the item's start, so
/// that part spans ceil(end) − ceil(start) (both item-relative). A line that ends where the
/// text was shaped across the break (`Word.endAdjustment` ≠ 0: kerning into the next cluster)
/// is re-shaped there: ceil(position before the last cluster) + the last cluster alone −
/// ceil(start). The last part's exact width rounded up must fit as well. Text of one run is
/// one item starting at the paragraph's start (`PreparedText.runEnds` is empty).
///
/// - Complexity: O(1) per width for text of one run; with several, O(log runs) per line start
///   and per width of a line that crosses a run end.
private enum LayoutUnitLineWidth: LineWidthArithmetic {
    static var fitIsMonotone: Bool { @inline(__always) get { false } }

    /// Where a line starts, with the style run (inline item) it starts in.
    struct LineStart {
        /// Paragraph-relative position of the line start.
        var x: Double
        /// Where the run holding the line start starts (0 without runs).
        var itemStart: Double
        /// Index in `runs` of that run's end, or −1 without runs.
        var run: Int
        /// Index in `runs` of the paragraph's last run end.
        var lastRun: Int
        var runs: UnsafeBufferPointer<PreparedText.RunEnd>
    }

    /// A position within this of a run's end is that run's end (the same sum in another order).
    static let runEndTolerance = 1e-7

    /// - Complexity: O(1) for text of one run, else O(log runs).
    @inline(__always)
    static func lineStart(at x: Double, grapheme g: Int32, in paragraph: PreparedText.Paragraph, _ text: PreparedText)
        -> LineStart
    {
        let runEnds = text.runEnds
        let runs = UnsafeBufferPointer(start: runEnds.base, count: runEnds.count)
        let none = LineStart(x: x, itemStart: 0, run: -1, lastRun: -1, runs: runs)
        guard !runs.isEmpty else { return none }
        let run = firstRunEnd(after: g, runs)
        // Run ends of a paragraph lie in (graphemeStart, graphemeEnd]; a paragraph of one run
        // has none.
        guard run < runs.count, runs[run].graphemeEnd <= paragraph.graphemeEnd else { return none }
        let itemStart = run > 0 && runs[run - 1].graphemeEnd > paragraph.graphemeStart ? runs[run - 1].end : 0
        let lastRun = firstRunEnd(after: paragraph.graphemeEnd - 1, runs)
        return LineStart(x: x, itemStart: itemStart, run: run, lastRun: lastRun, runs: runs)
    }

    /// The first run end after grapheme `g` (`runs.count` if none).
    @inline(__always)
    static func firstRunEnd(after g: Int32, _ runs: UnsafeBufferPointer<PreparedText.RunEnd>) -> Int {
        var lo = 0
        var hi = runs.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if runs[mid].graphemeEnd <= g { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The line from `start` to paragraph-relative `end`, as what precedes its last item and
    /// where that item starts: `prefix` (the first item's part and the whole items after it,
    /// each rounded up), the item's start `from` and the line's start within it `at`.
    @inline(__always)
    static func lastItem(_ start: LineStart, to end: Double) -> (prefix: Double, from: Double, at: Double) {
        guard start.run >= 0 else { return (0, 0, start.x) }
        let runs = start.runs
        let first = runs[start.run]
        guard end > first.end + runEndTolerance else { return (0, start.itemStart, start.x) }
        // The run holding `end`: the first after the line's first run that ends at or after it.
        var lo = start.run + 1
        var hi = start.lastRun
        while lo < hi {
            let mid = (lo + hi) >> 1
            if end <= runs[mid].end + runEndTolerance { hi = mid } else { lo = mid + 1 }
        }
        let before = runs[lo - 1]
        return (ceil(first.end - start.x) + (before.snappedEnd - first.snappedEnd), before.end, before.end)
    }

    /// The last cluster's advance is read only for a re-shaped end (`width` ignores it when
    /// the adjustment is 0): a probe of the line search reads no grapheme column otherwise.
    @inline(__always)
    static func width(ofLineFrom start: LineStart, toEndOf word: PreparedText.Word, _ v: LineBreaker.Views) -> Double {
        let adjustment = v.endAdjustment(word)
        let lastAdvance = adjustment == 0 ? 0 : v.advances[Int(word.graphemeEnd) - 1]
        return width(start, visibleEnd: word.visibleEnd, lastAdvance: lastAdvance, adjustment)
    }

    @inline(__always)
    static func width(
        ofLineFrom start: LineStart, toVisibleEnd visibleEnd: Double, lastAdvance: Double, grapheme g: Int,
        _ v: LineBreaker.Views
    ) -> Double {
        width(start, visibleEnd: visibleEnd, lastAdvance: lastAdvance, v.cutAdjustment(g))
    }

    @inline(__always)
    static func lineEnd(lineStart: LineStart, visible: inout Double, lastAdvance: Double, _ adjustment: Float) -> Double {
        let end = width(lineStart, visibleEnd: lineStart.x + visible, lastAdvance: lastAdvance, adjustment)
        visible += Double(adjustment)
        return end
    }

    /// Goes on while the cluster fits as laid out (position rounded up to the layout unit) or
    /// re-shaped alone at a cut (a ligature counts whole on its first cluster); the cut is
    /// settled by `settleCut`.
    @inline(__always)
    static func overflows(
        lineStart: LineStart, x: Double, advance: Double, cutAdjustment: Float, limit: Double
    ) -> Bool {
        let end = lineStart.x + x + advance
        let item = lastItem(lineStart, to: end)
        let laidOut = item.prefix + (ceil(end - item.from) - ceil(item.at - item.from))
        let reshaped = width(lineStart, visibleEnd: end, lastAdvance: advance, cutAdjustment)
        return laidOut > limit && reshaped > limit
    }

    /// Blink's cut of an overlong word (chromium profile): from the last cluster whose
    /// position fits (`end`, exclusive), step back while the line re-shaped at the cut does not
    /// fit — the cluster before the cut takes its advance alone (`cutAdjustments`: without the
    /// kerning, ligature or joining form it had with the next). As in Blink's
    /// `ShapingLineBreaker`, the largest cut that fits wins, also where those widths are not
    /// monotone (Arabic joining forms). At least one cluster stays. Returns the new end and
    /// updates the line's width and fonts.
    static func settleCut(
        after end: Int32, from start: Int32, _ line: inout LineBreaker.Cursor, lineStart: LineStart, limit: Double,
        _ v: LineBreaker.Views
    ) -> Int32 {
        var g = end
        while true {
            let last = Int(g) - 1
            let adjustment = v.cutAdjustment(last)
            let width = LayoutUnitLineWidth.width(
                lineStart, visibleEnd: lineStart.x + line.x, lastAdvance: v.advances[last], adjustment)
            if width <= limit || g - 1 == start {
                line.used = line.x + Double(adjustment)
                break
            }
            line.x -= v.advances[last]
            g -= 1
        }
        if g < end {
            line.mask = 0
            for k in start..<g { line.mask |= PreparedText.fontBit(v.fonts[Int(k)]) }
        }
        return g
    }

    /// The line's width from `start` to its visible end (paragraph-relative): what precedes
    /// its last item, plus that item's part found from rounded positions; the part's exact
    /// width rounded up must fit too (Blink's `BreakText` checks its `SnappedWidth`).
    @inline(__always)
    static func width(_ start: LineStart, visibleEnd: Double, lastAdvance: Double, _ adjustment: Float) -> Double {
        let item = lastItem(start, to: visibleEnd)
        let at = ceil(item.at - item.from)
        let exact = visibleEnd - item.at + Double(adjustment)
        let positional =
            adjustment == 0
            ? ceil(visibleEnd - item.from) - at
            : ceil(visibleEnd - lastAdvance - item.from) + lastAdvance + Double(adjustment) - at
        return item.prefix + max(positional, ceil(exact))
    }

    /// Blink's layout units per point (`1 / LayoutConventions.blinkLayoutUnit`).
    static let unitsPerPoint: Double = 64

    /// `x` rounded up to a whole layout unit.
    @inline(__always)
    static func ceil(_ x: Double) -> Double { (x * unitsPerPoint).rounded(.up) / unitsPerPoint }
}
