// The inner loops of the separable resampler, in fixed point: C loops over contiguous
// memory, with SSE2 and AVX2 versions on x86-64. Weights are 2^14 fixed point and
// every output pixel uses the same number of taps (zero-padded), so the loops have no
// branches. Rows are filtered horizontally into 16 bits first; the vertical pass then
// gathers each output row from the filtered rows its window covers. Pure functions on
// caller-owned memory; they never fail.
//
// Gray samples are filtered as they are. RGBA is filtered premultiplied, in 16 bits:
// each pixel becomes (r*a, g*a, b*a, a*255), so that transparent pixels add no colour
// and no precision is lost to the premultiplication; colour is divided back by alpha
// when an output row is written.
#ifndef WI_RESAMPLE_H
#define WI_RESAMPLE_H

#include <stddef.h>
#include <stdint.h>

/// Fraction bits of the weights: 1.0 is 16384.
enum { WI_RESAMPLE_WEIGHT_BITS = 14 };

/// How a horizontal pass reads its pixels.
typedef enum {
    WI_RESAMPLE_GRAY = 0,         ///< one 8-bit sample: wi_resample_row_gray
    WI_RESAMPLE_RGBA = 1,         ///< premultiplied 16-bit RGBA: wi_resample_row_rgba
    WI_RESAMPLE_OPAQUE_RGBA = 2,  ///< RGBA with alpha 255: wi_resample_row_rgbx
} wi_resample_layout;

/// What a horizontal window should be padded to a multiple of (with zero weights) for
/// the layout's vector loop to take it: gray 8 and premultiplied RGBA 4 where those
/// loops run (AVX2), else 1; opaque RGBA 4.
int wi_resample_tap_multiple(wi_resample_layout layout);

/// `pixels` RGBA pixels as (r*a, g*a, b*a, a*255), each less 32768 (as the horizontal
/// pass reads them: the products reach 65025, past a signed 16-bit value).
void wi_resample_premultiply(const uint8_t *source, size_t pixels, int16_t *output);

/// How many int32s `wi_resample_plan` writes for these windows: 0 where the layout's
/// pass reads its weights as they are (gray; no AVX2 here; `taps` not a multiple of
/// four; one output of opaque RGBA).
size_t wi_resample_plan_size(wi_resample_layout layout, int output_width, int taps);

/// The horizontal weights laid out as the layout's AVX2 loop loads them, made once per
/// resampler: for premultiplied RGBA each output's taps two by two, four times over
/// (32 bytes for four taps); for opaque RGBA two outputs and four taps to 64 bytes.
void wi_resample_plan(wi_resample_layout layout, const int16_t *weights, int output_width, int taps, int32_t *plan);

/// Horizontal pass over premultiplied RGBA (from `wi_resample_premultiply`): output
/// pixel x, each of its four samples, is the sum over k < `taps` of
/// weights[x * taps + k] times the product of source pixel starts[x] + k, divided by
/// 2^16 and rounded. Each output's weights sum to 2^14 (as the resampler makes them).
/// `plan` is from `wi_resample_plan(WI_RESAMPLE_RGBA, ...)`, or NULL where its size is
/// 0; with a plan the vector loop runs.
void wi_resample_row_rgba(const int16_t *source, int output_width, const int32_t *starts, const int16_t *weights,
                          int taps, const int32_t *plan, int16_t *output);

/// Horizontal pass over opaque RGBA, straight from its 8-bit samples (no
/// premultiplying: alpha is 255 throughout), divided by 2^8 as for gray. `plan` is
/// from `wi_resample_plan(WI_RESAMPLE_OPAQUE_RGBA, ...)`, or NULL where its size is 0.
void wi_resample_row_rgbx(const uint8_t *source, int output_width, const int32_t *starts, const int16_t *weights,
                          int taps, const int32_t *plan, int16_t *output);

/// Whether all `pixels` RGBA pixels have alpha 255.
int wi_resample_is_opaque(const uint8_t *source, size_t pixels);

/// Horizontal pass over gray: as above on one 8-bit sample, divided by 2^8. Windows of
/// a multiple of `wi_resample_tap_multiple(WI_RESAMPLE_GRAY)` taps take the vector loop.
void wi_resample_row_gray(const uint8_t *source, int output_width, const int32_t *starts, const int16_t *weights,
                          int taps, int16_t *output);

/// The vertical pass's weights, two taps to an int32 as one multiply-add reads them:
/// for each of `outputs` windows of `taps` weights, (taps + 1) / 2 values
/// `(uint16)w[2j] | (uint16)w[2j + 1] << 16`, the last one's high half zero when
/// `taps` is odd.
void wi_resample_pair_weights(const int16_t *weights, size_t outputs, int taps, int32_t *pairs);

/// Vertical pass to 8-bit samples: sample i is the sum over k < `taps` of weight k
/// (from one window's `pairs`) times `rows[k][i]`, divided by 2^20, rounded and
/// clamped. `rows` has an even count of pointers (when `taps` is odd, the last is any
/// readable row: its weight is zero). With `opaque_rgba`, every fourth sample is 255.
void wi_resample_column_bytes(const int16_t *const *rows, const int32_t *pairs, int taps, size_t count, int opaque_rgba,
                              uint8_t *output);

/// Vertical pass over premultiplied RGBA: the sums go to `sums` (`pixels * 4`
/// int32s of scratch), then colour is divided back by alpha into straight 8-bit RGBA.
void wi_resample_column_rgba(const int16_t *const *rows, const int32_t *pairs, int taps, size_t pixels, int32_t *sums,
                             uint8_t *output);

#endif
