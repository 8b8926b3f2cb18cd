// Adds an EXIF chunk to a WebP file with libwebp's muxer. In C so that libwebp's
// structures never reach Swift, where the library's own libwebp module declares them
// too and the two would clash.
#ifndef WIF_WEBP_H
#define WIF_WEBP_H

#include <stddef.h>
#include <stdint.h>

#include "wif_buffer.h"

/// `webp` rewritten as an extended file holding `exif` as its EXIF chunk, into `out`.
/// Returns 0, or -1 when libwebp refuses the file or memory runs out.
int wif_webp_add_exif(const uint8_t *webp, size_t webp_size, const uint8_t *exif, size_t exif_size, wif_buffer *out);

#endif
