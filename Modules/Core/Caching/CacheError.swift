/// Why a cache operation failed. Reads of missing, expired, corrupt or foreign entries
/// are not errors (they are misses); writes that cannot happen are.
public struct CacheError: Error, Sendable, Hashable, CustomStringConvertible {
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        public var description: String { name }

        /// The cache directory cannot be created or written.
        public static let unwritableDirectory = Code("unwritableDirectory")
        /// The disk (or the process's quota) is full.
        public static let diskFull = Code("diskFull")
        /// Another write failure; `errno` says which.
        public static let writeFailed = Code("writeFailed")
        /// A read failed for a reason other than the entry being absent or damaged.
        public static let readFailed = Code("readFailed")
        /// The entry is larger than the cache's whole size limit.
        public static let entryTooLarge = Code("entryTooLarge")
    }

    public let code: Code
    public var message: String
    /// The system error number behind the failure, when there is one.
    public var errno: Int32?

    public init(_ code: Code, _ message: String, errno: Int32? = nil) {
        self.code = code
        self.message = message
        self.errno = errno
    }

    public var description: String { "\(code): \(message)" }
}
