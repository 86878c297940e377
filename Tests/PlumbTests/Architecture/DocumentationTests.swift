import Foundation
import Testing

/// Every public declaration of the libraries (`Sources/Plumb`, `Sources/PlumbRender`) has a
/// `///` doc comment directly above it (attributes such as `@inlinable` may stand between), each
/// case of a public enum on its own documented line, and no doc block is cut off from its
/// declaration by a blank line (a file's header is a `//` comment).
@Suite struct DocumentationTests {
    static let sourcesRoot = repositoryRoot.appendingPathComponent("Sources").standardizedFileURL.path
    static let libraries = ["Plumb", "PlumbRender"]

    struct SourceFile {
        let name: String
        /// The file's lines as written.
        let lines: [String]
        /// The same lines with comments and string contents blanked (braces there do not count).
        let code: [String]
    }

    static func files(in folders: [String]) throws -> [SourceFile] {
        try folders.flatMap { folder -> [SourceFile] in
            let root = sourcesRoot + "/" + folder
            let paths = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []
            return try paths.filter { $0.hasSuffix(".swift") }.sorted().map { relative in
                let text = try String(contentsOfFile: root + "/" + relative, encoding: .utf8)
                return SourceFile(
                    name: folder + "/" + relative, lines: lines(text), code: lines(blankingCommentsAndStrings(text)))
            }
        }
    }

    static func lines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// `text` with every comment and the inside of every string literal replaced by spaces
    /// (newlines kept, so line numbers stay).
    static func blankingCommentsAndStrings(_ text: String) -> String {
        let c = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        var i = 0
        var quote: [Unicode.Scalar]? = nil
        func starts(_ s: String) -> Bool {
            let p = Array(s.unicodeScalars)
            return i + p.count <= c.count && Array(c[i..<i + p.count]) == p
        }
        func blank(_ s: Unicode.Scalar) { out.append(s == "\n" ? "\n" : " ") }
        while i < c.count {
            if let q = quote {
                if c[i] == "\\" {
                    blank(c[i]); if i + 1 < c.count { blank(c[i + 1]) }; i += 2
                } else if i + q.count <= c.count && Array(c[i..<i + q.count]) == q {
                    out.append(contentsOf: q); i += q.count; quote = nil
                } else {
                    blank(c[i]); i += 1
                }
            } else if starts("//") {
                while i < c.count && c[i] != "\n" { blank(c[i]); i += 1 }
            } else if starts("/*") {
                while i < c.count && !starts("*/") { blank(c[i]); i += 1 }
                if i < c.count { out.append(contentsOf: "  ".unicodeScalars); i += 2 }
            } else if starts("\"\"\"") {
                quote = Array("\"\"\"".unicodeScalars); out.append(contentsOf: quote!); i += 3
            } else if c[i] == "\"" {
                quote = ["\""]; out.append("\""); i += 1
            } else {
                out.append(c[i]); i += 1
            }
        }
        return String(out)
    }

    static let attributes = #"(?:@\w+(?:\([^)]*\))?\s+)*"#
    static let modifiers =
        #"(?:(?:static|final|class|override|mutating|nonmutating|nonisolated|indirect|convenience|required|lazy|borrowing|consuming|dynamic|weak|unowned|(?:private|fileprivate|internal)\(set\))\s+)*"#
    static let publicDeclaration = "^" + attributes + #"(?:public|open)\s+"# + modifiers
        + #"(?:func|var|let|init|struct|class|enum|protocol|typealias|subscript|actor)\b"#
    static let publicEnum = "^" + attributes + #"(?:public|open)\s+(?:indirect\s+)?enum\s"#
    static let enumCase = "^" + attributes + #"(?:indirect\s+)?case\s"#

    /// Every public declaration without a doc comment, as `file:line: declaration`.
    static func undocumented(_ file: SourceFile) -> [String] {
        let publicDeclaration = try! Regex(Self.publicDeclaration)
        let publicEnum = try! Regex(Self.publicEnum)
        let enumCase = try! Regex(Self.enumCase)
        var missing: [String] = []
        var depth = 0
        var publicEnumBodies: [Int] = []  // brace depths of the bodies of public enums
        for (k, code) in file.code.enumerated() {
            let s = code.trimmingCharacters(in: .whitespaces)
            let isDeclaration = s.firstMatch(of: publicDeclaration) != nil
            let isCase = publicEnumBodies.last == depth && s.firstMatch(of: enumCase) != nil
            if isDeclaration || isCase {
                var j = k - 1
                while j >= 0 && file.lines[j].trimmingCharacters(in: .whitespaces).hasPrefix("@") { j -= 1 }
                let above = j >= 0 ? file.lines[j].trimmingCharacters(in: .whitespaces) : ""
                if !(above.hasPrefix("///") || above.hasSuffix("*/")) { missing.append("\(file.name):\(k + 1): \(s)") }
                let names = s.replacing(#/\([^)]*\)/#, with: "")
                if isCase && names.contains(",") { missing.append("\(file.name):\(k + 1): one case per line: \(s)") }
            }
            if s.firstMatch(of: publicEnum) != nil { publicEnumBodies.append(depth + 1) }
            depth += code.filter { $0 == "{" }.count - code.filter { $0 == "}" }.count
            while let last = publicEnumBodies.last, last > depth { publicEnumBodies.removeLast() }
        }
        return missing
    }

    /// Every `///` block followed by a blank line, as `file:line`.
    static func cutOff(_ file: SourceFile) -> [String] {
        zip(file.lines, file.lines.dropFirst()).enumerated().compactMap { k, pair in
            let (line, next) = pair
            let isDoc = line.trimmingCharacters(in: .whitespaces).hasPrefix("///")
            return isDoc && next.trimmingCharacters(in: .whitespaces).isEmpty ? "\(file.name):\(k + 1)" : nil
        }
    }

    @Test func everyPublicDeclarationHasADocComment() throws {
        let files = try Self.files(in: Self.libraries)
        #expect(files.count > 50)
        let missing = files.flatMap(Self.undocumented)
        #expect(missing.isEmpty, "\(missing.count) public declarations without a doc comment:\n\(missing.joined(separator: "\n"))")
    }

    @Test func noDocBlockIsCutOffFromItsDeclaration() throws {
        let files = try Self.files(in: Self.libraries + ["plumb", "CLIKit"])
        let cut = files.flatMap(Self.cutOff)
        #expect(cut.isEmpty, "doc blocks followed by a blank line (use // for a file header):\n\(cut.joined(separator: "\n"))")
    }

    /// The scanner finds what it must (so a green run means something).
    @Test func theScannerFindsUndocumentedDeclarations() {
        let text = """
            public struct A {
                /// Documented.
                public var b: Int
                public var c: Int
                /// Documented.
                @inlinable
                public func d() {}
                public private(set) var j: Int
                /// Documented.
                public enum E {
                    /// Documented.
                    case f
                    case g, h
                    /// Documented.
                    public func i() { switch self { case .f: break; default: break } }
                }
            }
            """
        let file = SourceFile(name: "t", lines: Self.lines(text), code: Self.lines(Self.blankingCommentsAndStrings(text)))
        #expect(Self.undocumented(file) == [
            "t:1: public struct A {", "t:4: public var c: Int", "t:8: public private(set) var j: Int", "t:13: case g, h",
            "t:13: one case per line: case g, h",
        ])
    }
}
