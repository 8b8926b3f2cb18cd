// LittleCMS transforms for 4-byte pixels converted in place: RGBA in an RGB profile,
// gray (R = G = B) in a gray profile, or Adobe-inverted CMYK, to RGBA in an RGB
// profile (sRGB when none is given), relative colorimetric, alpha kept.
//
// A transform is immutable once built and runs without LittleCMS's one-pixel cache, so
// any number of threads may apply it at once.
#ifndef WI_COLOR_H
#define WI_COLOR_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct wi_color_transform wi_color_transform;

/// What the source pixels hold.
typedef enum {
    WI_COLOR_SOURCE_SRGB = 0,        ///< RGBA in sRGB; no profile bytes
    WI_COLOR_SOURCE_PROFILE,         ///< RGBA in an RGB profile, or gray in a gray profile
    WI_COLOR_SOURCE_INVERTED_CMYK,   ///< C, M, Y, K inverted (255 no ink) in a CMYK profile
} wi_color_source;

/// Builds a transform. `source_profile` is NULL for WI_COLOR_SOURCE_SRGB;
/// `target_profile` NULL means sRGB. Returns NULL when LittleCMS refuses a profile or
/// the transform, with the reason in `message` (at least 128 bytes).
wi_color_transform *wi_color_transform_create(wi_color_source source, const void *source_profile, size_t source_length,
                                              const void *target_profile, size_t target_length, char *message);
void wi_color_transform_destroy(wi_color_transform *transform);

/// Converts `count` pixels of 4 bytes in place.
void wi_color_transform_apply(const wi_color_transform *transform, uint8_t *pixels, size_t count);

/// A transform from 16-bit RGBA in the RGB profile `source_profile`, or gray (R = G = B)
/// in a gray one, each sample big-endian as PNG stores it, to 8-bit RGBA in
/// `target_profile` (NULL: sRGB), alpha kept: the precision of the source's samples
/// reaches the rounding to 8 bits. Returns NULL when LittleCMS refuses a profile or the
/// source profile is neither RGB nor gray, with the reason in `message` (at least 128
/// bytes). Destroyed with wi_color_transform_destroy.
wi_color_transform *wi_color_wide_transform_create(const void *source_profile, size_t source_length, const void *target_profile,
                                                   size_t target_length, char *message);

/// Converts `count` pixels of 8 bytes from `source` into `count` pixels of 4 bytes at
/// `destination`; the two must not overlap.
void wi_color_wide_transform_apply(const wi_color_transform *transform, const uint8_t *source, uint8_t *destination,
                                   size_t count);

/// An RGB profile (matrix and one gamma curve for all three channels) from the xy
/// chromaticities of its white point and primaries, serialised into a malloc'd buffer
/// the caller frees. Returns NULL on failure.
uint8_t *wi_color_make_rgb_profile(const double white[2], const double red[2], const double green[2], const double blue[2],
                                   double gamma, size_t *length);

/// A CMYK profile (CMYK to Lab, a 9-point grid per channel) whose colours follow the
/// complement model r = (1 - c)(1 - k), raised to `shadow_gamma` (1 gives the naive
/// formula's colours), serialised into a malloc'd buffer the caller frees.
uint8_t *wi_color_make_cmyk_profile(double shadow_gamma, size_t *length);

#ifdef __cplusplus
}
#endif

#endif
