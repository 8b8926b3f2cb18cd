// What the resampler's C files share about building for vector units: where AVX2
// versions are compiled and chosen at run time, and where they are not.
#ifndef WI_RESAMPLE_SIMD_H
#define WI_RESAMPLE_SIMD_H

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

// SSE2 intrinsics: every x86-64 has them.
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>
#define WI_SSE2_INTRINSICS 1
// AVX2 loops beside them, chosen at run time by __builtin_cpu_supports (not under a
// sanitizer, for the reason above).
#if !defined(WI_UNDER_SANITIZER)
#define WI_AVX2_DISPATCH 1
#endif
#endif

#endif
