#ifndef PLUMB_CICUSHIM_H
#define PLUMB_CICUSHIM_H
// Public header of the ICU shim. It must not include any ICU header: Foundation ships its own
// ICU as a clang module, and a Swift module that sees both fails to compile.
#include <stdint.h>

/// An opaque pair of ICU break iterators (line + grapheme cluster) for one thread.
typedef struct plumb_breaker plumb_breaker;

/// Opens line and character break iterators for `locale` ("" for root). Costs a few µs;
/// clone instead of opening per thread. Returns NULL on failure and sets `*status` (< 0 only
/// on failure; ICU warnings are reported as 0).
plumb_breaker *plumb_breaker_open(const char *locale, int32_t *status);

/// Clones an open breaker for use on another thread (~0.3 µs). NULL on failure.
plumb_breaker *plumb_breaker_clone(const plumb_breaker *breaker, int32_t *status);

/// Closes a breaker. NULL is ignored.
void plumb_breaker_close(plumb_breaker *breaker);

/// Line-break opportunities (UAX #14) of UTF-8 text.
///
/// Writes the byte offsets after which a line may break (ascending, each in 1...length; the
/// last one is `length`) into `offsets` and, for each, 1 into `hard` when the break is
/// mandatory. `capacity` must be at least `length + 1`. Returns the number written, or -1 on
/// an ICU error (with `*status` set). Not thread-safe for one breaker.
/// Text whose code points all have a Line_Break class of a subset with pair rules only
/// (AL, NU, SP, ID, H2, H3, IS, EX, CL, CP, OP, QU, PO, HY, SY: letters, digits, spaces, Han,
/// kana, Hangul syllables, common punctuation) is broken without ICU's iterator, by those
/// rules; anything else goes to ICU.
int32_t plumb_breaker_line_breaks(plumb_breaker *breaker, const uint8_t *utf8, int32_t length,
                                  int32_t *offsets, uint8_t *hard, int32_t capacity,
                                  int32_t *status);

/// Whether the grapheme fast path splits around code point `c` (its Grapheme_Cluster_Break is
/// Other, Control, CR, LF, LV or LVT), from its tables when `through_table`, else from ICU's
/// property (for tests).
int32_t plumb_grapheme_breaks_around_of(int32_t c, int32_t through_table);

/// `plumb_breaker_line_breaks` always through ICU's iterator (for tests of the fast path).
int32_t plumb_breaker_line_breaks_icu(plumb_breaker *breaker, const uint8_t *utf8, int32_t length,
                                      int32_t *offsets, uint8_t *hard, int32_t capacity,
                                      int32_t *status);

/// Whether UAX #14 forbids a line break between code point `c` and the one before it
/// (`side` 0) or after it (`side` 1) whatever that other one is, by the rules above LB31 that
/// one class decides: before CL, CP, EX, IS, SY (LB13), NS, BA, HY (LB21), IN (LB22), GL
/// (LB12a), WJ (LB11), CM and ZWJ (LB9), QU (LB19), SP and ZW (LB7); after OP (LB14), GL
/// (LB12), BB (LB21), WJ (LB11), ZWJ (LB8a) and QU (LB19). From ICU's Line_Break property.
/// Thread-safe.
int32_t plumb_line_break_forbidden(int32_t c, int32_t side);

/// The line fast path's class of code point `c` (0 = outside its subset), from its ASCII
/// table when `through_table` and `c` < 128, else from ICU's properties (for tests).
int32_t plumb_simple_line_class_of(int32_t c, int32_t through_table);

/// Extended grapheme cluster boundaries of UTF-8 text: byte offsets in 1...length, ascending,
/// ending with `length`. Same contract as `plumb_breaker_line_breaks`.
/// Text whose code points all have Grapheme_Cluster_Break Other, Control, CR, LF, LV or LVT
/// (Latin, Cyrillic, Greek, Han, kana, Hangul syllables, ... without combining marks) is
/// split without ICU's iterator: UAX #29 breaks around every such code point except inside
/// CR LF. Anything else goes through ICU.
int32_t plumb_breaker_grapheme_breaks(plumb_breaker *breaker, const uint8_t *utf8,
                                      int32_t length, int32_t *offsets, int32_t capacity,
                                      int32_t *status);

/// The first `capacity` (at most) grapheme cluster boundaries after byte `from` (itself a
/// boundary, 0 for the start), as `plumb_breaker_grapheme_breaks`: lets a caller walk a long
/// text in bounded windows.
int32_t plumb_breaker_grapheme_breaks_from(plumb_breaker *breaker, const uint8_t *utf8,
                                           int32_t length, int32_t from, int32_t *offsets,
                                           int32_t capacity, int32_t *status);

/// `plumb_breaker_grapheme_breaks` always through ICU's iterator (for tests of the fast path).
int32_t plumb_breaker_grapheme_breaks_icu(plumb_breaker *breaker, const uint8_t *utf8,
                                          int32_t length, int32_t *offsets, int32_t capacity,
                                          int32_t *status);

/// The ICU version string of the linked library (e.g. "72.1"), for cache salts and reports.
const char *plumb_icu_version(void);

/// A paragraph's base direction by UAX #9 rules P2–P3: the bidi class of its first strong
/// character (L → 0; R or AL → 1), skipping characters between an isolate initiator (LRI,
/// RLI, FSI) and its matching PDI; -1 when there is none (the caller picks the default).
/// Invalid UTF-8 bytes count as U+FFFD (neutral). Thread-safe.
int32_t plumb_bidi_first_strong(const uint8_t *utf8, int32_t length);

/// The visual runs of one line (UAX #9 through rule L2, by ICU's ubidi) in a paragraph of the
/// given base direction (`rtl` 0 or 1), left to right: for each run, its UTF-8 byte range in
/// `utf8` ([starts[i], ends[i])) and 1 in `rtl_runs[i]` when it reads right to left.
/// Trailing whitespace takes the paragraph's direction (rule L1). Returns the number of runs
/// (at most `capacity`; `length + 1` is always enough), or -1 on an ICU error with `*status`
/// set. Thread-safe (allocates its own state).
int32_t plumb_bidi_visual_runs(const uint8_t *utf8, int32_t length, uint8_t rtl,
                               int32_t *starts, int32_t *ends, uint8_t *rtl_runs,
                               int32_t capacity, int32_t *status);

#endif
