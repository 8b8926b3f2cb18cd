import Foundation
import WebImageCore

/// Decoded images in memory and downloaded bytes on disk, queried in that order: the
/// SDImageCache role for the Manager.
///
/// Memory holds `DecodedImage`s under the key of the decoded image (the URL plus the
/// decode options and transforms that made it); disk holds the response bytes under
/// the key of the resource (the URL), so one download serves every decoded variant.
///
/// ```swift
/// let cache = ImageCache(memory: MemoryCache<CacheKey, DecodedImage>(), disk: DiskCache(directory: folder))
/// switch cache.query(imageKey: thumbKey, dataKey: urlKey, in: .all) {
/// case .image(let image, _): show(image)             // memory hit
/// case .data(let response): decode(response.data)    // disk hit: decode off the caller's thread
/// case nil: download()
/// }
/// ```
///
/// Thread contract: every method may be called from any thread at once.
public final class ImageCache: Sendable {
    /// Where a query found something.
    public enum QueryResult: Sendable {
        /// A decoded image from memory.
        case image(DecodedImage, ImageCacheType)
        /// Bytes (and their HTTP validators) from disk, to be decoded.
        case data(CachedResponse)
    }

    public let memory: (any MemoryCaching<CacheKey, DecodedImage>)?
    public let disk: (any DataCaching)?

    /// A cache over the given parts; leave one out to cache only in the other.
    public init(memory: (any MemoryCaching<CacheKey, DecodedImage>)?, disk: (any DataCaching)?) {
        self.memory = memory
        self.disk = disk
    }

    /// The decoded image for `imageKey` from memory, or else the bytes for `dataKey`
    /// from disk, looking only where `types` says. Synchronous: a disk query reads the
    /// file on the calling thread (use ``query(imageKey:dataKey:in:)-9u6f7`` otherwise).
    public func query(imageKey: CacheKey, dataKey: CacheKey, in types: ImageCacheType) -> QueryResult? {
        if let image = memoryImage(imageKey, types) { return .image(image, .memory) }
        if types.contains(.disk), let response = disk?.response(forKey: dataKey) { return .data(response) }
        return nil
    }

    /// ``query(imageKey:dataKey:in:)`` with the disk read off the caller's thread; a
    /// memory hit returns without a thread hop.
    public func query(imageKey: CacheKey, dataKey: CacheKey, in types: ImageCacheType) async -> QueryResult? {
        if let image = memoryImage(imageKey, types) { return .image(image, .memory) }
        if types.contains(.disk), let disk, let response = await disk.response(forKey: dataKey) { return .data(response) }
        return nil
    }

    /// ``query(imageKey:dataKey:in:)-9u6f7`` with a callback: a memory hit (or nothing
    /// to look up) calls back at once on the caller's thread; a disk query calls back on
    /// `callbackQueue`, or on a concurrency task when it is `nil`.
    public func query(
        imageKey: CacheKey, dataKey: CacheKey, in types: ImageCacheType,
        callbackQueue: DispatchQueue? = nil,
        completion: @escaping @Sendable (QueryResult?) -> Void
    ) {
        if let image = memoryImage(imageKey, types) { return completion(.image(image, .memory)) }
        guard types.contains(.disk), let disk else { return completion(nil) }
        Task {
            let response = await disk.response(forKey: dataKey)
            let result = response.map(QueryResult.data)
            if let callbackQueue { callbackQueue.async { completion(result) } } else { completion(result) }
        }
    }

    private func memoryImage(_ key: CacheKey, _ types: ImageCacheType) -> DecodedImage? {
        guard types.contains(.memory) else { return nil }
        return memory?.value(forKey: key)
    }

    /// Stores a decoded image in memory (cost: its pixel bytes) when `types` has
    /// `.memory`.
    public func storeImage(_ image: DecodedImage, forKey key: CacheKey, in types: ImageCacheType) {
        guard types.contains(.memory) else { return }
        memory?.setValue(image, forKey: key, cost: image.byteCount)
    }

    /// Stores response bytes on disk when `types` has `.disk`, off the caller's thread.
    ///
    /// - Throws: `CacheError` when the disk cache cannot write; the memory side and
    ///   what the disk already holds are unaffected.
    public func storeData(_ data: Data, metadata: CachedResponseMetadata, forKey key: CacheKey, in types: ImageCacheType)
        async throws(CacheError)
    {
        guard types.contains(.disk), let disk else { return }
        try await disk.store(data, metadata: metadata, forKey: key)
    }

    /// Removes the image and the bytes for the given keys from where `types` says.
    public func remove(imageKey: CacheKey, dataKey: CacheKey, from types: ImageCacheType) {
        if types.contains(.memory) { memory?.removeValue(forKey: imageKey) }
        if types.contains(.disk) { disk?.removeResponse(forKey: dataKey) }
    }

    /// Empties the parts `types` names.
    public func removeAll(from types: ImageCacheType) {
        if types.contains(.memory) { memory?.removeAll() }
        if types.contains(.disk) { disk?.removeAll() }
    }
}
