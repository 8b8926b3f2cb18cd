// C encoders behind WebImageFixtures: JPEG on libjpeg's compress API and GIF on
// giflib's EGif API. Developer tooling, never part of an app. Symbols are prefixed wif_.
#ifndef CWEBIMAGEFIXTURES_H
#define CWEBIMAGEFIXTURES_H

#include "wif_buffer.h"
#include "wif_jpeg.h"
#include "wif_gif.h"

#endif
