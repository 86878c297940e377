#ifndef PLUMB_CHYPHENSHIM_H
#define PLUMB_CHYPHENSHIM_H
// Public header of the hyphenation shim over libhyphen (Debian's libhyphen-dev, the
// LibreOffice pattern dictionaries of the hyphen-* packages). It includes no libhyphen header.
#include <stdint.h>

/// A loaded hyphenation dictionary with its character encoding.
typedef struct plumb_hyphenator plumb_hyphenator;

/// Loads the dictionary file at `path` (a `hyph_xx_YY.dic`). Returns NULL when the file cannot
/// be read, is not a dictionary, or its encoding (the first line: UTF-8 or a single-byte
/// charset such as ISO8859-1 or KOI8-R) is unknown to iconv. Costs a few milliseconds.
plumb_hyphenator *plumb_hyphenator_open(const char *path);

/// Frees a dictionary. NULL is ignored.
void plumb_hyphenator_close(plumb_hyphenator *hyphenator);

/// The dictionary's own minimum letters before and after a hyphen (LEFTHYPHENMIN,
/// RIGHTHYPHENMIN; 2 and 2 when the file states none).
int32_t plumb_hyphenator_left_min(const plumb_hyphenator *hyphenator);
int32_t plumb_hyphenator_right_min(const plumb_hyphenator *hyphenator);

/// Hyphenation points of one lowercase word of `count` code points: sets `points[i]` to 1
/// when a hyphen may follow code point `i` (0 elsewhere), with at least `left_min` code points
/// before the hyphen and `right_min` after it (each at least the dictionary's own minimum).
/// Points that change the spelling (non-standard hyphenation, e.g. old German "ck" → "k-k")
/// are left out. Returns the number of points, or -1 when a code point has no encoding in the
/// dictionary's charset or the word is longer than 250 code points (then `points` is all 0).
/// Thread-safe: the dictionary is only read.
int32_t plumb_hyphenate(const plumb_hyphenator *hyphenator, const uint32_t *word, int32_t count,
                        int32_t left_min, int32_t right_min, uint8_t *points);

#endif
