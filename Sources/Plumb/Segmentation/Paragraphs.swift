/// Splits UTF-8 text at hard breaks: LF, CR LF, CR, NEL (U+0085), LS (U+2028), PS (U+2029).
enum Paragraphs {
    /// The byte ranges of the paragraphs' contents (break characters excluded). Text ending in
    /// a hard break has a final empty paragraph, as TextKit's extra line fragment.
    ///
    /// - Complexity: O(n), allocation of one small array.
    static func ranges(in text: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        var result: [Range<Int>] = []
        var start = 0
        var i = 0
        let n = text.count
        while i < n {
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
            if breakLength > 0 {
                result.append(start..<i)
                i += breakLength
                start = i
            } else {
                i += 1
            }
        }
        result.append(start..<n)
        return result
    }
}
