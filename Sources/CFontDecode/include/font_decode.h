#ifndef PLUMB_FONT_DECODE_H
#define PLUMB_FONT_DECODE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What `plumb_font_decode` found.
typedef enum {
    /// An sfnt (TrueType, OpenType, a TTC/OTC collection): nothing to decode.
    PLUMB_FONT_SFNT = 0,
    /// A WOFF 1.0 file, decoded to its sfnt (zlib per table).
    PLUMB_FONT_WOFF = 1,
    /// A WOFF 2.0 file, decoded to its sfnt (Google's libwoff2dec).
    PLUMB_FONT_WOFF2 = 2,
    /// None of the known signatures.
    PLUMB_FONT_UNKNOWN = -1,
    /// A WOFF or WOFF2 file that does not decode (truncated, corrupt, or larger than 256 MiB).
    PLUMB_FONT_CORRUPT = -2,
} plumb_font_format;

/// Decodes a WOFF or WOFF2 file in `data` to its sfnt in a new buffer (`*out`, `*out_length`;
/// free it with `plumb_font_free`). For an sfnt or an unknown signature nothing is allocated
/// (`*out` is NULL) and the format says which.
plumb_font_format plumb_font_decode(const uint8_t *data, size_t length, uint8_t **out, size_t *out_length);

/// Frees a buffer from `plumb_font_decode`.
void plumb_font_free(uint8_t *buffer);

#ifdef __cplusplus
}
#endif

#endif
