#include "CICUShim.h"
#include <stdlib.h>
#include <unicode/ubrk.h>
#include <unicode/utext.h>
#include <unicode/uversion.h>
#include <unicode/ubidi.h>
#include <unicode/uchar.h>
#include <unicode/utf8.h>

struct plumb_breaker {
    UBreakIterator *line;
    UBreakIterator *character;
};

static int32_t plumb_status(UErrorCode code) { return U_FAILURE(code) ? (int32_t)code : 0; }

plumb_breaker *plumb_breaker_open(const char *locale, int32_t *status) {
    UErrorCode code = U_ZERO_ERROR;
    plumb_breaker *b = calloc(1, sizeof(plumb_breaker));
    if (!b) { *status = U_MEMORY_ALLOCATION_ERROR; return NULL; }
    b->line = ubrk_open(UBRK_LINE, locale, NULL, 0, &code);
    if (U_SUCCESS(code)) b->character = ubrk_open(UBRK_CHARACTER, locale, NULL, 0, &code);
    *status = plumb_status(code);
    if (U_FAILURE(code)) { plumb_breaker_close(b); return NULL; }
    return b;
}

plumb_breaker *plumb_breaker_clone(const plumb_breaker *src, int32_t *status) {
    UErrorCode code = U_ZERO_ERROR;
    plumb_breaker *b = calloc(1, sizeof(plumb_breaker));
    if (!b) { *status = U_MEMORY_ALLOCATION_ERROR; return NULL; }
    b->line = ubrk_clone(src->line, &code);
    if (U_SUCCESS(code)) b->character = ubrk_clone(src->character, &code);
    *status = plumb_status(code);
    if (U_FAILURE(code)) { plumb_breaker_close(b); return NULL; }
    return b;
}

void plumb_breaker_close(plumb_breaker *b) {
    if (!b) return;
    if (b->line) ubrk_close(b->line);
    if (b->character) ubrk_close(b->character);
    free(b);
}

static int32_t plumb_collect(UBreakIterator *it, const uint8_t *utf8, int32_t length,
                             int32_t from, int32_t *offsets, uint8_t *hard, int32_t capacity,
                             int32_t *status) {
    UErrorCode code = U_ZERO_ERROR;
    UText text = UTEXT_INITIALIZER;
    utext_openUTF8(&text, (const char *)utf8, length, &code);
    if (U_FAILURE(code)) { *status = code; return -1; }
    ubrk_setUText(it, &text, &code);
    if (U_FAILURE(code)) { utext_close(&text); *status = code; return -1; }
    int32_t count = 0;
    int32_t pos = from > 0 ? ubrk_following(it, from) : ubrk_next(it);
    for (; pos != UBRK_DONE && count < capacity; pos = ubrk_next(it)) {
        offsets[count] = pos;
        if (hard) {
            int32_t rule = ubrk_getRuleStatus(it);
            hard[count] = (rule >= UBRK_LINE_HARD && rule < UBRK_LINE_HARD_LIMIT) ? 1 : 0;
        }
        count++;
    }
    utext_close(&text);
    *status = 0;
    return count;
}

int32_t plumb_breaker_line_breaks(plumb_breaker *b, const uint8_t *utf8, int32_t length,
                                  int32_t *offsets, uint8_t *hard, int32_t capacity,
                                  int32_t *status) {
    return plumb_collect(b->line, utf8, length, 0, offsets, hard, capacity, status);
}

/* Whether UAX #29 breaks on both sides of every code point of this Grapheme_Cluster_Break
 * value, whatever its neighbours are in this set (CR LF excepted): Other, Control, CR, LF, and
 * the precomposed Hangul syllables LV and LVT (GB6-GB8 join them only with L before or V/T
 * after). No rule keeps two of these together except GB3 (CR x LF): GB9/GB9a need an Extend,
 * ZWJ or SpacingMark after, GB9b a Prepend before, GB11 a ZWJ, GB12/13 regional indicators. */
static int plumb_breaks_around(int32_t gcb) {
    switch (gcb) {
    case U_GCB_OTHER: case U_GCB_CONTROL: case U_GCB_CR: case U_GCB_LF: case U_GCB_LV: case U_GCB_LVT:
        return 1;
    default:
        return 0;
    }
}

/* The boundaries after byte `from` (itself a boundary) of text whose code points all break
 * around (see above), without ICU's iterator: one per code point, none between CR and LF, at
 * most `capacity` (a full window's last boundary needs the code point after it to break
 * around too and not to be the LF of a CR LF). Returns -1 (nothing decided) as soon as a code point needs the full rules, so the
 * caller runs ICU. */
static int32_t plumb_simple_grapheme_breaks(const uint8_t *utf8, int32_t length, int32_t from,
                                            int32_t *offsets, int32_t capacity) {
    int32_t count = 0;
    int32_t i = from;
    UChar32 previous = -1;
    while (i < length && count < capacity) {
        UChar32 c;
        uint8_t lead = utf8[i];
        if (lead < 0x80) {
            c = lead;
            i++;
        } else {
            U8_NEXT_OR_FFFD(utf8, i, length, c);
            if (!plumb_breaks_around(u_getIntPropertyValue(c, UCHAR_GRAPHEME_CLUSTER_BREAK))) return -1;
        }
        if (previous == 0x0D && c == 0x0A) {
            offsets[count - 1] = i;  /* CR LF is one cluster */
        } else {
            offsets[count++] = i;
        }
        previous = c;
    }
    if (i < length) {
        /* A full window: its last boundary stands only if the next code point breaks around
         * too (an Extend or ZWJ joins the cluster before it) and is not the LF of a CR LF. */
        int32_t j = i;
        UChar32 next;
        U8_NEXT_OR_FFFD(utf8, j, length, next);
        if (!plumb_breaks_around(u_getIntPropertyValue(next, UCHAR_GRAPHEME_CLUSTER_BREAK))) return -1;
        if (previous == 0x0D && next == 0x0A) {
            if (count <= 1) return -1;
            count--;
        }
    }
    return count;
}

int32_t plumb_breaker_grapheme_breaks(plumb_breaker *b, const uint8_t *utf8, int32_t length,
                                      int32_t *offsets, int32_t capacity, int32_t *status) {
    int32_t simple = plumb_simple_grapheme_breaks(utf8, length, 0, offsets, capacity);
    if (simple >= 0) {
        *status = 0;
        return simple;
    }
    return plumb_collect(b->character, utf8, length, 0, offsets, NULL, capacity, status);
}

int32_t plumb_breaker_grapheme_breaks_from(plumb_breaker *b, const uint8_t *utf8, int32_t length,
                                           int32_t from, int32_t *offsets, int32_t capacity,
                                           int32_t *status) {
    int32_t simple = plumb_simple_grapheme_breaks(utf8, length, from, offsets, capacity);
    if (simple >= 0) {
        *status = 0;
        return simple;
    }
    return plumb_collect(b->character, utf8, length, from, offsets, NULL, capacity, status);
}

int32_t plumb_breaker_grapheme_breaks_icu(plumb_breaker *b, const uint8_t *utf8, int32_t length,
                                          int32_t *offsets, int32_t capacity, int32_t *status) {
    return plumb_collect(b->character, utf8, length, 0, offsets, NULL, capacity, status);
}

const char *plumb_icu_version(void) { return U_ICU_VERSION; }

int32_t plumb_bidi_first_strong(const uint8_t *utf8, int32_t length) {
    int32_t i = 0, isolates = 0;
    while (i < length) {
        UChar32 c;
        U8_NEXT_OR_FFFD(utf8, i, length, c);
        switch (u_charDirection(c)) {
        case U_LEFT_TO_RIGHT_ISOLATE:
        case U_RIGHT_TO_LEFT_ISOLATE:
        case U_FIRST_STRONG_ISOLATE:
            isolates++;
            break;
        case U_POP_DIRECTIONAL_ISOLATE:
            if (isolates > 0) isolates--;
            break;
        case U_LEFT_TO_RIGHT:
            if (isolates == 0) return 0;
            break;
        case U_RIGHT_TO_LEFT:
        case U_RIGHT_TO_LEFT_ARABIC:
            if (isolates == 0) return 1;
            break;
        default:
            break;
        }
    }
    return -1;
}

int32_t plumb_bidi_visual_runs(const uint8_t *utf8, int32_t length, uint8_t rtl,
                               int32_t *starts, int32_t *ends, uint8_t *rtl_runs,
                               int32_t capacity, int32_t *status) {
    *status = 0;
    if (length <= 0) return 0;
    // UTF-16 copy of the line, and for every UTF-16 unit the byte offset it starts at.
    UChar *text = malloc(sizeof(UChar) * (size_t)(length + 1));
    int32_t *byte_of = malloc(sizeof(int32_t) * (size_t)(length + 2));
    if (!text || !byte_of) {
        free(text);
        free(byte_of);
        *status = U_MEMORY_ALLOCATION_ERROR;
        return -1;
    }
    int32_t units = 0;
    for (int32_t i = 0; i < length;) {
        int32_t start = i;
        UChar32 c;
        U8_NEXT_OR_FFFD(utf8, i, length, c);
        if (U_IS_BMP(c)) {
            byte_of[units] = start;
            text[units++] = (UChar)c;
        } else {
            byte_of[units] = start;
            text[units++] = U16_LEAD(c);
            byte_of[units] = start;
            text[units++] = U16_TRAIL(c);
        }
    }
    byte_of[units] = length;
    UErrorCode code = U_ZERO_ERROR;
    UBiDi *bidi = ubidi_openSized(units, 0, &code);
    int32_t count = -1;
    if (U_SUCCESS(code)) ubidi_setPara(bidi, text, units, rtl ? 1 : 0, NULL, &code);
    if (U_SUCCESS(code)) count = ubidi_countRuns(bidi, &code);
    if (U_SUCCESS(code)) {
        if (count > capacity) count = capacity;
        for (int32_t r = 0; r < count; r++) {
            int32_t logical = 0, run_length = 0;
            UBiDiDirection d = ubidi_getVisualRun(bidi, r, &logical, &run_length);
            starts[r] = byte_of[logical];
            ends[r] = byte_of[logical + run_length];
            rtl_runs[r] = d == UBIDI_RTL ? 1 : 0;
        }
    } else {
        *status = code;
        count = -1;
    }
    if (bidi) ubidi_close(bidi);
    free(text);
    free(byte_of);
    return count;
}
