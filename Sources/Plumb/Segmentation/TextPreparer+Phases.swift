/// The preparation of one paragraph, as named phases over one `ParagraphInput`:
///
/// 1. ``classifyClusters(_:into:)`` — grapheme clusters, each cluster's font, flags and script;
/// 2. ``resolveScripts(_:into:)`` — Common clusters take their run's script; the space-font rule;
/// 3. ``markBreakOpportunities(_:into:)`` — ICU's line breaks, then the conventions' tailoring;
///    ``markHyphenationPoints(_:_:into:)`` — soft hyphens, dictionary and cut points;
/// 4. ``shapeSegments(_:into:)`` — segments (one font, script and style run, at most one bounded
///    cluster piece) shaped through tier 1;
/// 5. ``buildWords(_:into:)`` — the units of line breaking, with hanging widths;
///    ``recordRunEnds(_:wordStart:into:)`` — where style runs end (Blink's arithmetic only);
/// 6. ``appendParagraph(_:wordStart:into:)`` — the paragraph record, after
///    ``mergeOneGraphemeWords(from:graphemeStart:into:)`` — runs of one-grapheme words stored
///    as one word.
///
/// Index space: every grapheme index `g` in these phases is an index of the whole text (the
/// builder's per-grapheme arrays); the paragraph's own scratch arrays are read through
/// `ParagraphScratch`'s subscripts, which take the same `g`. Each phase reads what the ones
/// before it wrote to the builder and nothing else.
extension TextPreparer {
    /// The paragraph a phase works on.
    struct ParagraphInput {
        /// The whole text (valid UTF-8).
        let text: UnsafeBufferPointer<UInt8>
        /// The paragraph's bytes in `text` (hard-break characters excluded).
        let bytes: Range<Int>
        /// The paragraph's graphemes (text indices); known after phase 1.
        var graphemes: Range<Int>
        /// Where style runs end (byte offsets in `text`, ascending, the last one
        /// `bytes.upperBound`). A segment never crosses a run end, so each run is shaped
        /// alone; break opportunities come from the whole paragraph. Plain text has one run.
        let runEnds: UnsafeBufferPointer<Int32>  // the preparer's scratch, valid for the paragraph
        /// The text's runs, and the first one that reaches into this paragraph.
        let runs: [PreparationRun]
        let firstRun: Int

        /// The paragraph's bytes.
        var paragraph: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: text[bytes]) }
        /// The byte offset of the paragraph in the text.
        var base: Int32 { Int32(bytes.lowerBound) }
    }

    /// Prepares one paragraph into `b`, phase by phase.
    func prepareParagraph(_ input: ParagraphInput, into b: inout PreparedTextBuilder) {
        var input = input
        let wordStart = b.words.count
        let pointsBefore = b.hyphens.count
        if !input.bytes.isEmpty {
            classifyClusters(&input, into: &b)
            resolveScripts(input, into: &b)
            markBreakOpportunities(input, into: &b)
            markHyphenationPoints(input, b.hyphenation, into: &b)
            shapeSegments(input, into: &b)
            if b.wordSpacing != 0 { applyWordSpacing(input, into: &b) }
            buildWords(input, into: &b)
            recordRunEnds(input, wordStart: wordStart, into: &b)
        } else {
            input.graphemes = b.graphemeEnds.count..<b.graphemeEnds.count
        }
        appendParagraph(input, wordStart: wordStart, into: &b)
        // A line may end at a hyphen point only as the general loop fits it (with the hyphen).
        if b.hyphens.count > pointsBefore { b.paragraphs[b.paragraphs.count - 1].isSimple = false }
    }

    // MARK: 1. Clusters

    /// Phase 1: the paragraph's grapheme clusters (UAX #29, bounded by
    /// ``maximumClusterScalars``), each with its font (cascade, per-cluster fallback), flags
    /// (hanging space, tab) and raw script (0 = Common/Inherited) and first scalar in the
    /// paragraph scratch. Sets `input.graphemes`.
    ///
    /// - Complexity: O(bytes); one ICU grapheme pass, one cascade look-up per cluster.
    func classifyClusters(_ input: inout ParagraphInput, into b: inout PreparedTextBuilder) {
        let para = input.paragraph
        let base = input.base
        let first = b.graphemeEnds.count
        scratch.paragraph.begin(at: first)
        b.beginParagraph(grapheme: first, byte: base)
        var start: Int32 = 0
        var previousFont: UInt8 = 0
        var run = input.firstRun
        b.beginRun(input.runs[run])
        scratch.asciiFonts.forget()
        var runEnd = Int32(input.runs[run].byteEnd) - base
        // ASCII without CR: every byte is a cluster (UAX #29 keeps only CR × LF together
        // among these), so no boundaries are asked for.
        if Self.isASCIIWithoutCR(para) {
            while Int(start) < para.count {
                while start >= runEnd && run + 1 < input.runs.count {
                    run += 1
                    b.beginRun(input.runs[run])
                    scratch.asciiFonts.forget()
                    runEnd = Int32(input.runs[run].byteEnd) - base
                }
                if let box = input.runs[run].box {
                    previousFont = appendBox(box, base: base, start: start, end: start + 1, into: &b)
                } else {
                    previousFont = appendASCIICluster(
                        para[Int(start)], base: base, end: start + 1, previousFont: previousFont, into: &b)
                }
                start += 1
            }
        }
        // ICU's boundaries in windows (one for any ordinary paragraph).
        while Int(start) < para.count {
            for boundary in iterators.graphemeBreaks(para, from: start, limit: Self.graphemeWindow) {
                // A cluster of more than `maximumClusterScalars` scalars (thousands of combining
                // marks, an endless jamo or ZWJ chain) is cut into bounded pieces, so no stage —
                // HarfBuzz above all — ever sees an unbounded cluster; so is a cluster that a run
                // end cuts (each run has its own fonts).
                let clusterStart = start
                while start < boundary {
                    while start >= runEnd && run + 1 < input.runs.count {
                        run += 1
                        b.beginRun(input.runs[run])
                        scratch.asciiFonts.forget()
                        runEnd = Int32(input.runs[run].byteEnd) - base
                    }
                    let end = boundedClusterEnd(para, start: start, end: min(boundary, max(runEnd, start + 1)))
                    if let box = input.runs[run].box {
                        previousFont = appendBox(box, base: base, start: start, end: end, into: &b)
                    } else {
                        previousFont = appendCluster(para, base: base, start: start, end: end, previousFont: previousFont, into: &b)
                    }
                    if start > clusterStart { b.flags[b.flags.count - 1].insert(.continuesCluster) }
                    start = end
                }
            }
        }
        input.graphemes = first..<b.graphemeEnds.count
        scratch.paragraph.attach(paragraph: para, base: base, ends: b.graphemeEnds)
    }

    /// Whether every byte of `para` is ASCII other than CR (8 bytes at a time).
    ///
    /// - Complexity: O(n).
    static func isASCIIWithoutCR(_ para: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = para.baseAddress else { return true }
        let n = para.count
        var i = 0
        var high: UInt64 = 0
        var cr: UInt64 = 0
        while i + 8 <= n {
            let w = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
            high |= w
            cr |= Paragraphs.hasByte(0x0D, in: w)
            i += 8
        }
        while i < n {
            high |= UInt64(base[i])
            if base[i] == 0x0D { return false }
            i += 1
        }
        return high & 0x8080_8080_8080_8080 == 0 && cr == 0
    }

    /// Grapheme boundaries are asked of ICU this many at a time (64 KiB of offsets).
    static let graphemeWindow = 1 << 14

    /// At most this many scalars form one cluster; longer ones are cut after every this many
    /// (cf. UAX #15's stream-safe format: at most 30 non-starters in a row), and each piece is
    /// shaped apart (`GraphemeFlags.continuesCluster`), so HarfBuzz never sees an unbounded
    /// cluster (its mark handling is superlinear in a cluster's length). No real cluster comes
    /// near it (emoji ZWJ sequences have ≤ 10 scalars, flags with tags 7).
    static let maximumClusterScalars = 32

    /// The end of the first bounded piece of cluster `start..<end` of `para`.
    @inline(__always)
    private func boundedClusterEnd(_ para: UnsafeBufferPointer<UInt8>, start: Int32, end: Int32) -> Int32 {
        // A UTF-8 scalar is at most 4 bytes: short clusters need no count.
        guard Int(end - start) > Self.maximumClusterScalars else { return end }
        var i = Int(start)
        var scalars = 0
        while i < Int(end) {
            if para[i] & 0xC0 != 0x80 {
                if scalars == Self.maximumClusterScalars { return Int32(i) }
                scalars += 1
            }
            i += 1
        }
        return end
    }

    /// Appends cluster `start..<end` (paragraph-relative bytes) to the builder; returns its
    /// font.
    private func appendCluster(
        _ para: UnsafeBufferPointer<UInt8>, base: Int32, start: Int32, end: Int32, previousFont: UInt8,
        into b: inout PreparedTextBuilder
    ) -> UInt8 {
        if end - start == 1, para[Int(start)] < 0x80 {
            return appendASCIICluster(para[Int(start)], base: base, end: end, previousFont: previousFont, into: &b)
        }
        decodeScalars(para, start: Int(start), end: Int(end))
        let first = scratch.scalars[0]
        var flags: PreparedText.GraphemeFlags = []
        let fontIndex: UInt8
        if scratch.scalars.count == 1 && first.value == 0x09 {
            flags.insert([.tab, .hangingSpace])  // a trailing tab hangs like a space
            b.hasTab = true
            fontIndex = previousFont
        } else {
            if scratch.scalars.count == 1 && ClusterClassifier.isHangingSpace(first) {
                flags.insert(.hangingSpace)
            }
            fontIndex = chooseFont(previousFont: previousFont, into: &b)
        }
        scratch.paragraph.append(script: clusterScript(first))
        Self.appendGrapheme(end: base + end, font: fontIndex, flags: flags, into: &b)
        return fontIndex
    }

    /// One grapheme's columns (its end, local font, flags; its units, and its cut adjustment
    /// where line ends are re-shaped, set once shaped), shared by both cluster paths.
    @inline(__always)
    private static func appendGrapheme(
        end: Int32, font: UInt8, flags: PreparedText.GraphemeFlags, into b: inout PreparedTextBuilder
    ) {
        b.graphemeEnds.append(end)
        b.graphemeFonts.append(font)
        b.flags.append(flags)
        b.units.append(0)
        if b.conventions.reshapesLineEnds { b.cutAdjustments.append(0) }
    }

    /// ``appendCluster(_:base:start:end:previousFont:into:)`` for a one-byte (ASCII) cluster,
    /// without decoding: a tab hangs and keeps the previous font, a space hangs, a letter is
    /// Latin, anything else Common (what the general path decides for these bytes).
    @inline(__always)
    private func appendASCIICluster(
        _ byte: UInt8, base: Int32, end: Int32, previousFont: UInt8, into b: inout PreparedTextBuilder
    ) -> UInt8 {
        var flags: PreparedText.GraphemeFlags = []
        let fontIndex: UInt8
        if byte == 0x09 {
            flags.insert([.tab, .hangingSpace])
            b.hasTab = true
            fontIndex = previousFont
        } else {
            if byte == 0x20 { flags.insert(.hangingSpace) }
            fontIndex = scratch.asciiFonts[byte] ?? chooseASCIIFont(byte, previousFont: previousFont, into: &b)
        }
        let folded = byte | 0x20  // A–Z onto a–z
        scratch.paragraph.append(script: folded >= 0x61 && folded <= 0x7A ? .latin : .neutral)
        Self.appendGrapheme(end: base + end, font: fontIndex, flags: flags, into: &b)
        return fontIndex
    }

    /// The local font of ASCII `byte` not yet known in this run (out of line, so the common
    /// path of ``appendASCIICluster(_:base:end:previousFont:into:)`` stays small enough to
    /// inline into the cluster loops).
    @inline(never)
    private func chooseASCIIFont(_ byte: UInt8, previousFont: UInt8, into b: inout PreparedTextBuilder) -> UInt8 {
        scratch.scalars.removeAll()
        scratch.scalars.append(Unicode.Scalar(byte))
        let choice = chooseIndexed(&b)
        let fontIndex = localFont(of: choice, previousFont: previousFont, into: &b)
        // A cascade font is the byte's font wherever it stands in the run.
        if case .cascade = choice { scratch.asciiFonts[byte] = fontIndex }
        return fontIndex
    }

    /// Appends an inline box's U+FFFC: its own face, its width as advance, never shaped.
    private func appendBox(
        _ box: InlineBoxMetrics, base: Int32, start: Int32, end: Int32, into b: inout PreparedTextBuilder
    ) -> UInt8 {
        let fontIndex = b.boxLocalIndex()
        scratch.paragraph.append(script: .neutral)
        b.graphemeEnds.append(base + end)
        b.graphemeFonts.append(fontIndex)
        b.flags.append(.inlineBox)
        b.hasInlineBoxes = true
        b.units.append(0)
        if b.conventions.reshapesLineEnds { b.cutAdjustments.append(0) }
        return fontIndex
    }

    /// The local font of the cluster in `scratch.scalars`.
    @inline(__always)
    private func chooseFont(previousFont: UInt8, into b: inout PreparedTextBuilder) -> UInt8 {
        localFont(of: chooseIndexed(&b), previousFont: previousFont, into: &b)
    }

    /// The current run's cascade's choice for the cluster in `scratch.scalars`.
    @inline(__always)
    private func chooseIndexed(_ b: inout PreparedTextBuilder) -> ResolvedCascade.IndexedChoice {
        b.cascade.chooseIndexed(
            forCluster: scratch.scalars.buffer, familyGlyphsForLoneEmoji: b.conventions.loneEmojiTakesFamilyGlyph,
            regularFallbackFaces: b.conventions.fallbackFacesAreRegular)
    }

    /// The local font of `choice` (`previousFont` for one that inherits).
    @inline(__always)
    private func localFont(
        of choice: ResolvedCascade.IndexedChoice, previousFont: UInt8, into b: inout PreparedTextBuilder
    ) -> UInt8 {
        switch choice {
        case .inherit: return previousFont
        case .cascade(let i): return b.localIndex(ofCascadeFont: i)
        case .emoji: return b.localIndex(of: b.cascade.emojiFont ?? b.cascade.primary)
        case .cjk: return b.localIndex(of: b.cascade.cjkFont ?? b.cascade.primary)
        case .fallback(let f): return b.localIndex(of: f)
        case .missing(let f):
            b.missingGlyphClusters += 1
            return b.localIndex(of: f)
        }
    }

    /// The raw script of the cluster whose first scalar is `first` (scalars in
    /// `scratch.scalars`): its first non-Common script, Latin for an ASCII letter, else
    /// `.neutral`.
    @inline(__always)
    private func clusterScript(_ first: Unicode.Scalar) -> ScriptTag {
        for s in scratch.scalars.buffer where s.value >= 0x80 {
            let script = UnicodeScript.script(of: s)
            if script != .neutral { return script }
        }
        if (0x41...0x5A).contains(first.value) || (0x61...0x7A).contains(first.value) { return .latin }
        return .neutral
    }

    // MARK: 2. Scripts

    /// Phase 2: Common clusters take the script of their run (UAX #24 itemization, brackets
    /// paired per `LayoutConventions.scriptBracketPairing`); then runs of spaces take their
    /// font by `LayoutConventions.spaceFonts`.
    func resolveScripts(_ input: ParagraphInput, into b: inout PreparedTextBuilder) {
        let pairsAll = b.conventions.scriptBracketPairing == .bracketsAndQuotes
        let keepsRaw = b.conventions.spaceFonts == .neighbouringFont
        scratch.paragraph.resolveScripts(pairsAll: pairsAll, keepingRaw: keepsRaw)
        if keepsRaw {
            applyNeighbouringSpaceFonts(
                graphemes: input.graphemes, scripts: scratch.paragraph, paragraph: input.paragraph, into: &b)
        }
        if case .pango = b.conventions.lineHeights {
            recordPangoBaselineTags(graphemes: input.graphemes, into: &b)
        }
    }

    /// The `pango` profile: appends where the baseline tag of the paragraph's resolved scripts
    /// changes (`PangoBaselines.changes`; roman before the text's first change).
    ///
    /// - Complexity: O(graphemes), one HarfBuzz switch per change of script.
    private func recordPangoBaselineTags(graphemes: Range<Int>, into b: inout PreparedTextBuilder) {
        var current = b.pangoTagChanges.last?.tag ?? .roman
        // Only where the resolved script changes (one byte compare per grapheme otherwise).
        scratch.paragraph.forEachScriptChange(in: graphemes) { g, script in
            let tag = UnicodeScript.pangoBaselineTag(of: script)
            if tag != current {
                b.pangoTagChanges.append(PangoBaselines.Change(grapheme: Int32(g), tag: tag))
                current = tag
            }
        }
    }

    // MARK: 3. Break opportunities

    /// Phase 3: ICU's line-break opportunities (rules per `LayoutConventions.breakRules`) as
    /// grapheme flags — an offset inside a cluster moves to the cluster's end, so a cluster is
    /// never split — then the conventions' `breakTailoring`.
    ///
    /// - Complexity: O(bytes): one ICU line pass, one merge with the clusters.
    func markBreakOpportunities(_ input: ParagraphInput, into b: inout PreparedTextBuilder) {
        let para = input.paragraph
        let base = input.base
        let breaker = iterators(for: b.conventions.breakRules, locale: b.conventions.breakLocale)
        let (offsets, hard) = breaker.lineBreaks(para)
        var g = input.graphemes.lowerBound
        let end = input.graphemes.upperBound
        for (k, offset) in offsets.enumerated() {
            while g < end && b.graphemeEnds[g] - base < offset { g += 1 }
            guard g < end else { break }
            if offset == Int32(para.count) { continue }
            b.flags[g].insert(.breakAfter)
            if hard[k] != 0 { b.flags[g].insert(.mandatoryBreakAfter) }
        }
        applyBreakTailoring(
            b.conventions.breakTailoring, para, base: base, graphemes: input.graphemes,
            firstScalars: scratch.paragraph, into: &b)
    }

    // MARK: 4. Shaping

    /// Phase 4: cuts the paragraph into segments — one font, one script, one style run, no
    /// break opportunity inside (except in scripts shaped as whole runs, see
    /// ``shapesWholeRuns(_:)``) — and shapes each through the segment cache; segments of one
    /// font and script split only by a break opportunity get their pair kerning back.
    func shapeSegments(_ input: ParagraphInput, into b: inout PreparedTextBuilder) {
        let scripts = scratch.paragraph
        let kanaWithKanji = b.conventions.shapesKanaWithKanji
        let range = input.graphemes
        var segStart = range.lowerBound
        var segScript = scripts[segStart]
        var run = 0
        for g in range {
            if segScript == .neutral { segScript = scripts[g] }
            let isTab = b.flags[g].contains(.tab)
            // Style runs: a segment ends where a run does.
            var endsRun = false
            if b.graphemeEnds[g] >= input.runEnds[run] {
                endsRun = true
                while run + 1 < input.runEnds.count && input.runEnds[run] <= b.graphemeEnds[g] { run += 1 }
            }
            let endsHere: Bool
            if isTab || g + 1 == range.upperBound || endsRun
                || (b.flags[g].contains(.breakAfter) && !Self.shapesWholeRuns(segScript) && !breaksInsideWord(g, b))
                || b.flags[g + 1].contains(.continuesCluster)
                || g + 1 - segStart >= Self.maximumSegmentClusters
            {
                endsHere = true
            } else {
                let next = scripts[g + 1]
                endsHere =
                    b.flags[g + 1].contains(.tab) || b.graphemeFonts[g + 1] != b.graphemeFonts[g]
                    || (next != .neutral && segScript != .neutral && next != segScript
                        && !(kanaWithKanji && Self.isJapanese(next) && Self.isJapanese(segScript)))
            }
            guard endsHere else { continue }
            if !isTab && !b.flags[segStart].contains(.inlineBox) {
                shapeSegment(input.text, graphemes: segStart..<(g + 1), script: segScript, into: &b)
                // Segments of one font and script that meet at a break opportunity were shaped
                // apart: restore the kerning between them (below).
                if segStart > range.lowerBound, !b.flags[segStart - 1].contains(.tab),
                    b.graphemeFonts[segStart - 1] == b.graphemeFonts[segStart],
                    scripts[segStart - 1] == segScript, !endsRunBefore(segStart, input, b),
                    !b.flags[segStart].contains(.continuesCluster)
                {
                    scratch.kernBoundaries.append(segStart)
                }
            }
            segStart = g + 1
            segScript = g + 1 < range.upperBound ? scripts[g + 1] : .neutral
        }
        shapePendingSegments(input.text, into: &b)
        for boundary in scratch.kernBoundaries {
            applyPairKerning(input.text, at: boundary, script: scripts[boundary], into: &b)
        }
        scratch.kernBoundaries.removeAll(keepingCapacity: true)
    }

    /// Whether the break after grapheme `g` lies inside a word: after a soft hyphen followed by
    /// more of the word, or at a dictionary point. The word is shaped whole there, as the
    /// engines shape it (kerning and ligatures across the point; HarfBuzz hides U+00AD).
    @inline(__always)
    private func breaksInsideWord(_ g: Int, _ b: PreparedTextBuilder) -> Bool {
        if b.paragraphHasSoftHyphen && scratch.paragraph.firstScalar(g) == 0xAD && !b.flags[g + 1].contains(.hangingSpace) {
            return true
        }
        return !b.hyphens.isEmpty && b.hyphens.kind(after: Int32(g)) == .dictionary
    }

    /// A segment is shaped in pieces of at most this many clusters (with the pair kerning at
    /// each cut restored, as between words), so HarfBuzz's buffers — ~40 bytes per glyph —
    /// stay bounded for an unbreakable word of any length. Only words longer than this can
    /// lose a ligature at a cut.
    static let maximumSegmentClusters = 4096

    /// Whether a style run ends between graphemes `g − 1` and `g` (no kerning across it).
    @inline(__always)
    private func endsRunBefore(_ g: Int, _ input: ParagraphInput, _ b: PreparedTextBuilder) -> Bool {
        input.runEnds.count > 1 && input.runEnds.contains(b.graphemeEnds[g - 1])
    }

    // MARK: 4b. Word spacing

    /// Phase 4b: gives every word separator (U+0020, U+00A0) but one starting the text the
    /// style's word spacing, as Blink adds CSS `word-spacing` after shaping: its grapheme
    /// moves to its font's word-spaced entry (`PreparedTextBuilder.wordSpacedIndex(of:)`),
    /// whose advances carry the extra spacing, so every later read of the advance (words,
    /// lines, the caret map, drawing) sees it. Segments were shaped before: kerning and
    /// ligatures are the text's own.
    func applyWordSpacing(_ input: ParagraphInput, into b: inout PreparedTextBuilder) {
        let text = input.text
        for g in input.graphemes {
            let start = Int(b.graphemeStart(g)), length = Int(b.graphemeEnds[g]) - start
            // U+0020 is one byte, U+00A0 the two bytes C2 A0.
            let isSeparator = length == 1 ? text[start] == 0x20 : length == 2 && text[start] == 0xC2 && text[start + 1] == 0xA0
            guard start > 0, isSeparator else { continue }
            b.graphemeFonts[g] = b.wordSpacedIndex(of: b.graphemeFonts[g])
        }
    }

    // MARK: 5. Words

    /// Phase 5: words — graphemes up to and including a break opportunity — with their widths,
    /// hanging trailing whitespace (per `LayoutConventions.trailingSpaces`), fonts, and, with
    /// `reshapesLineEnds`, each cluster's re-shaped difference at a line end.
    func buildWords(_ input: ParagraphInput, into b: inout PreparedTextBuilder) {
        // Two loops, each with its constant: the standard loop carries none of the re-shape
        // check's state (its registers spilled into the plain loop).
        if b.conventions.reshapesLineEnds {
            buildWords(input, ReshapesLineEnds.self, into: &b)
        } else {
            buildWords(input, KeepsLineEnds.self, into: &b)
        }
    }

    private func buildWords<Mode: LineEndReshaping>(_ input: ParagraphInput, _: Mode.Type, into b: inout PreparedTextBuilder) {
        let range = input.graphemes
        let reshapes = Mode.reshapes
        let lastSpaceOnlyHangs = b.conventions.trailingSpaces == .lastHangs
        var end = 0.0
        var width = 0.0
        var hanging = 0.0
        var mask: UInt64 = 0
        var hasTab = false
        var ascii = ASCIINominalCursor()
        for g in range {
            let f = b.flags[g]
            let advance = b.advance(g)
            width += advance
            // The cluster before a line end (a break or an overflow-wrap cut) re-shaped alone:
            // its own glyphs, without the kerning or ligature it formed with the next cluster
            // of the same font.
            // A default-ignorable cluster (U+00AD, U+200B) is hidden alone as well (HarfBuzz).
            if reshapes && !f.contains(.hangingSpace) && !f.contains(.inlineBox) && g + 1 < range.upperBound
                && b.graphemeFonts[g] == b.graphemeFonts[g + 1]
                && (f.contains(.tab) || b.units[g] != 0 || !Self.isIgnorable(scratch.paragraph.firstScalar(g)))
            {
                let alone = aloneUnits(input.text, at: g, &b, &ascii)
                // Equal units give the very advance (one scale, one function): the
                // adjustment stays the 0 `classifyClusters` wrote (a tab's advance is 0).
                if alone != b.units[g] || f.contains(.tab) {
                    b.cutAdjustments[g] = Float(b.scales[Int(b.graphemeFonts[g])].points(units: alone) - advance)
                }
            }
            if f.contains(.hangingSpace) {
                hanging = lastSpaceOnlyHangs ? advance : hanging + advance
            } else {
                hanging = 0
            }
            if f.contains(.tab) { hasTab = true }
            mask |= PreparedText.fontBit(b.graphemeFonts[g])
            guard f.contains(.breakAfter) || g + 1 == range.upperBound else { continue }
            end += width
            let word = PreparedText.Word(
                graphemeEnd: Int32(g + 1),
                hangingWidth: hanging, fontMask: mask, hasTab: hasTab,
                mandatoryBreakAfter: f.contains(.mandatoryBreakAfter) && g + 1 < range.upperBound,
                end: end)
            // The chromium end adjustment is not stored: `LineBreaker.Views.endAdjustment`
            // reads `cutAdjustments[g]` under the same conditions (no hanging width, no
            // mandatory break after g).
            b.words.append(word)
            width = 0
            hanging = 0
            mask = 0
            hasTab = false
        }
    }

    /// Phase 5b (Blink's arithmetic only, paragraphs of several runs): where each style run
    /// ends (`PreparedText.RunEnd`). Blink shapes every inline item (one per element) apart and
    /// measures a line item by item in layout units, so a line of two runs can be 2/64 px wider
    /// than the same text in one run (measured in Chromium 156: ten 15 px ideographs fit a
    /// 150 px box as one run, not as 2 + 8); the line breaker applies that from these ends.
    /// Plain text (one run) records nothing. A run end inside a cluster counts at the
    /// cluster's end.
    ///
    /// - Complexity: O(graphemes).
    func recordRunEnds(_ input: ParagraphInput, wordStart: Int, into b: inout PreparedTextBuilder) {
        guard case .layoutUnits(let unit) = b.conventions.lineFit, input.runEnds.count > 1 else { return }
        var run = 0
        var word = wordStart
        var wordBase = 0.0  // the previous word's end
        var inWord = 0.0  // the current word's advances so far, summed as `buildWords` sums them
        var runStart = 0.0
        var snapped = 0.0
        for g in input.graphemes {
            inWord += b.advance(g)
            if b.graphemeEnds[g] >= input.runEnds[run] {
                let end = wordBase + inWord
                snapped += ((end - runStart) / unit).rounded(.up) * unit
                b.runEnds.append(PreparedText.RunEnd(end: end, snappedEnd: snapped, graphemeEnd: Int32(g + 1)))
                runStart = end
                while run + 1 < input.runEnds.count && input.runEnds[run] <= b.graphemeEnds[g] { run += 1 }
            }
            if Int(b.words[word].graphemeEnd) == g + 1 {
                wordBase = b.words[word].end
                inWord = 0
                word += 1
            }
        }
    }

    /// Whether scalar `c` is default-ignorable (HarfBuzz draws nothing for it).
    @inline(__always)
    static func isIgnorable(_ c: UInt32) -> Bool {
        guard let s = Unicode.Scalar(c) else { return false }
        return ClusterClassifier.isIgnorableForCoverage(s)
    }

    // MARK: 6. The record

    /// Phase 6: the paragraph record — its ranges, whether the simple (binary-search) breaking
    /// path applies, its font-mask runs and base direction (UAX #9 P2–P3).
    func appendParagraph(_ input: ParagraphInput, wordStart: Int, into b: inout PreparedTextBuilder) {
        if mergesWordRuns {
            Self.mergeOneGraphemeWords(from: wordStart, graphemeStart: input.graphemes.lowerBound, into: &b)
        }
        // Runs of equal font masks, so a line's fonts are found run by run.
        var next = Int32(b.words.count)
        var k = b.words.count - 1
        while k >= wordStart {
            b.words[k].nextMaskChange = next
            if k > wordStart && b.words[k - 1].fontMask != b.words[k].fontMask { next = Int32(k) }
            k -= 1
        }
        let words = b.words[wordStart...]
        let simple = !words.contains { $0.hasTab || $0.mandatoryBreakAfter }
        let firstMask = words.first?.fontMask ?? 0
        let uniform = !words.isEmpty && words.allSatisfy { $0.fontMask == firstMask }
        b.paragraphs.append(
            PreparedText.Paragraph(
                byteStart: Int32(input.bytes.lowerBound), byteEnd: Int32(input.bytes.upperBound),
                graphemeStart: Int32(input.graphemes.lowerBound), graphemeEnd: Int32(input.graphemes.upperBound),
                wordStart: Int32(wordStart), wordEnd: Int32(b.words.count),
                isSimple: simple, hasUniformMask: uniform,
                direction: Bidi.firstStrongDirection(input.paragraph) ?? .leftToRight))
    }
}

extension TextPreparer {
    /// Phase 6a: stores each run of two or more consecutive words of one grapheme each (CJK
    /// ideographs, kana, Hangul syllables: a break opportunity after every grapheme) as one
    /// word, `Word.breaksAfterEveryGrapheme` set, with the run's last word's ends. A member
    /// has no hanging width, tab or mandatory break (nor a grapheme flagged so, nor an inline
    /// box), the run's font mask and local font, and its end is the previous word's end plus
    /// its grapheme's advance, bit for bit — what `LineBreaker` sums again to break inside the
    /// run (`PreparedText.Advances.OneFont`). Runs after phase 5b
    /// (which reads the words one by one).
    ///
    /// - Complexity: O(words of the paragraph), in place.
    static func mergeOneGraphemeWords(from wordStart: Int, graphemeStart: Int, into b: inout PreparedTextBuilder) {
        let n = b.words.count
        var k = wordStart, kept = wordStart
        var start = graphemeStart  // word k's first grapheme
        var previousEnd = 0.0  // word k − 1's end (0 at the paragraph's start)
        while k < n {
            var w = b.words[k]
            var last = k
            if isRunMember(w, start: start, previousEnd: previousEnd, b) {
                while last + 1 < n, b.words[last + 1].fontMask == w.fontMask,
                    b.graphemeFonts[Int(b.words[last].graphemeEnd)] == b.graphemeFonts[start],
                    isRunMember(b.words[last + 1], start: Int(b.words[last].graphemeEnd), previousEnd: b.words[last].end, b)
                {
                    last += 1
                }
                if last > k {
                    w = b.words[last]
                    w.breaksAfterEveryGrapheme = true
                }
            }
            previousEnd = b.words[last].end
            start = Int(b.words[last].graphemeEnd)
            b.words[kept] = w
            kept += 1
            k = last + 1
        }
        b.words.removeLast(n - kept)
    }

    /// Whether `w`, starting at grapheme `start` after a word ending at `previousEnd`, can be
    /// a member of a run (``mergeOneGraphemeWords(from:graphemeStart:into:)``).
    @inline(__always)
    private static func isRunMember(_ w: PreparedText.Word, start: Int, previousEnd: Double, _ b: PreparedTextBuilder) -> Bool {
        guard Int(w.graphemeEnd) == start + 1, w.hangingWidth.bitPattern == 0, !w.hasTab, !w.mandatoryBreakAfter,
            b.flags[start].isDisjoint(with: [.hangingSpace, .tab, .mandatoryBreakAfter, .inlineBox])
        else { return false }
        return (previousEnd + b.advance(start)).bitPattern == w.end.bitPattern && w.visibleEnd.bitPattern == w.end.bitPattern
    }
}

/// Per-cluster scratch of the paragraph being prepared: raw and resolved scripts, one byte
/// each (an index into the scripts seen, 0 for `.neutral`: Common/Inherited), indexed by text grapheme
/// index (`begin(at:)` sets where the paragraph starts); first scalars are decoded from the
/// paragraph's bytes when asked for (``attach(paragraph:base:ends:)``), not stored. Kept in the
/// preparer and reused from paragraph to paragraph (no allocation once grown; raw `Column`s,
/// so the append per cluster costs no uniqueness check). A copy shares the storage: read-only
/// copies are what the phases take; the preparer frees it (`deallocate`).
struct ParagraphScratch {
    private(set) var scripts = Column<UInt8>()
    private(set) var rawScripts = Column<UInt8>()
    /// The script tags the indexes stand for (index 0: `.neutral`).
    private var tags = Column<ScriptTag>()
    /// The tag appended last and its index (most clusters repeat the script before them).
    private var lastTag = ScriptTag.neutral, lastIndex: UInt8 = 0
    private var base = 0
    /// The paragraph's bytes, its byte offset in the text and the builder's grapheme ends.
    private var para = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
    private var byteBase: Int32 = 0
    private var ends = Column<Int32>()

    /// Empties the scratch for a paragraph whose first grapheme is `g`.
    mutating func begin(at g: Int) {
        base = g
        scripts.removeAll()
        if tags.count == 0 { tags.append(.neutral) }
    }

    /// Records the next cluster's raw script (`.neutral` = Common).
    @inline(__always)
    mutating func append(script: ScriptTag) {
        guard script != .neutral else {  // Common: spaces between words, not worth a look-up
            scripts.append(0)
            return
        }
        if script != lastTag { lastIndex = index(of: script); lastTag = script }
        scripts.append(lastIndex)
    }

    /// The index of `tag` in `tags`, added on first use (Unicode has under 256 scripts).
    private mutating func index(of tag: ScriptTag) -> UInt8 {
        for i in 0..<tags.count where tags[i] == tag { return UInt8(i) }
        precondition(tags.count < 256, "more than 255 scripts")
        tags.append(tag)
        return UInt8(tags.count - 1)
    }

    /// After phase 1: where the first scalars are read from (the paragraph's bytes, which
    /// start at text offset `base`, and the grapheme ends, complete for the paragraph).
    mutating func attach(paragraph: UnsafeBufferPointer<UInt8>, base: Int32, ends: Column<Int32>) {
        para = paragraph
        byteBase = base
        self.ends = ends
    }

    /// The (resolved, after phase 2) script of grapheme `g`.
    @inline(__always) subscript(g: Int) -> ScriptTag { tags[Int(scripts[g - base])] }
    /// Calls `body(g, script)` for the first grapheme of `graphemes` and for each one whose
    /// resolved script differs from the grapheme's before (indexes compared, one per tag).
    /// Eight graphemes at a time (one word compare), straight to the first that changes.
    ///
    /// - Complexity: O(graphemes / 8 + changes).
    @inline(__always)
    func forEachScriptChange(in graphemes: Range<Int>, _ body: (Int, ScriptTag) -> Void) {
        guard !graphemes.isEmpty else { return }
        let indexes = scripts.buffer
        var i = graphemes.lowerBound - base
        let end = graphemes.upperBound - base
        var last = indexes[i]
        body(i + base, tags[Int(last)])
        i += 1
        while i < end {
            if i + 8 <= end {
                let word = UInt64(
                    littleEndian: UnsafeRawPointer(indexes.baseAddress.unsafelyUnwrapped + i).loadUnaligned(as: UInt64.self))
                let differs = word ^ UInt64(last) &* 0x0101_0101_0101_0101
                if differs == 0 {
                    i += 8
                    continue
                }
                // The first byte that differs: the lowest one set (bytes in address order).
                i += differs.trailingZeroBitCount >> 3
            }
            let index = indexes[i]
            if index != last {
                last = index
                body(i + base, tags[Int(index)])
            }
            i += 1
        }
    }

    /// The raw script of grapheme `g` (kept only when a rule needs it, see `resolveScripts`).
    @inline(__always) func rawScript(_ g: Int) -> ScriptTag { tags[Int(rawScripts[g - base])] }
    /// The first scalar of grapheme `g` (U+FFFD for none), decoded from the paragraph.
    @inline(__always) func firstScalar(_ g: Int) -> UInt32 {
        let start = g == base ? 0 : Int(ends[g - 1] - byteBase)
        return Self.scalar(in: para, at: start)
    }

    /// The scalar at byte `i` of valid UTF-8 `text`, as `TextPreparer.decodeScalars` decodes it.
    @inline(__always)
    static func scalar(in text: UnsafeBufferPointer<UInt8>, at i: Int) -> UInt32 {
        let b0 = UInt32(text[i])
        if b0 < 0x80 { return b0 }
        var value: UInt32, length: Int
        if b0 < 0xE0 { value = b0 & 0x1F; length = 2 } else if b0 < 0xF0 { value = b0 & 0x0F; length = 3 } else { value = b0 & 0x07; length = 4 }
        var k = 1
        while k < length && i + k < text.count {
            value = value << 6 | (UInt32(text[i + k]) & 0x3F)
            k += 1
        }
        return Unicode.Scalar(value)?.value ?? 0xFFFD
    }

    /// Resolves Common scripts in place (``TextPreparer/resolveCommonScripts(_:firstScalars:pairsAll:)``),
    /// keeping a copy of the raw ones when `keepingRaw`.
    mutating func resolveScripts(pairsAll: Bool, keepingRaw: Bool) {
        if keepingRaw {
            rawScripts.removeAll()
            rawScripts.reserve(scripts.count)
            for i in 0..<scripts.count { rawScripts.append(scripts[i]) }
        }
        let me = self
        TextPreparer.resolveCommonScripts(
            UnsafeMutableBufferPointer(mutating: scripts.buffer), firstScalar: { me.firstScalar(me.base + $0) },
            pairsAll: pairsAll)
    }

    /// Frees the storage (the owning preparer's `deinit`, and after a long text).
    mutating func deallocate() {
        scripts.deallocate()
        rawScripts.deallocate()
        tags.deallocate()
        lastTag = .neutral
        lastIndex = 0
    }
}

/// Whether ``TextPreparer/buildWords(_:into:)``'s loop records re-shaped line ends: a type,
/// so each loop is specialised with its constant.
protocol LineEndReshaping {
    static var reshapes: Bool { get }
}

/// `LayoutConventions.reshapesLineEnds` set (chromium).
enum ReshapesLineEnds: LineEndReshaping {
    static var reshapes: Bool { @inline(__always) get { true } }
}

/// `LayoutConventions.reshapesLineEnds` unset.
enum KeepsLineEnds: LineEndReshaping {
    static var reshapes: Bool { @inline(__always) get { false } }
}
