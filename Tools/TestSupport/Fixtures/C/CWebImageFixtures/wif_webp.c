#include "wif_webp.h"

#include <webp/mux.h>

int wif_webp_add_exif(const uint8_t *webp, size_t webp_size, const uint8_t *exif, size_t exif_size, wif_buffer *out) {
    WebPMux *mux = WebPMuxNew();
    if (mux == NULL) return -1;
    WebPData image = { webp, webp_size };
    WebPData chunk = { exif, exif_size };
    WebPData assembled = { NULL, 0 };
    int status = -1;
    if (WebPMuxSetImage(mux, &image, 1) == WEBP_MUX_OK && WebPMuxSetChunk(mux, "EXIF", &chunk, 1) == WEBP_MUX_OK &&
        WebPMuxAssemble(mux, &assembled) == WEBP_MUX_OK) {
        status = wif_buffer_append(out, assembled.bytes, assembled.size);
    }
    WebPDataClear(&assembled);
    WebPMuxDelete(mux);
    return status;
}
