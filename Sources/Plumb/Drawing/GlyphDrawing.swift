internal import CHarfBuzz

/// Glyph outlines as SVG path data (HarfBuzz's draw API) and color glyph bitmaps (CBDT/sbix
/// PNG), in font units with y up. The only C calls of the render stage.
///
/// - Thread safety: a value per call; `GlyphDrawing` caches nothing itself.
enum GlyphDrawing {
    /// The outline of `glyph` as SVG path data in font units (y up), or "" for a blank glyph.
    static func outline(of glyph: UInt32, in font: Font) -> String {
        let sink = PathSink()
        let funcs = hb_draw_funcs_create()
        defer { hb_draw_funcs_destroy(funcs) }
        hb_draw_funcs_set_move_to_func(funcs, { _, data, _, x, y, _ in
            PathSink.from(data).add("M", [x, y])
        }, nil, nil)
        hb_draw_funcs_set_line_to_func(funcs, { _, data, _, x, y, _ in
            PathSink.from(data).add("L", [x, y])
        }, nil, nil)
        hb_draw_funcs_set_quadratic_to_func(funcs, { _, data, _, cx, cy, x, y, _ in
            PathSink.from(data).add("Q", [cx, cy, x, y])
        }, nil, nil)
        hb_draw_funcs_set_cubic_to_func(funcs, { _, data, _, c1x, c1y, c2x, c2y, x, y, _ in
            PathSink.from(data).add("C", [c1x, c1y, c2x, c2y, x, y])
        }, nil, nil)
        hb_draw_funcs_set_close_path_func(funcs, { _, data, _, _ in
            PathSink.from(data).add("Z", [])
        }, nil, nil)
        let unmanaged = Unmanaged.passUnretained(sink)
        hb_font_get_glyph_shape(font.hbFont, glyph, funcs, unmanaged.toOpaque())
        return sink.path
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

    /// Ink box of a glyph in font units: x bearing, top (y up), width, height (≥ 0).
    static func extents(of glyph: UInt32, in font: Font) -> (x: Double, top: Double, width: Double, height: Double)? {
        var e = hb_glyph_extents_t()
        guard hb_font_get_glyph_extents(font.hbFont, glyph, &e) != 0, e.width != 0 else { return nil }
        return (Double(e.x_bearing), Double(e.y_bearing), Double(e.width), Double(-e.height))
    }
}

/// Accumulates SVG path commands from HarfBuzz's draw callbacks.
private final class PathSink {
    var path = ""

    static func from(_ data: UnsafeMutableRawPointer?) -> PathSink {
        Unmanaged<PathSink>.fromOpaque(data!).takeUnretainedValue()
    }

    func add(_ command: String, _ values: [Float]) {
        path += command
        path += values.map { SVGNumber.format(Double($0)) }.joined(separator: " ")
    }
}
