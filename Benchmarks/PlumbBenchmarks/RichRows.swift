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

/// Rich-text rows (issue 14's targets): cold ≤ 1.3× and warm ≤ 2× the plain text of the same
/// cells, the two interleaved run by run; re-layout at a new width.
@MainActor func addRichScenarios(_ texts: [String], style: TextStyle) {
    let rich = richCorpus(texts)
    let plainOfRich = rich.map(\.string)  // the same characters (a box is U+FFFC)
    func cold(_ body: @escaping (TextMeasurer) -> Void) -> () -> AnyObject? {
        { let m = TextMeasurer(); body(m); return m }
    }
    let coldRows = report.addInterleaved(
        ["rich cold: fresh engine, attributed corpus, 1 worker", "rich cold: the same texts plain, 1 worker"],
        runs: runs, cells: rich.count,
        [
            cold { m in for r in rich { Sink.value &+= Int(m.measure(r, style: style, width: 320).height) } },
            cold { m in for t in plainOfRich { Sink.value &+= Int(m.measure(t, style: style, width: 320).height) } },
        ])
    if let coldRows { report.addRatio("rich cold: × plain cold (attributed ÷ plain)", coldRows[0], coldRows[1]) }

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
