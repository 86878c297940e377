import Plumb

/// Draws what Plumb lays out as SVG: glyph outlines from the fonts, color emoji as their
/// embedded PNGs, at the positions Plumb computed (`TextMeasurer.drawing`) — never SVG
/// `<text>`, which a browser would re-shape and re-break — plus overlays and the effects people
/// build on measured lines.
///
/// Output is deterministic: the same drawings and options give byte-identical SVG.
///
/// - Complexity: O(glyphs); each distinct glyph outline is emitted once in `<defs>`.
/// - Thread safety: a pure function of its arguments; safe from any thread.
public enum SVGRenderer {
    /// The width of a row whose layout width was unusable (a flagged fallback with no lines)
    /// when no other row gives the sheet a width.
    public static let fallbackRowWidth = 240.0

    /// One cell as an SVG document, in the box its lines were laid out in.
    public static func render(_ drawing: TextDrawing, options: RenderOptions = RenderOptions()) -> String {
        render(rows: [drawing], options: options)
    }

    /// Cells stacked as a list, each row in the box it was laid out in (its own width) and as
    /// tall as Plumb measured it. A row whose width was unusable is as wide as the widest row
    /// and is marked as a fallback (red dashed outline and a caption), since its height is a
    /// stand-in.
    public static func render(rows: [TextDrawing], options: RenderOptions = RenderOptions()) -> String {
        var doc = Document(options: options)
        let pad = options.padding
        let sheetWidth = rows.compactMap(\.boxWidth).filter { $0.isFinite && $0 > 0 }.max() ?? fallbackRowWidth
        var y = pad
        var captionLines: [String] = []
        for (i, drawing) in rows.enumerated() {
            let boxWidth = drawing.boxWidth.flatMap { $0.isFinite && $0 > 0 ? $0 : nil } ?? sheetWidth
            doc.row(drawing, index: i, origin: (pad, y), boxWidth: boxWidth)
            if options.overlays.contains(.warnings) {
                captionLines += drawing.layout.measurement.warnings.map { "row \(i + 1): \($0)" }
            }
            y += visibleHeight(drawing.layout, options) + (rows.count > 1 ? 1 : 0)
        }
        let captionHeight = captionLines.isEmpty ? 0.0 : Double(captionLines.count) * 14 + 6
        for (k, line) in captionLines.enumerated() {
            doc.body += "<text class=\"warning\" x=\"\(SVGNumber.format(pad))\" y=\"\(SVGNumber.format(y + 12 + Double(k) * 14))\" font-family=\"sans-serif\" font-size=\"11\" fill=\"#b00020\">\(SVGNumber.escape(line))</text>\n"
        }
        let totalWidth = sheetWidth + 2 * pad
        let totalHeight = y + pad + captionHeight
        return doc.finish(width: totalWidth, height: totalHeight)
    }

    /// The text's box: from the leftmost line start to the rightmost line end (alignment moves
    /// lines; hanging whitespace is outside), from the top to the exact height. `nil` without
    /// lines.
    static func textBox(_ layout: TextLayout) -> Rect? {
        guard let minX = layout.lines.map(\.rect.x).min(), let maxX = layout.lines.map(\.rect.maxX).max() else { return nil }
        return Rect(x: minX, y: 0, width: max(maxX - minX, 1), height: max(layout.exactHeight, 1))
    }

    /// A linear gradient across `box` in the row's coordinates (`userSpaceOnUse`), at `angle`
    /// degrees (0: left to right, 90: top to bottom), whose ends pass through the box's corners
    /// as CSS `linear-gradient` does: at 0° the first color is at the box's left edge and the
    /// last at its right edge.
    static func linearGradient(id: String, colors: [String], angle: Double, box: Rect) -> String {
        let n = SVGNumber.format
        let rad = angle * .pi / 180
        let (c, s) = (cos(rad), sin(rad))
        let half = (abs(box.width * c) + abs(box.height * s)) / 2
        let cx = box.x + box.width / 2, cy = box.y + box.height / 2
        var out = "<linearGradient id=\"\(id)\" gradientUnits=\"userSpaceOnUse\" x1=\"\(n(cx - c * half))\" y1=\"\(n(cy - s * half))\" x2=\"\(n(cx + c * half))\" y2=\"\(n(cy + s * half))\">"
        for (k, color) in colors.enumerated() {
            out += "<stop offset=\"\(n(Double(k) / Double(colors.count - 1)))\" stop-color=\"\(SVGNumber.escape(color))\"/>"
        }
        return out + "</linearGradient>\n"
    }

    static func visibleHeight(_ layout: TextLayout, _ options: RenderOptions) -> Double {
        if let v = options.viewport { return min(v.height, max(layout.size.height, 0)) }
        return layout.size.height
    }

    /// Accumulates `<defs>` and the body.
    struct Document {
        let options: RenderOptions
        var defs = ""
        var body = ""
        /// Outline ids by face and glyph ("" for a blank glyph).
        var glyphIDs: [GlyphKey: String] = [:]

        struct GlyphKey: Hashable {
            let face: FontFace
            let glyph: UInt32
        }

        init(options: RenderOptions) { self.options = options }

        func n(_ v: Double) -> String { SVGNumber.format(v) }

        /// The `<defs>` id of a glyph outline (emitted once), or nil for a blank glyph.
        mutating func outlineID(_ g: PlacedGlyph) -> String? {
            let key = GlyphKey(face: g.face, glyph: g.glyph)
            if let id = glyphIDs[key] { return id.isEmpty ? nil : id }
            let path = SVGNumber.pathData(g.face.outline(ofGlyph: g.glyph))
            let id = path.isEmpty ? "" : "g\(glyphIDs.count)"
            glyphIDs[key] = id
            if !path.isEmpty { defs += "<path id=\"\(id)\" d=\"\(path)\"/>\n" }
            return path.isEmpty ? nil : id
        }

        mutating func row(_ drawing: TextDrawing, index: Int, origin: (x: Double, y: Double), boxWidth: Double) {
            let layout = drawing.layout
            let r = "r\(index)"
            let o = options
            body += "<g id=\"\(r)\" transform=\"translate(\(n(origin.x)) \(n(origin.y)))\">\n"
            // Row background and the box the text was laid out in.
            body += "<rect class=\"row\" x=\"0\" y=\"0\" width=\"\(n(boxWidth))\" height=\"\(n(SVGRenderer.visibleHeight(layout, o)))\" fill=\"#ffffff\" stroke=\"#e5e5ea\" stroke-width=\"0.5\"/>\n"

            // Effects that need definitions.
            let gradientBox = o.gradient.flatMap { $0.colors.count >= 2 ? SVGRenderer.textBox(layout) : nil }
            if let g = o.gradient, let box = gradientBox {
                defs += SVGRenderer.linearGradient(id: "\(r)-gradient", colors: g.colors, angle: g.angle, box: box)
            }
            var groupAttributes = ""
            if let fade = o.fadeLastLine, let last = layout.lines.last {
                // The last `fade` points of the line's used width fade out towards its end: the
                // right edge, or the left edge in a right-to-left paragraph; past the end (the
                // hanging whitespace side) nothing shows.
                let rect = last.rect
                let w = min(max(fade, 0), rect.width)
                let rtl = last.direction == .rightToLeft
                let fadeX = rtl ? rect.x : rect.maxX - w
                let (from, to) = rtl ? (rect.x + w, rect.x) : (rect.maxX - w, rect.maxX)
                let (beyondX, beyondWidth) = rtl ? (-1000.0, rect.x + 1000) : (rect.maxX, max(0, boxWidth - rect.maxX) + 1000)
                defs += "<linearGradient id=\"\(r)-fade-gradient\" gradientUnits=\"userSpaceOnUse\" x1=\"\(n(from))\" y1=\"0\" x2=\"\(n(to))\" y2=\"0\"><stop offset=\"0\" stop-color=\"#fff\"/><stop offset=\"1\" stop-color=\"#000\"/></linearGradient>\n"
                defs += "<mask id=\"\(r)-fade\" maskUnits=\"userSpaceOnUse\" x=\"-1000\" y=\"-1000\" width=\"\(n(boxWidth + 3000))\" height=\"\(n(layout.exactHeight + 3000))\">"
                defs += "<rect x=\"-1000\" y=\"-1000\" width=\"\(n(boxWidth + 3000))\" height=\"\(n(layout.exactHeight + 3000))\" fill=\"#fff\"/>"
                defs += "<rect class=\"fade\" x=\"\(n(fadeX))\" y=\"\(n(rect.y))\" width=\"\(n(w))\" height=\"\(n(rect.height))\" fill=\"url(#\(r)-fade-gradient)\"/>"
                defs += "<rect x=\"\(n(beyondX))\" y=\"\(n(rect.y))\" width=\"\(n(beyondWidth))\" height=\"\(n(rect.height))\" fill=\"#000\"/>"
                defs += "</mask>\n"
                groupAttributes += " mask=\"url(#\(r)-fade)\""
            }
            if let v = o.viewport {
                let edgeLength = min(max(v.fadeEdge, 0), v.height)
                defs += "<clipPath id=\"\(r)-viewport\"><rect x=\"0\" y=\"0\" width=\"\(n(boxWidth))\" height=\"\(n(v.height))\"/></clipPath>\n"
                let (y1, y2) = v.edge == .top ? (0.0, edgeLength) : (v.height, v.height - edgeLength)
                defs += "<linearGradient id=\"\(r)-edge-gradient\" gradientUnits=\"userSpaceOnUse\" x1=\"0\" y1=\"\(n(y1))\" x2=\"0\" y2=\"\(n(y2))\"><stop offset=\"0\" stop-color=\"#000\"/><stop offset=\"1\" stop-color=\"#fff\"/></linearGradient>\n"
                defs += "<mask id=\"\(r)-edge\" maskUnits=\"userSpaceOnUse\" x=\"0\" y=\"0\" width=\"\(n(boxWidth))\" height=\"\(n(v.height))\"><rect x=\"0\" y=\"0\" width=\"\(n(boxWidth))\" height=\"\(n(v.height))\" fill=\"#fff\"/>"
                defs += "<rect class=\"edge-fade\" x=\"0\" y=\"\(n(min(y1, y2)))\" width=\"\(n(boxWidth))\" height=\"\(n(edgeLength))\" fill=\"url(#\(r)-edge-gradient)\"/></mask>\n"
                body += "<g clip-path=\"url(#\(r)-viewport)\" mask=\"url(#\(r)-edge)\">\n"
            }

            // Glyphs. With a gradient, the outlines clip one gradient-filled rect over the text
            // box, so the gradient runs once across the text (a fill set on a glyph's `<use>`
            // would be read in the glyph's own font-unit space and restart in every glyph);
            // emoji and placeholders are drawn above it in their own colors.
            body += "<g class=\"text\"\(groupAttributes)>\n"
            var clip = ""
            var lineGroups = ""
            var ellipsisX: [Int: Double] = [:]
            for (lineIndex, glyphs) in drawing.lines.enumerated() {
                lineGroups += "<g class=\"line\" data-line=\"\(lineIndex)\"\(gradientBox == nil ? " fill=\"\(o.textColor)\"" : "")>\n"
                for g in glyphs {
                    if g.isEllipsis && ellipsisX[lineIndex] == nil { ellipsisX[lineIndex] = g.x }
                    switch glyph(g) {
                    case .outline(let use) where gradientBox != nil: clip += use + emboldenedClip(g)
                    case .outline(let element), .other(let element): lineGroups += element
                    case .blank: break
                    }
                }
                lineGroups += "</g>\n"
            }
            if let box = gradientBox {
                defs += "<clipPath id=\"\(r)-text\">\n" + clip + "</clipPath>\n"
                // The gradient is defined on the text box; the rect reaches well past it, so ink
                // outside the box (overhangs, descenders under a clamped line height) is still
                // painted, in the end colors.
                let m = 1000.0
                body += "<rect class=\"gradient-fill\" x=\"\(n(box.x - m))\" y=\"\(n(box.y - m))\" width=\"\(n(box.width + 2 * m))\" height=\"\(n(box.height + 2 * m))\" fill=\"url(#\(r)-gradient)\" clip-path=\"url(#\(r)-text)\"/>\n"
            }
            body += lineGroups
            inlineBoxes(layout)
            body += "</g>\n"
            if o.viewport != nil {
                body += "</g>\n"
                body += "<text class=\"content-height\" x=\"\(n(boxWidth - 2))\" y=\"\(n(SVGRenderer.visibleHeight(layout, o) - 3))\" text-anchor=\"end\" font-family=\"sans-serif\" font-size=\"9\" fill=\"#8e8e93\">content height \(n(layout.size.height)) pt</text>\n"
            }

            // Covers for private reading.
            if let cover = o.cover {
                let revealed: Int?
                switch cover {
                case .line(let i): revealed = i
                case .y(let y): revealed = layout.lineIndex(atY: y)
                }
                for (i, rect) in layout.lineCoverRects.enumerated() where i != revealed {
                    body += "<rect class=\"cover\" data-line=\"\(i)\" x=\"\(n(rect.x))\" y=\"\(n(rect.y))\" width=\"\(n(max(rect.width, 1)))\" height=\"\(n(rect.height))\" fill=\"#c7c7cc\"/>\n"
                }
            }
            if layout.measurement.isFallback { fallbackMark(layout, boxWidth: boxWidth) }
            overlays(layout, boxWidth: boxWidth, ellipsisX: ellipsisX)
            body += "</g>\n"
        }

        /// A glyph as SVG: an outline (`<use>` of its `<defs>` path), or something else (a color
        /// image, a placeholder), or nothing (a blank glyph).
        enum GlyphElement {
            case outline(String)
            case other(String)
            case blank
        }

        mutating func glyph(_ g: PlacedGlyph) -> GlyphElement {
            if g.face.hasColorGlyphs, let png = g.face.colorImage(ofGlyph: g.glyph),
                let e = g.face.inkBox(ofGlyph: g.glyph)
            {
                return .other("<image class=\"emoji\" x=\"\(n(g.x + e.left * g.scale))\" y=\"\(n(g.baseline - e.top * g.scale))\" width=\"\(n(e.width * g.scale))\" height=\"\(n(e.height * g.scale))\" href=\"data:image/png;base64,\(SVGNumber.base64(png))\"/>\n")
            }
            if g.glyph != 0, let id = outlineID(g) {
                // A run's colour on its glyphs (the line's fill otherwise; a gradient clips them).
                let fill = g.color.map { " fill=\"\(SVGNumber.escape($0))\"" } ?? ""
                return .outline("<use class=\"glyph\(g.isEllipsis ? " ellipsis" : "")\"\(fill)\(bold(g)) href=\"#\(id)\" transform=\"\(transform(g))\"/>\n")
            } else if g.glyph == 0 || g.face.inkBox(ofGlyph: g.glyph) != nil {
                // Cannot be drawn (.notdef or no outline): a visible placeholder, never a gap.
                let h = g.face.ascender * g.scale
                let w = max(2, g.face.unitsPerEm * 0.5 * g.scale)
                return .other("<rect class=\"placeholder\" x=\"\(n(g.x))\" y=\"\(n(g.baseline - h))\" width=\"\(n(w))\" height=\"\(n(h))\" fill=\"none\" stroke=\"#ff3b30\" stroke-width=\"0.5\"/>\n")
            }
            return .blank
        }

        /// A glyph's font units to the row's points: the pen position, y flipped, and a
        /// synthetic oblique's skew (x moves by `skew` × y in font units).
        func transform(_ g: PlacedGlyph) -> String {
            let s = scaleString(g.scale)
            guard g.skew != 0 else { return "translate(\(n(g.x)) \(n(g.baseline))) scale(\(s) \(scaleString(-g.scale)))" }
            return "matrix(\(s) 0 \(scaleString(g.scale * g.skew)) \(scaleString(-g.scale)) \(n(g.x)) \(n(g.baseline)))"
        }

        /// A synthetic bold's stroke around the outline, in the glyph's colour (the line's text
        /// colour unless the run sets one); its width is in font units, as the outline is.
        func bold(_ g: PlacedGlyph) -> String {
            guard g.emboldening > 0, g.scale > 0 else { return "" }
            let colour = SVGNumber.escape(g.color ?? options.textColor)
            return " stroke=\"\(colour)\" stroke-width=\"\(n(g.emboldening / g.scale))\" stroke-linejoin=\"round\""
        }

        /// A clip path ignores strokes: a synthetic bold glyph under a gradient also clips with
        /// four copies moved by half the stroke, left, right, up and down.
        mutating func emboldenedClip(_ g: PlacedGlyph) -> String {
            guard g.emboldening > 0, g.glyph != 0, let id = outlineID(g) else { return "" }
            let d = g.emboldening / 2
            return [(d, 0.0), (-d, 0.0), (0.0, d), (0.0, -d)].map { dx, dy in
                "<use class=\"glyph bold\" href=\"#\(id)\" transform=\"translate(\(n(dx)) \(n(dy))) \(transform(g))\"/>\n"
            }.joined()
        }

        /// Each inline box of an attributed text (and of its truncation token) as a placeholder
        /// rect at its laid-out rect, labelled with its id (an app draws its avatar or custom
        /// emoji there).
        mutating func inlineBoxes(_ layout: TextLayout) {
            for box in layout.inlineBoxes + (layout.truncationToken?.boxes ?? []) {
                let r = box.rect
                let label = SVGNumber.escape(box.id ?? "box")
                // Fits the box: about 0.6 em per character of a sans-serif label.
                let size = max(2, min(9, r.height * 0.45, r.width / (0.6 * Double(max(1, (box.id ?? "box").count)))))
                body += "<g class=\"inline-box\" data-id=\"\(label)\">"
                body += "<rect x=\"\(n(r.x))\" y=\"\(n(r.y))\" width=\"\(n(r.width))\" height=\"\(n(r.height))\" rx=\"\(n(min(3, r.width / 4)))\" fill=\"#d1e7ff\" stroke=\"#0a84ff\" stroke-width=\"0.5\"/>"
                body += "<text x=\"\(n(r.x + r.width / 2))\" y=\"\(n(r.y + r.height / 2 + size * 0.35))\" text-anchor=\"middle\" font-family=\"sans-serif\" font-size=\"\(n(size))\" fill=\"#0a4a8f\">\(label)</text></g>\n"
            }
        }

        /// A row whose numbers are stand-ins (`TextMeasurement.isFallback`): a red dashed
        /// outline and a label, so it is never mistaken for a measured row.
        mutating func fallbackMark(_ layout: TextLayout, boxWidth: Double) {
            let height = SVGRenderer.visibleHeight(layout, options)
            let reason = layout.measurement.warnings.first(where: \.isFallback).map(\.description) ?? "fallback"
            body += "<rect class=\"fallback\" x=\"0.5\" y=\"0.5\" width=\"\(n(max(0, boxWidth - 1)))\" height=\"\(n(max(0, height - 1)))\" fill=\"#ff3b30\" fill-opacity=\"0.06\" stroke=\"#ff3b30\" stroke-width=\"1\" stroke-dasharray=\"4 2\"/>\n"
            // The reason as a tooltip (and in the `warnings` overlay's caption): it can be wider
            // than the row.
            body += "<text class=\"fallback-label\" x=\"4\" y=\"\(n(min(max(height / 2 + 3, 9), 12)))\" font-family=\"sans-serif\" font-size=\"9\" fill=\"#b00020\"><title>\(SVGNumber.escape(reason))</title>fallback: stand-in height \(n(layout.size.height)) pt</text>\n"
        }

        /// Glyph scales are tiny (size / upem): keep more digits than other numbers.
        func scaleString(_ v: Double) -> String {
            let scaled = (v * 1_000_000).rounded() / 1_000_000
            var s = "\(scaled)"
            if s.hasSuffix(".0") { s.removeLast(2) }
            return s.contains("e") ? SVGNumber.format(v) : s
        }

        mutating func overlays(_ layout: TextLayout, boxWidth: Double, ellipsisX: [Int: Double]) {
            let ov = options.overlays
            if ov.contains(.gaps) {
                for line in layout.lines where line.gapAfter > 0 {
                    let y = line.rect.y + line.rect.height
                    body += "<rect class=\"gap\" x=\"0\" y=\"\(n(y))\" width=\"\(n(boxWidth))\" height=\"\(n(line.gapAfter))\" fill=\"#ff9500\" fill-opacity=\"0.18\"/>\n"
                    body += "<text class=\"gap-label\" x=\"\(n(boxWidth - 2))\" y=\"\(n(y + line.gapAfter / 2 + 3))\" text-anchor=\"end\" font-family=\"sans-serif\" font-size=\"7\" fill=\"#c93400\">\(line.endsParagraph ? "paragraph " : "")gap \(n(line.gapAfter))</text>\n"
                }
            }
            if ov.contains(.lineRects) {
                for (i, line) in layout.lines.enumerated() {
                    body += "<rect class=\"line-rect\" data-line=\"\(i)\" x=\"\(n(line.rect.x))\" y=\"\(n(line.rect.y))\" width=\"\(n(line.rect.width))\" height=\"\(n(line.rect.height))\" fill=\"none\" stroke=\"#34c759\" stroke-width=\"0.4\"/>\n"
                }
            }
            if ov.contains(.baselines) {
                for (i, line) in layout.lines.enumerated() {
                    body += "<line class=\"baseline\" data-line=\"\(i)\" x1=\"\(n(line.rect.x))\" y1=\"\(n(line.baseline))\" x2=\"\(n(line.rect.x + max(line.usedWidth, 1)))\" y2=\"\(n(line.baseline))\" stroke=\"#007aff\" stroke-width=\"0.4\"/>\n"
                }
            }
            if ov.contains(.ellipsis) {
                for (i, line) in layout.lines.enumerated() {
                    guard let t = line.truncation, let x = ellipsisX[i] else { continue }
                    body += "<rect class=\"ellipsis-box\" x=\"\(n(max(0, x)))\" y=\"\(n(line.rect.y))\" width=\"\(n(t.ellipsisWidth))\" height=\"\(n(line.rect.height))\" fill=\"#af52de\" fill-opacity=\"0.2\"/>\n"
                }
            }
            if ov.contains(.boxes) {
                // Where the lines are: from the leftmost line start (alignment moves lines).
                let x = layout.lines.map(\.rect.x).min() ?? 0
                let width = max(layout.size.width, (layout.lines.map(\.rect.maxX).max() ?? 0) - x)
                body += "<rect class=\"text-box\" x=\"\(n(x))\" y=\"0\" width=\"\(n(width))\" height=\"\(n(layout.exactHeight))\" fill=\"none\" stroke=\"#5856d6\" stroke-width=\"0.5\" stroke-dasharray=\"2 1\"/>\n"
                body += "<rect class=\"pixel-box\" x=\"\(n(x))\" y=\"0\" width=\"\(n(width))\" height=\"\(n(layout.size.height))\" fill=\"none\" stroke=\"#ff2d55\" stroke-width=\"0.5\"/>\n"
            }
        }

        func finish(width: Double, height: Double) -> String {
            var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            out += "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"\(n(width))\" height=\"\(n(height))\" viewBox=\"0 0 \(n(width)) \(n(height))\">\n"
            out += "<defs>\n" + defs + "</defs>\n"
            out += "<rect x=\"0\" y=\"0\" width=\"\(n(width))\" height=\"\(n(height))\" fill=\"#f2f2f7\"/>\n"
            out += body
            out += "</svg>\n"
            return out
        }
    }
}

#if canImport(Glibc)
import Glibc
#endif
