import Glibc

/// Writes to the standard streams (unbuffered file descriptors: no shared `FILE *`).
enum Output {
    static func write(_ bytes: UnsafeRawBufferPointer, to fd: Int32) {
        var offset = 0
        while offset < bytes.count {
            let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n <= 0 {
                if n < 0 && errno == EINTR { continue }
                return
            }
            offset += n
        }
    }

    static func standardOutput(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { write($0, to: 1) }
    }

    static func standardError(_ text: String) {
        var t = text
        t.withUTF8 { write(UnsafeRawBufferPointer($0), to: 2) }
    }
}
