import Foundation
import Testing

/// Issue 12 item 6 through fontconfig's own environment: `FONTCONFIG_FILE` names an empty
/// configuration (no font directory, so no font at all). The engine must not trap on set-up:
/// every line is answered, flagged as a fallback, with a warning that says why.
@Suite struct NoFontsCLITests {
    @Test func anEmptyFontconfigConfigurationGivesFlaggedAnswersNotATrap() throws {
        let conf = FileManager.default.temporaryDirectory
            .appendingPathComponent("plumb-empty-fonts-\(getpid()).conf")
        try Data("<fontconfig></fontconfig>\n".utf8).write(to: conf)
        defer { try? FileManager.default.removeItem(at: conf) }

        let r = try CLITests.run(
            ["measure"],
            input: Data((
                #"{"id":1,"text":"Hello, world","width":200,"size":15}"# + "\n"
                + #"{"id":2,"text":"中文 🎉","width":100,"families":["Noto Sans CJK SC"],"weight":700}"# + "\n").utf8),
            environment: ["FONTCONFIG_FILE": conf.path])

        #expect(r.reason == .exit)
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        for line in lines {
            let json = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(json["fallback"] as? Bool == true, "\(String(line))")
            let warnings = (json["warnings"] as? [String]) ?? []
            #expect(warnings.contains { $0.contains("no usable font") }, "\(String(line))")
        }
    }
}
