@testable import Plumb
import Testing

/// Per-line geometry: ranges, rects, baselines, last line, hit testing.
@Suite struct GeometryTests {
    @Test func rectsIncludeSpacingAndBaselinesUseTheAscender() {
        var s = style15()
        s.lineSpacing = 8
        let l = engine.layout("one\ntwo\nthree", style: s, width: 300)
        for (i, line) in l.lines.enumerated() {
            let y = Double(i) * (20.43 + 8)
            #expect(abs(line.rect.y - y) < 1e-9)
            #expect(abs(line.rect.height - 20.43) < 1e-9)
            #expect(abs(line.baseline - (y + 16.035)) < 1e-9)
            #expect(line.endsParagraph)
        }
        #expect(l.lastLineRect == l.lines[2].rect)
    }

    @Test func rangesAsIndexesAndScalarOffsets() {
        let text = "a😀 b\nc"
        let l = engine.layout(text, style: style15(), width: 300)
        #expect(l.lineCount == 2)
        #expect(String(text[l.lines[0].range]) == "a😀 b")
        #expect(l.lines[0].scalarRange == 0..<4)
        #expect(l.lines[1].scalarRange == 5..<6)
        #expect(l.lines[1].utf8Range == 8..<9)  // a(1) 😀(4) space(1) b(1) LF(1)
        #expect(l.lines[0].endsParagraph && l.lines[1].endsParagraph)
    }

    @Test func usedWidthExcludesHangingSpaces() {
        let l = engine.layout("aaaa bbbb", style: style15(), width: 45)
        #expect(lineTexts(l) == ["aaaa ", "bbbb"])
        #expect(l.lines[0].hangingWidth > 0)
        let aaaa = engine.layout("aaaa", style: style15(), width: 1000).lines[0].usedWidth
        #expect(abs(l.lines[0].usedWidth - aaaa) < 1e-9)
    }

    @Test func lineIndexAtYHonoursGapsAndEdges() {
        var s = style15()
        s.lineSpacing = 10
        s.paragraphSpacing = 20
        let l = engine.layout("aaaa bbbb\ncccc", style: s, width: 45)
        #expect(l.lineCount == 3)
        // Line 0: 0..<20.43, gap 10 → line 1 at 30.43..<50.86, gap 30 → line 2 at 80.86.
        #expect(l.lineIndex(atY: -5) == 0)
        #expect(l.lineIndex(atY: 0) == 0)
        #expect(l.lineIndex(atY: 20.43 + 5) == 0)  // in the line-spacing gap: the line above
        #expect(l.lineIndex(atY: 30.43) == 1)
        #expect(l.lineIndex(atY: 70) == 1)  // in the paragraph gap
        #expect(l.lineIndex(atY: 80.86) == 2)
        #expect(l.lineIndex(atY: 10_000) == 2)
        #expect(l.lineIndex(atY: .nan) == nil)
        // The naive y / (lineHeight + spacing) gets line 2 wrong here: 81 / 30.43 → 2, but
        // 75 / 30.43 → 2 while 75 is in the paragraph gap after line 1.
        #expect(l.lineIndex(atY: 75) == 1)
    }

    @Test func coverRectsCoverEveryLine() {
        var s = style15()
        s.lineSpacing = 6
        let l = engine.layout("aaaa bbbb cccc", style: s, width: 45)
        let covers = l.lineCoverRects
        #expect(covers.count == l.lineCount)
        for (c, line) in zip(covers, l.lines) {
            #expect(c.y == line.rect.y && c.height == line.rect.height)
            #expect(c.width == line.usedWidth + line.hangingWidth)
        }
    }

    @Test func deviceMetricsUseInkBounds() {
        var s = style15(["Noto Sans"])
        s.options.insert(.usesDeviceMetrics)
        let low = engine.layout("ace", style: s, width: 300)
        let tall = engine.layout("Ágy", style: s, width: 300)
        #expect(low.exactHeight > 5 && low.exactHeight < 10)  // x-height ≈ 0.536 em = 8 pt
        #expect(tall.exactHeight > low.exactHeight)
        #expect(tall.exactHeight < notoSansLine15 + 2)
    }
}
