/* Re-encoding a kept band whose pixels changed in a few columns of some rows (a viewer's pins over a shared layer):
   only the changed bytes are converted and filtered again, the adler32 is updated by their differences, and the
   parse keeps the kept band's symbols of every 256-byte cell whose bytes (and the pixel before) did not change. The result is byte for byte the
   band cpng_compress_band makes of the new rows. */
#include "cpng.h"
#include "fastdeflate.h"
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

/* Marks the cells whose symbols read a byte of `spans`: a cell's symbols read only its own bytes and the pixel
   before it. */
static void mark_dirty(const size_t *spans, size_t span_count, size_t pixel, size_t cell_count, uint8_t *dirty) {
    for (size_t k = 0; k < span_count; k++) {
        size_t last = (spans[2 * k + 1] - 1 + pixel) / CPNG_GRID;
        for (size_t cell = spans[2 * k] / CPNG_GRID; cell <= last && cell < cell_count; cell++) dirty[cell] = 1;
    }
}

size_t cpng_splice(const uint8_t *data, size_t length, size_t pixel, const cpng_symbol *base, const uint32_t *cells,
                   const uint8_t *dirty, cpng_symbol *symbols) {
    size_t cell_count = (length + CPNG_GRID - 1) / CPNG_GRID, count = 0;
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
    return count;
}

/* Columns [from, to) of an opaque premultiplied 16-bit row as 8-bit RGB, or zeros for no row; whether all of
   them are opaque. */
static int rgb8(const uint16_t *row, int64_t from, int64_t to, uint8_t *out) {
    if (!row) {
        memset(out, 0, (size_t)(to - from) * 3);
        return 1;
    }
    return cpng_rgb8_from_rgba16(row + from * 4, (size_t)(to - from), out);
}

/* The changed columns of filtered row r, in order and apart: its own spans, and (up) those of the row above, each
   one pixel wider to the right (sub). Returns how many pairs went to `reach`. */
static int reach_of_row(const int32_t *changed, int spans_per_row, uint32_t r, uint32_t width, int filter, int64_t *reach) {
    int reached = 0;
    for (int source = filter == 2 ? 0 : 1; source < 2; source++) {
        const int32_t *row_spans = changed + (size_t)(r + (uint32_t)source) * 2 * (size_t)spans_per_row;
        for (int k = 0; k < spans_per_row && row_spans[2 * k] < row_spans[2 * k + 1]; k++) {
            int64_t from = row_spans[2 * k] < 0 ? 0 : row_spans[2 * k];
            int64_t to = (int64_t)row_spans[2 * k + 1] + (filter == 1 ? 1 : 0);
            if (to > width) to = width;
            if (from >= to) continue;
            int at = reached;
            while (at > 0 && reach[2 * (at - 1)] > from) {
                reach[2 * at] = reach[2 * (at - 1)], reach[2 * at + 1] = reach[2 * (at - 1) + 1];
                at--;
            }
            reach[2 * at] = from, reach[2 * at + 1] = to;
            reached++;
        }
    }
    /* Overlapping pairs joined. */
    int joined = 0;
    for (int k = 0; k < reached; k++) {
        if (joined > 0 && reach[2 * k] <= reach[2 * joined - 1]) {
            if (reach[2 * k + 1] > reach[2 * joined - 1]) reach[2 * joined - 1] = reach[2 * k + 1];
        } else {
            reach[2 * joined] = reach[2 * k], reach[2 * joined + 1] = reach[2 * k + 1];
            joined++;
        }
    }
    return joined;
}

/* Writes `value` over `count` filtered bytes at `target`, adding to the adler32 sums the differences: Σδ and
   Σ (weight − n)·δ. In chunks of 256, whose sums fit 32 bits, so that the loop runs in vector lanes. */
static void write_and_sum(uint8_t *target, const uint8_t *current, const uint8_t *reference, size_t count, int64_t weight,
                          int64_t *sum, int64_t *weighted) {
    for (size_t chunk = 0; chunk < count; chunk += 256) {
        size_t end = count - chunk < 256 ? count - chunk : 256;
        int32_t chunk_sum = 0, chunk_weighted = 0;
        for (size_t n = 0; n < end; n++) {
            uint8_t value = (uint8_t)(current[chunk + n] - reference[chunk + n]);
            int32_t delta = (int32_t)value - target[chunk + n];
            target[chunk + n] = value;
            chunk_sum += delta;
            chunk_weighted += (int32_t)n * delta;
        }
        *sum += chunk_sum;
        *weighted += (weight - (int64_t)chunk) * chunk_sum - chunk_weighted;
    }
}

int cpng_splice_band(const cpng_band *base, const cpng_band_parse *kept, const uint16_t *rows16, const uint16_t *previous16,
                     uint32_t width, uint32_t count, int filter, int last, const int32_t *changed, int spans_per_row, cpng_band *out) {
    size_t row_bytes = (size_t)width * 3, length = (row_bytes + 1) * count, cell_count = (length + CPNG_GRID - 1) / CPNG_GRID;
    if (kept->filtered_length != length || base->raw_length != length || filter < 0 || filter > 2 || spans_per_row < 1
        || spans_per_row > CPNG_MAX_SPANS_PER_ROW) return -1;
    uint8_t *data = (uint8_t *)malloc(length), *dirty = (uint8_t *)calloc(cell_count > 0 ? cell_count : 1, 1);
    size_t *spans = (size_t *)malloc(sizeof(size_t) * 4 * (size_t)spans_per_row * (count > 0 ? count : 1));
    cpng_symbol *symbols = (cpng_symbol *)malloc(sizeof(cpng_symbol) * (length > 0 ? length : 1));
    size_t capacity = cpng_fast_deflate_bound(length);
    uint8_t *output = (uint8_t *)malloc(capacity);
    /* A row and the one above as 8-bit RGB by column, valid where converted. */
    uint8_t *current = (uint8_t *)calloc(row_bytes + 3, 1), *above = (uint8_t *)calloc(row_bytes + 3, 1), *zeros = (uint8_t *)calloc(row_bytes + 3, 1);
    if (!data || !dirty || !spans || !symbols || !output || !current || !above || !zeros) {
        free(data), free(dirty), free(spans), free(symbols), free(output), free(current), free(above), free(zeros);
        return -1;
    }
    int status = -1;
    /* The byte spans a change reaches, row by row; the kept bytes of the cells they touch (and the bytes the parser
       reads around those) are the only ones copied. */
    size_t span_count = 0;
    for (uint32_t r = 0; r < count; r++) {
        int64_t reach[4 * CPNG_MAX_SPANS_PER_ROW];
        int reached = reach_of_row(changed, spans_per_row, r, width, filter, reach);
        for (int k = 0; k < reached; k++, span_count++) {
            spans[2 * span_count] = (size_t)r * (row_bytes + 1) + 1 + (size_t)reach[2 * k] * 3;
            spans[2 * span_count + 1] = (size_t)r * (row_bytes + 1) + 1 + (size_t)reach[2 * k + 1] * 3;
        }
    }
    mark_dirty(spans, span_count, 3, cell_count, dirty);
    for (size_t cell = 0; cell < cell_count; cell++) {
        if (!dirty[cell] || (cell > 0 && dirty[cell - 1])) continue;
        size_t end = cell;
        while (end < cell_count && dirty[end]) end++;
        size_t from = cell * CPNG_GRID >= 3 ? cell * CPNG_GRID - 3 : 0, to = end * CPNG_GRID + 64 < length ? end * CPNG_GRID + 64 : length;
        memcpy(data + from, kept->filtered + from, to - from);
    }
    /* The new filtered bytes: each row's changed columns converted once, less the row above's (up: converted there,
       or now where the row above did not change) or the pixel to the left (sub). */
    int64_t sum_delta = 0, weighted_delta = 0;
    int64_t converted[4 * CPNG_MAX_SPANS_PER_ROW];
    int converted_count = 0;
    for (uint32_t r = 0, next = 0; r < count; r++) {
        const uint16_t *row = rows16 + (size_t)r * width * 4;
        const uint16_t *row_above = r > 0 ? row - (size_t)width * 4 : previous16;
        size_t offset = (size_t)r * (row_bytes + 1) + 1;
        int64_t reach[4 * CPNG_MAX_SPANS_PER_ROW];
        int reached = 0;
        for (; next < span_count && spans[2 * next] < offset + row_bytes; next++, reached++) {
            reach[2 * reached] = (int64_t)(spans[2 * next] - offset) / 3, reach[2 * reached + 1] = (int64_t)(spans[2 * next + 1] - offset) / 3;
        }
        for (int k = 0; k < reached; k++) {
            int64_t from = reach[2 * k], to = reach[2 * k + 1], left = filter == 1 && from > 0 ? from - 1 : from;
            if (!rgb8(row, left, to, current + left * 3)) {
                status = CPNG_NOT_OPAQUE;
                goto done;
            }
            int64_t weight = (int64_t)(length - (offset + (size_t)from * 3));
            uint8_t *target = data + offset + (size_t)from * 3;
            if (filter == 2) {
                int covered = 0;
                for (int c = 0; c < converted_count; c++) covered |= converted[2 * c] <= from && to <= converted[2 * c + 1];
                if (!covered) rgb8(row_above, from, to, above + from * 3);
                write_and_sum(target, current + from * 3, above + from * 3, (size_t)(to - from) * 3, weight, &sum_delta, &weighted_delta);
            } else if (filter == 1 && from > 0) {
                /* The pixel to the left is 3 bytes back. */
                write_and_sum(target, current + from * 3, current + (from - 1) * 3, (size_t)(to - from) * 3, weight, &sum_delta, &weighted_delta);
            } else {
                /* No filter, or column 0 of sub (nothing to its left), then the rest of the span. */
                size_t plain = filter == 1 ? 3 : (size_t)(to - from) * 3;
                write_and_sum(target, current + from * 3, zeros, plain, weight, &sum_delta, &weighted_delta);
                if (filter == 1 && to > 1) write_and_sum(target + 3, current + 3, current, (size_t)(to - 1) * 3, weight - 3, &sum_delta, &weighted_delta);
            }
        }
        uint8_t *swap = above;
        above = current, current = swap;
        converted_count = reached;
        memcpy(converted, reach, sizeof(int64_t) * 2 * (size_t)reached);
    }
    /* adler32 = B·65536 + A with A = 1 + Σ bytes and B = n + Σ (n − i)·byte_i, both mod 65521. */
    int64_t a = ((int64_t)(base->adler & 0xFFFF) + sum_delta % ADLER_BASE + ADLER_BASE) % ADLER_BASE;
    int64_t b = ((int64_t)(base->adler >> 16) + weighted_delta % ADLER_BASE + ADLER_BASE) % ADLER_BASE;
    size_t symbol_count = cpng_splice(data, length, 3, (const cpng_symbol *)kept->symbols, kept->cells, dirty, symbols);
    size_t written = cpng_emit(symbols, symbol_count, last, output, capacity);
    if (written > 0) {
        *out = (cpng_band){output, written, (unsigned long)((b << 16) | a), (unsigned long)length};
        output = NULL;
        status = 0;
    }
done:
    free(data), free(dirty), free(spans), free(symbols), free(current), free(above), free(zeros), free(output);
    return status;
}
