/// Where a line that ends shows a hyphen, and how wide the hyphen is there: after a soft
/// hyphen, at a dictionary point, or (Pango with `insert-hyphens`) where an overlong word is
/// cut between two letters (`LayoutConventions.HyphenRule`).
///
/// The hyphen counts for the line's width only where the line ends; inside a line a soft
/// hyphen is invisible and a dictionary point is nothing at all.
///
/// - Thread safety: a value type; immutable once prepared.
struct HyphenPoints: Sendable, Equatable {
    /// What made a point, which decides when the line breaker may end a line there.
    enum Kind: UInt8, Sendable {
        /// After U+00AD (a break opportunity of its own).
        case softHyphen
        /// A hyphenation dictionary's point (a break opportunity added inside a word; under
        /// `standard`, subject to `hyphenationFactor`).
        case dictionary
        /// Inside a word, where only a cut of an overlong word ends a line (no opportunity).
        case cut
    }

    /// Graphemes after which a line end shows a hyphen, ascending.
    private(set) var graphemes: [Int32] = []
    /// The hyphen's advance at each point (points, in the font of the text before it; rounded
    /// up to the profile's unit).
    private(set) var widths: [Float] = []
    private(set) var kinds: [Kind] = []

    /// No points.
    static let none = HyphenPoints()

    var isEmpty: Bool { graphemes.isEmpty }
    var count: Int { graphemes.count }

    /// Adds a point after grapheme `g`, which must lie after every point so far.
    mutating func append(after g: Int32, width: Double, kind: Kind) {
        precondition(graphemes.last.map { $0 < g } ?? true, "hyphen points ascending")
        graphemes.append(g)
        widths.append(Float(width))
        kinds.append(kind)
    }

    /// Removes the points from index `k` on (a paragraph's points, prepared again).
    mutating func removeSuffix(from k: Int) {
        graphemes.removeSubrange(k...)
        widths.removeSubrange(k...)
        kinds.removeSubrange(k...)
    }

    /// The index of the point after grapheme `g`, if there is one.
    ///
    /// - Complexity: O(log points).
    func index(after g: Int32) -> Int? {
        var lo = 0, hi = graphemes.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if graphemes[mid] < g { lo = mid + 1 } else { hi = mid }
        }
        return lo < graphemes.count && graphemes[lo] == g ? lo : nil
    }

    /// The hyphen a line ending after grapheme `g` shows: its width (0 when none).
    ///
    /// - Complexity: O(log points); O(1) without points.
    @inline(__always)
    func width(after g: Int32) -> Double {
        guard !graphemes.isEmpty, let k = index(after: g) else { return 0 }
        return Double(widths[k])
    }

    /// What made the point after grapheme `g` (nil: no point).
    func kind(after g: Int32) -> Kind? { index(after: g).map { kinds[$0] } }

    /// Whether the point after grapheme `g` is a dictionary point.
    func isDictionaryPoint(after g: Int32) -> Bool { kind(after: g) == .dictionary }
}
