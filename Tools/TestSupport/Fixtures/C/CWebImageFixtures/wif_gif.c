// GIF fixtures: giflib's low-level EGif calls, one image at a time.
#include "wif_gif.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gif_lib.h>

static int wif_gif_output(GifFileType *gif, const GifByteType *bytes, int length) {
    wif_buffer *out = (wif_buffer *)gif->UserData;
    return wif_buffer_append(out, bytes, (size_t)length) == 0 ? length : 0;
}

static void wif_gif_fail(char *message, size_t capacity, const char *what, int code) {
    if (capacity == 0) return;
    const char *reason = GifErrorString(code);
    snprintf(message, capacity, "%s: %s", what, reason ? reason : "giflib error");
}

// A colour map of the next power of two at or above `count`, padded with black.
static ColorMapObject *wif_gif_color_map(const uint8_t *rgb, int count) {
    if (count < 1 || count > 256) return NULL;
    int size = 2;
    while (size < count) size *= 2;
    GifColorType colors[256];
    memset(colors, 0, sizeof colors);
    for (int i = 0; i < count; i++) {
        colors[i].Red = rgb[3 * i];
        colors[i].Green = rgb[3 * i + 1];
        colors[i].Blue = rgb[3 * i + 2];
    }
    return GifMakeMapObject(size, colors);
}

// The source row shown at position `line` of an interlaced image: giflib writes lines
// in the order given, so the interlace passes are ours to order.
static int wif_gif_interlaced_row(int line, int height) {
    static const int start[4] = { 0, 4, 2, 1 };
    static const int step[4] = { 8, 8, 4, 2 };
    for (int pass = 0; pass < 4; pass++) {
        int rows = start[pass] < height ? (height - start[pass] + step[pass] - 1) / step[pass] : 0;
        if (line < rows) return start[pass] + line * step[pass];
        line -= rows;
    }
    return -1;
}

static int wif_gif_put_loop(GifFileType *gif, int loop_count) {
    GifByteType loop[3] = { 1, (GifByteType)(loop_count & 0xFF), (GifByteType)((loop_count >> 8) & 0xFF) };
    if (EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE) == GIF_ERROR) return GIF_ERROR;
    if (EGifPutExtensionBlock(gif, 11, "NETSCAPE2.0") == GIF_ERROR) return GIF_ERROR;
    if (EGifPutExtensionBlock(gif, 3, loop) == GIF_ERROR) return GIF_ERROR;
    return EGifPutExtensionTrailer(gif);
}

static int wif_gif_put_frame(GifFileType *gif, const wif_gif_frame *frame, char *message, size_t capacity) {
    if (frame->write_control) {
        GraphicsControlBlock control = {
            .DisposalMode = frame->disposal,
            .UserInputFlag = false,
            .DelayTime = frame->delay_cs,
            .TransparentColor = frame->transparent_index < 0 ? NO_TRANSPARENT_COLOR : frame->transparent_index,
        };
        GifByteType extension[4];
        size_t length = EGifGCBToExtension(&control, extension);
        if (EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, (int)length, extension) == GIF_ERROR) {
            wif_gif_fail(message, capacity, "writing a graphic control extension", gif->Error);
            return -1;
        }
    }
    ColorMapObject *local = NULL;
    if (frame->local_palette) {
        local = wif_gif_color_map(frame->local_palette, frame->local_count);
        if (local == NULL) {
            if (capacity) snprintf(message, capacity, "bad local palette of %d entries", frame->local_count);
            return -1;
        }
    }
    // EGifPutImageDesc keeps its own copy of the colour map.
    int status = EGifPutImageDesc(gif, frame->left, frame->top, frame->width, frame->height,
                                  frame->interlaced ? true : false, local);
    GifFreeMapObject(local);
    if (status == GIF_ERROR) {
        wif_gif_fail(message, capacity, "writing an image descriptor", gif->Error);
        return -1;
    }
    for (int line = 0; line < frame->height; line++) {
        int row = frame->interlaced ? wif_gif_interlaced_row(line, frame->height) : line;
        GifPixelType *pixels = (GifPixelType *)(frame->indices + (size_t)row * (size_t)frame->width);
        if (EGifPutLine(gif, pixels, frame->width) == GIF_ERROR) {
            wif_gif_fail(message, capacity, "compressing pixels", gif->Error);
            return -1;
        }
    }
    return 0;
}

int wif_gif_encode(const wif_gif_file *file, const wif_gif_frame *frames, int frame_count,
                   wif_buffer *out, char *error_message, size_t error_capacity) {
    size_t capacity = error_message ? error_capacity : 0;
    if (capacity) error_message[0] = 0;
    int error = 0;
    GifFileType *gif = EGifOpen(out, wif_gif_output, &error);
    if (gif == NULL) {
        wif_gif_fail(error_message, capacity, "opening the GIF writer", error);
        return -1;
    }
    int failed = 0;
    ColorMapObject *global = NULL;
    if (file->global_palette) {
        global = wif_gif_color_map(file->global_palette, file->global_count);
        if (global == NULL) {
            if (capacity) snprintf(error_message, capacity, "bad global palette of %d entries", file->global_count);
            failed = 1;
        }
    }
    // GIF89a: the graphic control and application extensions need it.
    EGifSetGifVersion(gif, true);
    if (!failed && EGifPutScreenDesc(gif, file->screen_width, file->screen_height,
                                     global ? global->BitsPerPixel : 8, file->background_index, global) == GIF_ERROR) {
        wif_gif_fail(error_message, capacity, "writing the screen descriptor", gif->Error);
        failed = 1;
    }
    GifFreeMapObject(global);
    if (!failed && file->loop_count >= 0 && wif_gif_put_loop(gif, file->loop_count) == GIF_ERROR) {
        wif_gif_fail(error_message, capacity, "writing the loop count", gif->Error);
        failed = 1;
    }
    for (int i = 0; !failed && i < frame_count; i++) {
        if (wif_gif_put_frame(gif, &frames[i], error_message, capacity) != 0) failed = 1;
    }
    // Closing writes the trailer and frees giflib's state, on success or failure.
    if (EGifCloseFile(gif, &error) == GIF_ERROR && !failed) {
        wif_gif_fail(error_message, capacity, "finishing the file", error);
        failed = 1;
    }
    if (failed) {
        wif_buffer_free(out);
        return -1;
    }
    return 0;
}
