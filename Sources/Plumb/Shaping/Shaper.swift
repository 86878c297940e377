internal import CHarfBuzz

/// Shapes one segment (a run of text in one font and script) with HarfBuzz and reports the
/// advance of each grapheme cluster in font units.
///
/// One `Shaper` per worker: it owns an `hb_buffer_t` (HarfBuzz buffers are not thread-safe;
/// fonts are shared immutably). Not `Sendable` on purpose.
final class Shaper {
    private let buffer: OpaquePointer

    init() {
        guard let b = hb_buffer_create() else { fatalError("hb_buffer_create failed") }
        // Keep clusters at grapheme granularity so every glyph maps to one cluster.
        hb_buffer_set_cluster_level(b, HB_BUFFER_CLUSTER_LEVEL_MONOTONE_GRAPHEMES)
        buffer = b
    }

    deinit {
        hb_buffer_destroy(buffer)
        for entry in plans { hb_shape_plan_destroy(entry.plan) }
    }

    /// Shape plans this shaper has used, by font id (process-unique, never reused: a face
    /// pointer could be) and segment properties: `hb_shape` looks the plan up in the face's
    /// shared list on every call (`hb_shape_plan_create_cached2`);
    /// a segment is shaped with the very plan it would pick. At most `maximumPlans`.
    // Exclusivity checked at run time in debug builds only, as `TextPreparer.scratch` (a
    // shaper belongs to one worker): checked, every access is a `swift_beginAccess` call.
    #if DEBUG
    private var plans: [(font: Int, props: hb_segment_properties_t, plan: OpaquePointer)] = []
    private var lastPlan = -1
    #else
    @exclusivity(unchecked) private var plans: [(font: Int, props: hb_segment_properties_t, plan: OpaquePointer)] = []
    @exclusivity(unchecked) private var lastPlan = -1
    #endif
    private static let maximumPlans = 64

    /// The language to shape with: the script's sample language, or the document's ("en"),
    /// as Chromium does for an element with `lang="en"` (`LayoutConventions.shapingLanguage`).
    var language: LayoutConventions.ShapingLanguage = .fromScript

    /// Shapes `text` in `font` and adds each glyph's advance to the grapheme containing it.
    ///
    /// - Parameters:
    ///   - text: the segment's UTF-8 bytes.
    ///   - graphemeEnds: byte offsets (relative to `text`) where each grapheme ends.
    ///   - script: the segment's script (`.neutral`: HarfBuzz guesses).
    ///   - advances: receives one advance per grapheme, in font units.
    /// - Returns: the number of glyphs that were .notdef (missing).
    /// - Complexity: O(n log g) for n glyphs and g graphemes (timings: Decisions.md, "Timings from code comments").
    @discardableResult
    func shape(
        _ text: UnsafeBufferPointer<UInt8>, graphemeEnds: UnsafeBufferPointer<Int32>,
        font: Font, script: ScriptTag, advances: UnsafeMutableBufferPointer<Int32>
    ) -> Int {
        for i in 0..<advances.count { advances[i] = 0 }
        guard let glyphs = run(text, font: font, script: script) else { return 0 }
        var missing = 0
        var hint = 0
        for i in 0..<glyphs.count {
            let cluster = Int32(bitPattern: glyphs.infos[i].cluster)
            let g = Self.graphemeIndex(containing: cluster, in: graphemeEnds, hint: &hint)
            if g < advances.count { advances[g] &+= glyphs.positions[i].x_advance }
            if glyphs.infos[i].codepoint == 0 { missing += 1 }
        }
        return missing
    }

    /// Shapes several segments of one font and script with one HarfBuzz call, as if each were
    /// shaped alone (``shape(_:graphemeEnds:font:script:advances:)``): `text` is their bytes
    /// one after another, `graphemeEnds` every segment's cluster ends (relative to `text`),
    /// `segmentStarts` the index of each segment's first cluster (ascending, the first 0).
    /// A segment is taken from the joint run only when HarfBuzz marks neither of its edges
    /// unsafe to break (`HB_GLYPH_FLAG_UNSAFE_TO_BREAK`: then, by HarfBuzz's contract, the
    /// two sides shape exactly as they would apart) and no cluster crosses them; any other
    /// segment is shaped again alone. Only for the scripts of ``batchesSegments(of:)``.
    ///
    /// - Returns: how many segments were shaped again alone.
    /// - Complexity: one `hb_shape` over all the bytes, plus one per segment shaped again;
    ///   O(g log c) mapping g glyphs to c clusters.
    @discardableResult
    func shapeSegments(
        _ text: UnsafeBufferPointer<UInt8>, graphemeEnds: UnsafeBufferPointer<Int32>,
        segmentStarts: UnsafeBufferPointer<Int32>, font: Font, script: ScriptTag,
        advances: UnsafeMutableBufferPointer<Int32>
    ) -> Int {
        let count = graphemeEnds.count
        for i in 0..<count { advances[i] = 0 }
        // Per cluster: 2 = no glyph starts it yet, 1 = a glyph starting it is unsafe to break,
        // 0 = safe.
        let state = edgeStates.reserve(count)
        for i in 0..<count { state[i] = 2 }
        if let glyphs = run(text, font: font, script: script) {
            var hint = 0
            for i in 0..<glyphs.count {
                let cluster = Int32(bitPattern: glyphs.infos[i].cluster)
                let g = Self.graphemeIndex(containing: cluster, in: graphemeEnds, hint: &hint)
                guard g < count else { continue }
                advances[g] &+= glyphs.positions[i].x_advance
                guard cluster == (g == 0 ? 0 : graphemeEnds[g - 1]) else { continue }
                let unsafe = hb_glyph_info_get_glyph_flags(glyphs.infos + i).rawValue
                    & HB_GLYPH_FLAG_UNSAFE_TO_BREAK.rawValue != 0
                if unsafe { state[g] = 1 } else if state[g] == 2 { state[g] = 0 }
            }
        }
        var reshaped = 0
        for k in 0..<segmentStarts.count {
            let first = Int(segmentStarts[k])
            let end = k + 1 < segmentStarts.count ? Int(segmentStarts[k + 1]) : count
            guard first < end else { continue }
            let leftSafe = k == 0 || state[first] == 0
            let rightSafe = end == count || state[end] == 0
            if leftSafe && rightSafe { continue }
            reshaped += 1
            let byteStart = first == 0 ? 0 : graphemeEnds[first - 1]
            let ends = aloneEnds.reserve(end - first)
            for i in first..<end { ends[i - first] = graphemeEnds[i] - byteStart }
            shape(
                UnsafeBufferPointer(rebasing: text[Int(byteStart)..<Int(graphemeEnds[end - 1])]),
                graphemeEnds: UnsafeBufferPointer(rebasing: ends[0..<(end - first)]), font: font, script: script,
                advances: UnsafeMutableBufferPointer(rebasing: advances[first..<end]))
        }
        return reshaped
    }

    /// Whether segments of `script` may be shaped together (``shapeSegments(_:graphemeEnds:segmentStarts:font:script:advances:)``):
    /// the scripts HarfBuzz shapes with its default shaper (Latin, Cyrillic, Greek, Armenian,
    /// Georgian, Han, kana, Bopomofo) and the Thai, Hebrew and Arabic shapers, whose
    /// cross-segment effects (Arabic joining, Thai marks, Hebrew presentation forms) HarfBuzz
    /// marks unsafe to break (`JointShapingTests`: 150,000 generated joint runs in text and
    /// reverse order equal to their segments shaped alone). Not `.neutral` (HarfBuzz would guess
    /// the script from the joint text), nor the Indic, USE, Khmer, Myanmar or Hangul shapers:
    /// the Indic shaper gives a lone vowel sign after a joint run's other text other advances
    /// than alone without marking the cut unsafe (the generator finds it in Devanagari).
    @inline(__always)
    static func batchesSegments(of script: ScriptTag) -> Bool {
        switch script {
        case .latin, .cyrillic, .greek, .armenian, .georgian, .han, .hiragana, .katakana, .bopomofo,
            .thai, .hebrew, .arabic:
            true
        default: false
        }
    }

    /// Scratch of ``shapeSegments(_:graphemeEnds:segmentStarts:font:script:advances:)``.
    private var edgeStates = GrowableBuffer<UInt8>()
    private var aloneEnds = GrowableBuffer<Int32>()

    /// The hyphen a hyphenated line ends with in `font`: U+2010 HYPHEN if the font has a glyph
    /// for it, else U+002D (what Pango and Blink insert), and its advance in font units (0 when
    /// the font has neither).
    ///
    /// - Complexity: two table lookups at most. Thread-safe.
    static func hyphenUnits(font: Font) -> Int32 {
        var glyph: hb_codepoint_t = 0
        guard hb_font_get_nominal_glyph(font.hbFont, hyphenScalar(font: font), &glyph) != 0 else { return 0 }
        return hb_font_get_glyph_h_advance(font.hbFont, glyph)
    }

    /// The hyphen character `font` draws a hyphenated line's end with: U+2010 if it has a glyph
    /// for it, else U+002D. Thread-safe.
    static func hyphenScalar(font: Font) -> UInt32 {
        var glyph: hb_codepoint_t = 0
        return hb_font_get_nominal_glyph(font.hbFont, 0x2010, &glyph) != 0 ? 0x2010 : 0x2D
    }

    /// The advance of `scalars` with each scalar's own glyph (`cmap` → `hmtx`), in font
    /// units: a cluster as it measures shaped alone, without the kerning or ligature it forms
    /// with its neighbours (`f` in `ff`, `t` before `e`).
    ///
    /// - Complexity: two table lookups per scalar; no shaping. Thread-safe (the font is
    ///   immutable).
    static func nominalAdvance(of scalars: some Sequence<Unicode.Scalar>, font: Font) -> Int32 {
        var total: Int32 = 0
        for s in scalars {
            var glyph: hb_codepoint_t = 0
            guard hb_font_get_nominal_glyph(font.hbFont, s.value, &glyph) != 0 else { continue }
            total &+= hb_font_get_glyph_h_advance(font.hbFont, glyph)
        }
        return total
    }

    /// Glyph ids and their vertical ink bounds for a segment (device metrics), in font units.
    func inkBounds(_ text: UnsafeBufferPointer<UInt8>, font: Font, script: ScriptTag)
        -> (top: Int32, bottom: Int32)?
    {
        guard let glyphs = run(text, font: font, script: script) else { return nil }
        var top = Int32.min
        var bottom = Int32.max
        for i in 0..<glyphs.count {
            let b = font.inkBounds(of: glyphs.infos[i].codepoint)
            if b.top == 0 && b.bottom == 0 { continue }  // blank glyph (space)
            top = max(top, b.top)
            bottom = min(bottom, b.bottom)
        }
        return top == Int32.min ? nil : (top, bottom)
    }

    /// A shaped glyph for drawing: id, cluster (byte offset in the text) and position in font
    /// units.
    struct Glyph {
        let id: UInt32
        let cluster: UInt32
        let advance: Int32
        let xOffset: Int32
        let yOffset: Int32
    }

    /// The glyphs of `text` in `font` in visual order (the renderer's view of a run).
    ///
    /// - Parameter direction: the run's resolved bidi direction (UAX #9), when known: a
    ///   right-to-left run is shaped right to left whatever its script (digits and punctuation
    ///   inside Hebrew, mirrored brackets); `nil` lets HarfBuzz guess from the script.
    func glyphs(_ text: UnsafeBufferPointer<UInt8>, font: Font, script: ScriptTag = .neutral, direction: TextDirection? = nil) -> [Glyph] {
        guard let g = run(text, font: font, script: script, direction: direction) else { return [] }
        return (0..<g.count).map {
            Glyph(id: g.infos[$0].codepoint, cluster: g.infos[$0].cluster,
                  advance: g.positions[$0].x_advance, xOffset: g.positions[$0].x_offset,
                  yOffset: g.positions[$0].y_offset)
        }
    }

    /// Fills the buffer with `text`, sets its properties and shapes it; the glyph arrays stay
    /// valid until the next call.
    private func run(_ text: UnsafeBufferPointer<UInt8>, font: Font, script: ScriptTag, direction: TextDirection? = nil)
        -> (infos: UnsafeMutablePointer<hb_glyph_info_t>, positions: UnsafeMutablePointer<hb_glyph_position_t>, count: Int)?
    {
        guard let base = text.baseAddress, text.count > 0 else { return nil }
        hb_buffer_clear_contents(buffer)
        base.withMemoryRebound(to: CChar.self, capacity: text.count) {
            hb_buffer_add_utf8(buffer, $0, Int32(text.count), 0, Int32(text.count))
        }
        if let direction { hb_buffer_set_direction(buffer, direction == .rightToLeft ? HB_DIRECTION_RTL : HB_DIRECTION_LTR) }
        setProperties(script: script)
        shape(with: font)
        var count: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
            let positions = hb_buffer_get_glyph_positions(buffer, &count), count > 0
        else { return nil }
        return (infos, positions, Int(count))
    }

    /// Shapes the buffer as `hb_shape(font, buffer, features, n)` does with the font's own
    /// features — its plan is the one `hb_shape_plan_create_cached2` gives for the buffer's
    /// segment properties, the features and the font's variation coordinates — but with the
    /// plan from this shaper's own list when it has used it before (a font's features and
    /// coordinates never change, and its id is never reused).
    private func shape(with font: Font) {
        var props = hb_segment_properties_t()
        hb_buffer_get_segment_properties(buffer, &props)
        let id = font.id
        func matches(_ k: Int) -> Bool {
            var known = plans[k].props
            return plans[k].font == id && hb_segment_properties_equal(&known, &props) != 0
        }
        font.features.withUnsafeBufferPointer { features in
            let plan: OpaquePointer
            if lastPlan >= 0, matches(lastPlan) {
                plan = plans[lastPlan].plan
            } else if let k = plans.indices.first(where: matches) {
                plan = plans[k].plan
                lastPlan = k
            } else {
                var count: UInt32 = 0
                let coords = hb_font_get_var_coords_normalized(font.hbFont, &count)
                guard plans.count < Self.maximumPlans,
                    let created = hb_shape_plan_create_cached2(
                        font.hbFace, &props, features.baseAddress, UInt32(features.count), coords, count, nil)
                else {
                    hb_shape(font.hbFont, buffer, features.baseAddress, UInt32(features.count))
                    return
                }
                plan = created
                plans.append((id, props, created))
                lastPlan = plans.count - 1
            }
            hb_shape_plan_execute(plan, font.hbFont, buffer, features.baseAddress, UInt32(features.count))
        }
    }

    /// Script, direction and language of the buffer. The language is the script's sample
    /// language (Hangul → ko, kana → ja, Arabic → ar, …; none for Han), never the process
    /// locale, so pan-CJK fonts pick their language forms (`locl`) by script, as Pango does.
    private func setProperties(script: ScriptTag) {
        if script != .neutral {
            let s = hb_script_t(rawValue: script.rawValue)
            hb_buffer_set_script(buffer, s)
            if hb_buffer_get_direction(buffer) == HB_DIRECTION_INVALID {
                hb_buffer_set_direction(buffer, hb_script_get_horizontal_direction(s))
            }
        }
        hb_buffer_set_language(buffer, language == .document ? Self.english : scriptLanguage(script))
        hb_buffer_guess_segment_properties(buffer)
    }

    /// ``language(forScript:)`` remembered for the last script (a dictionary look-up per
    /// segment otherwise; text is mostly one script).
    private func scriptLanguage(_ script: ScriptTag) -> hb_language_t? {
        if script != lastScript {
            lastScript = script
            lastLanguage = Self.language(forScript: script)
        }
        return lastLanguage
    }
    /// The script ``lastLanguage`` is for (at first none: no tag is all ones).
    private var lastScript = ScriptTag(rawValue: .max)
    /// ``language(forScript:)`` of ``lastScript``.
    private var lastLanguage: hb_language_t? = nil

    /// Han has no sample language here (it is shared by Chinese, Japanese and Korean text), so
    /// pan-CJK fonts keep their default forms for it, as in Pango.
    private static func language(forScript script: ScriptTag) -> hb_language_t? {
        languages[script] ?? english
    }

    /// The HarfBuzz language of each script with a sample language (Han: "und"), resolved once.
    /// Immutable once made; an `hb_language_t` is an interned pointer HarfBuzz never frees.
    nonisolated(unsafe) private static let languages: [ScriptTag: hb_language_t?] = {
        var table = ClusterClassifier.sampleLanguages.mapValues { hb_language_from_string($0, -1) }
        table[.han] = hb_language_from_string("und", -1)
        return table
    }()
    // Immutable; an `hb_language_t` is an interned pointer HarfBuzz never frees.
    nonisolated(unsafe) private static let english = hb_language_from_string("en", -1)

    /// ``graphemeIndex(containing:in:)`` starting from the previous glyph's grapheme `hint`:
    /// glyph clusters come in ascending order in a left-to-right run
    /// (`HB_BUFFER_CLUSTER_LEVEL_MONOTONE_GRAPHEMES`), so the answer is found by stepping
    /// forward (O(glyphs + graphemes) for a run instead of a binary search per glyph); a
    /// cluster before the hint (right-to-left text) is searched for.
    @inline(__always)
    static func graphemeIndex(containing offset: Int32, in ends: UnsafeBufferPointer<Int32>, hint: inout Int) -> Int {
        var g = hint
        if g > ends.count || (g > 0 && ends[g - 1] > offset) {
            g = graphemeIndex(containing: offset, in: ends)
        } else {
            // Every end before `g` is ≤ offset: the first end after it wins.
            while g < ends.count && ends[g] <= offset { g += 1 }
        }
        hint = g
        return g
    }

    /// The index of the grapheme containing byte `offset`: the first whose end is after it
    /// (`ends.count` if none).
    @inline(__always)
    static func graphemeIndex(containing offset: Int32, in ends: UnsafeBufferPointer<Int32>) -> Int {
        var lo = 0
        var hi = ends.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if ends[mid] <= offset { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
