internal import CHarfBuzz

/// Glyph outlines (HarfBuzz's draw API), color glyph bitmaps (CBDT/sbix PNG) and ink boxes, in
/// font units with y up. The only C calls of the drawing stage; `FontFace` is their public
/// face.
///
/// - Thread safety: a value per call; the HarfBuzz font is immutable, so any thread may ask.
enum GlyphDrawing {
    /// The outline of `glyph`, or no elements for a blank glyph.
    ///
    /// - Complexity: O(outline points); nothing is cached.
    static func outline(of glyph: UInt32, in font: Font) -> [GlyphPathElement] {
        let sink = PathSink()
        let funcs = hb_draw_funcs_create()
        defer { hb_draw_funcs_destroy(funcs) }
        hb_draw_funcs_set_move_to_func(funcs, { _, data, _, x, y, _ in
            PathSink.from(data).elements.append(.move(to: GlyphPoint(x, y)))
        }, nil, nil)
        hb_draw_funcs_set_line_to_func(funcs, { _, data, _, x, y, _ in
            PathSink.from(data).elements.append(.line(to: GlyphPoint(x, y)))
        }, nil, nil)
        hb_draw_funcs_set_quadratic_to_func(funcs, { _, data, _, cx, cy, x, y, _ in
            PathSink.from(data).elements.append(.quadCurve(to: GlyphPoint(x, y), control: GlyphPoint(cx, cy)))
        }, nil, nil)
        hb_draw_funcs_set_cubic_to_func(funcs, { _, data, _, c1x, c1y, c2x, c2y, x, y, _ in
            PathSink.from(data).elements.append(
                .curve(to: GlyphPoint(x, y), control1: GlyphPoint(c1x, c1y), control2: GlyphPoint(c2x, c2y)))
        }, nil, nil)
        hb_draw_funcs_set_close_path_func(funcs, { _, data, _, _ in
            PathSink.from(data).elements.append(.closeSubpath)
        }, nil, nil)
        let unmanaged = Unmanaged.passUnretained(sink)
        hb_font_get_glyph_shape(font.hbFont, glyph, funcs, unmanaged.toOpaque())
        return sink.elements
    }

    /// The PNG of a color glyph, if the font has one (Noto Color Emoji: CBDT).
    static func png(of glyph: UInt32, in font: Font) -> [UInt8]? {
        guard let blob = hb_ot_color_glyph_reference_png(font.hbFont, glyph) else { return nil }
        defer { hb_blob_destroy(blob) }
        var length: UInt32 = 0
        guard let data = hb_blob_get_data(blob, &length), length > 0 else { return nil }
        return data.withMemoryRebound(to: UInt8.self, capacity: Int(length)) {
            Array(UnsafeBufferPointer(start: $0, count: Int(length)))
        }
    }

    /// Ink box of a glyph in font units (y up), or nil for a glyph without ink.
    static func extents(of glyph: UInt32, in font: Font) -> GlyphInkBox? {
        var e = hb_glyph_extents_t()
        guard hb_font_get_glyph_extents(font.hbFont, glyph, &e) != 0, e.width != 0 else { return nil }
        return GlyphInkBox(left: Double(e.x_bearing), top: Double(e.y_bearing), width: Double(e.width), height: Double(-e.height))
    }
}

/// Accumulates path elements from HarfBuzz's draw callbacks.
private final class PathSink {
    var elements: [GlyphPathElement] = []

    static func from(_ data: UnsafeMutableRawPointer?) -> PathSink {
        Unmanaged<PathSink>.fromOpaque(data!).takeUnretainedValue()
    }
}

extension GlyphPoint {
    fileprivate init(_ x: Float, _ y: Float) { self.init(x: Double(x), y: Double(y)) }
}
