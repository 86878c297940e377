internal import CHyphenShim
import Glibc

/// One language's hyphenation patterns (a libhyphen `.dic` file): where a word may take a
/// hyphen.
///
/// - Thread safety: immutable after loading; ``points(of:leftMinimum:rightMinimum:into:)`` only
///   reads the patterns and may run on any number of threads at once.
final class HyphenationDictionary: @unchecked Sendable {  // read-only after init
    private let handle: OpaquePointer
    /// The file it was loaded from.
    let path: String

    /// Loads `path`; `nil` when it is not a readable dictionary.
    init?(path: String) {
        guard let h = plumb_hyphenator_open(path) else { return nil }
        handle = h
        self.path = path
    }

    deinit { plumb_hyphenator_close(handle) }

    /// Words longer than this many code points are not hyphenated (libhyphen's buffers).
    static let maximumWordLength = 250

    /// Marks in `points` (one entry per scalar of `word`, lowercased) the scalars after which
    /// a hyphen may go, at least `leftMinimum` scalars from the start and `rightMinimum` from the
    /// end (and the dictionary's own minimums). Returns whether any point was found; a word
    /// with a character the dictionary's charset lacks has none.
    ///
    /// - Complexity: O(word length × pattern depth).
    func points(of word: UnsafeBufferPointer<UInt32>, leftMinimum: Int, rightMinimum: Int, into points: UnsafeMutableBufferPointer<UInt8>)
        -> Bool
    {
        precondition(points.count >= word.count, "one point per scalar")
        guard word.count > 1, word.count <= Self.maximumWordLength, let base = word.baseAddress, let out = points.baseAddress
        else { return false }
        return plumb_hyphenate(handle, base, Int32(word.count), Int32(leftMinimum), Int32(rightMinimum), out) > 0
    }
}

/// One preparer's memo of dictionary answers: a word's lowercased scalars and the dictionary
/// to the points found (exact keys: no hash stands for a word). Emptied when it holds
/// ``capacity`` words, so its memory is bounded.
///
/// - Thread safety: one thread at a time, as the owning `TextPreparer`.
final class HyphenationMemo: @unchecked Sendable {  // one thread at a time (its preparer's)
    private struct Key: Hashable {
        let dictionary: ObjectIdentifier
        let word: [UInt32]
        let left: Int
        let right: Int
    }
    private var answers: [Key: [UInt8]?] = [:]
    /// Words remembered at most.
    static let capacity = 8192

    /// `dictionary`'s points of `word` (as ``HyphenationDictionary/points(of:leftMinimum:rightMinimum:into:)``
    /// writes them; nil: none), from the memo when this word was asked before.
    ///
    /// - Complexity: O(word length) on a hit; the dictionary's cost on a miss.
    func points(
        of word: UnsafeBufferPointer<UInt32>, in dictionary: HyphenationDictionary, leftMinimum: Int, rightMinimum: Int
    ) -> [UInt8]? {
        let key = Key(dictionary: ObjectIdentifier(dictionary), word: Array(word), left: leftMinimum, right: rightMinimum)
        if let known = answers[key] { return known }
        var points = [UInt8](repeating: 0, count: word.count)
        let found = points.withUnsafeMutableBufferPointer {
            dictionary.points(of: word, leftMinimum: leftMinimum, rightMinimum: rightMinimum, into: $0)
        }
        if answers.count >= Self.capacity { answers.removeAll(keepingCapacity: true) }
        answers[key] = found ? points : nil
        return found ? points : nil
    }
}

/// The hyphenation dictionaries of this machine by language, each loaded once per process.
///
/// A BCP 47 tag finds `hyph_<language>_<REGION>.dic`, then `hyph_<language>.dic`, then the
/// language's own region (`hyph_ru_RU.dic`, `hyph_es_ES.dic`), then any region of the language
/// (sorted), in `/usr/share/hyphen` (Debian's `hyphen-*` packages).
///
/// - Thread safety: a lock guards the loaded dictionaries; safe from any thread.
enum HyphenationDictionaries {
    /// Where Debian installs the dictionaries.
    static let directory = "/usr/share/hyphen"

    private static let loaded = Lock<[String: HyphenationDictionary?]>([:])

    /// The dictionary for `language` (a BCP 47 tag), or `nil` when this machine has none.
    ///
    /// - Complexity: a locked dictionary look-up once the language was asked for; the first
    ///   time, a directory listing and the file's loading (milliseconds).
    static func dictionary(for language: String) -> HyphenationDictionary? {
        let tag = String(language.trimmingCSSSpaces)
        if let known = loaded.withLock({ $0[tag] }) { return known }
        let found = candidates(for: tag).lazy.compactMap(HyphenationDictionary.init(path:)).first
        return loaded.withLock { table in
            if let known = table[tag] { return known }
            table[tag] = .some(found)
            return found
        }
    }

    /// The files that may hold `tag`'s patterns, best first.
    static func candidates(for tag: String) -> [String] {
        let subtags = tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
        guard let first = subtags.first, first.count >= 2, first.count <= 8, first.allSatisfy(\.isLetter) else { return [] }
        let language = first.lowercased()
        // The region: a two-letter or three-digit subtag after the language (and a script).
        let region = subtags.dropFirst().first { $0.count == 2 && $0.allSatisfy(\.isLetter) || $0.count == 3 && $0.allSatisfy(\.isNumber) }
        var names: [String] = []
        if let region { names.append("hyph_\(language)_\(region.uppercased()).dic") }
        names.append("hyph_\(language).dic")
        names.append("hyph_\(language)_\(language.uppercased()).dic")
        let listed = fileNames(in: directory)
        names += listed.filter { $0.hasPrefix("hyph_\(language)_") && $0.hasSuffix(".dic") }.sorted()
        var seen = Set<String>()
        return names.filter { listed.contains($0) && seen.insert($0).inserted }.map { "\(directory)/\($0)" }
    }

    /// The names in `path` (none when it cannot be read).
    private static func fileNames(in path: String) -> [String] {
        guard let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            names.append(name)
        }
        return names
    }
}
