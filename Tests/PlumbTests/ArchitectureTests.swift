import Foundation
import Testing

/// The dependency picture of `Documentation/Architecture.md`, enforced: every stage folder of
/// `Sources/Plumb` may use the types of the stages below it and no other, and only the C-edge
/// stages import C modules. A type's home is the folder that declares it; a use is its name in
/// code (comments stripped). Top-level files are the front.
@Suite struct ArchitectureTests {
    /// Bottom to top: a stage may use the stages before it in this list.
    static let layers = [
        "Support", "Model", "Layout", "Metrics", "Cache", "Fonts", "Shaping", "Segmentation", "Drawing", "Batch", "Front",
    ]
    /// The stages that may import C modules.
    /// (`Support` holds the lock that tells ThreadSanitizer about itself, through `CSupport`.)
    static let cEdges: Set<String> = ["Support", "Cache", "Fonts", "Shaping", "Segmentation", "Drawing"]
    static let cModules = ["CHarfBuzz", "CFontconfig", "CICUShim", "CXXHash", "CSupport"]

    static let sourceRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/Plumb")

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
            let stage = parts.count > 1 ? String(parts[0]) : "Front"
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
        for file in try Self.sources() {
            #expect(Self.layers.contains(file.stage), "\(file.name): folder \(file.stage) is not in the layer list")
        }
    }

    @Test func stagesUseOnlyTheStagesBelowThem() throws {
        let files = try Self.sources()
        let homes = try Self.homes(files)
        let identifier = try Regex(#"\b[A-Z]\w+\b"#)
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
