internal import CHarfBuzz
internal import CFontDecode
internal import CXXHash
#if canImport(Glibc)
import Glibc
#endif

/// A font file's sfnt bytes in memory, owned by a HarfBuzz blob: read from a file or given as
/// data, WOFF and WOFF2 decoded.
///
/// Fonts are read into memory, never mapped: a file that is overwritten in place or truncated
/// while in use cannot fault the process (a mapped page of a truncated file raises SIGBUS).
///
/// - Thread safety: immutable; HarfBuzz blobs are reference-counted atomically.
final class FontBytes: @unchecked Sendable {
    // @unchecked: `blob` is an immutable HarfBuzz blob (made immutable in init).
    /// The sfnt, for `hb_face_create` (one reference owned here).
    let blob: OpaquePointer
    /// The container the bytes came in.
    let format: FontFileFormat
    /// XXH3-128 of the sfnt bytes, 32 hexadecimal digits: a registered font's identity in
    /// cache keys, so a changed file never shares an answer with the old one.
    ///
    /// - Complexity: O(n) per call (hashed when asked: system fonts never need it).
    var fingerprint: String {
        var length: UInt32 = 0
        let data = hb_blob_get_data(blob, &length)
        return CacheKey(bytes: UnsafeRawBufferPointer(start: data, count: Int(length))).description
    }
    /// The number of faces (more than one for a TTC/OTC collection).
    let faceCount: Int

    /// The largest font file read (a larger one is refused as not a font).
    static let maximumFileBytes = 256 << 20

    private init(blob: OpaquePointer, format: FontFileFormat) {
        hb_blob_make_immutable(blob)
        self.blob = blob
        self.format = format
        faceCount = Int(hb_face_count(blob))
    }

    deinit { hb_blob_destroy(blob) }

    /// The font in `bytes`, decoded when it is WOFF or WOFF2.
    ///
    /// - Throws: ``FontFileError/Reason/notAFont`` for an unknown signature,
    ///   ``FontFileError/Reason/doesNotDecode`` for a WOFF or WOFF2 that does not decode,
    ///   ``FontFileError/Reason/noUsableFace`` when HarfBuzz finds no face with glyphs.
    /// - Complexity: O(n) (a copy, or the decoding of a WOFF or WOFF2).
    static func decode(_ bytes: UnsafeRawBufferPointer) throws(FontFileError.Reason) -> FontBytes {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count >= 12 else {
            throw .notAFont
        }
        var decoded: UnsafeMutablePointer<UInt8>? = nil
        var decodedCount = 0
        let format = plumb_font_decode(base, bytes.count, &decoded, &decodedCount)
        let result: FontBytes
        switch format {
        case PLUMB_FONT_SFNT:
            let copy = UnsafeMutableRawPointer.allocate(byteCount: bytes.count, alignment: 16)
            copy.copyMemory(from: base, byteCount: bytes.count)
            result = FontBytes(blob: blob(owning: copy, count: bytes.count, free: { $0?.deallocate() }),
                               format: .sfnt)
        case PLUMB_FONT_WOFF, PLUMB_FONT_WOFF2:
            guard let decoded else { throw .doesNotDecode }
            result = FontBytes(blob: blob(owning: decoded, count: decodedCount, free: { plumb_font_free($0?.assumingMemoryBound(to: UInt8.self)) }),
                               format: format == PLUMB_FONT_WOFF ? .woff : .woff2)
        case PLUMB_FONT_CORRUPT: throw .doesNotDecode
        default: throw .notAFont
        }
        guard result.firstUsableFace != nil else { throw .noUsableFace }
        return result
    }

    /// The font in the file at `path` (read whole into memory).
    ///
    /// - Throws: ``FontFileError/Reason/unreadable`` when the file cannot be opened or read
    ///   (missing, a directory, no permission), else as ``decode(_:)``.
    /// - Complexity: one read of the file (its size plus one byte, so the end is seen without
    ///   growing the buffer), one copy.
    static func load(path: String) throws(FontFileError.Reason) -> FontBytes {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .unreadable(errno: errno) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .unreadable(errno: errno) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw .unreadable(errno: EISDIR) }
        guard Int(info.st_size) <= maximumFileBytes else { throw .notAFont }
        // Read until end of file, not to the size stat gave: the file may change meanwhile.
        var capacity = Int(info.st_size) + 1
        var buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        defer { buffer.deallocate() }
        var count = 0
        while true {
            if count == capacity {
                guard capacity <= maximumFileBytes else { throw .notAFont }
                let larger = UnsafeMutableRawPointer.allocate(byteCount: capacity * 2, alignment: 16)
                larger.copyMemory(from: buffer, byteCount: count)
                buffer.deallocate()
                buffer = larger
                capacity *= 2
            }
            let n = read(fd, buffer + count, capacity - count)
            if n < 0 {
                if errno == EINTR { continue }
                throw .unreadable(errno: errno)
            }
            if n == 0 { break }
            count += n
        }
        return try decode(UnsafeRawBufferPointer(start: buffer, count: count))
    }

    /// ``decode(_:)`` of the first `count` bytes of `bytes`.
    static func decode(_ bytes: [UInt8], count: Int? = nil) throws(FontFileError.Reason) -> FontBytes {
        let result = bytes.withUnsafeBytes { all -> Result<FontBytes, FontFileError.Reason> in
            do throws(FontFileError.Reason) {
                return .success(try decode(UnsafeRawBufferPointer(rebasing: all[..<(count ?? all.count)])))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// The index of the first face with glyphs, or nil.
    var firstUsableFace: Int? {
        (0..<max(faceCount, 1)).first { i in
            let face = hb_face_create(blob, UInt32(i))!
            defer { hb_face_destroy(face) }
            return hb_face_get_upem(face) > 0 && hb_face_get_glyph_count(face) > 0
        }
    }

    private static func blob(
        owning data: UnsafeMutableRawPointer, count: Int, free: @convention(c) (UnsafeMutableRawPointer?) -> Void
    ) -> OpaquePointer {
        // HarfBuzz never returns NULL (its empty blob instead); the destroy callback frees
        // `data` with the allocator that made it.
        hb_blob_create(
            UnsafeRawPointer(data).assumingMemoryBound(to: CChar.self), UInt32(count), HB_MEMORY_MODE_READONLY, data, free)!
    }
}

