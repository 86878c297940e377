import CPango
import Plumb

/// Pango (C, through pangocairo) set up as `Tests/Conformance/conformance.py` sets it up, so the
/// benchmark times the engine the accuracy report compares against: unhinted metrics (cairo
/// font options hint-metrics off, hint-style none), unrounded glyph positions, language "en",
/// WRAP_WORD_CHAR, no inserted hyphens, the cascade as one font description at an absolute
/// size.
///
/// One value is one cold engine: a fresh fontconfig configuration (as each `TextMeasurer`'s
/// `FontResolver` loads its own) in a fresh font map, so fonts are found and loaded on the way
/// and no run is privileged by the one before. Everything is released in `deinit`, which the
/// benchmark runs after its clock stops, as it does for Plumb's engines.
///
/// - Thread safety: none; one thread at a time.
final class PangoReference {
    private let fontMap: UnsafeMutablePointer<PangoFontMap>
    private let context: OpaquePointer
    private let attributes: OpaquePointer
    private let font: OpaquePointer
    private let width: Int32

    /// The Pango library's version ("1.50.12").
    static var version: String { String(cString: pango_version_string()) }

    /// A fresh engine for `families` at `size` points, lines at most `width` points wide.
    init(families: [String], size: Double, width: Double) {
        let config = FcInitLoadConfigAndFonts()
        fontMap = pango_cairo_font_map_new()
        // pango_cairo_font_map_new() is a PangoFcFontMap here (the FreeType backend); it takes
        // its own reference to the configuration.
        pango_fc_font_map_set_config(OpaquePointer(fontMap), config)
        FcConfigDestroy(config)
        context = pango_font_map_create_context(fontMap)
        let options = cairo_font_options_create()
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        pango_cairo_context_set_font_options(context, options)
        cairo_font_options_destroy(options)
        pango_context_set_round_glyph_positions(context, 0)
        pango_context_set_language(context, pango_language_from_string("en"))
        attributes = pango_attr_list_new()
        pango_attr_list_insert(attributes, pango_attr_insert_hyphens_new(0))
        font = pango_font_description_from_string(families.joined(separator: ", "))
        pango_font_description_set_absolute_size(font, size * Double(PANGO_SCALE))
        self.width = Int32((width * Double(PANGO_SCALE)).rounded())
    }

    deinit {
        pango_font_description_free(font)
        pango_attr_list_unref(attributes)
        g_object_unref(UnsafeMutableRawPointer(context))
        g_object_unref(UnsafeMutableRawPointer(fontMap))
    }

    /// Lays `text` out in a new `PangoLayout` (one per cell, as a table view would) and returns
    /// its line count and height in points (`pango_layout_get_size`, so extents are computed
    /// as Plumb computes a size).
    func measure(_ text: String) -> (lines: Int, height: Double) {
        let layout = pango_layout_new(context)!
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        pango_layout_set_attributes(layout, attributes)
        pango_layout_set_font_description(layout, font)
        pango_layout_set_width(layout, width)
        var t = text
        t.withUTF8 { u in
            u.withMemoryRebound(to: CChar.self) { pango_layout_set_text(layout, $0.baseAddress, Int32(u.count)) }
        }
        var w: Int32 = 0, h: Int32 = 0
        pango_layout_get_size(layout, &w, &h)
        return (Int(pango_layout_get_line_count(layout)), Double(h) / Double(PANGO_SCALE))
    }

    /// Lays an attributed cell out as `Tests/Conformance/rich_pango.py` does: its string with
    /// one attribute list made for the cell (a table view's attributed string), each run's
    /// family, absolute size and weight on its byte range, each inline box a U+FFFC carrying
    /// `pango_attr_shape_new` with the box's rect (x 0, y −(baselineOffset + height), its width
    /// and height) as ink and logical rect.
    func measure(_ text: AttributedText) -> (lines: Int, height: Double) {
        let layout = pango_layout_new(context)!
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        let list = pango_attr_list_new()!
        defer { pango_attr_list_unref(list) }
        pango_attr_list_insert(list, pango_attr_insert_hyphens_new(0))
        for run in text.runs {
            for attribute in Self.attributes(of: run) {
                attribute.pointee.start_index = UInt32(run.utf8Range.lowerBound)
                attribute.pointee.end_index = UInt32(run.utf8Range.upperBound)
                pango_attr_list_insert(list, attribute)
            }
        }
        pango_layout_set_attributes(layout, list)
        pango_layout_set_font_description(layout, font)
        pango_layout_set_width(layout, width)
        var t = text.string
        t.withUTF8 { u in
            u.withMemoryRebound(to: CChar.self) { pango_layout_set_text(layout, $0.baseAddress, Int32(u.count)) }
        }
        var w: Int32 = 0, h: Int32 = 0
        pango_layout_get_size(layout, &w, &h)
        return (Int(pango_layout_get_line_count(layout)), Double(h) / Double(PANGO_SCALE))
    }

    /// Pango's attributes for one run (the list takes them over).
    private static func attributes(of run: AttributedText.Run) -> [UnsafeMutablePointer<PangoAttribute>] {
        func units(_ points: Double) -> Int32 { Int32((points * Double(PANGO_SCALE)).rounded()) }
        if let box = run.inlineBox {
            var rect = PangoRectangle(
                x: 0, y: -units(box.baselineOffset + box.height), width: units(box.width), height: units(box.height))
            return [pango_attr_shape_new(&rect, &rect)]
        }
        var made: [UnsafeMutablePointer<PangoAttribute>] = []
        if let families = run.attributes.families { made.append(pango_attr_family_new(families.joined(separator: ", "))) }
        if let size = run.attributes.size { made.append(pango_attr_size_new_absolute(units(size))) }
        if let weight = run.attributes.weight { made.append(pango_attr_weight_new(PangoWeight(rawValue: UInt32(weight)))) }
        return made
    }
}

extension PangoReference {
    /// A cold Pango pass for `Report.addInterleaved`: a fresh engine (released after the clock
    /// stops) measures every item once at `width`, recording each line count in `counts`.
    static func coldPass<Item>(
        _ items: [Item], style: TextStyle, width: Double, counts: LineCounts,
        _ measure: @escaping (PangoReference, Item) -> (lines: Int, height: Double)
    ) -> () -> AnyObject? {
        {
            let p = PangoReference(families: style.font.families, size: style.font.size, width: width)
            for (i, item) in items.enumerated() {
                let measured = measure(p, item)
                counts.counts[i] = Int32(measured.lines)
                Sink.value &+= Int(measured.height)
            }
            return p
        }
    }
}
