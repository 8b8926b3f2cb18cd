// The bounded inflation behind wi_inflate.h.
#include "wi_inflate.h"

#include <stdlib.h>
#include <zlib.h>

wi_inflate_status wi_inflate(const uint8_t *input, size_t input_length, size_t limit, uint8_t **output,
                             size_t *output_length) {
    *output = NULL;
    *output_length = 0;
    z_stream stream = {0};
    if (inflateInit(&stream) != Z_OK) return WI_INFLATE_NO_MEMORY;
    size_t capacity = input_length * 4 < 4096 ? 4096 : input_length * 4;
    if (capacity > limit + 1) capacity = limit + 1;
    uint8_t *buffer = malloc(capacity);
    if (!buffer) {
        inflateEnd(&stream);
        return WI_INFLATE_NO_MEMORY;
    }
    stream.next_in = (Bytef *)input;
    stream.avail_in = (uInt)(input_length > 0xFFFFFFFFu ? 0xFFFFFFFFu : input_length);
    wi_inflate_status status = WI_INFLATE_OK;
    size_t used = 0;
    for (;;) {
        if (used == capacity) {
            // One byte past the limit tells a stream of exactly `limit` bytes from a longer one.
            if (capacity > limit) {
                status = WI_INFLATE_TOO_LARGE;
                break;
            }
            size_t grown = capacity * 2 > limit + 1 ? limit + 1 : capacity * 2;
            uint8_t *bigger = realloc(buffer, grown);
            if (!bigger) {
                status = WI_INFLATE_NO_MEMORY;
                break;
            }
            buffer = bigger;
            capacity = grown;
        }
        stream.next_out = buffer + used;
        stream.avail_out = (uInt)(capacity - used);
        int result = inflate(&stream, Z_NO_FLUSH);
        used = capacity - stream.avail_out;
        if (result == Z_STREAM_END) break;
        if (result != Z_OK && !(result == Z_BUF_ERROR && stream.avail_out == 0)) {
            status = WI_INFLATE_CORRUPT;
            break;
        }
        if (stream.avail_out != 0 && stream.avail_in == 0) {
            status = WI_INFLATE_CORRUPT;  // the input ended before the stream
            break;
        }
    }
    inflateEnd(&stream);
    if (status != WI_INFLATE_OK || used > limit) {
        free(buffer);
        return status == WI_INFLATE_OK ? WI_INFLATE_TOO_LARGE : status;
    }
    *output = buffer;
    *output_length = used;
    return WI_INFLATE_OK;
}
