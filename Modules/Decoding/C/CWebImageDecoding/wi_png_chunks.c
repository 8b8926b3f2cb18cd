#include "wi_png_chunks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK(a, b, c, d) (((uint32_t)(a) << 24) | ((uint32_t)(b) << 16) | ((uint32_t)(c) << 8) | (uint32_t)(d))
#define TYPE_IHDR CHUNK('I', 'H', 'D', 'R')
#define TYPE_IDAT CHUNK('I', 'D', 'A', 'T')
#define TYPE_IEND CHUNK('I', 'E', 'N', 'D')
#define TYPE_TRNS CHUNK('t', 'R', 'N', 'S')
#define TYPE_EXIF CHUNK('e', 'X', 'I', 'f')

enum { EXIF_NONE = 0, EXIF_CHECKED, EXIF_UNCHECKED, EXIF_KEPT, EXIF_REFUSED };

// Whether the current chunk is the eXIf being kept.
static int reading_exif(const wi_png_chunks *chunks) {
    return chunks->type == TYPE_EXIF && !chunks->forwarding &&
           (chunks->exif_state == EXIF_CHECKED || chunks->exif_state == EXIF_UNCHECKED);
}

void wi_png_chunks_init(wi_png_chunks *chunks) {
    memset(chunks, 0, sizeof *chunks);
    chunks->signature_left = 8;
}

void wi_png_chunks_free(wi_png_chunks *chunks) {
    free(chunks->exif);
    chunks->exif = NULL;
}

// CRC-32 as PNG computes it, over a chunk's type and data; bit by bit, since only the
// eXIf payload (64 KiB at most) goes through it.
static uint32_t crc_update(uint32_t crc, const uint8_t *bytes, size_t count) {
    for (size_t i = 0; i < count; i++) {
        crc ^= bytes[i];
        for (int k = 0; k < 8; k++) crc = (crc & 1) ? (crc >> 1) ^ 0xEDB88320u : crc >> 1;
    }
    return crc;
}

// A chunk name libpng accepts: four ASCII letters. Anything else is forwarded, and
// libpng refuses it with its own message.
static int is_letters(const uint8_t *type) {
    for (int i = 0; i < 4; i++) {
        uint8_t c = type[i];
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'))) return 0;
    }
    return 1;
}

// What decoding needs: every critical chunk (uppercase first letter) and tRNS. The
// first chunk always goes, so that libpng refuses a file that does not start with
// IHDR as before. An IDAT after the IDAT run was closed by another chunk is not image
// data: it is dropped, as libpng ignores data after the end of the image.
static int forwards(const wi_png_chunks *chunks, uint32_t type, uint32_t length, const uint8_t *name) {
    if (chunks->chunk_count == 1 || !is_letters(name)) return 1;
    if (type == TYPE_IDAT) return !chunks->idat_closed;
    if (type == TYPE_TRNS) return length <= WI_PNG_CHUNKS_MAX_TRNS;
    return (name[0] & 0x20) == 0;
}

static wi_png_chunks_status refuse(wi_png_chunks *chunks, wi_png_chunks_status status, const char *text) {
    snprintf(chunks->message, sizeof chunks->message, "%s", text);
    return status;
}

static wi_png_chunks_status begin_chunk(wi_png_chunks *chunks, wi_png_forward_fn forward, void *context) {
    const uint8_t *h = chunks->header;
    uint32_t length = ((uint32_t)h[0] << 24) | ((uint32_t)h[1] << 16) | ((uint32_t)h[2] << 8) | h[3];
    uint32_t type = CHUNK(h[4], h[5], h[6], h[7]);
    char name[5] = {(char)h[4], (char)h[5], (char)h[6], (char)h[7], 0};
    if (length > 0x7FFFFFFFu) {
        char text[96];
        snprintf(text, sizeof text, "a chunk claims %u bytes (the limit is 2^31 - 1)", length);
        return refuse(chunks, WI_PNG_CHUNKS_BAD_LENGTH, text);
    }
    chunks->chunk_count++;
    if (type == TYPE_IEND || (chunks->saw_idat && type != TYPE_IDAT)) chunks->idat_closed = 1;
    chunks->type = type;
    chunks->left = (uint64_t)length + 4;
    chunks->data_left = length;
    chunks->in_chunk = 1;
    chunks->forwarding = forwards(chunks, type, length, h + 4);
    if (chunks->forwarding) {
        if (type != TYPE_IDAT && length > WI_PNG_CHUNKS_MAX_FORWARDED) {
            char text[96];
            snprintf(text, sizeof text, "the %s chunk claims %u bytes", is_letters(h + 4) ? name : "(unnamed)", length);
            return refuse(chunks, WI_PNG_CHUNKS_TOO_LONG, text);
        }
        if (type == TYPE_IDAT) chunks->saw_idat = 1;
        if (!forward(context, h, 8)) return WI_PNG_CHUNKS_FORWARD_FAILED;
    } else if (type == TYPE_EXIF && chunks->exif_state == EXIF_NONE) {
        // Only the first eXIf counts, even when it is empty or its CRC is wrong.
        chunks->exif_state = EXIF_REFUSED;
        uint32_t kept = length < WI_PNG_CHUNKS_EXIF_MAX ? length : WI_PNG_CHUNKS_EXIF_MAX;
        if (kept > 0 && (chunks->exif = malloc(kept)) != NULL) {
            chunks->exif_length = kept;
            // A payload cut at the limit cannot be checked against its CRC.
            chunks->exif_state = kept == length ? EXIF_CHECKED : EXIF_UNCHECKED;
            chunks->exif_crc = crc_update(0xFFFFFFFFu, h + 4, 4);
        }
    }
    return WI_PNG_CHUNKS_OK;
}

// Takes the bytes of the eXIf chunk being kept: its data (up to the limit) and then
// its CRC.
static void read_exif(wi_png_chunks *chunks, const uint8_t *bytes, size_t count) {
    size_t data = count < chunks->data_left ? count : chunks->data_left;
    size_t room = chunks->exif_length - chunks->exif_fill;
    size_t take = data < room ? data : room;
    memcpy(chunks->exif + chunks->exif_fill, bytes, take);
    if (chunks->exif_state == EXIF_CHECKED) chunks->exif_crc = crc_update(chunks->exif_crc, bytes, take);
    chunks->exif_fill += (uint32_t)take;
    chunks->data_left -= (uint32_t)data;
    for (size_t i = data; i < count && chunks->exif_crc_fill < 4; i++) {
        chunks->exif_crc_bytes[chunks->exif_crc_fill++] = bytes[i];
    }
}

// At the end of the kept eXIf: keep it if its CRC matches (or it was cut at the limit
// and cannot be checked), as libpng discards an ancillary chunk with a bad CRC.
static void end_exif(wi_png_chunks *chunks) {
    const uint8_t *b = chunks->exif_crc_bytes;
    uint32_t stored = ((uint32_t)b[0] << 24) | ((uint32_t)b[1] << 16) | ((uint32_t)b[2] << 8) | b[3];
    if (chunks->exif_state == EXIF_UNCHECKED || ~chunks->exif_crc == stored) {
        chunks->exif_state = EXIF_KEPT;
    } else {
        chunks->exif_state = EXIF_REFUSED;
        free(chunks->exif);
        chunks->exif = NULL;
    }
}

wi_png_chunks_status wi_png_chunks_feed(wi_png_chunks *chunks, const uint8_t *bytes, size_t count,
                                        wi_png_forward_fn forward, void *context) {
    size_t i = 0;
    if (chunks->saw_iend) return WI_PNG_CHUNKS_OK;  // bytes after IEND are ignored
    while (i < count) {
        if (chunks->signature_left) {
            size_t n = count - i < chunks->signature_left ? count - i : chunks->signature_left;
            if (!forward(context, bytes + i, n)) return WI_PNG_CHUNKS_FORWARD_FAILED;
            chunks->signature_left -= (uint32_t)n;
            i += n;
            continue;
        }
        if (!chunks->in_chunk) {
            size_t n = count - i < 8 - chunks->header_fill ? count - i : 8 - chunks->header_fill;
            memcpy(chunks->header + chunks->header_fill, bytes + i, n);
            chunks->header_fill += (uint32_t)n;
            i += n;
            if (chunks->header_fill < 8) break;
            chunks->header_fill = 0;
            wi_png_chunks_status status = begin_chunk(chunks, forward, context);
            if (status != WI_PNG_CHUNKS_OK) return status;
            continue;
        }
        size_t n = count - i < chunks->left ? count - i : (size_t)chunks->left;
        if (chunks->forwarding) {
            if (!forward(context, bytes + i, n)) return WI_PNG_CHUNKS_FORWARD_FAILED;
        } else if (reading_exif(chunks)) {
            read_exif(chunks, bytes + i, n);
        }
        chunks->left -= n;
        i += n;
        if (chunks->left == 0) {
            chunks->in_chunk = 0;
            if (reading_exif(chunks)) end_exif(chunks);
            if (chunks->forwarding && chunks->type == TYPE_IEND) {
                chunks->saw_iend = 1;
                return WI_PNG_CHUNKS_OK;
            }
        }
    }
    return WI_PNG_CHUNKS_OK;
}

int wi_png_chunks_inside_idat(const wi_png_chunks *chunks) {
    return chunks->in_chunk && chunks->forwarding && chunks->type == TYPE_IDAT;
}

const uint8_t *wi_png_chunks_exif(const wi_png_chunks *chunks, uint32_t *length) {
    if (chunks->exif_state != EXIF_KEPT || !chunks->exif) return NULL;
    *length = chunks->exif_fill;
    return chunks->exif;
}
