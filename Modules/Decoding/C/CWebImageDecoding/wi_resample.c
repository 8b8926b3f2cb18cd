#include "wi_resample.h"

#include <string.h>

// On x86-64 each hot loop is also built for AVX2 and picked at load time, where the
// compiler and the platform support it (GCC and Clang's target_clones, an ifunc). Not
// under a sanitizer: an ifunc resolver runs before the sanitizer's runtime is set up,
// and the ThreadSanitizer build crashed at load.
#if defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define WI_UNDER_SANITIZER 1
#endif
#endif
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
#define WI_UNDER_SANITIZER 1
#endif
#if defined(__x86_64__) && defined(__linux__) && (defined(__clang__) || defined(__GNUC__)) && !defined(WI_UNDER_SANITIZER)
#define WI_VECTOR_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define WI_VECTOR_CLONES
#endif

WI_VECTOR_CLONES
void wi_resample_premultiply(const uint8_t *source, size_t pixels, uint16_t *output) {
    for (size_t i = 0; i < pixels; i++) {
        uint32_t alpha = source[i * 4 + 3];
        output[i * 4] = (uint16_t)(source[i * 4] * alpha);
        output[i * 4 + 1] = (uint16_t)(source[i * 4 + 1] * alpha);
        output[i * 4 + 2] = (uint16_t)(source[i * 4 + 2] * alpha);
        output[i * 4 + 3] = (uint16_t)(alpha * 255);
    }
}

WI_VECTOR_CLONES
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

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>
#define WI_RGBX_INTRINSICS 1

// Two taps per multiply-add: two pixels' bytes widened to 16 bits and interleaved
// (r0 r1 g0 g1 b0 b1 a0 a1), so pmaddwd multiplies each by its tap's weight and adds the
// pair into one 32-bit sum per sample. SSE2, which every x86-64 has. Adds the taps from
// `k` on of one output's window to `sum`; an odd last tap reads its pixel's 4 bytes only.
static inline __m128i rgbx_add_pairs(__m128i sum, const uint8_t *pixel, const int16_t *w, int k, int taps) {
    const __m128i zero = _mm_setzero_si128();
    for (; k + 1 < taps; k += 2) {
        __m128i pair = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)(const void *)(pixel + k * 4)), zero);
        pair = _mm_unpacklo_epi16(pair, _mm_srli_si128(pair, 8));
        __m128i weight = _mm_set1_epi32((int32_t)((uint32_t)(uint16_t)w[k] | ((uint32_t)(uint16_t)w[k + 1] << 16)));
        sum = _mm_add_epi32(sum, _mm_madd_epi16(pair, weight));
    }
    if (k < taps) {
        int32_t bytes;
        memcpy(&bytes, pixel + k * 4, 4);
        __m128i one = _mm_unpacklo_epi16(_mm_unpacklo_epi8(_mm_cvtsi32_si128(bytes), zero), zero);
        sum = _mm_add_epi32(sum, _mm_madd_epi16(one, _mm_set1_epi32((uint16_t)w[k])));
    }
    return sum;
}

// Writes one output pixel's four 16-bit samples from its 32-bit sums (rounding added).
static inline void rgbx_store(int16_t *output, __m128i sum) {
    sum = _mm_srai_epi32(sum, 8);
    _mm_storel_epi64((__m128i *)(void *)output, _mm_packs_epi32(sum, sum));
}

static void rgbx_sse2(const uint8_t *source, int output_width, const int32_t *starts, const int16_t *weights, int taps,
                      int16_t *output) {
    for (int x = 0; x < output_width; x++) {
        const uint8_t *pixel = source + (size_t)starts[x] * 4;
        const int16_t *w = weights + (size_t)x * taps;
        rgbx_store(output + (size_t)x * 4, rgbx_add_pairs(_mm_set1_epi32(1 << 7), pixel, w, 0, taps));
    }
}

#if !defined(WI_UNDER_SANITIZER)
// Four taps per multiply-add: the same in both 128-bit lanes (taps k, k+1 in the low
// lane, k+2, k+3 in the high one), the lanes added at the end.
__attribute__((target("avx2"))) static void rgbx_avx2(const uint8_t *source, int output_width, const int32_t *starts,
                                                      const int16_t *weights, int taps, int16_t *output) {
    for (int x = 0; x < output_width; x++) {
        const uint8_t *pixel = source + (size_t)starts[x] * 4;
        const int16_t *w = weights + (size_t)x * taps;
        __m256i wide = _mm256_setzero_si256();
        int k = 0;
        for (; k + 3 < taps; k += 4) {
            __m256i quad = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(const void *)(pixel + k * 4)));
            quad = _mm256_unpacklo_epi16(quad, _mm256_srli_si256(quad, 8));
            uint32_t low = (uint32_t)(uint16_t)w[k] | ((uint32_t)(uint16_t)w[k + 1] << 16);
            uint32_t high = (uint32_t)(uint16_t)w[k + 2] | ((uint32_t)(uint16_t)w[k + 3] << 16);
            __m256i weight = _mm256_setr_epi32((int32_t)low, (int32_t)low, (int32_t)low, (int32_t)low, (int32_t)high,
                                               (int32_t)high, (int32_t)high, (int32_t)high);
            wide = _mm256_add_epi32(wide, _mm256_madd_epi16(quad, weight));
        }
        __m128i sum = _mm_add_epi32(_mm256_castsi256_si128(wide), _mm256_extracti128_si256(wide, 1));
        rgbx_store(output + (size_t)x * 4, rgbx_add_pairs(_mm_add_epi32(sum, _mm_set1_epi32(1 << 7)), pixel, w, k, taps));
    }
}
#endif
#endif

void wi_resample_row_rgbx(const uint8_t *source, int output_width, const int32_t *starts, const int16_t *weights,
                          int taps, int16_t *output) {
#if defined(WI_RGBX_INTRINSICS)
#if !defined(WI_UNDER_SANITIZER)
    // A read of the CPU features the runtime found at load (what target_clones uses).
    if (__builtin_cpu_supports("avx2")) {
        rgbx_avx2(source, output_width, starts, weights, taps, output);
        return;
    }
#endif
    rgbx_sse2(source, output_width, starts, weights, taps, output);
#else
    // All four samples, as four lanes of one vector (three would not vectorise); the
    // alpha lane is dropped when the row is written.
    for (int x = 0; x < output_width; x++) {
        const uint8_t *pixel = source + (size_t)starts[x] * 4;
        const int16_t *w = weights + (size_t)x * taps;
        int32_t sum[4] = { 1 << 7, 1 << 7, 1 << 7, 1 << 7 };
        for (int k = 0; k < taps; k++) {
            for (int c = 0; c < 4; c++) sum[c] += w[k] * (int32_t)pixel[k * 4 + c];
        }
        for (int c = 0; c < 4; c++) output[x * 4 + c] = (int16_t)(sum[c] >> 8);
    }
#endif
}

WI_VECTOR_CLONES
int wi_resample_is_opaque(const uint8_t *source, size_t pixels) {
    uint8_t all = 255;
    for (size_t i = 0; i < pixels; i++) all &= source[i * 4 + 3];
    return all == 255;
}

WI_VECTOR_CLONES
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

WI_VECTOR_CLONES
void wi_resample_accumulate(int32_t *accumulator, const int16_t *row, int16_t weight, size_t count) {
    for (size_t i = 0; i < count; i++) accumulator[i] += (int32_t)row[i] * weight;
}

static inline uint8_t clamp_sample(int32_t value) {
    return value < 0 ? 0 : value > 255 ? 255 : (uint8_t)value;
}

WI_VECTOR_CLONES
void wi_resample_emit_rgba(int32_t *accumulator, size_t pixels, uint8_t *output) {
    // Alpha was a*255 >> 2 after the horizontal pass, then times 2^14: a is
    // accumulator * 4 / (255 * 2^14). Colour over alpha is c/255. In float: one
    // division a pixel, where three integer ones would cost more than the filtering.
    const float alpha_scale = 4.0f / (255.0f * (float)(1 << WI_RESAMPLE_WEIGHT_BITS));
    for (size_t i = 0; i < pixels; i++) {
        int32_t *sample = accumulator + i * 4;
        float alpha = (float)sample[3];
        float colour_scale = alpha > 0 ? 255.0f / alpha : 0.0f;
        for (int c = 0; c < 3; c++) {
            float value = (float)sample[c] * colour_scale + 0.5f;
            output[i * 4 + c] = value <= 0 ? 0 : value >= 255 ? 255 : (uint8_t)value;
        }
        float a = alpha * alpha_scale + 0.5f;
        output[i * 4 + 3] = a <= 0 ? 0 : a >= 255 ? 255 : (uint8_t)a;
    }
    memset(accumulator, 0, pixels * 4 * sizeof(int32_t));
}

WI_VECTOR_CLONES
void wi_resample_emit_rgbx(int32_t *accumulator, size_t pixels, uint8_t *output) {
    const int shift = WI_RESAMPLE_WEIGHT_BITS + 6;
    for (size_t i = 0; i < pixels; i++) {
        for (int c = 0; c < 3; c++) output[i * 4 + c] = clamp_sample((accumulator[i * 4 + c] + (1 << (shift - 1))) >> shift);
        output[i * 4 + 3] = 255;
    }
    memset(accumulator, 0, pixels * 4 * sizeof(int32_t));
}

WI_VECTOR_CLONES
void wi_resample_emit_gray(int32_t *accumulator, size_t count, uint8_t *output) {
    const int shift = WI_RESAMPLE_WEIGHT_BITS + 6;
    for (size_t i = 0; i < count; i++) output[i] = clamp_sample((accumulator[i] + (1 << (shift - 1))) >> shift);
    memset(accumulator, 0, count * sizeof(int32_t));
}
