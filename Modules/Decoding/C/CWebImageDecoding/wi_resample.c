#include "wi_resample.h"

#include <string.h>

void wi_resample_premultiply(const uint8_t *source, size_t pixels, uint16_t *output) {
    for (size_t i = 0; i < pixels; i++) {
        uint32_t alpha = source[i * 4 + 3];
        output[i * 4] = (uint16_t)(source[i * 4] * alpha);
        output[i * 4 + 1] = (uint16_t)(source[i * 4 + 1] * alpha);
        output[i * 4 + 2] = (uint16_t)(source[i * 4 + 2] * alpha);
        output[i * 4 + 3] = (uint16_t)(alpha * 255);
    }
}

void wi_resample_row_rgba(const uint16_t *source, int output_width, const int32_t *starts, const int16_t *weights,
                          int taps, int16_t *output) {
    for (int x = 0; x < output_width; x++) {
        const uint16_t *pixel = source + (size_t)starts[x] * 4;
        const int16_t *w = weights + (size_t)x * taps;
        int32_t sum[4] = { 1 << 15, 1 << 15, 1 << 15, 1 << 15 };
        for (int k = 0; k < taps; k++) {
            for (int c = 0; c < 4; c++) sum[c] += w[k] * (int32_t)pixel[k * 4 + c];
        }
        for (int c = 0; c < 4; c++) output[x * 4 + c] = (int16_t)(sum[c] >> 16);
    }
}

void wi_resample_row_gray(const uint8_t *source, int output_width, const int32_t *starts, const int16_t *weights,
                          int taps, int16_t *output) {
    for (int x = 0; x < output_width; x++) {
        const uint8_t *pixel = source + starts[x];
        const int16_t *w = weights + (size_t)x * taps;
        int32_t sum = 1 << 7;
        for (int k = 0; k < taps; k++) sum += w[k] * pixel[k];
        output[x] = (int16_t)(sum >> 8);
    }
}

void wi_resample_accumulate(int32_t *accumulator, const int16_t *row, int16_t weight, size_t count) {
    for (size_t i = 0; i < count; i++) accumulator[i] += (int32_t)row[i] * weight;
}

static inline uint8_t clamp_sample(int64_t value) {
    return value < 0 ? 0 : value > 255 ? 255 : (uint8_t)value;
}

void wi_resample_emit_rgba(int32_t *accumulator, size_t pixels, uint8_t *output) {
    // Alpha was a*255 >> 2 after the horizontal pass, then times 2^14: a is
    // accumulator * 4 / (255 * 2^14). Colour over alpha is c/255.
    const int64_t alpha_unit = 255LL << WI_RESAMPLE_WEIGHT_BITS;
    for (size_t i = 0; i < pixels; i++) {
        int64_t alpha = accumulator[i * 4 + 3];
        output[i * 4 + 3] = clamp_sample((alpha * 4 + alpha_unit / 2) / alpha_unit);
        if (alpha <= 0) {
            output[i * 4] = output[i * 4 + 1] = output[i * 4 + 2] = 0;
            continue;
        }
        for (int c = 0; c < 3; c++) output[i * 4 + c] = clamp_sample(((int64_t)accumulator[i * 4 + c] * 255 + alpha / 2) / alpha);
    }
    memset(accumulator, 0, pixels * 4 * sizeof(int32_t));
}

void wi_resample_emit_gray(int32_t *accumulator, size_t count, uint8_t *output) {
    const int shift = WI_RESAMPLE_WEIGHT_BITS + 6;
    for (size_t i = 0; i < count; i++) output[i] = clamp_sample(((int64_t)accumulator[i] + (1 << (shift - 1))) >> shift);
    memset(accumulator, 0, count * sizeof(int32_t));
}
