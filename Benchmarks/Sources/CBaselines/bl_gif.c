// giflib baseline: DGifSlurp plus palette expansion and composition of every frame.
#include "CBaselines.h"

#include <gif_lib.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const uint8_t *data;
    size_t size;
    size_t offset;
} bl_gif_reader;

static int bl_gif_read(GifFileType *gif, GifByteType *buffer, int length) {
    bl_gif_reader *reader = (bl_gif_reader *)gif->UserData;
    size_t left = reader->size - reader->offset;
    size_t count = (size_t)length < left ? (size_t)length : left;
    memcpy(buffer, reader->data + reader->offset, count);
    reader->offset += count;
    return (int)count;
}

// Clears the part of the frame rectangle that lies on the canvas.
static void bl_gif_clear(uint8_t *canvas, int cw, int ch, const GifImageDesc *d) {
    for (int y = d->Top; y < d->Top + d->Height && y < ch; y++) {
        if (d->Left >= cw) break;
        int right = d->Left + d->Width < cw ? d->Left + d->Width : cw;
        memset(canvas + ((size_t)y * cw + d->Left) * 4, 0, (size_t)(right - d->Left) * 4);
    }
}

int bl_gif_decode(const uint8_t *data, size_t size,
                  bl_allocator allocate, void *context, int *width, int *height) {
    bl_gif_reader reader = { data, size, 0 };
    int error = 0;
    GifFileType *gif = DGifOpen(&reader, bl_gif_read, &error);
    if (gif == NULL) return -1;
    if (DGifSlurp(gif) != GIF_OK || gif->ImageCount < 1) {
        DGifCloseFile(gif, &error);
        return -1;
    }
    int cw = gif->SWidth, ch = gif->SHeight, count = gif->ImageCount;
    size_t bytes = (size_t)cw * (size_t)ch * 4;
    uint8_t *restore = NULL;      // canvas before a "previous"-disposal frame
    const uint8_t *last = NULL;   // the previous composed frame
    int status = count;
    uint8_t **owned = allocate ? NULL : calloc((size_t)count, sizeof(uint8_t *));

    for (int i = 0; i < count && status >= 0; i++) {
        uint8_t *canvas = allocate ? allocate(context, bytes) : malloc(bytes);
        if (canvas == NULL) { status = -1; break; }
        if (owned) owned[i] = canvas;
        // Start from the previous frame after its disposal.
        if (last == NULL) {
            memset(canvas, 0, bytes);
        } else {
            GraphicsControlBlock before = { DISPOSAL_UNSPECIFIED, false, 0, NO_TRANSPARENT_COLOR };
            DGifSavedExtensionToGCB(gif, i - 1, &before);
            if (before.DisposalMode == DISPOSE_PREVIOUS && restore) {
                memcpy(canvas, restore, bytes);
            } else {
                memcpy(canvas, last, bytes);
                if (before.DisposalMode == DISPOSE_BACKGROUND) bl_gif_clear(canvas, cw, ch, &gif->SavedImages[i - 1].ImageDesc);
            }
        }
        SavedImage *frame = &gif->SavedImages[i];
        GraphicsControlBlock control = { DISPOSAL_UNSPECIFIED, false, 0, NO_TRANSPARENT_COLOR };
        DGifSavedExtensionToGCB(gif, i, &control);
        if (control.DisposalMode == DISPOSE_PREVIOUS) {
            if (restore == NULL) restore = malloc(bytes);
            if (restore) memcpy(restore, canvas, bytes);
        }
        ColorMapObject *map = frame->ImageDesc.ColorMap ? frame->ImageDesc.ColorMap : gif->SColorMap;
        if (map == NULL) { status = -1; break; }
        const GifImageDesc *d = &frame->ImageDesc;
        for (int y = 0; y < d->Height; y++) {
            int cy = d->Top + y;
            if (cy >= ch) break;
            const GifByteType *src = frame->RasterBits + (size_t)y * d->Width;
            uint8_t *dst = canvas + ((size_t)cy * cw + d->Left) * 4;
            for (int x = 0; x < d->Width && d->Left + x < cw; x++) {
                int index = src[x];
                if (index == control.TransparentColor || index >= map->ColorCount) continue;
                GifColorType c = map->Colors[index];
                dst[4 * x] = c.Red;
                dst[4 * x + 1] = c.Green;
                dst[4 * x + 2] = c.Blue;
                dst[4 * x + 3] = 255;
            }
        }
        last = canvas;
    }
    if (owned) {
        for (int i = 0; i < count; i++) free(owned[i]);
        free(owned);
    }
    free(restore);
    *width = cw;
    *height = ch;
    DGifCloseFile(gif, &error);
    return status;
}
