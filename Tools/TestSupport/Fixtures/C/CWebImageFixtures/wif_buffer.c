#include "wif_buffer.h"

#include <stdlib.h>
#include <string.h>

int wif_buffer_append(wif_buffer *buffer, const void *bytes, size_t length) {
    if (length > SIZE_MAX - buffer->size) return -1;
    size_t needed = buffer->size + length;
    if (needed > buffer->capacity) {
        // Doubling keeps appends amortised O(1).
        size_t capacity = buffer->capacity ? buffer->capacity : 16 * 1024;
        while (capacity < needed) {
            if (capacity > SIZE_MAX / 2) { capacity = needed; break; }
            capacity *= 2;
        }
        uint8_t *grown = realloc(buffer->data, capacity);
        if (grown == NULL) return -1;
        buffer->data = grown;
        buffer->capacity = capacity;
    }
    if (length) memcpy(buffer->data + buffer->size, bytes, length);
    buffer->size = needed;
    return 0;
}

void wif_buffer_free(wif_buffer *buffer) {
    free(buffer->data);
    buffer->data = NULL;
    buffer->size = 0;
    buffer->capacity = 0;
}
