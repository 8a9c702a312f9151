#ifndef SNAPMAP_CPNG_H
#define SNAPMAP_CPNG_H
#include <stddef.h>
#include <stdint.h>

/* A growable byte buffer owned by the shim; release with cpng_buffer_free. */
typedef struct {
    uint8_t *data;
    size_t length;
    size_t capacity;
} cpng_buffer;

/* Encodes 8-bit rows (channels 3 = RGB or 4 = RGBA, straight alpha, tightly packed) as PNG.
   level: zlib level 0-9; filters: a PNG_FILTER_* mask (0 means libpng's default choice); strategy: a zlib
   strategy (0 default, 1 filtered, 2 huffman only, 3 RLE). No time chunk is written.
   Returns 0 on success, otherwise -1 with a message in error. */
int cpng_encode(const uint8_t *pixels, uint32_t width, uint32_t height, int channels,
                int level, int filters, int strategy, cpng_buffer *out, char *error, size_t error_size);

/* The strategy value that picks snapmap's own deflate encoder in banded encodings (cpng_encode_chunked,
   cpng_compress_band): matches of runs and repeated pixels, Huffman codes per block. */
#define CPNG_STRATEGY_FAST 100

/* Encodes like cpng_encode with one fixed row filter (0 none, 1 sub, 2 up), compressing `chunks` bands of rows
   on up to `threads` threads; each band is an independent deflate run ended by a sync flush, joined into one
   zlib stream (adler32s combined) and written as one IDAT through libpng. The bytes depend on `chunks`, never
   on `threads`. Returns 0, or -1 with a message in error. */
int cpng_encode_chunked(const uint8_t *pixels, uint32_t width, uint32_t height, int channels, int level, int filter,
                        int strategy, int chunks, int threads, cpng_buffer *out, char *error, size_t error_size);

/* One band of a banded encoding: its deflate output (a sync flush ends it, or the stream's end for the last
   band), the adler32 of its filtered bytes and how many there were. */
typedef struct {
    uint8_t *data;
    size_t length;
    unsigned long adler;
    unsigned long raw_length;
} cpng_band;

/* What a band's fast encoding keeps for cpng_splice_band: its filtered bytes and the symbols the encoder parsed
   them into (opaque here). Free it with cpng_band_parse_free. */
typedef struct {
    uint8_t *filtered;
    size_t filtered_length;
    void *symbols;
    size_t symbol_count;
    uint32_t *cells; /* where the symbols of each 256 filtered bytes start */
} cpng_band_parse;

/* Compresses `count` rows starting at `rows` as one band (filter as cpng_encode_chunked, `previous` the row
   above the band or NULL for the image's first row; `last` for the image's last band). The same rows always
   give the same band. With `kept` (the fast strategy only), the band's filtered bytes and parse are kept there.
   Free the band with cpng_band_free. Returns 0, or -1. */
int cpng_compress_band(const uint8_t *rows, const uint8_t *previous, uint32_t width, uint32_t count, int channels, int level,
                       int filter, int strategy, int last, cpng_band *out, cpng_band_parse *kept);

/* The band cpng_compress_band (fast strategy, 3 channels) makes of rows that differ from those of `base` (kept in
   `kept`) only in some columns: the new rows are premultiplied 16-bit RGBA, opaque, `rows16` the band's first
   and `previous16` the row above (NULL for the image's first row). `changed` holds `spans_per_row` (at most
   CPNG_MAX_SPANS_PER_ROW) [from, to) column pairs for the row above the band and then for each of the band's rows,
   in order, unused pairs (0, 0) at the end; every changed pixel must lie inside them. Only the changed bytes are filtered again and only the parse near them is redone.
   Returns 0, CPNG_NOT_OPAQUE when a changed pixel is not opaque (the image needs an alpha channel), or -1. */
#define CPNG_NOT_OPAQUE (-2)
#define CPNG_MAX_SPANS_PER_ROW 8
int cpng_splice_band(const cpng_band *base, const cpng_band_parse *kept, const uint16_t *rows16, const uint16_t *previous16,
                     uint32_t width, uint32_t count, int filter, int last, const int32_t *changed, int spans_per_row, cpng_band *out);

/* The bytes a kept parse holds (filtered bytes, symbols and their index). */
size_t cpng_band_parse_bytes(const cpng_band_parse *kept);

void cpng_band_parse_free(cpng_band_parse *kept);

/* Opaque premultiplied 16-bit RGBA pixels as 8-bit RGB, rounded as (v·255 + 32767) / 65535; returns whether every
   pixel was opaque (when not, the RGB of the translucent ones is not their straight colour). */
int cpng_rgb8_from_rgba16(const uint16_t *rgba, size_t pixels, uint8_t *rgb);

void cpng_band_free(cpng_band *band);

/* Writes a PNG whose image data is `bands` joined in order. Returns 0, or -1 with a message in error. */
int cpng_assemble(uint32_t width, uint32_t height, int channels, const cpng_band *bands, int count, cpng_buffer *out,
                  char *error, size_t error_size);

/* Decodes any PNG libpng reads into straight 8-bit RGBA; the caller frees *pixels with cpng_free.
   Images larger than max_width x max_height are refused. Returns 0, or -1 with a message in error. */
int cpng_decode(const uint8_t *data, size_t length, uint32_t max_width, uint32_t max_height,
                uint8_t **pixels, uint32_t *width, uint32_t *height, char *error, size_t error_size);

void cpng_buffer_free(cpng_buffer *buffer);
void cpng_free(void *pointer);

/* The PNG_FILTER_* masks, for callers that cannot see png.h's macros. */
int cpng_filter_none(void);
int cpng_filter_sub(void);
int cpng_filter_up(void);
int cpng_filter_avg(void);
int cpng_filter_paeth(void);
int cpng_filter_all(void);
#endif
