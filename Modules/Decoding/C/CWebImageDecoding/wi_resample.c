#include "wi_resample.h"

#include <string.h>

#include "wi_resample_simd.h"

// Premultiplied samples are stored less 32768 (their top bit flipped), as signed 16-bit
// values: they reach 65025, past what a signed 16-bit multiply-add takes. Each
// horizontal sum then falls short by 32768 times its weights, whose sum the resampler
// makes exactly 2^14 for every output (ResampleWeights; its tests check it), so every
// sum starts from 2^29 (and one half, for rounding). Flipping once per source sample
// here, rather than in every window that reads it, saves the AVX2 loop an instruction
// a step.
enum { RGBA_START = (32768 << WI_RESAMPLE_WEIGHT_BITS) + (1 << 15) };

#if defined(WI_AVX2_DISPATCH)
// Four pixels a step: their bytes widened to 16 bits, times a vector of each pixel's
// alpha in its colour lanes and 255 in its alpha lane (a byte shuffle copies the alpha
// word; 16-bit products are exact, 65025 at most): a 400-pixel row in a third of the
// time the compiler's version of the loop below takes.
__attribute__((target("avx2"))) static size_t premultiply_avx2(const uint8_t *source, size_t pixels,
                                                               int16_t *output) {
    const __m256i spread = _mm256_setr_epi8(6, 7, 6, 7, 6, 7, -1, -1, 14, 15, 14, 15, 14, 15, -1, -1, 6, 7, 6, 7, 6, 7,
                                            -1, -1, 14, 15, 14, 15, 14, 15, -1, -1);
    const __m256i opaque = _mm256_setr_epi16(0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255);
    const __m256i flip = _mm256_set1_epi16((short)0x8000);
    size_t i = 0;
    for (; i + 4 <= pixels; i += 4) {
        __m256i samples = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(const void *)(source + i * 4)));
        __m256i factors = _mm256_or_si256(_mm256_shuffle_epi8(samples, spread), opaque);
        __m256i products = _mm256_xor_si256(_mm256_mullo_epi16(samples, factors), flip);
        _mm256_storeu_si256((__m256i *)(void *)(output + i * 4), products);
    }
    return i;
}
#endif

int wi_resample_tap_multiple(wi_resample_layout layout) {
    // Padded everywhere, as it always was: the AVX2 loop reads four taps at a time and
    // the SSE2 one takes zero weights as they come.
    if (layout == WI_RESAMPLE_OPAQUE_RGBA) return 4;
#if defined(WI_AVX2_DISPATCH)
    if (__builtin_cpu_supports("avx2")) return layout == WI_RESAMPLE_GRAY ? 8 : 4;
#endif
    return 1;
}

static inline int16_t flipped(uint32_t value) { return (int16_t)(value - 32768); }

WI_VECTOR_CLONES
static void premultiply_scalar(const uint8_t *source, size_t pixels, int16_t *output) {
    for (size_t i = 0; i < pixels; i++) {
        uint32_t alpha = source[i * 4 + 3];
        output[i * 4] = flipped(source[i * 4] * alpha);
        output[i * 4 + 1] = flipped(source[i * 4 + 1] * alpha);
        output[i * 4 + 2] = flipped(source[i * 4 + 2] * alpha);
        output[i * 4 + 3] = flipped(alpha * 255);
    }
}

void wi_resample_premultiply(const uint8_t *source, size_t pixels, int16_t *output) {
    size_t i = 0;
#if defined(WI_AVX2_DISPATCH)
    if (__builtin_cpu_supports("avx2")) i = premultiply_avx2(source, pixels, output);
#endif
    premultiply_scalar(source + i * 4, pixels - i, output + i * 4);
}

WI_VECTOR_CLONES
static void rgba_scalar(const int16_t *source, int output_width, const int32_t *starts, const int16_t *weights,
                        int taps, int16_t *output) {
    for (int x = 0; x < output_width; x++) {
        const int16_t *pixel = source + (size_t)starts[x] * 4;
        const int16_t *w = weights + (size_t)x * taps;
        int32_t sum[4] = { RGBA_START, RGBA_START, RGBA_START, RGBA_START };
        for (int k = 0; k < taps; k++) {
            for (int c = 0; c < 4; c++) sum[c] += w[k] * (int32_t)pixel[k * 4 + c];
        }
        for (int c = 0; c < 4; c++) output[x * 4 + c] = (int16_t)(sum[c] >> 16);
    }
}

#if defined(WI_AVX2_DISPATCH)
// Four taps per step: a 32-byte load holds taps k and k + 1 in the low lane and k + 2
// and k + 3 in the high one, a byte shuffle interleaves each lane's two pixels sample
// by sample, and one multiply-add with the plan's weights (w[k], w[k+1] four times in
// the low lane, w[k+2], w[k+3] in the high one) weighs both taps of each sample. The
// sums are the scalar loop's exactly.
__attribute__((target("avx2"))) static inline __m128i rgba_avx2_sums(const int16_t *pixel, const __m256i *w,
                                                                     int groups) {
    const __m256i interleave = _mm256_setr_epi8(0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15, 0, 1, 8, 9, 2, 3,
                                                10, 11, 4, 5, 12, 13, 6, 7, 14, 15);
    __m256i sum = _mm256_setzero_si256();
    for (int g = 0; g < groups; g++) {
        __m256i samples = _mm256_loadu_si256((const __m256i *)(const void *)(pixel + g * 16));
        __m256i pairs = _mm256_shuffle_epi8(samples, interleave);
        sum = _mm256_add_epi32(sum, _mm256_madd_epi16(pairs, _mm256_loadu_si256(w + g)));
    }
    __m128i total = _mm_add_epi32(_mm256_castsi256_si128(sum), _mm256_extracti128_si256(sum, 1));
    return _mm_srai_epi32(_mm_add_epi32(total, _mm_set1_epi32(RGBA_START)), 16);
}

// Two outputs a step, their samples packed and stored together. `groups` is the taps
// over four; eight taps (Catmull-Rom below 2x, the last step of most thumbnails) get a
// copy of the loop the compiler unrolls.
__attribute__((target("avx2"))) static inline void rgba_avx2_outputs(const int16_t *source, int output_width,
                                                                     const int32_t *starts, const int32_t *plan,
                                                                     int groups, int16_t *output) {
    const __m256i *w = (const __m256i *)(const void *)plan;
    int x = 0;
    for (; x + 2 <= output_width; x += 2) {
        __m128i first = rgba_avx2_sums(source + (size_t)starts[x] * 4, w + (size_t)x * (size_t)groups, groups);
        __m128i second =
            rgba_avx2_sums(source + (size_t)starts[x + 1] * 4, w + (size_t)(x + 1) * (size_t)groups, groups);
        _mm_storeu_si128((__m128i *)(void *)(output + (size_t)x * 4), _mm_packs_epi32(first, second));
    }
    if (x < output_width) {
        __m128i last = rgba_avx2_sums(source + (size_t)starts[x] * 4, w + (size_t)x * (size_t)groups, groups);
        _mm_storel_epi64((__m128i *)(void *)(output + (size_t)x * 4), _mm_packs_epi32(last, last));
    }
}

__attribute__((target("avx2"))) static void rgba_avx2(const int16_t *source, int output_width, const int32_t *starts,
                                                       const int32_t *plan, int taps, int16_t *output) {
    if (taps == 8) {
        rgba_avx2_outputs(source, output_width, starts, plan, 2, output);
    } else {
        rgba_avx2_outputs(source, output_width, starts, plan, taps / 4, output);
    }
}
#endif

void wi_resample_row_rgba(const int16_t *source, int output_width, const int32_t *starts, const int16_t *weights,
                          int taps, const int32_t *plan, int16_t *output) {
#if defined(WI_AVX2_DISPATCH)
    if (plan) {
        rgba_avx2(source, output_width, starts, plan, taps, output);
        return;
    }
#else
    (void)plan;
#endif
    rgba_scalar(source, output_width, starts, weights, taps, output);
}

#if defined(WI_SSE2_INTRINSICS)

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

#if defined(WI_AVX2_DISPATCH)
// Two outputs at once, one in each 128-bit lane, four taps per step: a 16-byte load of
// each output's next four pixels, two byte shuffles that widen pixels 0 and 1 (then 2
// and 3) of each lane interleaved as above, two multiply-adds with the plan's weights.
// Lanes never mix, so no lane has to be added to another at the end; four outputs are
// packed and stored at once. Shuffles are what limits this loop (one execution port
// does them), hence the plan: its weights are loaded, not spread.
__attribute__((target("avx2"))) static inline __m256i rgbx_avx2_group(__m256i sum, const uint8_t *left,
                                                                       const uint8_t *right, const __m256i *w,
                                                                       __m256i first, __m256i second) {
    __m256i pixels = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)left)),
                                             _mm_loadu_si128((const __m128i *)(const void *)right), 1);
    sum = _mm256_add_epi32(sum, _mm256_madd_epi16(_mm256_shuffle_epi8(pixels, first), _mm256_loadu_si256(w)));
    return _mm256_add_epi32(sum, _mm256_madd_epi16(_mm256_shuffle_epi8(pixels, second), _mm256_loadu_si256(w + 1)));
}

__attribute__((target("avx2"))) static int rgbx_avx2_pairs(const uint8_t *source, int output_width,
                                                           const int32_t *starts, int taps, const int32_t *plan,
                                                           int16_t *output) {
    const __m256i first = _mm256_setr_epi8(0, -1, 4, -1, 1, -1, 5, -1, 2, -1, 6, -1, 3, -1, 7, -1, 0, -1, 4, -1, 1,
                                           -1, 5, -1, 2, -1, 6, -1, 3, -1, 7, -1);
    const __m256i second = _mm256_setr_epi8(8, -1, 12, -1, 9, -1, 13, -1, 10, -1, 14, -1, 11, -1, 15, -1, 8, -1, 12,
                                            -1, 9, -1, 13, -1, 10, -1, 14, -1, 11, -1, 15, -1);
    const __m256i round = _mm256_set1_epi32(1 << 7);
    const int groups = taps / 4;
    __m256i sums[2];
    int x = 0;
    for (; x + 2 <= output_width; x += 2) {
        const uint8_t *left = source + (size_t)starts[x] * 4;
        const uint8_t *right = source + (size_t)starts[x + 1] * 4;
        const __m256i *w = (const __m256i *)(const void *)(plan + (size_t)(x / 2) * (size_t)groups * 16);
        __m256i sum = rgbx_avx2_group(round, left, right, w, first, second);
        for (int g = 1; g < groups; g++) sum = rgbx_avx2_group(sum, left + g * 16, right + g * 16, w + 2 * g, first, second);
        sums[(x / 2) & 1] = _mm256_srai_epi32(sum, 8);
        if ((x / 2) & 1) {
            // Lanes after packing: outputs x-2 and x in the low one, x-1 and x+1 in the
            // high one; put them in order.
            __m256i words = _mm256_permute4x64_epi64(_mm256_packs_epi32(sums[0], sums[1]), 0xD8);
            _mm256_storeu_si256((__m256i *)(void *)(output + (size_t)(x - 2) * 4), words);
        }
    }
    if ((x / 2) & 1) {
        __m256i words = _mm256_permute4x64_epi64(_mm256_packs_epi32(sums[0], sums[0]), 0x08);
        _mm_storeu_si128((__m128i *)(void *)(output + (size_t)(x - 2) * 4), _mm256_castsi256_si128(words));
    }
    return x;
}
#endif
#endif

size_t wi_resample_plan_size(wi_resample_layout layout, int output_width, int taps) {
#if defined(WI_AVX2_DISPATCH)
    if (taps % 4 == 0 && __builtin_cpu_supports("avx2")) {
        // Both lay out 16 weight pairs for every two outputs and four taps.
        size_t groups = (size_t)(taps / 4);
        if (layout == WI_RESAMPLE_OPAQUE_RGBA && output_width >= 2) return (size_t)(output_width / 2) * groups * 16;
        if (layout == WI_RESAMPLE_RGBA && output_width >= 1) return (size_t)output_width * groups * 8;
    }
#else
    (void)layout;
    (void)output_width;
    (void)taps;
#endif
    return 0;
}

static inline int32_t weight_pair(int16_t low, int16_t high) {
    return (int32_t)((uint32_t)(uint16_t)low | ((uint32_t)(uint16_t)high << 16));
}

void wi_resample_plan(wi_resample_layout layout, const int16_t *weights, int output_width, int taps, int32_t *plan) {
    if (layout == WI_RESAMPLE_RGBA) {
        // Per output and four taps: (w0, w1) four times, then (w2, w3) four times.
        for (int x = 0; x < output_width; x++) {
            for (int g = 0; g < taps / 4; g++) {
                const int16_t *w = weights + (size_t)x * (size_t)taps + g * 4;
                int32_t *vector = plan + ((size_t)x * (size_t)(taps / 4) + (size_t)g) * 8;
                for (int i = 0; i < 4; i++) {
                    vector[i] = weight_pair(w[0], w[1]);
                    vector[4 + i] = weight_pair(w[2], w[3]);
                }
            }
        }
        return;
    }
    // Opaque RGBA, per two outputs and four taps: the first two taps of each output
    // (one a lane), then the last two.
    for (int x = 0; x + 2 <= output_width; x += 2) {
        for (int g = 0; g < taps / 4; g++) {
            int32_t *vectors = plan + ((size_t)(x / 2) * (size_t)(taps / 4) + (size_t)g) * 16;
            for (int half = 0; half < 2; half++) {
                for (int lane = 0; lane < 2; lane++) {
                    const int16_t *w = weights + (size_t)(x + lane) * (size_t)taps + g * 4 + half * 2;
                    for (int i = 0; i < 4; i++) vectors[half * 8 + lane * 4 + i] = weight_pair(w[0], w[1]);
                }
            }
        }
    }
}

void wi_resample_row_rgbx(const uint8_t *source, int output_width, const int32_t *starts, const int16_t *weights,
                          int taps, const int32_t *plan, int16_t *output) {
#if defined(WI_SSE2_INTRINSICS)
    int x = 0;
#if defined(WI_AVX2_DISPATCH)
    if (plan) x = rgbx_avx2_pairs(source, output_width, starts, taps, plan, output);
#else
    (void)plan;
#endif
    rgbx_sse2(source, output_width - x, starts + x, weights + (size_t)x * (size_t)taps, taps, output + (size_t)x * 4);
#else
    (void)plan;
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
    // Whole pixels ANDed together (a vector AND of eight at a time), alpha read once at
    // the end: a byte loop with a stride of four does not vectorise as well.
    uint32_t all = 0xFFFFFFFFu;
    for (size_t i = 0; i < pixels; i++) {
        uint32_t pixel;
        memcpy(&pixel, source + i * 4, sizeof pixel);
        all &= pixel;
    }
    uint8_t bytes[4];
    memcpy(bytes, &all, sizeof bytes);
    return bytes[3] == 255;
}

WI_VECTOR_CLONES
static void gray_scalar(const uint8_t *source, int output_width, const int32_t *starts, const int16_t *weights,
                        int taps, int16_t *output) {
    for (int x = 0; x < output_width; x++) {
        const uint8_t *pixel = source + starts[x];
        const int16_t *w = weights + (size_t)x * taps;
        int32_t sum = 1 << 7;
        for (int k = 0; k < taps; k++) sum += w[k] * pixel[k];
        output[x] = (int16_t)(sum >> 8);
    }
}

#if defined(WI_AVX2_DISPATCH)
// Eight outputs a step, eight taps per multiply-add: each output's next eight bytes
// widened to 16 bits, two outputs to a register (one per 128-bit lane) beside their
// weights as stored, so no plan is needed. The compiler's vectorising of the loop above
// ran one output at a time, too few taps for a vector. Each lane's four partial sums
// are added by two rounds of horizontal adds, which leave the even outputs in the low
// lane and the odd ones in the high lane; one permute puts them in order. The sums are
// the scalar loop's, so the pixels are the same.

// Eight bytes from each of two windows, widened: the first in the low lane.
__attribute__((target("avx2"))) static inline __m256i gray_avx2_pixels(const uint8_t *first, const uint8_t *second) {
    int64_t low, high;
    memcpy(&low, first, 8);
    memcpy(&high, second, 8);
    return _mm256_cvtepu8_epi16(_mm_set_epi64x(high, low));
}

// Outputs x to x + 7 from the sums of pairs (x, x + 1) to (x + 6, x + 7).
__attribute__((target("avx2"))) static inline void gray_avx2_store(int16_t *output, const __m256i sums[4]) {
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    __m256i total = _mm256_hadd_epi32(_mm256_hadd_epi32(sums[0], sums[1]), _mm256_hadd_epi32(sums[2], sums[3]));
    total = _mm256_srai_epi32(_mm256_add_epi32(total, _mm256_set1_epi32(1 << 7)), 8);
    total = _mm256_permutevar8x32_epi32(total, order);
    _mm_storeu_si128((__m128i *)(void *)output,
                     _mm_packs_epi32(_mm256_castsi256_si128(total), _mm256_extracti128_si256(total, 1)));
}

// Windows of exactly eight taps, the common case (Catmull-Rom below 2x, area averaging
// up to 7x): two outputs' weights are 32 contiguous bytes, one load.
__attribute__((target("avx2"))) static int gray_avx2_8(const uint8_t *source, int output_width, const int32_t *starts,
                                                        const int16_t *weights, int16_t *output) {
    int x = 0;
    for (; x + 8 <= output_width; x += 8) {
        __m256i sums[4];
        for (int p = 0; p < 4; p++) {
            const int i = x + 2 * p;
            __m256i pair = _mm256_loadu_si256((const __m256i *)(const void *)(weights + (size_t)i * 8));
            sums[p] = _mm256_madd_epi16(gray_avx2_pixels(source + starts[i], source + starts[i + 1]), pair);
        }
        gray_avx2_store(output + x, sums);
    }
    return x;
}

// Any multiple of eight taps, eight at a time.
__attribute__((target("avx2"))) static int gray_avx2(const uint8_t *source, int output_width, const int32_t *starts,
                                                      const int16_t *weights, int taps, int16_t *output) {
    int x = 0;
    for (; x + 8 <= output_width; x += 8) {
        __m256i sums[4] = { _mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256(),
                            _mm256_setzero_si256() };
        for (int k = 0; k < taps; k += 8) {
            for (int p = 0; p < 4; p++) {
                const int i = x + 2 * p;
                const int16_t *w = weights + (size_t)i * (size_t)taps + k;
                __m256i pair =
                    _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)w)),
                                            _mm_loadu_si128((const __m128i *)(const void *)(w + taps)), 1);
                __m256i pixels = gray_avx2_pixels(source + starts[i] + k, source + starts[i + 1] + k);
                sums[p] = _mm256_add_epi32(sums[p], _mm256_madd_epi16(pixels, pair));
            }
        }
        gray_avx2_store(output + x, sums);
    }
    return x;
}
#endif

void wi_resample_row_gray(const uint8_t *source, int output_width, const int32_t *starts, const int16_t *weights,
                          int taps, int16_t *output) {
    int x = 0;
#if defined(WI_AVX2_DISPATCH)
    if (taps % 8 == 0 && __builtin_cpu_supports("avx2")) {
        x = taps == 8 ? gray_avx2_8(source, output_width, starts, weights, output)
                      : gray_avx2(source, output_width, starts, weights, taps, output);
    }
#endif
    gray_scalar(source, output_width - x, starts + x, weights + (size_t)x * (size_t)taps, taps, output + x);
}
