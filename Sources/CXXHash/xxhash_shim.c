// xxHash compiled inline into Plumb: avoids the shared library's runtime dispatch, which
// picks an AVX-512 kernel that slows other SSE code in the same thread.
#define XXH_INLINE_ALL
#include <xxhash.h>
#include "CXXHash.h"

// The secret XXH3's `_withSeed` variants derive from Plumb's seed for every input over 240
// bytes, derived once at load instead. `XXH3_128bits_withSecretandSeed` with it gives
// `XXH3_128bits_withSeed`'s digest bit for bit (xxhash.h: "this variant produces *exactly*
// the same results as `_withSeed()`"); tests compare the two for lengths 0 to 1,024.
static XXH_ALIGN(64) unsigned char plumb_secret[XXH3_SECRET_DEFAULT_SIZE];

__attribute__((constructor)) static void plumb_derive_secret(void) {
    XXH3_generateSecret_fromSeed(plumb_secret, PLUMB_XXH3_SEED);
}

plumb_hash128 plumb_xxh3_128(const void *data, size_t length, uint64_t seed) {
    XXH128_hash_t h = seed == PLUMB_XXH3_SEED
        ? XXH3_128bits_withSecretandSeed(data, length, plumb_secret, sizeof(plumb_secret), seed)
        : XXH3_128bits_withSeed(data, length, seed);
    plumb_hash128 out = { h.low64, h.high64 };
    return out;
}

plumb_hash128 plumb_xxh3_128_withSeed(const void *data, size_t length, uint64_t seed) {
    XXH128_hash_t h = XXH3_128bits_withSeed(data, length, seed);
    plumb_hash128 out = { h.low64, h.high64 };
    return out;
}

uint64_t plumb_xxh3_64(const void *data, size_t length, uint64_t seed) {
    return XXH3_64bits_withSeed(data, length, seed);
}
