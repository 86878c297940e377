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
int32_t plumb_breaker_line_breaks(plumb_breaker *breaker, const uint8_t *utf8, int32_t length,
                                  int32_t *offsets, uint8_t *hard, int32_t capacity,
                                  int32_t *status);

/// Extended grapheme cluster boundaries of UTF-8 text: byte offsets in 1...length, ascending,
/// ending with `length`. Same contract as `plumb_breaker_line_breaks`.
int32_t plumb_breaker_grapheme_breaks(plumb_breaker *breaker, const uint8_t *utf8,
                                      int32_t length, int32_t *offsets, int32_t capacity,
                                      int32_t *status);

/// The ICU version string of the linked library (e.g. "72.1"), for cache salts and reports.
const char *plumb_icu_version(void);

#endif
