/* Parallel PNG compression: rows are filtered and deflated in independent bands (a sync flush ends each),
   the bands are joined into one zlib stream, and libpng writes the signature, IHDR, the IDAT and IEND. */
#include "shared.h"
#include "fastdeflate.h"
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

typedef struct {
    const uint8_t *rows;     /* the band's first row */
    const uint8_t *previous; /* the row above it, or NULL for the image's first row */
    uint32_t width, count;
    int channels, level, filter, strategy, last;
    uint8_t *output;
    size_t output_length;
    uLong adler;
    uLong raw_length;
    int status;
    cpng_band_parse *kept;   /* where the fast strategy leaves the filtered bytes and parse, or NULL */
} band_job;

static void filter_row(const uint8_t *restrict row, const uint8_t *restrict previous, size_t length, int channels, int filter,
                       uint8_t *restrict out) {
    out[0] = (uint8_t)filter;
    uint8_t *restrict dst = out + 1;
    if (filter == 1) {
        size_t first = length < (size_t)channels ? length : (size_t)channels;
        memcpy(dst, row, first);
        for (size_t i = first; i < length; i++) dst[i] = (uint8_t)(row[i] - row[i - channels]);
    } else if (filter == 2 && previous) {
        for (size_t i = 0; i < length; i++) dst[i] = (uint8_t)(row[i] - previous[i]);
    } else {
        memcpy(dst, row, length);
    }
}

/* The snapmap strategy: every row filtered into one buffer, parsed (cpng_parse) and written (cpng_emit). */
static void compress_band_fast(band_job *job) {
    size_t row_bytes = (size_t)job->width * job->channels, length = (row_bytes + 1) * job->count;
    uint8_t *filtered = (uint8_t *)malloc(length);
    size_t capacity = cpng_fast_deflate_bound(length);
    job->output = (uint8_t *)malloc(capacity);
    if (!filtered || !job->output) {
        free(filtered);
        return;
    }
    for (uint32_t y = 0; y < job->count; y++) {
        const uint8_t *row = job->rows + (size_t)y * row_bytes;
        filter_row(row, y > 0 ? row - row_bytes : job->previous, row_bytes, job->channels, job->filter, filtered + (size_t)y * (row_bytes + 1));
    }
    job->adler = cpng_adler32(1, filtered, length);
    job->raw_length = length;
    cpng_symbol *symbols = (cpng_symbol *)malloc(sizeof(cpng_symbol) * (length > 0 ? length : 1));
    if (!symbols) {
        free(filtered);
        return;
    }
    size_t count = cpng_parse(filtered, length, (size_t)job->channels, symbols);
    job->output_length = cpng_emit(symbols, count, job->last, job->output, capacity);
    job->status = job->output_length > 0 ? 0 : -1;
    uint32_t *cells = job->kept && job->status == 0 ? (uint32_t *)malloc(sizeof(uint32_t) * (length / CPNG_GRID + 2)) : NULL;
    if (cells) {
        cpng_grid_index(symbols, count, cells);
        cpng_symbol *fitted = (cpng_symbol *)realloc(symbols, sizeof(cpng_symbol) * (count > 0 ? count : 1));
        *job->kept = (cpng_band_parse){filtered, length, fitted ? fitted : symbols, count, cells};
        return;
    }
    if (job->kept) job->status = -1;
    free(symbols);
    free(filtered);
}

static void *compress_band(void *argument) {
    band_job *job = (band_job *)argument;
    if (job->strategy == CPNG_STRATEGY_FAST) {
        compress_band_fast(job);
        return NULL;
    }
    size_t row_bytes = (size_t)job->width * job->channels;
    uint8_t *filtered = (uint8_t *)malloc(row_bytes + 1);
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    job->status = -1;
    if (!filtered || deflateInit2(&stream, job->level, Z_DEFLATED, -15, 8, job->strategy) != Z_OK) {
        free(filtered);
        return NULL;
    }
    size_t capacity = deflateBound(&stream, (uLong)((row_bytes + 1) * job->count)) + 64;
    job->output = (uint8_t *)malloc(capacity);
    job->adler = adler32(0L, Z_NULL, 0);
    job->raw_length = 0;
    if (!job->output) goto done;
    stream.next_out = job->output;
    stream.avail_out = (uInt)capacity;
    for (uint32_t y = 0; y < job->count; y++) {
        const uint8_t *row = job->rows + (size_t)y * row_bytes;
        const uint8_t *previous = y > 0 ? row - row_bytes : job->previous;
        filter_row(row, previous, row_bytes, job->channels, job->filter, filtered);
        job->adler = adler32(job->adler, filtered, (uInt)(row_bytes + 1));
        job->raw_length += row_bytes + 1;
        stream.next_in = filtered;
        stream.avail_in = (uInt)(row_bytes + 1);
        int flush = y + 1 == job->count ? (job->last ? Z_FINISH : Z_SYNC_FLUSH) : Z_NO_FLUSH;
        int result = deflate(&stream, flush);
        if (result == Z_STREAM_ERROR || stream.avail_in != 0) goto done;
    }
    job->output_length = capacity - stream.avail_out;
    job->status = 0;
done:
    deflateEnd(&stream);
    free(filtered);
    return NULL;
}

int cpng_encode_chunked(const uint8_t *pixels, uint32_t width, uint32_t height, int channels, int level, int filter,
                        int strategy, int chunks, int threads, cpng_buffer *out, char *error, size_t error_size) {
    out->data = NULL;
    out->length = 0;
    out->capacity = 0;
    if ((channels != 3 && channels != 4) || filter < 0 || filter > 2 || chunks < 1 || threads < 1 || height == 0) {
        snprintf(error, error_size, "invalid chunked encoding parameters");
        return -1;
    }
    if ((uint32_t)chunks > height) chunks = (int)height;
    band_job *jobs = (band_job *)calloc((size_t)chunks, sizeof(band_job));
    pthread_t *workers = (pthread_t *)calloc((size_t)chunks, sizeof(pthread_t));
    if (!jobs || !workers) {
        free(jobs);
        free(workers);
        snprintf(error, error_size, "out of memory");
        return -1;
    }
    size_t row_bytes = (size_t)width * channels;
    for (int i = 0; i < chunks; i++) {
        uint32_t first = (uint32_t)((uint64_t)height * i / chunks), end = (uint32_t)((uint64_t)height * (i + 1) / chunks);
        jobs[i] = (band_job){pixels + first * row_bytes, first > 0 ? pixels + (first - 1) * row_bytes : NULL, width, end - first,
                             channels, level, filter, strategy, i == chunks - 1, NULL, 0, 0, 0, -1, NULL};
    }
    for (int start = 0; start < chunks; start += threads) {
        int end = start + threads < chunks ? start + threads : chunks;
        for (int i = start + 1; i < end; i++) pthread_create(&workers[i], NULL, compress_band, &jobs[i]);
        compress_band(&jobs[start]);
        for (int i = start + 1; i < end; i++) pthread_join(workers[i], NULL);
    }
    int status = 0;
    for (int i = 0; i < chunks; i++) {
        if (jobs[i].status != 0) status = -1;
    }
    cpng_band *bands = (cpng_band *)calloc((size_t)chunks, sizeof(cpng_band));
    if (bands && status == 0) {
        for (int i = 0; i < chunks; i++) bands[i] = (cpng_band){jobs[i].output, jobs[i].output_length, jobs[i].adler, jobs[i].raw_length};
        status = cpng_assemble(width, height, channels, bands, chunks, out, error, error_size);
    } else {
        snprintf(error, error_size, bands ? "deflate failed" : "out of memory");
        status = -1;
    }
    for (int i = 0; i < chunks; i++) free(jobs[i].output);
    free(bands);
    free(jobs);
    free(workers);
    return status;
}

int cpng_compress_band(const uint8_t *rows, const uint8_t *previous, uint32_t width, uint32_t count, int channels, int level,
                       int filter, int strategy, int last, cpng_band *out, cpng_band_parse *kept) {
    if (kept && strategy != CPNG_STRATEGY_FAST) return -1;
    band_job job = {rows, previous, width, count, channels, level, filter, strategy, last, NULL, 0, 0, 0, -1, kept};
    compress_band(&job);
    if (job.status != 0) {
        free(job.output);
        return -1;
    }
    *out = (cpng_band){job.output, job.output_length, job.adler, job.raw_length};
    return 0;
}

size_t cpng_band_parse_bytes(const cpng_band_parse *kept) {
    return kept->filtered_length + kept->symbol_count * sizeof(cpng_symbol) + (kept->filtered_length / CPNG_GRID + 1) * sizeof(uint32_t);
}

void cpng_band_parse_free(cpng_band_parse *kept) {
    free(kept->filtered);
    free(kept->symbols);
    free(kept->cells);
    *kept = (cpng_band_parse){NULL, 0, NULL, 0, NULL};
}

void cpng_band_free(cpng_band *band) {
    free(band->data);
    band->data = NULL;
    band->length = 0;
}

int cpng_assemble(uint32_t width, uint32_t height, int channels, const cpng_band *bands, int count, cpng_buffer *out,
                  char *error, size_t error_size) {
    out->data = NULL;
    out->length = 0;
    out->capacity = 0;
    size_t total = 2 + 4;
    uLong adler = adler32(0L, Z_NULL, 0);
    for (int i = 0; i < count; i++) {
        total += bands[i].length;
        adler = adler32_combine(adler, bands[i].adler, (z_off_t)bands[i].raw_length);
    }
    uint8_t *volatile stream = (uint8_t *)malloc(total);
    if (!stream) {
        snprintf(error, error_size, "out of memory");
        return -1;
    }
    size_t offset = 0;
    stream[offset++] = 0x78;
    stream[offset++] = 0x01;
    for (int i = 0; i < count; i++) {
        memcpy(stream + offset, bands[i].data, bands[i].length);
        offset += bands[i].length;
    }
    stream[offset++] = (uint8_t)(adler >> 24);
    stream[offset++] = (uint8_t)(adler >> 16);
    stream[offset++] = (uint8_t)(adler >> 8);
    stream[offset++] = (uint8_t)adler;

    cpng_error_sink sink = {error, error_size};
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &sink, cpng_on_error, cpng_on_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info || setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(stream);
        cpng_buffer_free(out);
        if (!png || !info) snprintf(error, error_size, "png_create_write_struct failed");
        return -1;
    }
    png_set_write_fn(png, out, cpng_write_to_buffer, cpng_flush_nothing);
    png_set_IHDR(png, info, width, height, 8, channels == 4 ? PNG_COLOR_TYPE_RGBA : PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    png_write_chunk(png, (png_const_bytep) "IDAT", stream, offset);
    png_write_chunk(png, (png_const_bytep) "IEND", NULL, 0);
    png_destroy_write_struct(&png, &info);
    free(stream);
    return 0;
}
