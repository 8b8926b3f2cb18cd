import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// What AddressSanitizer adds to the resident set: it holds freed memory in a quarantine
/// (256 MiB by default) and pads every allocation with red zones. The memory bound allows
/// for it, so one run checks memory in a normal build and memory errors and leaks in an
/// instrumented one (`make test`).
enum SanitizerAllowance {
    /// Whether the AddressSanitizer runtime is in this process.
    static let underAddressSanitizer = dlsym(nil, "__asan_init") != nil

    /// MiB added to the default bound.
    static var extraMiB: Int { underAddressSanitizer ? 512 : 0 }
}
