/* libpng behind a small interface: libpng reports errors by longjmp, which must never cross Swift frames,
   so every setjmp lives here and failures come back as return codes with libpng's message. */
#include "shared.h"
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cpng_on_error(png_structp png, png_const_charp message) {
    cpng_error_sink *sink = (cpng_error_sink *)png_get_error_ptr(png);
    if (sink && sink->message && sink->size > 0) {
        snprintf(sink->message, sink->size, "%s", message);
    }
    png_longjmp(png, 1);
}

void cpng_on_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}

void cpng_write_to_buffer(png_structp png, png_bytep data, png_size_t length) {
    cpng_buffer *buffer = (cpng_buffer *)png_get_io_ptr(png);
    if (buffer->length + length > buffer->capacity) {
        size_t capacity = buffer->capacity ? buffer->capacity : 65536;
        while (capacity < buffer->length + length) capacity *= 2;
        uint8_t *grown = (uint8_t *)realloc(buffer->data, capacity);
        if (!grown) png_error(png, "out of memory while encoding");
        buffer->data = grown;
        buffer->capacity = capacity;
    }
    memcpy(buffer->data + buffer->length, data, length);
    buffer->length += length;
}

void cpng_flush_nothing(png_structp png) { (void)png; }

int cpng_encode(const uint8_t *pixels, uint32_t width, uint32_t height, int channels,
                int level, int filters, int strategy, cpng_buffer *out, char *error, size_t error_size) {
    cpng_error_sink sink = {error, error_size};
    out->data = NULL;
    out->length = 0;
    out->capacity = 0;
    if (channels != 3 && channels != 4) {
        snprintf(error, error_size, "channels must be 3 or 4, got %d", channels);
        return -1;
    }
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &sink, cpng_on_error, cpng_on_warning);
    if (!png) {
        snprintf(error, error_size, "png_create_write_struct failed");
        return -1;
    }
    png_infop info = png_create_info_struct(png);
    png_bytep *volatile rows = NULL;
    if (!info || setjmp(png_jmpbuf(png))) {
        free(rows);
        png_destroy_write_struct(&png, &info);
        cpng_buffer_free(out);
        if (!info) snprintf(error, error_size, "png_create_info_struct failed");
        return -1;
    }
    png_set_write_fn(png, out, cpng_write_to_buffer, cpng_flush_nothing);
    png_set_compression_level(png, level);
    png_set_compression_strategy(png, strategy);
    if (filters != 0) png_set_filter(png, PNG_FILTER_TYPE_BASE, filters);
    png_set_IHDR(png, info, width, height, 8, channels == 4 ? PNG_COLOR_TYPE_RGBA : PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    rows = (png_bytep *)malloc(sizeof(png_bytep) * (height ? height : 1));
    if (!rows) png_error(png, "out of memory for row pointers");
    for (uint32_t y = 0; y < height; y++) rows[y] = (png_bytep)(pixels + (size_t)y * width * channels);
    png_set_rows(png, info, rows);
    png_write_png(png, info, PNG_TRANSFORM_IDENTITY, NULL);
    free(rows);
    png_destroy_write_struct(&png, &info);
    return 0;
}

typedef struct {
    const uint8_t *data;
    size_t length;
    size_t offset;
} read_source;

static void read_from_memory(png_structp png, png_bytep out, png_size_t length) {
    read_source *source = (read_source *)png_get_io_ptr(png);
    if (source->offset + length > source->length) png_error(png, "unexpected end of data (truncated PNG)");
    memcpy(out, source->data + source->offset, length);
    source->offset += length;
}

int cpng_decode(const uint8_t *data, size_t length, uint32_t max_width, uint32_t max_height,
                uint8_t **pixels, uint32_t *width, uint32_t *height, char *error, size_t error_size) {
    cpng_error_sink sink = {error, error_size};
    *pixels = NULL;
    if (length < 8 || png_sig_cmp(data, 0, 8) != 0) {
        snprintf(error, error_size, "not a PNG file (bad signature)");
        return -1;
    }
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &sink, cpng_on_error, cpng_on_warning);
    if (!png) {
        snprintf(error, error_size, "png_create_read_struct failed");
        return -1;
    }
    png_infop info = png_create_info_struct(png);
    png_bytep *volatile rows = NULL;
    uint8_t *volatile buffer = NULL;
    if (!info || setjmp(png_jmpbuf(png))) {
        free(rows);
        free(buffer);
        png_destroy_read_struct(&png, &info, NULL);
        if (!info) snprintf(error, error_size, "png_create_info_struct failed");
        return -1;
    }
    read_source source = {data, length, 0};
    png_set_read_fn(png, &source, read_from_memory);
    png_set_user_limits(png, max_width, max_height);
    png_read_info(png, info);
    png_uint_32 w = png_get_image_width(png, info);
    png_uint_32 h = png_get_image_height(png, info);
    png_set_expand(png);
    png_set_strip_16(png);
    png_set_gray_to_rgb(png);
    png_set_filler(png, 0xFF, PNG_FILLER_AFTER);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)w * 4) png_error(png, "unexpected row size after expansion");
    buffer = (uint8_t *)malloc((size_t)w * h * 4);
    rows = (png_bytep *)malloc(sizeof(png_bytep) * h);
    if (!buffer || !rows) png_error(png, "out of memory for the image");
    for (png_uint_32 y = 0; y < h; y++) rows[y] = buffer + (size_t)y * w * 4;
    png_read_image(png, rows);
    png_read_end(png, NULL);
    free(rows);
    png_destroy_read_struct(&png, &info, NULL);
    *pixels = buffer;
    *width = w;
    *height = h;
    return 0;
}

void cpng_buffer_free(cpng_buffer *buffer) {
    free(buffer->data);
    buffer->data = NULL;
    buffer->length = 0;
    buffer->capacity = 0;
}

void cpng_free(void *pointer) { free(pointer); }

int cpng_filter_none(void) { return PNG_FILTER_NONE; }
int cpng_filter_sub(void) { return PNG_FILTER_SUB; }
int cpng_filter_up(void) { return PNG_FILTER_UP; }
int cpng_filter_avg(void) { return PNG_FILTER_AVG; }
int cpng_filter_paeth(void) { return PNG_FILTER_PAETH; }
int cpng_filter_all(void) { return PNG_ALL_FILTERS; }
