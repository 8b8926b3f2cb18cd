// JPEG fixtures: libjpeg compress into a wif_buffer, and a full read-back checker.
#include "wif_jpeg.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>
#include <jerror.h>

// MARK: errors

typedef struct {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
    char *message;
    size_t capacity;
} wif_jpeg_error;

static void wif_jpeg_error_exit(j_common_ptr cinfo) {
    wif_jpeg_error *error = (wif_jpeg_error *)cinfo->err;
    if (error->capacity > 0) {
        char text[JMSG_LENGTH_MAX];
        (*cinfo->err->format_message)(cinfo, text);
        snprintf(error->message, error->capacity, "%s", text);
    }
    longjmp(error->jump, 1);
}

// Warnings would go to stderr by default; fixtures stay quiet.
static void wif_jpeg_output_message(j_common_ptr cinfo) { (void)cinfo; }

static void wif_jpeg_install_errors(wif_jpeg_error *error, char *message, size_t capacity) {
    jpeg_std_error(&error->pub);
    error->pub.error_exit = wif_jpeg_error_exit;
    error->pub.output_message = wif_jpeg_output_message;
    error->message = message;
    error->capacity = message ? capacity : 0;
    if (error->capacity) message[0] = 0;
}

// MARK: destination into a wif_buffer

enum { WIF_JPEG_CHUNK = 64 * 1024 };

typedef struct {
    struct jpeg_destination_mgr pub;
    wif_buffer *out;
    JOCTET chunk[WIF_JPEG_CHUNK];
} wif_jpeg_destination;

static void wif_jpeg_init_destination(j_compress_ptr cinfo) {
    wif_jpeg_destination *dest = (wif_jpeg_destination *)cinfo->dest;
    dest->pub.next_output_byte = dest->chunk;
    dest->pub.free_in_buffer = WIF_JPEG_CHUNK;
}

static boolean wif_jpeg_empty_output_buffer(j_compress_ptr cinfo) {
    wif_jpeg_destination *dest = (wif_jpeg_destination *)cinfo->dest;
    if (wif_buffer_append(dest->out, dest->chunk, WIF_JPEG_CHUNK) != 0) {
        ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 0);
    }
    dest->pub.next_output_byte = dest->chunk;
    dest->pub.free_in_buffer = WIF_JPEG_CHUNK;
    return TRUE;
}

static void wif_jpeg_term_destination(j_compress_ptr cinfo) {
    wif_jpeg_destination *dest = (wif_jpeg_destination *)cinfo->dest;
    size_t used = WIF_JPEG_CHUNK - dest->pub.free_in_buffer;
    if (wif_buffer_append(dest->out, dest->chunk, used) != 0) {
        ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 0);
    }
}

// MARK: EXIF

// A minimal little-endian TIFF holding IFD0 with one Orientation (0x0112) SHORT.
static void wif_jpeg_write_exif(j_compress_ptr cinfo, int orientation) {
    const JOCTET segment[] = {
        'E', 'x', 'i', 'f', 0, 0,
        'I', 'I', 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00,         // TIFF header, IFD0 at 8
        0x01, 0x00,                                           // one entry
        0x12, 0x01, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00,       // tag 0x0112, SHORT, count 1
        (JOCTET)orientation, 0x00, 0x00, 0x00,                // value, padded to 4 bytes
        0x00, 0x00, 0x00, 0x00,                               // no next IFD
    };
    jpeg_write_marker(cinfo, JPEG_APP0 + 1, segment, sizeof segment);
}

// MARK: encode

int wif_jpeg_encode(const uint8_t *pixels, size_t bytes_per_row,
                    uint32_t width, uint32_t height, int input,
                    const wif_jpeg_settings *settings, wif_buffer *out,
                    char *error_message, size_t error_capacity) {
    struct jpeg_compress_struct cinfo;
    wif_jpeg_error error;
    // The destination holds a 64 KiB chunk: heap, not stack.
    wif_jpeg_destination *volatile dest = calloc(1, sizeof(wif_jpeg_destination));
    wif_jpeg_install_errors(&error, error_message, error_capacity);
    if (dest == NULL) {
        if (error.capacity) snprintf(error_message, error_capacity, "out of memory");
        return -1;
    }
    cinfo.err = &error.pub;
    if (setjmp(error.jump)) {
        jpeg_destroy_compress(&cinfo);
        free(dest);
        wif_buffer_free(out);
        return -1;
    }
    jpeg_create_compress(&cinfo);

    dest->out = out;
    dest->pub.init_destination = wif_jpeg_init_destination;
    dest->pub.empty_output_buffer = wif_jpeg_empty_output_buffer;
    dest->pub.term_destination = wif_jpeg_term_destination;
    cinfo.dest = &dest->pub;

    cinfo.image_width = width;
    cinfo.image_height = height;
    switch (input) {
    case WIF_JPEG_INPUT_GRAY: cinfo.input_components = 1; cinfo.in_color_space = JCS_GRAYSCALE; break;
    case WIF_JPEG_INPUT_RGB: cinfo.input_components = 3; cinfo.in_color_space = JCS_RGB; break;
    case WIF_JPEG_INPUT_RGBA: cinfo.input_components = 4; cinfo.in_color_space = JCS_EXT_RGBA; break;
    default: ERREXIT1(&cinfo, JERR_BAD_IN_COLORSPACE, input);
    }
    jpeg_set_defaults(&cinfo);
    jpeg_set_quality(&cinfo, settings->quality, TRUE);
    if (cinfo.num_components == 3) {
        int h = settings->subsampling == WIF_JPEG_444 ? 1 : 2;
        int v = settings->subsampling == WIF_JPEG_420 ? 2 : 1;
        cinfo.comp_info[0].h_samp_factor = h;
        cinfo.comp_info[0].v_samp_factor = v;
        for (int c = 1; c < 3; c++) {
            cinfo.comp_info[c].h_samp_factor = 1;
            cinfo.comp_info[c].v_samp_factor = 1;
        }
    }
    if (settings->progressive) jpeg_simple_progression(&cinfo);
    if (settings->restart_interval > 0) cinfo.restart_interval = (unsigned)settings->restart_interval;
    int orientation = settings->exif_orientation;
    // Camera files carry EXIF instead of JFIF; APP1 then comes right after SOI.
    if (orientation >= 1 && orientation <= 8) cinfo.write_JFIF_header = FALSE;

    jpeg_start_compress(&cinfo, TRUE);
    if (orientation >= 1 && orientation <= 8) wif_jpeg_write_exif(&cinfo, orientation);
    while (cinfo.next_scanline < cinfo.image_height) {
        JSAMPROW row = (JSAMPROW)(pixels + (size_t)cinfo.next_scanline * bytes_per_row);
        jpeg_write_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    free(dest);
    return 0;
}

// MARK: inspect

int wif_jpeg_inspect(const uint8_t *data, size_t size, wif_jpeg_facts *facts,
                     uint8_t *pixels, size_t capacity,
                     char *error_message, size_t error_capacity) {
    struct jpeg_decompress_struct cinfo;
    wif_jpeg_error error;
    JSAMPLE *volatile scratch = NULL;
    memset(facts, 0, sizeof *facts);
    wif_jpeg_install_errors(&error, error_message, error_capacity);
    cinfo.err = &error.pub;
    if (setjmp(error.jump)) {
        jpeg_destroy_decompress(&cinfo);
        free(scratch);
        return -1;
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, data, (unsigned long)size);
    jpeg_save_markers(&cinfo, JPEG_APP0 + 1, 0xFFFF);
    jpeg_read_header(&cinfo, TRUE);

    facts->width = cinfo.image_width;
    facts->height = cinfo.image_height;
    facts->components = cinfo.num_components;
    facts->progressive = cinfo.progressive_mode ? 1 : 0;
    for (int c = 0; c < cinfo.num_components && c < 4; c++) {
        facts->h_samp[c] = cinfo.comp_info[c].h_samp_factor;
        facts->v_samp[c] = cinfo.comp_info[c].v_samp_factor;
    }
    for (jpeg_saved_marker_ptr marker = cinfo.marker_list; marker; marker = marker->next) {
        if (marker->marker == JPEG_APP0 + 1 && marker->data_length >= 6 &&
            memcmp(marker->data, "Exif\0\0", 6) == 0) {
            facts->has_exif = 1;
        }
    }

    jpeg_start_decompress(&cinfo);
    size_t row_bytes = (size_t)cinfo.output_width * (size_t)cinfo.output_components;
    scratch = malloc(row_bytes ? row_bytes : 1);
    if (scratch == NULL) ERREXIT1(&cinfo, JERR_OUT_OF_MEMORY, 0);
    while (cinfo.output_scanline < cinfo.output_height) {
        size_t offset = (size_t)cinfo.output_scanline * row_bytes;
        JSAMPROW row = (pixels && offset + row_bytes <= capacity) ? (JSAMPROW)(pixels + offset) : scratch;
        if (jpeg_read_scanlines(&cinfo, &row, 1) != 1) break;
        facts->scanlines_read++;
    }
    jpeg_finish_decompress(&cinfo);
    facts->warnings = (int)error.pub.num_warnings;
    jpeg_destroy_decompress(&cinfo);
    free(scratch);
    return 0;
}
