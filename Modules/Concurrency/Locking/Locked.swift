#if WEBIMAGE_TSAN
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// A value behind a lock: in this build (`WEBIMAGE_TSAN`, set by `make test-tsan`) a
    /// pthread mutex, which the thread sanitizer understands.
    ///
    /// The normal build uses `Synchronization.Mutex` itself (see the other branch). On Linux
    /// that mutex is built on raw futex calls the thread sanitizer cannot see, so every
    /// access it protects would be reported as a race; this stand-in with the same shape lets
    /// the sanitizer check the code around it.
    @usableFromInline
    package struct Locked<Value>: @unchecked Sendable {
        private final class Storage: @unchecked Sendable {
            var mutex = pthread_mutex_t()
            var value: Value

            init(_ value: Value) {
                self.value = value
                pthread_mutex_init(&mutex, nil)
            }

            deinit { pthread_mutex_destroy(&mutex) }
        }

        private let storage: Storage

        @usableFromInline
        package init(_ initialValue: Value) {
            storage = Storage(initialValue)
        }

        @usableFromInline
        package func withLock<Result, E: Error>(_ body: (inout sending Value) throws(E) -> sending Result) throws(E) -> sending Result {
            pthread_mutex_lock(&storage.mutex)
            defer { pthread_mutex_unlock(&storage.mutex) }
            return try body(&storage.value)
        }
    }
#else
    import Synchronization

    /// A value behind a lock: `Synchronization.Mutex`, under a name the thread-sanitizer
    /// build (`make test-tsan`) can replace with a pthread mutex the sanitizer understands.
    /// The modules use this name so that the sanitizer checks them, not the lock. It is
    /// `package`, not public (apps have `Mutex`), and `@usableFromInline` because the memory
    /// cache's inlinable hot paths hold one.
    @usableFromInline
    package typealias Locked<Value> = Mutex<Value>
#endif
