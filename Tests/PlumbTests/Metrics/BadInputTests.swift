@testable import Plumb
import Testing

/// Bad input gets a clear answer: a warning, a flagged fallback, never a crash or NaN.
@Suite struct BadInputTests {
    func assertSane(_ m: TextMeasurement, scale: Double = 2, _ comment: Comment? = nil) {
        for v in [m.width, m.height] {
            #expect(v.isFinite && v >= 0, comment)
            #expect((v * scale).rounded() == v * scale, comment)
        }
    }

    @Test func unusableWidthsFallBackToOneFlaggedLine() {
        for w in [Double.nan, 0, -1, -Double.infinity] {
            let m = engine.measure("Hello world", style: style15(), width: w)
            #expect(m.isFallback)
            #expect(m.height == 20.5)  // one line of the style, pixel-ceiled
            #expect(m.width == 0)
            #expect(m.warnings.contains { if case .unmeasurableWidth = $0 { true } else { false } })
            assertSane(m)
        }
    }

    @Test func infiniteWidthIsUnconstrained() {
        let m = engine.measure("a b c d e f g h i j k l m n o p", style: style15(), width: .infinity)
        #expect(m.lineCount == 1 && !m.isFallback)
    }

    @Test func invalidFontSizeUsesTheDefaultWithAWarning() {
        for size in [Double.nan, .infinity, 0, -4] {
            let m = engine.measure("Hello", style: TextStyle(families: ["Noto Sans"], size: size), width: 300)
            #expect(m.isFallback)
            // 17 pt: 1.362 × 17 = 23.154 → 23.5
            #expect(m.height == 23.5)
            #expect(m.warnings.contains { if case .invalidFontSize(_, 17) = $0 { true } else { false } })
        }
    }

    @Test func invalidSpacingsBecomeZero() {
        var s = style15()
        s.lineSpacing = .nan
        s.paragraphSpacing = -3
        s.minimumLineHeight = .infinity
        let m = engine.measure("a\nb", style: s, width: 300)
        #expect(m.height == 41)
        #expect(m.isFallback)
        #expect(m.warnings.contains(.invalidSpacing(field: "paragraphSpacing", value: -3)))
        assertSane(m)
    }

    @Test func invalidScaleFallsBackToTwo() {
        for scale in [Double.nan, 0, -2, .infinity] {
            let m = engine.measure("Hello", style: style15(), width: 300, scale: scale)
            #expect(m.height == 20.5)
            #expect(m.isFallback)
        }
    }

    /// Below 0.01 a device pixel is over 100 pt: every height would snap to the grid line at
    /// 0 (a two-line text measured 0 pt tall at 1e-9 before the clamp).
    @Test func tinyScalesAreClampedWithAWarning() {
        for scale in [1e-9, 0.001, Double.leastNonzeroMagnitude] {
            let m = engine.measure("Hello world", style: style15(), width: 60, scale: scale)
            #expect(m.isFallback, "\(scale)")
            #expect(m.warnings.contains(.invalidScale(scale, replacement: 0.01)), "\(scale)")
            #expect(m.lineCount == 2 && m.height == 100, "\(scale): \(m)")  // 41 pt → one 100-pt device pixel
            assertSane(m, scale: 0.01)
        }
        let ok = engine.measure("Hello world", style: style15(), width: 60, scale: 0.5)
        #expect(!ok.isFallback && ok.height == 42)  // 41 pt on a 2-pt grid
    }

    /// A negative or NaN height limit means no limit, with a warning; 0 and ∞ are the usual
    /// ways to say "no limit" and pass silently.
    @Test func invalidHeightLimitsMeanNoLimitWithAWarning() {
        let unlimited = engine.measure("a\nb\nc", style: style15(), width: 300)
        for limit in [-5, Double.nan, -Double.infinity] {
            var s = style15()
            s.heightLimit = limit
            let m = engine.measure("a\nb\nc", style: s, width: 300)
            #expect(m.isFallback && m.lineCount == 3 && m.height == unlimited.height, "\(limit)")
            #expect(m.warnings.contains { if case .invalidValue(field: "heightLimit", _) = $0 { true } else { false } }, "\(limit)")
        }
        for limit in [0, Double.infinity] {
            var s = style15()
            s.heightLimit = limit
            #expect(engine.measure("a\nb\nc", style: s, width: 300) == unlimited, "\(limit)")
        }
    }

    @Test func unknownFamiliesAreSkippedWithAWarning() {
        let m = engine.measure("Hello", style: style15(["No Such Font 42", "Noto Sans"]), width: 300)
        #expect(m.warnings.contains(.unknownFontFamily("No Such Font 42")))
        #expect(m.height == 20.5)
        let none = engine.measure("Hello", style: style15(["No Such Font 42"]), width: 300)
        #expect(none.warnings.contains { if case .cascadeFellBackToDefault = $0 { true } else { false } })
        assertSane(none)
    }

    @Test func loneSurrogatesAreRepaired() {
        let units: [UInt16] = [0x0048, 0xD800, 0x0069]  // "H", lone high surrogate, "i"
        let l = engine.layout(utf16: units, style: style15(), width: 300)
        #expect(l.text == "H\u{FFFD}i")
        #expect(l.measurement.warnings.contains(.invalidTextRepaired))
        #expect(l.lineCount == 1)
        let bytes: [UInt8] = [0x61, 0xFF, 0x62]
        let b = engine.layout(utf8: bytes, style: style15(), width: 300)
        #expect(b.text == "a\u{FFFD}b")
        #expect(b.measurement.warnings.contains(.invalidTextRepaired))
        // measure(utf16:) and measure(utf8:) answer as layout's measurement (issue 12 item 7).
        #expect(engine.measure(utf16: units, style: style15(), width: 300) == l.measurement)
        #expect(engine.measure(utf8: bytes, style: style15(), width: 300) == b.measurement)
    }

    @Test func validUnitsMeasureAsTheString() {
        let text = "Hello, 世界 😀 and a longer line that wraps"
        let plain = engine.measure(text, style: style15(), width: 120)
        #expect(engine.measure(utf16: Array(text.utf16), style: style15(), width: 120) == plain)
        #expect(engine.measure(utf8: Array(text.utf8), style: style15(), width: 120) == plain)
        #expect(plain.warnings.isEmpty && plain.lineCount > 1)
    }

    @Test func absurdNumbersNeverOverflow() {
        var s = TextStyle(families: ["Noto Sans"], size: 1e300)
        s.lineSpacing = 1e308
        s.letterSpacing = -1e308
        s.maxLines = -3
        s.tabInterval = 0
        let m = engine.measure("a\tb\nc", style: s, width: 1e308, scale: 1e300)
        assertSane(m, scale: 100)
        #expect(m.isFallback)
    }
}
