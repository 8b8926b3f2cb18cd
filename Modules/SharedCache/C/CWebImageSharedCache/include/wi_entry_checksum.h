// The shared cache's entry checksum in C, where it can use the vector units: the Swift
// side cannot ask for SSE4 or AVX2 instructions per function, and a scalar loop over a
// 50 KB value was a tenth of a shared hit's cost.
#ifndef WI_ENTRY_CHECKSUM_H
#define WI_ENTRY_CHECKSUM_H

#include <stddef.h>
#include <stdint.h>

/// The 64-bit checksum of `length` bytes, the same on every platform: AVX2 or SSE2 on
/// x86-64 where present, the portable loop elsewhere.
uint64_t wi_entry_checksum(const void *bytes, size_t length);

/// The same value from the portable loop alone (tests compare the two).
uint64_t wi_entry_checksum_portable(const void *bytes, size_t length);

#endif
