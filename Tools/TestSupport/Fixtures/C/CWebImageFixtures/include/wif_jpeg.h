// JPEG fixtures on libjpeg's compress API, and a checker that reads them back.
// libjpeg reports errors by longjmp; the setjmp frames live in wif_jpeg.c.
#ifndef WIF_JPEG_H
#define WIF_JPEG_H

#include <stddef.h>
#include <stdint.h>
#include "wif_buffer.h"

enum {
    WIF_JPEG_INPUT_GRAY = 1, // one byte per pixel
    WIF_JPEG_INPUT_RGB = 3,  // R, G, B
    WIF_JPEG_INPUT_RGBA = 4, // R, G, B, A; alpha is ignored
};

enum {
    WIF_JPEG_444 = 0,
    WIF_JPEG_422 = 1, // chroma halved horizontally
    WIF_JPEG_420 = 2, // chroma halved both ways
};

typedef struct wif_jpeg_settings {
    int quality;          // 1...100
    int subsampling;      // WIF_JPEG_444/422/420; ignored for gray
    int progressive;      // non-zero: libjpeg's standard progressive script
    int exif_orientation; // 1...8 writes an EXIF APP1 segment; 0 writes none
    int restart_interval; // MCUs between restart markers; 0 writes none
} wif_jpeg_settings;

/// Compresses `height` rows of `width` pixels (`input` bytes each, rows
/// `bytes_per_row` apart) into `out` (which must start empty).
/// Returns 0, or -1 with a message in `error_message` (and `out` emptied).
int wif_jpeg_encode(const uint8_t *pixels, size_t bytes_per_row,
                    uint32_t width, uint32_t height, int input,
                    const wif_jpeg_settings *settings, wif_buffer *out,
                    char *error_message, size_t error_capacity);

/// What libjpeg reads back from a file.
typedef struct wif_jpeg_facts {
    uint32_t width;
    uint32_t height;
    int components;
    int progressive;
    int h_samp[4];
    int v_samp[4];
    int has_exif;         // an APP1 segment starting "Exif\0\0" was seen
    int scanlines_read;   // rows the full decompression produced
    int warnings;         // libjpeg warnings (e.g. premature end of data)
} wif_jpeg_facts;

/// Decompresses the whole file with libjpeg to check that it is accepted, filling
/// `facts`; when `pixels` is not NULL also stores the decoded samples there
/// (width * components bytes per row, at most `capacity` bytes).
/// Returns 0, or -1 with a message.
int wif_jpeg_inspect(const uint8_t *data, size_t size, wif_jpeg_facts *facts,
                     uint8_t *pixels, size_t capacity,
                     char *error_message, size_t error_capacity);

#endif
