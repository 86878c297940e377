import Plumb

/// The attributed corpus: every corpus text as a feed row is made — its first word a bold
/// "name" run, every third text's last word a smaller "timestamp" run (13 pt), every fourth
/// text with an inline avatar box after the name. Deterministic, so runs compare.
func richCorpus(_ texts: [String]) -> [AttributedText] {
    texts.enumerated().map { i, text in
        let words = text.split(separator: " ", omittingEmptySubsequences: false)
        guard words.count > 1 else { return AttributedText(text, TextAttributes(weight: 700)) }
        var row = AttributedText(String(words[0]) + " ", TextAttributes(weight: 700))
        if i % 4 == 0 { row.append(InlineBox(width: 18, height: 18, baselineOffset: -3, id: "avatar")) }
        let rest = words.dropFirst()
        if i % 3 == 0 && rest.count > 1 {
            row.append(rest.dropLast().joined(separator: " ") + " ")
            row.append(String(rest.last!), TextAttributes(size: 13))
        } else {
            row.append(rest.joined(separator: " "))
        }
        return row
    }
}

/// Rich-text rows: cold ≤ 1.3× and warm ≤ 2× the plain text of the same cells (issue 14's
/// targets), and cold × Pango in each profile (issue 16: the plain rows' ratios), all
/// interleaved run by run; re-layout at a new width. Pango lays each attributed cell out with
/// an attribute list of its own (`PangoReference.measure(_: AttributedText)`).
@MainActor func addRichScenarios(_ texts: [String], style: TextStyle) {
    let rich = richCorpus(texts)
    let plainOfRich = rich.map(\.string)  // the same characters (a box is U+FFFC)
    func cold(_ body: @escaping (TextMeasurer) -> Void) -> () -> AnyObject? {
        { let m = TextMeasurer(); body(m); return m }
    }
    let profiles: [Compatibility] = [.standard, .pango, .chromium]
    let counts = profiles.map { _ in LineCounts(cells: rich.count) }
    let pangoCounts = LineCounts(cells: rich.count)
    func coldRich(_ profile: Compatibility, _ counts: LineCounts) -> () -> AnyObject? {
        var profiled = style
        profiled.compatibility = profile
        return cold { m in
            for (i, r) in rich.enumerated() {
                let measured = m.measure(r, style: profiled, width: 320)
                counts.counts[i] = Int32(measured.lineCount)
                Sink.value &+= Int(measured.height)
            }
        }
    }
    let coldPango = PangoReference.coldPass(rich, style: style, width: 320, counts: pangoCounts) { $0.measure($1) }
    let richNames = profiles.map {
        $0 == .standard ? "rich cold: fresh engine, attributed corpus, 1 worker" : "rich cold: attributed corpus, \($0.rawValue) profile"
    }
    // The plain row right after the standard one (their ratio is issue 14's target), Pango last.
    let plainRow = cold { m in for t in plainOfRich { Sink.value &+= Int(m.measure(t, style: style, width: 320).height) } }
    let profileRows = zip(profiles, counts).map { coldRich($0, $1) }
    let coldRows = report.addInterleaved(
        [richNames[0], "rich cold: the same texts plain, 1 worker"] + richNames.dropFirst()
            + ["Pango \(PangoReference.version): attributed corpus, 1 layout per cell"],
        runs: runs, cells: rich.count,
        [profileRows[0], plainRow] + profileRows.dropFirst() + [coldPango])
    if let coldRows {
        report.addRatio("rich cold: × plain cold (attributed ÷ plain)", coldRows[0], coldRows[1])
        let pangoRow = coldRows[profiles.count + 1]
        for (i, profile) in profiles.enumerated() {
            report.addRatio("rich cold, \(profile.rawValue) profile: × Pango (Pango ÷ Plumb)", pangoRow, coldRows[i == 0 ? 0 : i + 1])
        }
        checkLineCounts("of the attributed corpus at width 320", pango: pangoCounts, profiles: profiles, counts: counts)
    }

    let warm = TextMeasurer()
    for r in rich { _ = warm.measure(r, style: style, width: 320) }
    for t in plainOfRich { _ = warm.measure(t, style: style, width: 320) }
    let warmRows = report.addInterleaved(
        ["rich warm: all results cached, attributed corpus, 1 worker", "rich warm: the same texts plain, 1 worker"],
        runs: runs, cells: rich.count,
        [
            { for r in rich { Sink.value &+= Int(warm.measure(r, style: style, width: 320).height) }; return nil },
            { for t in plainOfRich { Sink.value &+= Int(warm.measure(t, style: style, width: 320).height) }; return nil },
        ])
    if let warmRows { report.addRatio("rich warm: × plain warm (attributed ÷ plain)", warmRows[0], warmRows[1]) }

    var width = 200.0
    report.add("rich re-layout at a new width (prepared texts cached), 1 worker", runs: runs, cells: rich.count) {
        width += 1
        for r in rich { Sink.value &+= Int(warm.measure(r, style: style, width: width).height) }
    }
}
