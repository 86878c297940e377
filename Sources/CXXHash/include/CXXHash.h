#ifndef PLUMB_CXXHASH_H
#define PLUMB_CXXHASH_H
#include <stddef.h>
#include <stdint.h>

/// A 128-bit XXH3 digest as two 64-bit halves.
typedef struct {
    uint64_t low;
    uint64_t high;
} plumb_hash128;

/// Plumb's one XXH3 seed (`CacheKey.seed` in Swift must equal it; a test checks).
#define PLUMB_XXH3_SEED 0x504C554D4B455953ULL

/// XXH3-128 of `length` bytes with a 64-bit seed. Inlined xxHash (no `_dispatch` entry
/// points: see PLATFORM-NOTES). With `PLUMB_XXH3_SEED`, inputs over 240 bytes use the secret
/// derived from it once at load (the same digest as `XXH3_128bits_withSeed`, without
/// deriving the secret per call). Thread-safe, allocation-free.
plumb_hash128 plumb_xxh3_128(const void *data, size_t length, uint64_t seed);

/// `XXH3_128bits_withSeed` itself, deriving the secret per call (the reference tests compare
/// `plumb_xxh3_128` with). Thread-safe, allocation-free.
plumb_hash128 plumb_xxh3_128_withSeed(const void *data, size_t length, uint64_t seed);

/// XXH3-64 of `length` bytes with a 64-bit seed. Thread-safe, allocation-free.
uint64_t plumb_xxh3_64(const void *data, size_t length, uint64_t seed);

#endif
