import Foundation

/// The repository's root folder, for the tests that run the built binaries and read the README
/// and the examples: the one place that knows where this file sits
/// (`Tests/PlumbCLITests/Support.swift`), so moving a test file breaks no path.
let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .standardizedFileURL
