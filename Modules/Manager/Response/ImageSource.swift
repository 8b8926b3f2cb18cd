/// Where a loaded image came from.
public enum ImageSource: String, Sendable, Hashable, CustomStringConvertible {
    /// The memory cache: no decode, no I/O.
    case memory
    /// The disk cache's bytes, decoded.
    case disk
    /// Downloaded and decoded.
    case network
    /// The disk cache's bytes after the server answered 304 Not Modified to a
    /// conditional request (``ImageLoadOptions/refreshCached``).
    case revalidated

    public var description: String { rawValue }
}
