// GIF fixtures on giflib's EGif API: still or animated, into a wif_buffer.
#ifndef WIF_GIF_H
#define WIF_GIF_H

#include <stddef.h>
#include <stdint.h>
#include "wif_buffer.h"

/// One image of the file: palette indices for its rectangle, row by row.
typedef struct wif_gif_frame {
    const uint8_t *indices;        // width * height bytes, rows top to bottom
    int left, top, width, height;  // the rectangle on the logical screen
    const uint8_t *local_palette;  // RGB triples, or NULL to use the global table
    int local_count;               // entries in local_palette, 1...256
    int delay_cs;                  // delay in centiseconds
    int disposal;                  // 0 unspecified, 1 none, 2 background, 3 previous
    int transparent_index;         // 0...255, or -1 for none
    int interlaced;                // non-zero: rows stored in the four interlace passes
    int write_control;             // non-zero: write a Graphic Control Extension
} wif_gif_frame;

/// The file as a whole.
typedef struct wif_gif_file {
    int screen_width, screen_height;
    const uint8_t *global_palette; // RGB triples, or NULL for no global table
    int global_count;              // entries, 1...256
    int background_index;
    int loop_count;                // NETSCAPE2.0 loop count (0 = forever), or -1 for none
} wif_gif_file;

/// Writes the file into `out` (which must start empty). Palettes are padded with
/// black to the next power of two, as GIF requires.
/// Returns 0, or -1 with a message in `error_message` (and `out` emptied).
int wif_gif_encode(const wif_gif_file *file, const wif_gif_frame *frames, int frame_count,
                   wif_buffer *out, char *error_message, size_t error_capacity);

#endif
