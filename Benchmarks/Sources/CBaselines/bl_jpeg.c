// TurboJPEG baseline.
#include "CBaselines.h"

#include <stdlib.h>
#include <turbojpeg.h>

int bl_jpeg_decode(const uint8_t *data, size_t size, int scale_denom,
                   bl_allocator allocate, void *context, int *width, int *height) {
    tjhandle handle = tjInitDecompress();
    if (handle == NULL) return -1;
    int w = 0, h = 0, subsampling = 0, colorspace = 0;
    int status = -1;
    if (tjDecompressHeader3(handle, data, (unsigned long)size, &w, &h, &subsampling, &colorspace) == 0) {
        tjscalingfactor factor = { 1, scale_denom > 0 ? scale_denom : 1 };
        int sw = TJSCALED(w, factor), sh = TJSCALED(h, factor);
        size_t bytes = (size_t)sw * (size_t)sh * 4;
        void *out = allocate ? allocate(context, bytes) : malloc(bytes);
        if (out != NULL) {
            // Width and height given scaled: TurboJPEG picks the matching factor.
            status = tjDecompress2(handle, data, (unsigned long)size, out, sw, sw * 4, sh, TJPF_RGBA, 0) == 0 ? 0 : -1;
            if (allocate == NULL) free(out);
            *width = sw;
            *height = sh;
        }
    }
    tjDestroy(handle);
    return status;
}
