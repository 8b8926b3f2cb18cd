// libwebp baselines: the one-call still decode, the scaled advanced decode, and the
// animation decoder with every frame copied out (as any caller keeping the frames must).
#include "CBaselines.h"

#include <stdlib.h>
#include <string.h>
#include <webp/decode.h>
#include <webp/demux.h>

int bl_webp_decode(const uint8_t *data, size_t size, int scaled_width, int scaled_height,
                   bl_allocator allocate, void *context, int *width, int *height) {
    int w = 0, h = 0;
    if (!WebPGetInfo(data, size, &w, &h)) return -1;
    int scaled = scaled_width > 0 && scaled_height > 0;
    int ow = scaled ? scaled_width : w, oh = scaled ? scaled_height : h;
    size_t bytes = (size_t)ow * (size_t)oh * 4;
    uint8_t *out = allocate ? allocate(context, bytes) : malloc(bytes);
    if (out == NULL) return -1;
    int status = -1;
    if (!scaled) {
        status = WebPDecodeRGBAInto(data, size, out, bytes, ow * 4) != NULL ? 0 : -1;
    } else {
        WebPDecoderConfig config;
        if (WebPInitDecoderConfig(&config)) {
            config.options.use_scaling = 1;
            config.options.scaled_width = ow;
            config.options.scaled_height = oh;
            config.output.colorspace = MODE_RGBA;
            config.output.is_external_memory = 1;
            config.output.u.RGBA.rgba = out;
            config.output.u.RGBA.stride = ow * 4;
            config.output.u.RGBA.size = bytes;
            status = WebPDecode(data, size, &config) == VP8_STATUS_OK ? 0 : -1;
        }
    }
    if (allocate == NULL) free(out);
    *width = ow;
    *height = oh;
    return status;
}

int bl_webp_animation_decode(const uint8_t *data, size_t size,
                             bl_allocator allocate, void *context, int *width, int *height) {
    WebPData input = { data, size };
    WebPAnimDecoderOptions options;
    if (!WebPAnimDecoderOptionsInit(&options)) return -1;
    options.color_mode = MODE_RGBA;
    options.use_threads = 0;
    WebPAnimDecoder *decoder = WebPAnimDecoderNew(&input, &options);
    if (decoder == NULL) return -1;
    WebPAnimInfo info;
    int frames = -1;
    if (WebPAnimDecoderGetInfo(decoder, &info)) {
        size_t bytes = (size_t)info.canvas_width * info.canvas_height * 4;
        frames = 0;
        while (WebPAnimDecoderHasMoreFrames(decoder)) {
            uint8_t *canvas = NULL;
            int timestamp = 0;
            if (!WebPAnimDecoderGetNext(decoder, &canvas, &timestamp)) { frames = -1; break; }
            uint8_t *copy = allocate ? allocate(context, bytes) : malloc(bytes);
            if (copy == NULL) { frames = -1; break; }
            memcpy(copy, canvas, bytes);
            if (allocate == NULL) free(copy);
            frames++;
        }
        *width = (int)info.canvas_width;
        *height = (int)info.canvas_height;
    }
    WebPAnimDecoderDelete(decoder);
    return frames;
}
