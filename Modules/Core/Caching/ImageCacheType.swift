/// Where an image is looked up and stored: decoded images in memory, downloaded bytes
/// on disk, both, or neither. The Manager queries memory, then disk.
public struct ImageCacheType: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Decoded images in the memory cache.
    public static let memory = ImageCacheType(rawValue: 1 << 0)
    /// Downloaded bytes, with their HTTP validators, in the disk cache.
    public static let disk = ImageCacheType(rawValue: 1 << 1)
    /// Downloaded bytes in a tier shared by a fleet (`SharedDataCaching`), read after the
    /// disk cache and before the network. Not part of ``all``: a manager has one only when
    /// given one.
    public static let shared = ImageCacheType(rawValue: 1 << 2)
    /// No cache at all.
    public static let none: ImageCacheType = []
    /// Memory and disk.
    public static let all: ImageCacheType = [.memory, .disk]
}
