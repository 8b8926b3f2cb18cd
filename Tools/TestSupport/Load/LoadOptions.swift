import Foundation

/// The run's parameters, from the command line (`--name value`), with `make load`'s
/// figures as defaults: 10,000 loads over 1,000 URLs, 64 in flight, a fifth cancelled.
///
/// Parsed by hand so the tool depends on nothing but the package itself.
struct LoadOptions: Sendable {
    var loads = 10_000
    var urls = 1_000
    /// Distinct images behind the URLs (each URL serves one of them).
    var images = 48
    var concurrency = 64
    /// The share of loads cancelled after a random short delay.
    var cancelShare = 0.2
    var seed: UInt64 = 7
    /// The bound on the process's peak resident memory (VmHWM).
    var maxRSSMiB = LoadOptions.defaultMaxRSSMiB
    /// The memory cache's cost limit: small enough that evictions happen, so repeats are
    /// served from disk as well as from memory.
    var memoryCacheMiB = 64
    /// How long the loads may take before those without a completion count as missing.
    var timeoutSeconds = 120.0
    /// Print only the final line.
    var quiet = false

    /// Measured peaks of the default run (64 MiB memory cache) were 203 to 232 MiB,
    /// release and debug alike: about 36 MiB before the loads, the memory cache's 64 MiB,
    /// up to 64 loads' bodies and decoded images in flight (the largest image is 1.5 MiB
    /// decoded), up to 32 MiB of bytes waiting for the disk, and the allocator's slack
    /// across threads. The bound is twice the mean peak: room for a busier machine's
    /// scheduling, while a leak of decoded images (some 5 GiB over the run) or an
    /// unbounded queue of them still crosses it. A smaller memory cache lowers the peak;
    /// a larger one needs a larger bound. Under AddressSanitizer the bound is 512 MiB
    /// higher (``SanitizerAllowance``).
    static let defaultMaxRSSMiB = 450 + SanitizerAllowance.extraMiB

    static let usage = """
        usage: webimage-load [--loads N] [--urls N] [--images N] [--concurrency N]
                             [--cancel-share F] [--seed N] [--max-rss-mib N]
                             [--memory-cache-mib N] [--timeout SECONDS] [--quiet]
        """

    struct UsageError: Error, CustomStringConvertible {
        let description: String
    }

    /// The options in `arguments` (without the program name).
    static func parse(_ arguments: [String]) throws(UsageError) -> LoadOptions {
        var options = LoadOptions()
        var rest = arguments[...]
        while let name = rest.popFirst() {
            if name == "--quiet" {
                options.quiet = true
                continue
            }
            guard let value = rest.popFirst() else { throw UsageError(description: "\(name) needs a value") }
            switch name {
            case "--loads": options.loads = try positive(name, value)
            case "--urls": options.urls = try positive(name, value)
            case "--images": options.images = try positive(name, value)
            case "--concurrency": options.concurrency = try positive(name, value)
            case "--max-rss-mib": options.maxRSSMiB = try positive(name, value)
            case "--memory-cache-mib": options.memoryCacheMiB = try positive(name, value)
            case "--seed":
                guard let seed = UInt64(value) else { throw UsageError(description: "--seed wants an unsigned integer") }
                options.seed = seed
            case "--cancel-share":
                guard let share = Double(value), (0...1).contains(share) else {
                    throw UsageError(description: "--cancel-share wants a number from 0 to 1")
                }
                options.cancelShare = share
            case "--timeout":
                guard let seconds = Double(value), seconds > 0 else { throw UsageError(description: "--timeout wants seconds") }
                options.timeoutSeconds = seconds
            default:
                throw UsageError(description: "unknown option \(name)")
            }
        }
        return options
    }

    private static func positive(_ name: String, _ value: String) throws(UsageError) -> Int {
        guard let number = Int(value), number > 0 else { throw UsageError(description: "\(name) wants a positive integer") }
        return number
    }
}
