// The bare baseline for a cold load: download and decode on one thread, the least a C
// client does. Each body is decoded the moment its transfer completes, inside the same
// multi loop, so the transfers still open wait while it decodes (one core, no overlap).
#include "CBaselines.h"
#include "bl_fetch_each.h"

#include <stdlib.h>
#include <turbojpeg.h>

typedef struct {
    tjhandle handle;
    int decoded;
} bl_inline_decoder;

// Decodes one body to RGBA with the loop's one TurboJPEG handle, then drops the pixels
// and the body.
static void bl_decode_dropping(void *context, int index, unsigned char *bytes, size_t count) {
    (void)index;
    bl_inline_decoder *decoder = context;
    int width = 0, height = 0, subsampling = 0, colorspace = 0;
    if (tjDecompressHeader3(decoder->handle, bytes, (unsigned long)count,
                            &width, &height, &subsampling, &colorspace) == 0) {
        unsigned char *pixels = malloc((size_t)width * (size_t)height * 4);
        if (pixels != NULL && tjDecompress2(decoder->handle, bytes, (unsigned long)count,
                                            pixels, width, width * 4, height, TJPF_RGBA, 0) == 0) {
            decoder->decoded++;
        }
        free(pixels);
    }
    free(bytes);
}

int bl_fetch_decode_all(const char *const *urls, int count, int max_host_connections, long long *bytes) {
    *bytes = 0;
    bl_inline_decoder decoder = {.handle = tjInitDecompress()};
    if (decoder.handle == NULL) return -1;
    int fetched = bl_fetch_each(urls, count, max_host_connections, bl_decode_dropping, &decoder, bytes);
    tjDestroy(decoder.handle);
    return fetched < 0 ? -1 : decoder.decoded;
}
