// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Plumb",
    products: [
        .library(name: "Plumb", targets: ["Plumb"]),
        // Drawing as SVG, over Plumb's public drawing query (`TextMeasurer.drawing`).
        .library(name: "PlumbRender", targets: ["PlumbRender"]),
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
        // The persistent result cache's storage (Debian's libsqlite3-dev; Decisions.md,
        // "A persistent cache in SQLite").
        .systemLibrary(
            name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]),
        .target(
            name: "CXXHash", path: "Sources/CXXHash",
            cSettings: [.unsafeFlags(["-O3"])]),
        // Relaxed atomics on raw memory and TSan lock annotations (header-only, inlined).
        .target(name: "CSupport", path: "Sources/CSupport"),
        .target(
            name: "CICUShim", path: "Sources/CICUShim",
            linkerSettings: [.linkedLibrary("icuuc"), .linkedLibrary("icudata")]),

        // WOFF (zlib) and WOFF2 (Google's libwoff2dec, C++) decoding behind a C header.
        .target(
            name: "CFontDecode", path: "Sources/CFontDecode",
            linkerSettings: [.linkedLibrary("woff2dec"), .linkedLibrary("z")]),

        // Hyphenation dictionaries (libhyphen, Debian's hyphen-* packages) behind a C header.
        .target(
            name: "CHyphenShim", path: "Sources/CHyphenShim",
            linkerSettings: [.linkedLibrary("hyphen")]),

        .target(
            name: "Plumb",
            dependencies: [
                "CHarfBuzz", "CFontconfig", "CXXHash", "CICUShim", "CSupport", "CFontDecode", "CHyphenShim", "CSQLite",
            ],
            path: "Sources/Plumb"),
        // The SVG renderer: no C, only Plumb's public API (see Decisions.md, "Rendering as its
        // own product").
        .target(name: "PlumbRender", dependencies: ["Plumb"], path: "Sources/PlumbRender"),
        // Hand-written JSON Lines and argument parsing for the `plumb` command line.
        .target(name: "CLIKit", path: "Sources/CLIKit"),
        .executableTarget(
            name: "plumb", dependencies: ["Plumb", "PlumbRender", "CLIKit", "CSupport"], path: "Sources/plumb",
            linkerSettings: [.unsafeFlags(["-static-stdlib"], .when(configuration: .release))]),
        // Pango, the reference engine timed next to Plumb: the benchmark's dependency only.
        .systemLibrary(
            name: "CPango", path: "Benchmarks/CPango", pkgConfig: "pangocairo",
            providers: [.apt(["libpango1.0-dev"])]),
        .executableTarget(
            name: "PlumbBenchmarks", dependencies: ["Plumb", "CHarfBuzz", "CFontconfig", "CPango"],
            path: "Benchmarks/PlumbBenchmarks"),
        // Pango's side of the whole-process comparison (Benchmarks/whole_process.py), in C.
        .executableTarget(
            name: "pango-measure", dependencies: ["CPango"], path: "Benchmarks/PangoMeasure",
            linkerSettings: [.linkedLibrary("pangoft2-1.0"), .linkedLibrary("fontconfig")]),

        .target(name: "PropertyTesting", path: "Tests/PropertyTesting"),
        .testTarget(
            name: "PlumbTests", dependencies: ["Plumb", "PropertyTesting", "CHarfBuzz", "CXXHash"],
            path: "Tests/PlumbTests"),
        .testTarget(
            name: "PlumbRenderTests", dependencies: ["PlumbRender", "Plumb"], path: "Tests/PlumbRenderTests"),
        .testTarget(name: "PlumbCLITests", dependencies: ["Plumb"], path: "Tests/PlumbCLITests"),
        .testTarget(
            name: "CLIKitTests", dependencies: ["CLIKit", "PropertyTesting"], path: "Tests/CLIKitTests"),
        .testTarget(
            name: "PropertyTestingTests", dependencies: ["PropertyTesting"],
            path: "Tests/PropertyTestingTests"),
    ],
    swiftLanguageModes: [.v6]
)
