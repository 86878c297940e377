import Plumb

/// The unit of the offsets `measure` prints (`--offsets`): Unicode scalars (the default),
/// UTF-8 bytes or UTF-16 code units (NSRange, JavaScript strings). An inline box is one
/// scalar, three UTF-8 bytes and one UTF-16 unit (U+FFFC).
enum OffsetUnit: String, CaseIterable {
    case scalars, utf8, utf16

    /// Converts a layout's lines' UTF-8 offsets to this unit, in one pass over the text for
    /// UTF-16 (offsets of successive lines only grow).
    struct Converter {
        let unit: OffsetUnit
        let bytes: [UInt8]
        var position = 0
        var units = 0

        init(_ unit: OffsetUnit, text: String) {
            self.unit = unit
            bytes = unit == .utf16 ? Array(text.utf8) : []
        }

        /// A line's start and end in the unit.
        mutating func range(of line: LayoutLine) -> Range<Int> {
            switch unit {
            case .scalars: return line.scalarRange
            case .utf8: return line.utf8Range
            case .utf16:
                let start = utf16(upTo: line.utf8Range.lowerBound)
                return start..<utf16(upTo: line.utf8Range.upperBound)
            }
        }

        /// An inline box's offset in the unit.
        func offset(of box: InlineBoxPlacement) -> Int {
            switch unit {
            case .scalars: box.scalarOffset
            case .utf8: box.utf8Offset
            case .utf16: box.utf16Offset
            }
        }

        /// UTF-16 code units in bytes[0..<offset] (a 4-byte sequence is a surrogate pair).
        mutating func utf16(upTo offset: Int) -> Int {
            if offset < position { position = 0; units = 0 }
            while position < offset && position < bytes.count {
                let b = bytes[position]
                if b & 0xC0 != 0x80 { units += b >= 0xF0 ? 2 : 1 }
                position += 1
            }
            return units
        }
    }
}
