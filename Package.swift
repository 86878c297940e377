// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Plumb",
    products: [
        .library(name: "Plumb", targets: ["Plumb"]),
        .executable(name: "plumb", targets: ["plumb"]),
    ],
    targets: [
        // C edges: system libraries through pkg-config, ICU behind a shim whose public
        // header includes no ICU header (see Documentation/Decisions.md, "ICU shim").
        .systemLibrary(
            name: "CHarfBuzz", path: "Sources/CHarfBuzz", pkgConfig: "harfbuzz",
            providers: [.apt(["libharfbuzz-dev"])]),
        .systemLibrary(
            name: "CFontconfig", path: "Sources/CFontconfig", pkgConfig: "fontconfig",
            providers: [.apt(["libfontconfig-dev"])]),
        .target(
            name: "CXXHash", path: "Sources/CXXHash",
            cSettings: [.unsafeFlags(["-O3"])]),
        // Relaxed atomics on raw memory and TSan lock annotations (header-only, inlined).
        .target(name: "CSupport", path: "Sources/CSupport"),
        .target(
            name: "CICUShim", path: "Sources/CICUShim",
            linkerSettings: [.linkedLibrary("icuuc"), .linkedLibrary("icudata")]),

        .target(
            name: "Plumb",
            dependencies: ["CHarfBuzz", "CFontconfig", "CXXHash", "CICUShim", "CSupport"],
            path: "Sources/Plumb"),
        // Hand-written JSON Lines and argument parsing for the `plumb` command line.
        .target(name: "CLIKit", path: "Sources/CLIKit"),
        .executableTarget(name: "plumb", dependencies: ["Plumb", "CLIKit"], path: "Sources/plumb"),
        .executableTarget(
            name: "PlumbBenchmarks", dependencies: ["Plumb", "CHarfBuzz", "CFontconfig"],
            path: "Benchmarks/PlumbBenchmarks"),

        .target(name: "PropertyTesting", path: "Tests/PropertyTesting"),
        .testTarget(
            name: "PlumbTests", dependencies: ["Plumb", "PropertyTesting", "CHarfBuzz"],
            path: "Tests/PlumbTests"),
        .testTarget(name: "PlumbCLITests", path: "Tests/PlumbCLITests"),
        .testTarget(
            name: "CLIKitTests", dependencies: ["CLIKit", "PropertyTesting"], path: "Tests/CLIKitTests"),
        .testTarget(
            name: "PropertyTestingTests", dependencies: ["PropertyTesting"],
            path: "Tests/PropertyTestingTests"),
    ],
    swiftLanguageModes: [.v6]
)
