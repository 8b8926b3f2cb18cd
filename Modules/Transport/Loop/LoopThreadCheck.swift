#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The event loop's thread, for debug assertions on loop-only state (as swift-nio's
/// `assertInEventLoop`): transfers, the handle pool, the admission queues and the
/// credential cache are touched by the loop thread alone, without locks. Release builds
/// check nothing (`assert` compiles away).
final class LoopThreadCheck: @unchecked Sendable {
    /// Written once, by the loop thread as it starts, before any transfer can see it.
    private var thread: pthread_t?

    /// Called first thing on the loop thread.
    func recordCurrentThread() {
        thread = pthread_self()
    }

    /// Stops a debug build when called off the loop thread.
    func assertOnLoop(file: StaticString = #fileID, line: UInt = #line) {
        assert(isOnLoop, "loop-only state touched off the event loop's thread", file: file, line: line)
    }

    var isOnLoop: Bool {
        guard let thread else { return false }
        return pthread_equal(thread, pthread_self()) != 0
    }
}
