@testable import Plumb
import Testing

/// Synthetic bold and oblique as each profile's engine draws them on a face that lacks the
/// weight or slant asked for (issue 28): Skia under `chromium`, fontconfig and FreeType under
/// `pango`, nothing under `standard` (UIKit draws a named family's nearest face). Advances
/// never change. `Tests/Browser/browser_check.py` compares the pixels with Chromium's.
@Suite struct SyntheticStyleTests {
    static let text = "Hamburgefonstiv"

    /// DejaVu Serif's regular face alone, registered over the system's family.
    static let serifOnly: TextMeasurer = {
        var config = TextMeasurer.Configuration()
        config.fonts.fontFiles = [.path(AppFontTests.dejaVuSerif)]
        return TextMeasurer(configuration: config)
    }()

    static func glyphs(
        _ m: TextMeasurer, _ profile: Compatibility, family: String = "DejaVu Serif", weight: Int, italic: Bool, size: Double = 24
    ) -> [PlacedGlyph] {
        var style = profiled(profile, [family], size: size)
        style.font.weight = weight
        style.font.italic = italic
        return m.drawing(text, style: style, width: 1000).lines.flatMap { $0 }
    }

    @Test func chromiumStrokesAndSkewsAsSkia() throws {
        let upright = Self.glyphs(Self.serifOnly, .chromium, weight: 400, italic: false)
        let synthetic = Self.glyphs(Self.serifOnly, .chromium, weight: 700, italic: true)
        #expect(upright.allSatisfy { $0.skew == 0 && $0.emboldening == 0 })
        // Skia: a skew of 1/4; a stroke of 24 × (1/24 + (24 − 9) / 27 × (1/32 − 1/24)) pt.
        let stroke = 24 * (1.0 / 24 + 15.0 / 27 * (1.0 / 32 - 1.0 / 24))
        #expect(synthetic.allSatisfy { $0.skew == 0.25 && abs($0.emboldening - stroke) < 1e-12 })
        // The pen positions are the upright face's: synthesis measures nothing.
        #expect(synthetic.map(\.x) == upright.map(\.x))
        // Weight 600 is Blink's threshold; 500 stays regular.
        #expect(Self.glyphs(Self.serifOnly, .chromium, weight: 600, italic: false).allSatisfy { $0.emboldening > 0 })
        #expect(Self.glyphs(Self.serifOnly, .chromium, weight: 500, italic: false).allSatisfy { $0.emboldening == 0 })
    }

    @Test func pangoEmboldensAndShearsAsFontconfig() {
        // DejaVu Math TeX Gyre has one face here: Pango draws "… Bold Oblique" for it.
        let synthetic = Self.glyphs(engine, .pango, family: "DejaVu Math TeX Gyre", weight: 700, italic: true)
        #expect(!synthetic.isEmpty && synthetic.allSatisfy { $0.skew == 0.2 && $0.emboldening == 1 })
        // fontconfig's rule starts at bold (700): 600 is drawn as it is.
        #expect(Self.glyphs(engine, .pango, family: "DejaVu Math TeX Gyre", weight: 600, italic: false)
            .allSatisfy { $0.emboldening == 0 })
    }

    @Test func realFacesAndTheStandardProfileAreDrawnAsTheyAre() throws {
        // Noto Sans has real bold and italic faces here.
        #expect(Self.glyphs(engine, .chromium, family: "Noto Sans", weight: 700, italic: true)
            .allSatisfy { $0.skew == 0 && $0.emboldening == 0 })
        // A variable face reaches 700 on its wght axis.
        let inter = try AppFontConformanceTests.registeredEngine([.path(AppFontConformanceTests.interDirectory + "/Inter-roman.var.ttf")])
        #expect(Self.glyphs(inter, .chromium, family: "Inter", weight: 700, italic: false).allSatisfy { $0.emboldening == 0 })
        // UIKit never synthesises a named family's missing style.
        #expect(Self.glyphs(Self.serifOnly, .standard, weight: 700, italic: true)
            .allSatisfy { $0.skew == 0 && $0.emboldening == 0 })
    }
}
