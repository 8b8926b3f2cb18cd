import Dispatch
import Foundation

extension DiskCache {
    /// Which file date the age limit and the eviction order go by.
    public enum ExpiryDate: Sendable, Hashable {
        /// The last read or write: least recently used first (the default).
        case accessDate
        /// The last write: oldest stored first, however often read.
        case modificationDate
    }

    /// How a ``DiskCache`` is laid out and limited.
    ///
    /// ```swift
    /// var configuration = DiskCache.Configuration(directory: cachesURL, namespace: "images")
    /// configuration.maximumSize = 512 << 20
    /// let cache = DiskCache(configuration)
    /// ```
    public struct Configuration: Sendable {
        /// The root under which the namespace directory is created.
        public var directory: URL
        /// The name of this cache's own directory under ``directory``. A namespace that is
        /// not a plain file name (letters, digits, `-`, `_`, `.`, not starting with `.`) is
        /// replaced by its SHA-256, so it can never point outside the root.
        public var namespace: String
        /// The most bytes the entry files may take, 256 MiB by default. A store that goes
        /// past it evicts down to 90 % of it at once.
        public var maximumSize: Int = 256 << 20
        /// The age past which an entry is a miss and is removed, 7 days by default; `nil`
        /// for no age limit.
        public var maximumAge: TimeInterval? = 7 * 24 * 60 * 60
        /// The date ``maximumAge`` and eviction go by.
        public var expiryDate: ExpiryDate = .accessDate
        /// Whether entries sit in two-character subfolders (`ab/abcd…`), so that no single
        /// directory grows past a few thousand files. On by default.
        public var usesFanOut: Bool = true
        /// The queue the asynchronous methods do their I/O on; `nil` makes a serial
        /// utility-QoS queue for this cache, so asynchronous operations run in the order
        /// they were asked (a read after a store sees it) and a burst of stores does not
        /// spawn a thread each. Measured on two cores, a concurrent queue made a burst of
        /// 300 async stores 10-30 % slower; pass one for parallel reads on a fast disk.
        public var queue: DispatchQueue?
        /// The clock for file dates and ages; `nil` is the system clock. Tests set it to
        /// get deterministic eviction orders and expiry.
        public var clock: (@Sendable () -> Date)?

        /// The defaults for a cache in `directory/namespace`.
        public init(directory: URL, namespace: String = "default") {
            self.directory = directory
            self.namespace = namespace
        }

        /// The namespace as a directory name that cannot escape ``directory``.
        var safeNamespace: String {
            let allowed = namespace.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || byte == 0x2D || byte == 0x5F || byte == 0x2E
            }
            if allowed, !namespace.isEmpty, !namespace.hasPrefix("."), namespace.utf8.count <= 128 { return namespace }
            return "ns-" + SHA256Digest.hex(namespace.utf8)
        }
    }
}
