// libwebp's encoder, and its muxer for animations (WebPAnimEncoder), from libwebp-dev.
#include <webp/encode.h>
#include <webp/mux.h>
