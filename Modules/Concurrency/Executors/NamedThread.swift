import Foundation

extension Thread {
    /// Starts a thread that runs `body` under `name`, as the system shows it (`top -H`,
    /// `perf`, `gdb`, `/proc/<pid>/task/<tid>/comm`), cut to the whole characters that fit
    /// in the 15 bytes Linux keeps.
    ///
    /// The thread names itself: Foundation on Linux passes a name to the system only when
    /// the thread sets its own. A name set before `start()` never arrived, and the thread
    /// showed its creator's name instead.
    package static func startNamed(_ name: String, _ body: @escaping @Sendable () -> Void) {
        // Whole characters only: the system refuses a name over 15 bytes, and a cut
        // through a character would not be UTF-8.
        var shown = ""
        for character in name {
            guard shown.utf8.count + character.utf8.count <= 15 else { break }
            shown.append(character)
        }
        let systemName = shown
        let thread = Thread {
            Thread.current.name = systemName
            body()
        }
        thread.start()
    }
}
