import Glibc

/// The rules that `LayoutConventions` switches on in the preparer, each measured against its
/// engine: the break tailorings (`LayoutConventions.BreakTailoring`) applied after ICU, and the
/// neighbouring-font rule for spaces (`SpaceFontRule.neighbouringFont`). Called from the
/// preparer's phases 2 and 3 (`TextPreparer+Phases.swift`).
extension TextPreparer {
    /// Applies `tailoring` to the break opportunities of graphemes `range` (one paragraph,
    /// `para` its bytes from `base`), in a fixed order: LB19a, then Blink's rules, then Pango's.
    func applyBreakTailoring(
        _ tailoring: LayoutConventions.BreakTailoring, _ para: UnsafeBufferPointer<UInt8>, base: Int32,
        graphemes range: Range<Int>, firstScalars: ParagraphScratch, into b: inout PreparedTextBuilder
    ) {
        if tailoring.contains(.lb19aQuotes), Self.mayContainQuotationPunctuation(para) {
            addLB19aBreaks(graphemes: range, firstScalars: firstScalars, into: &b)
        }
        // Only graphemes flagged `.inlineBox` change: none without a box (most texts).
        if tailoring.contains(.aroundInlineBoxes) && b.hasInlineBoxes { addInlineBoxBreaks(graphemes: range, into: &b) }
        let blink: LayoutConventions.BreakTailoring = [.afterEverySpaceRun, .blinkASCIIPairs, .lb21aHebrewHyphen]
        let pango: LayoutConventions.BreakTailoring = [.afterSpacedHyphen, .afterPeriodFollowingSign]
        guard range.count >= 2 else { return }
        if !tailoring.isDisjoint(with: blink.union(pango)) {
            let ascii = ASCIIClusters(para: para, base: base, first: range.lowerBound, ends: b.graphemeEnds)
            if !tailoring.isDisjoint(with: blink) {
                addBlinkBreaks(tailoring, ascii, graphemes: range, into: &b)
            }
            if !tailoring.isDisjoint(with: pango) {
                addPangoBreaks(tailoring, ascii, graphemes: range, into: &b)
            }
        }
        let css: LayoutConventions.BreakTailoring = [.everyCluster, .betweenLetters, .keepsCJKWords]
        if !tailoring.isDisjoint(with: css) {
            applyCSSWordBreaking(tailoring, graphemes: range, firstScalars: firstScalars, into: &b)
        }
    }

    /// The style's CSS breaking on top of the rules (a style option, not a profile's habit):
    /// `line-break: anywhere` breaks between every two clusters (not before a space, which
    /// hangs), `word-break: break-all` between two letters or digits, `keep-all` never between
    /// two CJK letters (ideographs, kana, Hangul syllables and jamo).
    ///
    /// - Complexity: O(graphemes), one first-scalar property look-up per cluster.
    private func applyCSSWordBreaking(
        _ tailoring: LayoutConventions.BreakTailoring, graphemes range: Range<Int>, firstScalars: ParagraphScratch,
        into b: inout PreparedTextBuilder
    ) {
        func scalar(_ g: Int) -> Unicode.Scalar { Unicode.Scalar(firstScalars.firstScalar(g)) ?? "\u{FFFD}" }
        for g in range.lowerBound..<(range.upperBound - 1) where !b.flags[g + 1].contains(.hangingSpace) {
            if tailoring.contains(.everyCluster) {
                b.flags[g].insert(.breakAfter)
                continue
            }
            if b.flags[g].contains(.hangingSpace) || b.flags[g].contains(.mandatoryBreakAfter) { continue }
            let (a, c) = (scalar(g), scalar(g + 1))
            if tailoring.contains(.betweenLetters), Self.isLetterOrDigit(a), Self.isLetterOrDigit(c) {
                b.flags[g].insert(.breakAfter)
            } else if tailoring.contains(.keepsCJKWords), Self.isCJKLetter(a), Self.isCJKLetter(c) {
                b.flags[g].remove(.breakAfter)
            }
        }
    }

    /// A letter (L*) or a digit (Nd, Nl, No).
    static func isLetterOrDigit(_ s: Unicode.Scalar) -> Bool {
        switch s.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .decimalNumber, .letterNumber, .otherNumber:
            return true
        default:
            return false
        }
    }

    /// A CJK letter: a letter (L*) of the East Asian ranges (`ClusterClassifier.isCJK`):
    /// ideographs, kana, Hangul; not their punctuation.
    static func isCJKLetter(_ s: Unicode.Scalar) -> Bool {
        switch s.properties.generalCategory {
        case .otherLetter, .modifierLetter: ClusterClassifier.isCJK(s)
        default: false
        }
    }

    /// A break on both sides of every inline box (CSS atomic inlines), not at the paragraph's
    /// ends, and not before a space (which hangs; Chromium 156 has no break there either).
    private func addInlineBoxBreaks(graphemes range: Range<Int>, into b: inout PreparedTextBuilder) {
        for g in range where b.flags[g].contains(.inlineBox) {
            if g + 1 < range.upperBound && !b.flags[g + 1].contains(.hangingSpace) { b.flags[g].insert(.breakAfter) }
            if g > range.lowerBound { b.flags[g - 1].insert(.breakAfter) }
        }
    }

    /// Whether `utf8` may hold an initial or final quotation mark (Pi, Pf): every one is
    /// U+00AB, U+00BB or in U+2018–U+2E21, so its UTF-8 lead byte is 0xC2 or 0xE2
    /// (`ConventionRuleTests` checks every scalar); text without either byte (ASCII, most
    /// CJK) skips LB19a's scan of every cluster.
    ///
    /// - Complexity: O(n): eight bytes per step (``Paragraphs/hasByte(_:in:)``), then byte
    ///   compares for the last few.
    static func mayContainQuotationPunctuation(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = utf8.baseAddress else { return false }
        let n = utf8.count
        var i = 0
        while i + 8 <= n {
            let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
            if Paragraphs.hasByte(0xC2, in: word) | Paragraphs.hasByte(0xE2, in: word) != 0 { return true }
            i += 8
        }
        while i < n {
            if base[i] == 0xC2 || base[i] == 0xE2 { return true }
            i += 1
        }
        return false
    }

    /// Unicode 15.1's LB19a, which ICU 72 predates: an initial quotation mark (Pi) between two
    /// East Asian characters may start a line (`中文|“引用”`), and a final one (Pf) between two
    /// East Asian characters may end one (`”|中文`). ASCII quotes are unaffected (neither Pi nor
    /// Pf). East Asian = the CJK ranges of `ClusterClassifier.isCJK` (wide and full-width).
    /// LB19a only lifts LB19's ban around quotes: the rules above it still hold, so no break
    /// comes before closing punctuation (`”，` and `”。` stay together, LB13) or after an
    /// opening bracket (`（“`, LB14), as in Chromium (``BreakIterators/forbidsBreak(before:)``).
    private func addLB19aBreaks(graphemes range: Range<Int>, firstScalars: ParagraphScratch, into b: inout PreparedTextBuilder) {
        guard range.count >= 3 else { return }
        func scalar(_ g: Int) -> Unicode.Scalar? { Unicode.Scalar(firstScalars.firstScalar(g)) }
        func eastAsian(_ s: Unicode.Scalar?) -> Bool { s.map(ClusterClassifier.isCJK) ?? false }
        // Each first scalar decoded once: (g − 1, g, g + 1) roll along.
        var before = scalar(range.lowerBound), current = scalar(range.lowerBound + 1)
        for g in (range.lowerBound + 1)..<(range.upperBound - 1) {
            let after = scalar(g + 1)
            defer { before = current; current = after }
            // Every Pi and Pf character lies in U+00AB–U+2E21 (Unicode 15): one range test
            // before the neighbours and the property look-up.
            guard let s = current, s.value >= 0xAB && s.value <= 0x2E21, eastAsian(before), eastAsian(after) else { continue }
            switch s.properties.generalCategory {
            case .initialPunctuation where !BreakIterators.forbidsBreak(after: before!): b.flags[g - 1].insert(.breakAfter)
            case .finalPunctuation where !BreakIterators.forbidsBreak(before: after!): b.flags[g].insert(.breakAfter)
            default: break
            }
        }
    }

    /// Blink's tailoring of ICU, measured in Chromium (every printable ASCII pair probed in
    /// isolation, then checked on the corpus), each rule behind its knob:
    /// - `afterEverySpaceRun`: a break after every run of spaces (unless a no-break space
    ///   follows);
    /// - `blinkASCIIPairs`: between two printable ASCII characters ICU is not asked at all: the
    ///   only breaks are those of ``chromiumASCIIBreak(_:_:_:)``;
    /// - `lb21aHebrewHyphen`: Unicode 15.1's LB21a (Chromium's ICU is newer than the system's):
    ///   after a Hebrew letter and a hyphen (`-` or maqaf `־`) a break is allowed before
    ///   another Hebrew letter (`אל־|חמרה`).
    private func addBlinkBreaks(
        _ tailoring: LayoutConventions.BreakTailoring, _ ascii: ASCIIClusters, graphemes range: Range<Int>,
        into b: inout PreparedTextBuilder
    ) {
        let byte = ascii.byte
        let spaceRuns = tailoring.contains(.afterEverySpaceRun)
        let asciiPairs = tailoring.contains(.blinkASCIIPairs)
        let hebrew = tailoring.contains(.lb21aHebrewHyphen)
        func isSpace(_ g: Int) -> Bool { b.flags[g].contains(.hangingSpace) }
        // Cluster g's first byte is at `start` (the previous cluster's end, carried), the next
        // cluster's at g's end: one load of the ends per cluster, not two, and no overflow
        // checks (offsets fit in Int32).
        guard let ends = ascii.ends.base, let para = ascii.para.baseAddress else { return }
        var start = 0
        for g in range.lowerBound..<(range.upperBound - 1) {
            let end = Int(ends[g] &- ascii.base)
            defer { start = end }
            let flags = b.flags[g]
            if flags.contains(.hangingSpace) {
                if spaceRuns && !isSpace(g + 1) && !ascii.isNoBreakSpace(g + 1) { b.flags[g].insert(.breakAfter) }
                continue
            }
            // Without a break after g, the rules below can only add one after `-`, `?` or a
            // maqaf (lead byte 0xD6), or before an opening bracket: any other pair is left
            // as it is (removing an absent break changes nothing).
            if !flags.contains(.breakAfter) {
                guard ASCIIClusters.mayBreakAfter(lead: para[start], nextLead: para[end]) else { continue }
            }
            let lead = para[start]
            // A one-byte cluster is its lead byte (`byte(g)` without the ends).
            if asciiPairs, end &- start == 1, ASCIIClusters.isPrintable(lead), let next = byte(g + 1),
                ASCIIClusters.isPrintable(next)
            {
                let c = lead
                let before = g > range.lowerBound ? byte(g - 1) : nil
                if Self.chromiumASCIIBreak(before, c, next) {
                    b.flags[g].insert(.breakAfter)
                } else {
                    b.flags[g].remove(.breakAfter)
                }
            } else if hebrew, lead == UInt8(ascii: "-") || lead == 0xD6,  // the maqaf's lead byte
                g > range.lowerBound, ascii.isHebrewLetter(g - 1),
                ascii.isMaqaf(g) || byte(g) == UInt8(ascii: "-"), ascii.isHebrewLetter(g + 1)
            {
                b.flags[g].insert(.breakAfter)
            }
        }
    }

    /// Whether Chromium breaks between two printable ASCII characters `c` | `next` (`before` is
    /// the character before `c`, if ASCII). Measured by probing all 94 × 94 pairs in Chromium
    /// (Tests/Conformance/chromium_ascii_pairs.json, checked by a test); Blink takes these from
    /// its own table instead of ICU, for compatibility with older browsers:
    /// - after `-`, except before closing or terminal punctuation (`! $ ) , . / : ; ? ] }`), and
    ///   before a digit only when a letter or digit precedes the `-` (`base-|256`, but `-1`,
    ///   `x -1` keep the minus sign);
    /// - after `?`, except before `! " ' ) , . / : ; ? ] }`;
    /// - before an opening bracket `( < [ {` after punctuation that ends something
    ///   (`! " # % & ) * + , . : ; = > \ ] | } ~`, and `-`, `?` as above);
    /// - nowhere else: not after `/`, not between letters and digits, not inside `%d%%`.
    static func chromiumASCIIBreak(_ before: UInt8?, _ c: UInt8, _ next: UInt8) -> Bool {
        switch c {
        case UInt8(ascii: "-"):
            if ASCIIClusters.isDigit(next) { return ASCIIClusters.isLetterOrDigit(before) }
            return !chromiumNoBreakAfterHyphen.contains(next)
        case UInt8(ascii: "?"):
            return !chromiumNoBreakAfterQuestionMark.contains(next)
        default:
            return chromiumOpeningBrackets.contains(next) && chromiumBreaksBeforeOpening.contains(c)
        }
    }

    private static let chromiumNoBreakAfterHyphen = ASCIISet("!$),./:;?]}")
    private static let chromiumNoBreakAfterQuestionMark = ASCIISet("!\"'),./:;?]}")
    private static let chromiumOpeningBrackets = ASCIISet("(<[{")
    private static let chromiumBreaksBeforeOpening = ASCIISet("!\"#%&)*+,.:;=>\\]|}~")

    /// Break opportunities Pango 1.50 has and ICU 72 does not (measured on the corpus):
    /// - `afterSpacedHyphen`: after a hyphen-minus that follows a space and precedes a letter
    ///   or digit (`sort -` / `u`);
    /// - `afterPeriodFollowingSign`: after `.` between a prefix/postfix sign and a digit
    ///   (`%.` / `250s`, `$.` / `250s`): Pango's UAX #14 applies "IS × NU" only inside numbers.
    /// An inline box before the hyphen or the period counts as the space or the sign (Pango
    /// 1.50: `▣-|x`, `▣.|25`).
    private func addPangoBreaks(
        _ tailoring: LayoutConventions.BreakTailoring, _ ascii: ASCIIClusters, graphemes range: Range<Int>,
        into b: inout PreparedTextBuilder
    ) {
        let spacedHyphen = tailoring.contains(.afterSpacedHyphen)
        let periodAfterSign = tailoring.contains(.afterPeriodFollowingSign)
        let byte = ascii.byte
        // A non-ASCII cluster counts as a letter of some script.
        func isAlnum(_ c: UInt8?) -> Bool { c.map { ASCIIClusters.isLetterOrDigit($0) } ?? true }
        let hyphen = UInt8(ascii: "-")
        let period = UInt8(ascii: ".")
        let percent = UInt8(ascii: "%")
        let dollar = UInt8(ascii: "$")
        func isLetter(_ c: UInt8?) -> Bool { isAlnum(c) && !(c.map(ASCIIClusters.isDigit) ?? false) }
        // Both rules act only at a `-` or `.` cluster: the bytes are searched for those
        // (`memchr`), and only the clusters holding one are looked at (graphemes walked once,
        // in step).
        var g = range.lowerBound
        var nextHyphen = Self.offset(of: hyphen, in: ascii.para, from: 0)
        var nextPeriod = Self.offset(of: period, in: ascii.para, from: 0)
        while true {
            let j = min(nextHyphen, nextPeriod)
            guard j < ascii.para.count else { return }
            if j == nextHyphen {
                nextHyphen = Self.offset(of: hyphen, in: ascii.para, from: j + 1)
            } else {
                nextPeriod = Self.offset(of: period, in: ascii.para, from: j + 1)
            }
            while g < range.upperBound && Int(b.graphemeEnds[g] - ascii.base) <= j { g += 1 }
            guard g < range.upperBound - 1 else { return }
            let c = byte(g)
            guard c == hyphen || c == period else { continue }
            let spaceBefore = g > range.lowerBound && b.flags[g - 1].contains(.hangingSpace)
            // An inline box counts as a space before a hyphen (then only before a letter:
            // `▣-|x` but `▣-1`) and as a sign before a period (`▣.|25`).
            let boxBefore = g > range.lowerBound && b.flags[g - 1].contains(.inlineBox)
            if c == hyphen && (spaceBefore && isAlnum(byte(g + 1)) || boxBefore && isLetter(byte(g + 1))) {
                if spacedHyphen { b.flags[g].insert(.breakAfter) }
            } else if periodAfterSign, c == period, g > range.lowerBound, let next = byte(g + 1),
                boxBefore || byte(g - 1) == percent || byte(g - 1) == dollar, ASCIIClusters.isDigit(next)
            {
                b.flags[g].insert(.breakAfter)
            }
        }
    }

    /// The offset of the first `byte` in `bytes` at or after `from`, or `bytes.count`.
    ///
    /// - Complexity: O(n), `memchr`.
    private static func offset(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from: Int) -> Int {
        guard let base = bytes.baseAddress, from < bytes.count,
            let found = memchr(base + from, Int32(byte), bytes.count - from)
        else { return bytes.count }
        return UnsafeRawPointer(found) - UnsafeRawPointer(base)
    }

    /// Pango's font choice for runs of spaces (measured against Pango 1.50): spaces belong to
    /// the script run of the cluster before them; within that run they take the "better" of
    /// the fonts before and after them, the one earlier in the font set (the cascade, then
    /// fallbacks). So `ない %s` → `ない` | ` %s` (Common `%` in the first cascade font) and
    /// `є так` → `є` | ` так` (same Cyrillic run, `т` in the cascade, `є` a fallback), but
    /// `ない a` → `ない ` | `a` (Latin starts a new run) and `option ，` → `option ` | `，`.
    /// Leading spaces take the next cluster's font; spaces before an emoji that start a bidi
    /// run of their own (``spacesStartABidiRun(_:_:in:scripts:paragraph:)``: Pango starts a
    /// new item there) take the cascade's first font; a color (emoji) font never shapes
    /// spaces; a font without a space glyph is skipped.
    ///
    /// - Parameter scripts: the clusters' own (raw, 0 = Common) and resolved scripts.
    func applyNeighbouringSpaceFonts(
        graphemes range: Range<Int>, scripts: ParagraphScratch, paragraph: UnsafeBufferPointer<UInt8>,
        into b: inout PreparedTextBuilder
    ) {
        // Fields of the entry, not a copy of it (a copy retains the shared font).
        func usable(_ local: UInt8) -> Bool { b.fontList[Int(local)].takesSpaces }
        func rank(_ local: UInt8) -> Int {
            let font = b.fontList[Int(local)].font
            return b.cascade(ofLocal: local).fonts.firstIndex { $0 === font } ?? Int.max
        }
        // The rule never reaches across a style run: spaces and their neighbours must share
        // a run style (group), as Pango itemizes at every attribute change.
        func group(_ k: Int) -> Int32 { b.fontList[Int(b.graphemeFonts[k])].group }
        // One face for the whole text: every choice below is that face (most Latin cells).
        guard b.fontList.count > 1 else { return }
        var g = range.lowerBound
        while g < range.upperBound {
            guard b.flags[g].contains(.hangingSpace), !b.flags[g].contains(.tab) else {
                g += 1
                continue
            }
            let own = group(g)
            var end = g
            while end < range.upperBound && b.flags[end].contains(.hangingSpace) && !b.flags[end].contains(.tab)
                && group(end) == own
            {
                end += 1
            }
            let before: UInt8? = g > range.lowerBound && group(g - 1) == own ? b.graphemeFonts[g - 1] : nil
            let after: UInt8? = end < range.upperBound && group(end) == own ? b.graphemeFonts[end] : nil
            // Spaces already in the face on both sides (or before a paragraph's end) keep it,
            // unless that face draws colour glyphs (the emoji case below).
            let spaces = b.graphemeFonts[g]
            if before == spaces, after == nil || after == spaces, !b.fontList[Int(spaces)].drawsColor {
                g = end
                continue
            }
            var chosen: UInt8? = nil
            if let after, b.fontList[Int(after)].drawsColor, own == 0, usable(0),
                Self.spacesStartABidiRun(g, end, in: range, scripts: scripts, paragraph: paragraph)
            {
                // Spaces in a new item (the emoji is one of its own) get the cascade's first font.
                chosen = 0
            } else if let before, usable(before) {
                chosen = before
                if let after, usable(after), rank(after) < rank(before) {
                    let nextRaw = scripts.rawScript(end)
                    let spaceRun = scripts[g]
                    if nextRaw == .neutral || nextRaw == spaceRun { chosen = after }
                }
            } else if let after, usable(after) {
                chosen = after
            }
            if let chosen {
                for k in g..<end { b.graphemeFonts[k] = chosen }
            }
            g = end
        }
    }

    /// Whether the spaces `start..<end` (before an emoji or other neutrals) resolve to another
    /// bidi direction than the cluster before them, so that they begin a bidi run of their own
    /// (UAX #9 N1–N2, with each cluster's direction read from its script: neutrals between
    /// two strong clusters of one direction take it, others the paragraph's). A cluster of
    /// Common script before them (a digit, punctuation, an emoji) counts as a change.
    ///
    /// - Complexity: O(clusters after `end` up to the next strong one); the paragraph's own
    ///   direction (its first strong character) only when the neighbours disagree.
    static func spacesStartABidiRun(
        _ start: Int, _ end: Int, in range: Range<Int>, scripts: ParagraphScratch, paragraph: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        guard start > range.lowerBound, let before = UnicodeScript.isRightToLeft(scripts.rawScript(start - 1)) else {
            return true
        }
        var next: Bool? = nil
        var k = end
        while k < range.upperBound, next == nil {
            next = UnicodeScript.isRightToLeft(scripts.rawScript(k))
            k += 1
        }
        if next == before { return false }
        let paragraphIsRightToLeft = Bidi.firstStrongDirection(paragraph) == .rightToLeft
        return paragraphIsRightToLeft != before
    }
}
