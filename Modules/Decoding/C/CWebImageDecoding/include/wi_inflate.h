// Bounded zlib inflation, for the compressed metadata PNG keeps beside its pixels (an
// iCCP chunk's profile): a small chunk may inflate to gigabytes, so the output stops
// at a limit the caller sets.
#ifndef WI_INFLATE_H
#define WI_INFLATE_H

#include <stddef.h>
#include <stdint.h>

typedef enum {
    WI_INFLATE_OK = 0,
    WI_INFLATE_TOO_LARGE,   ///< the data inflates to more than the limit
    WI_INFLATE_CORRUPT,     ///< not zlib data, a bad checksum, or it ends early
    WI_INFLATE_NO_MEMORY,
} wi_inflate_status;

/// Inflates the zlib stream `input`; on WI_INFLATE_OK `*output` is a malloc'd buffer of
/// `*output_length` bytes (at most `limit`) the caller frees.
wi_inflate_status wi_inflate(const uint8_t *input, size_t input_length, size_t limit, uint8_t **output,
                             size_t *output_length);

#endif
