#ifndef SNAPMAP_CPNG_FASTDEFLATE_H
#define SNAPMAP_CPNG_FASTDEFLATE_H
/* The fast deflate encoder of filtered rows (not part of the module's interface): a greedy parse into literals and
   matches at distance 1 (runs of a byte) and at the pixel's distance (a pixel repeated), then Huffman blocks. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* No match crosses a multiple of CPNG_GRID bytes, so that every parse of the same length has a symbol starting at
   each: a splice that parsed again past a change meets the kept parse there at the latest. */
enum { CPNG_MIN_MATCH = 3, CPNG_MAX_MATCH = 258, CPNG_GRID = 256 };

/* A parsed symbol: a literal byte `value` (length 0), or a match of `length` bytes at distance `value`. */
typedef struct {
    uint16_t length;
    uint16_t value;
} cpng_symbol;

/* Adler-32 of `length` bytes continuing from `adler` (1 to start), as zlib's adler32 computes it. */
uint32_t cpng_adler32(uint32_t adler, const uint8_t *data, size_t length);

/* The bytes a symbol stands for. */
static inline size_t cpng_symbol_span(cpng_symbol symbol) { return symbol.length ? symbol.length : 1; }

static inline size_t cpng_common_length(const uint8_t *a, const uint8_t *b, size_t limit) {
    size_t n = 0;
    while (n + 8 <= limit) {
        uint64_t x, y;
        memcpy(&x, a + n, 8);
        memcpy(&y, b + n, 8);
        if (x != y) return n + (size_t)(__builtin_ctzll(x ^ y) >> 3);
        n += 8;
    }
    while (n < limit && a[n] == b[n]) n++;
    return n;
}

/* The symbol the parser takes at `position`. It reads only data[position - pixel … position + max(span, 2)] (the
   byte ending a match included), so two inputs equal there parse equally at `position`: cpng_splice relies on it. */
static inline __attribute__((always_inline)) cpng_symbol cpng_parse_at(const uint8_t *data, size_t length, size_t pixel,
                                                                       size_t position) {
    size_t to_grid = CPNG_GRID - (position & (CPNG_GRID - 1));
    size_t limit = length - position < to_grid ? length - position : to_grid;
    const uint8_t *here = data + position;
    /* Most literals fail the first byte of both matches: test it before measuring either. */
    size_t run = limit >= CPNG_MIN_MATCH && position >= 1 && here[0] == here[-1] && here[1] == here[0] && here[2] == here[0]
        ? cpng_common_length(here, here - 1, limit) : 0;
    size_t repeat = limit >= CPNG_MIN_MATCH && position >= pixel && pixel > 1 && here[0] == here[-(ptrdiff_t)pixel]
        ? cpng_common_length(here, here - pixel, limit) : 0;
    if (run >= CPNG_MIN_MATCH && run >= repeat) return (cpng_symbol){(uint16_t)run, 1};
    if (repeat >= CPNG_MIN_MATCH) return (cpng_symbol){(uint16_t)repeat, (uint16_t)pixel};
    return (cpng_symbol){0, here[0]};
}

/* The most bytes cpng_emit writes for the symbols of `length` input bytes. */
size_t cpng_fast_deflate_bound(size_t length);

/* Parses `length` bytes into `symbols` (room for `length`); returns how many. */
size_t cpng_parse(const uint8_t *data, size_t length, size_t pixel, cpng_symbol *symbols);

/* Parses from `from` (a symbol's start) until the parse reaches `to` (a multiple of CPNG_GRID, or `length`): the
   symbols cpng_parse makes there. Returns how many. */
size_t cpng_parse_range(const uint8_t *data, size_t length, size_t pixel, size_t from, size_t to, cpng_symbol *symbols);

/* Where each 256-byte cell's symbols start in a parse of `length` bytes: `cells` gets the index of the symbol at
   each multiple of CPNG_GRID, then `count` (room for length / CPNG_GRID + 2). */
void cpng_grid_index(const cpng_symbol *symbols, size_t count, uint32_t *cells);

/* Parses `length` bytes that differ from those `base` symbols (indexed by `cells`) were parsed from only in the cells
   `dirty` marks (one byte a cell of CPNG_GRID bytes: those a changed byte, or the pixel before them, lies in): the
   base symbols of the other cells are kept, the marked ones parsed again. The same symbols as cpng_parse of `data`.
   `symbols` has room for `length`; returns how many. */
size_t cpng_splice(const uint8_t *data, size_t length, size_t pixel, const cpng_symbol *base, const uint32_t *cells,
                   const uint8_t *dirty, cpng_symbol *symbols);

/* Writes symbols as raw deflate blocks of at most 65,536 symbols each. The last block is final when `last`;
   otherwise an empty stored block ends the output on a byte boundary, so that bands can be joined into one
   stream. Returns the bytes written, or 0 when `capacity` was too small. */
size_t cpng_emit(const cpng_symbol *symbols, size_t count, int last, uint8_t *out, size_t capacity);

#endif
