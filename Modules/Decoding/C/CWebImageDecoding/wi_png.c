#include "wi_png.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The chunk type IDAT as libpng names chunks: four ASCII bytes, big-endian.
#define WI_PNG_CHUNK_IDAT 0x49444154u

struct wi_png_reader {
    png_structp png;
    png_infop info;
    jmp_buf jump;
    uint64_t max_pixels;
    void *context;
    wi_png_allocate_fn allocate;
    uint8_t *pixels;     // owned by the caller (allocate)
    size_t row_bytes;
    wi_png_progress progress;
    int failed;          // sticky wi_png_status once an error happened
    int pending_error;   // status to report from the current error longjmp
    int zero_dimension;  // libpng warned that width or height is zero
    char message[256];
    uint8_t *exif;       // copy of the eXIf payload
    uint32_t exif_length;
};

// Longest eXIf payload kept; the orientation sits in the first few dozen bytes.
#define WI_PNG_EXIF_MAX 65536

static void on_error(png_structp png, png_const_charp text) {
    wi_png_reader *reader = png_get_error_ptr(png);
    if (reader->pending_error == WI_PNG_OK) {
        snprintf(reader->message, sizeof reader->message, "%s", text ? text : "libpng error");
    }
    longjmp(reader->jump, 1);
}

static void on_warning(png_structp png, png_const_charp text) {
    wi_png_reader *reader = png_get_error_ptr(png);
    if (text && (strstr(text, "width is zero") || strstr(text, "height is zero"))) reader->zero_dimension = 1;
}

// Reports an error of our own (limit, memory) through libpng's error path.
static void fail(wi_png_reader *reader, int status, const char *text) {
    reader->pending_error = status;
    snprintf(reader->message, sizeof reader->message, "%s", text);
    png_error(reader->png, text);
}

static void on_info(png_structp png, png_infop info) {
    wi_png_reader *reader = png_get_progressive_ptr(png);
    png_uint_32 width = 0, height = 0;
    int bit_depth = 0, color_type = 0, interlace = 0;
    png_get_IHDR(png, info, &width, &height, &bit_depth, &color_type, &interlace, NULL, NULL);
    if ((uint64_t)width * (uint64_t)height > reader->max_pixels) {
        char text[160];
        snprintf(text, sizeof text, "a %ux%u image needs %llu pixels; the limit is %llu",
                 width, height, (unsigned long long)width * height, (unsigned long long)reader->max_pixels);
        fail(reader, WI_PNG_ERROR_TOO_LARGE, text);
    }

    // Always 8-bit RGBA, straight alpha, no gamma: palette and low bit depths expand,
    // tRNS becomes alpha, 16-bit keeps its high byte, gray becomes RGB, opaque gets 255.
    png_set_expand(png);
    png_set_strip_16(png);
    png_set_gray_to_rgb(png);
    png_set_add_alpha(png, 0xFF, PNG_FILLER_AFTER);
    int passes = png_set_interlace_handling(png);
    (void)passes;
    png_read_update_info(png, info);

    reader->row_bytes = (size_t)width * 4;
    if (png_get_rowbytes(png, info) != reader->row_bytes) {
        fail(reader, WI_PNG_ERROR_HEADER, "unexpected row size after transforms");
    }
    reader->pixels = reader->allocate(reader->context, reader->row_bytes * height);
    if (!reader->pixels) fail(reader, WI_PNG_ERROR_NO_MEMORY, "out of memory for the pixels");

    wi_png_progress *p = &reader->progress;
    p->header_ready = 1;
    p->width = width;
    p->height = height;
    p->interlaced = interlace != PNG_INTERLACE_NONE;
    p->bit_depth = bit_depth;
    p->color_type = color_type;
}

static void on_row(png_structp png, png_bytep new_row, png_uint_32 row, int pass) {
    wi_png_reader *reader = png_get_progressive_ptr(png);
    wi_png_progress *p = &reader->progress;
    if (row >= p->height) return;
    // With interlace handling libpng calls back for every row of every pass (NULL
    // where the pass has no pixels in that row) and always ends with the last row of
    // pass 6, or of pass 0 for a plain image: that call means every pixel is in.
    p->current_pass = pass;
    if (pass == (p->interlaced ? 6 : 0) && row == p->height - 1) p->complete = 1;
    if (!new_row) return;
    uint8_t *dest = reader->pixels + (size_t)row * reader->row_bytes;
    if (reader->progress.interlaced) {
        // Merges this pass's pixels into the row; earlier passes' pixels stay.
        png_progressive_combine_row(png, dest, new_row);
    } else {
        memcpy(dest, new_row, reader->row_bytes);
    }
    p->rows_received++;
    p->last_row = row;
}

static void on_end(png_structp png, png_infop info) {
    (void)info;
    wi_png_reader *reader = png_get_progressive_ptr(png);
    reader->progress.finished = 1;
}

// libpng's progressive reader does not parse eXIf (1.6.39 hands it over as an
// unknown chunk), so the EXIF block is caught here. Returns 1: handled.
static int on_unknown_chunk(png_structp png, png_unknown_chunkp chunk) {
    wi_png_reader *reader = png_get_user_chunk_ptr(png);
    if (memcmp(chunk->name, "eXIf", 4) == 0 && !reader->exif && chunk->size > 0) {
        uint32_t length = chunk->size > WI_PNG_EXIF_MAX ? WI_PNG_EXIF_MAX : (uint32_t)chunk->size;
        reader->exif = malloc(length);
        if (reader->exif) {
            memcpy(reader->exif, chunk->data, length);
            reader->exif_length = length;
        }
    }
    return 1;
}

wi_png_reader *wi_png_reader_create(uint64_t max_pixels, void *context, wi_png_allocate_fn allocate) {
    wi_png_reader *reader = calloc(1, sizeof *reader);
    if (!reader) return NULL;
    reader->max_pixels = max_pixels;
    reader->context = context;
    reader->allocate = allocate;
    reader->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, reader, on_error, on_warning);
    if (!reader->png) { free(reader); return NULL; }
    reader->info = png_create_info_struct(reader->png);
    if (!reader->info) { png_destroy_read_struct(&reader->png, NULL, NULL); free(reader); return NULL; }
    if (setjmp(reader->jump)) {
        png_destroy_read_struct(&reader->png, &reader->info, NULL);
        free(reader);
        return NULL;
    }
    // Text, ICC and other metadata are never used here: skip them rather than
    // inflate them (a zTXt or iCCP bomb then costs nothing).
    static const png_byte ignored[] =
        "tEXt\0zTXt\0iTXt\0iCCP\0sPLT\0hIST\0pCAL\0sCAL\0tIME\0sTER\0";
    png_set_keep_unknown_chunks(reader->png, PNG_HANDLE_CHUNK_NEVER, ignored, (int)(sizeof ignored / 5));
    png_set_read_user_chunk_fn(reader->png, reader, on_unknown_chunk);
    png_set_progressive_read_fn(reader->png, reader, on_info, on_row, on_end);
    return reader;
}

void wi_png_reader_destroy(wi_png_reader *reader) {
    if (!reader) return;
    png_destroy_read_struct(&reader->png, &reader->info, NULL);
    free(reader->exif);
    free(reader);
}

int wi_png_reader_feed(wi_png_reader *reader, const uint8_t *bytes, size_t count) {
    if (reader->failed) return reader->failed;
    if (setjmp(reader->jump)) {
        int status = reader->pending_error;
        if (status == WI_PNG_OK) {
            if (reader->zero_dimension) status = WI_PNG_ERROR_DIMENSIONS;
            else status = reader->progress.header_ready ? WI_PNG_ERROR_DATA : WI_PNG_ERROR_HEADER;
        }
        reader->failed = status;
        return status;
    }
    png_process_data(reader->png, reader->info, (png_bytep)bytes, count);
    return WI_PNG_OK;
}

wi_png_progress wi_png_reader_progress(const wi_png_reader *reader) {
    wi_png_progress p = reader->progress;
    // Rows can all arrive before the IDAT chunk that holds them has been read to its
    // CRC (a lying chunk length, a cut file). Pixels count as complete only once
    // libpng has moved past the last IDAT chunk: to IEND, or to the next chunk header.
    p.complete = p.complete && (p.finished || png_get_io_chunk_type(reader->png) != WI_PNG_CHUNK_IDAT);
    p.exif = reader->exif;
    p.exif_length = reader->exif_length;
    return p;
}

const char *wi_png_reader_message(const wi_png_reader *reader) {
    return reader->message;
}
