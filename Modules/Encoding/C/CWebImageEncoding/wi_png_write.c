// PNG writer: libpng write API into memory, errors caught with setjmp.
#include "wi_png_write.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    uint8_t *data;
    size_t size;
    size_t capacity;
    int failed; // set when the buffer could not grow
} wi_png_sink;

typedef struct {
    char *message;
    size_t capacity;
    char warning[128]; // libpng often warns with the detail, then errors in general terms
} wi_png_error_slot;

static void wi_png_write_data(png_structp png, png_bytep bytes, png_size_t length) {
    wi_png_sink *sink = (wi_png_sink *)png_get_io_ptr(png);
    if (length > SIZE_MAX - sink->size) {
        sink->failed = 1;
        png_error(png, "output larger than memory");
    }
    if (sink->size + length > sink->capacity) {
        // Doubling keeps appends amortised O(1); zlib hands us 8 KiB chunks.
        size_t capacity = sink->capacity ? sink->capacity : 64 * 1024;
        while (capacity < sink->size + length) {
            if (capacity > SIZE_MAX / 2) { capacity = sink->size + length; break; }
            capacity *= 2;
        }
        uint8_t *grown = realloc(sink->data, capacity);
        if (grown == NULL) {
            sink->failed = 1;
            png_error(png, "out of memory for the PNG output");
        }
        sink->data = grown;
        sink->capacity = capacity;
    }
    memcpy(sink->data + sink->size, bytes, length);
    sink->size += length;
}

static void wi_png_flush(png_structp png) { (void)png; }

static void wi_png_write_error(png_structp png, png_const_charp message) {
    wi_png_error_slot *slot = (wi_png_error_slot *)png_get_error_ptr(png);
    if (slot && slot->capacity > 0) {
        const char *text = message ? message : "libpng error";
        if (slot->warning[0]) {
            snprintf(slot->message, slot->capacity, "%s (%s)", text, slot->warning);
        } else {
            snprintf(slot->message, slot->capacity, "%s", text);
        }
    }
    png_longjmp(png, 1);
}

// Warnings do not stop writing; the first is kept to explain a following error.
static void wi_png_write_warning(png_structp png, png_const_charp message) {
    wi_png_error_slot *slot = (wi_png_error_slot *)png_get_error_ptr(png);
    if (slot && slot->warning[0] == 0 && message) {
        snprintf(slot->warning, sizeof slot->warning, "%s", message);
    }
}

int wi_png_write(const uint8_t *pixels, size_t bytes_per_row,
                 uint32_t width, uint32_t height, int channels,
                 int compression_level, int interlaced,
                 const uint8_t *icc, size_t icc_length,
                 uint8_t **out_data, size_t *out_size,
                 char *error_message, size_t error_capacity) {
    if (error_message && error_capacity > 0) error_message[0] = 0;
    *out_data = NULL;
    *out_size = 0;
    if (channels != WI_PNG_WRITE_GRAY && channels != WI_PNG_WRITE_RGBA && channels != WI_PNG_WRITE_RGB_FROM_RGBA) {
        if (error_message && error_capacity > 0) snprintf(error_message, error_capacity, "unsupported channel count %d", channels);
        return -1;
    }

    wi_png_error_slot slot = { error_message, error_message ? error_capacity : 0, { 0 } };
    // volatile: these change between setjmp and a possible longjmp.
    wi_png_sink *volatile sink = calloc(1, sizeof(wi_png_sink));
    png_structp png = NULL;
    png_infop info = NULL;
    if (sink == NULL) {
        if (slot.capacity) snprintf(slot.message, slot.capacity, "out of memory");
        return -1;
    }
    png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &slot, wi_png_write_error, wi_png_write_warning);
    if (png == NULL) {
        free(sink);
        if (slot.capacity) snprintf(slot.message, slot.capacity, "out of memory for libpng");
        return -1;
    }
    info = png_create_info_struct(png);
    if (info == NULL) {
        png_destroy_write_struct(&png, NULL);
        free(sink);
        if (slot.capacity) snprintf(slot.message, slot.capacity, "out of memory for libpng");
        return -1;
    }

    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(sink->data);
        free(sink);
        return -1;
    }

    png_set_write_fn(png, sink, wi_png_write_data, wi_png_flush);
    // The default user limits (a million pixels a side) guard readers; a writer may
    // use all that PNG allows.
    png_set_user_limits(png, PNG_UINT_31_MAX, PNG_UINT_31_MAX);
    if (compression_level >= 0) {
        png_set_compression_level(png, compression_level > 9 ? 9 : compression_level);
    }
    int color_type = channels == WI_PNG_WRITE_RGBA ? PNG_COLOR_TYPE_RGBA
                   : channels == WI_PNG_WRITE_RGB_FROM_RGBA ? PNG_COLOR_TYPE_RGB
                   : PNG_COLOR_TYPE_GRAY;
    png_set_IHDR(png, info, width, height, 8, color_type,
                 interlaced ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (icc && icc_length > 0 && icc_length <= PNG_UINT_31_MAX)
        png_set_iCCP(png, info, "ICC Profile", PNG_COMPRESSION_TYPE_BASE, icc, (png_uint_32)icc_length);
    png_write_info(png, info);
    // The rows stay RGBA; libpng skips the fourth byte of each pixel.
    if (channels == WI_PNG_WRITE_RGB_FROM_RGBA) png_set_filler(png, 0, PNG_FILLER_AFTER);

    // With Adam7, libpng picks each pass's pixels out of full rows, so every row
    // goes in once per pass.
    int passes = png_set_interlace_handling(png);
    for (int pass = 0; pass < passes; pass++) {
        for (uint32_t y = 0; y < height; y++) {
            png_write_row(png, (png_const_bytep)(pixels + (size_t)y * bytes_per_row));
        }
    }
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);

    *out_data = sink->data;
    *out_size = sink->size;
    free(sink);
    return 0;
}

void wi_png_write_free(uint8_t *data) { free(data); }
