import WebImageCore

/// How one load behaves (SDWebImageOptions, for the Manager).
///
/// ```swift
/// let request = ImageRequest(url: url, options: [.refreshCached, .highPriority])
/// ```
public struct ImageLoadOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Load even a URL in the failed-URL set (it failed permanently a short while ago).
    public static let retryFailed = ImageLoadOptions(rawValue: 1 << 0)
    /// Download after the normal-priority downloads waiting in the queue.
    public static let lowPriority = ImageLoadOptions(rawValue: 1 << 1)
    /// Download before the normal-priority downloads waiting in the queue.
    public static let highPriority = ImageLoadOptions(rawValue: 1 << 2)
    /// Deliver partial images while the bytes arrive (progressive JPEG scans, interlaced
    /// PNG and GIF passes, or the rows so far).
    public static let progressiveLoad = ImageLoadOptions(rawValue: 1 << 3)
    /// Ask the server whether the copy on disk is still current (If-None-Match /
    /// If-Modified-Since from the stored ETag / Last-Modified): a 304 keeps the copy
    /// (source ``ImageSource/revalidated``), a 200 replaces it. The memory cache is
    /// skipped for the lookup. With ``fromCacheOnly``, which forbids asking, the caches
    /// answer as they are, memory included.
    public static let refreshCached = ImageLoadOptions(rawValue: 1 << 4)
    /// Never download: a miss in both caches fails with ``ImageLoadError/notCached``.
    public static let fromCacheOnly = ImageLoadOptions(rawValue: 1 << 5)
    /// Never read the caches: always download (the result is still stored).
    public static let fromLoaderOnly = ImageLoadOptions(rawValue: 1 << 6)
    /// Leave the disk cache out: neither read nor written.
    public static let memoryCacheOnly = ImageLoadOptions(rawValue: 1 << 7)
    /// Deliver the bytes (``ImageResponse/data``) without decoding them: for storing or
    /// passing on. Nothing is stored in memory; the bytes go to disk as usual.
    public static let returnDataWithoutDecoding = ImageLoadOptions(rawValue: 1 << 8)
    /// Decode large images at a reduced size: the longer side at most
    /// ``ImageLoadOptions/scaleDownPixelLimit`` pixels (JPEG scales while decoding, so
    /// the full size never exists in memory).
    public static let scaleDownLargeImages = ImageLoadOptions(rawValue: 1 << 9)
    /// Decode only the first frame of an animated GIF.
    public static let firstFrameOnly = ImageLoadOptions(rawValue: 1 << 10)
    /// Complete only after the bytes are written to the disk cache (by default the
    /// write waits until no load is running: see ``ImageManager/flushPendingWrites()``).
    public static let waitForCacheStore = ImageLoadOptions(rawValue: 1 << 11)
    /// Accept a server certificate that fails validation (self-signed, expired, another
    /// host's) for this load's download: the explicit opt-in, for development servers.
    /// Without it such a server fails the load with a trust error before any request
    /// byte is sent. With it the transport's trust policy (pins included) is skipped
    /// for this download, and the load shares no download with loads without it.
    /// The bytes are cached like any others, so a later load of the URL may be answered
    /// from the caches without the opt-in.
    public static let allowInvalidCertificates = ImageLoadOptions(rawValue: 1 << 12)
    /// Send and store cookies with this load's download (SDWebImage's `HandleCookies`),
    /// in the transport's in-memory jar. Off by default; a manager whose configuration
    /// sets ``ImageManager/Configuration/handlesCookies`` gives it to every load. The
    /// load shares no download with loads without it.
    public static let handleCookies = ImageLoadOptions(rawValue: 1 << 13)
    /// Decode every frame of an animation into `DecodedImage.frames`, whatever its length
    /// (`FrameBuffering.allFrames`). Without it, an animation of more than 16 MiB of
    /// frames carries its first frame and composes the others on demand
    /// (`DecodedImage.frameSource`). Cached apart from the load without it.
    public static let allFrames = ImageLoadOptions(rawValue: 1 << 14)

    /// The longer side, in pixels, that ``scaleDownLargeImages`` decodes to at most:
    /// 4096, so an RGBA image stays within 64 MiB.
    public static let scaleDownPixelLimit = 4096

    /// The options that change what a load does (and so which loads may share work);
    /// priority and retry-failed do not.
    static let behaviour: ImageLoadOptions = [
        .progressiveLoad, .refreshCached, .fromCacheOnly, .fromLoaderOnly, .memoryCacheOnly,
        .returnDataWithoutDecoding, .waitForCacheStore, .allowInvalidCertificates, .handleCookies,
    ]
}

extension ImageLoadOptions {
    /// The queue priority these options ask for: `.high` with ``highPriority``, `.low`
    /// with ``lowPriority``, `.normal` otherwise.
    var queuePriority: DownloadPriority {
        contains(.highPriority) ? .high : contains(.lowPriority) ? .low : .normal
    }
}
