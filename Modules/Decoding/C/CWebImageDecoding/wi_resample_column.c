// The vertical pass: each output row is gathered at once from the horizontally
// filtered rows its window covers, two rows per multiply-add, and written as bytes in
// the same loop. No row of 32-bit sums goes through memory (the RGBA path keeps one,
// for its division by alpha).
#include "wi_resample.h"

#include <string.h>

#include "wi_resample_simd.h"

void wi_resample_pair_weights(const int16_t *weights, size_t outputs, int taps, int32_t *pairs) {
    size_t count = (size_t)(taps + 1) / 2;
    for (size_t y = 0; y < outputs; y++) {
        const int16_t *w = weights + y * (size_t)taps;
        for (size_t j = 0; j < count; j++) {
            uint32_t low = (uint16_t)w[2 * j];
            uint32_t high = 2 * j + 1 < (size_t)taps ? (uint16_t)w[2 * j + 1] : 0;
            pairs[y * count + j] = (int32_t)(low | (high << 16));
        }
    }
}

enum { SHIFT = WI_RESAMPLE_WEIGHT_BITS + 6 };

static inline int32_t pair_low(int32_t pair) { return (int16_t)(uint16_t)((uint32_t)pair & 0xFFFF); }
static inline int32_t pair_high(int32_t pair) { return (int16_t)(uint16_t)((uint32_t)pair >> 16); }

// One sample's sum: portable, for the samples the vector loops leave.
static inline int32_t sum_at(const int16_t *const *rows, const int32_t *pairs, int taps, size_t i, int32_t start) {
    int32_t sum = start;
    for (int j = 0; j < (taps + 1) / 2; j++) {
        sum += pair_low(pairs[j]) * rows[2 * j][i] + pair_high(pairs[j]) * rows[2 * j + 1][i];
    }
    return sum;
}

static inline uint8_t clamp_sample(int32_t value) { return value < 0 ? 0 : value > 255 ? 255 : (uint8_t)value; }

#if defined(WI_SSE2_INTRINSICS)
// Eight samples: rows 2j and 2j+1 interleaved, so one pmaddwd weighs both and adds them.
static inline void sums8_sse2(const int16_t *const *rows, const int32_t *pairs, int taps, size_t i, __m128i start,
                              __m128i *low, __m128i *high) {
    __m128i a = start, b = start;
    for (int j = 0; j < (taps + 1) / 2; j++) {
        __m128i first = _mm_loadu_si128((const __m128i *)(const void *)(rows[2 * j] + i));
        __m128i second = _mm_loadu_si128((const __m128i *)(const void *)(rows[2 * j + 1] + i));
        __m128i weight = _mm_set1_epi32(pairs[j]);
        a = _mm_add_epi32(a, _mm_madd_epi16(_mm_unpacklo_epi16(first, second), weight));
        b = _mm_add_epi32(b, _mm_madd_epi16(_mm_unpackhi_epi16(first, second), weight));
    }
    *low = a;
    *high = b;
}

static size_t bytes_sse2(const int16_t *const *rows, const int32_t *pairs, int taps, size_t i, size_t count,
                         __m128i alpha, uint8_t *output) {
    const __m128i round = _mm_set1_epi32(1 << (SHIFT - 1));
    for (; i + 8 <= count; i += 8) {
        __m128i low, high;
        sums8_sse2(rows, pairs, taps, i, round, &low, &high);
        __m128i words = _mm_packs_epi32(_mm_srai_epi32(low, SHIFT), _mm_srai_epi32(high, SHIFT));
        _mm_storel_epi64((__m128i *)(void *)(output + i), _mm_or_si128(_mm_packus_epi16(words, words), alpha));
    }
    return i;
}
#endif

#if defined(WI_AVX2_DISPATCH)
// Sixteen samples. unpacklo/hi work within each 128-bit lane, so `low` holds samples
// 0-3 and 8-11, `high` 4-7 and 12-15; packing them back (also per lane) restores the
// order.
__attribute__((target("avx2"))) static inline void sums16_avx2(const int16_t *const *rows, const int32_t *pairs,
                                                               int taps, size_t i, __m256i start, __m256i *low,
                                                               __m256i *high) {
    __m256i a = start, b = start;
    for (int j = 0; j < (taps + 1) / 2; j++) {
        __m256i first = _mm256_loadu_si256((const __m256i *)(const void *)(rows[2 * j] + i));
        __m256i second = _mm256_loadu_si256((const __m256i *)(const void *)(rows[2 * j + 1] + i));
        __m256i weight = _mm256_set1_epi32(pairs[j]);
        a = _mm256_add_epi32(a, _mm256_madd_epi16(_mm256_unpacklo_epi16(first, second), weight));
        b = _mm256_add_epi32(b, _mm256_madd_epi16(_mm256_unpackhi_epi16(first, second), weight));
    }
    *low = a;
    *high = b;
}

__attribute__((target("avx2"))) static size_t bytes_avx2(const int16_t *const *rows, const int32_t *pairs, int taps,
                                                         size_t count, __m128i alpha, uint8_t *output) {
    const __m256i round = _mm256_set1_epi32(1 << (SHIFT - 1));
    size_t i = 0;
    for (; i + 16 <= count; i += 16) {
        __m256i low, high;
        sums16_avx2(rows, pairs, taps, i, round, &low, &high);
        __m256i words = _mm256_packs_epi32(_mm256_srai_epi32(low, SHIFT), _mm256_srai_epi32(high, SHIFT));
        // Bytes 0-7 in the low lane, 8-15 in the high one: gather them into one 128 bits.
        __m256i bytes = _mm256_permute4x64_epi64(_mm256_packus_epi16(words, words), 0x08);
        _mm_storeu_si128((__m128i *)(void *)(output + i), _mm_or_si128(_mm256_castsi256_si128(bytes), alpha));
    }
    return i;
}

__attribute__((target("avx2"))) static size_t sums_avx2(const int16_t *const *rows, const int32_t *pairs, int taps,
                                                        size_t count, int32_t *sums) {
    size_t i = 0;
    for (; i + 16 <= count; i += 16) {
        __m256i low, high;
        sums16_avx2(rows, pairs, taps, i, _mm256_setzero_si256(), &low, &high);
        _mm256_storeu_si256((__m256i *)(void *)(sums + i), _mm256_permute2x128_si256(low, high, 0x20));
        _mm256_storeu_si256((__m256i *)(void *)(sums + i + 8), _mm256_permute2x128_si256(low, high, 0x31));
    }
    return i;
}
#endif

void wi_resample_column_bytes(const int16_t *const *rows, const int32_t *pairs, int taps, size_t count, int opaque_rgba,
                              uint8_t *output) {
    size_t i = 0;
#if defined(WI_SSE2_INTRINSICS)
    // Alpha 255 in every fourth byte (counts are whole pixels there, so vector steps
    // start on a pixel).
    __m128i alpha = opaque_rgba ? _mm_set1_epi32((int32_t)0xFF000000u) : _mm_setzero_si128();
#if defined(WI_AVX2_DISPATCH)
    if (__builtin_cpu_supports("avx2")) i = bytes_avx2(rows, pairs, taps, count, alpha, output);
#endif
    i = bytes_sse2(rows, pairs, taps, i, count, alpha, output);
#endif
    for (; i < count; i++) {
        uint8_t value = clamp_sample(sum_at(rows, pairs, taps, i, 1 << (SHIFT - 1)) >> SHIFT);
        output[i] = opaque_rgba && i % 4 == 3 ? 255 : value;
    }
}

// Writes premultiplied sums as straight RGBA. Alpha was a*255 >> 2 after the
// horizontal pass, then times 2^14: a is sum * 4 / (255 * 2^14). Colour over alpha is
// c/255. In float: one division a pixel, where three integer ones would cost more than
// the filtering.
#if defined(WI_AVX2_DISPATCH)
// Eight pixels a step, the same float operations in the same order as the loop below
// (no fused multiply-add in either), so the bytes are the same: each lane's sum times
// 255 / alpha (alpha times its own scale in the alpha lane), plus one half, clamped
// and truncated. The eight alphas are gathered into one vector for one division, and
// each pixel's quotient is spread back over its lanes: with one division for every
// two pixels this step took 47 to 55 us of a translucent 256x192 output, 42 to 47 now.
__attribute__((target("avx2"))) static inline void write_two(__m256 values, __m256 colour_scale, __m256 alpha_scales,
                                                             uint8_t *output) {
    const __m256 alpha_lanes = _mm256_castsi256_ps(_mm256_setr_epi32(0, 0, 0, -1, 0, 0, 0, -1));
    __m256 scale = _mm256_blendv_ps(colour_scale, alpha_scales, alpha_lanes);
    __m256 scaled = _mm256_add_ps(_mm256_mul_ps(values, scale), _mm256_set1_ps(0.5f));
    __m256 clamped = _mm256_min_ps(_mm256_max_ps(scaled, _mm256_setzero_ps()), _mm256_set1_ps(255.0f));
    __m256i bytes = _mm256_cvttps_epi32(clamped);
    __m128i words = _mm_packs_epi32(_mm256_castsi256_si128(bytes), _mm256_extracti128_si256(bytes, 1));
    _mm_storel_epi64((__m128i *)(void *)output, _mm_packus_epi16(words, words));
}

__attribute__((target("avx2"))) static size_t divide_by_alpha_avx2(const int32_t *sums, size_t pixels,
                                                                    uint8_t *output, float alpha_scale) {
    const __m256 alpha_scales = _mm256_set1_ps(alpha_scale);
    size_t p = 0;
    for (; p + 8 <= pixels; p += 8) {
        // Pixels p and p + 1 in v[0] (one a 128-bit lane), p + 2 and p + 3 in v[1], ...
        __m256 v[4];
        for (int i = 0; i < 4; i++) {
            const int32_t *pair = sums + (p + 2 * (size_t)i) * 4;
            v[i] = _mm256_cvtepi32_ps(_mm256_loadu_si256((const __m256i *)(const void *)pair));
        }
        // Per lane: (a0 a0 a2 a2 | a1 a1 a3 a3), then (a0 a2 a4 a6 | a1 a3 a5 a7).
        __m256 low = _mm256_shuffle_ps(v[0], v[1], 0xFF);
        __m256 high = _mm256_shuffle_ps(v[2], v[3], 0xFF);
        __m256 alpha = _mm256_shuffle_ps(low, high, 0x88);
        __m256 quotient = _mm256_and_ps(_mm256_div_ps(_mm256_set1_ps(255.0f), alpha),
                                        _mm256_cmp_ps(alpha, _mm256_setzero_ps(), _CMP_GT_OQ));
        write_two(v[0], _mm256_shuffle_ps(quotient, quotient, 0x00), alpha_scales, output + p * 4);
        write_two(v[1], _mm256_shuffle_ps(quotient, quotient, 0x55), alpha_scales, output + p * 4 + 8);
        write_two(v[2], _mm256_shuffle_ps(quotient, quotient, 0xAA), alpha_scales, output + p * 4 + 16);
        write_two(v[3], _mm256_shuffle_ps(quotient, quotient, 0xFF), alpha_scales, output + p * 4 + 24);
    }
    return p;
}
#endif

WI_VECTOR_CLONES
static void divide_by_alpha(const int32_t *sums, size_t pixels, uint8_t *output) {
    const float alpha_scale = 4.0f / (255.0f * (float)(1 << WI_RESAMPLE_WEIGHT_BITS));
    size_t p = 0;
#if defined(WI_AVX2_DISPATCH)
    if (__builtin_cpu_supports("avx2")) p = divide_by_alpha_avx2(sums, pixels, output, alpha_scale);
#endif
    for (; p < pixels; p++) {
        const int32_t *sample = sums + p * 4;
        float alpha = (float)sample[3];
        float colour_scale = alpha > 0 ? 255.0f / alpha : 0.0f;
        for (int c = 0; c < 3; c++) {
            float value = (float)sample[c] * colour_scale + 0.5f;
            output[p * 4 + c] = value <= 0 ? 0 : value >= 255 ? 255 : (uint8_t)value;
        }
        float a = alpha * alpha_scale + 0.5f;
        output[p * 4 + 3] = a <= 0 ? 0 : a >= 255 ? 255 : (uint8_t)a;
    }
}

void wi_resample_column_rgba(const int16_t *const *rows, const int32_t *pairs, int taps, size_t pixels, int32_t *sums,
                             uint8_t *output) {
    size_t count = pixels * 4, i = 0;
#if defined(WI_AVX2_DISPATCH)
    if (__builtin_cpu_supports("avx2")) i = sums_avx2(rows, pairs, taps, count, sums);
#endif
    for (; i < count; i++) sums[i] = sum_at(rows, pairs, taps, i, 0);
    divide_by_alpha(sums, pixels, output);
}
