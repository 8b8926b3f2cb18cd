#ifndef WEBIMAGE_CZLIB_SHIM_H
#define WEBIMAGE_CZLIB_SHIM_H
#include <zlib.h>

/// deflateInit2 is a macro in zlib.h (it passes ZLIB_VERSION and the stream size),
/// so Swift cannot call it: this inline function does, with the gzip wrapper
/// (windowBits 15 + 16).
static inline int webimage_deflate_init_gzip(z_streamp stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}
#endif
