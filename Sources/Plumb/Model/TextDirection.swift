/// The writing direction of a paragraph or of a run of text.
public enum TextDirection: String, Hashable, Sendable, CaseIterable {
    /// Left to right (Latin, CJK, …; also a paragraph without a strong character).
    case leftToRight
    /// Right to left (Arabic, Hebrew, …).
    case rightToLeft
}
