import Foundation
import WebImageCore
import WebImageResources

/// A load's stored variant: how it is written and under which key.
struct LoadVariant: Sendable {
    let storage: VariantStorage
    let key: ImageVariantKey

    /// `nil` without a storage, for a load that makes no variant (``ImageVariantKey``), and
    /// for one that wants the bytes only.
    init?(storage: VariantStorage?, request: ImageRequest) {
        guard let storage, !request.options.contains(.returnDataWithoutDecoding),
            let key = ImageVariantKey(request: request, encoderIdentifier: storage.encoderIdentifier)
        else { return nil }
        self.storage = storage
        self.key = key
    }
}

/// A variant found in a cache, with the metadata it was stored with (the source's).
struct FoundVariant: Sendable {
    let entry: VariantEntry
    let metadata: CachedResponseMetadata
    /// Where it was found: ``ImageSource/disk`` or ``ImageSource/shared``.
    let tier: ImageSource
}

extension LoadStages {
    /// The shared tier variants go to, if any.
    private var variantTier: (any SharedDataCaching)? {
        variant?.storage.storesInSharedCache == true ? shared : nil
    }

    /// Whether the load may look for its variant: a key, and a cache to look in.
    var looksForVariant: Bool { variant != nil && (disk != nil || variantTier != nil) }

    /// The load's variant on disk, else in the shared tier (a hit there is copied to
    /// disk and listed in its index, through the write-behind, or at once when `waits`). A damaged value on disk
    /// is removed; every fault is a miss.
    func storedVariant(waits: Bool) async -> FoundVariant? {
        guard let variant else { return nil }
        let key = variant.key.cacheKey
        if let disk, let stored = diskEntry(forKey: key, in: disk) {
            if let entry = VariantEntry(decoding: stored.data) { return FoundVariant(entry: entry, metadata: stored.metadata, tier: .disk) }
            disk.removeResponse(forKey: key)
        }
        guard let tier = variantTier, case .hit(let stored) = await tier.lookup(forKey: key, coalescing: false),
            let entry = VariantEntry(decoding: stored.data)
        else { return nil }
        if let disk {
            let write = DiskWriteBehind.Write(
                disk: disk, data: stored.data, metadata: stored.metadata, key: key, variantOf: variant.key.source)
            if waits { await writes.write(write) } else { writes.enqueue(write) }
        }
        return FoundVariant(entry: entry, metadata: stored.metadata, tier: .shared)
    }

    /// The entry for `key` waiting to be written or on disk, read on the calling thread (a
    /// synchronous function, so the synchronous read is the one called).
    private func diskEntry(forKey key: CacheKey, in disk: any DataCaching) -> CachedResponse? {
        writes.waitingResponse(for: key, in: disk) ?? disk.response(forKey: key)
    }

    /// Removes the load's variant from disk (out of date, or it did not decode). The
    /// tier's copy is replaced by the next store.
    func removeVariant() {
        guard let variant, let disk else { return }
        disk.removeResponse(forKey: variant.key.cacheKey)
    }

    /// Writes `found` to disk again with `metadata`, its source's once a revalidation
    /// refreshed it, so that the variant is fresh as long as its source. Already listed in
    /// the index of variants per source. The tier's copy keeps its own.
    func refreshVariant(_ found: FoundVariant, metadata: CachedResponseMetadata) {
        guard let variant, let disk else { return }
        writes.enqueue(.init(disk: disk, data: found.entry.encoded(), metadata: metadata, key: variant.key.cacheKey))
    }

    /// The image in `found`, decoded as it was stored: no scaling, no transform, the
    /// pixels as they are (`ColorHandling.preserve`), with the memory budget's reservation.
    func decodeVariant(_ found: FoundVariant, for request: ImageRequest, priority: DownloadPriority) async throws(ImageLoadError)
        -> BudgetedImage
    {
        let asked = decodeOptions(for: request)
        let options = DecodeOptions(
            maxPixelCount: asked.maxPixelCount, pixelFormat: asked.pixelFormat, maxFrameCount: asked.maxFrameCount,
            color: .preserve, frameBuffering: asked.frameBuffering)
        let data = found.entry.body
        let started = events.isActive ? ContinuousClock.now : nil
        let prepared: PreparedImageDecode
        do {
            prepared = try decoders.prepareDecode(data, options: options)
        } catch {
            throw .decoding(error, response: nil, bytes: data.count)
        }
        let reservation = try await reserveMemory(prepared, priority: priority)
        var image: DecodedImage
        do {
            image = try prepared.decode()
        } catch {
            throw .decoding(error, response: nil, bytes: data.count)
        }
        image.format = found.entry.format
        if let started { events.decoded(image, duration: ContinuousClock.now - started) }
        return BudgetedImage(image: image, reservation: reservation)
    }

    /// Stores `image`, the load's result, as its variant with the source's `metadata`: on
    /// disk and in the shared tier, each listed in its cache's index of variants per
    /// source (`VariantIndexing`). The encode and the stores run behind the loads, on the
    /// write-behind's turn and the manager's executor (the image held until then, counted
    /// in the write-behind's byte limit), or now when `waits`. An image the encoder cannot write (an animation, for a still-only
    /// encoder) is not stored; a failed encode or write costs the variant, never the load.
    func storeVariant(_ image: DecodedImage, metadata: CachedResponseMetadata, waits: Bool) async {
        guard variant != nil else { return }
        guard waits else {
            // On the manager's executor, as the load's own work: the encode stays off
            // Swift's cooperative pool, where the writer runs.
            writes.enqueueDeferred(holding: image.byteCount) { [self] in
                await withTaskExecutorPreference(executor) { await encodeAndStoreVariant(image, metadata: metadata) }
            }
            return
        }
        await encodeAndStoreVariant(image, metadata: metadata)
    }

    /// Encodes `image` and writes it to disk and to the tier, now.
    private func encodeAndStoreVariant(_ image: DecodedImage, metadata: CachedResponseMetadata) async {
        guard let variant else { return }
        let encoder = variant.storage.encoder
        let animated = image.isAnimated
        guard !animated || encoder is any AnimatedImageEncoding, let body = try? encoder.encode(image) else { return }
        let value = VariantEntry(kind: animated ? .animation : .still, format: image.format, body: body).encoded()
        let key = variant.key.cacheKey
        if let disk {
            await writes.write(DiskWriteBehind.Write(disk: disk, data: value, metadata: metadata, key: key, variantOf: variant.key.source))
            events.storedVariant(variant.key, bytes: value.count, in: .disk)
        }
        if let tier = variantTier {
            // Listed first, so a purge by source finds every variant the tier holds.
            if let index = tier as? any VariantIndexing { await index.recordVariant(key, ofSource: variant.key.source) }
            if (try? await tier.store(value, metadata: metadata, forKey: key)) != nil {
                events.storedVariant(variant.key, bytes: value.count, in: .shared)
            }
        }
    }
}

extension FoundVariant {
    /// Whether the variant was made from the source whose stored metadata is `source`: the
    /// same validators (`ETag`, `Last-Modified`); for a source with neither, the same
    /// response (the time it was stored). A source revalidated with a new validator, or
    /// downloaded again, no longer matches its older variants.
    func matches(source: CachedResponseMetadata) -> Bool {
        let ours = metadata
        if source.etag != nil || source.lastModified != nil || ours.etag != nil || ours.lastModified != nil {
            return ours.etag == source.etag && ours.lastModified == source.lastModified
        }
        // Within a millisecond: the disk cache keeps the time as seconds since 1970.
        return abs(ours.storedAt.timeIntervalSince(source.storedAt)) < 0.001
    }
}
