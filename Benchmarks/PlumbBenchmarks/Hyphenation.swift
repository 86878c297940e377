import Plumb

/// Hyphenation's cost (issue 27, item 8): a fresh engine measures the corpus cold at width 200
/// with hyphenation off (`none`), with the default (`manual`: only soft hyphens, which the
/// corpus barely has) and with `auto` in English (libhyphen's points in every word of five
/// letters or more), interleaved round by round. Targets: `manual` within noise of `none`,
/// `auto` at most 1.5× `none`.
@MainActor func addHyphenationScenarios(_ texts: [String], style: TextStyle) {
    let modes: [(String, Hyphenation)] = [("off (none)", .none), ("manual (the default)", .manual), ("auto, en-US", .auto)]
    func cold(_ mode: Hyphenation) -> () -> AnyObject? {
        var s = style
        s.hyphenation = mode
        s.language = "en-US"
        return {
            let m = TextMeasurer()
            let r = m.resolve(s)
            for t in texts { Sink.value &+= Int(m.measure(t, style: r, width: 200, scale: 2).height) }
            return m
        }
    }
    let names = modes.map { "cold, hyphenation \($0.0), width 200, 1 worker" }
    guard let samples = report.addInterleaved(names, runs: runs, cells: texts.count, modes.map { cold($0.1) }) else { return }
    report.addRatio("cold, hyphenation manual ÷ none", samples[1], samples[0])
    report.addRatio("cold, hyphenation auto ÷ none (target ≤ 1.5)", samples[2], samples[0])
}
