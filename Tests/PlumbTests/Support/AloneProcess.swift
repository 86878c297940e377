import Foundation
import Testing

/// Runs one test of this test binary again in a process of its own, for checks that read
/// process-wide state (resident memory, the main actor's timing) which other suites running
/// in parallel would disturb.
///
/// The test calls `AloneProcess.isThisProcess(variable)`: in the process this starts the
/// variable is `1` and the test does its check; in the test run's process it calls
/// `AloneProcess.run(test:variable:)`, which records an issue unless the child ran exactly
/// that test and passed.
enum AloneProcess {
    /// Whether this process is the one started to run the test alone.
    static func isThisProcess(_ variable: String) -> Bool {
        ProcessInfo.processInfo.environment[variable] == "1"
    }

    /// Runs this binary with only `test` (a `Suite/testName` filter) and `variable` set to `1`.
    static func run(test: String, variable: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = ["--testing-library", "swift-testing", "--filter", test]
        process.environment = ProcessInfo.processInfo.environment.merging([variable: "1"]) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(test) failed in its own process:\n\(printed)",
                sourceLocation: sourceLocation)
        #expect(printed.contains("1 test"), "\(test) did not run in its own process:\n\(printed)",
                sourceLocation: sourceLocation)
        print(printed.split(separator: "\n").filter { !$0.hasPrefix("◇") && !$0.hasPrefix("Test ") }
            .joined(separator: "\n"))
    }
}
