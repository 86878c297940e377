/// The single-byte (ASCII) clusters of a paragraph, for the compatibility profiles' rules about
/// pairs of ASCII characters.
struct ASCIIClusters {
    let para: UnsafeBufferPointer<UInt8>
    let base: Int32
    /// The paragraph's first grapheme (it starts at `base`; every other starts at the
    /// previous one's end).
    let first: Int
    let ends: Column<Int32>

    @inline(__always)
    private func startOffset(_ g: Int) -> Int { g == first ? 0 : Int(ends[g - 1] - base) }

    /// The byte of cluster `g` if it is a single ASCII byte.
    func byte(_ g: Int) -> UInt8? {
        let start = startOffset(g)
        return Int(ends[g] - base) - start == 1 ? para[start] : nil
    }

    /// Whether a Blink tailoring could add a break between a cluster starting with `lead` and
    /// one starting with `nextLead`: after `-`, `?` or 0xD6 (the maqaf's lead byte), or before
    /// an opening bracket `( < [ {` — a superset of where `TextPreparer.chromiumASCIIBreak`
    /// or LB21a answer yes.
    @inline(__always)
    static func mayBreakAfter(lead: UInt8, nextLead: UInt8) -> Bool {
        lead == UInt8(ascii: "-") || lead == UInt8(ascii: "?") || lead == 0xD6 || nextLead == UInt8(ascii: "(")
            || nextLead == UInt8(ascii: "<") || nextLead == UInt8(ascii: "[") || nextLead == UInt8(ascii: "{")
    }

    /// Whether cluster `g` is U+00A0 NO-BREAK SPACE.
    func isNoBreakSpace(_ g: Int) -> Bool {
        let start = startOffset(g)
        return Int(ends[g] - base) - start == 2 && para[start] == 0xC2 && para[start + 1] == 0xA0
    }

    /// Whether cluster `g` is a Hebrew letter (UAX #14 class HL: U+05D0–U+05EA, U+05EF–U+05F2,
    /// U+FB1D–U+FB4F), possibly with marks.
    func isHebrewLetter(_ g: Int) -> Bool {
        guard let s = firstScalar(g) else { return false }
        return (0x05D0...0x05EA).contains(s) || (0x05EF...0x05F2).contains(s) || (0xFB1D...0xFB4F).contains(s)
    }

    /// Whether cluster `g` is U+05BE HEBREW PUNCTUATION MAQAF.
    func isMaqaf(_ g: Int) -> Bool { firstScalar(g) == 0x05BE }

    /// The first scalar of cluster `g` if it is a two-byte UTF-8 sequence or a Hebrew
    /// presentation form (three bytes); `nil` otherwise.
    private func firstScalar(_ g: Int) -> UInt32? {
        let start = startOffset(g)
        let lead = UInt32(para[start])
        if lead & 0xE0 == 0xC0 { return (lead & 0x1F) << 6 | UInt32(para[start + 1] & 0x3F) }
        if lead == 0xEF {
            return (lead & 0x0F) << 12 | UInt32(para[start + 1] & 0x3F) << 6 | UInt32(para[start + 2] & 0x3F)
        }
        return nil
    }

    static func isDigit(_ c: UInt8?) -> Bool { c.map { (0x30...0x39).contains($0) } ?? false }

    /// `!` … `~`: the characters Blink's ASCII pair rules cover.
    static func isPrintable(_ c: UInt8) -> Bool { (0x21...0x7E).contains(c) }

    static func isLetterOrDigit(_ c: UInt8?) -> Bool {
        guard let c else { return false }
        let lower: UInt8 = c | 0x20
        return isDigit(c) || (0x61...0x7A).contains(lower)
    }
}

/// A set of ASCII bytes as a 128-bit mask: `contains` is two shifts and an AND.
struct ASCIISet {
    private var bits: (UInt64, UInt64) = (0, 0)

    init(_ characters: StaticString) {
        characters.withUTF8Buffer { for c in $0 { insert(c) } }
    }

    private mutating func insert(_ c: UInt8) {
        if c < 64 { bits.0 |= 1 << UInt64(c) } else if c < 128 { bits.1 |= 1 << UInt64(c - 64) }
    }

    @inline(__always)
    func contains(_ c: UInt8) -> Bool {
        c < 64 ? bits.0 & (1 << UInt64(c)) != 0 : c < 128 && bits.1 & (1 << UInt64(c - 64)) != 0
    }
}

/// The scalars of valid UTF-8 bytes, decoded lazily (no allocation).
struct UTF8Scalars: Sequence, IteratorProtocol {
    private var bytes: UnsafeBufferPointer<UInt8>.Iterator
    private var decoder = UTF8()

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes.makeIterator() }

    mutating func next() -> Unicode.Scalar? {
        switch decoder.decode(&bytes) {
        case .scalarValue(let s): s
        case .error: "\u{FFFD}"
        case .emptyInput: nil
        }
    }
}
