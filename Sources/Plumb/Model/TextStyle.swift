/// Everything besides the text and the box that decides a layout: font, paragraph style and
/// drawing options (UIKit's attributes + `NSParagraphStyle` + `NSStringDrawingOptions`).
///
/// All lengths are in points. Zero means "unset" for the optional line-height fields, as in
/// UIKit. Invalid numbers never crash a measurement: they are sanitised with a warning (see
/// `MeasureWarning`).
public struct TextStyle: Hashable, Sendable {
    /// The font: family cascade, size, weight and slant (default: `FontDescriptor()`, Noto
    /// Sans with Noto Sans CJK SC at 17 pt).
    public var font: FontDescriptor
    /// Extra space between consecutive lines; n lines have n − 1 gaps.
    public var lineSpacing: Double = 0
    /// Lower bound of every line's height (0 = unset).
    public var minimumLineHeight: Double = 0
    /// Upper bound of every line's height (0 = unset).
    public var maximumLineHeight: Double = 0
    /// Multiplies the natural line height before min/max clamping (0 = unset).
    public var lineHeightMultiple: Double = 0
    /// Every line's height as a multiple of the font size, as CSS's unitless
    /// `line-height: 1.4` (0 = unset). Unlike `lineHeightMultiple`, which multiplies the
    /// fonts' natural height, this ignores the fonts: 1.4 at 15 pt is 21 pt per line. When
    /// set, `lineHeightMultiple` is not applied; `minimumLineHeight` and
    /// `maximumLineHeight` still clamp it, except under the `chromium` profile, where it is
    /// exactly CSS's (rounded to Blink's 1/64-px layout unit).
    public var lineHeightEm: Double = 0
    /// Extra space after each paragraph but the last.
    public var paragraphSpacing: Double = 0
    /// Extra space before each paragraph but the first.
    public var paragraphSpacingBefore: Double = 0
    /// Added to every grapheme cluster's advance (UIKit's `kern`); may be negative, but a
    /// cluster's advance never drops below 0.
    public var letterSpacing: Double = 0
    /// Added to the advance of every space (U+0020) and no-break space (U+00A0) but one that
    /// starts the text: CSS `word-spacing` (in points; may be negative, but an advance never
    /// drops below 0). UIKit and Pango have no such setting; every profile applies it as Blink
    /// does.
    public var wordSpacing: Double = 0
    /// Tab stops every `tabInterval` points (TextKit's `defaultTabInterval`; 28 by default),
    /// after the last of ``tabStops``. Counted from the box's leading edge under `standard`
    /// and `pango` (where it is a tab array of one stop), and under `chromium` from the content
    /// box (the head indent) as CSS `tab-size` in pixels. ``tabSize`` replaces it when set.
    public var tabInterval: Double = TextStyle.defaultTabInterval
    /// The paragraph's tab stops (UIKit's `NSParagraphStyle.tabStops`, a Pango tab array),
    /// each left, right, center or decimal aligned, from the box's leading edge; past the last
    /// one, stops follow every ``tabInterval`` (TextKit) or repeat the last two stops' distance
    /// (Pango, the `pango` profile). Measuring sorts them and drops duplicates and invalid
    /// locations with a warning. CSS has no tab stops: the `chromium` profile ignores them,
    /// with a warning.
    public var tabStops: [TabStop] = []
    /// CSS `tab-size`: stops every this many spaces or points; replaces ``tabInterval`` when
    /// set (`nil`: `tabInterval`). Under `chromium` a stop closer than half a space is skipped,
    /// as Blink does; under `pango`, `.spaces` is Pango's default tabs (no tab array), which
    /// keep at least a space before the stop.
    public var tabSize: TabSize? = nil
    /// TextKit's tab interval (points): the default, and what an invalid one is replaced by.
    static let defaultTabInterval: Double = 28
    /// Where the first line of each paragraph starts, from the box's leading edge (UIKit's
    /// `firstLineHeadIndent`; 0 = at the edge). Under the `chromium` profile it is CSS
    /// `text-indent` plus `headIndent`: only the text's first line takes it (unless
    /// ``indentEachLine``), and it may be below `headIndent` or negative (the first line starts
    /// left of the others, or of the box). Elsewhere a negative value is replaced by 0 with a
    /// warning.
    public var firstLineHeadIndent: Double = 0
    /// Where every other line starts, from the box's leading edge (UIKit's `headIndent`; a
    /// hanging indent is a `headIndent` above `firstLineHeadIndent`). Negative: 0, with a warning.
    public var headIndent: Double = 0
    /// Where lines end (UIKit's `tailIndent`): above 0, the distance from the box's leading
    /// edge (at most the box width); 0 or below, the distance inside the trailing edge (−20:
    /// 20 points from it).
    public var tailIndent: Double = 0
    /// CSS `text-indent: … each-line` under the `chromium` profile: the first line after every
    /// hard break takes `firstLineHeadIndent` too, not only the text's first. The other
    /// profiles indent every paragraph's first line anyway (UIKit and Pango do).
    public var indentEachLine: Bool = false
    /// The text's language, a BCP 47 tag (`"en-US"`, `"de"`, `"ru"`): which hyphenation
    /// dictionary ``Hyphenation/auto`` uses (`nil`: none, so only soft hyphens). A language
    /// without a dictionary on this machine hyphenates nothing automatically, with a warning.
    public var language: String? = nil
    /// Where words may break with a hyphen (`nil`: the profile's engine's default, see
    /// ``Hyphenation``).
    public var hyphenation: Hyphenation? = nil
    /// UIKit's `hyphenationFactor`, 0–1, read by the `standard` profile: a line may end at a
    /// dictionary hyphenation point only when the line broken at word boundaries alone fills
    /// less than this fraction of its width (1: whenever a word does not fit; 0: never). A
    /// factor above 0 with ``hyphenation`` unset means ``Hyphenation/auto``, as in UIKit;
    /// `auto` with the factor 0 takes 1. CSS and Pango have no factor: under `chromium` and
    /// `pango` it only switches `auto` on.
    public var hyphenationFactor: Double = 0
    /// Keep at most this many lines (0 = unlimited).
    public var maxLines: Int = 0
    /// How lines wrap, and whether and where lines cut off by `maxLines` or `heightLimit`
    /// get an ellipsis (`.wordWrapping` by default: wrapping at word boundaries, no ellipsis
    /// unless `options` has `truncatesLastVisibleLine` and the height limit cut lines).
    public var lineBreakMode: LineBreakMode = .wordWrapping
    /// UIKit's string-drawing options (`.standard` by default: wrap in the box and count the
    /// fonts' line gaps). Without `.usesLineFragmentOrigin` every paragraph is one line.
    public var options: DrawingOptions = .standard
    /// The bounding box height: an upper bound, never a target. `nil`, 0, ∞ and values above
    /// 10⁹ mean unlimited; NaN or a negative value also, with a warning (the result is flagged
    /// as a fallback).
    public var heightLimit: Double? = nil
    /// Whose conventions to follow where engines differ (default: Plumb's own).
    public var compatibility: Compatibility = .standard
    /// Where lines sit in the box (x of each line's rect; cluster positions when justified);
    /// never changes a height.
    public var alignment: TextAlignment = .natural
    /// CSS `white-space` (`nil`: `pre-wrap`); see ``WhiteSpace`` for what Plumb measures.
    public var whiteSpace: WhiteSpace? = nil
    /// CSS `word-break` (`nil`: `normal`).
    public var wordBreak: WordBreak? = nil
    /// CSS `overflow-wrap` (`nil`: `break-word`, UIKit's and Plumb's cutting of overlong
    /// words).
    public var overflowWrap: OverflowWrap? = nil
    /// CSS `line-break` (`nil`: `auto`, the profile's rules).
    public var lineBreak: LineBreakStrictness? = nil
    /// CSS `text-wrap` (`nil`: `wrap`).
    public var textWrap: TextWrap? = nil
    /// CSS `-webkit-line-clamp`: at most this many lines, the last one ending in "…" when text
    /// is cut off (`maxLines` with `.truncatingTail`, which it replaces). `nil` or 0: none.
    public var lineClamp: Int? = nil
    /// The alignment of each paragraph's last line (CSS `text-align-last`; Pango's
    /// `justify-last-line` is `.justified`). `nil`: natural when `alignment` is justified,
    /// else `alignment` itself. Never changes a height.
    public var lastLineAlignment: TextAlignment? = nil
    /// What a truncating line break mode puts where it cuts, instead of "…" (e.g. "… more"
    /// with "more" in bold: YYText's and TextKit's truncation token). Its fonts count for
    /// the height of its line; the layout gives its rect (`TextLayout.truncationToken`) for
    /// hit testing a tap on "more". `nil`: "…" in the style's font.
    public var truncationToken: AttributedText? = nil

    /// A style with the given font and default paragraph settings (no extra spacing,
    /// unlimited lines, word wrapping, `DrawingOptions.standard`, Plumb's own conventions).
    public init(font: FontDescriptor = FontDescriptor()) {
        self.font = font
    }

    /// A style with the given cascade and size and default paragraph settings.
    public init(families: [String], size: Double, weight: Int = 400, italic: Bool = false) {
        self.font = FontDescriptor(families: families, size: size, weight: weight, italic: italic)
    }
}
