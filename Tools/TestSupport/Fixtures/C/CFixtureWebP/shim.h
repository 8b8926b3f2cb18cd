// libwebp's encoder and its muxer (WebPMux for metadata chunks, WebPAnimEncoder for
// animations), from libwebp-dev.
#include <webp/encode.h>
#include <webp/mux.h>
