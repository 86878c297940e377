@testable import Plumb
import Testing

/// `SortedFonts` built from fontconfig's untrimmed sort answers as the trimmed sort did
/// (issue 16 §2, branch `cold3`): the same faces kept, in the same order, and the same first
/// face for every cluster, whether the trim state is filled by lookups or all at once.
@Suite struct SortedFontsTrimTests {
    /// Patterns of the cascades the corpus and the profiles use (first family, weight, slant,
    /// sample language), plus a family this machine lacks and no family at all.
    static let patterns: [(family: String?, weight: Int, italic: Bool, language: String)] = [
        ("Noto Sans", 400, false, "en"), ("Noto Sans", 700, false, "zh-cn"),
        ("Noto Sans", 400, true, "ja"), ("Noto Sans", 400, false, "ar"),
        ("Noto Sans", 400, false, "hi"), ("Noto Sans CJK SC", 400, false, "ko"),
        ("SF Pro Text", 400, false, "th"), (nil, 400, false, "en"),
    ]

    /// Code points sampled over the planes fonts here cover (every 7th below U+3400, every
    /// 97th up to U+2FFFF) and some clusters of two that no single early face may have.
    static var samples: [[Unicode.Scalar]] {
        var singles: [[Unicode.Scalar]] = []
        for v in stride(from: 0x20, to: 0x3400, by: 7) { if let s = Unicode.Scalar(UInt32(v)) { singles.append([s]) } }
        for v in stride(from: 0x3400, to: 0x30000, by: 97) { if let s = Unicode.Scalar(UInt32(v)) { singles.append([s]) } }
        let pairs: [[Unicode.Scalar]] = [
            ["a", "\u{0627}"], ["\u{0905}", "\u{4E00}"], ["\u{0E01}", "a"], ["\u{1F600}", "x"],
            ["\u{05D0}", "\u{0301}"], ["\u{AC00}", "\u{3042}"], ["\u{0391}", "\u{0410}"],
        ]
        return singles + pairs
    }

    private func withSorts(_ body: (SortedFonts, SortedFonts) -> Void) {
        let config = Fontconfig.loadConfig() ?? Fontconfig.emptyConfig()
        defer { Fontconfig.destroy(config: config) }
        for p in Self.patterns {
            guard
                let a = Fontconfig.makePattern(family: p.family, weight: p.weight, italic: p.italic, language: p.language, color: nil),
                let b = Fontconfig.makePattern(family: p.family, weight: p.weight, italic: p.italic, language: p.language, color: nil)
            else { Issue.record("no pattern"); return }
            defer { Fontconfig.destroy(pattern: a); Fontconfig.destroy(pattern: b) }
            guard let trimmed = Fontconfig.sort(config: config, pattern: a, trim: true),
                let lazy = Fontconfig.sort(config: config, pattern: b)
            else { Issue.record("no sort"); return }
            body(trimmed, lazy)
        }
    }

    private func firstMatch(_ sorted: SortedFonts, _ scalars: [Unicode.Scalar]) -> String? {
        for i in 0..<sorted.count {
            if let m = sorted.match(at: i, covering: scalars) { return "\(m.path)#\(m.faceIndex)" }
        }
        return nil
    }

    /// The kept faces of the untrimmed sort are fontconfig's trimmed list.
    @Test func keptFacesAreFontconfigsTrimmedList() {
        withSorts { trimmed, lazy in
            #expect(lazy.count > trimmed.count)
            #expect(lazy.keptFaces() == trimmed.keptFaces())
        }
    }

    /// The first face covering a cluster is the same, the trim filled lazily by the lookups.
    @Test func firstCoveringFaceIsTheSameForSampledClusters() {
        let samples = Self.samples
        withSorts { trimmed, lazy in
            var differing = 0
            for cluster in samples where firstMatch(trimmed, cluster) != firstMatch(lazy, cluster) {
                differing += 1
            }
            #expect(differing == 0)
            #expect(lazy.keptFaces() == trimmed.keptFaces())
        }
    }
}
