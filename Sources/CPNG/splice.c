/* Re-encoding a kept band whose pixels changed in a few columns of some rows (a viewer's pins over a shared layer):
   only the changed bytes are converted and filtered again, the adler32 is updated by their differences, and the
   parse keeps the kept band's symbols of every 256-byte cell whose bytes (and the pixel before) did not change. The result is byte for byte the
   band cpng_compress_band makes of the new rows. */
#include "cpng.h"
#include "fastdeflate.h"
#include <pthread.h>
#include <stdlib.h>

enum { ADLER_BASE = 65521 };

void cpng_grid_index(const cpng_symbol *symbols, size_t count, uint32_t *cells) {
    size_t position = 0, cell = 0;
    for (size_t i = 0; i < count; i++) {
        if ((position & (CPNG_GRID - 1)) == 0) cells[cell++] = (uint32_t)i;
        position += cpng_symbol_span(symbols[i]);
    }
    cells[cell] = (uint32_t)count;
}

size_t cpng_splice(const uint8_t *data, size_t length, size_t pixel, const cpng_symbol *base, const uint32_t *cells,
                   const size_t *spans, size_t span_count, cpng_symbol *symbols) {
    size_t cell_count = (length + CPNG_GRID - 1) / CPNG_GRID, count = 0;
    uint8_t *dirty = (uint8_t *)calloc(cell_count > 0 ? cell_count : 1, 1);
    if (!dirty) return 0;
    /* A cell's symbols read only its own bytes and the pixel before it. */
    for (size_t k = 0; k < span_count; k++) {
        size_t last = (spans[2 * k + 1] - 1 + pixel) / CPNG_GRID;
        for (size_t cell = spans[2 * k] / CPNG_GRID; cell <= last && cell < cell_count; cell++) dirty[cell] = 1;
    }
    for (size_t cell = 0; cell < cell_count;) {
        size_t end = cell;
        while (end < cell_count && !dirty[end]) end++;
        if (end > cell) {
            memcpy(symbols + count, base + cells[cell], sizeof(cpng_symbol) * (cells[end] - cells[cell]));
            count += cells[end] - cells[cell];
            cell = end;
            continue;
        }
        size_t start = cell * CPNG_GRID;
        while (end < cell_count && dirty[end]) end++;
        count += cpng_parse_range(data, length, pixel, start, end * CPNG_GRID < length ? end * CPNG_GRID : length, symbols + count);
        cell = end;
    }
    free(dirty);
    return count;
}

/* 16-bit to 8-bit, rounded as Canvas.straightRGBA8 rounds opaque pixels: (v·255 + 32767) / 65535, looked up. */
static uint8_t eight_bit[65536];
static pthread_once_t eight_bit_made = PTHREAD_ONCE_INIT;

static void make_eight_bit(void) {
    for (uint32_t value = 0; value < 65536; value++) eight_bit[value] = (uint8_t)((value * 255 + 32767) / 65535);
}

/* Columns [from, to) of an opaque premultiplied 16-bit row as 8-bit RGB, or zeros for no row; whether all of
   them are opaque. */
static int rgb8(const uint16_t *row, int64_t from, int64_t to, uint8_t *out) {
    if (!row) {
        memset(out, 0, (size_t)(to - from) * 3);
        return 1;
    }
    uint16_t alpha = 65535;
    for (int64_t x = from; x < to; x++, out += 3) {
        const uint16_t *pixel = row + x * 4;
        out[0] = eight_bit[pixel[0]];
        out[1] = eight_bit[pixel[1]];
        out[2] = eight_bit[pixel[2]];
        alpha &= pixel[3];
    }
    return alpha == 65535;
}

int cpng_splice_band(const cpng_band *base, const cpng_band_parse *kept, const uint16_t *rows16, const uint16_t *previous16,
                     uint32_t width, uint32_t count, int filter, int last, const int32_t *changed, int spans_per_row, cpng_band *out) {
    size_t row_bytes = (size_t)width * 3, length = (row_bytes + 1) * count;
    if (kept->filtered_length != length || base->raw_length != length || filter < 0 || filter > 2 || spans_per_row < 1
        || spans_per_row > CPNG_MAX_SPANS_PER_ROW) return -1;
    uint8_t *data = (uint8_t *)malloc(length);
    size_t *spans = (size_t *)malloc(sizeof(size_t) * 4 * (size_t)spans_per_row * (count > 0 ? count : 1));
    cpng_symbol *symbols = (cpng_symbol *)malloc(sizeof(cpng_symbol) * (length > 0 ? length : 1));
    size_t capacity = cpng_fast_deflate_bound(length);
    uint8_t *output = (uint8_t *)malloc(capacity);
    uint8_t *current = (uint8_t *)malloc(row_bytes + 3), *reference = (uint8_t *)malloc(row_bytes + 3);
    if (!data || !spans || !symbols || !output || !current || !reference) {
        free(data), free(spans), free(symbols), free(output), free(current), free(reference);
        return -1;
    }
    pthread_once(&eight_bit_made, make_eight_bit);
    int status = -1;
    memcpy(data, kept->filtered, length);
    size_t span_count = 0;
    int64_t sum_delta = 0, weighted_delta = 0;
    for (uint32_t r = 0; r < count; r++) {
        /* The filtered bytes a change can reach: its own, the next pixel's (sub) and the next row's (up). */
        int64_t reach[4 * CPNG_MAX_SPANS_PER_ROW];
        int reached = 0;
        for (int source = filter == 2 ? 0 : 1; source < 2; source++) {
            const int32_t *row_spans = changed + (size_t)(r + (uint32_t)source) * 2 * (size_t)spans_per_row;
            for (int k = 0; k < spans_per_row && row_spans[2 * k] < row_spans[2 * k + 1]; k++) {
                int64_t from = row_spans[2 * k] < 0 ? 0 : row_spans[2 * k];
                int64_t to = (int64_t)row_spans[2 * k + 1] + (filter == 1 ? 1 : 0);
                if (to > width) to = width;
                if (from >= to) continue;
                /* In order of `from`. */
                int at = reached;
                while (at > 0 && reach[2 * (at - 1)] > from) {
                    reach[2 * at] = reach[2 * (at - 1)], reach[2 * at + 1] = reach[2 * (at - 1) + 1];
                    at--;
                }
                reach[2 * at] = from, reach[2 * at + 1] = to;
                reached++;
            }
        }
        const uint16_t *row = rows16 + (size_t)r * width * 4;
        const uint16_t *above = r > 0 ? row - (size_t)width * 4 : previous16;
        size_t offset = (size_t)r * (row_bytes + 1) + 1;
        for (int k = 0; k < reached;) {
            int64_t from = reach[2 * k], to = reach[2 * k + 1];
            for (k++; k < reached && reach[2 * k] <= to; k++) to = reach[2 * k + 1] > to ? reach[2 * k + 1] : to;
            /* The new bytes of columns [from, to): the pixels less the ones to their left (sub) or above (up). */
            size_t bytes = (size_t)(to - from) * 3;
            if (!rgb8(row, from, to, current)) {
                status = CPNG_NOT_OPAQUE;
                goto done;
            }
            if (filter == 1) {
                reference[0] = reference[1] = reference[2] = 0;
                if (from > 0) rgb8(row, from - 1, from, reference);
                memcpy(reference + 3, current, bytes - 3);
            } else if (filter == 2) {
                rgb8(above, from, to, reference);
            } else {
                memset(reference, 0, bytes);
            }
            uint8_t *target = data + offset + (size_t)from * 3;
            int64_t weight = (int64_t)(length - (offset + (size_t)from * 3));
            for (size_t n = 0; n < bytes; n++) {
                uint8_t value = (uint8_t)(current[n] - reference[n]);
                int64_t delta = (int64_t)value - target[n];
                target[n] = value;
                sum_delta += delta;
                weighted_delta += (weight - (int64_t)n) * delta;
            }
            spans[2 * span_count] = offset + (size_t)from * 3;
            spans[2 * span_count + 1] = offset + (size_t)to * 3;
            span_count++;
        }
    }
    /* adler32 = B·65536 + A with A = 1 + Σ bytes and B = n + Σ (n − i)·byte_i, both mod 65521. */
    int64_t a = ((int64_t)(base->adler & 0xFFFF) + sum_delta % ADLER_BASE + ADLER_BASE) % ADLER_BASE;
    int64_t b = ((int64_t)(base->adler >> 16) + weighted_delta % ADLER_BASE + ADLER_BASE) % ADLER_BASE;
    size_t symbol_count = cpng_splice(data, length, 3, (const cpng_symbol *)kept->symbols, kept->cells, spans, span_count, symbols);
    size_t written = symbol_count > 0 ? cpng_emit(symbols, symbol_count, last, output, capacity) : 0;
    if (written > 0) {
        *out = (cpng_band){output, written, (unsigned long)((b << 16) | a), (unsigned long)length};
        output = NULL;
        status = 0;
    }
done:
    free(data), free(spans), free(symbols), free(current), free(reference), free(output);
    return status;
}
