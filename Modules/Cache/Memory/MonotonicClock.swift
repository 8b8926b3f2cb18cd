#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The clock that time-to-live is measured on: nanoseconds since an arbitrary start,
/// never going back.
///
/// On Linux it reads `CLOCK_MONOTONIC_COARSE`, a vDSO read of the last tick (a few
/// nanoseconds, millisecond resolution): plenty for a TTL, and cheap enough for a hit.
/// It is read only when a TTL is configured.
enum MonotonicClock {
    static func nanoseconds() -> Int64 {
        var time = timespec()
        #if os(Linux)
            clock_gettime(CLOCK_MONOTONIC_COARSE, &time)
        #else
            clock_gettime(CLOCK_MONOTONIC, &time)
        #endif
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}
