// The growable output buffer every fixture encoder writes into.
#ifndef WIF_BUFFER_H
#define WIF_BUFFER_H

#include <stddef.h>
#include <stdint.h>

typedef struct wif_buffer {
    uint8_t *data;   // malloc'd; free with wif_buffer_free
    size_t size;
    size_t capacity;
} wif_buffer;

/// Appends `length` bytes; returns 0, or -1 when memory runs out (the buffer is kept).
int wif_buffer_append(wif_buffer *buffer, const void *bytes, size_t length);

/// Frees the bytes and empties the buffer.
void wif_buffer_free(wif_buffer *buffer);

#endif
