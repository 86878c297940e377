import PropertyTesting
import Testing

@Suite struct TextGeneratorTests {
    private func scalars(_ strings: [String], in range: ClosedRange<UInt32>) -> Bool {
        strings.contains { $0.unicodeScalars.contains { range.contains($0.value) } }
    }

    @Test func textCoversEveryCategoryAndIsValid() {
        let maxClusters = 40
        let strings = Gen.text(maxClusters: maxClusters).sample(count: 1_500, seed: 2024)
        for string in strings {
            #expect(String(decoding: string.utf8, as: UTF8.self) == string)
            #expect(string.count <= maxClusters)
        }
        let checks: [(String, ClosedRange<UInt32>)] = [
            ("Han", 0x4E00...0x9FFF), ("kana", 0x3040...0x30FF), ("Hangul", 0xAC00...0xD7AF),
            ("Cyrillic", 0x0400...0x04FF), ("Arabic", 0x0600...0x06FF), ("Hebrew", 0x0590...0x05FF),
            ("Thai", 0x0E00...0x0E7F), ("precomposed Latin", 0x00C0...0x017F),
            ("combining mark", 0x0300...0x036F), ("ZWJ", 0x200D...0x200D),
            ("skin tone", 0x1F3FB...0x1F3FF), ("regional indicator", 0x1F1E6...0x1F1FF),
            ("keycap", 0x20E3...0x20E3), ("VS16", 0xFE0F...0xFE0F), ("single emoji", 0x1F600...0x1F64F),
            ("NBSP", 0xA0...0xA0), ("ZWSP", 0x200B...0x200B), ("tab", 0x09...0x09),
            ("LF", 0x0A...0x0A), ("CR", 0x0D...0x0D), ("LS", 0x2028...0x2028),
            ("PS", 0x2029...0x2029), ("NEL", 0x85...0x85),
        ]
        for (name, range) in checks {
            #expect(scalars(strings, in: range), "no \(name) in \(strings.count) strings")
        }
        let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}\u{200D}\u{1F466}"
        #expect(strings.contains { $0.contains(family) }, "ZWJ family")
        #expect(strings.contains { $0.contains("\u{1F44D}\u{1F3FD}") || $0.contains("\u{1F44B}\u{1F3FB}") }, "skin tone")
        #expect(strings.contains { $0.contains("\r\n") }, "CRLF")
        #expect(strings.contains { $0.contains(String(repeating: "a", count: 40)) || $0.contains("https://") }, "long unbreakable word")
        #expect(strings.contains { $0.contains(" ") }, "spaces")
        #expect(strings.contains { $0.isEmpty }, "empty string")
        #expect(strings.contains { $0.count == maxClusters }, "strings up to the limit")
    }

    @Test func textRespectsTheChosenPieces() {
        let ascii = Gen.text(maxClusters: 30, pieces: [.asciiWords, .spaces]).sample(count: 300, seed: 8)
        #expect(ascii.allSatisfy { $0.unicodeScalars.allSatisfy { $0.isASCII && $0.value != 0x09 && $0.value != 0x0A } })
        #expect(ascii.contains { $0.contains(" ") })

        let cjk = Gen.text(maxClusters: 10, pieces: .cjk).sample(count: 300, seed: 8)
        #expect(cjk.allSatisfy { $0.unicodeScalars.allSatisfy { $0.value >= 0x3040 } })

        let singleLine = Gen.text(maxClusters: 30, pieces: .singleLine).sample(count: 500, seed: 8)
        #expect(!singleLine.contains { $0.unicodeScalars.contains { [0x0A, 0x0D, 0x85, 0x2028, 0x2029].contains($0.value) } })
    }

    @Test func wordsContainNoWhitespace() {
        let words = Gen.word.sample(count: 500, seed: 3)
        #expect(words.allSatisfy { !$0.isEmpty && !$0.contains { $0.isWhitespace } })
        #expect(Set(words).count > 100)
        #expect(Gen.word(from: .han).sample(count: 50, seed: 1).allSatisfy { TextCorpus.han.contains($0) })
    }
}
