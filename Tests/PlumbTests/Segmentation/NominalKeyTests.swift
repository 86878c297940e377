@testable import Plumb
import Testing

/// The chromium profile's alone advance of a one-scalar cluster is remembered under the
/// scalar's UTF-8 bytes (`TextPreparer.nominalKey`, branch `cold5`), not its decoded value:
/// every scalar must get a key of its own, never 0, that the decoder maps back to the scalar.
@Suite struct NominalKeyTests {
    @Test func everyScalarHasItsOwnKey() {
        var seen = Set<UInt64>()
        var bad: [UInt32] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let bytes = Array(String(Character(scalar)).utf8)
            let (key, decoded) = bytes.withUnsafeBufferPointer {
                (TextPreparer.nominalKey($0, start: 0, length: $0.count), ParagraphScratch.scalar(in: $0, at: 0))
            }
            if key == 0 || decoded != value { bad.append(value) }
            seen.insert(key)
        }
        #expect(bad.isEmpty)
        #expect(seen.count == 0x10FFFF + 1 - 2048)
    }
}
