#ifndef SNAPMAP_CPNG_SHARED_H
#define SNAPMAP_CPNG_SHARED_H
/* libpng callbacks shared by the encoders (not part of the module's interface). */
#include "cpng.h"
#include <png.h>

typedef struct {
    char *message;
    size_t size;
} cpng_error_sink;

/* Copies libpng's message into the sink given as the error pointer, then longjmps back into the shim. */
void cpng_on_error(png_structp png, png_const_charp message);
void cpng_on_warning(png_structp png, png_const_charp message);
/* Appends encoded bytes to the cpng_buffer given as the io pointer. */
void cpng_write_to_buffer(png_structp png, png_bytep data, png_size_t length);
void cpng_flush_nothing(png_structp png);
#endif
