// libavif baselines: the one-call still decode followed by the conversion to 8-bit
// RGBA that every caller needs, and the one-call encode from packed RGBA.
#include "CBaselines.h"

#include <stdlib.h>
#include <avif/avif.h>

int bl_avif_decode(const uint8_t *data, size_t size,
                   bl_allocator allocate, void *context, int *width, int *height) {
    avifDecoder *decoder = avifDecoderCreate();
    if (decoder == NULL) return -1;
    decoder->maxThreads = 1;
    avifImage *image = avifImageCreateEmpty();
    int status = -1;
    if (image != NULL && avifDecoderReadMemory(decoder, image, data, size) == AVIF_RESULT_OK) {
        avifRGBImage rgb;
        avifRGBImageSetDefaults(&rgb, image);
        rgb.format = AVIF_RGB_FORMAT_RGBA;
        rgb.depth = 8;
        rgb.rowBytes = image->width * 4;
        size_t bytes = (size_t)rgb.rowBytes * image->height;
        rgb.pixels = allocate ? allocate(context, bytes) : malloc(bytes);
        if (rgb.pixels != NULL) {
            status = avifImageYUVToRGB(image, &rgb) == AVIF_RESULT_OK ? 0 : -1;
            if (allocate == NULL) free(rgb.pixels);
        }
        *width = (int)image->width;
        *height = (int)image->height;
    }
    if (image != NULL) avifImageDestroy(image);
    avifDecoderDestroy(decoder);
    return status;
}

long bl_avif_encode(const uint8_t *rgba, int width, int height, int quantizer, int speed) {
    avifImage *image = avifImageCreate((uint32_t)width, (uint32_t)height, 8, AVIF_PIXEL_FORMAT_YUV420);
    if (image == NULL) return -1;
    image->yuvRange = AVIF_RANGE_FULL;
    avifRGBImage rgb;
    avifRGBImageSetDefaults(&rgb, image);
    rgb.format = AVIF_RGB_FORMAT_RGBA;
    rgb.depth = 8;
    rgb.ignoreAlpha = AVIF_TRUE;
    rgb.pixels = (uint8_t *)rgba;
    rgb.rowBytes = (uint32_t)width * 4;
    long written = -1;
    if (avifImageRGBToYUV(image, &rgb) == AVIF_RESULT_OK) {
        avifEncoder *encoder = avifEncoderCreate();
        if (encoder != NULL) {
            encoder->codecChoice = AVIF_CODEC_CHOICE_AOM;
            encoder->maxThreads = 1;
            encoder->speed = speed;
            encoder->minQuantizer = encoder->maxQuantizer = quantizer;
            encoder->minQuantizerAlpha = encoder->maxQuantizerAlpha = quantizer;
            avifRWData output = AVIF_DATA_EMPTY;
            if (avifEncoderWrite(encoder, image, &output) == AVIF_RESULT_OK) written = (long)output.size;
            avifRWDataFree(&output);
            avifEncoderDestroy(encoder);
        }
    }
    avifImageDestroy(image);
    return written;
}
