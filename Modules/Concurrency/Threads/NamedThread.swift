import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension Thread {
    /// Starts a thread that runs `body` under `name` (see ``nameCurrent(_:)``).
    package static func startNamed(_ name: String, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread {
            Thread.nameCurrent(name)
            body()
        }
        thread.start()
    }

    /// Starts a joinable POSIX thread that runs `body`, named `name` when given: for a
    /// thread whose end someone waits for with `pthread_join` (a pool's shutdown, a loop
    /// that reports itself gone), which Foundation's `Thread` does not offer.
    package static func startJoinable(named name: String? = nil, _ body: @escaping @Sendable () -> Void) -> pthread_t {
        var thread = pthread_t()
        let result = pthread_create(
            &thread,
            nil,
            { raw in
                guard let raw else { return nil }
                let start = Unmanaged<JoinableStart>.fromOpaque(raw).takeRetainedValue()
                if let name = start.name { Thread.nameCurrent(name) }
                start.body()
                return nil
            },
            Unmanaged.passRetained(JoinableStart(name: name, body: body)).toOpaque()
        )
        precondition(result == 0, "could not start the thread \(name ?? "") (error \(result))")
        return thread
    }

    /// Names the calling thread as the system shows it (`top -H`, `perf`, `gdb`,
    /// `/proc/<pid>/task/<tid>/comm`), cut to the whole characters that fit in the 15
    /// bytes Linux keeps, and as Foundation's `Thread.current.name` shows it.
    ///
    /// The name goes to the system through `/proc/thread-self/comm`: Foundation on Linux
    /// passes a name set before `start()` to no one, and one set from the thread only
    /// once `start()` has returned in the starting thread; until then the thread shows
    /// its creator's name.
    package static func nameCurrent(_ name: String) {
        // Whole characters only: the system refuses a name over 15 bytes, and a cut
        // through a character would not be UTF-8.
        var shown = ""
        for character in name {
            guard shown.utf8.count + character.utf8.count <= 15 else { break }
            shown.append(character)
        }
        #if os(Linux)
            // Straight to the system (what `pthread_setname_np` does, which Swift's Glibc
            // does not export).
            let file = open("/proc/thread-self/comm", O_WRONLY)
            if file >= 0 {
                _ = shown.utf8CString.withUnsafeBufferPointer { write(file, $0.baseAddress, $0.count - 1) }
                close(file)
            }
        #endif
        Thread.current.name = shown
    }
}

/// What a joinable thread runs, handed to it through `pthread_create`'s argument.
private final class JoinableStart: Sendable {
    let name: String?
    let body: @Sendable () -> Void

    init(name: String?, body: @escaping @Sendable () -> Void) {
        self.name = name
        self.body = body
    }
}
