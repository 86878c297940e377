#include "CICUShim.h"
#include <stdlib.h>
#include <unicode/ubrk.h>
#include <unicode/utext.h>
#include <unicode/uversion.h>

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
                             int32_t *offsets, uint8_t *hard, int32_t capacity,
                             int32_t *status) {
    UErrorCode code = U_ZERO_ERROR;
    UText text = UTEXT_INITIALIZER;
    utext_openUTF8(&text, (const char *)utf8, length, &code);
    if (U_FAILURE(code)) { *status = code; return -1; }
    ubrk_setUText(it, &text, &code);
    if (U_FAILURE(code)) { utext_close(&text); *status = code; return -1; }
    int32_t count = 0;
    for (int32_t pos = ubrk_next(it); pos != UBRK_DONE && count < capacity; pos = ubrk_next(it)) {
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
    return plumb_collect(b->line, utf8, length, offsets, hard, capacity, status);
}

int32_t plumb_breaker_grapheme_breaks(plumb_breaker *b, const uint8_t *utf8, int32_t length,
                                      int32_t *offsets, int32_t capacity, int32_t *status) {
    return plumb_collect(b->character, utf8, length, offsets, NULL, capacity, status);
}

const char *plumb_icu_version(void) { return U_ICU_VERSION; }
