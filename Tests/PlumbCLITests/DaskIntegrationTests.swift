import Foundation
import Testing

/// Issue 29 item 2: the Dask integration (`Integrations/dask/`) is tested by its own unittest
/// suite, on a LocalCluster of 2 worker processes, against this build's `plumb` binary. This
/// test runs that suite with the venv `setup-dask.sh` makes (`./setup.sh` calls it) and
/// expects it to pass; a missing venv is a failure, not a skip. It is a `CLITests` test, so it
/// runs one at a time with them: its cluster keeps both cores busy for seconds, which would
/// disturb their counts and timings.
extension CLITests {
    static let daskVenvPython = URL(fileURLWithPath: "/opt/plumb-dask-venv/bin/python")

    @Test(.timeLimit(.minutes(5))) func theDaskIntegrationsUnittestSuitePasses() throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: Self.daskVenvPython.path),
            "\(Self.daskVenvPython.path) is missing: run ./setup.sh (it runs Integrations/dask/setup-dask.sh)")

        let p = Process()
        p.executableURL = Self.daskVenvPython
        p.arguments = ["-m", "unittest", "discover", "-s", "Integrations/dask/tests"]
        p.currentDirectoryURL = repositoryRoot
        p.environment = ProcessInfo.processInfo.environment.merging(["PLUMB_BINARY": Self.binary.path]) { $1 }
        // One pipe for both streams, read to its end: the suite cannot block on a full
        // second pipe, and its report keeps its order.
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()

        #expect(p.terminationReason == .exit && p.terminationStatus == 0, "\(output)")
    }
}
