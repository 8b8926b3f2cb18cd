// libpng simplified-API baseline.
#include "CBaselines.h"

#include <png.h>
#include <stdlib.h>
#include <string.h>

int bl_png_decode(const uint8_t *data, size_t size,
                  bl_allocator allocate, void *context, int *width, int *height) {
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&image, data, size)) return -1;
    image.format = PNG_FORMAT_RGBA;
    size_t bytes = PNG_IMAGE_SIZE(image);
    void *out = allocate ? allocate(context, bytes) : malloc(bytes);
    if (out == NULL) {
        png_image_free(&image);
        return -1;
    }
    int ok = png_image_finish_read(&image, NULL, out, 0, NULL);
    *width = (int)image.width;
    *height = (int)image.height;
    if (allocate == NULL) free(out);
    png_image_free(&image);
    return ok ? 0 : -1;
}
