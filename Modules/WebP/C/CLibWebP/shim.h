// libwebp's still decoder (decode.h, with the incremental decoder) and its demuxer
// (demux.h: the animation decoder and the metadata chunks), from libwebp-dev.
#include <webp/decode.h>
#include <webp/demux.h>
