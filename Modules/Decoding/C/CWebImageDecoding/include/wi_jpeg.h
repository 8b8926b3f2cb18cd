// JPEG decoding on libjpeg-turbo's libjpeg API, as a resumable state machine.
//
// libjpeg reports errors by longjmp, so every call into it happens here, under a
// setjmp in wi_jpeg.c; Swift only ever sees status codes. The input is a suspending
// data source: when bytes run out the decoder returns WI_JPEG_NEED_DATA and resumes
// from the same place after wi_jpeg_append. The same engine runs a one-shot decode
// (all bytes given, then end of data) and an incremental one.
#ifndef WI_JPEG_H
#define WI_JPEG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct wi_jpeg wi_jpeg;

/// What wi_jpeg_step stopped for.
typedef enum {
    WI_JPEG_NEED_DATA = 0,    ///< suspended: append more bytes (or declare the end)
    WI_JPEG_HEADER_READY = 1, ///< header read: call wi_jpeg_configure, then wi_jpeg_set_output
    WI_JPEG_ROWS_READY = 2,   ///< strip mode: the strip holds rows to consume
    WI_JPEG_DONE = 3,         ///< every row produced and the decode finished
    WI_JPEG_FAILED = 4,       ///< see wi_jpeg_error and wi_jpeg_message
} wi_jpeg_status;

/// Why the decode failed.
typedef enum {
    WI_JPEG_OK = 0,
    WI_JPEG_ERR_NOT_JPEG,        ///< no SOI: not a JPEG file
    WI_JPEG_ERR_DIMENSIONS,      ///< width or height 0
    WI_JPEG_ERR_UNSUPPORTED,     ///< 12-bit, lossless, a colour space libjpeg cannot convert
    WI_JPEG_ERR_CORRUPT,         ///< any other libjpeg error
    WI_JPEG_ERR_TRUNCATED,       ///< the data ended where libjpeg needed more
    WI_JPEG_ERR_NO_MEMORY,
    WI_JPEG_ERR_TOO_LARGE,       ///< over libjpeg's own dimension limit
    WI_JPEG_ERR_TOO_MANY_SCANS,  ///< more scans than WI_JPEG_MAX_SCANS (a known CPU bomb)
    WI_JPEG_ERR_MISUSE,          ///< calls out of order
} wi_jpeg_error_code;

/// Colour models of the stored data that matter to the caller.
typedef enum {
    WI_JPEG_COLOR_GRAY = 0,
    WI_JPEG_COLOR_YCBCR,
    WI_JPEG_COLOR_RGB,
    WI_JPEG_COLOR_CMYK,   ///< CMYK or YCCK: decoded as CMYK, converted to RGB here
    WI_JPEG_COLOR_OTHER,
} wi_jpeg_color;

/// Progressive files with more scans than this are refused: each scan costs a pass
/// over the whole coefficient buffer, and crafted files use thousands.
#define WI_JPEG_MAX_SCANS 1000

/// Header facts, valid after WI_JPEG_HEADER_READY.
typedef struct {
    uint32_t width;
    uint32_t height;
    int components;
    wi_jpeg_color color;
    int progressive;      ///< SOF2 (progressive Huffman) or SOF10
    int multiple_scans;   ///< libjpeg must buffer the whole image's coefficients
    int arithmetic;       ///< arithmetic-coded: libjpeg cannot suspend inside its scans
} wi_jpeg_header;

/// A decoder. `incremental` selects buffered-image mode for multi-scan files (a
/// partial image per scan) and waits for every byte before decoding an arithmetic-
/// coded scan; a one-shot decode passes 0. Returns NULL when out of memory.
wi_jpeg *wi_jpeg_create(int incremental);
void wi_jpeg_destroy(wi_jpeg *decoder);

/// Copies `length` more bytes of the file; keeps the bytes not consumed yet.
/// Returns 0 when out of memory (the decoder is then failed).
int wi_jpeg_append(wi_jpeg *decoder, const void *bytes, size_t length);
/// Uses the caller's whole file in place, and marks the end of data. The bytes must
/// stay valid until the decoder is destroyed or done.
void wi_jpeg_borrow(wi_jpeg *decoder, const void *bytes, size_t length);
/// No more data will come: from now on a read past the end sees an EOI marker and
/// libjpeg's "Premature end of JPEG file" warning, as with its stdio source.
void wi_jpeg_end_of_data(wi_jpeg *decoder);

/// Runs until more input, a decision of the caller, or the end is needed.
wi_jpeg_status wi_jpeg_step(wi_jpeg *decoder);

void wi_jpeg_get_header(const wi_jpeg *decoder, wi_jpeg_header *header);
/// The first APP1 segment that starts with "Exif\0\0", without those 6 bytes.
/// Returns 0 when there is none.
int wi_jpeg_exif(const wi_jpeg *decoder, const uint8_t **bytes, size_t *length);

/// Longest ICC profile kept from APP2 segments, in bytes (ColorProfile.maximumByteCount).
#define WI_JPEG_ICC_MAX (4u << 20)

/// What the APP2 ICC_PROFILE segments read with the header hold.
typedef enum {
    WI_JPEG_ICC_NONE = 0,     ///< no ICC_PROFILE segment
    WI_JPEG_ICC_OK,           ///< the profile, reassembled
    WI_JPEG_ICC_BROKEN,       ///< segments missing, repeated, or numbered inconsistently
    WI_JPEG_ICC_TOO_LARGE,    ///< more than WI_JPEG_ICC_MAX bytes in all
} wi_jpeg_icc_status;

/// The ICC profile of the file's APP2 ICC_PROFILE segments, in sequence order whatever
/// their order in the file, after WI_JPEG_HEADER_READY. The bytes belong to the decoder.
wi_jpeg_icc_status wi_jpeg_icc(wi_jpeg *decoder, const uint8_t **bytes, size_t *length);

/// Leaves the rows of a CMYK or YCCK file as libjpeg's CMYK (4 bytes, Adobe-inverted
/// as libjpeg reports them) for the caller to convert, instead of converting them to
/// RGBA with djpeg's formula. Call before wi_jpeg_set_output.
void wi_jpeg_keep_cmyk(wi_jpeg *decoder, int keep);

/// Chooses the output: scale `scale_eighths`/8 (1...16), gray (1 byte a pixel) or RGBA
/// (4 bytes; CMYK files always give RGBA). Writes the output size. Returns 0 on
/// failure (see wi_jpeg_error). Call after WI_JPEG_HEADER_READY, before set_output.
int wi_jpeg_configure(wi_jpeg *decoder, int scale_eighths, int gray, uint32_t *width, uint32_t *height,
                      int *bytes_per_pixel);
/// Where rows go. `strip_rows` 0: `base` holds the whole output, row y at
/// base + y * stride. `strip_rows` > 0: `base` holds that many rows, refilled from the
/// top each time; WI_JPEG_ROWS_READY hands them over. Returns 0 when out of memory.
int wi_jpeg_set_output(wi_jpeg *decoder, uint8_t *base, size_t stride, uint32_t strip_rows);

/// Rows of the output (from the top) holding decoded pixels; after the first pass
/// of a progressive file, all of them.
uint32_t wi_jpeg_rows_valid(const wi_jpeg *decoder);
/// Grows each time more pixels become visible in the output.
uint64_t wi_jpeg_revision(const wi_jpeg *decoder);
/// In strip mode after WI_JPEG_ROWS_READY: the output row of the strip's first row,
/// and how many rows the strip holds.
void wi_jpeg_strip(const wi_jpeg *decoder, uint32_t *first_row, uint32_t *row_count);
/// After WI_JPEG_DONE: 1 when the data ended before every pixel was decoded (libjpeg
/// padded the rest), 0 when only trailing markers such as EOI were missing.
int wi_jpeg_pixels_missing(const wi_jpeg *decoder);
/// Number of warnings libjpeg emitted (corrupt data it recovered from).
uint32_t wi_jpeg_warning_count(const wi_jpeg *decoder);

wi_jpeg_error_code wi_jpeg_error(const wi_jpeg *decoder);
/// libjpeg's formatted message for the failure, or "" when none.
const char *wi_jpeg_message(const wi_jpeg *decoder);

#ifdef __cplusplus
}
#endif

#endif
