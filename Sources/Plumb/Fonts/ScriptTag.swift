/// A Unicode script as its ISO 15924 tag: the four letters packed big-endian into 32 bits,
/// which is HarfBuzz's `hb_script_t` value ("Latn" = 0x4C61_746E). What font choice,
/// itemization, shaping and the segment cache's keys agree a cluster's script is.
///
/// A plain value over its raw tag (no existential, no allocation); the raw value is read only
/// at the C edge (`hb_script_t`) and where a script is hashed into a key.
///
/// - Thread safety: an immutable value; safe.
struct ScriptTag: Hashable, Sendable {
    /// The tag as HarfBuzz's `hb_script_t` value.
    let rawValue: UInt32

    /// The script whose tag value is `rawValue`.
    @inline(__always)
    init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The script of a four-letter ISO 15924 name, e.g. `ScriptTag("Arab")`.
    init(_ name: StaticString) { rawValue = Font.tag(name) }

    /// Whether two tags are the same script (one integer compare).
    @inline(__always)
    static func == (a: ScriptTag, b: ScriptTag) -> Bool { a.rawValue == b.rawValue }

    // Literal tags (`ScriptTagTests` checks each against its name): constants, not lazily
    // initialised globals (a `swift_once` per cluster otherwise).

    /// No script of its own (raw 0, HarfBuzz's `HB_SCRIPT_INVALID`): what `UnicodeScript`
    /// gives Common, Inherited and Unknown clusters, which take their neighbours' script once
    /// resolved; shaping with it lets HarfBuzz guess the script from the text.
    static let neutral = ScriptTag(rawValue: 0)
    /// "Zyyy": HarfBuzz's Common (spaces, digits, punctuation).
    static let common = ScriptTag(rawValue: 0x5A79_7979)
    /// "Zinh": HarfBuzz's Inherited (combining marks).
    static let inherited = ScriptTag(rawValue: 0x5A69_6E68)
    /// "Zzzz": HarfBuzz's Unknown (unassigned code points).
    static let unknown = ScriptTag(rawValue: 0x5A7A_7A7A)
    /// "Latn".
    static let latin = ScriptTag(rawValue: 0x4C61_746E)
    /// "Cyrl".
    static let cyrillic = ScriptTag(rawValue: 0x4379_726C)
    /// "Grek".
    static let greek = ScriptTag(rawValue: 0x4772_656B)
    /// "Armn".
    static let armenian = ScriptTag(rawValue: 0x4172_6D6E)
    /// "Geor".
    static let georgian = ScriptTag(rawValue: 0x4765_6F72)
    /// "Hani": Han ideographs.
    static let han = ScriptTag(rawValue: 0x4861_6E69)
    /// "Hira".
    static let hiragana = ScriptTag(rawValue: 0x4869_7261)
    /// "Kana".
    static let katakana = ScriptTag(rawValue: 0x4B61_6E61)
    /// "Hang".
    static let hangul = ScriptTag(rawValue: 0x4861_6E67)
    /// "Bopo".
    static let bopomofo = ScriptTag(rawValue: 0x426F_706F)
    /// "Thai".
    static let thai = ScriptTag(rawValue: 0x5468_6169)
    /// "Hebr".
    static let hebrew = ScriptTag(rawValue: 0x4865_6272)
    /// "Arab".
    static let arabic = ScriptTag(rawValue: 0x4172_6162)
}
