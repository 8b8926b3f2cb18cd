#include "wi_png.h"
#include "wi_png_chunks.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct wi_png_reader {
    png_structp png;
    png_infop info;
    jmp_buf jump;
    uint64_t max_pixels;
    void *context;
    wi_png_allocate_fn allocate;
    uint8_t *pixels;     // owned by the caller (allocate)
    size_t row_bytes;
    wi_png_wide_rows_fn wide_rows;  // set: 16-bit rows are converted, not stripped
    uint8_t *wide_pixels;           // an interlaced 16-bit file's passes, merged (malloc'd)
    wi_png_progress progress;
    int failed;          // sticky wi_png_status once an error happened
    int pending_error;   // status to report from the current error longjmp
    int zero_dimension;  // libpng warned that width or height is zero
    const char *zlib_damage; // set when libpng warned that the zlib stream is damaged
    char message[256];
    wi_png_chunks chunks;  // what libpng is handed (wi_png_chunks.h)
};

static void on_error(png_structp png, png_const_charp text) {
    wi_png_reader *reader = png_get_error_ptr(png);
    if (reader->pending_error == WI_PNG_OK) {
        snprintf(reader->message, sizeof reader->message, "%s", text ? text : "libpng error");
    }
    longjmp(reader->jump, 1);
}

static void on_warning(png_structp png, png_const_charp text) {
    wi_png_reader *reader = png_get_error_ptr(png);
    if (!text) return;
    if (strstr(text, "width is zero") || strstr(text, "height is zero")) reader->zero_dimension = 1;
    // libpng takes a wrong zlib checksum for a benign error, a warning in release
    // builds, and stops inflating. Where the checksum is read in the same inflate call
    // as the last row, that row never arrives ("ADLER32 checksum mismatch"); where it
    // comes in a later call, every row is in ("Truncated compressed data"). Either
    // way the stream is damaged, not cut short: both are reported as damage after the
    // feed, so that the verdict does not depend on how the bytes were sliced.
    if (strstr(text, "ADLER32 checksum mismatch")) {
        reader->zlib_damage = "the image data's zlib checksum (Adler-32) is wrong";
    } else if (strstr(text, "Truncated compressed data in IDAT")) {
        reader->zlib_damage = "the image data's zlib stream is damaged after its last row (Adler-32 checksum or end code)";
    }
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
    // tRNS becomes alpha, 16-bit keeps its high byte (or, with wide rows, all of it
    // until the caller's conversion), gray becomes RGB, opaque gets 255.
    int wide = reader->wide_rows && bit_depth == 16;
    png_set_expand(png);
    if (!wide) png_set_strip_16(png);
    png_set_gray_to_rgb(png);
    png_set_add_alpha(png, wide ? 0xFFFF : 0xFF, PNG_FILLER_AFTER);
    int passes = png_set_interlace_handling(png);
    (void)passes;
    png_read_update_info(png, info);

    reader->row_bytes = (size_t)width * 4;
    if (png_get_rowbytes(png, info) != reader->row_bytes * (wide ? 2 : 1)) {
        fail(reader, WI_PNG_ERROR_HEADER, "unexpected row size after transforms");
    }
    reader->pixels = reader->allocate(reader->context, reader->row_bytes * height);
    if (!reader->pixels) fail(reader, WI_PNG_ERROR_NO_MEMORY, "out of memory for the pixels");
    if (wide && interlace != PNG_INTERLACE_NONE) {
        // Adam7 merges each pass into the rows of the ones before: they wait at 16 bits.
        // Zeroed: a partial image converts whole rows, of which a pass fills some pixels.
        reader->wide_pixels = calloc(height, reader->row_bytes * 2);
        if (!reader->wide_pixels) fail(reader, WI_PNG_ERROR_NO_MEMORY, "out of memory for the 16-bit pixels");
        reader->progress.wide_pixels = reader->wide_pixels;
    }

    wi_png_progress *p = &reader->progress;
    p->wide = wide;
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
    int last = pass == (p->interlaced ? 6 : 0) && row == p->height - 1;
    if (new_row) {
        uint8_t *dest = reader->pixels + (size_t)row * reader->row_bytes;
        if (reader->wide_pixels) {
            png_progressive_combine_row(png, reader->wide_pixels + (size_t)row * reader->row_bytes * 2, new_row);
        } else if (p->wide) {
            reader->wide_rows(reader->context, new_row, dest, p->width);
        } else if (p->interlaced) {
            // Merges this pass's pixels into the row; earlier passes' pixels stay.
            png_progressive_combine_row(png, dest, new_row);
        } else {
            memcpy(dest, new_row, reader->row_bytes);
        }
        p->rows_received++;
        p->last_row = row;
    }
    if (last) {
        if (reader->wide_pixels) {
            reader->wide_rows(reader->context, reader->wide_pixels, reader->pixels, (size_t)p->width * p->height);
            free(reader->wide_pixels);
            reader->wide_pixels = NULL;
            p->wide_pixels = NULL;
        }
        p->complete = 1;
    }
}

static void on_end(png_structp png, png_infop info) {
    (void)info;
    wi_png_reader *reader = png_get_progressive_ptr(png);
    reader->progress.finished = 1;
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
    // Text, ICC and other metadata never reach libpng (wi_png_chunks.h): a zTXt or
    // iCCP bomb, or a million tEXt chunks, cost one pass over their bytes.
    wi_png_chunks_init(&reader->chunks);
    png_set_progressive_read_fn(reader->png, reader, on_info, on_row, on_end);
    return reader;
}

void wi_png_reader_set_wide_rows(wi_png_reader *reader, wi_png_wide_rows_fn convert) {
    reader->wide_rows = convert;
}

void wi_png_reader_destroy(wi_png_reader *reader) {
    if (!reader) return;
    free(reader->wide_pixels);
    png_destroy_read_struct(&reader->png, &reader->info, NULL);
    wi_png_chunks_free(&reader->chunks);
    free(reader);
}

// Hands bytes the chunk layer let through to libpng; errors longjmp out of it.
static int forward(void *context, const uint8_t *bytes, size_t count) {
    wi_png_reader *reader = context;
    png_process_data(reader->png, reader->info, (png_bytep)bytes, count);
    return 1;
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
    wi_png_chunks_status chunks = wi_png_chunks_feed(&reader->chunks, bytes, count, forward, reader);
    if (chunks != WI_PNG_CHUNKS_OK) {
        // A forward that failed longjmps to the setjmp above and never returns here.
        snprintf(reader->message, sizeof reader->message, "%s", reader->chunks.message);
        reader->failed = reader->progress.header_ready ? WI_PNG_ERROR_DATA : WI_PNG_ERROR_HEADER;
        return reader->failed;
    }
    if (reader->zlib_damage) {
        snprintf(reader->message, sizeof reader->message, "%s", reader->zlib_damage);
        reader->failed = WI_PNG_ERROR_DATA;
        return reader->failed;
    }
    return WI_PNG_OK;
}

wi_png_progress wi_png_reader_progress(const wi_png_reader *reader) {
    wi_png_progress p = reader->progress;
    // Rows can all arrive before the IDAT chunk that holds them has been read to its
    // CRC (a lying chunk length, a cut file). Pixels count as complete only once that
    // chunk has been read whole, CRC included, which libpng checks as it reads it.
    p.complete = p.complete && !wi_png_chunks_inside_idat(&reader->chunks);
    p.image_data_over = reader->chunks.idat_closed;
    p.exif = wi_png_chunks_exif(&reader->chunks, &p.exif_length);
    return p;
}

const char *wi_png_reader_message(const wi_png_reader *reader) {
    return reader->message;
}
