// C glue for WebImageDecoding: the parts of libpng and libjpeg that report errors
// with longjmp, kept in C so that no longjmp ever crosses a Swift frame.
// Each codec has its own header; symbols are prefixed wi_.
#ifndef CWEBIMAGEDECODING_H
#define CWEBIMAGEDECODING_H

#include "wi_png.h"
#include "wi_jpeg.h"
#include "wi_resample.h"
#include "wi_inflate.h"

#endif
