// The inner loops of the separable resampler, in fixed point: plain C loops over
// contiguous memory that the compiler vectorises. Weights are 2^14 fixed point and
// every output pixel uses the same number of taps (zero-padded), so the loops have no
// branches. Pure functions on caller-owned memory; they never fail.
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

/// `pixels` RGBA pixels as (r*a, g*a, b*a, a*255).
void wi_resample_premultiply(const uint8_t *source, size_t pixels, uint16_t *output);

/// Horizontal pass over premultiplied RGBA: output pixel x, each of its four samples,
/// is the sum over k < `taps` of weights[x * taps + k] times the sample of source pixel
/// starts[x] + k, divided by 2^16 and rounded.
void wi_resample_row_rgba(const uint16_t *source, int output_width, const int32_t *starts, const int16_t *weights,
                          int taps, int16_t *output);

/// Horizontal pass over opaque RGBA, straight from its 8-bit samples (no
/// premultiplying: alpha is 255 throughout), divided by 2^8 as for gray.
void wi_resample_row_rgbx(const uint8_t *source, int output_width, const int32_t *starts, const int16_t *weights,
                          int taps, int16_t *output);

/// Whether all `pixels` RGBA pixels have alpha 255.
int wi_resample_is_opaque(const uint8_t *source, size_t pixels);

/// Horizontal pass over gray: as above on one 8-bit sample, divided by 2^8.
void wi_resample_row_gray(const uint8_t *source, int output_width, const int32_t *starts, const int16_t *weights,
                          int taps, int16_t *output);

/// `accumulator[i] += row[i] * weight` for `count` samples.
void wi_resample_accumulate(int32_t *accumulator, const int16_t *row, int16_t weight, size_t count);

/// Writes an accumulated RGBA row as 8-bit straight RGBA and clears the accumulator.
void wi_resample_emit_rgba(int32_t *accumulator, size_t pixels, uint8_t *output);

/// Writes an accumulated opaque row as RGBA with alpha 255 and clears the accumulator.
void wi_resample_emit_rgbx(int32_t *accumulator, size_t pixels, uint8_t *output);

/// Writes an accumulated gray row as 8-bit samples and clears the accumulator.
void wi_resample_emit_gray(int32_t *accumulator, size_t count, uint8_t *output);

#endif
