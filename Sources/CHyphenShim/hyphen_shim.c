// libhyphen behind a small C interface: loads a dictionary, converts a word's code points to
// the dictionary's charset, and maps libhyphen's byte positions back to code points.
#include "CHyphenShim.h"

#include <hyphen.h>
#include <iconv.h>
#include <stdlib.h>
#include <string.h>

enum { max_word = 250, utf8_max = 4 };

struct plumb_hyphenator {
    HyphenDict *dict;
    int utf8;
    // A single-byte charset: the code point of each byte 128–255 (0 = none).
    uint32_t high[128];
};

// Decodes each byte 128–255 of `charset` once with iconv, so that encoding a word later needs
// no iconv state (which is not thread-safe).
static int load_charset(plumb_hyphenator *h, const char *charset) {
    iconv_t cd = iconv_open("UTF-32LE", charset);
    if (cd == (iconv_t)-1) return 0;
    for (int b = 128; b < 256; b++) {
        char in = (char)b;
        uint32_t out = 0;
        char *ip = &in, *op = (char *)&out;
        size_t il = 1, ol = sizeof out;
        iconv(cd, NULL, NULL, NULL, NULL);
        if (iconv(cd, &ip, &il, &op, &ol) != (size_t)-1 && ol == 0) h->high[b - 128] = out;
    }
    iconv_close(cd);
    return 1;
}

plumb_hyphenator *plumb_hyphenator_open(const char *path) {
    HyphenDict *dict = hnj_hyphen_load(path);
    if (!dict) return NULL;
    plumb_hyphenator *h = calloc(1, sizeof *h);
    if (!h) {
        hnj_hyphen_free(dict);
        return NULL;
    }
    h->dict = dict;
    h->utf8 = dict->utf8 || strcmp(dict->cset, "UTF-8") == 0;
    if (!h->utf8 && !load_charset(h, dict->cset)) {
        plumb_hyphenator_close(h);
        return NULL;
    }
    return h;
}

void plumb_hyphenator_close(plumb_hyphenator *h) {
    if (!h) return;
    hnj_hyphen_free(h->dict);
    free(h);
}

int32_t plumb_hyphenator_left_min(const plumb_hyphenator *h) { return h->dict->lhmin > 0 ? h->dict->lhmin : 2; }
int32_t plumb_hyphenator_right_min(const plumb_hyphenator *h) { return h->dict->rhmin > 0 ? h->dict->rhmin : 2; }

// Appends code point `c` in the dictionary's charset; returns its byte count, 0 if it has none.
static int encode(const plumb_hyphenator *h, uint32_t c, char *out) {
    if (h->utf8) {
        if (c < 0x80) { out[0] = (char)c; return 1; }
        if (c < 0x800) { out[0] = (char)(0xC0 | c >> 6); out[1] = (char)(0x80 | (c & 0x3F)); return 2; }
        if (c >= 0xD800 && c < 0xE000) return 0;
        if (c < 0x10000) {
            out[0] = (char)(0xE0 | c >> 12); out[1] = (char)(0x80 | (c >> 6 & 0x3F)); out[2] = (char)(0x80 | (c & 0x3F));
            return 3;
        }
        if (c < 0x110000) {
            out[0] = (char)(0xF0 | c >> 18); out[1] = (char)(0x80 | (c >> 12 & 0x3F));
            out[2] = (char)(0x80 | (c >> 6 & 0x3F)); out[3] = (char)(0x80 | (c & 0x3F));
            return 4;
        }
        return 0;
    }
    if (c < 0x80) { out[0] = (char)c; return 1; }
    for (int b = 0; b < 128; b++) {
        if (h->high[b] == c) { out[0] = (char)(b + 128); return 1; }
    }
    return 0;
}

static void free_nonstandard(char **rep, int *pos, int *cut, int bytes) {
    if (rep) {
        for (int i = 0; i < bytes; i++) free(rep[i]);
        free(rep);
    }
    free(pos);
    free(cut);
}

int32_t plumb_hyphenate(const plumb_hyphenator *h, const uint32_t *word, int32_t count, int32_t left_min,
                        int32_t right_min, uint8_t *points) {
    if (count <= 0) return 0;
    memset(points, 0, (size_t)count);
    if (count > max_word) return -1;
    char bytes[max_word * utf8_max + 1];
    int last_byte[max_word];  // each code point's last byte
    int n = 0;
    for (int i = 0; i < count; i++) {
        int k = encode(h, word[i], bytes + n);
        if (k == 0) return -1;
        n += k;
        last_byte[i] = n - 1;
    }
    bytes[n] = 0;
    char hyphens[max_word * utf8_max + 5];
    char **rep = NULL;
    int *pos = NULL, *cut = NULL;
    int lh = left_min > plumb_hyphenator_left_min(h) ? left_min : plumb_hyphenator_left_min(h);
    int rh = right_min > plumb_hyphenator_right_min(h) ? right_min : plumb_hyphenator_right_min(h);
    if (hnj_hyphen_hyphenate3(h->dict, bytes, n, hyphens, NULL, &rep, &pos, &cut, lh, rh, lh, rh) != 0) {
        free_nonstandard(rep, pos, cut, n);
        return -1;
    }
    int found = 0;
    // libhyphen applies its minimums in bytes for single-byte charsets and in characters for
    // UTF-8; they are checked here in code points as well.
    for (int i = lh - 1; i < count - rh; i++) {
        int b = last_byte[i];
        if ((hyphens[b] & 1) && !(rep && rep[b])) {
            points[i] = 1;
            found++;
        }
    }
    free_nonstandard(rep, pos, cut, n);
    return found;
}
