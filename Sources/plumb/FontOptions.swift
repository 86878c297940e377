import CLIKit
import Glibc
import Plumb

/// `--font-file` and `--font-dir`: the application fonts an engine registers (the library's
/// `FontResolver.Configuration.fontFiles` and `applicationFontDirectories`).
enum FontOptions {
    static let options: [OptionSpec] = [
        OptionSpec(name: "font-file", valueName: "path", kind: .repeated,
                   help: "Register a font file (TTF, OTF, TTC, WOFF, WOFF2) with this run, found by its family name before the system's fonts. Repeatable."),
        OptionSpec(name: "font-dir", valueName: "dir", kind: .repeated,
                   help: "Register every font file below a folder (through fontconfig). Repeatable."),
    ]

    /// The font configuration the options describe.
    static func configuration(_ args: ParsedArguments) -> FontResolver.Configuration {
        var fonts = FontResolver.Configuration()
        fonts.fontFiles = (args.list("font-file") ?? []).map { FontFile.path($0) }
        fonts.applicationFontDirectories = args.list("font-dir") ?? []
        return fonts
    }

    /// A resolver with the options' fonts, or nil when none are given (the engine makes its
    /// own).
    ///
    /// - Throws: a usage error naming the first font file that cannot be used (missing,
    ///   unreadable, not a font, a WOFF2 that does not decode) or folder that does not exist.
    static func resolver(_ args: ParsedArguments) throws(UsageError) -> FontResolver? {
        let fonts = configuration(args)
        guard !fonts.fontFiles.isEmpty || !fonts.applicationFontDirectories.isEmpty else { return nil }
        for dir in fonts.applicationFontDirectories where !isDirectory(dir) {
            throw args.invalidValue(of: "font-dir", "\(dir) is not a folder")
        }
        let resolver = FontResolver(configuration: fonts)
        if let error = resolver.fontFileErrors.first { throw args.invalidValue(of: "font-file", error.description) }
        return resolver
    }

    private static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }
}
