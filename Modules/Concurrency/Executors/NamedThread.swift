import Foundation

extension Thread {
    /// Starts a thread that runs `body` under `name`, as the system shows it (`top -H`,
    /// `perf`, `gdb`, `/proc/<pid>/task/<tid>/comm`). Linux keeps the first 15 bytes.
    ///
    /// The thread names itself: Foundation on Linux passes a name to the system only when
    /// the thread sets its own. A name set before `start()` never arrived, and the thread
    /// showed its creator's name instead.
    package static func startNamed(_ name: String, _ body: @escaping @Sendable () -> Void) {
        let shown = String(decoding: name.utf8.prefix(15), as: UTF8.self)
        let thread = Thread {
            Thread.current.name = shown
            body()
        }
        thread.start()
    }
}
