// A checksum of the kind XXH3 computes, for accidents rather than attackers: four
// 64-bit lanes over 32-byte stripes; each lane adds the product of the low and high
// halves of (data xor a key), and its neighbour lane adds the data itself (so no input
// bit is lost to a zero product). Keys differ for each of the 16 stripes of a 512-byte
// block, and the lanes are scrambled after each block, so moving stripes changes the
// sum. The vector versions compute exactly what the portable loop does.
#include "wi_entry_checksum.h"

#include <string.h>

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>
#define WI_CHECKSUM_SSE2 1
#if defined(__linux__) && !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
#define WI_CHECKSUM_AVX2 1
#endif
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#undef WI_CHECKSUM_AVX2
#endif
#endif
#endif

enum { STRIPE = 32, STRIPES_PER_BLOCK = 16 };

// Fixed random keys (splitmix64 from a constant seed): four per stripe of a block,
// then the four the scramble uses.
static const uint64_t keys[STRIPES_PER_BLOCK * 4 + 4] = {
    0xdc127c335241fe1cULL, 0xc020f976c6a3671aULL, 0xe1f0489e9dde252aULL, 0x2c8f32e8113c60afULL,
    0xd88763fd86543bfcULL, 0x88257da0c7b623b2ULL, 0xf1bf199df56fae3cULL, 0x7b86329eafc5c359ULL,
    0xaf38100b52503addULL, 0x987297876fd2545fULL, 0x9d69e35c57c62c69ULL, 0x2b99f086a3fc11f7ULL,
    0xd8d099471a028b54ULL, 0xcd7057a24fd1e74dULL, 0x5e2d9b86a007b0f3ULL, 0x280345b0071f116cULL,
    0x3de7d651c09f3119ULL, 0x611b0e4d0a861b48ULL, 0xd3ea6d5f6a2542a7ULL, 0x46e24a9836fcc6a6ULL,
    0xc74f4ec4016f23f3ULL, 0x94af95cfd1ffaea8ULL, 0xd0d69d934e85c485ULL, 0xd68e0a4f16f83d39ULL,
    0x13d238b3945ce15eULL, 0x5214d8df57d02d86ULL, 0x34db536272ece087ULL, 0xebf3ec9f55adb887ULL,
    0x52a322f5edfb89f5ULL, 0x26134c61ccb2e2cfULL, 0x2c38a44bb730e3b4ULL, 0x48daf605d63c53a2ULL,
    0xd7212b00090290abULL, 0x40bf3be69606c012ULL, 0x1d3b1728953983bbULL, 0xea3e9125ec22c941ULL,
    0xd35ca18ef918d1c4ULL, 0xbdc159c06d48b00bULL, 0xd5f20660980176bbULL, 0xf8290b69bf4c93e7ULL,
    0xacc8769fa86f3c0aULL, 0x462162a047978a62ULL, 0x8712909f281232c8ULL, 0x6026137204e0f5feULL,
    0xf80b633fe6c5a180ULL, 0x1b76849d79edab85ULL, 0xabc4df40fc5ffe1dULL, 0x2f63ea8c3855991aULL,
    0xd9a02e42bc7e2719ULL, 0x1f8cca734782c434ULL, 0x0c240071a87ace81ULL, 0xc578eb17f1ffb018ULL,
    0x79e98716fbdc4643ULL, 0x78fc3186477e36cfULL, 0xb0506970d878bd3fULL, 0x87a09143325e0825ULL,
    0x0d5eede5fb27052fULL, 0xfe990139e272c86cULL, 0x83b8d4eadac3cfc6ULL, 0x1c705ad45937b2fcULL,
    0xc360f8f55d8c6e0dULL, 0xe43a86926a99e48fULL, 0x1bed0d75ccb18d55ULL, 0x72c6038d2762c15dULL,
    0x057616acf536183dULL, 0x3c57be5e199180bbULL, 0x18051c599e12f038ULL, 0xa8fe5f9f9bb9361fULL,
};

static const uint64_t prime1 = 0x9e3779b185ebca87ULL;
static const uint64_t prime2 = 0xc2b2ae3d27d4eb4fULL;
static const uint64_t prime3 = 0x165667b19e3779f9ULL;
static const uint32_t scramble_prime = 0x9e3779b1U;

static inline uint64_t load64(const uint8_t *p) {
    uint64_t value;
    memcpy(&value, p, sizeof value);
    return value;  // little-endian hosts: x86-64 and arm64
}

static inline uint64_t rotate(uint64_t value, int bits) { return (value << bits) | (value >> (64 - bits)); }

static inline void stripe_portable(uint64_t acc[4], const uint8_t *p, const uint64_t *key) {
    uint64_t data[4];
    for (int lane = 0; lane < 4; lane++) data[lane] = load64(p + lane * 8);
    for (int lane = 0; lane < 4; lane++) {
        uint64_t mixed = data[lane] ^ key[lane];
        acc[lane ^ 1] += data[lane];
        acc[lane] += (mixed & 0xFFFFFFFFULL) * (mixed >> 32);
    }
}

static inline void scramble_portable(uint64_t acc[4]) {
    for (int lane = 0; lane < 4; lane++) {
        acc[lane] = (acc[lane] ^ (acc[lane] >> 47) ^ keys[STRIPES_PER_BLOCK * 4 + lane]) * scramble_prime;
    }
}

// The stripes of `length` bytes (whole stripes only) into `acc`, portably.
static size_t stripes_portable(uint64_t acc[4], const uint8_t *p, size_t length) {
    size_t offset = 0, stripe = 0;
    for (; offset + STRIPE <= length; offset += STRIPE) {
        stripe_portable(acc, p + offset, keys + stripe * 4);
        if (++stripe == STRIPES_PER_BLOCK) {
            scramble_portable(acc);
            stripe = 0;
        }
    }
    return offset;
}

#if defined(WI_CHECKSUM_SSE2)
// Two lanes a register. The raw data goes to the neighbour lane: swapping the 64-bit
// halves of each register does that, as lanes pair (0,1) and (2,3).
static inline __m128i stripe_half_sse2(__m128i acc, __m128i data, __m128i key) {
    __m128i mixed = _mm_xor_si128(data, key);
    __m128i product = _mm_mul_epu32(mixed, _mm_srli_epi64(mixed, 32));
    return _mm_add_epi64(acc, _mm_add_epi64(product, _mm_shuffle_epi32(data, _MM_SHUFFLE(1, 0, 3, 2))));
}

static inline __m128i scramble_sse2(__m128i acc, __m128i key) {
    __m128i mixed = _mm_xor_si128(_mm_xor_si128(acc, _mm_srli_epi64(acc, 47)), key);
    __m128i prime = _mm_set1_epi32((int32_t)scramble_prime);
    __m128i low = _mm_mul_epu32(mixed, prime);
    __m128i high = _mm_mul_epu32(_mm_srli_epi64(mixed, 32), prime);
    return _mm_add_epi64(low, _mm_slli_epi64(high, 32));
}

static size_t stripes_sse2(uint64_t acc[4], const uint8_t *p, size_t length) {
    __m128i a = _mm_loadu_si128((const __m128i *)(const void *)acc);
    __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(acc + 2));
    size_t offset = 0, stripe = 0;
    for (; offset + STRIPE <= length; offset += STRIPE) {
        const __m128i *key = (const __m128i *)(const void *)(keys + stripe * 4);
        a = stripe_half_sse2(a, _mm_loadu_si128((const __m128i *)(const void *)(p + offset)), _mm_loadu_si128(key));
        b = stripe_half_sse2(b, _mm_loadu_si128((const __m128i *)(const void *)(p + offset + 16)),
                             _mm_loadu_si128(key + 1));
        if (++stripe == STRIPES_PER_BLOCK) {
            const __m128i *scramble = (const __m128i *)(const void *)(keys + STRIPES_PER_BLOCK * 4);
            a = scramble_sse2(a, _mm_loadu_si128(scramble));
            b = scramble_sse2(b, _mm_loadu_si128(scramble + 1));
            stripe = 0;
        }
    }
    _mm_storeu_si128((__m128i *)(void *)acc, a);
    _mm_storeu_si128((__m128i *)(void *)(acc + 2), b);
    return offset;
}
#endif

#if defined(WI_CHECKSUM_AVX2)
// All four lanes in one register; a whole block unrolled, its keys loaded once a call.
__attribute__((target("avx2"))) static size_t stripes_avx2(uint64_t acc[4], const uint8_t *p, size_t length) {
    __m256i sum = _mm256_loadu_si256((const __m256i *)(const void *)acc);
    const __m256i scramble_key = _mm256_loadu_si256((const __m256i *)(const void *)(keys + STRIPES_PER_BLOCK * 4));
    const __m256i prime = _mm256_set1_epi32((int32_t)scramble_prime);
    size_t offset = 0, stripe = 0;
    for (; offset + STRIPE <= length; offset += STRIPE) {
        __m256i data = _mm256_loadu_si256((const __m256i *)(const void *)(p + offset));
        __m256i mixed = _mm256_xor_si256(data, _mm256_loadu_si256((const __m256i *)(const void *)(keys + stripe * 4)));
        __m256i product = _mm256_mul_epu32(mixed, _mm256_srli_epi64(mixed, 32));
        sum = _mm256_add_epi64(sum, _mm256_add_epi64(product, _mm256_shuffle_epi32(data, _MM_SHUFFLE(1, 0, 3, 2))));
        if (++stripe == STRIPES_PER_BLOCK) {
            __m256i scrambled = _mm256_xor_si256(_mm256_xor_si256(sum, _mm256_srli_epi64(sum, 47)), scramble_key);
            __m256i low = _mm256_mul_epu32(scrambled, prime);
            __m256i high = _mm256_mul_epu32(_mm256_srli_epi64(scrambled, 32), prime);
            sum = _mm256_add_epi64(low, _mm256_slli_epi64(high, 32));
            stripe = 0;
        }
    }
    _mm256_storeu_si256((__m256i *)(void *)acc, sum);
    return offset;
}
#endif

// The lanes, the length and the bytes after the last whole stripe, into one value.
static uint64_t finish(const uint64_t acc[4], const uint8_t *p, size_t offset, size_t length) {
    uint64_t hash = (uint64_t)length * prime1;
    for (int lane = 0; lane < 4; lane++) {
        uint64_t value = acc[lane];
        value ^= value >> 33;
        value *= prime2;
        hash = rotate(hash ^ value, 27) * prime1 + prime3;
    }
    for (; offset + 8 <= length; offset += 8) hash = rotate(hash ^ (load64(p + offset) * prime2), 31) * prime1 + prime3;
    for (; offset < length; offset++) hash = rotate(hash ^ ((uint64_t)p[offset] * prime3), 11) * prime1;
    hash ^= hash >> 33;
    hash *= prime2;
    hash ^= hash >> 29;
    hash *= prime3;
    return hash ^ (hash >> 32);
}

static void start(uint64_t acc[4]) {
    acc[0] = prime1;
    acc[1] = prime2;
    acc[2] = prime3;
    acc[3] = prime1 ^ prime2;
}

uint64_t wi_entry_checksum_portable(const void *bytes, size_t length) {
    uint64_t acc[4];
    start(acc);
    size_t offset = stripes_portable(acc, bytes, length);
    return finish(acc, bytes, offset, length);
}

uint64_t wi_entry_checksum(const void *bytes, size_t length) {
    uint64_t acc[4];
    start(acc);
    size_t offset;
#if defined(WI_CHECKSUM_AVX2)
    if (__builtin_cpu_supports("avx2")) {
        offset = stripes_avx2(acc, bytes, length);
        return finish(acc, bytes, offset, length);
    }
#endif
#if defined(WI_CHECKSUM_SSE2)
    offset = stripes_sse2(acc, bytes, length);
#else
    offset = stripes_portable(acc, bytes, length);
#endif
    return finish(acc, bytes, offset, length);
}
