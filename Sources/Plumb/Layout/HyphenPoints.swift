/// Where a line that ends shows a hyphen, and how wide the hyphen is there: after a soft
/// hyphen, at a dictionary point, or (Pango with `insert-hyphens`) where an overlong word is
/// cut between two letters (`LayoutConventions.HyphenRule`).
///
/// The hyphen counts for the line's width only where the line ends; inside a line a soft
/// hyphen is invisible and a dictionary point is nothing at all.
///
/// - Thread safety: a value type; immutable once prepared.
struct HyphenPoints: Sendable {
    /// What made a point, which decides when the line breaker may end a line there.
    enum Kind: UInt8, Sendable {
        /// After U+00AD (a break opportunity of its own).
        case softHyphen
        /// A hyphenation dictionary's point (a break opportunity added inside a word; under
        /// `standard`, subject to `hyphenationFactor`).
        case dictionary
        /// Inside a word, where only a cut of an overlong word ends a line (no opportunity).
        case cut
        /// After a U+00AD that is no break opportunity, where only a cut ends a line (Blink
        /// under `hyphens: none` still draws the hyphen there).
        case softHyphenCut
    }

    /// Whether an overlong word may be cut right before a soft hyphen (Pango); Blink keeps a
    /// soft hyphen with the text before it, so a cut there moves one cluster back.
    var cutsBeforeSoftHyphens = true
    /// Whether an overlong word's cut goes on past a position whose hyphen does not fit
    /// (`LayoutConventions.HyphenRule.cutsGoPastUnfittingHyphens`).
    var cutsGoPastUnfittingHyphens = false

    /// Graphemes after which a line end shows a hyphen, ascending.
    private(set) var graphemes: [Int32] = []
    /// The hyphen's advance at each point (points, in the font of the text before it; rounded
    /// up to the profile's unit).
    private(set) var widths: [Float] = []
    private(set) var kinds: [Kind] = []
    /// The face each point's hyphen is drawn in: an index into `faces` (the `Font` objects,
    /// opaque to this stage as in `PreparedText.FontUse`).
    private(set) var faceIndexes: [UInt8] = []
    private(set) var faces: [AnyObject & Sendable] = []

    /// No points.
    static let none = HyphenPoints()

    var isEmpty: Bool { graphemes.isEmpty }
    var count: Int { graphemes.count }

    /// Adds a point after grapheme `g`, which must lie after every point so far, its hyphen
    /// `width` wide in `face` (compared by identity; at most 256 faces).
    mutating func append(after g: Int32, width: Double, kind: Kind, face: AnyObject & Sendable) {
        precondition(graphemes.last.map { $0 < g } ?? true, "hyphen points ascending")
        var index = faces.lastIndex { $0 === face }
        if index == nil && faces.count < 256 {
            faces.append(face)
            index = faces.count - 1
        }
        graphemes.append(g)
        widths.append(Float(width))
        kinds.append(kind)
        faceIndexes.append(UInt8(index ?? 0))
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

    /// The face the hyphen after grapheme `g` is drawn in (nil: no point).
    func face(after g: Int32) -> (AnyObject & Sendable)? { index(after: g).map { faces[Int(faceIndexes[$0])] } }

    /// What made the point after grapheme `g` (nil: no point).
    func kind(after g: Int32) -> Kind? { index(after: g).map { kinds[$0] } }

    /// Whether a cut before grapheme `g` would leave a soft hyphen at the next line's start
    /// where the profile keeps it with the text before it.
    func forbidsCut(before g: Int32) -> Bool {
        guard !cutsBeforeSoftHyphens, let kind = kind(after: g) else { return false }
        return kind == .softHyphen || kind == .softHyphenCut
    }

    /// Whether the point after grapheme `g` is a dictionary point.
    func isDictionaryPoint(after g: Int32) -> Bool { kind(after: g) == .dictionary }
}
