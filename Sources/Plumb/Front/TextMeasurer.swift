import Dispatch
import Synchronization

/// Plumb measures text for tables and lists: real fonts (fontconfig), real shaping (HarfBuzz),
/// real line breaking (ICU), and UIKit's height model done right.
///
/// ```swift
/// let plumb = TextMeasurer()
/// let style = TextStyle(families: ["Noto Sans", "Noto Sans CJK SC"], size: 15)
/// let m = plumb.measure("Hello, 世界", style: style, width: 200)   // m.size.height == 22
/// ```
public final class TextMeasurer: Sendable {
    /// Engine-wide settings.
    public struct Configuration: Sendable {
        /// How the engine's own font resolver picks fonts (language, default, CJK and emoji
        /// families, application font folders); unused when `init` is given a resolver.
        public var fonts = FontResolver.Configuration()
        /// Locale of ICU's line breaker ("" = root rules).
        public var breakLocale = "en"
        /// What a cell whose width is unusable (NaN, ≤ 0) measures as.
        public var unmeasurableHeight: UnmeasurableHeight = .oneLine
        /// Byte budget of the shaped-segment part of tier 1 (advances of a word in a font).
        /// 8 MiB: a 100,000-row feed uses 2.8 MB of it, 300,000 rows 3.2 MB (see the README's
        /// memory table).
        public var segmentCacheBytes = 8 << 20
        /// Byte budget of the prepared-text part of tier 1 (width-independent layouts of
        /// whole cells, so a width change is arithmetic only). 64 MiB: every cell of a
        /// typical 100,000-row feed (~0.6 KB each), so a rotation re-lays out nearly all of
        /// them from here (Decisions.md, "Under 1 KB: the object, paragraphs, slots, 5-byte
        /// entries and the budget").
        public var preparedCacheBytes = 64 << 20
        /// Byte budget of tier 2 (results; 64 bytes per entry). 8 MiB: ~98,000 entries, half
        /// of one width of a 100,000-row feed (a result and a width-range entry per row); the
        /// other half is re-laid out from tier 1 when it comes again.
        public var resultCacheBytes = 8 << 20
        /// The longest text measured, in UTF-8 bytes (default 4 MiB, about 1,000 pages). A
        /// longer one is not laid out: it answers the fallback height, zero lines, flagged,
        /// with `MeasureWarning.textTooLong` (a cell of 50 MB is an attack, not a use; every
        /// stage is linear, but the memory a cell takes while it is prepared grows with it:
        /// issue 13).
        public var maximumTextBytes = 4 << 20
        /// A file that keeps results across launches and processes (tier 3, SQLite; nil, the
        /// default: results live as long as the engine). A file that cannot be used gives a
        /// warning in `persistentCacheStatus` and the engine measures without it.
        public var persistentCache: PersistentCacheConfiguration?
        /// The defaults above.
        public init() {}
    }

    /// The height reported when no layout is possible.
    public enum UnmeasurableHeight: Hashable, Sendable {
        /// One line of the style (its line height rules applied), pixel-ceiled.
        case oneLine
        /// A fixed height in points (pixel-ceiled).
        case points(Double)

        /// The same case, and the same number for `points` (NaN equal to NaN).
        public static func == (a: Self, b: Self) -> Bool {
            switch (a, b) {
            case (.oneLine, .oneLine): true
            case (.points(let x), .points(let y)): x.isSameValue(as: y)
            default: false
            }
        }

        /// Hashes the case and its number, every NaN alike.
        public func hash(into hasher: inout Hasher) {
            switch self {
            case .oneLine: hasher.combine(0)
            case .points(let v):
                hasher.combine(1)
                hasher.combineValue(v)
            }
        }
    }

    /// The settings the engine was made with.
    public let configuration: Configuration
    /// The font resolver in use (replaced by `reloadFontsIfChanged()`).
    public var fonts: FontResolver { fontState.withLock { $0.resolver } }
    private struct FontState {
        var resolver: FontResolver
        var lastCheck: UInt64 = 0
    }
    /// The resolver, and the salt of its fonts, always changed together under this lock.
    private let fontState: Lock<FontState>
    /// The id of `fonts`, readable without the lock (a style whose cascade has another id was
    /// resolved on other fonts and is re-resolved before use).
    private let resolverID: Atomic<Int>
    let segmentCache: SegmentCache
    let preparedCache: ClockCache<PreparedText>
    /// Admission to `preparedCache` once it is full (scan resistance: a feed larger than the
    /// tier keeps its first part instead of flushing every entry before reuse).
    let preparedAdmission: ScanAdmission
    let resultCache: ResultCache
    /// Tier 3: the persistent cache, when configured.
    let persistentStore: PersistentResultStore?
    let pool: PreparerPool
    /// Engine version + ICU version + installed font set: part of every key, so an engine or
    /// font update never serves old results.
    var salt: UInt64 { saltStorage.load(ordering: .relaxed) }
    private let saltStorage: Atomic<UInt64>

    /// Bump when a change to the engine can change any result.
    public static let engineVersion = "plumb-0.1.0"

    /// An engine with empty caches.
    ///
    /// - Parameters:
    ///   - configuration: cache budgets, break locale, fallback height and text size limit.
    ///   - fonts: a resolver to share with other engines (fonts are loaded once per resolver);
    ///     `nil` makes one from `configuration.fonts`.
    /// - Complexity: loads fontconfig's configuration and font list (from its caches) when no
    ///   resolver is given; the caches reserve address space and commit memory as they fill.
    /// - Thread safety: engines are independent; one engine is safe to use from any number of
    ///   threads at once.
    public convenience init(configuration: Configuration = Configuration(), fonts: FontResolver? = nil) {
        self.init(configuration: configuration, fonts: fonts, mergesWordRuns: true)
    }

    /// An engine whose preparers store runs of one-grapheme words as one word each or not
    /// (`TextPreparer.mergesWordRuns`: tests compare both).
    init(configuration: Configuration, fonts: FontResolver?, mergesWordRuns: Bool) {
        self.configuration = configuration
        // Fonts loaded here are as fresh as a periodic check would make them: the first one
        // is due ten seconds from now (a check reloads fontconfig's configuration, ~30 M
        // instructions — a serial prefix of an engine's first batch). Given fonts may be of
        // any age: the first batch checks them.
        let loadedHere = fonts == nil
        let fonts = fonts ?? FontResolver(configuration: configuration.fonts)
        self.fontState = Lock(FontState(resolver: fonts, lastCheck: loadedHere ? DispatchTimeLite.nowNanoseconds : 0))
        self.segmentCache = SegmentCache(budgetBytes: configuration.segmentCacheBytes)
        self.preparedCache = ClockCache(budgetBytes: configuration.preparedCacheBytes)
        self.preparedAdmission = ScanAdmission()
        self.resultCache = ResultCache(budgetBytes: configuration.resultCacheBytes)
        self.persistentStore = configuration.persistentCache.map {
            PersistentResultStore(path: $0.path, budgetBytes: $0.budgetBytes)
        }
        self.pool = PreparerPool(locale: configuration.breakLocale, segmentCache: segmentCache, mergesWordRuns: mergesWordRuns)
        self.saltStorage = Atomic(Self.salt(fonts: fonts, locale: configuration.breakLocale))
        self.resolverID = Atomic(fonts.id)
    }

    /// Engine version, ICU version, break locale and every installed font file (path, face,
    /// size, modification time): any change gives other keys.
    private static func salt(fonts: FontResolver, locale: String) -> UInt64 {
        var e = KeyEncoder(.engineSalt)
        e.append(engineVersion)
        e.append(BreakIterators.icuVersion)
        e.append(locale)
        e.append(fonts.fontSetFingerprint)
        return e.key.low
    }

    /// Reloads fonts when font files were added, removed or replaced on disk: a new resolver
    /// and salt, and every cache tier emptied, so results from the old fonts are never served.
    /// Batches call this themselves at most once every ten seconds; call it after installing fonts.
    ///
    /// Every call that starts after this returns measures with the new fonts, including calls
    /// given a `ResolvedStyle` resolved before: such a style is transparently re-resolved on
    /// the new fonts (at the cost of a `resolve(_:)` per call until you resolve it again).
    /// Work already in flight on other threads finishes on the fonts it started with (they
    /// stay loaded while it runs); its results go under the old salt, which no later lookup
    /// uses.
    ///
    /// - Returns: whether fonts changed.
    /// - Complexity: loads fontconfig's configuration and font list (from its caches: a few
    ///   milliseconds) and compares file fingerprints; a full reload when changed.
    /// - Thread safety: safe from any thread, concurrently with measuring and with other
    ///   reloads (one of several concurrent reloads installs the new fonts).
    @discardableResult
    public func reloadFontsIfChanged() -> Bool {
        var changed = false
        while true {
            let current = fonts
            // FcConfigUptoDate sees changes inside directories fontconfig already scanned; a new
            // font directory (e.g. a first ~/.fonts) only shows in a freshly loaded font list.
            let fresh = current.reloaded()
            guard current.fontsChangedOnDisk || fresh.fontSetFingerprint != current.fontSetFingerprint else {
                return changed
            }
            let salt = Self.salt(fonts: fresh, locale: configuration.breakLocale)
            let replaced = fontState.withLock { state -> Bool in
                guard state.resolver === current else { return false }
                state.resolver = fresh
                saltStorage.store(salt, ordering: .relaxed)
                resolverID.store(fresh.id, ordering: .relaxed)
                return true
            }
            if replaced {
                resolvedStyles.invalidate()
                removeAllCachedResults()
                return true
            }
            // Another thread's reload replaced `current` meanwhile, possibly with fonts loaded
            // before the latest change: check again against the resolver it installed.
            changed = true
        }
    }

    /// How often (nanoseconds: ten seconds) ``reloadFontsIfChangedPeriodically()`` checks.
    static let fontReloadCheckInterval: UInt64 = 10_000_000_000

    /// `reloadFontsIfChanged()`, at most once every ten seconds (a check loads fontconfig's
    /// font list from its caches, a few milliseconds).
    func reloadFontsIfChangedPeriodically() {
        let now = DispatchTimeLite.nowNanoseconds
        let due = fontState.withLock { state -> Bool in
            guard now &- state.lastCheck >= Self.fontReloadCheckInterval else { return false }
            state.lastCheck = now
            return true
        }
        if due { reloadFontsIfChanged() }
    }

    /// When `reloadFontsIfChangedPeriodically()` last checked (monotonic nanoseconds; 0 before
    /// the first check, or the engine's creation when it loaded its own fonts), for tests.
    var lastPeriodicFontCheck: UInt64 { fontState.withLock { $0.lastCheck } }

    /// Per-style generations: `invalidate(style:)` bumps one, so every key built from the old
    /// fingerprint becomes unreachable (and ages out of the CLOCK tables).
    let styleGenerations = Lock<[CacheKey: UInt64]>([:])

    /// The last styles `resolve(_:)` resolved, per stripe of threads (emptied when fonts are
    /// reloaded or a style is invalidated).
    let resolvedStyles = StripedMemo<TextStyle, ResolvedStyle>()

    /// Checks a style, resolves its fonts and fingerprints it, for measuring many cells.
    ///
    /// A resolved style stays valid across `reloadFontsIfChanged()`: measuring with a style
    /// resolved on fonts since replaced re-resolves it first (see `isCurrent(_:)`).
    ///
    /// - Complexity: a style equal to the last one resolved on this thread's stripe (16
    ///   stripes) is one `==` and a copy; any other, a sanitising pass, a cascade lookup
    ///   (fontconfig only for a cascade not seen before) and the style's fingerprints. Batches
    ///   resolve each distinct style once.
    /// - Thread safety: safe from any thread, concurrently.
    public func resolve(_ style: TextStyle) -> ResolvedStyle {
        // The last styles resolved (one per stripe of threads): a caller passing the same
        // style cell after cell compares it instead of fingerprinting it again. Reloads and
        // `invalidate(style:)` empty the memo.
        resolvedStyles.value(for: style, make: resolveAnew)
    }

    /// `resolve(_:)` without the memo.
    private func resolveAnew(_ style: TextStyle) -> ResolvedStyle {
        // The resolver and its salt are read together: a concurrent reload never pairs new
        // fonts with the old salt (or the reverse).
        let (fonts, salt) = fontState.withLock { ($0.resolver, saltStorage.load(ordering: .relaxed)) }
        var resolved = ResolvedStyle(style, fonts: fonts, salt: salt)
        let base = resolved.layoutFingerprint
        if let generation = styleGenerations.withLock({ $0[base] }) {
            var e = KeyEncoder(.styleGeneration)
            e.append(base)
            e.append(generation)
            resolved.layoutFingerprint = e.key
        }
        return resolved
    }

    /// Whether `style` was resolved on this engine's current fonts (not before a
    /// `reloadFontsIfChanged()` that replaced them, nor by another engine); measuring with a
    /// style that is not re-resolves it first.
    ///
    /// - Complexity: one relaxed atomic load.
    @inline(__always)
    func isCurrent(_ style: borrowing ResolvedStyle) -> Bool {
        style.cascade.resolverID == resolverID.load(ordering: .relaxed)
    }

    /// Forgets every cached result measured with `style` (later lookups use new keys; the old
    /// entries age out of the tables, and the persistent cache deletes them in its next write).
    ///
    /// - Complexity: O(1) in the cache size: a style resolution and one dictionary update.
    /// - Thread safety: safe from any thread; a `ResolvedStyle` resolved before the call keeps
    ///   its old fingerprint (resolve again to see the invalidation).
    public func invalidate(style: TextStyle) {
        let (fonts, salt) = fontState.withLock { ($0.resolver, saltStorage.load(ordering: .relaxed)) }
        let base = ResolvedStyle(style, fonts: fonts, salt: salt).layoutFingerprint
        styleGenerations.withLock { $0[base, default: 0] += 1 }
        persistentStore?.removeResults(ofStyle: base)
        resolvedStyles.invalidate()
    }

    /// Measures one cell.
    ///
    /// - Parameters:
    ///   - text: the cell's text.
    ///   - style: font, paragraph style and drawing options.
    ///   - width: the layout width in points (+∞ = unconstrained; NaN or ≤ 0 = unmeasurable,
    ///     answered with the flagged fallback height).
    ///   - scale: device pixels per point for ceiling (NaN/∞/≤ 0 → 2 with a warning).
    /// - Complexity: O(n) in the text; a cached cell is a hash and a lookup, and a cell whose
    ///   words were shaped before skips HarfBuzz. Measured (2026-12-01, 2-vCPU Debian 12 VM,
    ///   release build, `Benchmarks/README.md`): a fresh engine measuring the benchmark
    ///   corpus's 4,000 cells (83 UTF-8 bytes on average) takes ~18 µs per cell amortised;
    ///   a single call on a fresh engine costs more (fonts are loaded on the way).
    /// - Thread safety: safe from any thread, concurrently.
    public func measure(_ text: String, style: TextStyle, width: Double, scale: Double = 2)
        -> TextMeasurement
    {
        measure(text, style: resolve(style), width: width, scale: scale)
    }

    /// Measures one cell and returns its line geometry too.
    ///
    /// - Complexity: as `measure`, plus O(n) to map line ranges to string indexes.
    /// - Thread safety: safe from any thread, concurrently.
    public func layout(_ text: String, style: TextStyle, width: Double, scale: Double = 2)
        -> TextLayout
    {
        let r = compute(text, style: resolve(style), width: width, scale: scale, extraWarnings: [])
        return makeLayout(text, r)
    }

    /// Measures text given as UTF-16 code units (e.g. bridged from `NSString`), repairing lone
    /// surrogates with U+FFFD and saying so in the warnings (`.invalidTextRepaired`). Valid
    /// text answers exactly as `measure(_:style:width:scale:)` and shares its cache entries.
    ///
    /// - Complexity: as `measure(_:style:width:scale:)`, plus O(n) to decode the units.
    /// - Thread safety: safe from any thread, concurrently.
    public func measure(utf16 units: some Collection<UInt16>, style: TextStyle, width: Double, scale: Double = 2)
        -> TextMeasurement
    {
        let (text, repaired) = Sanitizer.decode(utf16: units)
        return measure(decoded: text, repaired: repaired, style: style, width: width, scale: scale)
    }

    /// Measures text given as UTF-8 bytes, repairing invalid sequences with U+FFFD and saying
    /// so in the warnings (`.invalidTextRepaired`). Valid text answers exactly as
    /// `measure(_:style:width:scale:)` and shares its cache entries.
    ///
    /// - Complexity: as `measure(_:style:width:scale:)`, plus O(n) to validate the bytes.
    /// - Thread safety: safe from any thread, concurrently.
    public func measure(utf8 bytes: some Collection<UInt8>, style: TextStyle, width: Double, scale: Double = 2)
        -> TextMeasurement
    {
        let (text, repaired) = Sanitizer.decode(utf8: bytes)
        return measure(decoded: text, repaired: repaired, style: style, width: width, scale: scale)
    }

    /// Measures text given as UTF-16 code units and returns its line geometry, repairing lone
    /// surrogates with U+FFFD and saying so in the warnings (`.invalidTextRepaired`).
    ///
    /// - Complexity: as `layout(_:style:width:scale:)`, plus O(n) to decode the units.
    /// - Thread safety: safe from any thread, concurrently.
    public func layout(utf16 units: some Collection<UInt16>, style: TextStyle, width: Double, scale: Double = 2)
        -> TextLayout
    {
        let (text, repaired) = Sanitizer.decode(utf16: units)
        return layout(decoded: text, repaired: repaired, style: style, width: width, scale: scale)
    }

    /// Measures text given as UTF-8 bytes and returns its line geometry, repairing invalid
    /// sequences with U+FFFD and saying so in the warnings (`.invalidTextRepaired`).
    ///
    /// - Complexity: as `layout(_:style:width:scale:)`, plus O(n) to validate the bytes.
    /// - Thread safety: safe from any thread, concurrently.
    public func layout(utf8 bytes: some Collection<UInt8>, style: TextStyle, width: Double, scale: Double = 2)
        -> TextLayout
    {
        let (text, repaired) = Sanitizer.decode(utf8: bytes)
        return layout(decoded: text, repaired: repaired, style: style, width: width, scale: scale)
    }

    /// Decoded text: valid text takes the cached path; a repaired one is answered uncached
    /// (its warning is its own, as a fallback's).
    private func measure(decoded text: String, repaired: Bool, style: TextStyle, width: Double, scale: Double)
        -> TextMeasurement
    {
        guard repaired else { return measure(text, style: resolve(style), width: width, scale: scale) }
        return compute(text, style: resolve(style), width: width, scale: scale,
                       extraWarnings: [.invalidTextRepaired], needsLines: false).measurement
    }

    /// The layout of decoded text, with `.invalidTextRepaired` when it was repaired.
    private func layout(decoded text: String, repaired: Bool, style: TextStyle, width: Double, scale: Double)
        -> TextLayout
    {
        let r = compute(text, style: resolve(style), width: width, scale: scale,
                        extraWarnings: repaired ? [.invalidTextRepaired] : [])
        return makeLayout(text, r)
    }

}
