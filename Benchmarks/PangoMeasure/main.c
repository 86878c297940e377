// pango-measure: Pango's side of the whole-process comparison (Benchmarks/whole_process.py).
//
// Reads JSON Lines of cells (only each line's "text" string is used), lays every text out in a
// new PangoLayout exactly as Benchmarks/PlumbBenchmarks/PangoReference.swift does (a fresh
// fontconfig configuration in a fresh font map, unhinted metrics, unrounded glyph positions,
// language "en", WRAP_WORD_CHAR, no inserted hyphens, one layout per cell) and prints one line
// per cell: {"lines": N, "height": H}. A C program, so that nothing but Pango and the reading
// of the input is timed on its side.
//
// Usage: pango-measure FILE [--families "Noto Sans, Noto Sans CJK SC"] [--size 15] [--width 320]
#include <pango/pangocairo.h>
#include <pango/pangofc-fontmap.h>
#include <fontconfig/fontconfig.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Appends the UTF-8 encoding of code point `c` to `out`; returns the bytes written.
static int put_utf8(unsigned c, char *out) {
    if (c < 0x80) { out[0] = (char)c; return 1; }
    if (c < 0x800) { out[0] = (char)(0xC0 | c >> 6); out[1] = (char)(0x80 | (c & 0x3F)); return 2; }
    if (c < 0x10000) {
        out[0] = (char)(0xE0 | c >> 12); out[1] = (char)(0x80 | ((c >> 6) & 0x3F)); out[2] = (char)(0x80 | (c & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | c >> 18); out[1] = (char)(0x80 | ((c >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((c >> 6) & 0x3F)); out[3] = (char)(0x80 | (c & 0x3F));
    return 4;
}

static unsigned hex4(const char *p) {
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        char ch = p[i];
        v = v * 16 + (unsigned)(ch >= 'a' ? ch - 'a' + 10 : ch >= 'A' ? ch - 'A' + 10 : ch - '0');
    }
    return v;
}

// Decodes the JSON string starting after the opening quote at `p` into `out` (NUL-terminated);
// returns its length, or -1 when the string is malformed.
static long json_string(const char *p, const char *end, char *out) {
    long n = 0;
    while (p < end && *p != '"') {
        if (*p != '\\') { out[n++] = *p++; continue; }
        if (++p >= end) return -1;
        switch (*p) {
        case 'n': out[n++] = '\n'; p++; break;
        case 't': out[n++] = '\t'; p++; break;
        case 'r': out[n++] = '\r'; p++; break;
        case 'b': out[n++] = '\b'; p++; break;
        case 'f': out[n++] = '\f'; p++; break;
        case 'u': {
            if (end - p < 5) return -1;
            unsigned c = hex4(p + 1);
            p += 5;
            if (c >= 0xD800 && c < 0xDC00 && end - p >= 6 && p[0] == '\\' && p[1] == 'u') {
                unsigned low = hex4(p + 2);
                if (low >= 0xDC00 && low < 0xE000) { c = 0x10000 + ((c - 0xD800) << 10) + (low - 0xDC00); p += 6; }
            }
            n += put_utf8(c, out + n);
            break;
        }
        default: out[n++] = *p++; break;  // \" \\ \/
        }
    }
    out[n] = 0;
    return p < end ? n : -1;
}

int main(int argc, char **argv) {
    const char *path = NULL, *families = "Noto Sans, Noto Sans CJK SC";
    double size = 15, width = 320;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--families") && i + 1 < argc) families = argv[++i];
        else if (!strcmp(argv[i], "--size") && i + 1 < argc) size = atof(argv[++i]);
        else if (!strcmp(argv[i], "--width") && i + 1 < argc) width = atof(argv[++i]);
        else path = argv[i];
    }
    FILE *in = path ? fopen(path, "rb") : NULL;
    if (!in) { fprintf(stderr, "usage: pango-measure FILE [--families F] [--size S] [--width W]\n"); return 64; }

    FcConfig *config = FcInitLoadConfigAndFonts();
    PangoFontMap *map = pango_cairo_font_map_new();
    pango_fc_font_map_set_config(PANGO_FC_FONT_MAP(map), config);
    FcConfigDestroy(config);
    PangoContext *context = pango_font_map_create_context(map);
    cairo_font_options_t *options = cairo_font_options_create();
    cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF);
    cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE);
    pango_cairo_context_set_font_options(context, options);
    cairo_font_options_destroy(options);
    pango_context_set_round_glyph_positions(context, FALSE);
    pango_context_set_language(context, pango_language_from_string("en"));
    PangoAttrList *attributes = pango_attr_list_new();
    pango_attr_list_insert(attributes, pango_attr_insert_hyphens_new(FALSE));
    PangoFontDescription *font = pango_font_description_from_string(families);
    pango_font_description_set_absolute_size(font, size * PANGO_SCALE);

    char *line = NULL, *text = NULL;
    size_t capacity = 0, textCapacity = 0;
    ssize_t length;
    while ((length = getline(&line, &capacity, in)) >= 0) {
        const char *key = strstr(line, "\"text\"");
        if (!key) continue;
        const char *quote = strchr(key + 6, '"');
        if (!quote) continue;
        if (textCapacity < (size_t)length * 2 + 8) { textCapacity = (size_t)length * 2 + 8; text = realloc(text, textCapacity); }
        long n = json_string(quote + 1, line + length, text);
        if (n < 0) continue;
        PangoLayout *layout = pango_layout_new(context);
        pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR);
        pango_layout_set_attributes(layout, attributes);
        pango_layout_set_font_description(layout, font);
        pango_layout_set_width(layout, (int)(width * PANGO_SCALE + 0.5));
        pango_layout_set_text(layout, text, (int)n);
        int w = 0, h = 0;
        pango_layout_get_size(layout, &w, &h);
        printf("{\"lines\": %d, \"height\": %.6f}\n", pango_layout_get_line_count(layout), (double)h / PANGO_SCALE);
        g_object_unref(layout);
    }
    free(line);
    free(text);
    fclose(in);
    return 0;
}
