// webimage-load: 10,000 loads over 1,000 URLs with random cancellation, 64 at once,
// through the default composition against a loopback server; checks that every load
// completes exactly once with the right image, that nothing is left behind, and that
// peak memory stays under a bound. Exit status 0 only when every check holds.
//
// Options: see LoadOptions.usage. The last line printed is machine-readable.
import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains("--help") || arguments.contains("-h") {
    print(LoadOptions.usage)
    exit(0)
}
let options: LoadOptions
do {
    options = try LoadOptions.parse(arguments)
} catch {
    FileHandle.standardError.write(Data("webimage-load: \(error)\n\(LoadOptions.usage)\n".utf8))
    exit(2)
}

/// Prints at once, so a test reading the pipe sees progress even if the run hangs.
@Sendable func say(_ line: String) {
    print(line)
    fflush(nil)
}

// A synchronous main that waits on a semaphore, not top-level `await`: an async main
// parks the main thread in dispatch_main's sigsuspend, which valgrind 3.19 cannot run
// (it dies with an internal SIGSEGV before the first load). Detached: top-level code is
// on the main actor, and a task inheriting that would wait for the blocked main thread.
let status = Atomic<Int32>(2)
let finished = DispatchSemaphore(value: 0)
Task.detached { [options] in
    defer { finished.signal() }
    let summary: LoadSummary
    do {
        summary = try await LoadRun.execute(options, log: { line in if !options.quiet { say(line) } })
    } catch {
        FileHandle.standardError.write(Data("webimage-load: could not run: \(error)\n".utf8))
        return
    }
    // The manager is gone by now; its transport's thread ends a moment after it is told
    // to, so give it that moment rather than exit under it (a leak checker would see its
    // buffers still held).
    try? await Task.sleep(for: .milliseconds(200))
    if !options.quiet { summary.humanReadable.forEach(say) }
    say(summary.machineReadable)
    status.store(summary.passed ? 0 : 1, ordering: .relaxed)
}
finished.wait()
exit(status.load(ordering: .relaxed))
