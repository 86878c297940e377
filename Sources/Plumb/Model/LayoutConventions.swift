/// The conventions a layout follows where serious engines differ, as named knobs.
///
/// A `Compatibility` profile is resolved into one of these when a style is sanitized; from then
/// on every stage reads knobs and none asks which engine it imitates. A new profile is a new
/// value (see ``Compatibility/conventions``), not new branches. Each knob names one measured
/// rule; `Documentation/Accuracy.md` says where each was measured.
///
/// - Thread safety: a value type; share freely.
struct LayoutConventions: Hashable, Sendable {
    /// Which ICU line-break rules give the base opportunities.
    var breakRules: BreakRules
    /// The ICU locale whose tailored line-break rules apply with a `lb` keyword (`ja`, `zh`:
    /// ICU's `line_normal_cj`, `line_loose_cj`), from the style's language; `nil`: none.
    var breakLocale: String? = nil
    /// Tailorings applied over ICU's opportunities, in a fixed order (see `BreakTailoring`).
    var breakTailoring: BreakTailoring
    /// Which font shapes a run of spaces between clusters of different fonts.
    var spaceFonts: SpaceFontRule
    /// How much trailing whitespace hangs past the line end.
    var trailingSpaces: TrailingSpaceRule
    /// How a line's width is compared with the box.
    var lineFit: LineFitArithmetic
    /// How a glyph's advance in font units becomes points.
    var advanceScaling: AdvanceScaling
    /// Which brackets pair in script itemization (a closing bracket takes its opening
    /// bracket's script).
    var scriptBracketPairing: BracketPairing
    /// Whether kana and kanji are shaped as one run (Blink, `コピー|で` kerns) instead of a
    /// run per script.
    var shapesKanaWithKanji: Bool
    /// Whether the cluster before a line end is re-shaped alone (its advance without the
    /// kerning or ligature it formed with the next cluster), as Blink does at breaks and cuts.
    var reshapesLineEnds: Bool
    /// Which language HarfBuzz shapes with.
    var shapingLanguage: ShapingLanguage
    /// Whether a lone emoji with a text-style glyph in a cascade font takes that glyph rather
    /// than the color emoji font (Blink's font choice).
    var loneEmojiTakesFamilyGlyph: Bool
    /// Whether a cluster no cascade font covers falls back to a regular upright face whatever
    /// the requested weight and slant (Blink, which then synthesises bold and oblique without
    /// changing advances); otherwise fallback asks for the requested weight and slant.
    var fallbackFacesAreRegular: Bool = false
    /// What fontconfig is asked for a cluster no cascade font covers.
    var fallbackQuery: FallbackQuery = .firstFamily
    /// How a face without the weight or slant asked for is drawn (advances never change).
    var synthesis: FontSynthesis = .none
    /// How line heights come from the fonts' metrics (`LineHeightModel`).
    var lineHeights: LineHeightRule = .uikit
    /// Which lines take the first-line indent, and whether it may be an outdent.
    var indents: IndentRule = .eachParagraph
    /// Where tab stops are counted from and how the listed ones continue (TextKit's rules).
    var tabs: TabRule = .textKit
    /// What each hyphenation mode allows and how dictionary points are limited (TextKit's).
    var hyphens: HyphenRule = .textKit
    /// Where a justified line stretches and which lines do (TextKit's as far as known).
    var justification: JustifyRule = .textKit
    /// The grid the box width snaps down to, in points: Blink's layout unit (a CSS width is
    /// floored to 1/64 px), Pango's unit (1/1024 pt); 0: the device-pixel grid (UIKit's
    /// cells sit on it).
    var widthUnit = 0.0
    /// The languages whose tailored rules apply under `line-break: auto` (Blink: Chinese, not
    /// Japanese, measured in Chromium with `lang`); with an explicit keyword every tailored
    /// language's do.
    var tailorsAutoLineBreaking: Set<String> = []
    /// Whether a text ending with a hard break has an empty line after it (TextKit's extra
    /// line fragment, Pango's empty last paragraph); Blink makes none (measured: a
    /// `pre-wrap` div of "abc\n" is one line high).
    var endsWithEmptyLineAfterBreak = true
    /// Whether CSS `text-wrap: balance` evens a paragraph's lines (Blink's bisection of the
    /// available width, `LineBreaker.breakBalancedParagraph`); UIKit and Pango have no such mode.
    var balancesText = false

    /// How a justified line spreads its leftover width (`LineJustification`).
    struct JustifyRule: Hashable, Sendable {
        /// Where the leftover width goes.
        var opportunities: Opportunities
        /// Whether spaces take shares in proportion to their advances (Pango), else equal.
        var sharesFollowSpaceWidths = false
        /// Shares are whole multiples of 1/`unitsPerPoint` pt, whole points when the leftover
        /// is (Pango units); 0: exact.
        var unitsPerPoint = 0
        /// The line's natural width is rounded up to this unit before the leftover is taken
        /// (Blink's layout unit: the line's inline size is in layout units; 0: exact).
        var lineWidthUnit = 0.0

        /// The places a justified line stretches.
        enum Opportunities: Hashable, Sendable {
            /// After each space (U+0020, U+00A0); on a line without one, between its clusters
            /// (Pango's `justify_words` then `justify_clusters`; TextKit letter-spaces a line
            /// without spaces).
            case spacesElseClusters
            /// After each space and on both sides of CJK ideographs and symbols (Blink's
            /// `text-justify: auto`); a line without any is not stretched.
            case spacesAndIdeographs
        }

        /// TextKit (not measured here: no Apple system): equal shares at spaces, else between
        /// clusters, exact.
        static let textKit = JustifyRule(opportunities: .spacesElseClusters)
        /// Blink: spaces and ideographs, equal shares.
        static let css = JustifyRule(opportunities: .spacesAndIdeographs, lineWidthUnit: blinkLayoutUnit)
        /// Pango 1.50: spaces by their widths, else clusters, in Pango units.
        static let pango = JustifyRule(
            opportunities: .spacesElseClusters, sharesFollowSpaceWidths: true, unitsPerPoint: pangoUnitsPerPoint)
    }

    /// How hyphenation works in the profile's engine (`Hyphenation` has the table).
    struct HyphenRule: Hashable, Sendable {
        /// The mode of a style that sets none.
        var defaultMode: Hyphenation = .manual
        /// Whether `none` keeps the break after a soft hyphen and only hides the hyphen
        /// (Pango's `insert-hyphens` off); CSS's `hyphens: none` removes the opportunity.
        var noneKeepsSoftHyphenBreaks = false
        /// Whether a hyphen shows where an overlong word is cut between two letters (Pango's
        /// `break_inserts_hyphen`: not after Han, Hangul or kana, not at a word boundary, not
        /// next to a space or a hyphen).
        var hyphenatesCuts = false
        /// Whether the engine hyphenates from dictionaries (Pango has none: `auto` is `manual`).
        var hasDictionaries = true
        /// The fewest letters a word needs to be hyphenated from the dictionary, and the
        /// fewest before and after a hyphen (0: the dictionary's own minimums).
        var minimumWordLength = 0
        var minimumPrefix = 0
        var minimumSuffix = 0
        /// Whether a capitalized word in English is hyphenated (Blink: not in `en*` locales).
        var hyphenatesCapitalizedEnglish = true
        /// Whether `hyphenationFactor` limits dictionary points (TextKit).
        var readsFactor = false
        /// The hyphen's advance in the line's width is rounded up to this unit (Blink's
        /// layout unit; 0: exact).
        var widthUnit = 0.0
        /// Which font draws the hyphen.
        var hyphenFont: HyphenFont = .precedingText
        /// Whether a soft hyphen shows its hyphen only between two word characters (letters,
        /// marks or digits), not after Han, Hangul or kana (Pango: no hyphen at a word boundary
        /// or in those scripts).
        var softHyphenNeedsWordNeighbours = false
        /// Whether a line ending in spaces after a soft hyphen shows the hyphen (Blink: the
        /// spaces hang, the text before them ends with U+00AD); with it, Blink's other soft
        /// hyphen habits: under `none` a cut right after U+00AD still shows the hyphen, a cut
        /// never falls right before one, and a final U+00AD needs room for its hyphen.
        var softHyphenBeforeSpacesShows = false
        /// Whether an overlong word's cut goes on past a position whose hyphen does not fit
        /// (Blink: the last position that fits wins); Pango stops at the first (its
        /// `process_item` loop).
        var cutsGoPastUnfittingHyphens = false

        /// The font a hyphen is drawn in.
        enum HyphenFont: Hashable, Sendable {
            /// The font of the text before the hyphen (Pango's `find_hyphen_width`: the item's).
            case precedingText
            /// The first font of the style's cascade that has U+2010, else "-" (Blink shapes
            /// the hyphen string with the element's font).
            case styleCascade
        }

        /// TextKit: soft hyphens by default, dictionary points under `hyphenationFactor`.
        static let textKit = HyphenRule(readsFactor: true)
        /// Blink: `hyphens: manual` by default; `none` ignores soft hyphens; words of 5 letters
        /// or more, 2 before and after the hyphen (`hyphenate-limit-chars: auto`), not
        /// capitalized English words; the hyphen in the style's font, its width in layout
        /// units, shown also where spaces follow the soft hyphen.
        static let css = HyphenRule(
            minimumWordLength: 5, minimumPrefix: 2, minimumSuffix: 2, hyphenatesCapitalizedEnglish: false,
            widthUnit: LayoutConventions.blinkLayoutUnit, hyphenFont: .styleCascade, softHyphenBeforeSpacesShows: true,
            cutsGoPastUnfittingHyphens: true)
        /// Pango 1.50: `insert-hyphens` off by default (the profile's conformance sets); on,
        /// hyphens at soft hyphens between word characters and at cuts inside words; no
        /// dictionaries.
        static let pango = HyphenRule(
            defaultMode: .none, noneKeepsSoftHyphenBreaks: true, hyphenatesCuts: true, hasDictionaries: false,
            softHyphenNeedsWordNeighbours: true)
    }

    /// How tab stops work in the profile's engine (measured for Pango and Chromium;
    /// `NSTextTab`'s documentation for TextKit).
    struct TabRule: Hashable, Sendable {
        /// Stops are counted from the box's leading edge (TextKit's back margin, Pango's
        /// layout edge) or from the content box inside the head indent (CSS: the padding
        /// edge, `text-indent` inside the ruler).
        var countsFromHeadIndent = false
        /// The engine has listed tab stops (CSS has only `tab-size`).
        var takesTabStops = true
        /// Past the last listed stop the stops continue from it at the last two stops'
        /// distance with its alignment (Pango), not at multiples of the interval (TextKit).
        var continuesLastStop = false
        /// A decimal stop centres the decimal point on it (Pango), rather than starting it
        /// there (TextKit: the text before it ends at the stop).
        var centresDecimalPoint = false
        /// A stop closer than this many spaces to the pen is skipped, for every interval
        /// (Blink's `Font::TabWidth`: half a space).
        var minimumGapInSpaces = 0.0
        /// A `tab-size` in spaces is Pango's default tabs, which keep at least a space before
        /// the stop (a tab array is respected to the pixel).
        var spacesKeepASpace = false
        /// The engine's unit of positions (Pango: 1/1024 pt) or 0: a space is rounded to it
        /// for `tab-size` in spaces, and a stop must lie a unit past the pen.
        var positionUnit = 0.0

        /// TextKit's: from the leading edge, stops then multiples of the interval.
        static let textKit = TabRule()
        /// Pango 1.50's.
        static let pango = TabRule(
            continuesLastStop: true, centresDecimalPoint: true, spacesKeepASpace: true, positionUnit: 1.0 / 1024)
        /// Blink's: CSS `tab-size` only, from the content box, half a space at least.
        static let css = TabRule(countsFromHeadIndent: true, takesTabStops: false, minimumGapInSpaces: 0.5)
    }

    /// How `TextStyle.firstLineHeadIndent` applies.
    enum IndentRule: Hashable, Sendable {
        /// Every paragraph's first line, and no indent below 0 (UIKit's `NSParagraphStyle`,
        /// Pango's `pango_layout_set_indent`, which indents each paragraph).
        case eachParagraph
        /// CSS `text-indent`: the text's first line only (every paragraph's with
        /// `each-line`), and the first line may start before the others, even before the box
        /// (a negative `text-indent`).
        case cssTextIndent
    }

    /// The ICU rule set for base break opportunities.
    enum BreakRules: Hashable, Sendable {
        /// ICU's default UAX #14 rules (strict for small kana).
        case uax14
        /// ICU with CSS `line-break: normal` (`@lb=normal`): breaks before small kana.
        case cssLineBreakNormal
        /// ICU with CSS `line-break: loose` (`@lb=loose`): also before iteration marks and
        /// some CJK punctuation.
        case cssLineBreakLoose

        /// ICU's `lb` locale keyword for the rules (`nil`: its default rules).
        var icuKeyword: String? {
            switch self {
            case .uax14: nil
            case .cssLineBreakNormal: "normal"
            case .cssLineBreakLoose: "loose"
            }
        }
    }

    /// Named tailorings of ICU's break opportunities, each measured against an engine.
    struct BreakTailoring: OptionSet, Hashable, Sendable {
        let rawValue: UInt16
        /// Unicode 15.1's LB19a: a curly quote between two East Asian characters may start or
        /// end a line (ICU 72 predates it).
        static let lb19aQuotes = BreakTailoring(rawValue: 1 << 0)
        /// A break after every run of spaces, unless a no-break space follows (Blink).
        static let afterEverySpaceRun = BreakTailoring(rawValue: 1 << 1)
        /// Between two printable ASCII characters only the breaks of Blink's legacy table.
        static let blinkASCIIPairs = BreakTailoring(rawValue: 1 << 2)
        /// Unicode 15.1's LB21a: after a Hebrew letter and a hyphen, a break before another
        /// Hebrew letter.
        static let lb21aHebrewHyphen = BreakTailoring(rawValue: 1 << 3)
        /// A break after a hyphen-minus that follows a space and precedes a letter or digit
        /// (Pango: `sort -|u`).
        static let afterSpacedHyphen = BreakTailoring(rawValue: 1 << 4)
        /// A break after `.` between `%` or `$` and a digit (Pango applies IS × NU only inside
        /// numbers).
        static let afterPeriodFollowingSign = BreakTailoring(rawValue: 1 << 5)
        /// A break before and after every inline box, as CSS lays out an atomic inline (Blink);
        /// without it a box breaks like U+FFFC under UAX #14 (ICU, Pango).
        static let aroundInlineBoxes = BreakTailoring(rawValue: 1 << 6)
        /// A break between every two clusters but before a hanging space (CSS
        /// `line-break: anywhere`).
        static let everyCluster = BreakTailoring(rawValue: 1 << 7)
        /// A break between two letters or digits (CSS `word-break: break-all`).
        static let betweenLetters = BreakTailoring(rawValue: 1 << 8)
        /// No break between two CJK letters: ideographs, kana, Hangul (CSS `word-break:
        /// keep-all`).
        static let keepsCJKWords = BreakTailoring(rawValue: 1 << 9)
    }

    /// The font that shapes a run of spaces.
    enum SpaceFontRule: Hashable, Sendable {
        /// The cluster's own choice: the first cascade font that has a space (Blink: the
        /// primary font shapes every character it has, so a space between two fallback-font
        /// words is the primary font's; measured in Chromium 156).
        case ownChoice
        /// Pango's rule (its itemizer gives a space the font of the character before it): the
        /// run keeps the font of the cluster before it, or takes the better of the fonts
        /// around it within one script run; never a color font; never across a style run.
        case neighbouringFont
    }

    /// How much trailing whitespace hangs.
    enum TrailingSpaceRule: Hashable, Sendable {
        /// Every trailing space hangs (UIKit, CSS).
        case allHang
        /// Only the last trailing space hangs, so a space fits only if the line before it does
        /// (Pango).
        case lastHangs
    }

    /// How a line's width is compared with the box width.
    enum LineFitArithmetic: Hashable, Sendable {
        /// The sum of the advances fits when it exceeds the width by at most `tolerance`
        /// points (floating-point noise).
        case exact(tolerance: Double)
        /// Blink's arithmetic: positions rounded up to a layout unit (1/64 px), a line ending
        /// where the text was shaped across it re-shaped there, and a line that overflows by
        /// less than one unit still fits.
        case layoutUnits(unit: Double)

        /// How far a line may exceed the box and still fit (points).
        var tolerance: Double {
            switch self {
            case .exact(let t): t
            case .layoutUnits(let unit): unit
            }
        }
    }

    /// How advances in font units become points.
    enum AdvanceScaling: Hashable, Sendable {
        /// `units × size / upem`, exactly.
        case exact
        /// FreeType's 16.16 fixed point, and whole pixels at a bitmap font's strike (Chromium on
        /// Linux).
        case freeTypeFixedPoint
    }

    /// Which opening/closing pairs script itemization matches.
    enum BracketPairing: Hashable, Sendable {
        /// ICU `usc` and Pango: brackets, quotation marks and `<…>`.
        case bracketsAndQuotes
        /// Blink: only Unicode's bidi paired brackets (BidiBrackets.txt).
        case bidiBracketsOnly
    }

    /// The fontconfig query behind a fallback font (the first face of its sorted list that
    /// has every character of the cluster).
    enum FallbackQuery: Hashable, Sendable {
        /// The cascade's first family, weight and slant, and the script's language (Pango's
        /// fontset, and UIKit's cascade, which fontconfig stands in for).
        case firstFamily
        /// No family: the character and the script's language only, so the default family
        /// (`sans-serif`) leads the list (Blink on Linux, `gfx::GetFallbackFontForChar`).
        case characterOnly
    }

    /// Who draws a bold or italic that the face lacks, and how (`FontSynthesis.swift` has
    /// the numbers). Measured in every engine: synthesis changes no advance and no metric.
    enum FontSynthesis: Hashable, Sendable {
        /// UIKit: a named family is drawn in its nearest face as it is.
        case none
        /// Blink with Skia: bold from weight 600 on faces below 600, the outline stroked
        /// (`SkScalarInterpFunc` of the size); oblique as a skew of 1/4.
        case skia
        /// Pango with fontconfig's `90-synthetic.conf` and cairo: bold from weight 700 on faces
        /// of 500 and below, the outline emboldened by 1/24 em (`FT_GlyphSlot_Embolden`);
        /// oblique as a shear of 0.2.
        case fontconfig
    }

    /// How a line's height follows from its fonts.
    enum LineHeightRule: Hashable, Sendable {
        /// UIKit (TextKit): exact metrics, the tallest font of the line; a multiple of the
        /// natural height and min/max clamps (`LineHeightModel`).
        case uikit
        /// Blink's CSS line boxes (measured in Chromium on Linux): each font's ascent and
        /// descent rounded to whole device pixels (at its size truncated to 1/100 device px),
        /// a font whose descent rounded down borrowing a pixel from its ascent where Blink
        /// positions glyphs at subpixels; with `line-height: normal` the line box is the
        /// union of the first font's strut and the box of every font on the line, each with
        /// half its rounded line gap above and below; a fixed height (min = max, or
        /// `lineHeightEm`) is that many 1/64-device-pixel layout units (`BlinkLineBox`).
        case blink(SubpixelPositioning)
        /// Pango 1.50's logical rects (measured): each run's font ascent and descent from
        /// HarfBuzz at the size in Pango units, rounded to whole 1/1024 pt, no line gap, raised
        /// by the run's rise; an inline box's shape rect; the line-height attributes applied
        /// per run (half the leading above); the line the union of its runs' rects and the
        /// baseline (`PangoLineBox`).
        case pango
    }

    /// Where Blink positions glyphs at subpixels, which moves a pixel from a font's ascent to
    /// its descent when the descent rounded down (`FontMetrics::AscentDescentWithHacks`).
    enum SubpixelPositioning: Hashable, Sendable {
        /// Every font at every scale: pages with `text-rendering: geometricPrecision`.
        case always
        /// Only the page's own families among the system's fonts, only above device scale 1:
        /// Chromium's default on Linux (fonts found by fallback and `@font-face` fonts
        /// never); the `chromium` profile's.
        case familyFontsAboveScaleOne
    }

    /// The language HarfBuzz shapes with.
    enum ShapingLanguage: Hashable, Sendable {
        /// The script's usual language (e.g. Japanese forms for kana).
        case fromScript
        /// The document's language, English (Blink with no `lang` attribute).
        case document
    }

    /// The default fit tolerance: absorbs floating-point noise of summed advances (points).
    static let exactFitTolerance = 1e-6
    /// Blink's layout unit, 1/64 px.
    static let blinkLayoutUnit = 1.0 / 64
    /// Pango units per point (`PANGO_SCALE`).
    static let pangoUnitsPerPoint = 1024
}

extension LayoutConventions {
    /// Plumb's own conventions (UIKit where known): ICU's UAX #14 plus LB19a, spaces in the
    /// font of the text around them (Pango's rule, so a space between two CJK words is the CJK
    /// font's), all trailing spaces hang, exact arithmetic.
    static let standard = LayoutConventions(
        breakRules: .uax14, breakTailoring: [.lb19aQuotes], spaceFonts: .neighbouringFont,
        trailingSpaces: .allHang, lineFit: .exact(tolerance: exactFitTolerance), advanceScaling: .exact,
        scriptBracketPairing: .bracketsAndQuotes, shapesKanaWithKanji: false, reshapesLineEnds: false,
        shapingLanguage: .fromScript, loneEmojiTakesFamilyGlyph: false)

    /// Pango 1.50's conventions (measured): its extra break opportunities, its font choice
    /// for spaces, only the last trailing space hangs, its logical rects for line heights.
    static let pango = LayoutConventions(
        breakRules: .uax14, breakTailoring: [.afterSpacedHyphen, .afterPeriodFollowingSign],
        spaceFonts: .neighbouringFont, trailingSpaces: .lastHangs,
        lineFit: .exact(tolerance: exactFitTolerance), advanceScaling: .exact,
        scriptBracketPairing: .bracketsAndQuotes, shapesKanaWithKanji: false, reshapesLineEnds: false,
        shapingLanguage: .fromScript, loneEmojiTakesFamilyGlyph: false, synthesis: .fontconfig, lineHeights: .pango,
        tabs: .pango, hyphens: .pango, justification: .pango, widthUnit: 1.0 / Double(pangoUnitsPerPoint))

    /// Chromium's (Blink's) conventions on Linux (measured): CSS `line-break: normal`, its
    /// ASCII table and space rule, FreeType advances, layout-unit line fitting, line ends
    /// re-shaped, CSS line boxes.
    static let chromium = LayoutConventions(
        breakRules: .cssLineBreakNormal,
        breakTailoring: [.lb19aQuotes, .afterEverySpaceRun, .blinkASCIIPairs, .lb21aHebrewHyphen, .aroundInlineBoxes],
        spaceFonts: .ownChoice, trailingSpaces: .allHang, lineFit: .layoutUnits(unit: blinkLayoutUnit),
        advanceScaling: .freeTypeFixedPoint, scriptBracketPairing: .bidiBracketsOnly,
        shapesKanaWithKanji: true, reshapesLineEnds: true, shapingLanguage: .document,
        loneEmojiTakesFamilyGlyph: true, fallbackFacesAreRegular: true, fallbackQuery: .characterOnly,
        synthesis: .skia, lineHeights: .blink(.familyFontsAboveScaleOne), indents: .cssTextIndent,
        tabs: .css, hyphens: .css, justification: .css, widthUnit: blinkLayoutUnit, tailorsAutoLineBreaking: ["zh"],
        endsWithEmptyLineAfterBreak: false, balancesText: true)
}

extension Compatibility {
    /// The knobs this profile sets. The only place a profile is looked at by name.
    var conventions: LayoutConventions {
        switch self {
        case .standard: .standard
        case .pango: .pango
        case .chromium: .chromium
        }
    }
}
