// C encoders behind WebImageFixtures: JPEG on libjpeg's compress API, GIF on giflib's
// EGif API, and WebP's EXIF chunk through libwebp's muxer. Developer tooling, never part of an app. Symbols are prefixed wif_.
#ifndef CWEBIMAGEFIXTURES_H
#define CWEBIMAGEFIXTURES_H

#include "wif_buffer.h"
#include "wif_jpeg.h"
#include "wif_gif.h"
#include "wif_webp.h"

#endif
