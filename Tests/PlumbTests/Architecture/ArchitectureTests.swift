import Foundation
import Testing

/// The dependency picture of `Documentation/Architecture.md`, enforced: every stage folder of
/// `Sources/Plumb` may use the types of the stages below it and no other, and only the C-edge
/// stages import C modules. A type's home is the folder that declares it; a use is its name in
/// code (comments stripped). Every file is in a stage folder; the front is `Front/`.
@Suite struct ArchitectureTests {
    /// Bottom to top: a stage may use the stages before it in this list.
    static let layers = [
        "Support", "Model", "Layout", "Metrics", "Cache", "Fonts", "Shaping", "Segmentation", "Drawing", "Batch", "Front",
    ]
    /// The stages that may import C modules.
    /// (`Support` holds the lock that tells ThreadSanitizer about itself, through `CSupport`.)
    static let cEdges: Set<String> = ["Support", "Cache", "Fonts", "Shaping", "Segmentation", "Drawing"]
    static let cModules = ["CHarfBuzz", "CFontconfig", "CICUShim", "CXXHash", "CSupport", "CHyphenShim", "CSQLite", "CFontDecode"]

    static let sourceRoot = repositoryRoot.appendingPathComponent("Sources/Plumb")

    struct SourceFile {
        let stage: String
        let name: String
        let code: String
    }

    static func sources() throws -> [SourceFile] {
        let root = sourceRoot.standardizedFileURL.path
        let paths = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []
        return try paths.filter { $0.hasSuffix(".swift") }.map { relative in
            let parts = relative.split(separator: "/")
            let stage = parts.count > 1 ? String(parts[0]) : "(no stage folder)"
            let text = try String(contentsOfFile: root + "/" + relative, encoding: .utf8)
            let code = text.split(separator: "\n", omittingEmptySubsequences: false)
                .map { line in line.range(of: "//").map { String(line[..<$0.lowerBound]) } ?? String(line) }
                .joined(separator: "\n")
            return SourceFile(stage: stage, name: relative, code: code)
        }
    }

    /// Type name → the stage declaring it.
    static func homes(_ files: [SourceFile]) throws -> [String: String] {
        let declaration = try Regex(
            #"(?m)^(?:@\w+(?:\([^)]*\))?\s+)*(?:public |package |internal |fileprivate |private )?(?:final )?(?:class|struct|enum|protocol|actor|typealias)\s+(\w+)"#)
        var homes: [String: String] = [:]
        for file in files {
            for match in file.code.matches(of: declaration) {
                if let name = match.output[1].substring { homes[String(name), default: file.stage] = file.stage }
            }
        }
        return homes
    }

    @Test func everyStageFolderIsALayer() throws {
        let files = try Self.sources()
        #expect(files.count > 50, "found \(files.count) source files under \(Self.sourceRoot.path)")
        for file in files {
            #expect(Self.layers.contains(file.stage), "\(file.name): folder \(file.stage) is not in the layer list")
        }
    }

    @Test func stagesUseOnlyTheStagesBelowThem() throws {
        let files = try Self.sources()
        let homes = try Self.homes(files)
        // Simple word boundaries: Unicode's (the default) do not split `Type.member`.
        let identifier = try Regex(#"\b[A-Z]\w+\b"#).wordBoundaryKind(.simple)
        var violations: Set<String> = []
        for file in files {
            guard let level = Self.layers.firstIndex(of: file.stage) else { continue }
            let names = Set(file.code.matches(of: identifier).map { String(file.code[$0.range]) })
            for name in names {
                guard let home = homes[name], home != file.stage,
                    let homeLevel = Self.layers.firstIndex(of: home), homeLevel > level
                else { continue }
                violations.insert("\(file.name) (\(file.stage)) uses \(name) (\(home))")
            }
        }
        #expect(violations.isEmpty, "arrows up the pipeline:\n\(violations.sorted().joined(separator: "\n"))")
    }

    @Test func onlyTheCEdgesImportC() throws {
        for file in try Self.sources() where !Self.cEdges.contains(file.stage) {
            for module in Self.cModules {
                #expect(!file.code.contains("import \(module)"), "\(file.name) (\(file.stage)) imports \(module)")
            }
        }
    }
}

/// The layering of members added in extensions and of free functions: a name declared only
/// in one stage (a method in an `extension`, a top-level function) is used by that stage and
/// the stages above it, never below. Names declared in more than one stage are ambiguous to a
/// text search and left out.
@Suite struct ExtensionLayeringTests {
    /// Where each declared name lives: (stage, declared in an extension or at top level).
    struct Declaration: Hashable {
        let stage: String
        let outsideTypes: Bool
    }

    /// Every `func`, `var`, `let` and `case` name of every file, with whether it sits directly
    /// in an `extension` or at the top level (brace depth tracked per line; comments stripped).
    static func declarations(_ files: [ArchitectureTests.SourceFile]) throws -> [String: Set<Declaration>] {
        let member = try Regex(#"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private|static|final|override|mutating|nonisolated|borrowing|consuming|(?:private|public)\(set\))\s+)*(?:func|var|let|case)\s+`?(\w+)"#)
        var out: [String: Set<Declaration>] = [:]
        for file in files {
            var depth = 0
            var extensionDepths: [Int] = []
            for line in file.code.split(separator: "\n", omittingEmptySubsequences: false) {
                let text = String(line)
                let trimmed = text.trimmingCharacters(in: .whitespaces)
                if depth == 0, trimmed.hasPrefix("extension ") || trimmed.contains(" extension ") {
                    extensionDepths.append(1)
                }
                if let m = text.firstMatch(of: member), let name = m.output[1].substring {
                    let outside = depth == 0 || extensionDepths.last == depth
                    out[String(name), default: []].insert(Declaration(stage: file.stage, outsideTypes: outside))
                }
                depth += text.filter { $0 == "{" }.count - text.filter { $0 == "}" }.count
                while let last = extensionDepths.last, depth < last { extensionDepths.removeLast() }
            }
        }
        return out
    }

    @Test func extensionMembersAndFreeFunctionsAreUsedOnlyAbove() throws {
        let files = try ArchitectureTests.sources()
        let declared = try Self.declarations(files)
        // Names of one stage only, declared there in an extension or at top level.
        var homes: [String: String] = [:]
        for (name, places) in declared {
            let stages = Set(places.map(\.stage))
            guard stages.count == 1, let stage = stages.first, places.contains(where: \.outsideTypes) else { continue }
            homes[name] = stage
        }
        let use = try Regex(#"(?:\.|\b)([a-z]\w+)\s*[(.]"#).wordBoundaryKind(.simple)
        // A parameter, label or local of the using file by that name is that file's own.
        let local = try Regex(#"\b([a-z]\w+)\s*:|\b(?:let|var)\s+([a-z]\w+)"#).wordBoundaryKind(.simple)
        var violations: Set<String> = []
        for file in files {
            guard let level = ArchitectureTests.layers.firstIndex(of: file.stage) else { continue }
            let own = Set(file.code.matches(of: local).compactMap { ($0.output[1].substring ?? $0.output[2].substring).map(String.init) })
            for match in file.code.matches(of: use) {
                guard let name = match.output[1].substring.map(String.init), !own.contains(name), let home = homes[name], home != file.stage,
                    let homeLevel = ArchitectureTests.layers.firstIndex(of: home), homeLevel > level
                else { continue }
                violations.insert("\(file.name) (\(file.stage)) uses \(name) (\(home))")
            }
        }
        #expect(violations.isEmpty, "calls up the pipeline:\n\(violations.sorted().joined(separator: "\n"))")
    }
}
