// Encoder baselines: TurboJPEG's one call, and libwebp's one call, on RGBA pixels.
#include "CBaselines.h"

#include <turbojpeg.h>
#include <webp/encode.h>

long bl_jpeg_encode(const uint8_t *rgba, int width, int height, int quality) {
    tjhandle handle = tjInitCompress();
    if (handle == NULL) return -1;
    unsigned char *out = NULL;
    unsigned long size = 0;
    int status = tjCompress2(handle, rgba, width, width * 4, height, TJPF_RGBA, &out, &size, TJSAMP_420, quality, 0);
    if (out) tjFree(out);
    tjDestroy(handle);
    return status == 0 ? (long)size : -1;
}

long bl_webp_encode(const uint8_t *rgba, int width, int height, float quality) {
    uint8_t *out = NULL;
    size_t size = WebPEncodeRGBA(rgba, width, height, width * 4, quality, &out);
    WebPFree(out);
    return size > 0 ? (long)size : -1;
}
