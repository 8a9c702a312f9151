/* The fast deflate encoder's parser (fastdeflate.h): greedy literals and matches at distance 1 and at the pixel,
   with runs of literals found 62 positions at a time. */
#include "fastdeflate.h"
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Bit i set where data[from + i] equals the byte `distance` before it, for i < 64 (from ≥ distance, from + 64 ≤ length). */
static inline uint64_t equal_mask(const uint8_t *data, size_t from, size_t distance) {
#if defined(__SSE2__)
    uint64_t mask = 0;
    for (int chunk = 0; chunk < 4; chunk++) {
        __m128i here = _mm_loadu_si128((const __m128i *)(data + from + 16 * chunk));
        __m128i back = _mm_loadu_si128((const __m128i *)(data + from + 16 * chunk - distance));
        mask |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(here, back)) << (16 * chunk);
    }
    return mask;
#else
    uint64_t mask = 0;
    for (int i = 0; i < 64; i++) mask |= (uint64_t)(data[from + i] == data[from + i - distance]) << i;
    return mask;
#endif
}

size_t cpng_parse_range(const uint8_t *data, size_t length, size_t pixel, size_t from, size_t to, cpng_symbol *symbols) {
    size_t count = 0, position = from;
    while (position < to) {
        /* Where neither match can start (no three bytes equal to those one byte or one pixel back), the parser takes
           a literal: find those positions 62 at a time and take their literals without testing each. */
        if (position >= pixel && position >= 1 && position + 66 <= length) {
            uint64_t run = equal_mask(data, position, 1), repeat = pixel > 1 ? equal_mask(data, position, pixel) : 0;
            uint64_t candidates = (run & run >> 1 & run >> 2) | (repeat & repeat >> 1 & repeat >> 2) | (1ull << 62);
            size_t literals = (size_t)__builtin_ctzll(candidates);
            if (literals > to - position) literals = to - position;
            for (size_t i = 0; i < literals; i++) symbols[count++] = (cpng_symbol){0, data[position + i]};
            position += literals;
            if (literals == 62 || position >= to) continue;
        }
        symbols[count] = cpng_parse_at(data, length, pixel, position);
        position += cpng_symbol_span(symbols[count++]);
    }
    return count;
}

size_t cpng_parse(const uint8_t *data, size_t length, size_t pixel, cpng_symbol *symbols) {
    return cpng_parse_range(data, length, pixel, 0, length, symbols);
}
