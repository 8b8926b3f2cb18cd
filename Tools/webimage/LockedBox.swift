import Foundation

/// A value behind Foundation's lock, for the program's shared counters. Not
/// `Synchronization.Mutex`: on Linux that is raw futex calls the thread sanitizer cannot
/// see; `NSLock` is a pthread mutex it understands. (The library's own `Locked` is
/// `package`, out of the tools' reach.)
final class LockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
