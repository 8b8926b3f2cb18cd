// The JPEG state machine behind wi_jpeg.h. Every libjpeg call runs under the setjmp
// of the public function that made it, so error_exit's longjmp lands in C.
#include "wi_jpeg.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>

enum state {
    S_HEADER,   // reading markers up to the first SOS
    S_CONFIG,   // header known; waiting for configure + set_output
    S_START,    // jpeg_start_decompress
    S_ROWS,     // single pass: jpeg_read_scanlines
    S_CONSUME,  // buffered image: absorbing input scans
    S_OUTPUT,   // buffered image: an output pass
    S_FINISH,   // jpeg_finish_decompress
    S_DONE,
    S_FAILED,
};

struct wi_jpeg {
    // libjpeg's struct first, so callbacks can cast their cinfo back to us.
    struct jpeg_decompress_struct cinfo;
    struct jpeg_error_mgr errors;
    struct jpeg_source_mgr source;
    struct jpeg_progress_mgr progress;
    jmp_buf jump;
    int created;

    enum state state;
    int incremental;
    int buffered;       // buffered-image mode (incremental multi-scan files)
    int configured;

    // Input. `owned` holds appended bytes; the unconsumed ones always start at
    // source.next_input_byte, which is where libjpeg backs up to when it suspends.
    uint8_t *owned;
    size_t owned_capacity;
    size_t skip_pending;  // bytes skip_input_data asked for beyond what we had
    // A suspended libjpeg reads its backed-up bytes again when resumed (a whole marker
    // segment, or an MCU). It is resumed only once as many new bytes have come, so
    // that re-reading costs at most twice the input however thin the slices.
    size_t backlog;        // unconsumed bytes at the last suspension
    size_t fresh;          // bytes appended since then
    uint64_t total_in;     // bytes appended in all
    uint64_t in_at_pass;   // total_in when the last partial output pass began
    int end_of_data;
    int eof_hit;           // a fake EOI was handed to libjpeg
    int eof_mid_rows;      // ...while more than the current iMCU row was still to come
    int hit_marker_after_eof;

    // Output.
    uint8_t *base;
    size_t stride;
    uint32_t strip_rows;   // 0: whole image
    uint32_t strip_fill;
    uint32_t strip_first, strip_count;
    JSAMPROW *rows;
    int cmyk;
    uint32_t rows_valid;
    uint64_t revision;

    // Buffered-image passes.
    int pass_scan;
    int shown_scan;
    int output_started;
    int final_pass;

    // The first Exif APP1 segment's TIFF data (after "Exif\0\0"), ours to free.
    uint8_t *exif;
    size_t exif_length;
    int exif_seen;

    // APP2 ICC_PROFILE chunks by sequence number (1...count), each a copy ours to free.
    uint8_t *icc_chunk[256];
    uint16_t icc_chunk_length[256];
    int icc_count;          // the chunk count the first segment declared; 0 before
    size_t icc_total;
    wi_jpeg_icc_status icc_status;
    uint8_t *icc;           // reassembled on request
    size_t icc_length;
    int keep_cmyk;

    int pixels_missing;
    uint32_t warnings;
    wi_jpeg_error_code error;
    char message[JMSG_LENGTH_MAX];
};

static const JOCTET fake_eoi[2] = {0xFF, JPEG_EOI};

// MARK: Errors

static wi_jpeg_error_code classify(int code) {
    switch (code) {
    case JERR_NO_SOI:
        return WI_JPEG_ERR_NOT_JPEG;
    case JERR_EMPTY_IMAGE:
        return WI_JPEG_ERR_DIMENSIONS;
    case JERR_BAD_PRECISION:
    case JERR_SOF_UNSUPPORTED:
    case JERR_CONVERSION_NOTIMPL:
    case JERR_NOT_COMPILED:
    case JERR_NOTIMPL:
        return WI_JPEG_ERR_UNSUPPORTED;
    case JERR_OUT_OF_MEMORY:
        return WI_JPEG_ERR_NO_MEMORY;
    case JERR_IMAGE_TOO_BIG:
    case JERR_WIDTH_OVERFLOW:
        return WI_JPEG_ERR_TOO_LARGE;
    default:
        return WI_JPEG_ERR_CORRUPT;
    }
}

static void fail(struct wi_jpeg *d, wi_jpeg_error_code code, const char *message) {
    d->error = code;
    snprintf(d->message, sizeof d->message, "%s", message);
    d->state = S_FAILED;
}

static void on_error_exit(j_common_ptr cinfo) {
    struct wi_jpeg *d = (struct wi_jpeg *)cinfo;
    (*cinfo->err->format_message)(cinfo, d->message);
    // Once the data has run out, whatever libjpeg trips over next is a consequence.
    d->error = d->eof_hit ? WI_JPEG_ERR_TRUNCATED : classify(cinfo->err->msg_code);
    if (cinfo->err->msg_code == JERR_OUT_OF_MEMORY) d->error = WI_JPEG_ERR_NO_MEMORY;
    longjmp(d->jump, 1);
}

static void on_emit_message(j_common_ptr cinfo, int level) {
    struct wi_jpeg *d = (struct wi_jpeg *)cinfo;
    if (level >= 0) return;  // trace messages
    d->warnings++;
    // The entropy decoder ran into the fake EOI while it still needed bits: pixels
    // of this scan are missing, not just a trailing marker.
    if (cinfo->err->msg_code == JWRN_HIT_MARKER && d->eof_hit) d->hit_marker_after_eof = 1;
}

static void on_output_message(j_common_ptr cinfo) { (void)cinfo; }

static void on_progress(j_common_ptr cinfo) {
    struct wi_jpeg *d = (struct wi_jpeg *)cinfo;
    if (d->cinfo.input_scan_number > WI_JPEG_MAX_SCANS) {
        snprintf(d->message, sizeof d->message, "more than %d scans", WI_JPEG_MAX_SCANS);
        d->error = WI_JPEG_ERR_TOO_MANY_SCANS;
        longjmp(d->jump, 1);
    }
}

// MARK: Suspending source

static void src_init(j_decompress_ptr cinfo) { (void)cinfo; }
static void src_term(j_decompress_ptr cinfo) { (void)cinfo; }

static boolean src_fill(j_decompress_ptr cinfo) {
    struct wi_jpeg *d = (struct wi_jpeg *)cinfo;
    if (!d->end_of_data) return FALSE;  // suspend; libjpeg resumes after the next append
    if (!d->eof_hit) {
        d->eof_hit = 1;
        if (d->state == S_ROWS && cinfo->input_iMCU_row + 1 < cinfo->total_iMCU_rows) d->eof_mid_rows = 1;
        WARNMS(cinfo, JWRN_JPEG_EOF);
    }
    d->source.next_input_byte = fake_eoi;
    d->source.bytes_in_buffer = sizeof fake_eoi;
    return TRUE;
}

static void src_skip(j_decompress_ptr cinfo, long count) {
    struct wi_jpeg *d = (struct wi_jpeg *)cinfo;
    if (count <= 0) return;
    size_t n = (size_t)count;
    if (n <= d->source.bytes_in_buffer) {
        d->source.next_input_byte += n;
        d->source.bytes_in_buffer -= n;
    } else {
        // Skipping a marker longer than what has arrived: drop the rest as it comes.
        d->skip_pending += n - d->source.bytes_in_buffer;
        d->source.next_input_byte += d->source.bytes_in_buffer;
        d->source.bytes_in_buffer = 0;
    }
}

// MARK: APP1

// libjpeg-turbo before 3.0.4 appends each saved marker to its list by walking the
// whole list, so a file of N APP1 segments cost N^2 with jpeg_save_markers. We read
// APP1 ourselves instead: the first segment that starts "Exif\0\0" is copied (64 KiB
// at most, by the segment length's width), every other one is skipped as libjpeg
// skips the APPn markers it does not know. Each segment costs its length, once.

// Declares that the bytes a segment needs are not all here. With more to come, libjpeg
// suspends and calls the processor again from the segment start once they arrive. At
// the end of the data, the segment is cut: the fake EOI that follows makes the error a
// truncation.
static boolean app1_needs_more(j_decompress_ptr cinfo) {
    struct wi_jpeg *d = (struct wi_jpeg *)cinfo;
    if (!d->end_of_data) return FALSE;
    d->source.bytes_in_buffer = 0;
    return (*d->source.fill_input_buffer)(cinfo);
}

static boolean read_app1(j_decompress_ptr cinfo) {
    struct wi_jpeg *d = (struct wi_jpeg *)cinfo;
    struct jpeg_source_mgr *src = cinfo->src;
    if (src->bytes_in_buffer < 2) return app1_needs_more(cinfo);
    const JOCTET *p = src->next_input_byte;
    size_t length = ((size_t)p[0] << 8) | p[1];
    if (length < 2) ERREXIT(cinfo, JERR_BAD_LENGTH);
    size_t body = length - 2;
    static const JOCTET exif_prefix[6] = {'E', 'x', 'i', 'f', 0, 0};
    if (!d->exif_seen && body >= sizeof exif_prefix) {
        if (src->bytes_in_buffer < 2 + sizeof exif_prefix) return app1_needs_more(cinfo);
        if (memcmp(p + 2, exif_prefix, sizeof exif_prefix) == 0) {
            if (src->bytes_in_buffer < length) return app1_needs_more(cinfo);
            d->exif_seen = 1;
            size_t tiff = body - sizeof exif_prefix;
            if (tiff > 0 && (d->exif = malloc(tiff)) != NULL) {
                memcpy(d->exif, p + 2 + sizeof exif_prefix, tiff);
                d->exif_length = tiff;
            }
        }
    }
    src->next_input_byte += 2;
    src->bytes_in_buffer -= 2;
    if (body > 0) (*src->skip_input_data)(cinfo, (long)body);
    return TRUE;
}

// MARK: APP2

// ICC profiles ride in APP2 segments that start "ICC_PROFILE\0", a sequence number and
// a chunk count, each segment a slot of its own: a file may store them in any order,
// and they are put together in one pass when asked. Read as APP1 is (see above): each
// segment costs its length, once, and the kept bytes are bounded by WI_JPEG_ICC_MAX.
static void icc_mark(struct wi_jpeg *d, wi_jpeg_icc_status status) {
    if (d->icc_status == WI_JPEG_ICC_NONE || d->icc_status == WI_JPEG_ICC_OK) d->icc_status = status;
}

static void icc_keep(struct wi_jpeg *d, const JOCTET *chunk, size_t length, int sequence, int count) {
    if (d->icc_status != WI_JPEG_ICC_NONE && d->icc_status != WI_JPEG_ICC_OK) return;
    if (count == 0 || sequence == 0 || sequence > count || (d->icc_count && count != d->icc_count) ||
        d->icc_chunk[sequence]) {
        icc_mark(d, WI_JPEG_ICC_BROKEN);
        return;
    }
    if (d->icc_total + length > WI_JPEG_ICC_MAX) {
        icc_mark(d, WI_JPEG_ICC_TOO_LARGE);
        return;
    }
    uint8_t *copy = malloc(length ? length : 1);
    if (!copy) {
        icc_mark(d, WI_JPEG_ICC_BROKEN);
        return;
    }
    memcpy(copy, chunk, length);
    d->icc_chunk[sequence] = copy;
    d->icc_chunk_length[sequence] = (uint16_t)length;
    d->icc_count = count;
    d->icc_total += length;
    d->icc_status = WI_JPEG_ICC_OK;
}

static boolean read_app2(j_decompress_ptr cinfo) {
    struct wi_jpeg *d = (struct wi_jpeg *)cinfo;
    struct jpeg_source_mgr *src = cinfo->src;
    if (src->bytes_in_buffer < 2) return app1_needs_more(cinfo);
    const JOCTET *p = src->next_input_byte;
    size_t length = ((size_t)p[0] << 8) | p[1];
    if (length < 2) ERREXIT(cinfo, JERR_BAD_LENGTH);
    size_t body = length - 2;
    static const JOCTET icc_prefix[12] = {'I', 'C', 'C', '_', 'P', 'R', 'O', 'F', 'I', 'L', 'E', 0};
    if (body >= sizeof icc_prefix + 2) {
        if (src->bytes_in_buffer < 2 + sizeof icc_prefix) return app1_needs_more(cinfo);
        if (memcmp(p + 2, icc_prefix, sizeof icc_prefix) == 0) {
            if (src->bytes_in_buffer < length) return app1_needs_more(cinfo);
            const JOCTET *chunk = p + 2 + sizeof icc_prefix;
            icc_keep(d, chunk + 2, body - sizeof icc_prefix - 2, chunk[0], chunk[1]);
        }
    }
    src->next_input_byte += 2;
    src->bytes_in_buffer -= 2;
    if (body > 0) (*src->skip_input_data)(cinfo, (long)body);
    return TRUE;
}

wi_jpeg_icc_status wi_jpeg_icc(wi_jpeg *d, const uint8_t **bytes, size_t *length) {
    if (d->state == S_HEADER || d->icc_status != WI_JPEG_ICC_OK) return d->icc_status;
    if (!d->icc) {
        for (int i = 1; i <= d->icc_count; i++)
            if (!d->icc_chunk[i]) return WI_JPEG_ICC_BROKEN;
        d->icc = malloc(d->icc_total ? d->icc_total : 1);
        if (!d->icc) return WI_JPEG_ICC_BROKEN;
        size_t at = 0;
        for (int i = 1; i <= d->icc_count; i++) {
            memcpy(d->icc + at, d->icc_chunk[i], d->icc_chunk_length[i]);
            at += d->icc_chunk_length[i];
        }
        d->icc_length = at;
    }
    *bytes = d->icc;
    *length = d->icc_length;
    return WI_JPEG_ICC_OK;
}

void wi_jpeg_keep_cmyk(wi_jpeg *d, int keep) { d->keep_cmyk = keep; }

// MARK: Life cycle

wi_jpeg *wi_jpeg_create(int incremental) {
    struct wi_jpeg *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->incremental = incremental;
    d->cinfo.err = jpeg_std_error(&d->errors);
    d->errors.error_exit = on_error_exit;
    d->errors.emit_message = on_emit_message;
    d->errors.output_message = on_output_message;
    if (setjmp(d->jump)) {
        if (d->created) jpeg_destroy_decompress(&d->cinfo);
        free(d);
        return NULL;
    }
    jpeg_create_decompress(&d->cinfo);
    d->created = 1;
    d->source.init_source = src_init;
    d->source.fill_input_buffer = src_fill;
    d->source.skip_input_data = src_skip;
    d->source.resync_to_restart = jpeg_resync_to_restart;
    d->source.term_source = src_term;
    d->cinfo.src = &d->source;
    d->progress.progress_monitor = on_progress;
    d->cinfo.progress = &d->progress;
    // EXIF lives in APP1 (see read_app1). APP0 and APP14 keep libjpeg's own reader
    // (JFIF and Adobe colour transform); ICC profiles live in APP2 (see read_app2); COM
    // and every other APPn are skipped unsaved.
    jpeg_set_marker_processor(&d->cinfo, JPEG_APP0 + 1, read_app1);
    jpeg_set_marker_processor(&d->cinfo, JPEG_APP0 + 2, read_app2);
    d->state = S_HEADER;
    return d;
}

void wi_jpeg_destroy(wi_jpeg *d) {
    if (!d) return;
    if (d->created) jpeg_destroy_decompress(&d->cinfo);
    free(d->rows);
    free(d->owned);
    free(d->exif);
    for (int i = 0; i < 256; i++) free(d->icc_chunk[i]);
    free(d->icc);
    free(d);
}

// MARK: Input

int wi_jpeg_append(wi_jpeg *d, const void *bytes, size_t length) {
    if (d->state == S_FAILED || d->end_of_data) return 1;
    const uint8_t *in = bytes;
    if (d->skip_pending) {
        size_t n = d->skip_pending < length ? d->skip_pending : length;
        in += n;
        length -= n;
        d->skip_pending -= n;
    }
    if (length == 0) return 1;
    d->fresh += length;
    d->total_in += length;
    // The unconsumed bytes stay where they are while there is room after them; they
    // move to the front only once at least half the buffer before them is consumed,
    // and the buffer doubles when it is over half full: each byte is copied O(1)
    // times however the input is sliced.
    size_t keep = d->source.bytes_in_buffer;
    size_t offset = keep ? (size_t)(d->source.next_input_byte - d->owned) : 0;
    if (d->owned && offset + keep + length <= d->owned_capacity) {
        if (!keep) d->source.next_input_byte = d->owned;
    } else if (keep + length <= d->owned_capacity / 2) {
        memmove(d->owned, d->source.next_input_byte, keep);
        d->source.next_input_byte = d->owned;
        offset = 0;
    } else {
        size_t capacity = d->owned_capacity ? d->owned_capacity * 2 : 64 * 1024;
        if (capacity < 2 * (keep + length)) capacity = 2 * (keep + length);
        uint8_t *grown = malloc(capacity);
        if (!grown) {
            fail(d, WI_JPEG_ERR_NO_MEMORY, "out of memory for the input buffer");
            return 0;
        }
        if (keep) memcpy(grown, d->source.next_input_byte, keep);
        free(d->owned);
        d->owned = grown;
        d->owned_capacity = capacity;
        d->source.next_input_byte = grown;
        offset = 0;
    }
    memcpy(d->owned + offset + keep, in, length);
    d->source.bytes_in_buffer = keep + length;
    return 1;
}

void wi_jpeg_borrow(wi_jpeg *d, const void *bytes, size_t length) {
    d->source.next_input_byte = bytes;
    d->source.bytes_in_buffer = length;
    d->end_of_data = 1;
}

void wi_jpeg_end_of_data(wi_jpeg *d) { d->end_of_data = 1; }

// MARK: Header and configuration

void wi_jpeg_get_header(const wi_jpeg *d, wi_jpeg_header *h) {
    memset(h, 0, sizeof *h);
    if (d->state == S_HEADER || d->state == S_FAILED) return;
    const struct jpeg_decompress_struct *c = &d->cinfo;
    h->width = c->image_width;
    h->height = c->image_height;
    h->components = c->num_components;
    switch (c->jpeg_color_space) {
    case JCS_GRAYSCALE: h->color = WI_JPEG_COLOR_GRAY; break;
    case JCS_YCbCr: h->color = WI_JPEG_COLOR_YCBCR; break;
    case JCS_RGB: h->color = WI_JPEG_COLOR_RGB; break;
    case JCS_CMYK:
    case JCS_YCCK: h->color = WI_JPEG_COLOR_CMYK; break;
    default: h->color = WI_JPEG_COLOR_OTHER; break;
    }
    h->progressive = c->progressive_mode;
    h->multiple_scans = jpeg_has_multiple_scans((j_decompress_ptr)c);
    h->arithmetic = c->arith_code;
}

int wi_jpeg_exif(const wi_jpeg *d, const uint8_t **bytes, size_t *length) {
    if (d->state == S_HEADER || d->state == S_FAILED || !d->exif) return 0;
    *bytes = d->exif;
    *length = d->exif_length;
    return 1;
}

int wi_jpeg_configure(wi_jpeg *d, int scale_eighths, int gray, uint32_t *width, uint32_t *height,
                      int *bytes_per_pixel) {
    if (d->state != S_CONFIG || scale_eighths < 1 || scale_eighths > 16) {
        fail(d, WI_JPEG_ERR_MISUSE, "configure called out of order or with a bad scale");
        return 0;
    }
    if (setjmp(d->jump)) {
        d->state = S_FAILED;
        return 0;
    }
    struct jpeg_decompress_struct *c = &d->cinfo;
    if (c->jpeg_color_space == JCS_CMYK || c->jpeg_color_space == JCS_YCCK) {
        // libjpeg cannot go from CMYK to RGB itself; we convert each row in place.
        c->out_color_space = JCS_CMYK;
        d->cmyk = 1;
        *bytes_per_pixel = 4;
    } else if (gray) {
        c->out_color_space = JCS_GRAYSCALE;
        *bytes_per_pixel = 1;
    } else {
        // libjpeg-turbo writes RGBA (alpha 255) straight into our rows, gray input too.
        c->out_color_space = JCS_EXT_RGBA;
        *bytes_per_pixel = 4;
    }
    c->scale_num = (unsigned)scale_eighths;
    c->scale_denom = 8;
    // djpeg's defaults, so pixels match the reference decodes.
    c->dct_method = JDCT_ISLOW;
    c->do_fancy_upsampling = TRUE;
    d->buffered = d->incremental && jpeg_has_multiple_scans(c);
    c->buffered_image = d->buffered ? TRUE : FALSE;
    jpeg_calc_output_dimensions(c);
    *width = c->output_width;
    *height = c->output_height;
    d->configured = 1;
    return 1;
}

int wi_jpeg_set_output(wi_jpeg *d, uint8_t *base, size_t stride, uint32_t strip_rows) {
    if (!d->configured || d->state != S_CONFIG || (strip_rows && d->buffered)) {
        fail(d, WI_JPEG_ERR_MISUSE, "set_output called out of order");
        return 0;
    }
    uint32_t count = strip_rows ? strip_rows : d->cinfo.output_height;
    JSAMPROW *rows = malloc(sizeof(JSAMPROW) * (count ? count : 1));
    if (!rows) {
        fail(d, WI_JPEG_ERR_NO_MEMORY, "out of memory for row pointers");
        return 0;
    }
    for (uint32_t y = 0; y < count; y++) rows[y] = base + (size_t)y * stride;
    free(d->rows);
    d->rows = rows;
    d->base = base;
    d->stride = stride;
    d->strip_rows = strip_rows;
    d->state = S_START;
    return 1;
}

// MARK: Decoding

// djpeg's CMYK to RGB (libjpeg-turbo cmyk.h): the values of an Adobe file are
// inverted, so r = c * k / 255, rounded. Done in place: CMYK and RGBA are both 4 bytes.
static void cmyk_rows_to_rgba(struct wi_jpeg *d, JSAMPROW *rows, JDIMENSION count) {
    JDIMENSION width = d->cinfo.output_width;
    for (JDIMENSION y = 0; y < count; y++) {
        uint8_t *p = rows[y];
        for (JDIMENSION x = 0; x < width; x++, p += 4) {
            unsigned k = p[3];
            p[0] = (uint8_t)((p[0] * k + 127) / 255);
            p[1] = (uint8_t)((p[1] * k + 127) / 255);
            p[2] = (uint8_t)((p[2] * k + 127) / 255);
            p[3] = 255;
        }
    }
}

// Whether any coefficient of a progressive image never got its last refinement.
static int coefficients_incomplete(struct wi_jpeg *d) {
    if (!d->cinfo.coef_bits) return 0;
    for (int c = 0; c < d->cinfo.num_components; c++)
        for (int k = 0; k < DCTSIZE2; k++)
            if (d->cinfo.coef_bits[c][k] != 0) return 1;
    return 0;
}

// Decides, before libjpeg frees its image state, whether pixels were padded.
static void judge_completeness(struct wi_jpeg *d) {
    if (!d->eof_hit) return;
    d->pixels_missing = d->hit_marker_after_eof || d->eof_mid_rows || coefficients_incomplete(d);
}

// libjpeg suspended: it backed up to the start of what it could not finish and will
// read those bytes again. Remember how many, so that wi_jpeg_step waits for as many new
// ones before resuming it.
static wi_jpeg_status suspended(struct wi_jpeg *d) {
    d->backlog = d->source.bytes_in_buffer;
    d->fresh = 0;
    return WI_JPEG_NEED_DATA;
}

// Bytes of new input that pay for one partial output pass, per output pixel. A pass
// costs the whole image: without this, a file of many tiny scans (up to the scan
// limit) fed in thin slices would cost scans x pixels. With it, partial passes cost
// at most 64 pixel writes per input byte. A typical progressive photo (0.1 to 0.3
// bytes a pixel, its DC scan a tenth of the file) still shows every scan.
#define WI_JPEG_PASS_PIXELS_PER_BYTE 64

static int partial_pass_due(const struct wi_jpeg *d) {
    uint64_t pixels = (uint64_t)d->cinfo.output_width * d->cinfo.output_height;
    return (d->total_in - d->in_at_pass) * WI_JPEG_PASS_PIXELS_PER_BYTE >= pixels;
}

static wi_jpeg_status read_rows(struct wi_jpeg *d) {
    struct jpeg_decompress_struct *c = &d->cinfo;
    while (c->output_scanline < c->output_height) {
        JSAMPROW *target;
        JDIMENSION room;
        if (d->strip_rows) {
            target = d->rows + d->strip_fill;
            room = d->strip_rows - d->strip_fill;
        } else {
            target = d->rows + c->output_scanline;
            room = c->output_height - c->output_scanline;
        }
        JDIMENSION got = jpeg_read_scanlines(c, target, room);
        if (got == 0) return suspended(d);
        if (d->cmyk && !d->keep_cmyk) cmyk_rows_to_rgba(d, target, got);
        d->rows_valid = c->output_scanline;
        d->revision++;
        if (d->strip_rows) {
            d->strip_fill += got;
            if (d->strip_fill == d->strip_rows || c->output_scanline == c->output_height) {
                d->strip_first = c->output_scanline - d->strip_fill;
                d->strip_count = d->strip_fill;
                d->strip_fill = 0;
                if (c->output_scanline == c->output_height) {
                    judge_completeness(d);
                    d->state = S_FINISH;
                }
                return WI_JPEG_ROWS_READY;
            }
        }
    }
    judge_completeness(d);
    d->state = S_FINISH;
    return WI_JPEG_DONE;  // not returned to the caller: step goes on to S_FINISH
}

wi_jpeg_status wi_jpeg_step(wi_jpeg *d) {
    struct jpeg_decompress_struct *c = &d->cinfo;
    if (d->state == S_FAILED) return WI_JPEG_FAILED;
    if (d->state == S_DONE) return WI_JPEG_DONE;
    if (!d->end_of_data && d->fresh < d->backlog) return WI_JPEG_NEED_DATA;
    if (setjmp(d->jump)) {
        d->state = S_FAILED;
        return WI_JPEG_FAILED;
    }
    for (;;) {
        switch (d->state) {
        case S_HEADER: {
            int r = jpeg_read_header(c, TRUE);
            if (r == JPEG_SUSPENDED) return suspended(d);
            d->state = S_CONFIG;
            return WI_JPEG_HEADER_READY;
        }
        case S_CONFIG:
            fail(d, WI_JPEG_ERR_MISUSE, "step called before configure and set_output");
            return WI_JPEG_FAILED;
        case S_START:
            // libjpeg's arithmetic decoder cannot suspend mid-scan: wait for everything.
            if (c->arith_code && !d->end_of_data) return WI_JPEG_NEED_DATA;
            if (!jpeg_start_decompress(c)) return suspended(d);
            d->state = d->buffered ? S_CONSUME : S_ROWS;
            break;
        case S_ROWS: {
            wi_jpeg_status s = read_rows(d);
            if (s != WI_JPEG_DONE) return s;
            break;
        }
        case S_CONSUME: {
            int r = jpeg_consume_input(c);
            if (r == JPEG_SUSPENDED) {
                // Show what the scans completed so far hold, once per new scan, when the
                // bytes since the last pass pay for one (partial_pass_due).
                int complete = c->input_scan_number - 1;
                if (complete > d->shown_scan && partial_pass_due(d)) {
                    d->in_at_pass = d->total_in;
                    d->pass_scan = complete;
                    d->final_pass = 0;
                    d->state = S_OUTPUT;
                    break;
                }
                return suspended(d);
            }
            if (r == JPEG_REACHED_SOS) {
                on_progress((j_common_ptr)c);
            } else if (r == JPEG_REACHED_EOI) {
                d->pass_scan = c->input_scan_number;
                d->final_pass = 1;
                d->state = S_OUTPUT;
            }
            break;
        }
        case S_OUTPUT:
            if (!d->output_started) {
                if (!jpeg_start_output(c, d->pass_scan)) return suspended(d);
                d->output_started = 1;
            }
            while (c->output_scanline < c->output_height) {
                JSAMPROW *target = d->rows + c->output_scanline;
                JDIMENSION got = jpeg_read_scanlines(c, target, c->output_height - c->output_scanline);
                if (got == 0) return suspended(d);
                if (d->cmyk && !d->keep_cmyk) cmyk_rows_to_rgba(d, target, got);
                if (c->output_scanline > d->rows_valid) d->rows_valid = c->output_scanline;
            }
            if (!jpeg_finish_output(c)) return suspended(d);
            d->output_started = 0;
            d->shown_scan = d->pass_scan;
            d->revision++;
            if (d->final_pass) {
                judge_completeness(d);
                d->state = S_FINISH;
                break;
            }
            d->state = S_CONSUME;
            d->backlog = 0;  // not suspended: the next step consumes what is buffered
            return WI_JPEG_NEED_DATA;
        case S_FINISH:
            if (!jpeg_finish_decompress(c)) return suspended(d);
            d->state = S_DONE;
            return WI_JPEG_DONE;
        case S_DONE:
            return WI_JPEG_DONE;
        case S_FAILED:
            return WI_JPEG_FAILED;
        }
    }
}

// MARK: Queries

uint32_t wi_jpeg_rows_valid(const wi_jpeg *d) { return d->rows_valid; }
uint64_t wi_jpeg_revision(const wi_jpeg *d) { return d->revision; }

void wi_jpeg_strip(const wi_jpeg *d, uint32_t *first_row, uint32_t *row_count) {
    *first_row = d->strip_first;
    *row_count = d->strip_count;
}

int wi_jpeg_pixels_missing(const wi_jpeg *d) { return d->pixels_missing; }
uint32_t wi_jpeg_warning_count(const wi_jpeg *d) { return d->warnings; }
wi_jpeg_error_code wi_jpeg_error(const wi_jpeg *d) { return d->error; }
const char *wi_jpeg_message(const wi_jpeg *d) { return d->message; }
