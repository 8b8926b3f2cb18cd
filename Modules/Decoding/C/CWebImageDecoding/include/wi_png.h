// Push-mode PNG reading on libpng's progressive reader. Bytes are fed as they
// arrive; rows land in a buffer the caller allocates when the header is known.
// Every libpng call that may longjmp runs inside wi_png_reader_feed's setjmp frame.
#ifndef WI_PNG_H
#define WI_PNG_H

#include <stddef.h>
#include <stdint.h>

typedef struct wi_png_reader wi_png_reader;

/// Asked once, when the header is known, for the RGBA output buffer of
/// `byte_count` bytes. Returns NULL when out of memory. Must not call libpng.
typedef void *(*wi_png_allocate_fn)(void *context, size_t byte_count);

/// Converts `pixels` RGBA pixels of four big-endian 16-bit samples at `source` into
/// RGBA pixels of four bytes at `destination` (see wi_png_reader_set_wide_rows). Must
/// not call libpng.
typedef void (*wi_png_wide_rows_fn)(void *context, const uint8_t *source, uint8_t *destination, size_t pixels);

enum wi_png_status {
    WI_PNG_OK = 0,            // all bytes consumed, more may come
    WI_PNG_ERROR_HEADER = 1,  // signature or header chunk invalid
    WI_PNG_ERROR_DATA = 2,    // pixel data damaged (CRC, zlib, filter)
    WI_PNG_ERROR_DIMENSIONS = 3, // width or height zero
    WI_PNG_ERROR_TOO_LARGE = 4,  // over the caller's pixel limit
    WI_PNG_ERROR_NO_MEMORY = 5,
};

typedef struct wi_png_progress {
    int header_ready;          // width/height/interlaced are valid
    uint32_t width, height;
    int interlaced;            // Adam7
    int bit_depth, color_type; // as stored in IHDR
    uint64_t rows_received;    // rows with new pixels, all passes
    int current_pass;          // pass of the last row callback (0 when not interlaced)
    uint32_t last_row;         // image row index of the last row with new pixels
    int complete;              // every pixel has arrived and its IDAT chunk passed its CRC
    int wide;                  // 16-bit rows went through the wide-rows function
    const uint8_t *wide_pixels; // an interlaced wide file's passes merged so far (8 bytes a
                               // pixel, big-endian), until its last row; else NULL
    int finished;              // IEND read
    int image_data_over;       // IEND, or another chunk after the IDATs, has begun
    const uint8_t *exif;       // eXIf chunk payload when seen, else NULL
    uint32_t exif_length;
} wi_png_progress;

/// A reader that refuses images over `max_pixels` before allocating.
wi_png_reader *wi_png_reader_create(uint64_t max_pixels, void *context, wi_png_allocate_fn allocate);
void wi_png_reader_destroy(wi_png_reader *reader);

/// Asks for the samples of a 16-bit file whole: each row goes through `convert` into
/// the RGBA buffer instead of keeping the high byte of each sample. An interlaced file's
/// passes are merged in a 16-bit copy of the image first (8 bytes a pixel, freed once
/// every row is in). Files of 8 bits or fewer are read as without it. Call before the
/// feed that brings the first IDAT chunk (libpng reads the header there).
void wi_png_reader_set_wide_rows(wi_png_reader *reader, wi_png_wide_rows_fn convert);

/// Feeds bytes. Returns a wi_png_status; after an error the reader is finished and
/// wi_png_reader_message says why.
int wi_png_reader_feed(wi_png_reader *reader, const uint8_t *bytes, size_t count);

/// The progress so far (valid until the next feed or destroy).
wi_png_progress wi_png_reader_progress(const wi_png_reader *reader);

/// libpng's last error or warning text, never NULL.
const char *wi_png_reader_message(const wi_png_reader *reader);

#endif
