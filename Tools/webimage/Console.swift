import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the subcommands write: results on standard output, everything about the run
/// (progress, warnings, failure counts) on standard error, so that `--json` output and
/// tables can be piped on without noise.
enum Console {
    /// Prints `text` on standard output and flushes at once: a program reading our output
    /// through a pipe (a test, `webimage serve | ...`) sees each line when it happens,
    /// not when a block buffer fills.
    static func line(_ text: String) {
        print(text)
        fflush(nil)  // every output stream; naming `stdout` is not concurrency-safe in Swift 6
    }

    /// Writes `text` and a newline on standard error.
    static func note(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// Whether standard error is a terminal a person is watching (progress bars only
    /// make sense there; in a log file they are noise).
    static var standardErrorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }
}
