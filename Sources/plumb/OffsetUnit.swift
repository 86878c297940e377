import Plumb

/// The unit of the offsets `measure` and `layout` print (`--offsets`): Unicode scalars (the default),
/// UTF-8 bytes or UTF-16 code units (NSRange, JavaScript strings). An inline box is one
/// scalar, three UTF-8 bytes and one UTF-16 unit (U+FFFC).
enum OffsetUnit: String, CaseIterable {
    case scalars, utf8, utf16

    /// Reads a layout's offsets in this unit (`LayoutLine` and `InlineBoxPlacement` carry all
    /// three).
    struct Converter {
        let unit: OffsetUnit

        init(_ unit: OffsetUnit) { self.unit = unit }

        /// A line's start and end in the unit.
        func range(of line: LayoutLine) -> Range<Int> {
            switch unit {
            case .scalars: line.scalarRange
            case .utf8: line.utf8Range
            case .utf16: line.utf16Range
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
    }
}
