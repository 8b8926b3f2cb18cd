// Bare C baselines: the plain library call for each format, decoding to RGBA into a
// buffer the caller allocates (so both sides pay the same first-touch page faults).
#ifndef CBASELINES_H
#define CBASELINES_H

#include <stddef.h>
#include <stdint.h>

/// Returns `byte_count` writable bytes that stay valid until the caller releases
/// them, or NULL. A NULL allocator makes the baseline use malloc and free the buffer
/// itself before returning.
typedef void *(*bl_allocator)(void *context, size_t byte_count);

/// TurboJPEG: tjDecompressHeader3 then tjDecompress2 to TJPF_RGBA at 1/`scale_denom`
/// (1 or 8). Returns 0 or -1.
int bl_jpeg_decode(const uint8_t *data, size_t size, int scale_denom,
                   bl_allocator allocate, void *context, int *width, int *height);

/// libpng's simplified API: png_image_begin_read_from_memory, PNG_FORMAT_RGBA,
/// png_image_finish_read. Returns 0 or -1.
int bl_png_decode(const uint8_t *data, size_t size,
                  bl_allocator allocate, void *context, int *width, int *height);

/// giflib: DGifSlurp, then every frame expanded through its palette onto an RGBA
/// canvas (transparency, disposal none/background/previous), one buffer per frame.
/// Returns the frame count, or -1.
int bl_gif_decode(const uint8_t *data, size_t size,
                  bl_allocator allocate, void *context, int *width, int *height);

/// libcurl's multi interface, the least a client can do: every URL added at once,
/// CURLMOPT_MAX_HOST_CONNECTIONS = `max_host_connections`, bodies counted and dropped,
/// curl_multi_perform and curl_multi_poll until all are done. Returns the number of
/// transfers that ended with status 200, and the body bytes in `bytes`.
int bl_curl_fetch_all(const char *const *urls, int count, int max_host_connections, long long *bytes);

/// The same bare loop, but with at most `max_host_connections` transfers in the multi
/// handle: as one completes, its easy handle is removed, given the next URL and added
/// again. libcurl 7.88 queues transfers over the connection limit in a list that
/// every curl_multi_remove_handle walks and every curl_multi_perform visits, so this is
/// what the fastest HTTP/1.1 client over it can do.
int bl_curl_fetch_windowed(const char *const *urls, int count, int max_host_connections, long long *bytes);

/// A cold load on one thread: the multi loop above (every URL added at once,
/// CURLMOPT_MAX_HOST_CONNECTIONS = `max_host_connections`), each body kept in a growing
/// buffer and decoded with TurboJPEG (tjDecompressHeader3, tjDecompress2 to TJPF_RGBA)
/// as soon as its transfer completes, inside the same loop; the pixels are freed at
/// once. Returns the number of images decoded (a failed transfer or decode is not
/// counted), or -1 if it could not start; `bytes` gets the bytes of the bodies that
/// arrived with status 200.
int bl_fetch_decode_all(const char *const *urls, int count, int max_host_connections, long long *bytes);

/// A cold load in the manager's shape, in bare C: the calling thread runs the multi loop
/// above and hands each complete body (status 200) through a mutex-guarded list to
/// `decoders` threads (1 to 64), which decode it as `bl_fetch_decode_all` does.
/// With `kept` (room for `count` pointers), each image's pixels stay in `kept[i]` for
/// `bl_free_kept`, as a memory cache would hold them; without it they are freed at once.
/// With `prefault` as well, each kept image's pages are mapped in one call before the
/// decode writes them (MADV_POPULATE_WRITE), as the manager's pixel storage does.
/// Returns the images decoded, or -1 if it could not start.
int bl_fetch_decode_pipelined(const char *const *urls, int count, int max_host_connections, int decoders,
                              void **kept, int prefault, long long *bytes);

/// Frees the pixels `bl_fetch_decode_pipelined` kept, and empties their slots.
void bl_free_kept(void **kept, int count);

/// WebPDecodeRGBAInto into an `allocate`d buffer; with `scaled_width` and
/// `scaled_height` above 0, WebPDecode with libwebp's scaling to that size instead.
int bl_webp_decode(const uint8_t *data, size_t size, int scaled_width, int scaled_height,
                   bl_allocator allocate, void *context, int *width, int *height);

/// WebPAnimDecoder over every frame, each copied into an `allocate`d buffer; returns the
/// frame count, or -1.
int bl_webp_animation_decode(const uint8_t *data, size_t size,
                             bl_allocator allocate, void *context, int *width, int *height);

/// avifDecoderReadMemory (one thread) and avifImageYUVToRGB to 8-bit RGBA into an
/// `allocate`d buffer: what any caller of libavif wanting pixels does. 0, or -1.
int bl_avif_decode(const uint8_t *data, size_t size,
                   bl_allocator allocate, void *context, int *width, int *height);

/// avifImageRGBToYUV (4:2:0, full range, alpha ignored) and avifEncoderWrite with libaom
/// at `speed` and `quantizer` (min = max), one thread; returns the file's size, or -1.
long bl_avif_encode(const uint8_t *rgba, int width, int height, int quantizer, int speed);

/// tjCompress2 of packed RGBA at 4:2:0 and `quality`; returns the file's size, or -1.
long bl_jpeg_encode(const uint8_t *rgba, int width, int height, int quality);

/// WebPEncodeRGBA of packed RGBA at `quality` (libwebp's default method, 4); returns the
/// file's size, or -1.
long bl_webp_encode(const uint8_t *rgba, int width, int height, float quality);

/// Gives the memory malloc holds free back to the system (glibc's `malloc_trim(0)`), so
/// that a run does not start on pages an earlier run faulted in.
void bl_release_free_memory(void);

#endif
