/* A deflate encoder for filtered map rows (RFC 1951), faster than zlib's run-length strategy: the rows are parsed
   into symbols (parse.c), then each block of symbols is written with Huffman codes built from its own symbol
   counts, limited to 15 bits. The output is deterministic. */
#include "fastdeflate.h"
#include "huffman.h"
#include <stdlib.h>
#include <string.h>

_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the bit writer stores its buffer as little-endian words, as deflate orders bits");

enum { LITLEN = 286, DISTANCES = 30, CODELENGTHS = 19, MAX_BITS = 15, MAX_CODELENGTH_BITS = 7, MIN_MATCH = CPNG_MIN_MATCH,
       MAX_MATCH = CPNG_MAX_MATCH, BLOCK_SYMBOLS = 1 << 16 };

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

/* Writes the symbols with the block's codes. The bits are held in registers (the output bytes could alias a
   writer in memory) and whole bytes stored after each symbol: one symbol is at most 15 + 5 + 15 + 13 bits, so the
   64-bit buffer, never holding more than 7 bits between symbols, cannot overflow. */
static void write_symbols(bit_writer *w, const cpng_symbol *symbols, size_t count, const uint16_t *litlen_codes,
                          const uint8_t *litlen_lengths, const uint16_t *distance_codes, const uint8_t *distance_lengths,
                          const uint8_t *length_code) {
    flush_bytes(w);
    /* Each match length's code and extra bits as one value. */
    uint32_t length_bits[MAX_MATCH + 1];
    uint8_t length_size[MAX_MATCH + 1];
    for (int length = MIN_MATCH; length <= MAX_MATCH; length++) {
        int code = length_code[length];
        length_bits[length] = litlen_codes[257 + code] | (uint32_t)(length - length_base[code]) << litlen_lengths[257 + code];
        length_size[length] = (uint8_t)(litlen_lengths[257 + code] + length_extra[code]);
    }
    uint64_t bits = w->bits;
    int held = w->count;
    uint8_t *out = w->out + w->length;
    /* Eight bytes are stored at a time: stop short of the end and let the careful path finish. */
    const uint8_t *end = w->capacity >= 8 ? w->out + w->capacity - 8 : w->out;
    int last_distance = -1;
    uint32_t distance_bits = 0;
    int distance_size = 0;
    size_t i = 0;
    for (; i < count && out <= end; i++) {
        cpng_symbol symbol = symbols[i];
        if (symbol.length == 0) {
            bits |= (uint64_t)litlen_codes[symbol.value] << held;
            held += litlen_lengths[symbol.value];
        } else {
            if (symbol.value != last_distance) {
                last_distance = symbol.value;
                int code = distance_code(last_distance);
                distance_bits = distance_codes[code] | (uint32_t)(last_distance - distance_base[code]) << distance_lengths[code];
                distance_size = distance_lengths[code] + distance_extra[code];
            }
            bits |= (uint64_t)length_bits[symbol.length] << held;
            held += length_size[symbol.length];
            bits |= (uint64_t)distance_bits << held;
            held += distance_size;
        }
        uint64_t little = bits;
        memcpy(out, &little, 8);
        out += held >> 3;
        bits >>= held & ~7;
        held &= 7;
    }
    w->bits = bits;
    w->count = held;
    w->length = (size_t)(out - w->out);
    for (; i < count; i++) {
        if (symbols[i].length == 0) {
            put_bits(w, litlen_codes[symbols[i].value], litlen_lengths[symbols[i].value]);
        } else {
            put_bits(w, length_bits[symbols[i].length], length_size[symbols[i].length]);
            int code = distance_code(symbols[i].value);
            put_bits(w, distance_codes[code], distance_lengths[code]);
            put_bits(w, (uint32_t)(symbols[i].value - distance_base[code]), distance_extra[code]);
        }
    }
}

/* A dynamic-Huffman block of the symbols, whose counts the parser kept (`litlen_frequency`, `distance_frequency`). */
static void write_block(bit_writer *w, const cpng_symbol *symbols, size_t count, uint32_t *litlen_frequency, uint32_t *distance_frequency,
                        const uint8_t *length_code, int final) {
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
    write_symbols(w, symbols, count, litlen_codes, litlen_lengths, distance_codes, distance_lengths, length_code);
    put_bits(w, litlen_codes[256], litlen_lengths[256]);
}

size_t cpng_fast_deflate_bound(size_t length) { return length + length / 2 + 1024 * (length / BLOCK_SYMBOLS + 2); }

size_t cpng_emit(const cpng_symbol *symbols, size_t count, int last, uint8_t *out, size_t capacity) {
    bit_writer w = {out, capacity, 0, 0, 0, 0};
    uint8_t length_code[MAX_MATCH + 1];
    length_codes(length_code);
    size_t start = 0;
    do {
        size_t end = count - start > BLOCK_SYMBOLS ? start + BLOCK_SYMBOLS : count;
        uint32_t litlen_frequency[LITLEN] = {0}, distance_frequency[DISTANCES] = {0};
        int last_distance = -1, last_code = 0;
        for (size_t i = start; i < end; i++) {
            if (symbols[i].length == 0) {
                litlen_frequency[symbols[i].value]++;
                continue;
            }
            if (symbols[i].value != last_distance) {
                last_distance = symbols[i].value;
                last_code = distance_code(last_distance);
            }
            litlen_frequency[257 + length_code[symbols[i].length]]++;
            distance_frequency[last_code]++;
        }
        write_block(&w, symbols + start, end - start, litlen_frequency, distance_frequency, length_code, last && end == count);
        start = end;
    } while (start < count);
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
