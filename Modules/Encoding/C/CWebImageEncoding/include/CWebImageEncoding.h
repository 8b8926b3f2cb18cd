// C glue for WebImageEncoding: libpng's writer reports errors with longjmp, so it runs
// inside a setjmp frame here and no longjmp ever crosses a Swift frame. Symbols are
// prefixed wi_.
#ifndef CWEBIMAGEENCODING_H
#define CWEBIMAGEENCODING_H

#include "wi_png_write.h"

#endif
