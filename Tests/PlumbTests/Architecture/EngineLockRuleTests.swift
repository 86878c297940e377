import Foundation
import Testing

/// Every lock in the library is Plumb's `Lock` (`Support/Lock.swift`), whose acquire and
/// release ThreadSanitizer sees; a `Synchronization.Mutex` elsewhere would make TSan report
/// each access it guards as a race, or worse, hide a real one behind those reports.
@Suite struct EngineLockRuleTests {
    @Test func onlyTheLockFileUsesSynchronizationMutex() throws {
        let library = repositoryRoot.appendingPathComponent("Sources/Plumb")
        let files = FileManager.default.enumerator(atPath: library.path)?
            .compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        #expect(files.count > 50, "the library's sources were not found under \(library.path)")
        let mutex = try NSRegularExpression(pattern: #"(?<![A-Za-z0-9_])Mutex\s*[<(]"#)
        var offenders: [String] = []
        for file in files where file != "Support/Lock.swift" {
            let code = try String(contentsOf: library.appendingPathComponent(file), encoding: .utf8)
            for (n, line) in code.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let text = String(line)
                if text.trimmingCharacters(in: .whitespaces).hasPrefix("//") { continue }
                if mutex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil {
                    offenders.append("\(file):\(n + 1): \(text.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        #expect(offenders.isEmpty, "use Plumb's Lock, which TSan sees:\n\(offenders.joined(separator: "\n"))")
    }
}
