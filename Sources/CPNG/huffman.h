#ifndef SNAPMAP_CPNG_HUFFMAN_H
#define SNAPMAP_CPNG_HUFFMAN_H
/* Huffman codes for the deflate encoder (not part of the module's interface). */
#include <stdint.h>

/* Code lengths for `count` (at most 286) symbols of the given frequencies, at most `limit` (at most 15) bits;
   unused symbols get 0, a lone symbol 1. Ties are broken by symbol, so the lengths are deterministic. */
void cpng_code_lengths(const uint32_t *frequency, int count, int limit, uint8_t *lengths);

/* Canonical codes of the lengths, bit-reversed for deflate's least-significant-bit-first order. */
void cpng_canonical_codes(const uint8_t *lengths, int count, uint16_t *codes);
#endif
