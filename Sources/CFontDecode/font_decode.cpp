// WOFF and WOFF2 decoding for Plumb's font loader: the C edge over zlib and libwoff2dec.
#include "font_decode.h"

#include <woff2/decode.h>
#include <zlib.h>

#include <cstdlib>
#include <cstring>
#include <string>

namespace {

// A decoded font larger than this is refused (the WOFF2 header declares its size).
constexpr size_t kMaximumDecodedBytes = size_t(256) << 20;

uint32_t read32(const uint8_t *p) {
    return uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | uint32_t(p[3]);
}
uint16_t read16(const uint8_t *p) { return uint16_t(p[0] << 8 | p[1]); }
void write32(uint8_t *p, uint32_t v) {
    p[0] = uint8_t(v >> 24); p[1] = uint8_t(v >> 16); p[2] = uint8_t(v >> 8); p[3] = uint8_t(v);
}
void write16(uint8_t *p, uint16_t v) { p[0] = uint8_t(v >> 8); p[1] = uint8_t(v); }

// WOFF 1.0 (W3C): a 44-byte header, 20-byte table entries (tag, offset, compLength,
// origLength, origChecksum); a table is zlib-compressed when compLength < origLength.
// The sfnt is rebuilt as its offset table, its directory and the tables 4-byte aligned.
plumb_font_format decodeWOFF(const uint8_t *data, size_t length, uint8_t **out, size_t *outLength) {
    if (length < 44) return PLUMB_FONT_CORRUPT;
    const uint32_t flavor = read32(data + 4);
    const uint16_t numTables = read16(data + 12);
    const uint32_t totalSfntSize = read32(data + 16);
    if (numTables == 0 || size_t(44) + size_t(numTables) * 20 > length) return PLUMB_FONT_CORRUPT;
    if (totalSfntSize > kMaximumDecodedBytes) return PLUMB_FONT_CORRUPT;
    size_t size = 12 + size_t(numTables) * 16;
    for (uint16_t i = 0; i < numTables; i++) {
        const uint8_t *e = data + 44 + size_t(i) * 20;
        const size_t offset = read32(e + 4), comp = read32(e + 8), orig = read32(e + 12);
        if (comp > orig || offset > length || comp > length - offset) return PLUMB_FONT_CORRUPT;
        size += (orig + 3) & ~size_t(3);
        if (size > kMaximumDecodedBytes) return PLUMB_FONT_CORRUPT;
    }
    uint8_t *sfnt = static_cast<uint8_t *>(std::calloc(size, 1));
    if (!sfnt) return PLUMB_FONT_CORRUPT;
    uint16_t searchRange = 1, entrySelector = 0;
    while (searchRange * 2 <= numTables) { searchRange *= 2; entrySelector++; }
    write32(sfnt, flavor);
    write16(sfnt + 4, numTables);
    write16(sfnt + 6, uint16_t(searchRange * 16));
    write16(sfnt + 8, entrySelector);
    write16(sfnt + 10, uint16_t(numTables * 16 - searchRange * 16));
    size_t at = 12 + size_t(numTables) * 16;
    for (uint16_t i = 0; i < numTables; i++) {
        const uint8_t *e = data + 44 + size_t(i) * 20;
        const size_t offset = read32(e + 4), comp = read32(e + 8), orig = read32(e + 12);
        uint8_t *record = sfnt + 12 + size_t(i) * 16;
        std::memcpy(record, e, 4);           // tag
        std::memcpy(record + 4, e + 16, 4);  // checksum
        write32(record + 8, uint32_t(at));
        write32(record + 12, uint32_t(orig));
        if (comp == orig) {
            std::memcpy(sfnt + at, data + offset, orig);
        } else {
            uLongf produced = uLongf(orig);
            if (uncompress(sfnt + at, &produced, data + offset, uLong(comp)) != Z_OK || produced != orig) {
                std::free(sfnt);
                return PLUMB_FONT_CORRUPT;
            }
        }
        at += (orig + 3) & ~size_t(3);
    }
    *out = sfnt;
    *outLength = size;
    return PLUMB_FONT_WOFF;
}

plumb_font_format decodeWOFF2(const uint8_t *data, size_t length, uint8_t **out, size_t *outLength) {
    const size_t size = woff2::ComputeWOFF2FinalSize(data, length);
    if (size == 0 || size > kMaximumDecodedBytes) return PLUMB_FONT_CORRUPT;
    std::string decoded;
    decoded.reserve(size);
    woff2::WOFF2StringOut sink(&decoded);
    sink.SetMaxSize(kMaximumDecodedBytes);
    if (!woff2::ConvertWOFF2ToTTF(data, length, &sink)) return PLUMB_FONT_CORRUPT;
    uint8_t *sfnt = static_cast<uint8_t *>(std::malloc(sink.Size() ? sink.Size() : 1));
    if (!sfnt) return PLUMB_FONT_CORRUPT;
    std::memcpy(sfnt, decoded.data(), sink.Size());
    *out = sfnt;
    *outLength = sink.Size();
    return PLUMB_FONT_WOFF2;
}

}  // namespace

extern "C" plumb_font_format plumb_font_decode(const uint8_t *data, size_t length, uint8_t **out, size_t *outLength) {
    *out = nullptr;
    *outLength = 0;
    if (!data || length < 4) return PLUMB_FONT_UNKNOWN;
    switch (read32(data)) {
    case 0x774F4646:  // 'wOFF'
        return decodeWOFF(data, length, out, outLength);
    case 0x774F4632:  // 'wOF2'
        return decodeWOFF2(data, length, out, outLength);
    case 0x00010000: case 0x4F54544F: case 0x74727565: case 0x74746366:  // 1.0, 'OTTO', 'true', 'ttcf'
        return PLUMB_FONT_SFNT;
    default:
        return PLUMB_FONT_UNKNOWN;
    }
}

extern "C" void plumb_font_free(uint8_t *buffer) { std::free(buffer); }
