import Glibc

/// What the preparer needs to find a text's hyphenation points: the resolved mode, the
/// profile's rule and, for `auto`, the dictionary.
///
/// - Thread safety: a value type over an immutable dictionary.
struct HyphenationRequest: Sendable {
    var mode: Hyphenation
    var rule: LayoutConventions.HyphenRule
    /// The dictionary `auto` hyphenates with (nil: soft hyphens only).
    var dictionary: HyphenationDictionary?
    /// Whether the language is English (Blink hyphenates no capitalized English word).
    var isEnglish = false

    /// The profile's default mode, no dictionary.
    init(conventions: LayoutConventions) {
        self.init(mode: conventions.hyphens.defaultMode, rule: conventions.hyphens, dictionary: nil)
    }

    init(mode: Hyphenation, rule: LayoutConventions.HyphenRule, dictionary: HyphenationDictionary?, isEnglish: Bool = false) {
        self.mode = mode
        self.rule = rule
        self.dictionary = dictionary
        self.isEnglish = isEnglish
    }

    /// Whether phase 3b has anything to do for a paragraph without soft hyphens.
    var looksInsideWords: Bool { dictionary != nil || (mode != .none && rule.hyphenatesCuts) }
}

extension SanitizedStyle {
    /// The hyphenation the preparer applies (the dictionary looked up once per process).
    var hyphenationRequest: HyphenationRequest {
        let language = hyphenationLanguage
        return HyphenationRequest(
            mode: hyphenation, rule: conventions.hyphens,
            dictionary: language.flatMap(HyphenationDictionaries.dictionary(for:)),
            isEnglish: language.map { $0.lowercased() == "en" || $0.lowercased().hasPrefix("en-") || $0.lowercased().hasPrefix("en_") } ?? false)
    }
}

extension TextPreparer {
    // MARK: 3b. Hyphenation points

    /// Phase 3b: where a line end shows a hyphen (`PreparedTextBuilder.hyphens`), per the
    /// request's mode and the profile's rule (`LayoutConventions.HyphenRule`):
    ///
    /// - after a soft hyphen (U+00AD) that ends a break opportunity — under `none` the
    ///   opportunity goes, unless the rule keeps it (Pango, which then shows no hyphen);
    /// - with a dictionary (`auto`: the word's run's language, else the style's), inside each
    ///   word of letters without a soft hyphen, at the dictionary's points: new break
    ///   opportunities;
    /// - with `hyphenatesCuts` (Pango), between two letters of a script other than Han,
    ///   Hangul and kana: not an opportunity, only where an overlong word is cut.
    ///
    /// - Complexity: O(graphemes) of the paragraph when it has a soft hyphen or the request
    ///   looks inside words; O(bytes / 8) to find that it has neither.
    func markHyphenationPoints(_ input: ParagraphInput, _ request: HyphenationRequest, into b: inout PreparedTextBuilder) {
        b.paragraphHasSoftHyphen = Self.containsSoftHyphen(input.paragraph)
        guard request.looksInsideWords || !b.runDictionaries.isEmpty || b.paragraphHasSoftHyphen else { return }
        let range = input.graphemes
        let scalars = scratch.paragraph
        // The dictionary of the run holding grapheme `g` (words come in order).
        var run = input.firstRun
        func dictionary(at g: Int, _ b: PreparedTextBuilder) -> HyphenationDictionary? {
            guard !b.runDictionaries.isEmpty else { return request.dictionary }
            let byte = Int(b.graphemeStart(g))
            while run + 1 < input.runs.count && input.runs[run].byteEnd <= byte { run += 1 }
            return b.runDictionaries[run]
        }
        var g = range.lowerBound
        while g < range.upperBound {
            let c = scalars.firstScalar(g)
            guard c == 0xAD || Self.isWordCharacter(c) else {
                g += 1
                continue
            }
            // A word: letters, marks, digits and soft hyphens (UAX #29 keeps letters and
            // digits together).
            var end = g
            var hasSoftHyphen = false, hasDigit = false, hasCJK = false
            while end < range.upperBound {
                let next = scalars.firstScalar(end)
                guard next == 0xAD || Self.isWordCharacter(next) else { break }
                if next == 0xAD { hasSoftHyphen = true }
                if !Self.isWordLetter(next) && next != 0xAD { hasDigit = true }
                if next >= 0x1100 && Self.isCJK(scalars[end]) { hasCJK = true }
                end += 1
            }
            // No dictionary hyphenates Han, Hangul or kana (they break between characters).
            if !hasSoftHyphen && !hasDigit && !hasCJK, let dictionary = dictionary(at: g, b) {
                addDictionaryPoints(g..<end, dictionary, request, input, into: &b)
            } else {
                addWordPoints(g..<end, request, input, into: &b)
            }
            g = end
        }
    }

    /// A word's soft-hyphen points (or the removal of their opportunities under `none`) and,
    /// with `hyphenatesCuts`, Pango's cut points: after every letter but the word's last
    /// whose script is not Han, Hangul, Hiragana or Katakana, and after a soft hyphen that
    /// ends no opportunity.
    private func addWordPoints(_ word: Range<Int>, _ request: HyphenationRequest, _ input: ParagraphInput, into b: inout PreparedTextBuilder) {
        let rule = request.rule
        let cuts = request.mode != .none && rule.hyphenatesCuts
        let scalars = scratch.paragraph
        for g in word {
            let opportunity = b.flags[g].contains(.breakAfter) && !b.flags[g].contains(.mandatoryBreakAfter)
            if scalars.firstScalar(g) == 0xAD {
                addSoftHyphenPoint(g, word: word, opportunity: opportunity, request, input, into: &b)
            } else if cuts && g + 1 < word.upperBound && !opportunity && Self.hyphenatesCuts(after: scalars[g]) {
                addPoint(after: g, source: g, .cut, input.graphemes, rule, into: &b)
            }
        }
    }

    /// The point of the soft hyphen at grapheme `g` of `word` (see ``addWordPoints(_:_:_:into:)``).
    private func addSoftHyphenPoint(
        _ g: Int, word: Range<Int>, opportunity: Bool, _ request: HyphenationRequest, _ input: ParagraphInput,
        into b: inout PreparedTextBuilder
    ) {
        let rule = request.rule
        let paragraph = input.graphemes
        guard request.mode != .none else {
            if !rule.noneKeepsSoftHyphenBreaks && opportunity { b.flags[g].remove(.breakAfter) }
            // Blink still draws a hyphen where an overflow-wrap cut follows U+00AD.
            if rule.softHyphenBeforeSpacesShows && g + 1 < paragraph.upperBound {
                addPoint(after: g, source: g, .softHyphenCut, paragraph, rule, into: &b)
            }
            return
        }
        if opportunity {
            if !rule.softHyphenNeedsWordNeighbours || Self.isBetweenWordCharacters(g, paragraph, scratch.paragraph) {
                addPoint(after: g, source: g, .softHyphen, paragraph, rule, into: &b)
            }
        } else if rule.softHyphenBeforeSpacesShows && g + 1 == word.upperBound {
            // Blink: the text before the line's hanging spaces, or the paragraph's, ends with
            // U+00AD, so the line needs room for the hyphen (drawn unless the text ends there).
            if g + 1 == paragraph.upperBound {
                addPoint(after: g, source: g, .softHyphen, paragraph, rule, into: &b)
                return
            }
            // The hanging spaces after it, up to the one that ends the opportunity.
            var end = g + 1
            while end < paragraph.upperBound && b.flags[end].contains(.hangingSpace) && !b.flags[end].contains(.breakAfter) {
                end += 1
            }
            if end < paragraph.upperBound, b.flags[end].contains(.hangingSpace), b.flags[end].contains(.breakAfter),
                !b.flags[end].contains(.mandatoryBreakAfter)
            {
                addPoint(after: g, source: g, .softHyphenCut, paragraph, rule, into: &b)
                addPoint(after: end, source: g, .softHyphen, paragraph, rule, into: &b)
            }
        } else if rule.hyphenatesCuts && g + 1 < word.upperBound {
            addPoint(after: g, source: g, .cut, paragraph, rule, into: &b)
        }
    }

    /// Whether Pango inserts a hyphen where a word is cut after a letter of `script`.
    private static func hyphenatesCuts(after script: ScriptTag) -> Bool { script != .neutral && !isCJK(script) }

    /// A word's dictionary points: new break opportunities, each a point (see
    /// ``markHyphenationPoints(_:_:into:)``).
    private func addDictionaryPoints(
        _ word: Range<Int>, _ dictionary: HyphenationDictionary, _ request: HyphenationRequest, _ input: ParagraphInput,
        into b: inout PreparedTextBuilder
    ) {
        let rule = request.rule
        guard word.count >= max(2, rule.minimumWordLength), word.count <= HyphenationDictionary.maximumWordLength else { return }
        let scalars = scratch.paragraph
        let first = Unicode.Scalar(scalars.firstScalar(word.lowerBound)) ?? " "
        if request.isEnglish && !rule.hyphenatesCapitalizedEnglish && first.properties.isUppercase { return }
        // The word on the stack; the memo allocates only its key.
        let points = withUnsafeTemporaryAllocation(of: UInt32.self, capacity: word.count) { lower in
            for (i, g) in word.enumerated() { lower[i] = Self.lowercasedScalar(scalars.firstScalar(g)) }
            return hyphenationMemo.points(
                of: UnsafeBufferPointer(lower), in: dictionary, leftMinimum: rule.minimumPrefix, rightMinimum: rule.minimumSuffix)
        }
        guard let points else { return }
        for (i, g) in word.enumerated() where points[i] != 0 && g + 1 < word.upperBound {
            b.flags[g].insert(.breakAfter)
            addPoint(after: g, source: g, .dictionary, input.graphemes, rule, into: &b)
        }
    }

    /// `c` lowercased when that is one scalar (the dictionaries' patterns are lowercase).
    @inline(__always)
    static func lowercasedScalar(_ c: UInt32) -> UInt32 {
        if c < 0x80 { return c >= 0x41 && c <= 0x5A ? c | 0x20 : c }
        guard let s = Unicode.Scalar(c) else { return c }
        let mapped = s.properties.lowercaseMapping.unicodeScalars
        return mapped.count == 1 ? mapped.first!.value : c
    }

    /// Records a point after grapheme `g` whose hyphen follows the text of grapheme `source`
    /// (the soft hyphen's, or the letter's before the point).
    private func addPoint(
        after g: Int, source: Int, _ kind: HyphenPoints.Kind, _ paragraph: Range<Int>, _ rule: LayoutConventions.HyphenRule,
        into b: inout PreparedTextBuilder
    ) {
        let (width, face) = hyphen(after: source, paragraph, &b, rule)
        b.hyphens.append(after: Int32(g), width: width, kind: kind, face: face)
    }

    /// The hyphen after grapheme `g`: its face and advance, rounded up to the rule's unit. In
    /// the font of the text before a soft hyphen (the soft hyphen's own otherwise), or the
    /// first font of that text's cascade with U+2010 (``LayoutConventions/HyphenRule/HyphenFont``),
    /// at that text's size and letter spacing; once per font of the text
    /// (`PreparedTextBuilder.hyphenWidths`).
    private func hyphen(
        after g: Int, _ paragraph: Range<Int>, _ b: inout PreparedTextBuilder, _ rule: LayoutConventions.HyphenRule
    ) -> (width: Double, face: Font) {
        let source = g > paragraph.lowerBound && scratch.paragraph.firstScalar(g) == 0xAD ? g - 1 : g
        let local = Int(b.graphemeFonts[source])
        if local < b.hyphenWidths.count, let known = b.hyphenWidths[local] { return known }
        let entry = b.fontList[local]
        var font = entry.font
        var width = entry.scale.points(units: Shaper.hyphenUnits(font: font))
        if rule.hyphenFont == .styleCascade, entry.box == nil {
            let (style, cascade) = b.groups[Int(entry.group)]
            font = cascade.fonts.first { Shaper.hyphenScalar(font: $0) == 0x2010 } ?? cascade.primary
            let scale = PreparedTextBuilder.FontEntry(font, style: style, group: entry.group, freeTypeScaling: b.scalesLikeFreeType).scale
            width = scale.points(units: Shaper.hyphenUnits(font: font))
        }
        if rule.widthUnit > 0 { width = (width / rule.widthUnit).rounded(.up) * rule.widthUnit }
        if local >= b.hyphenWidths.count { b.hyphenWidths += Array(repeating: nil, count: local + 1 - b.hyphenWidths.count) }
        b.hyphenWidths[local] = (width, font)
        return (width, font)
    }

    /// Whether the soft hyphen at grapheme `g` stands between two word characters, the one
    /// before it (other soft hyphens skipped) not Han, Hangul or kana: where Pango shows its
    /// hyphen (no word boundary after it, `break_inserts_hyphen`).
    private static func isBetweenWordCharacters(_ g: Int, _ paragraph: Range<Int>, _ scripts: ParagraphScratch) -> Bool {
        var before = g - 1
        while before >= paragraph.lowerBound && scripts.firstScalar(before) == 0xAD { before -= 1 }
        guard before >= paragraph.lowerBound, g + 1 < paragraph.upperBound else { return false }
        return isWordCharacter(scripts.firstScalar(before)) && isWordCharacter(scripts.firstScalar(g + 1))
            && !isCJK(scripts[before]) && !isCJK(scripts[g + 1])
    }

    /// Whether `script` is Han, Hangul, Hiragana or Katakana (no hyphen after a soft hyphen
    /// there in Pango).
    private static func isCJK(_ script: ScriptTag) -> Bool {
        script == .han || script == .hangul || script == .hiragana || script == .katakana
    }

    /// Whether `c` is a letter, a combining mark or a decimal digit (what UAX #29 keeps in a
    /// word).
    @inline(__always)
    static func isWordCharacter(_ c: UInt32) -> Bool {
        if c >= 0x30 && c <= 0x39 { return true }
        if isWordLetter(c) { return true }
        return c >= 0x80 && Unicode.Scalar(c)?.properties.numericType == .decimal
    }

    /// Whether `c` continues a word for hyphenation: a letter or a combining mark.
    ///
    /// - Complexity: O(1); a range check for Latin, Greek, Cyrillic, kana, Han and Hangul,
    ///   else one Unicode property look-up.
    @inline(__always)
    static func isWordLetter(_ c: UInt32) -> Bool {
        if c < 0x80 { return (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A }
        switch c {
        case 0xC0...0x24F: return c != 0xD7 && c != 0xF7
        case 0x391...0x3A9, 0x3AC...0x3CE, 0x400...0x481, 0x48A...0x52F, 0x3041...0x3096, 0x30A1...0x30FA,
            0x4E00...0x9FFF, 0xAC00...0xD7A3:
            return true
        default: break
        }
        guard let s = Unicode.Scalar(c) else { return false }
        switch s.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .nonspacingMark,
            .spacingMark, .enclosingMark:
            return true
        default: return false
        }
    }

    /// Whether UTF-8 `text` contains U+00AD (C2 AD).
    ///
    /// - Complexity: O(n), a byte search.
    static func containsSoftHyphen(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = text.baseAddress else { return false }
        var from = 0
        while from + 1 < text.count, let found = memchr(base + from, 0xC2, text.count - from - 1) {
            let i = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            if text[i + 1] == 0xAD { return true }
            from = i + 1
        }
        return false
    }
}
