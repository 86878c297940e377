import Foundation
@testable import Plumb
import PropertyTesting
import Testing

/// Equality and hashing of the public value types are reflexive with NaN fields (NaN equals
/// NaN, every NaN hashes alike), and `measure` answers what `layout` does for any input,
/// hostile numbers included. Replay a property failure with `PLUMB_PROPERTY_SEED=0x… swift
/// test --filter ValueEqualityTests`.
@Suite struct ValueEqualityTests {
    /// A NaN other than `Double.nan` (another payload, the sign bit set): equal to it too.
    static let otherNaN = -Double(nan: 0x1234, signaling: false)

    /// `a` equals `b`, and hashes alike, and one of them is all a set of both holds.
    static func expectSame<T: Hashable>(_ a: T, _ b: T, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(a == a && a == b && b == a, "\(T.self): \(a) vs \(b)", sourceLocation: sourceLocation)
        #expect(a.hashValue == b.hashValue, "\(T.self) hashes", sourceLocation: sourceLocation)
        #expect(Set([a, b]).count == 1, "\(T.self) in a set", sourceLocation: sourceLocation)
    }

    /// A style whose every number is `nan`.
    static func style(_ nan: Double) -> TextStyle {
        var s = TextStyle(families: ["Noto Sans"], size: nan)
        s.lineSpacing = nan
        s.minimumLineHeight = nan
        s.maximumLineHeight = nan
        s.lineHeightMultiple = nan
        s.lineHeightEm = nan
        s.paragraphSpacing = nan
        s.paragraphSpacingBefore = nan
        s.letterSpacing = nan
        s.tabInterval = nan
        s.heightLimit = nan
        s.truncationToken = text(nan)
        return s
    }

    static func attributes(_ nan: Double) -> TextAttributes {
        TextAttributes(size: nan, letterSpacing: nan, baselineOffset: nan)
    }

    static func box(_ nan: Double) -> InlineBox { InlineBox(width: nan, height: nan, baselineOffset: nan, id: "b") }

    static func text(_ nan: Double) -> AttributedText {
        var t = AttributedText("a", attributes(nan))
        t.append(box(nan))
        return t
    }

    static func warnings(_ nan: Double) -> [MeasureWarning] {
        [.unmeasurableWidth(nan), .invalidFontSize(nan, replacement: nan), .invalidScale(nan, replacement: 2),
         .invalidSpacing(field: "lineSpacing", value: nan), .heightLimitBelowFirstLine(nan)]
    }

    static func rect(_ nan: Double) -> Rect { Rect(x: nan, y: nan, width: nan, height: nan) }

    @Test func inputsWithNaNFieldsEqualThemselves() {
        Self.expectSame(Self.style(.nan), Self.style(Self.otherNaN))
        Self.expectSame(Self.style(.nan).font, Self.style(Self.otherNaN).font)
        Self.expectSame(Self.attributes(.nan), Self.attributes(Self.otherNaN))
        Self.expectSame(Self.box(.nan), Self.box(Self.otherNaN))
        Self.expectSame(Self.text(.nan), Self.text(Self.otherNaN))
        for (a, b) in zip(Self.warnings(.nan), Self.warnings(Self.otherNaN)) { Self.expectSame(a, b) }
        // A NaN field still differs from a number.
        #expect(Self.style(.nan) != Self.style(0) && Self.box(.nan) != Self.box(1))
        #expect(MeasureWarning.unmeasurableWidth(.nan) != .unmeasurableWidth(0))
    }

    @Test func geometryAndResultsWithNaNFieldsEqualThemselves() {
        Self.expectSame(Self.rect(.nan), Self.rect(Self.otherNaN))
        Self.expectSame(Size(width: .nan, height: .nan), Size(width: Self.otherNaN, height: Self.otherNaN))
        Self.expectSame(Point(x: .nan, y: .nan), Point(x: Self.otherNaN, y: Self.otherNaN))
        func measurement(_ nan: Double) -> TextMeasurement {
            TextMeasurement(size: Size(width: nan, height: nan), lineCount: 0, isTruncated: false, warnings: Self.warnings(nan))
        }
        Self.expectSame(measurement(.nan), measurement(Self.otherNaN))
        func line(_ nan: Double) -> LayoutLine {
            let text = "ab"
            let all = text.startIndex..<text.endIndex
            return LayoutLine(
                range: all, scalarRange: 0..<2, utf8Range: 0..<2, utf16Range: 0..<2, rect: Self.rect(nan), usedWidth: nan,
                hangingWidth: nan, baseline: nan, naturalHeight: nan, gapAfter: nan, endsParagraph: true,
                direction: .leftToRight,
                truncation: LineTruncation(placement: .tail, head: all, tail: all.upperBound..<all.upperBound, ellipsisWidth: nan))
        }
        Self.expectSame(line(.nan), line(Self.otherNaN))
        let placement = { (nan: Double) in
            InlineBoxPlacement(id: "b", box: Self.box(nan), utf8Offset: 0, scalarOffset: 0, utf16Offset: 0, line: 0, rect: Self.rect(nan))
        }
        Self.expectSame(placement(.nan), placement(Self.otherNaN))
        Self.expectSame(TruncationTokenPlacement(line: 0, rect: Self.rect(.nan), boxes: [placement(.nan)]),
                        TruncationTokenPlacement(line: 0, rect: Self.rect(Self.otherNaN), boxes: [placement(Self.otherNaN)]))
        Self.expectSame(LineRun(run: 0, utf8Range: 0..<1, utf16Range: 0..<1, rect: Self.rect(.nan)),
                        LineRun(run: 0, utf8Range: 0..<1, utf16Range: 0..<1, rect: Self.rect(Self.otherNaN)))
    }

    /// The issue's case: a NaN width's measurement, encoded and decoded, equals itself.
    @Test func aNaNWidthMeasurementEqualsItselfAfterARoundTrip() throws {
        let m = engine.measure("Hello", style: style15(), width: .nan)
        #expect(m.warnings.contains { if case .unmeasurableWidth = $0 { true } else { false } })
        let back = try JSONDecoder().decode(TextMeasurement.self, from: JSONEncoder().encode(m))
        Self.expectSame(m, back)
    }

    /// A generated cell with hostile numbers in every field: the width, the scale, the style's
    /// numbers, and (for attributed text) run sizes, spacings, offsets and box sizes.
    struct Hostile: CustomStringConvertible {
        var text: AttributedText
        var style: TextStyle
        var width: Double
        var scale: Double
        var description: String { "text \(text.string.debugDescription) runs \(text.runs) width \(width) scale \(scale) style \(style)" }
    }

    static let hostile: Gen<Hostile> = {
        let number = Gen.edgyDouble(in: 0...40)
        let style = Gen.zip(Gen.zip(number, number, number, number), Gen.zip(number, number, number, number),
                            Gen.zip(number, number.optional, Gen.int(in: -2...3), Gen.element(of: LineBreakMode.allCases)))
            .map { a, b, c -> TextStyle in
                var s = TextStyle(families: ["Noto Sans", "Noto Sans CJK SC"], size: a.0)
                (s.lineSpacing, s.minimumLineHeight, s.maximumLineHeight, s.lineHeightMultiple) = (a.1, a.2, a.3, b.0)
                (s.lineHeightEm, s.paragraphSpacing, s.paragraphSpacingBefore) = (b.1 > 20 ? b.1 : 0, b.2, b.3)
                (s.letterSpacing, s.heightLimit, s.maxLines, s.lineBreakMode) = (c.0 - 5, c.1, c.2, c.3)
                s.tabInterval = a.3
                return s
            }
        let run = Gen.zip(Gen<String>.text(maxClusters: 10), Gen.zip(number.optional, number.optional, number))
            .map { ($0, TextAttributes(size: $1.0, letterSpacing: $1.1, baselineOffset: $1.2 - 20)) }
        let box = Gen.zip(number, number, number).map { InlineBox(width: $0, height: $1, baselineOffset: $2 - 20, id: "b") }
        let text = Gen.array(of: Gen.zip(run, box.optional), count: 1...3).map { pieces -> AttributedText in
            var t = AttributedText()
            for (run, box) in pieces {
                t.append(run.0, run.1)
                if let box { t.append(box) }
            }
            return t
        }
        return Gen.zip(text, style, Gen.edgyDouble(in: 0...400), Gen.edgyDouble(in: 0...3))
            .map { Hostile(text: $0, style: $1, width: $2, scale: $3) }
    }()

    @Test func measureEqualsLayoutsMeasurementForHostileInputs() {
        if let failure = checkProperty("measure == layout().measurement", Self.hostile, iterations: 150, { (cell: Hostile) throws -> Void in
            let fresh = TextMeasurer(fonts: engine.fonts)
            for measurer in [engine, fresh] {
                let plain = measurer.measure(cell.text.string, style: cell.style, width: cell.width, scale: cell.scale)
                let plainLayout = measurer.layout(cell.text.string, style: cell.style, width: cell.width, scale: cell.scale)
                try propertyAssert(plain == plainLayout.measurement, "plain: \(plain) vs \(plainLayout.measurement)")
                let rich = measurer.measure(cell.text, style: cell.style, width: cell.width, scale: cell.scale)
                let richLayout = measurer.layout(cell.text, style: cell.style, width: cell.width, scale: cell.scale)
                try propertyAssert(rich == richLayout.measurement, "rich: \(rich) vs \(richLayout.measurement)")
                try propertyAssert(rich == rich && plain == plain, "reflexive")
            }
        }) {
            Issue.record("\(failure)")
        }
    }

    /// A change of one stored property of a value.
    struct Probe<T> {
        let field: String
        let change: (inout T) -> Void
        init(_ field: String, _ change: @escaping (inout T) -> Void) {
            self.field = field
            self.change = change
        }
    }

    /// The probes name every stored property of `value` (its `Mirror` children), and each
    /// change makes the value unequal: a field the hand-written `==` leaves out fails here.
    static func expectEveryFieldCounts<T: Hashable>(_ value: T, _ probes: [Probe<T>], sourceLocation: SourceLocation = #_sourceLocation) {
        let labels = Set(Mirror(reflecting: value).children.compactMap(\.label))
        #expect(Set(probes.map(\.field)) == labels, "\(T.self)'s fields", sourceLocation: sourceLocation)
        for probe in probes {
            var changed = value
            probe.change(&changed)
            #expect(changed != value, "\(T.self).\(probe.field) is compared", sourceLocation: sourceLocation)
        }
        expectSame(value, value, sourceLocation: sourceLocation)
    }

    @Test func everyFieldIsCompared() throws {
        Self.expectEveryFieldCounts(Size(width: 1, height: 2), [.init("width") { $0.width = .nan }, .init("height") { $0.height = 3 }])
        Self.expectEveryFieldCounts(Point(x: 1, y: 2), [.init("x") { $0.x = .nan }, .init("y") { $0.y = 3 }])
        Self.expectEveryFieldCounts(Rect(x: 1, y: 2, width: 3, height: 4), [
            .init("x") { $0.x = 0 }, .init("y") { $0.y = 0 }, .init("width") { $0.width = 0 }, .init("height") { $0.height = .nan },
        ])
        Self.expectEveryFieldCounts(FontDescriptor(), [
            .init("families") { $0.families = [] }, .init("size") { $0.size = .nan }, .init("weight") { $0.weight = 700 },
            .init("italic") { $0.italic = true }, .init("width") { $0.width = .nan },
            .init("features") { $0.features = [.tabularNumbers] },
            .init("variations") { $0.variations = [FontVariation("wght", .nan)] },
            .init("opticalSizing") { $0.opticalSizing.toggle() },
        ])
        Self.expectEveryFieldCounts(TextStyle(), [
            .init("font") { $0.font.size = 3 }, .init("lineSpacing") { $0.lineSpacing = .nan },
            .init("minimumLineHeight") { $0.minimumLineHeight = 1 }, .init("maximumLineHeight") { $0.maximumLineHeight = 1 },
            .init("lineHeightMultiple") { $0.lineHeightMultiple = 1 }, .init("lineHeightEm") { $0.lineHeightEm = 1 },
            .init("paragraphSpacing") { $0.paragraphSpacing = 1 }, .init("paragraphSpacingBefore") { $0.paragraphSpacingBefore = 1 },
            .init("letterSpacing") { $0.letterSpacing = 1 }, .init("tabInterval") { $0.tabInterval = 1 },
            .init("wordSpacing") { $0.wordSpacing = 2 },
            .init("tabStops") { $0.tabStops = [TabStop(location: .nan)] }, .init("tabSize") { $0.tabSize = .spaces(.nan) },
            .init("firstLineHeadIndent") { $0.firstLineHeadIndent = .nan }, .init("headIndent") { $0.headIndent = 1 },
            .init("tailIndent") { $0.tailIndent = -1 }, .init("indentEachLine") { $0.indentEachLine = true },
            .init("maxLines") { $0.maxLines = 1 }, .init("lineBreakMode") { $0.lineBreakMode = .clipping },
            .init("options") { $0.options = [] }, .init("heightLimit") { $0.heightLimit = .nan },
            .init("compatibility") { $0.compatibility = .pango }, .init("alignment") { $0.alignment = .center },
            .init("truncationToken") { $0.truncationToken = AttributedText("…") },
            .init("language") { $0.language = "de" }, .init("hyphenation") { $0.hyphenation = .auto },
            .init("hyphenationFactor") { $0.hyphenationFactor = .nan },
            .init("lastLineAlignment") { $0.lastLineAlignment = .justified }, .init("whiteSpace") { $0.whiteSpace = .pre },
            .init("wordBreak") { $0.wordBreak = .keepAll }, .init("overflowWrap") { $0.overflowWrap = .anywhere },
            .init("lineBreak") { $0.lineBreak = .loose }, .init("textWrap") { $0.textWrap = .nowrap },
            .init("lineClamp") { $0.lineClamp = 2 },
        ])
        Self.expectEveryFieldCounts(TextAttributes(), [
            .init("families") { $0.families = [] }, .init("size") { $0.size = .nan }, .init("weight") { $0.weight = 1 },
            .init("italic") { $0.italic = false }, .init("letterSpacing") { $0.letterSpacing = 0 },
            .init("baselineOffset") { $0.baselineOffset = .nan }, .init("color") { $0.color = "red" },
            .init("width") { $0.width = .nan }, .init("features") { $0.features = [] },
            .init("variations") { $0.variations = [FontVariation("wdth", 80)] },
            .init("language") { $0.language = "de" },
        ])
        Self.expectEveryFieldCounts(InlineBox(width: 1, height: 2), [
            .init("width") { $0.width = .nan }, .init("height") { $0.height = 1 }, .init("baselineOffset") { $0.baselineOffset = 1 },
            .init("id") { $0.id = "x" },
        ])
        var style = style15()
        style.maxLines = 1
        style.lineBreakMode = .truncatingMiddle
        let layout = engine.layout("The quick brown fox jumps over the lazy dog", style: style, width: 120)
        let line = try #require(layout.lines.first)
        let truncation = try #require(line.truncation)
        Self.expectEveryFieldCounts(truncation, [
            .init("placement") { $0.placement = .head }, .init("head") { $0.head = $0.tail },
            .init("tail") { $0.tail = $0.head }, .init("ellipsisWidth") { $0.ellipsisWidth = .nan },
        ])
        Self.expectEveryFieldCounts(line, [
            .init("range") { $0.range = $0.range.lowerBound..<$0.range.lowerBound }, .init("scalarRange") { $0.scalarRange = 0..<0 },
            .init("utf8Range") { $0.utf8Range = 0..<0 }, .init("utf16Range") { $0.utf16Range = 0..<0 },
            .init("rect") { $0.rect = .zero }, .init("usedWidth") { $0.usedWidth = .nan }, .init("hangingWidth") { $0.hangingWidth = 9 },
            .init("baseline") { $0.baseline = 0 }, .init("naturalHeight") { $0.naturalHeight = 0 }, .init("gapAfter") { $0.gapAfter = 9 },
            .init("endsParagraph") { $0.endsParagraph.toggle() }, .init("direction") { $0.direction = .rightToLeft },
            .init("hyphenWidth") { $0.hyphenWidth = .nan }, .init("justificationWidth") { $0.justificationWidth = .nan },
            .init("truncation") { $0.truncation = nil },
        ])
        let cluster = try #require(layout.caretMap.clusters.first)
        Self.expectEveryFieldCounts(cluster, [
            .init("utf8Start") { $0.utf8Start = 9 }, .init("utf8End") { $0.utf8End = 9 }, .init("line") { $0.line = 9 },
            .init("minX") { $0.minX = .nan }, .init("maxX") { $0.maxX = .nan },
        ])
        func rebuilt(_ l: TextLayout, text: String? = nil, lines: [LayoutLine]? = nil, exactHeight: Double? = nil,
                     scale: Double? = nil, measurement: TextMeasurement? = nil) -> TextLayout {
            var copy = TextLayout(text: text ?? l.text, measurement: measurement ?? l.measurement, lines: lines ?? l.lines,
                                  exactHeight: exactHeight ?? l.exactHeight, scale: scale ?? l.scale)
            (copy.inlineBoxes, copy.truncationToken, copy.caretMap, copy.runEnds) = (l.inlineBoxes, l.truncationToken, l.caretMap, l.runEnds)
            return copy
        }
        Self.expectEveryFieldCounts(layout, [
            .init("text") { $0 = rebuilt($0, text: $0.text + " ") }, .init("lines") { $0 = rebuilt($0, lines: []) },
            .init("exactHeight") { $0 = rebuilt($0, exactHeight: .nan) }, .init("scale") { $0 = rebuilt($0, scale: 3) },
            .init("measurement") { $0 = rebuilt($0, measurement: TextMeasurement(size: .zero, lineCount: 0, isTruncated: false, warnings: [])) },
            .init("inlineBoxes") { $0.inlineBoxes = [InlineBoxPlacement(id: nil, box: InlineBox(width: 1, height: 1), utf8Offset: 0, scalarOffset: 0, utf16Offset: 0, line: 0, rect: .zero)] },
            .init("truncationToken") { $0.truncationToken = nil }, .init("caretMap") { $0.caretMap.clusters[0].maxX += 1 },
            .init("runEnds") { $0.runEnds = [1] },
        ])
        let nanLayout = rebuilt(layout, exactHeight: .nan, scale: Self.otherNaN)
        Self.expectSame(nanLayout, rebuilt(layout, exactHeight: Self.otherNaN, scale: .nan))
        #expect(TextMeasurer.UnmeasurableHeight.points(.nan) == .points(Self.otherNaN))
        #expect(TextMeasurer.UnmeasurableHeight.points(.nan).hashValue == TextMeasurer.UnmeasurableHeight.points(Self.otherNaN).hashValue)
        #expect(TextMeasurer.UnmeasurableHeight.points(0) != .oneLine)
    }
}
