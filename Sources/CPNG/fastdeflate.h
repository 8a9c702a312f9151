#ifndef SNAPMAP_CPNG_FASTDEFLATE_H
#define SNAPMAP_CPNG_FASTDEFLATE_H
/* The fast deflate encoder of filtered rows (not part of the module's interface). */
#include <stddef.h>
#include <stdint.h>

/* The most bytes cpng_fast_deflate writes for `length` input bytes. */
size_t cpng_fast_deflate_bound(size_t length);

/* Compresses `length` bytes as raw deflate blocks (matches at distance 1 and at `pixel`, the bytes per pixel).
   The last block is final when `last`; otherwise an empty stored block ends the output on a byte boundary, so
   that bands can be joined into one stream. Returns the bytes written, or 0 when `capacity` was too small. */
size_t cpng_fast_deflate(const uint8_t *data, size_t length, size_t pixel, int last, uint8_t *out, size_t capacity);
#endif
