// xxHash compiled inline into Plumb: avoids the shared library's runtime dispatch, which
// picks an AVX-512 kernel that slows other SSE code in the same thread.
#define XXH_INLINE_ALL
#include <xxhash.h>
#include "CXXHash.h"

plumb_hash128 plumb_xxh3_128(const void *data, size_t length, uint64_t seed) {
    XXH128_hash_t h = XXH3_128bits_withSeed(data, length, seed);
    plumb_hash128 out = { h.low64, h.high64 };
    return out;
}

uint64_t plumb_xxh3_64(const void *data, size_t length, uint64_t seed) {
    return XXH3_64bits_withSeed(data, length, seed);
}
