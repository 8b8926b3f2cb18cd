// PNG writing on libpng's write API, into a growable memory buffer.
// libpng reports errors by longjmp; the setjmp frame lives here so that no longjmp
// crosses a Swift frame.
#ifndef WI_PNG_WRITE_H
#define WI_PNG_WRITE_H

#include <stddef.h>
#include <stdint.h>

/// Pixel layouts the writer accepts (8 bits per sample).
enum {
    WI_PNG_WRITE_GRAY = 1, // one byte per pixel, colour type gray
    WI_PNG_WRITE_RGBA = 4, // four bytes per pixel, colour type RGBA
    WI_PNG_WRITE_RGB_FROM_RGBA = 3, // four bytes per pixel in, colour type RGB out (alpha dropped)
};

/// Encodes `height` rows of `width` pixels, each row `bytes_per_row` apart.
/// `compression_level` is the zlib level 0...9, or -1 for libpng's default.
/// `interlaced` non-zero writes Adam7. `icc` (NULL for none) is an ICC profile of
/// `icc_length` bytes written as an iCCP chunk.
/// On success returns 0 and sets `*out_data` (free with wi_png_write_free) and
/// `*out_size`. On failure returns -1, leaves `*out_data` NULL and writes a message
/// into `error_message` (always NUL-terminated when `error_capacity` > 0).
int wi_png_write(const uint8_t *pixels, size_t bytes_per_row,
                 uint32_t width, uint32_t height, int channels,
                 int compression_level, int interlaced,
                 const uint8_t *icc, size_t icc_length,
                 uint8_t **out_data, size_t *out_size,
                 char *error_message, size_t error_capacity);

/// Frees a buffer returned by wi_png_write.
void wi_png_write_free(uint8_t *data);

#endif
