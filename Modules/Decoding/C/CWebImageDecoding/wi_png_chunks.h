// The chunk layer in front of libpng's progressive reader (private to wi_png.c).
//
// libpng buffers a whole chunk before handling it, and grows that buffer by a few
// hundred bytes per feed: a large chunk fed in small slices costs its size squared,
// and every ancillary chunk costs a trip through libpng's chunk handlers. This layer
// reads the chunk stream itself, once, and hands libpng only what decoding needs: the
// signature, IHDR, PLTE, tRNS, IDAT, IEND and any other critical chunk (which libpng
// refuses). Every other chunk is stepped over without being stored, but for the first
// eXIf, whose payload (64 KiB at most) is kept. Work is linear in the bytes fed,
// however they are sliced and however many chunks there are.
#ifndef WI_PNG_CHUNKS_H
#define WI_PNG_CHUNKS_H

#include <stddef.h>
#include <stdint.h>

// Longest chunk other than IDAT handed to libpng, which buffers such a chunk whole
// (growing its buffer a few hundred bytes per feed). Valid ones are far shorter (IHDR
// 13 bytes, PLTE 768, tRNS 256): a longer one is refused as damage, but for tRNS,
// which is dropped (libpng ignores a tRNS over 256 bytes as invalid).
#define WI_PNG_CHUNKS_MAX_FORWARDED 4096u
#define WI_PNG_CHUNKS_MAX_TRNS 256u
// Longest eXIf payload kept; the orientation sits in the first few dozen bytes.
#define WI_PNG_CHUNKS_EXIF_MAX 65536u

typedef enum {
    WI_PNG_CHUNKS_OK = 0,
    WI_PNG_CHUNKS_BAD_LENGTH,    // a chunk length over 2^31 - 1
    WI_PNG_CHUNKS_TOO_LONG,      // a forwarded chunk over WI_PNG_CHUNKS_MAX_FORWARDED
    WI_PNG_CHUNKS_FORWARD_FAILED // the forward callback refused (libpng failed)
} wi_png_chunks_status;

// Hands `count` bytes to libpng; returns 0 when libpng failed.
typedef int (*wi_png_forward_fn)(void *context, const uint8_t *bytes, size_t count);

typedef struct wi_png_chunks {
    uint32_t signature_left;   // signature bytes still to forward
    uint8_t header[8];         // the chunk header being collected
    uint32_t header_fill;
    uint32_t type;             // current chunk, as four big-endian ASCII bytes
    uint64_t left;             // bytes of the current chunk still to come (data + CRC)
    uint32_t data_left;        // data bytes of the current chunk still to come (eXIf)
    int forwarding;            // the current chunk goes to libpng
    int in_chunk;              // a header has been read and its chunk is not over
    int saw_idat;
    int idat_closed;           // IEND, or another chunk after the IDAT run, has begun
    int saw_iend;              // IEND was forwarded whole
    uint64_t chunk_count;
    // The first eXIf: payload as read so far, and its CRC for the check at the end.
    uint8_t *exif;
    uint32_t exif_length;
    uint32_t exif_fill;
    int exif_state;            // see wi_png_chunks.c
    uint32_t exif_crc;
    uint8_t exif_crc_bytes[4];
    uint32_t exif_crc_fill;
    char message[128];
} wi_png_chunks;

void wi_png_chunks_init(wi_png_chunks *chunks);
void wi_png_chunks_free(wi_png_chunks *chunks);

/// Reads `count` bytes of the file, forwarding what libpng needs through `forward`.
wi_png_chunks_status wi_png_chunks_feed(wi_png_chunks *chunks, const uint8_t *bytes, size_t count,
                                        wi_png_forward_fn forward, void *context);

/// Whether the data so far ends inside an IDAT chunk (its CRC not yet read).
int wi_png_chunks_inside_idat(const wi_png_chunks *chunks);

/// The kept eXIf payload (NULL when none, or when its CRC was wrong).
const uint8_t *wi_png_chunks_exif(const wi_png_chunks *chunks, uint32_t *length);

#endif
