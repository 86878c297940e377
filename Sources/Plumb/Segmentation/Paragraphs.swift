/// Splits UTF-8 text at hard breaks: LF, CR LF, CR, NEL (U+0085), LS (U+2028), PS (U+2029).
enum Paragraphs {
    /// The byte ranges of the paragraphs' contents (break characters excluded). Text ending in
    /// a hard break has a final empty paragraph, as TextKit's extra line fragment.
    ///
    /// - Complexity: O(n), allocation of one small array.
    static func ranges(in text: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        var result: [Range<Int>] = []
        var start = 0
        while let (content, next) = next(in: text, from: start) {
            result.append(content)
            start = next
        }
        return result
    }

    /// The paragraph whose content starts at byte `start` (after the previous paragraph's
    /// break, or 0): its content's range and where the next one starts (past `text.count`
    /// after the last one); `nil` once `start` is past the end. Walking it from 0 gives
    /// ``ranges(in:)`` without an array.
    ///
    /// - Complexity: O(length of the paragraph and its break).
    @inline(__always)
    static func next(in text: UnsafeBufferPointer<UInt8>, from start: Int) -> (content: Range<Int>, next: Int)? {
        let n = text.count
        guard start <= n else { return nil }
        var i = start
        while i < n {
            // Eight bytes at a time while none can start a break (LF, CR, NEL's 0xC2, LS's
            // and PS's 0xE2): most paragraphs have no break until their end.
            if i + 8 <= n, !mayStartBreak(UnsafeRawPointer(text.baseAddress.unsafelyUnwrapped + i).loadUnaligned(as: UInt64.self)) {
                i += 8
                continue
            }
            let b = text[i]
            var breakLength = 0
            if b == 0x0A {
                breakLength = 1
            } else if b == 0x0D {
                breakLength = (i + 1 < n && text[i + 1] == 0x0A) ? 2 : 1
            } else if b == 0xC2, i + 1 < n, text[i + 1] == 0x85 {
                breakLength = 2
            } else if b == 0xE2, i + 2 < n, text[i + 1] == 0x80,
                text[i + 2] == 0xA8 || text[i + 2] == 0xA9
            {
                breakLength = 3
            }
            if breakLength > 0 { return (start..<i, i + breakLength) }
            i += 1
        }
        return (start..<n, n + 1)
    }

    /// Whether the hard break that ends just before byte `start` (a paragraph's first byte)
    /// is a line separator, U+2028 LS or U+0085 NEL, rather than a paragraph break: UIKit
    /// (`NSString`'s paragraph ranges) and Pango continue the paragraph across it.
    ///
    /// - Complexity: O(1).
    static func isLineSeparator(before start: Int, in text: UnsafeBufferPointer<UInt8>) -> Bool {
        if start >= 3, text[start - 3] == 0xE2, text[start - 2] == 0x80, text[start - 1] == 0xA8 { return true }
        return start >= 2 && text[start - 2] == 0xC2 && text[start - 1] == 0x85
    }

    /// Whether one of the eight bytes of `word` is 0x0A, 0x0D, 0xC2 or 0xE2 (a zero byte of
    /// `word` XOR the byte repeated: the exact test `(x − 0x01…) & ~x & 0x80…` ≠ 0).
    ///
    /// - Complexity: O(1), ~20 operations for 8 bytes.
    @inline(__always)
    static func mayStartBreak(_ word: UInt64) -> Bool {
        hasByte(0x0A, in: word) | hasByte(0x0D, in: word) | hasByte(0xC2, in: word) | hasByte(0xE2, in: word) != 0
    }

    /// Nonzero iff one of the eight bytes of `word` is `byte` (a zero byte of the XOR).
    ///
    /// - Complexity: O(1), four operations.
    @inline(__always)
    static func hasByte(_ byte: UInt8, in word: UInt64) -> UInt64 {
        let x = word ^ (UInt64(byte) &* 0x0101_0101_0101_0101)
        return (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080
    }
}
