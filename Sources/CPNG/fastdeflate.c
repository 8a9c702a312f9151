/* A deflate encoder for filtered map rows (RFC 1951), faster than zlib's run-length strategy: matches only at
   distance 1 (runs of a byte) and at the pixel's distance (a pixel repeated), found a word at a time; each
   block's Huffman codes are built from its own symbol counts, limited to 15 bits. The output is deterministic. */
#include "fastdeflate.h"
#include "huffman.h"
#include <stdlib.h>
#include <string.h>

enum { LITLEN = 286, DISTANCES = 30, CODELENGTHS = 19, MAX_BITS = 15, MAX_CODELENGTH_BITS = 7, MIN_MATCH = 3,
       MAX_MATCH = 258, BLOCK_SYMBOLS = 1 << 16 };

static const uint16_t length_base[29] = {3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99,
                                         115, 131, 163, 195, 227, 258};
static const uint8_t length_extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
static const uint16_t distance_base[30] = {1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769,
                                           1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
static const uint8_t distance_extra[30] = {0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11,
                                           12, 12, 13, 13};
static const uint8_t codelength_order[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};

typedef struct {
    uint8_t *out;
    size_t capacity, length;
    uint64_t bits;
    int count;
    int overflow;
} bit_writer;

static inline __attribute__((always_inline)) void put_bits(bit_writer *w, uint32_t value, int bits) {
    w->bits |= (uint64_t)value << w->count;
    w->count += bits;
    if (w->count < 32) return;
    /* Four whole bytes at a time (little-endian, as deflate orders its bits). */
    if (w->length + 4 <= w->capacity) {
        uint8_t bytes[4] = {(uint8_t)w->bits, (uint8_t)(w->bits >> 8), (uint8_t)(w->bits >> 16), (uint8_t)(w->bits >> 24)};
        memcpy(w->out + w->length, bytes, 4);
        w->length += 4;
    } else {
        w->overflow = 1;
    }
    w->bits >>= 32;
    w->count -= 32;
}

/* Writes the whole bytes still held. */
static void flush_bytes(bit_writer *w) {
    while (w->count >= 8) {
        if (w->length < w->capacity) w->out[w->length++] = (uint8_t)w->bits; else w->overflow = 1;
        w->bits >>= 8;
        w->count -= 8;
    }
}

static void align_to_byte(bit_writer *w) {
    flush_bytes(w);
    if (w->count > 0) put_bits(w, 0, 8 - w->count);
    flush_bytes(w);
}

/* Length codes by match length (3…258), filled on the stack for each block. */
static void length_codes(uint8_t *table) {
    int code = 0;
    for (int length = MIN_MATCH; length <= MAX_MATCH; length++) {
        while (code < 28 && length_base[code + 1] <= length) code++;
        table[length] = (uint8_t)code;
    }
}

static int distance_code(int distance) {
    int code = 0;
    while (code < 29 && distance_base[code + 1] <= distance) code++;
    return code;
}

/* A parsed symbol: a literal byte (length 0), or a match of `length` at `distance`. */
typedef struct {
    uint16_t length;
    uint16_t value;
} symbol;

static size_t common_length(const uint8_t *a, const uint8_t *b, size_t limit) {
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

/* A dynamic-Huffman block of the symbols, whose counts the parser kept (`litlen_frequency`, `distance_frequency`). */
static void write_block(bit_writer *w, const symbol *symbols, size_t count, uint32_t *litlen_frequency, uint32_t *distance_frequency,
                        const uint8_t *length_code, int final) {
    int last_distance = -1, last_code = 0;
    litlen_frequency[256] = 1;
    /* Two distance codes at least, so that every decoder takes the code as complete. */
    int distances_used = 0;
    for (int d = 0; d < DISTANCES; d++) distances_used += distance_frequency[d] != 0;
    for (int d = 0; distances_used < 2; d++) {
        if (!distance_frequency[d]) {
            distance_frequency[d] = 1;
            distances_used++;
        }
    }
    uint8_t litlen_lengths[LITLEN], distance_lengths[DISTANCES];
    cpng_code_lengths(litlen_frequency, LITLEN, MAX_BITS, litlen_lengths);
    cpng_code_lengths(distance_frequency, DISTANCES, MAX_BITS, distance_lengths);
    uint16_t litlen_codes[LITLEN] = {0}, distance_codes[DISTANCES] = {0};
    cpng_canonical_codes(litlen_lengths, LITLEN, litlen_codes);
    cpng_canonical_codes(distance_lengths, DISTANCES, distance_codes);

    int hlit = LITLEN, hdist = DISTANCES;
    while (hlit > 257 && litlen_lengths[hlit - 1] == 0) hlit--;
    while (hdist > 1 && distance_lengths[hdist - 1] == 0) hdist--;
    /* The code lengths, run-length coded with 16 (repeat previous), 17 and 18 (repeat zero). */
    uint8_t all[LITLEN + DISTANCES], runs[LITLEN + DISTANCES], extras[LITLEN + DISTANCES];
    int total = hlit + hdist, run_count = 0;
    memcpy(all, litlen_lengths, (size_t)hlit);
    memcpy(all + hlit, distance_lengths, (size_t)hdist);
    uint32_t codelength_frequency[CODELENGTHS] = {0};
    for (int i = 0; i < total;) {
        int value = all[i], repeat = 1;
        while (i + repeat < total && all[i + repeat] == value) repeat++;
        if (value == 0 && repeat >= 3) {
            int take = repeat > 138 ? 138 : repeat;
            runs[run_count] = take >= 11 ? 18 : 17;
            extras[run_count++] = (uint8_t)(take >= 11 ? take - 11 : take - 3);
            i += take;
        } else if (value != 0 && repeat >= 4) {
            runs[run_count] = (uint8_t)value;
            extras[run_count++] = 0;
            int take = repeat - 1 > 6 ? 6 : repeat - 1;
            runs[run_count] = 16;
            extras[run_count++] = (uint8_t)(take - 3);
            i += 1 + take;
        } else {
            runs[run_count] = (uint8_t)value;
            extras[run_count++] = 0;
            i++;
        }
    }
    for (int r = 0; r < run_count; r++) codelength_frequency[runs[r]]++;
    uint8_t codelength_lengths[CODELENGTHS];
    uint16_t codelength_codes[CODELENGTHS] = {0};
    cpng_code_lengths(codelength_frequency, CODELENGTHS, MAX_CODELENGTH_BITS, codelength_lengths);
    cpng_canonical_codes(codelength_lengths, CODELENGTHS, codelength_codes);
    int hclen = CODELENGTHS;
    while (hclen > 4 && codelength_lengths[codelength_order[hclen - 1]] == 0) hclen--;

    put_bits(w, final ? 1 : 0, 1);
    put_bits(w, 2, 2);
    put_bits(w, (uint32_t)(hlit - 257), 5);
    put_bits(w, (uint32_t)(hdist - 1), 5);
    put_bits(w, (uint32_t)(hclen - 4), 4);
    for (int i = 0; i < hclen; i++) put_bits(w, codelength_lengths[codelength_order[i]], 3);
    for (int r = 0; r < run_count; r++) {
        put_bits(w, codelength_codes[runs[r]], codelength_lengths[runs[r]]);
        if (runs[r] == 16) put_bits(w, extras[r], 2);
        if (runs[r] == 17) put_bits(w, extras[r], 3);
        if (runs[r] == 18) put_bits(w, extras[r], 7);
    }
    for (size_t i = 0; i < count; i++) {
        if (symbols[i].length == 0) {
            put_bits(w, litlen_codes[symbols[i].value], litlen_lengths[symbols[i].value]);
            continue;
        }
        if (symbols[i].value != last_distance) {
            last_distance = symbols[i].value;
            last_code = distance_code(last_distance);
        }
        int lc = length_code[symbols[i].length], dc = last_code;
        put_bits(w, litlen_codes[257 + lc], litlen_lengths[257 + lc]);
        if (length_extra[lc]) put_bits(w, (uint32_t)(symbols[i].length - length_base[lc]), length_extra[lc]);
        put_bits(w, distance_codes[dc], distance_lengths[dc]);
        if (distance_extra[dc]) put_bits(w, (uint32_t)(symbols[i].value - distance_base[dc]), distance_extra[dc]);
    }
    put_bits(w, litlen_codes[256], litlen_lengths[256]);
}

size_t cpng_fast_deflate_bound(size_t length) { return length + length / 2 + 1024 * (length / BLOCK_SYMBOLS + 2); }

size_t cpng_fast_deflate(const uint8_t *data, size_t length, size_t pixel, int last, uint8_t *out, size_t capacity) {
    bit_writer w = {out, capacity, 0, 0, 0, 0};
    symbol *symbols = (symbol *)malloc(sizeof(symbol) * BLOCK_SYMBOLS);
    if (!symbols) return 0;
    uint8_t length_code[MAX_MATCH + 1];
    length_codes(length_code);
    const int run_code = distance_code(1), repeat_code = distance_code((int)pixel);
    size_t position = 0;
    do {
        size_t count = 0;
        uint32_t litlen_frequency[LITLEN] = {0}, distance_frequency[DISTANCES] = {0};
        while (position < length && count < BLOCK_SYMBOLS) {
            size_t limit = length - position < MAX_MATCH ? length - position : MAX_MATCH;
            const uint8_t *here = data + position;
            /* Most literals fail the first byte of both matches: test it before measuring either. */
            size_t run = limit >= MIN_MATCH && position >= 1 && here[0] == here[-1] && here[1] == here[0] && here[2] == here[0]
                ? common_length(here, here - 1, limit) : 0;
            size_t repeat = limit >= MIN_MATCH && position >= pixel && pixel > 1 && here[0] == here[-(ptrdiff_t)pixel]
                ? common_length(here, here - pixel, limit) : 0;
            if (run >= MIN_MATCH && run >= repeat) {
                symbols[count++] = (symbol){(uint16_t)run, 1};
                litlen_frequency[257 + length_code[run]]++;
                distance_frequency[run_code]++;
                position += run;
            } else if (repeat >= MIN_MATCH) {
                symbols[count++] = (symbol){(uint16_t)repeat, (uint16_t)pixel};
                litlen_frequency[257 + length_code[repeat]]++;
                distance_frequency[repeat_code]++;
                position += repeat;
            } else {
                symbols[count++] = (symbol){0, here[0]};
                litlen_frequency[here[0]]++;
                position++;
            }
        }
        write_block(&w, symbols, count, litlen_frequency, distance_frequency, length_code, last && position >= length);
    } while (position < length);
    free(symbols);
    if (last) {
        align_to_byte(&w);
    } else {
        /* An empty stored block ends the band on a byte boundary, as zlib's sync flush does. */
        put_bits(&w, 0, 3);
        align_to_byte(&w);
        put_bits(&w, 0x0000, 16);
        put_bits(&w, 0xFFFF, 16);
        flush_bytes(&w);
    }
    return w.overflow ? 0 : w.length;
}
